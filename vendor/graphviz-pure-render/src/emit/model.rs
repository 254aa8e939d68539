//! The laid-out graph as the emitter sees it: what C keeps in `Agraphinfo_t`, `Agnodeinfo_t`
//! and `Agedgeinfo_t` after layout (`GD_bb`, `GD_clust`, `GD_label`, `ND_coord`, `ND_lw/rw/ht`,
//! `ND_shape_info`, `ND_label`, `ED_spl`, `ED_label`, ...).
//!
//! Node shapes and labels come from `graphviz_pure_geom::node_size` (`common_init_node` and the shape
//! init functions); positions come from the layout (`NodeData::pos`, `EdgeData::spline`,
//! `EdgeData::label_pos`, `SubgraphData::bb`, `Graph::bb`, and the `layout` fields of each
//! object). Attributes such as `xlp` or `lp` in the input are not layout results: only
//! `neato -n` reads them, as its layout.

use super::attrs::Attrs;
use graphviz_pure_core::font::{PostscriptFontAlias, TextJustify, translate_postscript_fontname};
use graphviz_pure_core::strtod::sscanf;
use graphviz_pure_core::{
    AttrMap, BoundingBox, ClusterReg, Graph, GraphKind, GraphLayout, LabelPlace, Point, PortNames,
};
use graphviz_pure_geom::html_label::HtmlLabel;
use graphviz_pure_geom::node_size::{
    EdgeLabelGeometry, GraphLabelGeometry, LABEL_AT_LEFT, LABEL_AT_RIGHT, LABEL_AT_TOP,
    LabelGeometry, NodeGeometry, NodeSizeEnv, graph_label_geometry_in, node_geometry,
};

/// tl-draw's patch: a graph's edge and cluster labels measured before its layout, which the
/// model takes instead of measuring them again ([`crate::GraphJobs::use_measured_labels`]).
#[derive(Debug, Clone, Default)]
pub struct MeasuredLabels {
    /// Per edge, in edge order: what `edge_label_geometry_of` gives for it, `None` where
    /// that is `EdgeLabelGeometry::default()` (no label at all).
    pub edges: Vec<Option<Box<EdgeLabelGeometry>>>,
    /// Per subgraph, in subgraph order: for a cluster, what `graph_label_geometry_in` gives
    /// for it (its name, its own attributes, not the root, not flipped), `Some(None)` for no
    /// label; `None` where it was not measured.
    pub clusters: Vec<Option<Option<Box<GraphLabelGeometry>>>>,
}

impl MeasuredLabels {
    /// Edge `index`'s label geometry, taken out (so that each is let go once the model
    /// holds its labels).
    fn take_edge(&mut self, index: usize) -> Option<EdgeLabelGeometry> {
        self.edges
            .get_mut(index)
            .map(|label| label.take().map(|label| *label).unwrap_or_default())
    }

    /// The label geometry of subgraph `index`'s cluster, taken out (`Some(None)`: no
    /// label), if measured.
    fn take_cluster(&mut self, index: usize) -> Option<Option<GraphLabelGeometry>> {
        self.clusters
            .get_mut(index)
            .and_then(Option::take)
            .map(|label| label.map(|label| *label))
    }
}

/// `textfont_t`.
#[derive(Debug, Clone)]
pub(crate) struct TextFont {
    pub name: String,
    pub size: f64,
    pub flags: u8,
    pub ps: Option<&'static PostscriptFontAlias>,
}

impl TextFont {
    pub fn new(name: &str, size: f64, flags: u8) -> Self {
        TextFont {
            name: name.to_string(),
            size,
            flags,
            ps: translate_postscript_fontname(name),
        }
    }
}

/// `textspan_t`.
#[derive(Debug, Clone)]
pub(crate) struct TextSpan {
    pub str: String,
    /// `'l'`, `'r'` or `'n'`.
    pub just: char,
    pub width: f64,
    pub height: f64,
    pub yoffset_centerline: f64,
    pub font: TextFont,
}

