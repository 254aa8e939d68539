//! Bundle drawings (the guide's "Comparing runs"): `graph="diff"` draws the model once with each
//! operation coloured by how much its output (or gradient) changed between the members,
//! from the differences the bundle file carries; `graph="forward" | "backward" |
//! "combined"` draw the members' union graph with each node listing the members that ran
//! it. Same path and format rules as a trace's drawing.

use std::collections::HashMap;

use tl_style::encoding::ValueSource;
use tl_style::Row;
use tl_trace_model::{Bundle, BundleMember, DeltaOn};

use crate::draw::{draw, Drawing};
use crate::error::DrawError;
use crate::keywords::KeywordValue;
use crate::options::{DrawOptions, GraphKind};
use tl_trace_model::union::union;

/// The comparison metrics a bundle file carries (the adapter exports all three).
pub const METRICS: [&str; 3] = ["relative_l2", "cosine", "pearson"];

/// Which bundle drawing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum BundleGraph {
    /// The model once, coloured by the per-op difference between members.
    #[default]
    Diff,
    /// The members' union graph of this pass.
    Union(GraphKind),
}

impl BundleGraph {
    /// Parses `diff`, `forward`, `backward` or `combined`.
    pub fn parse(text: &str) -> Result<BundleGraph, DrawError> {
        match text {
            "diff" => Ok(BundleGraph::Diff),
            other => GraphKind::parse(other).map(BundleGraph::Union).map_err(|_| {
                DrawError::invalid(
                    "visualization_graph_invalid",
                    format!(
                        "a bundle's graph must be one of 'diff', 'forward', 'backward', or 'combined'; received {text:?}"
                    ),
                )
            }),
        }
    }
}

/// What a bundle drawing compares.
#[derive(Debug, Clone, PartialEq)]
pub struct BundleOptions {
    /// Which drawing.
    pub graph: BundleGraph,
    /// `relative_l2` (default), `cosine` or `pearson`.
    pub metric: String,
    /// Compare outputs (default) or gradients.
    pub on: DeltaOn,
    /// Restrict the comparison (or the union) to these members; `None`: all of them.
    pub members: Option<Vec<String>>,
}

impl Default for BundleOptions {
    fn default() -> Self {
        BundleOptions {
            graph: BundleGraph::Diff,
            metric: "relative_l2".to_owned(),
            on: DeltaOn::Out,
            members: None,
        }
    }
}

/// The bundle keywords of one request, as given (`None`: not given), before they are checked
/// against what is drawn: the command line's `--graph/--metric/--on/--members`, the Python
/// package's `graph=`, `metric=`, `on=`, `members=`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BundleKeywords {
    /// `graph=` (a bundle also takes `diff`).
    pub graph: Option<String>,
    /// `metric=`.
    pub metric: Option<String>,
    /// `on=`.
    pub on: Option<String>,
    /// `members=`.
    pub members: Option<Vec<String>>,
}

impl BundleKeywords {
    /// Takes `graph=` as given: kept here as given (a bundle also takes `diff`), and set on
    /// `options` unless it is `diff`, which leaves a trace's options at their forward
    /// default. A value that is no name is refused as `graph=` refuses it.
    pub fn set_graph(
        &mut self,
        options: DrawOptions,
        graph: &KeywordValue,
    ) -> Result<DrawOptions, DrawError> {
        if let KeywordValue::Text(graph) = graph {
            self.graph = Some(graph.clone());
            if graph == "diff" {
                return Ok(options);
            }
        }
        options.set_keyword("graph", graph)
    }

