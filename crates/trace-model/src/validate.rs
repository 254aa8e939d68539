//! Cross-record validation: references resolve, the forward graph is acyclic, counts agree.
//!
//! Serde already checked types and required fields; this module checks what a type system
//! cannot. Every error carries the JSON path of the offending field, prefixed with `prefix`
//! so that bundle members report `members[1].trace.ops[4].parents[0]`.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// Up to this many items, a list is searched by a scan; past it, through a set, so that
/// every check stays linear in the trace.
const FEW: usize = 16;

use petgraph::graph::DiGraph;

use crate::error::TraceError;
use crate::lists::IndexLists;
use crate::parallel;
use crate::records::{Bundle, OpKind, Trace};

type Result<T> = std::result::Result<T, TraceError>;

/// Names of one kind of record (op labels, module addresses, ...) to their positions in
/// their list; built by validation, which refuses repeated names.
#[derive(Debug, Clone, Default)]
pub struct NameIndex<'t> {
    positions: HashMap<&'t str, usize>,
}

impl NameIndex<'_> {
    /// The position of the record named `name`.
    #[inline]
    pub fn get(&self, name: &str) -> Option<usize> {
        self.positions.get(name).copied()
    }
}

/// Builds a `name -> index` map, refusing repeats.
fn unique_index<'a>(
    names: impl Iterator<Item = &'a str>,
    path_of: impl Fn(usize) -> String,
    what: &'static str,
) -> Result<NameIndex<'a>> {
    let (size, _) = names.size_hint();
    let mut positions = HashMap::with_capacity_and_hasher(size, Default::default());
    for (position, name) in names.enumerate() {
        if positions.insert(name, position).is_some() {
            return Err(TraceError::DuplicateLabel {
                path: path_of(position),
                what,
                name: name.to_owned(),
            });
        }
    }
    Ok(NameIndex { positions })
}

/// What `name` resolves to in `index`, or the dangling-reference error at `path`.
fn require(
    index: &NameIndex<'_>,
    name: &str,
    path: impl FnOnce() -> String,
    what: &'static str,
) -> Result<usize> {
    index
        .get(name)
        .ok_or_else(|| TraceError::DanglingReference {
            path: path(),
            what,
            name: name.to_owned(),
        })
}

/// Like [`require`] for a name of `names` (op labels, parameter addresses, ...), trying the
/// `guesses` first: the neighbouring record is usually the one named, and comparing it
/// (still in cache) is cheaper than hashing the name.
fn require_near<'t>(
    names: impl Fn(usize) -> Option<&'t str>,
    guesses: impl IntoIterator<Item = Option<usize>>,
    index: &NameIndex<'_>,
    name: &str,
    path: impl FnOnce() -> String,
    what: &'static str,
) -> Result<usize> {
    match guesses
        .into_iter()
        .flatten()
        .find(|&g| names(g) == Some(name))
    {
        Some(found) => Ok(found),
        None => require(index, name, path, what),
    }
}

/// `path` is only built for the error (validation runs over every record).
/// A count or size too large to be real: the sum or product of its parts overflows.
fn overflow(path: String) -> TraceError {
    TraceError::Inconsistent {
        path,
        detail: "the value (or the sum or product it is made of) is larger than 2^64: no real model has that many elements".to_owned(),
    }
}

/// The sum of `parts`, refused when it overflows.
pub(crate) fn checked_sum(
    path: impl FnOnce() -> String,
    parts: impl IntoIterator<Item = u64>,
) -> Result<u64> {
    parts
        .into_iter()
        .try_fold(0u64, u64::checked_add)
        .ok_or_else(|| overflow(path()))
}