/// `textlabel_t`.
#[derive(Debug, Clone)]
pub(crate) struct TextLabel {
    pub text: String,
    pub fontname: String,
    pub fontcolor: String,
    pub fontsize: f64,
    pub dimen: Point,
    pub space: Point,
    pub pos: Point,
    pub set: bool,
    pub valign: char,
    pub html: Option<Box<HtmlLabel>>,
    pub is_html: bool,
    pub spans: Vec<TextSpan>,
}

impl TextLabel {
    /// Builds a label from its geometry. `raw` is the attribute value.
    pub fn from_geometry(g: &LabelGeometry, raw: &str, fontcolor: &str) -> Self {
        Self::with_html(g, g.html_label.clone(), raw, fontcolor)
    }

    /// tl-draw's patch: [`Self::from_geometry`] taking the geometry's HTML label instead of
    /// copying it (a node's geometry keeps its shape for the writers; only the label reads
    /// the HTML).
    pub fn from_geometry_taking_html(g: &mut LabelGeometry, raw: &str, fontcolor: &str) -> Self {
        let html = g.html_label.take();
        Self::with_html(g, html, raw, fontcolor)
    }

    fn with_html(
        g: &LabelGeometry,
        html: Option<Box<HtmlLabel>>,
        raw: &str,
        fontcolor: &str,
    ) -> Self {
        let mut spans = Vec::new();
        let mut text = raw.to_string();
        if g.html {
            text = match html.as_deref() {
                Some(HtmlLabel::Table(_)) => "<TABLE>".to_string(),
                // `make_html_label` after a parse error: `lp->html` is cleared and
                // `lp->text` stays the unconverted source.
                None if g.html_failed => raw.to_string(),
                // HTML text: `lp->text` is the source string, entities not decoded.
                _ => raw.to_string(),
            };
        }
        if let Some(t) = &g.text {
            text = t.source.clone();
            for line in &t.lines {
                spans.push(TextSpan {
                    str: line.text.clone(),
                    just: match line.justify {
                        TextJustify::Left => 'l',
                        TextJustify::Right => 'r',
                        TextJustify::Center => 'n',
                    },
                    width: line.width,
                    height: line.height,
                    yoffset_centerline: 0.1 * line.font_size,
                    font: TextFont::new(&g.font_name, line.font_size, 0),
                });
            }
        }
        TextLabel {
            text,
            fontname: g.font_name.clone(),
            fontcolor: fontcolor.to_string(),
            fontsize: g.font_size,
            dimen: g.dimen,
            space: g.space,
            pos: Point::default(),
            set: false,
            valign: if g.valign == '\0' { 'c' } else { g.valign },
            html,
            is_html: g.html && !g.html_failed,
            spans,
        }
    }
}

/// One Bézier of an edge (`bezier`).
#[derive(Debug, Clone, Default)]
pub(crate) struct Bz {
    pub list: Vec<Point>,
    pub sflag: u32,
    pub eflag: u32,
    pub sp: Point,
    pub ep: Point,
}

pub(crate) struct RNode<'g> {
    pub name: &'g str,
    pub attrs: Attrs<'g>,
    // tl-draw's patch: boxed, so that a measured geometry moves in without a copy (`build_with`).
    pub geom: Box<NodeGeometry>,
    pub label: TextLabel,
    pub xlabel: Option<TextLabel>,
    pub coord: Point,
    pub lw: f64,
    pub rw: f64,
    pub ht: f64,
}

pub(crate) struct REdge<'g> {
    pub tail: usize,
    pub head: usize,
    pub attrs: Attrs<'g>,
    pub bz: Vec<Bz>,
    // tl-draw's patch: boxed, as most arrows have none of them (four labels inline were
    // three quarters of an edge's model: 100 MB on a 100,000-node drawing).
    pub label: Option<Box<TextLabel>>,
    pub xlabel: Option<Box<TextLabel>>,
    pub head_label: Option<Box<TextLabel>>,
    pub tail_label: Option<Box<TextLabel>>,
    pub tail_port: Option<&'g str>,
    pub head_port: Option<&'g str>,
}