    /// Takes `metric=`, `on=` or `members=` from a binding's keyword value: each value is
    /// checked here, so a value of the wrong kind is refused naming its keyword, what it
    /// takes and a code (`keyword_value_invalid`), like every other keyword. Returns
    /// `false` for a name that is none of the three.
    pub fn set_keyword(&mut self, name: &str, value: &KeywordValue) -> Result<bool, DrawError> {
        let takes = match name {
            "metric" => format!("one of {}", METRICS.join(", ")),
            "on" => "'out' or 'grad'".to_owned(),
            "members" => "a list of member names (strings)".to_owned(),
            _ => return Ok(false),
        };
        let refused = |value: &KeywordValue| {
            DrawError::invalid(
                "keyword_value_invalid",
                format!(
                    "{name}= takes {takes}, or None; received {}",
                    value.described()
                ),
            )
        };
        match (name, value) {
            (_, KeywordValue::Unset) => match name {
                "metric" => self.metric = None,
                "on" => self.on = None,
                _ => self.members = None,
            },
            ("metric", KeywordValue::Text(metric)) => self.metric = Some(metric.clone()),
            ("on", KeywordValue::Text(on)) => {
                parse_on(on).map_err(|_| refused(value))?;
                self.on = Some(on.clone());
            }
            ("members", KeywordValue::Texts(members)) => self.members = Some(members.clone()),
            ("members", KeywordValue::Text(member)) => self.members = Some(vec![member.clone()]),
            _ => return Err(refused(value)),
        }
        Ok(true)
    }

    /// Refuses the bundle-only keywords when a single trace is drawn: `spell` writes a keyword
    /// as the caller's user typed it (`--metric`, `metric=`), `trace` names the trace and
    /// `remedy` says how to draw a bundle instead.
    pub fn refuse_on_a_trace(
        &self,
        spell: impl Fn(&str) -> String,
        trace: &str,
        remedy: &str,
    ) -> Result<(), DrawError> {
        let given: Vec<String> = [
            ("metric", self.metric.is_some()),
            ("on", self.on.is_some()),
            ("members", self.members.is_some()),
        ]
        .into_iter()
        .filter(|(_, given)| *given)
        .map(|(name, _)| spell(name))
        .collect();
        if !given.is_empty() {
            return Err(DrawError::invalid(
                "bundle_option_without_bundle",
                format!(
                    "{} compare{} the members of a bundle, and {trace} is a single trace: {remedy}, or drop {}",
                    given.join(", "),
                    if given.len() == 1 { "s" } else { "" },
                    given.join(" and ")
                ),
            ));
        }
        if self.graph.as_deref() == Some("diff") {
            return Err(DrawError::invalid(
                "bundle_graph_invalid",
                format!("graph=\"diff\" compares the members of a bundle: {remedy}"),
            ));
        }
        Ok(())
    }

    /// The options for drawing `bundle`: `graph` defaults to `diff` for a bundle that carries
    /// differences and to the forward union otherwise, `metric` to `relative_l2`, `on` to `out`.
    pub fn options_for(&self, bundle: &Bundle) -> Result<BundleOptions, DrawError> {
        let graph = match self.graph.as_deref() {
            Some(graph) => BundleGraph::parse(graph)?,
            None if bundle.deltas.is_empty() => BundleGraph::Union(GraphKind::Forward),
            None => BundleGraph::Diff,
        };
        Ok(BundleOptions {
            graph,
            metric: self
                .metric
                .clone()
                .unwrap_or_else(|| "relative_l2".to_owned()),
            on: parse_on(self.on.as_deref().unwrap_or("out"))?,
            members: self.members.clone(),
        })
    }
}

/// Parses `out` or `grad`.
pub fn parse_on(text: &str) -> Result<DeltaOn, DrawError> {
    match text {
        "out" => Ok(DeltaOn::Out),
        "grad" => Ok(DeltaOn::Grad),
        _ => Err(DrawError::invalid(
            "bundle_on_invalid",
            format!("on must be 'out' or 'grad'; received {text:?}"),
        )),
    }
}

fn on_name(on: DeltaOn) -> &'static str {
    match on {
        DeltaOn::Out => "out",
        DeltaOn::Grad => "grad",
    }
}

/// The members drawn: `members=` (checked) or all, in bundle order.
fn chosen<'b>(
    bundle: &'b Bundle,
    options: &BundleOptions,
) -> Result<Vec<&'b BundleMember>, DrawError> {
    let Some(names) = &options.members else {
        return Ok(bundle.members.iter().collect());
    };
    let known: Vec<&str> = bundle.members.iter().map(|m| m.name.as_str()).collect();
    if let Some(unknown) = names.iter().find(|n| !known.contains(&n.as_str())) {
        return Err(DrawError::invalid(
            "bundle_member_unknown",
            format!(
                "member {unknown:?} is not in this bundle; its members are {}",
                known.join(", ")
            ),
        ));
    }
    Ok(bundle
        .members
        .iter()
        .filter(|m| names.contains(&m.name))
        .collect())
}