/// The module records form one tree, which every later stage walks: each module's parent
/// lists it among its children and each listed child names it as parent, every module is
/// reached from the root exactly once (so no cycle, and none is its own parent), and each
/// `depth` is its distance from the root.
fn check_module_tree(
    trace: &Trace,
    prefix: &str,
    root: usize,
    parents: &[Option<usize>],
    children: &IndexLists,
) -> Result<()> {
    let inconsistent = |m: usize, field: &str, detail: String| TraceError::Inconsistent {
        path: format!("{prefix}modules[{m}].{field}"),
        detail,
    };
    let address = |m: usize| trace.modules[m].address.as_str();
    for m in 0..parents.len() {
        for &child in children.row(m) {
            if parents[child] != Some(m) {
                return Err(inconsistent(
                    m,
                    "children",
                    format!(
                        "lists `{}` as a child, but that module's parent is {}",
                        address(child),
                        parents[child].map_or("none".to_owned(), |p| format!("`{}`", address(p)))
                    ),
                ));
            }
        }
    }
    // Walk down from the root: a module reached twice, or never, is not in one tree.
    let mut depth: Vec<Option<u32>> = vec![None; trace.modules.len()];
    depth[root] = Some(0);
    let mut stack = vec![root];
    while let Some(m) = stack.pop() {
        let below = depth[m].unwrap_or(0).saturating_add(1);
        for &child in children.row(m) {
            if depth[child].replace(below).is_some() {
                return Err(inconsistent(
                    child,
                    "parent",
                    format!("`{}` is reached twice from the root module", address(child)),
                ));
            }
            stack.push(child);
        }
    }
    // Every listed child names its lister as parent (above), so a module the walk did not
    // reach is one its parent does not list, or one on a cycle of parents.
    for (m, module) in trace.modules.iter().enumerate() {
        match depth[m] {
            None => {
                let detail = match parents[m] {
                    Some(parent) if depth[parent].is_some() => format!(
                        "names `{}` as parent, which does not list `{}` among its children",
                        address(parent),
                        module.address
                    ),
                    _ => format!(
                        "`{}` is not under the root module `{}` (its parents form a cycle)",
                        module.address,
                        address(root)
                    ),
                };
                return Err(inconsistent(m, "parent", detail));
            }
            Some(found) if found != module.depth => {
                return Err(inconsistent(
                    m,
                    "depth",
                    format!(
                        "is {}, but `{}` is {found} levels below the root module",
                        module.depth, module.address
                    ),
                ))
            }
            Some(_) => {}
        }
    }
    Ok(())
}

fn check_count(path: impl FnOnce() -> String, recorded: u64, computed: u64) -> Result<()> {
    if recorded == computed {
        Ok(())
    } else {
        Err(TraceError::CountMismatch {
            path: path(),
            recorded,
            computed,
        })
    }
}

/// A trace that passed validation, with what the checks resolved: the name lookups, each
/// op's parents and call stack, each module's parent and children and each call's module. Proof, for code
/// that relies on every name in a trace resolving, that it does (`tl_collapse::TraceIndex`
/// is built from one and reuses what it resolved). Made by [`Trace::validated`].
#[derive(Debug, Clone)]
pub struct Validated<'t> {
    trace: &'t Trace,
    ops: NameIndex<'t>,
    calls: NameIndex<'t>,
    params: NameIndex<'t>,
    modules: NameIndex<'t>,
    parents: IndexLists,
    call_stacks: IndexLists,
    call_modules: Vec<usize>,
    module_parents: Vec<Option<usize>>,
    module_children: IndexLists,
}

