//! tl-draw's own layered layout engine, for drawings where Graphviz's `dot` algorithm is
//! slow (thousands of operations, hub inputs read by every block).
//!
//! Sizes in, positions out: [`lay_out`] takes a [`Graph`] of boxes (nodes with their size,
//! the module frame each sits in, arrows, nested frames with margins and captions) and
//! returns a [`Layout`]: node centres, frame rectangles and each arrow's route as cubic
//! Bézier points. It knows nothing of DOT or of rendering; `tl-layout` feeds it from DOT
//! and hands its positions to graphviz-pure's keep-positions renderer.
//!
//! The stages, one file each:
//! - `layers`: cycles broken, longest-path layers, inputs moved up to their first reader
//!   (not stretching one block into the next), sinks (outputs and the key) on the last layer.
//! - `proper`: long arrows become chains of dummy points; the arrows leaving a hub share one
//!   chain (a trunk), so a hub read by every block costs one chain, not one per reader.
//! - `order`: barycentric sweeps that sort each layer frame by frame, every frame keeping
//!   one place among its siblings on all its layers (frames stay contiguous and nested),
//!   then neighbours within a frame swapped where that crosses less.
//! - `place`: x by passes over a constraint graph whose variables are the points and each
//!   frame's two sides, so frames never overlap; y by layer, with room for frame captions.
//! - `route`: arrows through the layer gaps as smooth curves, labels beside them.
//!
//! Coordinates: `x` across the layers, `y` down the layers (layer 0 at the top), in points.
//! Every stage is linear or `n log n` in points and arrows, and deterministic.
//!
//! Invariants (tests in `tests.rs`): no node overlaps another node or a frame it is not in;
//! frames nest and never overlap; every route starts at its tail and ends at its head.

mod labels;
mod layers;
mod order;
mod place;
mod proper;
mod route;
#[cfg(test)]
mod tests;

/// A box's extent: `breadth` along a layer, `depth` along the flow.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Size {
    /// Extent along a layer (across the flow), in points.
    pub breadth: f64,
    /// Extent along the flow, in points.
    pub depth: f64,
}

/// A point in layout coordinates (`x` across the layers, `y` down them).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Point {
    /// Across the layers.
    pub x: f64,
    /// Along the flow.
    pub y: f64,
}

/// A rectangle: its least and greatest corners.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Rect {
    /// Least `x` and `y`.
    pub min: Point,
    /// Greatest `x` and `y`.
    pub max: Point,
}

/// A node to place.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Its size.
    pub size: Size,
    /// The innermost frame it sits in.
    pub frame: Option<usize>,
    /// Its outline, where arrows end on it.
    pub outline: Outline,
}

/// A node's outline, for where arrows end on its side facing them: several arrows into a
/// box or an ellipse end side by side on it, into anything else at its middle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Outline {
    /// A rectangle (a box, a 3-D box).
    Box,
    /// An ellipse filling the node's size.
    Ellipse,
    /// Another shape: arrows end at the middle of its side.
    #[default]
    Other,
}

/// An arrow from `tail` to `head`.
#[derive(Debug, Clone, PartialEq)]
pub struct Edge {
    /// Where it starts.
    pub tail: usize,
    /// Where it points.
    pub head: usize,
    /// Whether it orders layers (Graphviz's `constraint`); one that does not is drawn
    /// straight, between whatever layers its ends fall on.
    pub constraint: bool,
    /// A label that takes room in the drawing, beside the arrow's middle.
    pub label: Option<Size>,
    /// A floating label (Graphviz's `xlabel`), set beside the arrow's middle.
    pub floating_label: Option<Size>,
    /// A label at the head end.
    pub head_label: Option<Size>,
    /// A label at the tail end.
    pub tail_label: Option<Size>,
    /// The arrowhead's length; the route ends that far before the head.
    pub arrow_length: f64,
    /// Drawn at all (an invisible arrow only holds things together).
    pub visible: bool,
}

/// A frame: a rectangle around the nodes and frames inside it.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    /// The frame around it, if any. Frames form a forest.
    pub parent: Option<usize>,
    /// Space between the frame's side and what it holds.
    pub margin: f64,
    /// Its caption's size, set inside the frame at the side `Graph::caption_side` says.
    pub caption: Size,
}