/// Draws `bundle` as `bundle_options` say, with the drawing options of a trace (`depth=`,
/// `collapse=`, `theme=`, ...).
pub fn draw_bundle(
    bundle: &Bundle,
    options: &DrawOptions,
    bundle_options: &BundleOptions,
) -> Result<Drawing, DrawError> {
    let members = chosen(bundle, bundle_options)?;
    match bundle_options.graph {
        BundleGraph::Diff => draw_diff(bundle, &members, options, bundle_options),
        BundleGraph::Union(graph) => draw_union(&members, options, graph),
    }
}

/// `graph="diff"`: the compared member's own graph (folded as `options` say), each op
/// coloured by its largest difference from the baseline over the compared members, each
/// box by its most changed op.
fn draw_diff(
    bundle: &Bundle,
    members: &[&BundleMember],
    options: &DrawOptions,
    bundle_options: &BundleOptions,
) -> Result<Drawing, DrawError> {
    if bundle.deltas.is_empty() {
        return Err(DrawError::invalid(
            "bundle_deltas_missing",
            "graph=\"diff\" needs the per-op differences a bundle file carries; export the traces together with tl_export.export_bundle, or draw their union (graph=\"forward\")".to_owned(),
        ));
    }
    let metric = bundle_options.metric.as_str();
    if !METRICS.contains(&metric) {
        return Err(DrawError::invalid(
            "metric_name_invalid",
            format!(
                "Intervention metric '{metric}' is unknown; use one of {}",
                METRICS.join(", ")
            ),
        ));
    }
    if options.color_by.is_some() || options.view.is_some() {
        return Err(DrawError::invalid(
            "bundle_option_invalid",
            "graph=\"diff\" colours every node by its difference: drop color_by= and view="
                .to_owned(),
        ));
    }
    let compared: Vec<&BundleMember> = members
        .iter()
        .copied()
        .filter(|m| m.name != bundle.baseline)
        .collect();
    let Some(drawn) = compared.first() else {
        return Err(DrawError::invalid(
            "bundle_member_unknown",
            format!(
                "graph=\"diff\" compares members with the baseline {:?}; name at least one other member",
                bundle.baseline
            ),
        ));
    };
    let on = bundle_options.on;
    let mut values: HashMap<String, f64> = HashMap::new();
    for member in &compared {
        let table = bundle
            .deltas
            .iter()
            .find(|d| d.member == member.name && d.metric == metric && d.on == on)
            .ok_or_else(|| {
                DrawError::invalid(
                    "bundle_metric_unavailable",
                    format!(
                        "this bundle carries no {metric} on {} for member {:?} (nothing to compare was saved); re-export it with tl_export.export_bundle from traces that saved {}",
                        on_name(on),
                        member.name,
                        if on == DeltaOn::Grad { "gradients" } else { "outputs" }
                    ),
                )
            })?;
        for (label, &value) in &table.values {
            let entry = values.entry(label.clone()).or_insert(value);
            *entry = entry.max(value);
        }
    }
    let name = format!("{metric} on {}", on_name(on));
    let source = ValueSource::custom(&name, move |op| values.get(&op.label).copied());
    let diff_options = options.clone().color_by(source).with_difference_scale();
    let mut drawing = draw(&drawn.trace, &diff_options)?;
    let names: Vec<&str> = compared.iter().map(|m| m.name.as_str()).collect();
    drawing.add_caption(&[
        format!(
            "diff: {} against the baseline {}",
            names.join(", "),
            bundle.baseline
        ),
        format!(
            "colour: {name}, 0 = identical{}",
            if names.len() > 1 {
                "; the largest over the members"
            } else {
                ""
            }
        ),
    ]);
    Ok(drawing)
}

