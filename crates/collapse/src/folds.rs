//! Repeat folding (`fold_repeats=`): runs of at least three identical sibling modules that
//! chain into each other, drawn as the first member's box plus `... +N more Class`
//! (the guide's "Collapsing large models", fold_repeats=).

use tl_trace_model::OpKind;

use crate::schedule::Facts;
use crate::{BufferVisibility, TraceIndex};

/// The shortest run worth folding.
pub const MIN_RUN: usize = 3;

/// What makes two sibling modules "identical": class, the types of the ops they run in
/// order, and their parameter counts.
fn signature(facts: &Facts<'_, '_>, address: &str) -> (String, Vec<String>, u64, u64) {
    let module = facts.tree().module(address).expect("siblings are modules");
    let op_types = facts
        .ops_in(address)
        .iter()
        .map(|&i| &facts.trace().ops[i])
        .filter(|op| op.kind == OpKind::Op)
        .map(|op| op.layer_type.clone())
        .collect();
    (
        module.class_name.clone(),
        op_types,
        module.num_params_trainable,
        module.num_params_frozen,
    )
}

/// `blocks.3` -> `blocks`, `layer_2b` -> `layer`: the name a run of siblings shares.
fn stem(address: &str) -> &str {
    let leaf = address.rsplit('.').next().unwrap_or(address);
    if leaf.chars().all(|c| c.is_ascii_digit()) {
        return address.rsplit_once('.').map_or("", |(parent, _)| parent);
    }
    // `name_<digits>[a-z]?` or `name<digits>`: drop the index and its one-letter suffix.
    let bytes = leaf.as_bytes();
    let mut end = leaf.len();
    if end >= 2 && bytes[end - 1].is_ascii_lowercase() && bytes[end - 2].is_ascii_digit() {
        end -= 1;
    }
    let before_digits = end;
    while end > 0 && bytes[end - 1].is_ascii_digit() {
        end -= 1;
    }
    if end < before_digits && end > 0 && bytes[end - 1] == b'_' {
        end -= 1;
    }
    &address[..address.len() - leaf.len() + end]
}

/// Every foldable run of the trace, longest first within each parent, members in flow
/// order (representative first).
pub fn repeat_runs(index: &TraceIndex<'_>, buffers: BufferVisibility) -> Vec<Vec<String>> {
    let facts = Facts::new(index, buffers);
    let mut runs = Vec::new();
    let mut parents = vec!["self".to_owned()];
    while let Some(parent) = parents.pop() {
        let links = facts.sibling_links(&parent);
        let siblings = &links.siblings;
        let signatures: Vec<_> = siblings
            .iter()
            .map(|sibling| signature(&facts, sibling))
            .collect();
        let mut start = 0;
        while start < siblings.len() {
            let mut end = start;
            while end + 1 < siblings.len()
                && stem(&siblings[end + 1]) == stem(&siblings[start])
                && signatures[end + 1] == signatures[start]
            {
                end += 1;
            }
            // The longest chaining prefix of the identical run.
            let mut chosen = None;
            for last in (start + MIN_RUN - 1..=end).rev() {
                if links.is_chain(start, last) {
                    chosen = Some(last);
                    break;
                }
            }
            match chosen {
                Some(last) => {
                    runs.push(siblings[start..=last].to_vec());
                    start = last + 1;
                }
                None => {
                    parents.push(siblings[start].clone());
                    start += 1;
                }
            }
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_drop_the_index() {
        assert_eq!(stem("blocks.3"), "blocks");
        assert_eq!(stem("transformer.h.11"), "transformer.h");
        assert_eq!(stem("layer2"), "layer");
        assert_eq!(stem("layer_2b"), "layer");
        assert_eq!(stem("conv_layers"), "conv_layers");
    }
}