impl<'t> Validated<'t> {
    /// The trace.
    #[inline]
    pub fn trace(&self) -> &'t Trace {
        self.trace
    }

    /// The index (into `ops`) of the op labelled `label`.
    #[inline]
    pub fn op(&self, label: &str) -> Option<usize> {
        self.ops.get(label)
    }

    /// The index (into `module_calls`) of the call labelled `label`.
    #[inline]
    pub fn call(&self, label: &str) -> Option<usize> {
        self.calls.get(label)
    }

    /// The index (into `params`) of the parameter at `address`.
    #[inline]
    pub fn param(&self, address: &str) -> Option<usize> {
        self.params.get(address)
    }

    /// The index (into `modules`) of the module at `address`.
    #[inline]
    pub fn module(&self, address: &str) -> Option<usize> {
        self.modules.get(address)
    }

    /// Module addresses to module indices (for a module tree to keep a copy of).
    pub fn module_addresses(&self) -> &NameIndex<'t> {
        &self.modules
    }

    /// Per op: its distinct parents (indices into `ops`) in argument order, the first
    /// occurrence kept (an op may read one tensor twice).
    #[inline]
    pub fn parents(&self) -> &IndexLists {
        &self.parents
    }

    /// Per op: the calls it ran inside (indices into `module_calls`), outermost first.
    #[inline]
    pub fn call_stacks(&self) -> &IndexLists {
        &self.call_stacks
    }

    /// The module (index into `modules`) that call `call` (index into `module_calls`) ran.
    #[inline]
    pub fn call_module(&self, call: usize) -> usize {
        self.call_modules[call]
    }

    /// The parent (index into `modules`) of module `module`; `None` for the root.
    #[inline]
    pub fn module_parent(&self, module: usize) -> Option<usize> {
        self.module_parents[module]
    }

    /// Per module: its children (indices into `modules`), in the order the record lists them.
    #[inline]
    pub fn module_children(&self) -> &IndexLists {
        &self.module_children
    }
}

/// Validates one trace; `prefix` is prepended to every JSON path.
pub(crate) fn validate_trace<'t>(trace: &'t Trace, prefix: &str) -> Result<Validated<'t>> {
    // The op labels on this thread, the other names on a second one.
    let (others, ops) = parallel::join(
        trace,
        || {
            let modules = unique_index(
                trace.modules.iter().map(|m| m.address.as_str()),
                |i| format!("{prefix}modules[{i}].address"),
                "module address",
            )?;
            let calls = unique_index(
                trace.module_calls.iter().map(|c| c.label.as_str()),
                |i| format!("{prefix}module_calls[{i}].label"),
                "module call label",
            )?;
            let params = unique_index(
                trace.params.iter().map(|p| p.address.as_str()),
                |i| format!("{prefix}params[{i}].address"),
                "parameter address",
            )?;
            Ok((modules, calls, params))
        },
        || {
            unique_index(
                trace.ops.iter().map(|op| op.label.as_str()),
                |i| format!("{prefix}ops[{i}].label"),
                "op label",
            )
        },
    );
    let ops = ops?;
    let (modules, calls, params) = others?;
    let conditionals: HashMap<u32, ()> = trace.conditionals.iter().map(|c| (c.id, ())).collect();

    // The module records (and the summary counts, to balance the sides) and the op records
    // are checked on two threads (large traces spend most of their load time here); errors
    // are reported in the same order as one thread would.
    let ((modules_checked, counts_checked), ops_checked) = parallel::join(
        trace,
        || {
            (
                validate_modules(trace, prefix, &modules, &calls, &ops),
                validate_counts(trace, prefix),
            )
        },
        || validate_ops(trace, prefix, &ops, &calls, &params, &conditionals),
    );
    let ModuleLinks {
        parents: module_parents,
        children: module_children,
        call_modules,
    } = modules_checked?;
    let (parents, call_stacks) = ops_checked?;
    counts_checked?;
    validate_backward(trace, prefix, &params)?;
    if let Some(edits) = &trace.edits {
        for (e, edit) in edits.edits.iter().enumerate() {
            for (s, site) in edit.sites.iter().enumerate() {
                require(
                    &ops,
                    site,
                    || format!("{prefix}edits.edits[{e}].sites[{s}]"),
                    "op",
                )?;
            }
        }
    }
    for (e, edge) in trace.conditional_branch_edges.iter().enumerate() {
        require(
            &ops,
            &edge.parent,
            || format!("{prefix}conditional_branch_edges[{e}].parent"),
            "op",
        )?;
        require(
            &ops,
            &edge.child,
            || format!("{prefix}conditional_branch_edges[{e}].child"),
            "op",
        )?;
    }
    Ok(Validated {
        trace,
        ops,
        calls,
        params,
        modules,
        parents,
        call_stacks,
        call_modules,
        module_parents,
        module_children,
    })
}

