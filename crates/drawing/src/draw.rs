//! The drawing pipeline: trace -> visible graph -> styled graph -> DOT -> file.

use std::borrow::Cow;
use std::path::Path;

use tl_collapse::backward::backward_view;
use tl_collapse::folds::repeat_runs;
use tl_collapse::loops::call_loops;
use tl_collapse::rolled::{rolled_graph_with, PassLabels};
use tl_collapse::schedule::{readable_band, Schedule};
use tl_collapse::{
    hidden_ops, visible_graph_with, NodeKind, Plan, TraceIndex, VisibilityOptions, VisibleGraph,
};
use tl_layout::{guard, progress, LaidOut, LayoutEngine, TextFormat};
use tl_render_cairo::xdot::image_placements;
use tl_render_cairo::{RenderOptions, Rendered, Shading};
use tl_style::{
    style_backward, style_combined, style_forward, NodePicture, StyleOptions, StyledGraph,
};
use tl_trace_model::{write_atomically, Trace};

use crate::error::DrawError;
use crate::options::{BatchRender, Collapse, DrawOptions, GraphKind, Settings, View};
use crate::output::{gzip, OutputFormat};
use crate::painted::layout_of;
use crate::views;

/// A finished drawing: its DOT source, and how to lay it out and write it.
#[derive(Debug, Clone)]
pub struct Drawing {
    /// The Graphviz DOT source.
    pub dot: String,
    /// The styled graph the DOT was emitted from.
    pub styled: StyledGraph,
    /// The collapse schedule, when a `collapse=` level was asked for.
    pub collapse_schedule: Option<Schedule>,
    /// The record `view="interventions"` writes beside the image (`<path>.census.txt`).
    pub census: Option<String>,
    /// The cone of `show_cone=True`: nodes and arrows downstream of an edit.
    pub cone: Option<Shading>,
    pub(crate) layout_engine: LayoutEngine,
}

impl Drawing {
    /// Adds caption lines under the header.
    pub(crate) fn add_caption(&mut self, lines: &[String]) {
        self.styled
            .header
            .extend(lines.iter().map(|line| tl_style::Row::plain(line.clone())));
        self.reemit();
    }

    /// Emits the DOT again after the styled graph changed.
    pub(crate) fn reemit(&mut self) {
        self.dot = tl_dot_emit::emit(&self.styled);
    }

    /// The engine that lays this drawing out: `layout_engine=` as asked, `auto` resolved by
    /// the drawing's estimated layout cost.
    pub fn layout_engine(&self) -> LayoutEngine {
        self.layout_engine
    }

    /// `dot` (this drawing's DOT, its pictures named as the layout finds them) laid out by
    /// this drawing's engine in `formats`, announced to a progress bar watching.
    fn lay_out(&self, dot: &str, formats: &[TextFormat]) -> Result<LaidOut, DrawError> {
        self.announce_layout();
        Ok(tl_layout::lay_out(dot, formats, self.layout_engine)?)
    }

    /// Tells a progress bar watching that this drawing's layout begins.
    pub(crate) fn announce_layout(&self) {
        progress::begin(self.styled.nodes.len(), self.layout_engine, || {
            guard::layout_seconds(&self.styled, self.layout_engine)
        });
    }

    /// The laid-out geometry: the layout engine's `json` output (xdot operations).
    pub fn layout_json(&self) -> Result<String, DrawError> {
        let (_pictures, dot) = self.with_picture_files()?;
        Ok(self
            .lay_out(&dot, &[TextFormat::Json])?
            .take(TextFormat::Json))
    }

    /// The DOT as the layout engine reads it: its pictures written to a private temporary
    /// folder (removed when the returned guard is dropped) and named by their paths there.
    fn with_picture_files(&self) -> Result<(Option<tempfile::TempDir>, Cow<'_, str>), DrawError> {
        if self.pictures().next().is_none() {
            return Ok((None, Cow::Borrowed(&self.dot)));
        }
        let folder = tempfile::tempdir().map_err(|source| {
            DrawError::Trace(tl_trace_model::TraceError::Write {
                path: std::env::temp_dir(),
                source,
            })
        })?;
        self.write_pictures(folder.path())?;
        // Spliced into a quoted DOT string: escaped as `quote` escapes.
        let place = folder
            .path()
            .to_string_lossy()
            .replace('\\', "\\\\")
            .replace('"', "\\\"");
        let dot = self.dot.replace(
            &format!("SRC=\"{PICTURES}/"),
            &format!("SRC=\"{place}/{PICTURES}/"),
        );
        Ok((Some(folder), Cow::Owned(dot)))
    }

