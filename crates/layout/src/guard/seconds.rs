//! How long a layout will take, estimated before it runs: what `auto` switches engines on,
//! what the interactive page budgets its drawings by, and what a progress bar expects.

use tl_style::StyledGraph;

use super::{layout_cost, LayoutCost};

/// The layout time of `graph` as estimated before layout, in seconds: fitted (least
/// squares on logarithms) to 660 layouts of the real architectures' pages (ResNet-50,
/// BERT, ViT, MobileNetV3, UNet, DenseNet-121, GPT-2 small and 48 layers), within 1.25x
/// for half of them and 6x for all. Arrows dominate: a DenseNet block opened into its
/// 24 layers has 350 arrows among 50 nodes and takes 3 s, where a 160-node GPT-2
/// drawing takes 0.03 s. It is never less than the layout guard's points at 16,000 a
/// second (DenseNet-121's 400-node stop: 54,000 points, 3.3 s): the fit alone put a
/// synthetic transformer's 383 blocks with 140,000 points at 1.5 s, and their layout took
/// minutes. Nor is it less than the drawing's hub load times its nodes over
/// [`HUB_WORK_PER_SECOND`]: the fit sees sizes, not shapes, and put GPT-2 small's
/// collapse stops (its 24 key/value outputs folded into one node every block feeds) at
/// 0.3-0.65 s where they took 1-6 s. A pure function of the drawing, so the page stays
/// deterministic.
///
/// A drawing the layered engine lays out (past the switch point) is estimated by its size
/// alone, the engine being linear: [`LAYERED_SECONDS_PER_ITEM`] a node or arrow.
pub fn layout_seconds(graph: &StyledGraph, engine: crate::LayoutEngine) -> f64 {
    expected_seconds(layout_cost(graph), engine)
}

/// [`layout_seconds`] of a drawing whose cost is estimated already.
pub fn expected_seconds(cost: LayoutCost, engine: crate::LayoutEngine) -> f64 {
    if engine == crate::LayoutEngine::Layered {
        return (cost.nodes + cost.edges) as f64 * LAYERED_SECONDS_PER_ITEM;
    }
    let nodes = cost.nodes.max(1) as f64;
    let edges = cost.edges.max(1) as f64;
    let points = cost.total().max(1) as f64;
    let fitted = (-9.48 - 1.33 * nodes.ln() + 2.2 * edges.ln() + 0.27 * points.ln()).exp();
    let hub = cost.hub_load as f64 * nodes / HUB_WORK_PER_SECOND;
    fitted.max(points / POINTS_PER_SECOND).max(hub)
}

/// A bundle of long arrows into or out of one node ([`LayoutCost::hub_load`]) slows `dot`'s
/// x placement by about its load for every drawn node: over the 60 page drawings of the real
/// architectures with a load of a million or more, seconds ~ load x nodes / 6.5e8 (least
/// squares on logarithms, the slope held at 1; GPT-2 small's stops: 0.99 s at 0.65e9, 5.6 s
/// at 2.9e9; GPT-2-48's 69-node stops at 0.24e9: 0.2 s; the 32-layer Llama's and Mamba's:
/// 2.2 s at 1.7e9 and 4.4 s at 3.1e9), within 2x for most of them (docs/performance.md,
/// "The switch point").
pub const HUB_WORK_PER_SECOND: f64 = 6.5e8;

/// The layered engine's seconds a node or arrow, parsing and writing included, at the slow
/// end of what was measured here (the 32-layer Llama's 4,400 nodes and arrows: 0.35 s; a
/// 10,000-operation synthetic transformer: about 1 s).
pub const LAYERED_SECONDS_PER_ITEM: f64 = 1.0e-4;

/// Layout points (drawn and virtual nodes, as the guard counts them) laid out per second,
/// at the slow end of what the real architectures' drawings show.
const POINTS_PER_SECOND: f64 = 16_000.0;
