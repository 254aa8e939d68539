//! The module tree as drawing needs it: every module by address, and each op's module path
//! (outermost first, containers that are never called included).

use std::collections::HashMap;

use tl_trace_model::{ModuleRecord, OpKind, OpRecord, Trace};

/// Modules by address, with their place in the tree and their op counts.
#[derive(Debug, Clone)]
pub struct ModuleTree {
    modules: HashMap<String, ModuleRecord>,
    /// Per module address: ops (kind `op`) run inside it, any call, recursively.
    op_counts: HashMap<String, usize>,
}

impl ModuleTree {
    /// The tree of `trace`.
    pub fn new(trace: &Trace) -> ModuleTree {
        let modules: HashMap<String, ModuleRecord> = trace
            .modules
            .iter()
            .map(|m| (m.address.clone(), m.clone()))
            .collect();
        let mut tree = ModuleTree {
            modules,
            op_counts: HashMap::new(),
        };
        for op in trace.ops.iter().filter(|op| op.kind == OpKind::Op) {
            for address in tree.path_of(op) {
                *tree.op_counts.entry(address).or_default() += 1;
            }
        }
        tree
    }

    /// The module record at `address`.
    pub fn module(&self, address: &str) -> Option<&ModuleRecord> {
        self.modules.get(address)
    }

    /// Ops run inside the module at `address` (any call, recursively).
    pub fn op_count(&self, address: &str) -> usize {
        self.op_counts.get(address).copied().unwrap_or(0)
    }

    /// Addresses of the modules an op ran inside, outermost first, the root excluded:
    /// the innermost call's module and all its ancestors, never-called containers too.
    pub fn path_of(&self, op: &OpRecord) -> Vec<String> {
        let Some(innermost) = op.modules.last() else {
            return Vec::new();
        };
        let address = innermost
            .rsplit_once(':')
            .map_or(innermost.as_str(), |(a, _)| a);
        self.ancestry(address)
    }

    /// `address` and its ancestors below the root, outermost first.
    pub fn ancestry(&self, address: &str) -> Vec<String> {
        let mut path = Vec::new();
        let mut current = Some(address.to_owned());
        while let Some(address) = current {
            let record = self.modules.get(&address);
            if record.is_none_or(|m| m.parent.is_none()) {
                break;
            }
            current = record.and_then(|m| m.parent.clone());
            path.push(address);
        }
        path.reverse();
        path
    }
}