pub(crate) struct RCluster<'g> {
    /// `agnameof` of the cluster.
    pub name: String,
    pub attrs: Attrs<'g>,
    pub sub: usize,
    /// `AGSEQ` of the cluster's subgraph.
    pub seq: usize,
    pub bb: BoundingBox,
    pub label: Option<TextLabel>,
    pub children: Vec<usize>,
    /// Nodes (indices) directly or indirectly in the cluster.
    #[allow(dead_code)]
    pub nodes: Vec<usize>,
}

/// `GD_has_labels` bits.
pub(crate) const EDGE_LABEL: u32 = 1 << 0;
pub(crate) const HEAD_LABEL: u32 = 1 << 1;
pub(crate) const TAIL_LABEL: u32 = 1 << 2;
pub(crate) const GRAPH_LABEL: u32 = 1 << 3;
pub(crate) const NODE_XLABEL: u32 = 1 << 4;
pub(crate) const EDGE_XLABEL: u32 = 1 << 5;

pub(crate) struct Model<'g> {
    pub g: &'g Graph,
    /// `N_penwidth != NULL`: nodes declare `penwidth`.
    pub node_penwidth_declared: bool,
    pub directed: bool,
    pub bb: BoundingBox,
    pub label: Option<TextLabel>,
    pub nodes: Vec<RNode<'g>>,
    pub edges: Vec<REdge<'g>>,
    /// Out-edges of each node in edge sequence order (`agfstout`/`agnxtout`).
    pub out_edges: Vec<Vec<usize>>,
    pub clusters: Vec<RCluster<'g>>,
    pub root_clusters: Vec<usize>,
    #[allow(dead_code)]
    pub has_labels: u32,
}

impl<'g> Model<'g> {
    /// `agnameof(n)` of node `n`.
    pub fn node_agnameof(&self, n: usize) -> graphviz_pure_core::AgName<'g> {
        self.g
            .agnameof(graphviz_pure_core::Obj::Node(graphviz_pure_core::NodeId(
                n as u32,
            )))
    }

    /// `AGSEQ(n)`.
    pub fn node_seq(&self, n: usize) -> usize {
        self.g.nodes[n].layout.seq.unwrap_or(n + 1)
    }
    /// `AGSEQ(e)`.
    pub fn edge_seq(&self, e: usize) -> usize {
        self.g.edges[e].layout.seq.unwrap_or(e + 1)
    }
}

/// `is_a_cluster(g)` for a subgraph (`lib/common/utils.c`).
pub(crate) fn is_a_cluster(name: &str, attrs: &AttrMap) -> bool {
    graphviz_pure_core::has_cluster_prefix(name) || Attrs(attrs).mapbool("cluster")
}

