//! Lookups every visibility computation needs, built once per trace and shared by the
//! collapse planner and the visible graph: op and call labels to indices, the dataflow as
//! index lists, each op's call stack (all resolved by validation), and the module tree.

use tl_trace_model::{parallel, IndexLists, Trace, TraceError, Validated};

use crate::{ModuleId, ModuleTree};

/// Lookups over one validated trace, shared by every stage of a drawing.
#[derive(Debug, Clone)]
pub struct TraceIndex<'t> {
    /// The trace.
    pub trace: &'t Trace,
    /// Its module tree.
    pub tree: ModuleTree<'t>,
    /// The name lookups, parents and call stacks validation resolved.
    names: Validated<'t>,
    children: IndexLists,
    /// Per op: [`TraceIndex::is_leaf_output`], found once per call.
    leaf_output: Vec<bool>,
}

impl<'t> TraceIndex<'t> {
    /// Indexes a validated trace (so every label it names exists), reusing what validation
    /// resolved: the name lookups, each op's parents and its call stack.
    pub fn new(names: Validated<'t>) -> TraceIndex<'t> {
        let trace = names.trace();
        // Children are the inverse of parents (validation checks both lists agree); the
        // module tree shares nothing with them (two threads for a large trace).
        let (tree, children) = parallel::join(
            trace,
            || ModuleTree::new(&names),
            || names.parents().inverse(trace.ops.len()),
        );
        let mut index = TraceIndex {
            trace,
            tree,
            names,
            children,
            leaf_output: Vec::new(),
        };
        index.leaf_output = index.leaf_outputs();
        index
    }

    /// Validates `trace` and indexes it.
    pub fn validate(trace: &'t Trace) -> Result<TraceIndex<'t>, TraceError> {
        trace.validated().map(TraceIndex::new)
    }

    /// Distinct parents of op `i`, in argument order.
    #[inline]
    pub fn parents(&self, i: usize) -> &[usize] {
        self.names.parents().row(i)
    }

    /// Children of op `i`.
    #[inline]
    pub fn children(&self, i: usize) -> &[usize] {
        self.children.row(i)
    }

    /// The calls op `i` ran inside (indices into `trace.module_calls`), outermost first.
    #[inline]
    pub fn stack(&self, i: usize) -> &[usize] {
        self.names.call_stacks().row(i)
    }

    /// The index of the op labelled `label`.
    pub fn op(&self, label: &str) -> Option<usize> {
        self.names.op(label)
    }

    /// The module call `call` (index into `trace.module_calls`) ran.
    #[inline]
    pub fn call_module(&self, call: usize) -> ModuleId {
        self.names.call_module(call) as ModuleId
    }

    /// The children of module `module` (indices into `trace.modules`), as its record lists
    /// them.
    #[inline]
    pub fn module_children(&self, module: ModuleId) -> &[usize] {
        self.names.module_children().row(module as usize)
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

    /// Whether op `i` is one of several outputs of a leaf module's call that does nothing
    /// else (an `nn.LSTMCell` returning `(h, c)`): every operation of the call is an output
    /// of it, fed only from outside. Like a leaf module's single operation, each such output
    /// is drawn as the module's rectangle with its address row, with no frame around them.
    pub fn is_leaf_output(&self, i: usize) -> bool {
        self.leaf_output[i]
    }

    /// [`TraceIndex::is_leaf_output`] of every op, one pass over the leaf calls.
    fn leaf_outputs(&self) -> Vec<bool> {
        let mut leaf_output = vec![false; self.trace.ops.len()];
        for (call, record) in self.trace.module_calls.iter().enumerate() {
            if record.ops.len() < 2 || !self.module_children(self.call_module(call)).is_empty() {
                continue;
            }
            let ops: Vec<usize> = record
                .ops
                .iter()
                .filter_map(|label| self.op(label))
                .collect();
            let only_outputs = ops.len() == record.ops.len()
                && ops.iter().all(|&op| {
                    let own = &self.trace.ops[op];
                    own.kind == tl_trace_model::OpKind::Op
                        && own.output_of_calls.contains(&record.label)
                        && self.stack(op).last() == Some(&call)
                        && self
                            .parents(op)
                            .iter()
                            .all(|&parent| self.stack(parent).last() != Some(&call))
                });
            if only_outputs {
                ops.iter().for_each(|&op| leaf_output[op] = true);
            }
        }
        leaf_output
    }
}