/// Which end of its frame, along the flow, a caption sits at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CaptionSide {
    /// Before the frame's first layer.
    #[default]
    Start,
    /// After the frame's last layer.
    End,
}

/// What to lay out.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Graph {
    /// The nodes.
    pub nodes: Vec<Node>,
    /// The arrows.
    pub edges: Vec<Edge>,
    /// The frames; a node names its innermost one.
    pub frames: Vec<Frame>,
    /// Nodes on the last layer (outputs, the key), in the order they sit there.
    pub sinks: Vec<usize>,
    /// Least space between neighbours in a layer.
    pub node_gap: f64,
    /// Least space between layers.
    pub layer_gap: f64,
    /// Where frame captions sit.
    pub caption_side: CaptionSide,
}

/// An arrow's route and its labels' centres.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Route {
    /// Cubic Bézier points (`3n + 1`), from the tail's side to the arrowhead's base.
    pub points: Vec<Point>,
    /// The arrowhead's tip, on the head's side.
    pub tip: Point,
    /// The label's centre.
    pub label: Option<Point>,
    /// The floating label's centre.
    pub floating_label: Option<Point>,
    /// The head label's centre.
    pub head_label: Option<Point>,
    /// The tail label's centre.
    pub tail_label: Option<Point>,
}

/// Where everything went.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Layout {
    /// Node centres, in the graph's node order.
    pub nodes: Vec<Point>,
    /// Routes, in the graph's arrow order.
    pub edges: Vec<Route>,
    /// Frame rectangles (captions inside), in the graph's frame order.
    pub frames: Vec<Rect>,
    /// Each node's layer.
    pub layers: Vec<usize>,
    /// The extent of all of it.
    pub bounds: Rect,
}

/// Why a graph cannot be laid out.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Invalid {
    /// An arrow names a node that is not there.
    EdgeEnd {
        /// The arrow's index (`usize::MAX`: a sink).
        edge: usize,
    },
    /// A node names a frame that is not there.
    NodeFrame {
        /// The node's index.
        node: usize,
    },
    /// A frame's parent is not there, or frames form a loop.
    FrameParent {
        /// The frame's index.
        frame: usize,
    },
    /// A size, margin or gap is not a finite non-negative number.
    Measure,
}

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Invalid::EdgeEnd { edge } => write!(f, "arrow {edge} names a node that is not there"),
            Invalid::NodeFrame { node } => write!(f, "node {node} names a frame that is not there"),
            Invalid::FrameParent { frame } => {
                write!(
                    f,
                    "frame {frame} has a missing parent or is its own ancestor"
                )
            }
            Invalid::Measure => f.write_str("a size, margin or gap is not a finite number >= 0"),
        }
    }
}

impl std::error::Error for Invalid {}

/// Lays `graph` out.
pub fn lay_out(graph: &Graph) -> Result<Layout, Invalid> {
    check(graph)?;
    let frames = FrameTree::new(&graph.frames);
    let layering = layers::assign(graph, &frames);
    let mut proper = proper::build(graph, &layering, &frames);
    order::reduce_crossings(&mut proper, &frames);
    let placed = place::place(graph, &proper, &frames);
    Ok(route::finish(graph, &layering, &proper, &placed))
}