/// What checking the module records resolved.
struct ModuleLinks {
    /// Per module: its parent.
    parents: Vec<Option<usize>>,
    /// Per module: its children, as listed.
    children: IndexLists,
    /// Per call: the module it ran.
    call_modules: Vec<usize>,
}

fn validate_modules(
    trace: &Trace,
    prefix: &str,
    modules: &NameIndex<'_>,
    calls: &NameIndex<'_>,
    ops: &NameIndex<'_>,
) -> Result<ModuleLinks> {
    let op_label = |i: usize| trace.ops.get(i).map(|op| op.label.as_str());
    let roots: Vec<usize> = (0..trace.modules.len())
        .filter(|&i| trace.modules[i].parent.is_none())
        .collect();
    if roots.len() != 1 {
        return Err(TraceError::Inconsistent {
            path: format!("{prefix}modules"),
            detail: format!(
                "exactly one module (the root model) must have no parent, found {}",
                roots.len()
            ),
        });
    }
    // Records are mostly listed in the order they were registered or ran, so the record
    // each name points to is mostly a neighbour of the one found before.
    let module_address = |i: usize| trace.modules.get(i).map(|m| m.address.as_str());
    let call_label = |i: usize| trace.module_calls.get(i).map(|c| c.label.as_str());
    let mut module_parents: Vec<Option<usize>> = Vec::with_capacity(trace.modules.len());
    let mut module_children = IndexLists::with_capacity(trace.modules.len(), trace.modules.len());
    for (m, module) in trace.modules.iter().enumerate() {
        let parent = match &module.parent {
            // A module's parent is mostly the module before it or that one's parent.
            Some(parent) => Some(require_near(
                module_address,
                [m.checked_sub(1), module_parents.last().copied().flatten()],
                modules,
                parent,
                || format!("{prefix}modules[{m}].parent"),
                "module",
            )?),
            None => None,
        };
        module_parents.push(parent);
        // Its first child mostly comes right after it, a leaf child after the one before.
        let mut previous = m;
        for (c, child) in module.children.iter().enumerate() {
            previous = require_near(
                module_address,
                [Some(previous + 1)],
                modules,
                child,
                || format!("{prefix}modules[{m}].children[{c}]"),
                "module",
            )?;
            module_children.push(previous);
        }
        module_children.end_row();
        let computed = checked_sum(
            || format!("{prefix}modules[{m}].num_params"),
            [module.num_params_trainable, module.num_params_frozen],
        )?;
        if computed != module.num_params {
            return Err(TraceError::CountMismatch {
                path: format!("{prefix}modules[{m}].num_params"),
                recorded: module.num_params,
                computed,
            });
        }
    }
    check_module_tree(trace, prefix, roots[0], &module_parents, &module_children)?;
    let mut call_modules: Vec<usize> = Vec::with_capacity(trace.module_calls.len());
    let mut previous_parent: Option<usize> = None;
    for (c, call) in trace.module_calls.iter().enumerate() {
        // Calls mostly run the next module listed, or one module again; their parent is
        // mostly the call before or that one's parent.
        let previous_module = call_modules.last().copied();
        call_modules.push(require_near(
            module_address,
            [previous_module.map(|p| p + 1), previous_module],
            modules,
            &call.address,
            || format!("{prefix}module_calls[{c}].address"),
            "module",
        )?);
        previous_parent = match &call.parent_call {
            Some(parent) => Some(require_near(
                call_label,
                [c.checked_sub(1), previous_parent],
                calls,
                parent,
                || format!("{prefix}module_calls[{c}].parent_call"),
                "module call",
            )?),
            None => None,
        };
        // A call's ops mostly ran one after the other.
        let mut last: Option<usize> = None;
        for (o, op) in call.ops.iter().enumerate() {
            last = Some(require_near(
                op_label,
                [last.map(|l| l + 1)],
                ops,
                op,
                || format!("{prefix}module_calls[{c}].ops[{o}]"),
                "op",
            )?);
        }
        // A call's output is mostly its last op.
        for (o, op) in call.output_ops.iter().enumerate() {
            require_near(
                op_label,
                [last],
                ops,
                op,
                || format!("{prefix}module_calls[{c}].output_ops[{o}]"),
                "op",
            )?;
        }
    }
    // Parameters are listed module by module.
    let mut previous_module: Option<usize> = None;
    for (p, param) in trace.params.iter().enumerate() {
        previous_module = Some(require_near(
            module_address,
            [previous_module, previous_module.map(|m| m + 1)],
            modules,
            &param.module,
            || format!("{prefix}params[{p}].module"),
            "module",
        )?);
        let numel = param
            .shape
            .iter()
            .try_fold(1u64, |product, &d| product.checked_mul(d))
            .ok_or_else(|| overflow(format!("{prefix}params[{p}].shape")))?;
        check_count(|| format!("{prefix}params[{p}].numel"), param.numel, numel)?;
    }
    Ok(ModuleLinks {
        parents: module_parents,
        children: module_children,
        call_modules,
    })
}