impl<'g> Model<'g> {
    pub fn root_attrs(&self) -> Attrs<'g> {
        Attrs(&self.g.graph_attrs)
    }

    /// `GD_drawing(g)->size` in points and `filled` (a `!` right after the numbers), as
    /// `getdoubles2ptf` in `lib/common/input.c` reads them.
    pub fn drawing_size(&self) -> Option<(f64, f64, bool)> {
        let p = self.root_attrs().get("size")?;
        // POINTS(a): ROUND(a * 72), with `a * 72 ± .5` fused by C (clang).
        let points = |a: f64| f64::from(graphviz_pure_core::cnum::c_round_mul(a, 72.0));
        let r = sscanf(p, "%lf,%lf%c");
        let [x, y, ..] = r.values;
        if r.count > 1 && x > 0.0 && y > 0.0 {
            return Some((points(x), points(y), r.c == Some(b'!')));
        }
        let r = sscanf(p, "%lf%c");
        let x = r.values[0];
        (r.count > 0 && x > 0.0).then(|| (points(x), points(x), r.c == Some(b'!')))
    }

    pub fn landscape(&self) -> bool {
        let a = self.root_attrs();
        if a.get("rotate").is_some_and(|r| super::attrs::atoi(r) == 90) {
            return true;
        }
        if a.get("orientation")
            .is_some_and(|o| o.starts_with('l') || o.starts_with('L'))
        {
            return true;
        }
        a.mapbool("landscape")
    }

    pub fn centered(&self) -> bool {
        self.root_attrs().mapbool("center")
    }

    /// The render model of `g`. Its node, edge and cluster labels are sized again here
    /// (`diag::quietly`): C made them in layout, and reported their diagnostics there.
    pub fn build(g: &'g Graph) -> graphviz_pure_core::Result<Self> {
        Self::build_with(g, None, None)
    }

    /// tl-draw's patch: [`Self::build`] with the geometries of `g`'s nodes, in node order,
    /// as the layout measured them (`node_geometry`), instead of measuring every node's
    /// label again; the remeasurement replays the layout's, so the model is the same. Any
    /// other count of geometries is not used. `measured_labels`, the edges' and clusters'
    /// labels measured before the layout, stand for measuring those again in the same way
    /// (when they hold one entry per edge and per subgraph).
    pub fn build_with(
        g: &'g Graph,
        measured_nodes: Option<Vec<Box<NodeGeometry>>>,
        measured_labels: Option<MeasuredLabels>,
    ) -> graphviz_pure_core::Result<Self> {
        let measured_nodes = measured_nodes.filter(|m| m.len() == g.nodes.len());
        let measured_labels = measured_labels.filter(|m| {
            m.edges.len() == g.edges.len() && m.clusters.len() == g.subgraphs.len()
        });
        // The labels were measured by layout; measure them again as C measured them then.
        graphviz_pure_core::font::textfont_remeasuring(|| {
            Self::build_measured(g, measured_nodes, measured_labels)
        })
    }

    fn build_measured(
        g: &'g Graph,
        measured_nodes: Option<Vec<Box<NodeGeometry>>>,
        measured_labels: Option<MeasuredLabels>,
    ) -> graphviz_pure_core::Result<Self> {
        graphviz_pure_core::diag::quietly(|| Self::build_quiet(g, measured_nodes, measured_labels))
    }

    fn build_quiet(
        g: &'g Graph,
        measured_nodes: Option<Vec<Box<NodeGeometry>>>,
        mut measured_labels: Option<MeasuredLabels>,
    ) -> graphviz_pure_core::Result<Self> {
        let directed = g.kind == GraphKind::Directed;
        let env = NodeSizeEnv::from_graph(g);
        let ga = Attrs(&g.graph_attrs);

        let mut has_labels = 0u32;
        let mut nodes = Vec::with_capacity(g.nodes.len());
        let mut measured_nodes = measured_nodes.map(Vec::into_iter);
        for n in &g.nodes {
            let mut geom = match measured_nodes.as_mut().and_then(Iterator::next) {
                Some(geom) => geom,
                None => Box::new(node_geometry(n, &env)?),
            };
            let a = Attrs(&n.attrs);
            let fontcolor = a.late_nnstring("fontcolor", "black");
            let raw = a.get("label").unwrap_or("\\N");
            let mut label = TextLabel::from_geometry_taking_html(&mut geom.label, raw, fontcolor);
            label.pos = n.pos;
            label.set = true;
            let xlabel = geom.xlabel.as_ref().map(|xg| {
                has_labels |= NODE_XLABEL;
                let mut l = TextLabel::from_geometry(xg, a.get("xlabel").unwrap_or(""), fontcolor);
                if let Some(p) = n.layout.xlabel {
                    l.pos = p;
                    l.set = true;
                }
                l
            });
            let w = n.width * 72.0;
            // The layout's ND_lw/ND_rw when they differ (dot's self-loop space in ND_rw).
            let (lw, rw) = n.layout.lw_rw.unwrap_or((w / 2.0, w / 2.0));
            nodes.push(RNode {
                name: &n.name,
                attrs: a,
                geom,
                label,
                xlabel,
                coord: n.pos,
                lw,
                rw,
                ht: n.height * 72.0,
            });
        }

        // tl-draw's patch: the measured geometries' buffer goes before the edges are built
        // (each geometry is moved into its node; a 100,000-node drawing's buffer is 110 MB).
        drop(measured_nodes);
        let no_edge_init = g.layout.no_edge_init;
        let mut edges = Vec::with_capacity(g.edges.len());
        let mut out_edges = vec![Vec::new(); g.nodes.len()];
        for (ei, e) in g.edges.iter().enumerate() {
            out_edges[e.tail.0 as usize].push(ei);
            let a = Attrs(&e.attrs);
            // The layout's `bz.sflag`/`bz.eflag`, which `emit_edge_graphics` draws.
            let bz = e
                .spline
                .segments
                .iter()
                .map(|s| Bz {
                    list: s.points.clone(),
                    sflag: s.sflag,
                    eflag: s.eflag,
                    sp: s.start_arrow.unwrap_or_default(),
                    ep: s.end_arrow.unwrap_or_default(),
                })
                .collect();
            let tname = &g.nodes[e.tail.0 as usize].name;
            let hname = &g.nodes[e.head.0 as usize].name;
            let lg = if no_edge_init {
                graphviz_pure_geom::node_size::EdgeLabelGeometry::default()
            } else if let Some(measured) = measured_labels.as_mut().and_then(|m| m.take_edge(ei)) {
                measured
            } else {
                graphviz_pure_geom::node_size::edge_label_geometry_of(
                    u64::from(e.id.0),
                    &e.attrs,
                    tname,
                    hname,
                    directed,
                    &env,
                )
            };
            let fontcolor = a.late_nnstring("fontcolor", "black");
            let lfontcolor = a.late_nnstring("labelfontcolor", fontcolor);
            // The layout's `pos` and `set` of each label.
            let mk = |geo: &Option<LabelGeometry>,
                      key: &str,
                      place: Option<LabelPlace>,
                      color: &str|
             -> Option<TextLabel> {
                geo.as_ref().map(|lgeo| {
                    let mut l = TextLabel::from_geometry(lgeo, a.get(key).unwrap_or(""), color);
                    if let Some(p) = place {
                        l.pos = p.pos;
                        l.set = p.set;
                    }
                    l
                })
            };
            let main = e.label_pos.map(|pos| LabelPlace {
                pos,
                set: !e.label_unplaced,
            });
            let label = mk(&lg.label, "label", main, fontcolor);
            let placed = |pos| LabelPlace { pos, set: true };
            let xlabel = mk(&lg.xlabel, "xlabel", e.layout.xlabel.map(placed), fontcolor);
            let head_label = mk(&lg.head_label, "headlabel", e.layout.head_label, lfontcolor);
            let tail_label = mk(&lg.tail_label, "taillabel", e.layout.tail_label, lfontcolor);
            if label.is_some() {
                has_labels |= EDGE_LABEL;
            }
            if xlabel.is_some() {
                has_labels |= EDGE_XLABEL;
            }
            if head_label.is_some() {
                has_labels |= HEAD_LABEL;
            }
            if tail_label.is_some() {
                has_labels |= TAIL_LABEL;
            }
            edges.push(REdge {
                tail: e.tail.0 as usize,
                head: e.head.0 as usize,
                attrs: a,
                bz,
                label: label.map(Box::new),
                xlabel: xlabel.map(Box::new),
                head_label: head_label.map(Box::new),
                tail_label: tail_label.map(Box::new),
                tail_port: match &e.layout.port_names {
                    PortNames::Layout { tail, .. } => Some(tail.as_str()).filter(|s| !s.is_empty()),
                    PortNames::Input => e
                        .tail_port
                        .compass
                        .as_deref()
                        .or(e.tail_port.name.as_deref()),
                },
                head_port: match &e.layout.port_names {
                    PortNames::Layout { head, .. } => Some(head.as_str()).filter(|s| !s.is_empty()),
                    PortNames::Input => e
                        .head_port
                        .compass
                        .as_deref()
                        .or(e.head_port.name.as_deref()),
                },
            });
        }

        // `agfstout`/`agnxtout` order: by head node id (cgraph `agedgeseqcmpf`), then by edge
        // sequence. Node ids follow the interning of their names, approximated by creation order.
        for list in &mut out_edges {
            list.sort_by_key(|&ei| (g.edges[ei].head.0, ei));
        }

        // Cluster tree (`GD_clust`): clusters with a box, found through plain subgraphs.
        let mut is_child = vec![false; g.subgraphs.len()];
        for s in &g.subgraphs {
            for c in &s.subgraphs {
                is_child[c.0 as usize] = true;
            }
        }
        let mut clusters: Vec<RCluster<'g>> = Vec::new();
        let mut root_clusters = Vec::new();
        let flip = false;
        fn dfs<'g>(
            g: &'g Graph,
            sid: usize,
            out: &mut Vec<usize>,
            clusters: &mut Vec<RCluster<'g>>,
            has_labels: &mut u32,
            env: &NodeSizeEnv<'_>,
            flip: bool,
            mut measured: Option<&mut MeasuredLabels>,
        ) {
            let s = &g.subgraphs[sid];
            let drawn = match s.layout.reg {
                ClusterReg::Registered => true,
                ClusterReg::Unregistered => false,
                ClusterReg::Unknown => s.bb != BoundingBox::default(),
            };
            if is_a_cluster(&s.name, &s.graph_attrs) && drawn {
                let a = Attrs(&s.graph_attrs);
                let name = g.subgraph_name(sid);
                let label = if s.layout.no_label {
                    None
                } else if let Some(label) =
                    measured.as_deref_mut().and_then(|m| m.take_cluster(sid)).filter(|_| !flip)
                {
                    label
                } else {
                    graph_label_geometry_in(&name, s.html_name, &s.graph_attrs, false, flip, env)
                };
                let label = label.map(|gl| {
                    *has_labels |= GRAPH_LABEL;
                    let mut l = TextLabel::from_geometry(
                        &gl.label,
                        a.get("label").unwrap_or(""),
                        a.late_nnstring("fontcolor", "black"),
                    );
                    l.pos = s.layout.label_pos.unwrap_or_else(|| {
                        let d = gl.border.map_or(Point::default(), |b| b.1);
                        let bb = s.bb;
                        let y = if gl.pos_flag & LABEL_AT_TOP != 0 {
                            bb.ur.y - d.y / 2.0
                        } else {
                            bb.ll.y + d.y / 2.0
                        };
                        let x = if gl.pos_flag & LABEL_AT_RIGHT != 0 {
                            bb.ur.x - d.x / 2.0
                        } else if gl.pos_flag & LABEL_AT_LEFT != 0 {
                            bb.ll.x + d.x / 2.0
                        } else {
                            (bb.ll.x + bb.ur.x) / 2.0
                        };
                        Point::new(x, y)
                    });
                    l.set = true;
                    l
                });
                let idx = clusters.len();
                clusters.push(RCluster {
                    name,
                    attrs: a,
                    sub: sid,
                    seq: s.layout.seq.unwrap_or(sid + 1),
                    bb: s.bb,
                    label,
                    children: Vec::new(),
                    nodes: s.nodes.iter().map(|n| n.0 as usize).collect(),
                });
                out.push(idx);
                let mut kids = Vec::new();
                for c in &s.subgraphs {
                    let measured = measured.as_deref_mut();
                    dfs(g, c.0 as usize, &mut kids, clusters, has_labels, env, flip, measured);
                }
                clusters[idx].children = kids;
            } else {
                for c in &s.subgraphs {
                    let measured = measured.as_deref_mut();
                    dfs(g, c.0 as usize, out, clusters, has_labels, env, flip, measured);
                }
            }
        }
        for (i, child) in is_child.iter().enumerate() {
            if !child {
                dfs(
                    g,
                    i,
                    &mut root_clusters,
                    &mut clusters,
                    &mut has_labels,
                    &env,
                    flip,
                    measured_labels.as_mut(),
                );
            }
        }
        // A layout that exported its `GD_clust` lists (dot): walk them as they are,
        // in their order and with their repeats (`copyClusterInfo` in the pack branch).
        // A graph's `GD_clust` only holds clusters below it, so entries that are not
        // descendants (the key written in the input, inherited by subgraphs) are dropped:
        // they could make the cluster tree cyclic.
        let mut of_sub: Vec<Option<usize>> = vec![None; g.subgraphs.len()];
        for (ci, c) in clusters.iter().enumerate() {
            of_sub[c.sub] = Some(ci);
        }
        let mut parent: Vec<Option<usize>> = vec![None; g.subgraphs.len()];
        for (i, s) in g.subgraphs.iter().enumerate() {
            for c in &s.subgraphs {
                parent[c.0 as usize] = Some(i);
            }
        }
        let below = |si: usize, owner: Option<usize>| {
            let Some(owner) = owner else { return true };
            let mut cur = parent[si];
            while let Some(p) = cur {
                if p == owner {
                    return true;
                }
                cur = parent[p];
            }
            false
        };
        let listed = |layout: &GraphLayout, owner: Option<usize>| -> Option<Vec<usize>> {
            Some(
                layout
                    .clusters
                    .as_ref()?
                    .iter()
                    .copied()
                    .filter(|&si| si < parent.len() && below(si, owner))
                    .filter_map(|si| of_sub[si])
                    .collect(),
            )
        };
        if let Some(list) = listed(&g.layout, None) {
            root_clusters = list;
        }
        // Only the root's list repeats clusters (`copyClusterInfo`); repeats below it
        // would multiply at every level.
        for c in &mut clusters {
            if let Some(mut list) = listed(&g.subgraphs[c.sub].layout, Some(c.sub)) {
                let mut seen = std::collections::HashSet::new();
                list.retain(|&k| seen.insert(k));
                c.children = list;
            }
        }

        let bb = g.bb;
        let root_label =
            graph_label_geometry_in(g.root_name(), false, &g.graph_attrs, true, flip, &env);
        let label = root_label.map(|gl| {
            has_labels |= GRAPH_LABEL;
            let mut l = TextLabel::from_geometry(
                &gl.label,
                ga.get("label").unwrap_or(""),
                ga.late_nnstring("fontcolor", "black"),
            );
            l.pos = g.layout.label_pos.unwrap_or_else(|| {
                // place_root_label
                let d = Point::new(gl.label.dimen.x + 16.0, gl.label.dimen.y + 8.0);
                let x = if gl.pos_flag & LABEL_AT_RIGHT != 0 {
                    bb.ur.x - d.x / 2.0
                } else if gl.pos_flag & LABEL_AT_LEFT != 0 {
                    bb.ll.x + d.x / 2.0
                } else {
                    (bb.ll.x + bb.ur.x) / 2.0
                };
                let y = if gl.pos_flag & LABEL_AT_TOP != 0 {
                    bb.ur.y - d.y / 2.0
                } else {
                    bb.ll.y + d.y / 2.0
                };
                Point::new(x, y)
            });
            l.set = true;
            l
        });

        Ok(Model {
            g,
            node_penwidth_declared: g.node_attr_declared("penwidth"),
            directed,
            bb,
            label,
            nodes,
            edges,
            out_edges,
            clusters,
            root_clusters,
            has_labels,
        })
    }
}