fn check(graph: &Graph) -> Result<(), Invalid> {
    let measure = |value: f64| value.is_finite() && value >= 0.0;
    let size = |size: &Size| measure(size.breadth) && measure(size.depth);
    for (edge, e) in graph.edges.iter().enumerate() {
        if e.tail >= graph.nodes.len() || e.head >= graph.nodes.len() {
            return Err(Invalid::EdgeEnd { edge });
        }
        let labels = [e.label, e.floating_label, e.head_label, e.tail_label];
        if !measure(e.arrow_length) || !labels.iter().flatten().all(size) {
            return Err(Invalid::Measure);
        }
    }
    for (node, n) in graph.nodes.iter().enumerate() {
        if n.frame.is_some_and(|f| f >= graph.frames.len()) {
            return Err(Invalid::NodeFrame { node });
        }
        if !size(&n.size) {
            return Err(Invalid::Measure);
        }
    }
    for (frame, f) in graph.frames.iter().enumerate() {
        if !measure(f.margin) || !size(&f.caption) {
            return Err(Invalid::Measure);
        }
        // Walking up from a frame meets a root within as many steps as there are frames.
        let mut at = f.parent;
        let mut steps = 0;
        while let Some(parent) = at {
            if parent >= graph.frames.len() || steps > graph.frames.len() {
                return Err(Invalid::FrameParent { frame });
            }
            at = graph.frames[parent].parent;
            steps += 1;
        }
    }
    if graph.sinks.iter().any(|&n| n >= graph.nodes.len()) {
        return Err(Invalid::EdgeEnd { edge: usize::MAX });
    }
    if !measure(graph.node_gap) || !measure(graph.layer_gap) {
        return Err(Invalid::Measure);
    }
    Ok(())
}

/// Runs `beside` on a thread of its own (or here, after `here`, where no thread starts)
/// while `here` runs on this one, for the stages that try two ways and keep the better:
/// both results (`None` if `beside` panicked).
pub(crate) fn side_by_side<A: Send, B>(
    beside: impl FnOnce() -> A + Send,
    here: impl FnOnce() -> B,
) -> (Option<A>, B) {
    let (beside, here) = tl_threads::join(beside, here);
    (beside.ok(), here)
}

/// The frames' nesting, precomputed: each frame's chain of ancestors and its depth.
pub(crate) struct FrameTree {
    /// Each frame's ancestors from the outermost down to itself.
    chains: Vec<Vec<usize>>,
    parents: Vec<Option<usize>>,
    innermost_first: Vec<usize>,
}

impl FrameTree {
    fn new(frames: &[Frame]) -> FrameTree {
        let chains: Vec<Vec<usize>> = (0..frames.len())
            .map(|frame| {
                let mut chain = vec![frame];
                let mut at = frames[frame].parent;
                while let Some(parent) = at {
                    chain.push(parent);
                    at = frames[parent].parent;
                }
                chain.reverse();
                chain
            })
            .collect();
        let mut innermost_first: Vec<usize> = (0..frames.len()).collect();
        innermost_first.sort_by_key(|&f| std::cmp::Reverse(chains[f].len()));
        FrameTree {
            chains,
            parents: frames.iter().map(|f| f.parent).collect(),
            innermost_first,
        }
    }

    /// Every frame, each after the frames inside it (deepest first).
    pub(crate) fn innermost_first(&self) -> &[usize] {
        &self.innermost_first
    }

    /// The frames holding something whose innermost frame is `frame`, outermost first.
    pub(crate) fn chain(&self, frame: Option<usize>) -> &[usize] {
        frame.map_or(&[], |f| self.chains[f].as_slice())
    }

    pub(crate) fn parent(&self, frame: usize) -> Option<usize> {
        self.parents[frame]
    }

    pub(crate) fn len(&self) -> usize {
        self.parents.len()
    }

    /// Each frame's first and last layer among `placed` things (each its innermost frame
    /// and its layer), nested frames' included; `None` for a frame with none.
    pub(crate) fn spans(
        &self,
        placed: impl Iterator<Item = (Option<usize>, usize)>,
    ) -> Vec<Option<(usize, usize)>> {
        let mut spans: Vec<Option<(usize, usize)>> = vec![None; self.len()];
        for (frame, layer) in placed {
            for &f in self.chain(frame) {
                spans[f] = Some(spans[f].map_or((layer, layer), |(first, last)| {
                    (first.min(layer), last.max(layer))
                }));
            }
        }
        spans
    }

    /// The innermost frame holding both.
    pub(crate) fn common(&self, a: Option<usize>, b: Option<usize>) -> Option<usize> {
        let (a, b) = (self.chain(a), self.chain(b));
        a.iter()
            .zip(b)
            .take_while(|(x, y)| x == y)
            .last()
            .map(|(x, _)| *x)
    }
}
