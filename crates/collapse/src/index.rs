//! Lookups every visibility computation needs, built once per trace and shared by the
//! collapse planner and the visible graph: op and call labels to indices, the dataflow as
//! index lists, each op's call stack, and the module tree.

use std::ops::Range;

use tl_trace_model::{parallel, Trace, TraceError, Validated};

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

/// Each op's distinct parents (first occurrence kept: an op may read one tensor twice).
fn distinct_parents(names: &Validated<'_>) -> Lists {
    let trace = names.trace();
    Lists::build(trace.ops.iter().enumerate().map(|(i, op)| {
        let mut seen: Vec<usize> = Vec::with_capacity(op.parents.len());
        for label in &op.parents {
            // Most ops read the op just before them: comparing with a record still in cache
            // is cheaper than hashing the label.
            let parent = match i.checked_sub(1) {
                Some(previous) if trace.ops[previous].label == *label => previous,
                _ => names
                    .op(label)
                    .expect("validated: every parent names an op"),
            };
            if !seen.contains(&parent) {
                seen.push(parent);
            }
        }
        seen.into_iter()
    }))
}

/// The calls each op of `ops` ran inside, as indices into `trace.module_calls`.
fn call_stacks(names: &Validated<'_>, ops: Range<usize>) -> Lists {
    let ops = &names.trace().ops[ops];
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
                _ => names
                    .call(label)
                    .expect("validated: every op's calls exist"),
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
    /// The name lookups validation built.
    names: Validated<'t>,
    parents: Lists,
    children: Lists,
    stacks: Lists,
}

impl<'t> TraceIndex<'t> {
    /// Indexes a validated trace (so every label it names exists), reusing the lookups
    /// validation built.
    pub fn new(names: Validated<'t>) -> TraceIndex<'t> {
        let trace = names.trace();
        // The module tree and the dataflow share nothing: build them side by side (on two
        // threads for a large trace), then each op's calls, half of the ops on each side.
        let (tree, parents) = parallel::join(
            trace,
            || ModuleTree::new(trace),
            || distinct_parents(&names),
        );
        let half = trace.ops.len() / 2;
        let (second, first) = parallel::join(
            trace,
            || call_stacks(&names, half..trace.ops.len()),
            || call_stacks(&names, 0..half),
        );
        let stacks = first.followed_by(second);
        // Children are the inverse of parents (validation checks both lists agree).
        let children = parents.inverse(trace.ops.len());
        TraceIndex {
            trace,
            tree,
            names,
            parents,
            children,
            stacks,
        }
    }

    /// Validates `trace` and indexes it.
    pub fn validate(trace: &'t Trace) -> Result<TraceIndex<'t>, TraceError> {
        trace.validated().map(TraceIndex::new)
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
        self.names.op(label)
    }

    /// The index (into `trace.module_calls`) of the call labelled `label`.
    pub fn call(&self, label: &str) -> Option<usize> {
        self.names.call(label)
    }

    /// The index (into `trace.params`) of the parameter at `address`.
    pub fn param(&self, address: &str) -> Option<usize> {
        self.names.param(address)
    }

    /// The index (into `trace.modules`) of the module at `address`.
    pub fn module(&self, address: &str) -> Option<usize> {
        self.tree.id(address).map(|id| id as usize)
    }
}