fn validate_ops(
    trace: &Trace,
    prefix: &str,
    ops: &NameIndex<'_>,
    calls: &NameIndex<'_>,
    params: &NameIndex<'_>,
    conditionals: &HashMap<u32, ()>,
) -> Result<(IndexLists, IndexLists)> {
    // What the index of a drawing needs, resolved here once: each op's distinct parents
    // and its call stack.
    let mut parents = IndexLists::with_capacity(trace.ops.len(), trace.ops.len() * 2);
    let mut stacks = IndexLists::with_capacity(trace.ops.len(), trace.ops.len() * 4);
    // (parent, child) index pairs as the parents lists and as the children lists say.
    let mut by_parents: Vec<(usize, usize)> = Vec::with_capacity(trace.ops.len());
    let mut by_children: Vec<(usize, usize)> = Vec::with_capacity(trace.ops.len());
    let mut last_param: Option<usize> = None;
    let op_label = |i: usize| trace.ops.get(i).map(|op| op.label.as_str());
    let param_address = |i: usize| trace.params.get(i).map(|p| p.address.as_str());
    for (i, op) in trace.ops.iter().enumerate() {
        let here = |field: &str| format!("{prefix}ops[{i}].{field}");
        if op.pass_index == 0 || op.pass_index > op.num_passes {
            return Err(TraceError::Inconsistent {
                path: here("pass_index"),
                detail: format!(
                    "op '{}' is pass {} of {} passes; passes count from 1",
                    op.label, op.pass_index, op.num_passes
                ),
            });
        }
        if (op.kind == OpKind::Buffer) != op.buffer.is_some() {
            return Err(TraceError::Inconsistent {
                path: here("buffer"),
                detail: format!(
                    "op '{}' has kind {:?} but {} buffer record; buffer versions (and only they) carry one",
                    op.label,
                    op.kind,
                    if op.buffer.is_some() { "a" } else { "no" }
                ),
            });
        }
        // Most ops read the op just before them and feed the one just after. An op with
        // many parents (a hostile trace: 100,000) is checked through a set, not by scans.
        let mut seen_parents = HashSet::default();
        for (p, parent) in op.parents.iter().enumerate() {
            let path = || here(&format!("parents[{p}]"));
            let parent = require_near(op_label, [i.checked_sub(1)], ops, parent, path, "op")?;
            by_parents.push((parent, i));
            let new = if op.parents.len() > FEW {
                seen_parents.insert(parent)
            } else {
                !parents.open_row().contains(&parent)
            };
            if new {
                parents.push(parent);
            }
        }
        parents.end_row();
        for (c, child) in op.children.iter().enumerate() {
            let path = || here(&format!("children[{c}]"));
            let child = require_near(op_label, [Some(i + 1)], ops, child, path, "op")?;
            by_children.push((i, child));
        }
        let parent_labels = (op.arg_slots.len() > FEW).then(|| {
            op.parents
                .iter()
                .map(String::as_str)
                .collect::<HashSet<&str>>()
        });
        for (s, slot) in op.arg_slots.iter().enumerate() {
            let path = || here(&format!("arg_slots[{s}]"));
            let known = match &parent_labels {
                Some(labels) => labels.contains(slot.parent.as_str()),
                None => op.parents.contains(&slot.parent),
            };
            if !known {
                return Err(TraceError::Inconsistent {
                    path: path(),
                    detail: format!(
                        "slot parent '{}' is not among the op's parents",
                        slot.parent
                    ),
                });
            }
            if slot.arg.is_some() == slot.kwarg.is_some() {
                return Err(TraceError::Inconsistent {
                    path: path(),
                    detail: "an argument slot needs exactly one of `arg` and `kwarg`".to_owned(),
                });
            }
        }
        // Consecutive ops mostly ran inside the same calls, already checked.
        let previous_calls = i.checked_sub(1).map_or(&[][..], |j| &trace.ops[j].modules);
        for (m, call) in op.modules.iter().enumerate() {
            let resolved = if previous_calls.get(m) == Some(call) {
                stacks.row(i - 1)[m]
            } else {
                require(
                    calls,
                    call,
                    || here(&format!("modules[{m}]")),
                    "module call",
                )?
            };
            stacks.push(resolved);
        }
        stacks.end_row();
        // An op is mostly the output of calls it ran inside, already checked.
        let inside = (op.output_of_calls.len() > FEW).then(|| {
            op.modules
                .iter()
                .map(String::as_str)
                .collect::<HashSet<&str>>()
        });
        for (m, call) in op.output_of_calls.iter().enumerate() {
            let ran_inside = match &inside {
                Some(calls) => calls.contains(call.as_str()),
                None => op.modules.contains(call),
            };
            if ran_inside {
                continue;
            }
            require(
                calls,
                call,
                || here(&format!("output_of_calls[{m}]")),
                "module call",
            )?;
        }
        // Parameters are used mostly in registration order (weight, then bias, then the
        // next layer's).
        for (p, param) in op.params.iter().enumerate() {
            last_param = Some(require_near(
                param_address,
                [last_param.map(|l| l + 1)],
                params,
                param,
                || here(&format!("params[{p}]")),
                "parameter",
            )?);
        }
        for (a, entry) in op.arm_entries.iter().enumerate() {
            if !op.children.contains(&entry.child) {
                return Err(TraceError::Inconsistent {
                    path: here(&format!("arm_entries[{a}].child")),
                    detail: format!(
                        "branch arm child '{}' is not among the op's children",
                        entry.child
                    ),
                });
            }
            if let Some(id) = entry.conditional {
                if !conditionals.contains_key(&id) {
                    return Err(TraceError::DanglingReference {
                        path: here(&format!("arm_entries[{a}].conditional")),
                        what: "conditional",
                        name: id.to_string(),
                    });
                }
            }
        }
        if let Some(picture) = &op.picture {
            let decoded = picture
                .png_bytes()
                .map_err(|error| TraceError::FieldInvalid {
                    path: here("picture.png_base64"),
                    detail: format!("not valid base64 ({error})"),
                })?;
            if !decoded.starts_with(b"\x89PNG") {
                return Err(TraceError::FieldInvalid {
                    path: here("picture.png_base64"),
                    detail: "the picture is not a PNG file".to_owned(),
                });
            }
        }
        if let Some(id) = op.condition.as_ref().and_then(|c| c.conditional) {
            if !conditionals.contains_key(&id) {
                return Err(TraceError::DanglingReference {
                    path: here("condition.conditional"),
                    what: "conditional",
                    name: id.to_string(),
                });
            }
        }
    }
    validate_symmetry(trace, prefix, by_children, by_parents)?;
    Ok((parents, stacks))
}

