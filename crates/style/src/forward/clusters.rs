//! Module frames: one per open module call.

use super::*;

/// Per cluster of `visible`: whether nothing drawn inside it (at any depth) was computed
/// from a model input, which draws it dashed. One pass over the nodes, each marking the
/// clusters around it.
pub(super) fn clusters_without_input(
    index: &Index<'_, '_>,
    visible: &VisibleGraph,
    nodes: &[StyledNode],
) -> Vec<bool> {
    // A capsule is dashed whatever it holds: ask its operations instead.
    let without_input = |node: &StyledNode, kind: &NodeKind| match kind {
        NodeKind::Capsule(_) | NodeKind::OpCapsule(_) => kind
            .ops()
            .iter()
            .all(|&op| !index.trace().ops[op].has_input_ancestor),
        _ => node.dashed,
    };
    let mut dashed = vec![true; visible.clusters.len()];
    for (node, drawn) in nodes.iter().zip(&visible.nodes) {
        if without_input(node, &drawn.kind) {
            continue;
        }
        let mut cluster = node.cluster;
        while let Some(c) = cluster {
            if !dashed[c] {
                break;
            }
            dashed[c] = false;
            cluster = visible.clusters[c].parent;
        }
    }
    dashed
}

pub(super) fn styled_cluster(
    index: &Index<'_, '_>,
    call: usize,
    parent: Option<usize>,
    dashed: bool,
    theme: &Theme,
    rolled: bool,
) -> StyledCluster {
    let record = &index.trace().module_calls[call];
    let module = index.module_of_call(call);
    let deepest = f64::from(index.deepest);
    let depth = f64::from(module.depth.saturating_sub(1));
    let penwidth = if deepest <= 0.0 {
        5.0
    } else {
        2.0 + 3.0 * (deepest - depth) / deepest
    };
    StyledCluster {
        id: format!("cluster_{}_pass{}", record.address, record.call_index),
        parent,
        title: if rolled && module.num_calls > 1 {
            format!("@{} (x{})", record.address, module.num_calls)
        } else {
            index.call_address(call)
        },
        subtitle: format!("({})", module.class_name),
        penwidth: (penwidth * 100.0).round() / 100.0,
        dashed,
        fill: theme.cluster_fill.clone(),
        border: theme.cluster_border.clone(),
        font_color: theme.font_color.clone(),
        margin: FRAME_MARGIN,
    }
}