/// `graph="forward" | "backward" | "combined"` over several members: their union graph,
/// each node listing the members that ran it (dashed when not all of them did).
fn draw_union(
    members: &[&BundleMember],
    options: &DrawOptions,
    graph: GraphKind,
) -> Result<Drawing, DrawError> {
    let joined = union(members)?;
    let renamed = joined
        .trace
        .ops
        .iter()
        .any(|op| op.layer_label.contains('@'));
    let names: Vec<String> = members.iter().map(|m| m.name.clone()).collect();
    let count = names.len();
    let mark = move |node: &mut tl_style::StyledNode, ran_by: Option<&Vec<String>>| {
        let ran_by: &[String] = ran_by.map_or(&[], Vec::as_slice);
        node.rows
            .push(Row::plain(format!("[{}]", ran_by.join(", "))));
        node.dashed |= ran_by.len() < count;
    };
    let ran_op = joined.ran_op;
    // The caller's own hook still runs, after the membership row.
    let caller_hook = options.node_spec.clone();
    let union_options = options
        .clone()
        .graph(graph)
        .node_spec_fn(move |context, node| {
            if let (tl_collapse::NodeKind::Op(_), Some(op)) = (context.kind, context.op) {
                mark(node, ran_op.get(&op.label));
            }
            if let Some(hook) = &caller_hook {
                (hook.0)(context, node);
            }
        });
    let mut drawing = draw(&joined.trace, &union_options)?;
    // Backward steps carry no op record: mark them by their id (`bwd:<label>[:<pass>]`).
    for node in &mut drawing.styled.nodes {
        if let Some(rest) = node.id.strip_prefix("bwd:") {
            let label = rest.split(':').next().unwrap_or(rest);
            mark(node, joined.ran_step.get(label));
        }
    }
    // Short lines, each said only when the drawing shows it: one long caption line made the
    // image far wider than the graph.
    let mut caption = vec![
        format!("union of {}", names.join(", ")),
        "[names]: the members that ran a node".to_owned(),
    ];
    if drawing.styled.nodes.iter().any(|node| node.dashed) {
        caption.push("dashed: not every member ran it".to_owned());
    }
    if renamed {
        caption.push("name@member: that member's own op under a label another used".to_owned());
    }
    drawing.add_caption(&caption);
    Ok(drawing)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundle_keywords_of_the_wrong_kind_are_refused_naming_the_keyword() {
        let mut bundle = BundleKeywords::default();
        assert!(bundle
            .set_keyword("on", &KeywordValue::Text("grad".into()))
            .unwrap());
        assert!(bundle
            .set_keyword("members", &KeywordValue::Text("a".into()))
            .unwrap());
        assert_eq!(bundle.members.as_deref(), Some(&["a".to_owned()][..]));
        assert!(!bundle.set_keyword("depth", &KeywordValue::Int(1)).unwrap());
        for (name, value) in [
            ("metric", KeywordValue::Int(3)),
            ("on", KeywordValue::Text("sideways".into())),
            ("members", KeywordValue::Float(1.5)),
        ] {
            let error = bundle.set_keyword(name, &value).unwrap_err();
            assert_eq!(error.code(), "keyword_value_invalid");
            assert!(
                error.to_string().starts_with(&format!("{name}= takes")),
                "{error}"
            );
        }
        assert!(bundle.set_keyword("on", &KeywordValue::Unset).unwrap());
        assert_eq!(bundle.on, None);
    }

    #[test]
    fn graph_diff_is_the_bundles_and_other_graphs_set_the_options_too() {
        let text = |graph: &str| KeywordValue::Text(graph.to_owned());
        let mut bundle = BundleKeywords::default();
        let options = bundle
            .set_graph(DrawOptions::default(), &text("diff"))
            .unwrap();
        assert_eq!(options, DrawOptions::default());
        assert_eq!(bundle.graph.as_deref(), Some("diff"));
        let options = bundle
            .set_graph(DrawOptions::default(), &text("backward"))
            .unwrap();
        assert_eq!(options.graph, Some(GraphKind::Backward));
        assert_eq!(bundle.graph.as_deref(), Some("backward"));
        let refused = bundle.set_graph(DrawOptions::default(), &KeywordValue::Int(2));
        assert_eq!(refused.unwrap_err().code(), "keyword_value_invalid");
        let unset = bundle.set_graph(DrawOptions::default(), &KeywordValue::Unset);
        assert_eq!(unset.unwrap(), DrawOptions::default());
    }
}