/// Parents and children are two views of the same edges; they must agree. Compared as
/// sorted (parent, child) index pairs, so an op read by thousands of others (a shared mask)
/// costs no more than its edges.
fn validate_symmetry(
    trace: &Trace,
    prefix: &str,
    mut by_children: Vec<(usize, usize)>,
    mut by_parents: Vec<(usize, usize)>,
) -> Result<()> {
    for pairs in [&mut by_children, &mut by_parents] {
        pairs.sort_unstable();
        pairs.dedup();
    }
    if by_children == by_parents {
        return validate_acyclic(trace, prefix, &by_children);
    }
    // Report the disagreement at the earliest op, its parents before its children.
    let missing_child = by_parents
        .iter()
        .filter(|pair| by_children.binary_search(pair).is_err())
        .map(|&(parent, child)| (child, 0, parent))
        .min();
    let missing_parent = by_children
        .iter()
        .filter(|pair| by_parents.binary_search(pair).is_err())
        .map(|&(parent, child)| (parent, 1, child))
        .min();
    let first = [missing_child, missing_parent].into_iter().flatten().min();
    if let Some((at, side, other)) = first {
        let (op, listed) = (&trace.ops[at], &trace.ops[other].label);
        let (list, field, relation, inverse) = if side == 0 {
            (&op.parents, "parents", "parent", "child")
        } else {
            (&op.children, "children", "child", "parent")
        };
        let position = list.iter().position(|l| l == listed).unwrap_or(0);
        return Err(TraceError::Inconsistent {
            path: format!("{prefix}ops[{at}].{field}[{position}]"),
            detail: format!(
                "'{}' lists {relation} '{listed}', but '{listed}' does not list it as a {inverse}",
                op.label
            ),
        });
    }
    validate_acyclic(trace, prefix, &by_children)
}

