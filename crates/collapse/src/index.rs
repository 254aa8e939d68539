//! Lookups every visibility computation needs, built once per trace and shared by the
//! collapse planner and the visible graph: op and call labels to indices, the dataflow as
//! index lists, each op's call stack, and the module tree.

use std::ops::Range;

use rustc_hash::FxHashMap;
use tl_trace_model::Trace;

use crate::ModuleTree;

/// A list of indices per row (per op, per module), stored flat.
#[derive(Debug, Clone, Default)]
pub(crate) struct Lists {
    starts: Vec<usize>,
    items: Vec<usize>,
}

impl Lists {
    pub(crate) fn build<'a>(rows: impl Iterator<Item = impl Iterator<Item = usize> + 'a>) -> Lists {
        let (rows_hint, _) = rows.size_hint();
        let mut lists = Lists {
            starts: Vec::with_capacity(rows_hint + 1),
            items: Vec::with_capacity(rows_hint * 2),
        };
        lists.starts.push(0);
        for row in rows {
            lists.items.extend(row);
            lists.starts.push(lists.items.len());
        }
        lists
    }

    /// The inverse relation over `targets` rows: row `t` lists, in order, the rows whose
    /// list holds `t`.
    pub(crate) fn inverse(&self, targets: usize) -> Lists {
        let mut starts = vec![0usize; targets + 1];
        for &target in &self.items {
            starts[target + 1] += 1;
        }
        for t in 0..targets {
            starts[t + 1] += starts[t];
        }
        let mut fill = starts.clone();
        let mut items = vec![0usize; self.items.len()];
        for source in 0..self.starts.len() - 1 {
            for &target in self.row(source) {
                items[fill[target]] = source;
                fill[target] += 1;
            }
        }
        Lists { starts, items }
    }

    /// These rows followed by those of `next`.
    fn followed_by(mut self, next: Lists) -> Lists {
        let offset = self.items.len();
        self.items.extend(next.items);
        self.starts
            .extend(next.starts[1..].iter().map(|start| start + offset));
        self
    }

    pub(crate) fn row(&self, i: usize) -> &[usize] {
        let range: Range<usize> = self.starts[i]..self.starts[i + 1];
        &self.items[range]
    }
}

/// Op labels to indices, and each op's distinct parents (first occurrence kept: an op may
/// read one tensor twice).
fn dataflow(trace: &Trace) -> (FxHashMap<&str, usize>, Lists) {
    let ops_by_label = positions(trace.ops.iter().map(|op| op.label.as_str()));
    let parents = Lists::build(trace.ops.iter().enumerate().map(|(i, op)| {
        let mut seen: Vec<usize> = Vec::with_capacity(op.parents.len());
        for label in &op.parents {
            // Most ops read the op just before them: comparing with a record still in cache
            // is cheaper than hashing the label.
            let parent = match i.checked_sub(1) {
                Some(previous) if trace.ops[previous].label == *label => previous,
                _ => ops_by_label[label.as_str()],
            };
            if !seen.contains(&parent) {
                seen.push(parent);
            }
        }
        seen.into_iter()
    }));
    (ops_by_label, parents)
}

/// `name -> position` over `names`.
fn positions<'t>(names: impl ExactSizeIterator<Item = &'t str>) -> FxHashMap<&'t str, usize> {
    let mut map = FxHashMap::with_capacity_and_hasher(names.len(), Default::default());
    map.extend(names.enumerate().map(|(i, name)| (name, i)));
    map
}

/// The calls each op of `ops` ran inside, as indices into `trace.module_calls`.
fn call_stacks(trace: &Trace, calls: &FxHashMap<&str, usize>, ops: Range<usize>) -> Lists {
    let ops = &trace.ops[ops];
    let mut stacks = Lists {
        starts: Vec::with_capacity(ops.len() + 1),
        items: Vec::with_capacity(ops.len() * 4),
    };
    stacks.starts.push(0);
    // Consecutive ops mostly ran inside the same calls: compare each label with the one the
    // previous op has at the same depth (in cache) before hashing it.
    let mut previous: (&[String], usize) = (&[], 0);
    for op in ops {
        let start = stacks.items.len();
        for (depth, label) in op.modules.iter().enumerate() {
            let call = match previous.0.get(depth) {
                Some(same) if same == label => stacks.items[previous.1 + depth],
                _ => calls[label.as_str()],
            };
            stacks.items.push(call);
        }
        stacks.starts.push(stacks.items.len());
        previous = (&op.modules, start);
    }
    stacks
}

/// Lookups over one validated trace, shared by every stage of a drawing.
#[derive(Debug, Clone)]
pub struct TraceIndex<'t> {
    /// The trace.
    pub trace: &'t Trace,
    /// Its module tree.
    pub tree: ModuleTree<'t>,
    pub(crate) ops_by_label: FxHashMap<&'t str, usize>,
    calls_by_label: FxHashMap<&'t str, usize>,
    params_by_address: FxHashMap<&'t str, usize>,
    parents: Lists,
    children: Lists,
    stacks: Lists,
}

impl<'t> TraceIndex<'t> {
    /// Indexes `trace` (validated: every label it names exists).
    pub fn new(trace: &'t Trace) -> TraceIndex<'t> {
        // The module side and the dataflow side share nothing: build them on two threads,
        // then each op's calls, half of the ops on each (the three parts take about as long).
        let ((tree, calls_by_label), (ops_by_label, parents, params_by_address)) =
            std::thread::scope(|scope| {
                let modules = scope.spawn(|| {
                    let calls = positions(trace.module_calls.iter().map(|c| c.label.as_str()));
                    (ModuleTree::new(trace), calls)
                });
                let (ops_by_label, parents) = dataflow(trace);
                let params = positions(trace.params.iter().map(|p| p.address.as_str()));
                (
                    modules.join().expect("indexing modules does not panic"),
                    (ops_by_label, parents, params),
                )
            });
        let half = trace.ops.len() / 2;
        let stacks = std::thread::scope(|scope| {
            let calls = &calls_by_label;
            let second = scope.spawn(move || call_stacks(trace, calls, half..trace.ops.len()));
            call_stacks(trace, calls, 0..half)
                .followed_by(second.join().expect("indexing calls does not panic"))
        });
        // Children are the inverse of parents (validation checks both lists agree).
        let children = parents.inverse(trace.ops.len());
        TraceIndex {
            trace,
            tree,
            ops_by_label,
            calls_by_label,
            params_by_address,
            parents,
            children,
            stacks,
        }
    }

    /// Distinct parents of op `i`, in argument order.
    pub fn parents(&self, i: usize) -> &[usize] {
        self.parents.row(i)
    }

    /// Children of op `i`.
    pub fn children(&self, i: usize) -> &[usize] {
        self.children.row(i)
    }

    /// The calls op `i` ran inside (indices into `trace.module_calls`), outermost first.
    pub fn stack(&self, i: usize) -> &[usize] {
        self.stacks.row(i)
    }

    /// The index of the op labelled `label`.
    pub fn op(&self, label: &str) -> Option<usize> {
        self.ops_by_label.get(label).copied()
    }

    /// The index (into `trace.module_calls`) of the call labelled `label`.
    pub fn call(&self, label: &str) -> Option<usize> {
        self.calls_by_label.get(label).copied()
    }

    /// The index (into `trace.params`) of the parameter at `address`.
    pub fn param(&self, address: &str) -> Option<usize> {
        self.params_by_address.get(address).copied()
    }

    /// The index (into `trace.modules`) of the module at `address`.
    pub fn module(&self, address: &str) -> Option<usize> {
        self.tree.id(address).map(|id| id as usize)
    }
}