    pub(crate) fn pictures(&self) -> impl Iterator<Item = &NodePicture> {
        self.styled
            .nodes
            .iter()
            .filter_map(|node| node.picture.as_ref())
    }

    /// The drawing's bytes in `format`, with any warnings. PNG, PostScript and EPS are
    /// painted with cairo, PDF mostly by tl-draw's own writer (`tl_render_cairo`); SVG
    /// comes from the layout engine, so its text stays text
    /// (searchable, selectable), as in Graphviz's own SVG, with pictures inlined and a cone
    /// laid over as translucent copies of the shaded shapes (the painters paint the same layer
    /// into the other formats; the DOT says it in a comment). JSON, xdot and plain are the
    /// layout engine's text, naming pictures as the DOT does (`tl-draw-pictures/<hash>.png`,
    /// written beside the file). HTML is the interactive page, which `tl-page` writes (the
    /// facade `tl-draw` sends it there): refused here with `file_format_not_static`.
    pub fn render(&self, format: OutputFormat) -> Result<Rendered, DrawError> {
        self.render_at(format, None)
    }

    /// [`Drawing::render`] with raster output at `dpi` dots per inch (`None`: the
    /// renderer's 96); vector and text formats are the same at every resolution.
    pub fn render_at(&self, format: OutputFormat, dpi: Option<f64>) -> Result<Rendered, DrawError> {
        if let Some(dpi) = dpi {
            crate::options::check_dpi(dpi)?;
        }
        let unpainted = |bytes: Vec<u8>| Rendered {
            bytes,
            warnings: Vec::new(),
        };
        match format {
            OutputFormat::Dot => return Ok(unpainted(self.dot.clone().into_bytes())),
            OutputFormat::Html => {
                return Err(DrawError::invalid(
                    "file_format_not_static",
                    "html is the interactive page, written by tl_draw::write or tl_page::page, not by one static drawing".to_owned(),
                ))
            }
            OutputFormat::Svgz => {
                let svg = self.render_at(OutputFormat::Svg, dpi)?;
                return Ok(Rendered {
                    bytes: gzip(&svg.bytes)?,
                    warnings: svg.warnings,
                });
            }
            _ => {}
        }
        // The layout engine and the painter read the pictures from files: a private
        // folder for this render, removed when it is done.
        let (folder, dot) = self.with_picture_files()?;
        if let Some(text_format) = format.layout_text() {
            let mut text = self.lay_out(&dot, &[text_format])?.take(text_format);
            if let Some(folder) = &folder {
                // Name the pictures as the DOT does, not by the private folder (JSON writes
                // `/` as `\/`).
                let place = format!("{}/", folder.path().to_string_lossy());
                text = text
                    .replace(&place, "")
                    .replace(&place.replace('/', "\\/"), "");
            }
            return Ok(unpainted(text.into_bytes()));
        }
        let file_of = |picture: &NodePicture| match &folder {
            Some(folder) => folder
                .path()
                .join(&picture.file)
                .to_string_lossy()
                .into_owned(),
            None => picture.file.clone(),
        };
        self.render_laid_out(&dot, format, dpi, file_of)
    }

    /// Writes every picture the DOT names under `folder` (as `tl-draw-pictures/<hash>.png`).
    pub(crate) fn write_pictures(&self, folder: &Path) -> Result<(), DrawError> {
        for picture in self.pictures() {
            write_atomically(&folder.join(&picture.file), &picture.png)?;
        }
        Ok(())
    }