/// No op depends on itself; `edges` are the (parent, child) index pairs.
fn validate_acyclic(trace: &Trace, prefix: &str, edges: &[(usize, usize)]) -> Result<()> {
    // Ops are recorded in execution order, so parents come first and there is no cycle;
    // only a trace with an arrow pointing back needs the full search.
    if edges.iter().all(|&(parent, child)| parent < child) {
        return Ok(());
    }
    let mut graph = DiGraph::<(), ()>::with_capacity(trace.ops.len(), edges.len());
    let nodes: Vec<_> = (0..trace.ops.len()).map(|_| graph.add_node(())).collect();
    for &(parent, child) in edges {
        graph.add_edge(nodes[parent], nodes[child], ());
    }
    petgraph::algo::toposort(&graph, None)
        .map(|_| ())
        .map_err(|cycle| {
            let i = cycle.node_id().index();
            TraceError::Cycle {
                path: format!("{prefix}ops[{i}]"),
                label: trace.ops[i].label.clone(),
            }
        })
}

fn validate_counts(trace: &Trace, prefix: &str) -> Result<()> {
    // The sums below overflow on hostile records (2^63-element parameters): refuse them
    // here, so the summary the records add up to is exact.
    checked_sum(
        || format!("{prefix}params[].numel"),
        trace.params.iter().map(|p| p.numel),
    )?;
    checked_sum(
        || format!("{prefix}params[].bytes"),
        trace.params.iter().map(|p| p.bytes),
    )?;
    checked_sum(
        || format!("{prefix}ops[].bytes"),
        trace.ops.iter().filter_map(|op| op.bytes),
    )?;
    let recorded = &trace.summary;
    let computed = trace.computed_summary();
    let counts = [
        ("num_ops", recorded.num_ops, computed.num_ops),
        ("num_tensors", recorded.num_tensors, computed.num_tensors),
        (
            "total_output_bytes",
            recorded.total_output_bytes,
            computed.total_output_bytes,
        ),
        ("num_params", recorded.num_params, computed.num_params),
        (
            "num_params_trainable",
            recorded.num_params_trainable,
            computed.num_params_trainable,
        ),
        (
            "num_params_frozen",
            recorded.num_params_frozen,
            computed.num_params_frozen,
        ),
        (
            "total_param_bytes",
            recorded.total_param_bytes,
            computed.total_param_bytes,
        ),
    ];
    for (field, recorded, computed) in counts {
        check_count(|| format!("{prefix}summary.{field}"), recorded, computed)?;
    }
    Ok(())
}

