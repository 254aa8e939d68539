//! The module tree as drawing needs it: every module by address, and each op's module path
//! (outermost first, containers that are never called included), computed once and borrowed
//! from the trace so that planning large traces allocates little.

use std::collections::HashMap;

use tl_trace_model::{ModuleRecord, OpKind, Trace};

/// Modules by address, with their place in the tree and their op counts.
#[derive(Debug, Clone)]
pub struct ModuleTree<'t> {
    modules: HashMap<&'t str, &'t ModuleRecord>,
    /// Per op: addresses of the modules it ran inside, outermost first, root excluded.
    paths: Vec<Vec<&'t str>>,
    /// Per module address: ops (kind `op`) run inside it, any call, recursively.
    op_counts: HashMap<&'t str, usize>,
}

impl<'t> ModuleTree<'t> {
    /// The tree of `trace`.
    pub fn new(trace: &'t Trace) -> ModuleTree<'t> {
        let modules: HashMap<&'t str, &'t ModuleRecord> = trace
            .modules
            .iter()
            .map(|m| (m.address.as_str(), m))
            .collect();
        let mut ancestry_of: HashMap<&'t str, Vec<&'t str>> = HashMap::new();
        let mut paths = Vec::with_capacity(trace.ops.len());
        let mut op_counts: HashMap<&'t str, usize> = HashMap::new();
        for op in &trace.ops {
            let path = match op.modules.last() {
                None => Vec::new(),
                Some(innermost) => {
                    let address = innermost
                        .rsplit_once(':')
                        .map_or(innermost.as_str(), |(a, _)| a);
                    ancestry_of
                        .entry(address)
                        .or_insert_with(|| ancestry(&modules, address))
                        .clone()
                }
            };
            if op.kind == OpKind::Op {
                for address in &path {
                    *op_counts.entry(address).or_default() += 1;
                }
            }
            paths.push(path);
        }
        ModuleTree {
            modules,
            paths,
            op_counts,
        }
    }

    /// The module record at `address`.
    pub fn module(&self, address: &str) -> Option<&'t ModuleRecord> {
        self.modules.get(address).copied()
    }

    /// Ops run inside the module at `address` (any call, recursively).
    pub fn op_count(&self, address: &str) -> usize {
        self.op_counts.get(address).copied().unwrap_or(0)
    }

    /// Addresses of the modules op `index` ran inside, outermost first, the root excluded:
    /// the innermost call's module and all its ancestors, never-called containers too.
    pub fn path(&self, index: usize) -> &[&'t str] {
        &self.paths[index]
    }
}

/// `address` and its ancestors below the root, outermost first.
fn ancestry<'t>(modules: &HashMap<&'t str, &'t ModuleRecord>, address: &'t str) -> Vec<&'t str> {
    let mut path = Vec::new();
    let mut current = Some(address);
    while let Some(address) = current {
        let record = modules.get(address);
        if record.is_none_or(|m| m.parent.is_none()) {
            break;
        }
        current = record.and_then(|m| m.parent.as_deref());
        path.push(record.map_or(address, |m| m.address.as_str()));
    }
    path.reverse();
    path
}