    /// [`Drawing::render`] of `dot` (this drawing's DOT with its pictures' real paths),
    /// `file_of` giving the path the layout names each picture by.
    fn render_laid_out(
        &self,
        dot: &str,
        format: OutputFormat,
        dpi: Option<f64>,
        file_of: impl Fn(&NodePicture) -> String,
    ) -> Result<Rendered, DrawError> {
        let cairo_format = match format {
            OutputFormat::Svg => {
                let mut svg = self.lay_out(dot, &[TextFormat::Svg])?.take(TextFormat::Svg);
                for picture in self.pictures() {
                    use base64::Engine;
                    let data = base64::engine::general_purpose::STANDARD.encode(&picture.png);
                    let reference = format!("xlink:href=\"{}\"", file_of(picture));
                    svg = svg.replace(
                        &reference,
                        &format!("xlink:href=\"data:image/png;base64,{data}\""),
                    );
                }
                if let Some(cone) = &self.cone {
                    svg = crate::cone::shade_svg(&svg, cone);
                }
                return Ok(Rendered {
                    bytes: svg.into_bytes(),
                    warnings: Vec::new(),
                });
            }
            OutputFormat::Pdf => tl_render_cairo::Format::Pdf,
            OutputFormat::Png => tl_render_cairo::Format::Png,
            OutputFormat::Ps => tl_render_cairo::Format::Ps,
            OutputFormat::Eps => tl_render_cairo::Format::Eps,
            // Written without painting by `render`.
            OutputFormat::Dot
            | OutputFormat::Svgz
            | OutputFormat::Json
            | OutputFormat::Xdot
            | OutputFormat::Plain
            | OutputFormat::Html => return self.render_at(format, dpi),
        };
        // The built-in engines hand over their drawing operations; the system's `dot` writes
        // them as json text. Pictures are placed by the xdot render of the same layout
        // (neither carries them).
        let operations = if self.layout_engine.is_built_in() {
            TextFormat::Painting
        } else {
            TextFormat::Json
        };
        let with_pictures = self.pictures().next().is_some();
        let formats: &[TextFormat] = if with_pictures {
            &[operations, TextFormat::Xdot]
        } else {
            &[operations]
        };
        let laid_out = self.lay_out(dot, formats)?;
        let options = RenderOptions {
            dpi,
            shading: self.cone.clone(),
            images: laid_out
                .get(TextFormat::Xdot)
                .map(image_placements)
                .unwrap_or_default(),
            xdot_escaped_text: self.layout_engine.is_built_in(),
        };
        progress::mark(progress::Step::Painting);
        Ok(match laid_out.painting() {
            Some(painting) => {
                tl_render_cairo::render_layout(&layout_of(painting), cairo_format, &options)?
            }
            None => tl_render_cairo::render(
                laid_out.get(TextFormat::Json).unwrap_or_default(),
                cairo_format,
                &options,
            )?,
        })
    }
}

/// The folder, relative to the drawing, in which the DOT names node pictures.
const PICTURES: &str = "tl-draw-pictures";

/// Names each node picture by its content in [`PICTURES`]: the DOT then depends on
/// nothing of the machine (no temporary folder), and is the same from one run to the next.
fn place_pictures(styled: &mut StyledGraph) -> Result<(), DrawError> {
    for picture in styled
        .nodes
        .iter_mut()
        .filter_map(|node| node.picture.as_mut())
    {
        let name = picture
            .file
            .rsplit('/')
            .next()
            .unwrap_or(&picture.file)
            .to_owned();
        picture.file = format!("{PICTURES}/{name}");
    }
    Ok(())
}

/// Draws `trace` as `options` say: its forward, backward or combined graph, folded, focused,
/// coloured and marked as asked, with a view's settings filled in. The trace is validated
/// first (a trace from [`Trace::read`] is checked here once; one from [`Trace::load`] again).
pub fn draw(trace: &Trace, options: &DrawOptions) -> Result<Drawing, DrawError> {
    options.check_supported()?;
    let index = TraceIndex::validate(trace)?;
    Ok(draw_indexed(&index, options, None)?.0)
}

