//! Outputs drawn as one node in folded drawings: a model that returns a structure of alike
//! tensors (a language model's key/value cache: two per layer, every one the same shape)
//! would otherwise draw a row of dozens of output ellipses beside its one box. Runs of
//! consecutive outputs of one shape and dtype become one node saying what it holds; the
//! full drawing keeps every output.

use tl_trace_model::OpKind;

use crate::TraceIndex;

/// The fewest alike outputs drawn as one node: two (a VAE's mean and log-variance) already
/// make `max` one node smaller, as TorchLens's own `max` is (issue 29).
const MIN_GROUP: usize = 2;

/// The fewest outputs of a group that repeats a pair of shapes (two whole pairs).
const MIN_PAIRED_GROUP: usize = 4;

/// Runs of consecutive drawn outputs (`hidden[op]` false) that repeat one shape and dtype
/// (at least `MIN_GROUP`), or a pair of them in turn (at least `MIN_PAIRED_GROUP`: a Mamba's
/// cache, a convolution state then a recurrent state per layer), each as the outputs' labels
/// in trace order.
pub fn output_groups(index: &TraceIndex<'_>, hidden: &[bool]) -> Vec<Vec<String>> {
    let trace = index.trace;
    let outputs: Vec<&tl_trace_model::OpRecord> = trace
        .ops
        .iter()
        .enumerate()
        .filter(|&(i, op)| op.kind == OpKind::Output && !hidden.get(i).copied().unwrap_or(false))
        .map(|(_, op)| op)
        .collect();
    let alike = |a: usize, b: usize| {
        outputs[a].shape.is_some()
            && outputs[a].shape == outputs[b].shape
            && outputs[a].dtype == outputs[b].dtype
    };
    // How far from `start` each output is alike the one `period` before it.
    let run = |start: usize, period: usize| {
        (start + period..outputs.len())
            .take_while(|&at| alike(at, at - period))
            .count()
            + period
    };
    let mut groups: Vec<Vec<String>> = Vec::new();
    let mut start = 0;
    while start < outputs.len() {
        let single = run(start, 1);
        let paired = if start + 1 < outputs.len() && !alike(start, start + 1) {
            run(start, 2) / 2 * 2
        } else {
            0
        };
        let length = if single >= MIN_GROUP {
            single
        } else if paired >= MIN_PAIRED_GROUP {
            paired
        } else {
            1
        };
        if length > 1 {
            groups.push(
                outputs[start..start + length]
                    .iter()
                    .map(|op| op.label.clone())
                    .collect(),
            );
        }
        start += length;
    }
    groups
}

/// Nodes the groups save: each draws one node for its members.
pub fn saving(groups: &[Vec<String>]) -> usize {
    groups.iter().map(|group| group.len() - 1).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::{readable_band, Schedule};
    use crate::{hidden_ops, visible_graph_with, BufferVisibility, NodeKind, VisibilityOptions};
    use tl_trace_model::Trace;

    fn real(name: &str) -> Trace {
        let path = format!(
            "{}/../../fixtures/real/{name}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        Trace::load(path).unwrap()
    }

    /// The output groups of a real fixture, buffers shown as by default.
    fn groups_of(name: &str) -> Vec<Vec<String>> {
        let trace = real(name);
        let index = TraceIndex::validate(&trace).unwrap();
        output_groups(&index, &hidden_ops(&index, BufferVisibility::Meaningful))
    }

    #[test]
    fn a_language_models_cache_is_one_group_and_its_logits_stay_apart() {
        let groups = groups_of("gpt2_small");
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].len(), 24, "two cache tensors per block");
        assert!(
            !groups[0].contains(&"output_1:1".to_owned()),
            "the logits are their own"
        );
        // Models returning one tensor, or unlike ones, have none.
        for name in ["resnet50", "bert_base", "unet", "lstm_gru"] {
            assert!(groups_of(name).is_empty(), "{name}");
        }
    }

    #[test]
    fn with_its_cache_as_one_node_gpt2_folds_block_by_block_and_auto_is_readable() {
        let trace = real("gpt2_small");
        let index = TraceIndex::validate(&trace).unwrap();
        let schedule = Schedule::build_with(&index, BufferVisibility::Meaningful);
        // Before, the 24 outputs kept every plan over the ceiling: two stops, 579 and 29.
        assert!(schedule.stops.len() >= 12, "{} stops", schedule.stops.len());
        let auto = schedule.auto(readable_band(&trace));
        assert!(auto.nodes <= readable_band(&trace), "{} nodes", auto.nodes);
        let options = VisibilityOptions {
            plan: Some(auto.plan.clone()),
            ..VisibilityOptions::default()
        };
        let hidden = hidden_ops(&index, BufferVisibility::Meaningful);
        let graph = visible_graph_with(&index, hidden, &options).unwrap();
        assert_eq!(
            graph.nodes.len(),
            auto.nodes,
            "the stop counts what it draws"
        );
        let outputs: Vec<usize> = graph
            .nodes
            .iter()
            .filter_map(|node| match &node.kind {
                NodeKind::OpCapsule(ops)
                    if ops.iter().all(|&op| trace.ops[op].kind == OpKind::Output) =>
                {
                    Some(ops.len())
                }
                _ => None,
            })
            .collect();
        assert_eq!(outputs, [24], "one node for the cache");
        // Embedding, blocks and head are all there: blocks boxed or in a capsule.
        let blocks = graph.nodes.iter().any(|node| match &node.kind {
            NodeKind::ModuleBox(b) => b.address.starts_with("gpt2.transformer.h."),
            NodeKind::Capsule(c) => c
                .members
                .iter()
                .all(|m| m.starts_with("gpt2.transformer.h.")),
            _ => false,
        });
        assert!(blocks);
        // Full detail keeps every output.
        assert!(schedule.none().plan.is_empty());
    }

    #[test]
    fn a_cache_of_two_shapes_in_turn_is_one_group_and_two_alike_outputs_are_one() {
        // Mamba: logits, then a convolution state and a recurrent state per layer.
        let groups = groups_of("mamba");
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].len(), 48, "two cache tensors per layer");
        assert!(!groups[0].contains(&"output_1:1".to_owned()), "the logits");
        // A VAE's mean and log-variance (alike), beside its reconstruction (unlike them).
        assert_eq!(
            groups_of("vae_dict"),
            [["output_2:1".to_owned(), "output_3:1".to_owned()]]
        );
    }
}
