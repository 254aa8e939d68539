//! The module tree as drawing needs it: every module by address and by a small integer id,
//! and each op's module path (outermost first, containers that are never called included).
//! Paths are shared per innermost module and borrowed from the trace, so indexing a trace of
//! 100,000 operations allocates per module, not per op.

use std::ops::Range;

use tl_trace_model::{ModuleRecord, NameIndex, OpKind, Validated};

/// A module's index in [`ModuleTree`] (its position in `trace.modules`).
pub type ModuleId = u32;

/// Modules by address and id, with their place in the tree and their op counts.
#[derive(Debug, Clone)]
pub struct ModuleTree<'t> {
    records: &'t [ModuleRecord],
    id_of: NameIndex<'t>,
    /// Per module id: its path (ancestors below the root, then itself) in the arenas.
    path_of: Vec<Range<usize>>,
    path_ids: Vec<ModuleId>,
    path_addresses: Vec<&'t str>,
    /// Per op: its innermost module's id; `None` for ops of the root.
    innermost: Vec<Option<ModuleId>>,
    /// Per module id: ops (kind `op`) run inside it, any call, recursively.
    op_counts: Vec<usize>,
}

impl<'t> ModuleTree<'t> {
    /// The tree of a validated trace (each module's parent and each op's innermost module
    /// come from what validation resolved).
    pub fn new(names: &Validated<'t>) -> ModuleTree<'t> {
        let trace = names.trace();
        let records = trace.modules.as_slice();
        // Copying validation's address map is several times cheaper than hashing every
        // address again.
        let id_of = names.module_addresses().clone();
        let stacks = names.call_stacks();
        let innermost: Vec<Option<ModuleId>> = (0..trace.ops.len())
            .map(|i| {
                let call = *stacks.row(i).last()?;
                Some(names.call_module(call) as ModuleId)
            })
            .collect();
        // A path is stored only for a module some op ran innermost in, and is as long as
        // that op's call stack at least (a module's ancestors each ran a call around it):
        // the paths take memory linear in the trace, even for a module tree 10,000 deep
        // (storing every module's path took 2 GB there).
        let mut path_of: Vec<Range<usize>> = vec![0..0; records.len()];
        let mut stored = vec![false; records.len()];
        let mut path_ids = Vec::with_capacity(records.len() * 4);
        let mut path_addresses = Vec::with_capacity(records.len() * 4);
        let mut ancestors = Vec::new();
        for &module in innermost.iter().flatten() {
            let module = module as usize;
            if std::mem::replace(&mut stored[module], true) {
                continue;
            }
            ancestors.clear();
            let mut current = Some(module);
            // The root (no parent) is left out of every path; the length bound stops at a
            // (malformed) cycle of parents.
            while let Some(m) = current.filter(|&m| records[m].parent.is_some()) {
                if ancestors.len() > records.len() {
                    break;
                }
                ancestors.push(m);
                current = names.module_parent(m);
            }
            let start = path_ids.len();
            for &m in ancestors.iter().rev() {
                path_ids.push(m as ModuleId);
                path_addresses.push(records[m].address.as_str());
            }
            path_of[module] = start..path_ids.len();
        }
        let mut tree = ModuleTree {
            records,
            id_of,
            path_of,
            path_ids,
            path_addresses,
            innermost,
            op_counts: vec![0; records.len()],
        };
        for (i, op) in trace.ops.iter().enumerate() {
            if op.kind == OpKind::Op {
                for k in tree.path_range(i) {
                    tree.op_counts[tree.path_ids[k] as usize] += 1;
                }
            }
        }
        tree
    }

    fn path_range(&self, op: usize) -> Range<usize> {
        self.innermost[op].map_or(0..0, |id| self.path_of[id as usize].clone())
    }

    /// The id of the module at `address`.
    pub fn id(&self, address: &str) -> Option<ModuleId> {
        self.id_of.get(address).map(|id| id as ModuleId)
    }

    /// Number of modules (ids are `0..len`).
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// True for a trace without modules (never: the root is always there).
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The module record with id `id`.
    pub fn record(&self, id: ModuleId) -> &'t ModuleRecord {
        &self.records[id as usize]
    }

    /// The module record at `address`.
    pub fn module(&self, address: &str) -> Option<&'t ModuleRecord> {
        self.id(address).map(|id| self.record(id))
    }

    /// Ops run inside the module at `address` (any call, recursively).
    pub fn op_count(&self, address: &str) -> usize {
        self.id(address).map_or(0, |id| self.op_counts[id as usize])
    }

    /// Ops run inside the module with id `id` (any call, recursively).
    pub fn op_count_of(&self, id: ModuleId) -> usize {
        self.op_counts[id as usize]
    }

    /// Addresses of the modules op `index` ran inside, outermost first, the root excluded:
    /// the innermost call's module and all its ancestors, never-called containers too.
    pub fn path(&self, index: usize) -> &[&'t str] {
        &self.path_addresses[self.path_range(index)]
    }

    /// [`ModuleTree::path`] as module ids.
    pub fn path_ids(&self, index: usize) -> &[ModuleId] {
        &self.path_ids[self.path_range(index)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_take_memory_linear_in_the_trace_for_a_deep_module_tree() {
        let depth = 3000;
        let trace = tl_trace_model::synthetic::deep_modules(depth);
        let validated = trace.validated().unwrap();
        let tree = ModuleTree::new(&validated);
        // One path, the leaf's (every module's path would be 4.5 million entries).
        assert!(tree.path_ids.len() <= depth, "{}", tree.path_ids.len());
        let leaf = trace
            .ops
            .iter()
            .position(|op| op.layer_type == "linear")
            .unwrap();
        assert_eq!(tree.path(leaf).len(), depth);
        assert_eq!(tree.path(leaf)[0], "m1");
        assert_eq!(tree.op_count("m1"), 1);
        assert_eq!(tree.op_count("leaf"), 1);
    }
}