/// [`draw`] of an indexed trace, with the visible graph the drawing shows (its nodes and
/// clusters are the styled graph's first ones, in the same order; `None` for a backward
/// drawing, whose nodes are autograd steps). `plan` replaces the
/// boxes, capsules and folds the options ask for (the interactive page's opened and closed
/// boxes); the drawing then carries no schedule.
pub fn draw_indexed(
    index: &TraceIndex<'_>,
    options: &DrawOptions,
    plan: Option<Plan>,
) -> Result<(Drawing, Option<VisibleGraph>), DrawError> {
    let trace = index.trace;
    // A view fills in the options the caller left unset, then the drawing proceeds as usual.
    let resolved = match options.view {
        Some(view) => Some(views::resolve(index, view, options)?),
        None => None,
    };
    let settings = resolved.as_ref().map_or(options, |r| &r.options).settings();
    let options = &settings;
    let theme = options.check_supported()?;
    let shown = what_is_shown(index, options, plan)?;
    let visible = &shown.visible;
    let style = style_options(options)?;
    let edited = trace
        .edits
        .as_ref()
        .is_some_and(|set| !set.edits.is_empty());
    if options.show_cone && !edited {
        return Err(DrawError::invalid(
            "surgery_evidence_missing",
            format!("show_cone=True shades what an edit could change and this trace has no recorded edit; {}, or drop show_cone", crate::views::EDIT_REMEDY),
        ));
    }
    tl_style::encoding::check(index, visible, &style.encoding)
        .map_err(|error| DrawError::invalid(error.code(), error.to_string()))?;
    let backward = match options.graph {
        GraphKind::Forward => None,
        _ => Some(
            backward_view(trace)
                .map_err(|error| DrawError::invalid(error.code(), error.to_string()))?,
        ),
    };
    let drawn = match (&backward, options.graph) {
        (Some(view), GraphKind::Backward) => view.nodes.len(),
        (Some(view), _) => visible.nodes.len() + view.nodes.len(),
        (None, _) => visible.nodes.len(),
    };
    let limits = guard::Limits {
        max_nodes: options.max_nodes,
        max_layout_cost: options.max_layout_cost,
        force: options.force,
    };
    limits.check_nodes(drawn)?;
    let mut styled = match (&backward, options.graph) {
        (Some(view), GraphKind::Backward) => style_backward(trace, view, &style, &theme),
        (Some(view), _) => style_combined(index, visible, view, &style, &theme),
        (None, _) => style_forward(index, visible, shown.pass_labels.as_deref(), &style, &theme),
    };
    restyle(trace, visible, options, resolved.as_ref(), &mut styled);
    tl_style::settle_ids(&mut styled);
    place_pictures(&mut styled)?;
    // One rank estimate serves the frames and the layout guard (margins do not change it).
    let ranks = guard::estimated_ranks(&styled);
    tl_layout::frames::widen_crossed_frames(&mut styled, &ranks);
    let cost = guard::layout_cost_with(&styled, &ranks);
    let layout_engine = options.layout_engine.resolve(cost);
    limits.check_cost(layout_engine, cost, |node| {
        let drawn = &styled.nodes[node];
        let name = drawn.rows.first().map_or(&drawn.id, |row| &row.text);
        // As the drawing shows it: cut, and control characters escaped (a terminal).
        let shown = tl_style::format::capped(name);
        format!("`{}`", tl_style::format::visible_controls(&shown))
    })?;
    let cone = (options.show_cone && options.graph != GraphKind::Backward)
        .then(|| cone_shading(index, visible, &styled, &theme));
    let nslimit = (!options.force && layout_engine != LayoutEngine::Layered)
        .then(|| guard::position_limit(cost))
        .flatten();
    let mut dot = tl_dot_emit::emit_limited(&styled, nslimit);
    if let Some(cone) = &cone {
        // After the first comment line, which names the graph.
        let second_line = dot.find('\n').map_or(0, |n| n + 1);
        dot.insert_str(second_line, &crate::cone::dot_note(cone));
    }
    let drawing = Drawing {
        dot,
        census: style.interventions.then(|| tl_style::edits::census(trace)),
        cone,
        styled,
        collapse_schedule: shown.schedule,
        layout_engine,
    };
    let forward = (options.graph != GraphKind::Backward).then_some(shown.visible);
    Ok((drawing, forward))
}

