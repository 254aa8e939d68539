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
        // Each path is the parent's path plus the module; parents are resolved first.
        let mut path_of: Vec<Option<Range<usize>>> = vec![None; records.len()];
        let mut path_ids = Vec::with_capacity(records.len() * 4);
        let mut path_addresses = Vec::with_capacity(records.len() * 4);
        for id in 0..records.len() {
            let mut pending = Vec::new();
            let mut current = Some(id);
            // The length bound stops at a (malformed) cycle of parents.
            while let Some(module) = current.filter(|&m| path_of[m].is_none()) {
                if pending.len() > records.len() {
                    break;
                }
                pending.push(module);
                current = names.module_parent(module);
            }
            for module in pending.into_iter().rev() {
                let start = path_ids.len();
                // The root (no parent) is left out of every path.
                if records[module].parent.is_some() {
                    let inherited = names
                        .module_parent(module)
                        .and_then(|parent| path_of[parent].clone())
                        .unwrap_or(0..0);
                    path_ids.extend_from_within(inherited.clone());
                    path_addresses.extend_from_within(inherited);
                    path_ids.push(module as ModuleId);
                    path_addresses.push(records[module].address.as_str());
                }
                path_of[module] = Some(start..path_ids.len());
            }
        }
        let path_of: Vec<Range<usize>> =
            path_of.into_iter().map(Option::unwrap_or_default).collect();
        let stacks = names.call_stacks();
        let innermost: Vec<Option<ModuleId>> = (0..trace.ops.len())
            .map(|i| {
                let call = *stacks.row(i).last()?;
                Some(names.call_module(call) as ModuleId)
            })
            .collect();
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