fn validate_backward(trace: &Trace, prefix: &str, params: &NameIndex<'_>) -> Result<()> {
    let Some(backward) = &trace.backward else {
        return Ok(());
    };
    let layers: HashSet<&str> = trace.ops.iter().map(|op| op.layer_label.as_str()).collect();
    let grad_fns = unique_index(
        backward.grad_fns.iter().map(|g| g.label.as_str()),
        |i| format!("{prefix}backward.grad_fns[{i}].label"),
        "grad_fn label",
    )?;
    for (g, grad_fn) in backward.grad_fns.iter().enumerate() {
        let here = |field: &str| format!("{prefix}backward.grad_fns[{g}].{field}");
        for (n, next) in grad_fn.next.iter().enumerate() {
            require(&grad_fns, next, || here(&format!("next[{n}]")), "grad_fn")?;
        }
        if let Some(layer) = &grad_fn.forward_layer {
            if !layers.contains(layer.as_str()) {
                return Err(TraceError::DanglingReference {
                    path: here("forward_layer"),
                    what: "layer",
                    name: layer.clone(),
                });
            }
        }
        if let Some(param) = &grad_fn.param {
            require(params, param, || here("param"), "parameter")?;
        }
        for (c, call) in grad_fn.calls.iter().enumerate() {
            if call.pass == 0 || call.pass > backward.num_passes {
                return Err(TraceError::Inconsistent {
                    path: here(&format!("calls[{c}].pass")),
                    detail: format!(
                        "backward pass {} is outside 1..={} (backward.num_passes)",
                        call.pass, backward.num_passes
                    ),
                });
            }
        }
    }
    Ok(())
}

/// Validates a bundle and each of its member traces.
pub(crate) fn validate_bundle(bundle: &Bundle) -> Result<()> {
    let members = unique_index(
        bundle.members.iter().map(|m| m.name.as_str()),
        |i| format!("members[{i}].name"),
        "member name",
    )?;
    require(
        &members,
        &bundle.baseline,
        || "baseline".to_owned(),
        "bundle member",
    )?;
    for (m, member) in bundle.members.iter().enumerate() {
        validate_trace(&member.trace, &format!("members[{m}].trace."))?;
    }
    for (d, table) in bundle.deltas.iter().enumerate() {
        let member = require(
            &members,
            &table.member,
            || format!("deltas[{d}].member"),
            "bundle member",
        )?;
        let trace = &bundle.members[member].trace;
        let labels: HashSet<&str> = trace.ops.iter().map(|op| op.label.as_str()).collect();
        for label in table.values.keys() {
            if !labels.contains(label.as_str()) {
                return Err(TraceError::DanglingReference {
                    path: format!("deltas[{d}].values.{label}"),
                    what: "op of that member",
                    name: label.clone(),
                });
            }
        }
    }
    Ok(())
}