/// What a drawing shows: the schedule when a level was asked for, the visible graph and,
/// rolled, each layer's pass labels.
struct Shown {
    schedule: Option<Schedule>,
    visible: VisibleGraph,
    pass_labels: Option<Vec<PassLabels>>,
}

/// The visible graph of `options` (or of `plan`, which replaces what `collapse=` and
/// `fold_repeats=` would fold).
fn what_is_shown(
    index: &TraceIndex<'_>,
    options: &Settings,
    plan: Option<Plan>,
) -> Result<Shown, DrawError> {
    let schedule = match (options.collapse, &plan) {
        (Collapse::None, _) | (_, Some(_)) => None,
        _ => Some(Schedule::build_with(index, options.show_buffers)),
    };
    let plan = match plan {
        Some(plan) => Some(plan),
        None => plan_for(index, options, schedule.as_ref()),
    };
    let visibility = VisibilityOptions {
        depth: options.depth,
        buffers: options.show_buffers,
        plan,
        focus: options.module.clone(),
    };
    let refused =
        |error: tl_collapse::VisibilityError| DrawError::invalid(error.code(), error.to_string());
    let (visible, pass_labels) = if options.rolled {
        // The plan is chosen on the unrolled graph and applied per module address.
        let (visible, labels) = rolled_graph_with(index, &visibility).map_err(refused)?;
        (visible, Some(labels))
    } else {
        let hidden = hidden_ops(index, options.show_buffers);
        (
            visible_graph_with(index, hidden, &visibility).map_err(refused)?,
            None,
        )
    };
    Ok(Shown {
        schedule,
        visible,
        pass_labels,
    })
}

/// The style stage's options from the drawing's.
fn style_options(options: &Settings) -> Result<StyleOptions, DrawError> {
    Ok(StyleOptions {
        direction: options.flow(),
        node_label_fields: options.node_label_fields.clone(),
        show_saved_for_backward: options.show_saved_for_backward,
        show_redundant_args: options.show_redundant_args,
        node_style: options.node_style,
        show_legend: options.show_legend,
        buffers: options.show_buffers,
        show_input_photo: options.batch_render != BatchRender::ShapeOnly,
        focus: options.module.clone(),
        show_edge_shapes: options.show_edge_shapes,
        encoding: options.encoding()?,
        show_module_paths: options.show_module_paths,
        show_grad_values: options.show_grad_values,
        interventions: options.view == Some(View::Interventions),
    })
}

/// A view's caption and rows, then the caller's hook, which runs last: it sees, and may
/// undo, everything else. Hooks see forward nodes; backward steps carry no op record.
fn restyle(
    trace: &Trace,
    visible: &VisibleGraph,
    options: &Settings,
    resolved: Option<&views::Resolved>,
    styled: &mut StyledGraph,
) {
    let kinds: Vec<NodeKind> = match options.graph {
        GraphKind::Backward => Vec::new(),
        _ => visible.nodes.iter().map(|n| n.kind.clone()).collect(),
    };
    if let Some(resolved) = resolved {
        styled.header.extend(views::caption_rows(&resolved.caption));
        if let Some(rows) = &resolved.node_rows {
            views::restyle(trace, &kinds, &mut styled.nodes, rows);
        }
    }
    if let Some(hook) = &options.node_spec {
        views::restyle(trace, &kinds, &mut styled.nodes, hook);
    }
}

/// The nodes and arrows downstream of an edit, in translucent intervention colour.
fn cone_shading(
    index: &TraceIndex<'_>,
    visible: &tl_collapse::VisibleGraph,
    styled: &StyledGraph,
    theme: &tl_style::Theme,
) -> Shading {
    let cone = tl_style::edits::cone(index);
    let id = |node: usize| styled.nodes[node].id.clone();
    let drawn: std::collections::BTreeSet<usize> = cone
        .iter()
        .filter_map(|&op| visible.node_of_op[op])
        .collect();
    let nodes = drawn.into_iter().map(id).collect();
    let edges = visible
        .edges
        .iter()
        .filter(|edge| edge.pairs.iter().any(|(parent, _)| cone.contains(parent)))
        .map(|edge| (id(edge.from), id(edge.to)))
        .collect();
    let color = theme.roles.intervention.trim_start_matches('#');
    Shading {
        color: format!("#{}55", &color[..color.len().min(6)]),
        nodes,
        edges,
    }
}

/// The boxes, capsules and folds `collapse=` and `fold_repeats=` ask for; `None` keeps the
/// depth rule.
fn plan_for(
    index: &TraceIndex<'_>,
    options: &Settings,
    schedule: Option<&Schedule>,
) -> Option<Plan> {
    let mut plan = match (options.collapse, schedule) {
        (Collapse::Auto, Some(schedule)) => schedule.auto(readable_band(index.trace)).plan.clone(),
        (Collapse::Max, Some(schedule)) => schedule.max().plan.clone(),
        (Collapse::Level(level), Some(schedule)) => schedule.at(level).plan.clone(),
        _ => Plan::default(),
    };
    if options.fold_repeats == Some(false) {
        // "False never folds": a capsule over identical sibling blocks (`blocks.0-5 -- 6
        // blocks`) is a fold of repeats, so its blocks are drawn as boxes one by one.
        let runs = repeat_runs(index, options.show_buffers);
        let (repeats, others): (Vec<_>, Vec<_>) = std::mem::take(&mut plan.capsules)
            .into_iter()
            .partition(|capsule| {
                runs.iter()
                    .any(|run| capsule.iter().all(|member| run.contains(member)))
            });
        plan.capsules = others;
        plan.boxes.extend(repeats.into_iter().flatten());
        // A loop of calls is a fold of repeats too: each call is drawn as its own box.
        plan.loops.clear();
    }
    if options.fold_repeats == Some(true) {
        // "True folds every repeated run it can", at every level: a run is folded unless a
        // box of an enclosing module hides it already; its members' own boxes and the
        // capsules over them give way to the fold. So 0.0 draws what "none" draws, and a
        // larger level, which only boxes more, never draws more.
        let within = |outer: &str, inner: &str| {
            inner.strip_prefix(outer).is_some_and(|rest| {
                rest.is_empty() || rest.starts_with('.') || rest.starts_with(':')
            })
        };
        for run in repeat_runs(index, options.show_buffers) {
            let hidden = plan.boxes.iter().any(|boxed| {
                run.iter()
                    .any(|member| within(boxed, member) && !run.contains(boxed))
            });
            if hidden {
                continue;
            }
            let covered = |address: &str| run.iter().any(|member| within(member, address));
            plan.boxes.retain(|boxed| !covered(boxed));
            plan.capsules
                .retain(|capsule| !capsule.iter().any(|address| covered(address)));
            plan.folds.push(run);
        }
        let hidden = hidden_ops(index, options.show_buffers);
        for call_loop in call_loops(index, &hidden) {
            let address = call_loop.address.as_str();
            let hidden_by_box = plan
                .boxes
                .iter()
                .any(|boxed| within(boxed, address) && boxed != address);
            let grouped = plan
                .capsules
                .iter()
                .chain(&plan.folds)
                .flatten()
                .any(|member| within(member, address));
            if hidden_by_box || grouped || plan.loops.iter().any(|looped| looped == address) {
                continue;
            }
            // Op capsules over its iterations give way to the loop, as boxes to a fold.
            plan.op_capsules.retain(|labels| {
                !labels.iter().any(|label| {
                    index
                        .op(label)
                        .is_some_and(|op| call_loop.later.contains(&op))
                })
            });
            plan.loops.push(call_loop.address);
        }
    }
    (options.collapse != Collapse::None || !plan.is_empty()).then_some(plan)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trace_built_in_memory_is_validated_before_it_is_drawn() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/convnet.json");
        let mut trace = Trace::load(path).unwrap();
        trace.ops[3].parents[0] = "no_such_op".to_owned();
        let error = draw(&trace, &DrawOptions::default()).err().unwrap();
        assert_eq!(error.code(), "trace_reference_dangling");
        assert!(error.to_string().contains("ops[3].parents[0]"), "{error}");
    }
}
