//! The interactive drawing (`-o model.html`, `file_format="html"`): one self-contained HTML
//! file holding every stop of the collapse schedule and the drawings reached from them by
//! opening boxes and closing frames, each laid out now (the page runs no layout), with the
//! recorded fields of every operation and module call, and the viewer script inlined. It opens from disk with no network access (its content security policy
//! forbids any) and is the same file for the same trace and options.

mod explore;
mod holding;
mod notebook;
mod records;
mod search;
mod template;

use std::collections::BTreeMap;

use serde_json::{json, Value};
use tl_collapse::transitions::Move;
use tl_collapse::{NodeKind, TraceIndex, VisibleGraph};
use tl_drawing::options::Settings;
use tl_drawing::{
    draw_indexed, through_links, Collapse, DrawError, DrawOptions, Drawing, GraphKind,
    OutputFormat, Written,
};
use tl_trace_model::Trace;

pub use notebook::{notebook, notebook_of_drawing, NotebookOutput, OUTPUT_BUDGET};

/// The interactive page of `trace` drawn as `options` say: it opens on that drawing (on
/// `collapse="auto"` when neither `collapse=` nor `depth=` was given) and, for forward
/// drawings, holds every schedule stop and the drawings a click on a box or frame leads
/// to. Backward and combined drawings are one drawing each (they have no schedule).
pub fn page(trace: &Trace, options: &DrawOptions) -> Result<String, DrawError> {
    let built = build(trace, options, None)?;
    Ok(template::html(&trace.model.class_name, &built.data))
}

/// A page's data, and the drawings it holds with their SVGs' sizes in points (state `i` is
/// `drawn[i]`; the first is the one it opens on).
pub(crate) struct Built {
    pub(crate) data: Value,
    pub(crate) drawn: Vec<(Drawing, Option<VisibleGraph>)>,
    pub(crate) sizes: Vec<Option<(f64, f64)>>,
}

/// Builds a page; with `bound`, its states are estimated to take at most that many bytes
/// beside its records (stops thinned, clicks cut off: [`holding`]).
fn build(trace: &Trace, options: &DrawOptions, bound: Option<usize>) -> Result<Built, DrawError> {
    options.check_supported()?;
    let index = TraceIndex::validate(trace)?;
    let mut options = options.clone();
    let asked = options.collapse.is_some() || options.depth.is_some();
    let settings = options.settings();
    if !asked && settings.graph == GraphKind::Forward {
        options.collapse = Some(Collapse::Auto);
    }
    // An edited fork always carries its cone; the page's toggle shows it as asked.
    let cone_shown = settings.show_cone;
    let edited = trace
        .edits
        .as_ref()
        .is_some_and(|set| !set.edits.is_empty());
    if edited && settings.graph != GraphKind::Backward {
        options.show_cone = Some(true);
    }
    let explorable = settings.graph == GraphKind::Forward && settings.module.is_none();
    // First: a trace whose records no browser could open is refused before any layout.
    let records = template::base64(&records::records_gzipped(
        trace,
        records::MAX_RECORDS_BYTES,
    )?);
    let state_bytes = bound.map(|bound| bound.saturating_sub(records.len()));
    let (first, first_visible) = draw_indexed(&index, &options, None)?;
    let explored = match (explorable, first_visible) {
        (true, Some(first_visible)) => explore::explore(
            &index,
            &options,
            settings.show_buffers,
            (first, first_visible),
            state_bytes,
        )?,
        (_, first_visible) => explore::Explored {
            drawn: vec![(first, first_visible)],
            links: vec![Vec::new()],
            stops: Vec::new(),
            schedule_stops: 0,
        },
    };
    let explore::Explored {
        drawn,
        links,
        stops,
        schedule_stops,
    } = explored;
    // Each state is packed as soon as it is laid out, on the thread that laid it out: packing
    // (JSON and gzip) is a third of a large model's page, and its SVG is let go at once.
    let (states, sizes): (Vec<Value>, Vec<Option<(f64, f64)>>) = lay_out(&drawn, |at, svg| {
        let (drawing, visible) = &drawn[at];
        let state = state_json(&index, drawing, visible.as_ref(), &links[at], &svg)?;
        Ok((state, notebook::svg_size(&svg)))
    })?
    .into_iter()
    .unzip();
    let held = stops.len();
    let mut data = json!({
        "title": trace.model.class_name,
        "kind": kind_name(&settings),
        // Where the drawing starts (its inputs): the opening view of a large drawing.
        "flow": settings.flow().rankdir(),
        "start": 0,
        "stops": stops,
        "states": states,
        "records": records,
        "cone": { "present": edited && settings.graph != GraphKind::Backward, "shown": cone_shown },
    });
    if held < schedule_stops {
        // The slider says that a bounded page holds fewer stops than the schedule has.
        data["thinned"] = json!({ "held": held, "of": schedule_stops });
    }
    Ok(Built { data, drawn, sizes })
}

/// Writes [`page`] to `target` (a path [`tl_drawing::output_target`] chose) atomically,
/// through a symbolic link as other drawings are.
pub fn write(
    trace: &Trace,
    options: &DrawOptions,
    target: &std::path::Path,
) -> Result<Written, DrawError> {
    let page = page(trace, options)?;
    tl_trace_model::write_atomically(&through_links(target)?, page.as_bytes())?;
    Ok(Written {
        path: target.to_owned(),
        warnings: Vec::new(),
    })
}

/// The page of one finished drawing (a bundle's, or a drawing whose trace is gone): pan,
/// zoom, search and each node's drawn rows, without stops or opening boxes.
pub fn single_page(drawing: &Drawing) -> Result<String, DrawError> {
    let svg = svg_of(drawing)?;
    let state = state_json_rows(drawing, &svg)?;
    let data = json!({
        "title": drawing.styled.name,
        "kind": "drawing",
        "flow": drawing.styled.style.rankdir,
        "start": 0,
        "stops": [],
        "states": [state],
        "records": Value::Null,
        "cone": { "present": drawing.cone.is_some(), "shown": drawing.cone.is_some() },
    });
    Ok(template::html(&drawing.styled.name, &data))
}

/// What a click on one drawn thing of a state leads to.
pub(crate) struct Link {
    pub(crate) step: Move,
    pub(crate) target: usize,
}

fn kind_name(options: &Settings) -> &'static str {
    match (options.graph, options.rolled) {
        (GraphKind::Forward, true) => "rolled",
        (graph, _) => graph.name(),
    }
}

/// Each drawing laid out to SVG and handed to `then` with its position, on two threads, each
/// taking the next drawing not yet taken (a page's stops are its largest drawings and come
/// first); what `then` makes of each, in the drawings' order.
fn lay_out<T: Send>(
    drawn: &[(Drawing, Option<VisibleGraph>)],
    then: impl Fn(usize, String) -> Result<T, DrawError> + Sync,
) -> Result<Vec<T>, DrawError> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let next = AtomicUsize::new(0);
    let made: Mutex<Vec<Option<Result<T, DrawError>>>> =
        Mutex::new((0..drawn.len()).map(|_| None).collect());
    let work = || loop {
        let at = next.fetch_add(1, Ordering::Relaxed);
        let Some((drawing, _)) = drawn.get(at) else {
            break;
        };
        let svg = svg_of(drawing);
        tl_layout::progress::layout_done();
        let result = svg.and_then(|svg| then(at, svg));
        if let Ok(mut made) = made.lock() {
            made[at] = Some(result);
        }
    };
    // The helper thread's layouts show on the caller's progress bar too.
    tl_layout::progress::expect_layouts(drawn.len());
    let progress = tl_layout::progress::current();
    std::thread::scope(|scope| {
        // A helper the system will not start leaves every layout to this thread's loop.
        if drawn.len() > 1 {
            let _ = std::thread::Builder::new().spawn_scoped(scope, || match &progress {
                Some(progress) => progress.watch(work),
                None => work(),
            });
        }
        work();
    });
    made.into_inner()
        .unwrap_or_default()
        .into_iter()
        .map(|result| {
            result.unwrap_or_else(|| {
                Err(DrawError::output(
                    "layout_failed",
                    "a layout thread stopped before it finished; draw again".to_owned(),
                ))
            })
        })
        .collect()
}

/// `ops` (ascending op indices) as half-open ranges `[start, end)`: a box's operations are
/// mostly one run, and GPT-2's pages hold hundreds of boxes.
fn ranges(ops: &[usize]) -> Vec<[usize; 2]> {
    let mut out: Vec<[usize; 2]> = Vec::new();
    for &op in ops {
        match out.last_mut() {
            Some(last) if last[1] == op => last[1] = op + 1,
            _ => out.push([op, op + 1]),
        }
    }
    out
}

fn svg_of(drawing: &Drawing) -> Result<String, DrawError> {
    let rendered = drawing.render(OutputFormat::Svg)?;
    Ok(String::from_utf8_lossy(&rendered.bytes).into_owned())
}

/// One state as the viewer reads it: its SVG (packed), and per drawn node, frame and arrow
/// what it stands for and where a click on it leads.
fn state_json(
    index: &TraceIndex<'_>,
    drawing: &Drawing,
    visible: Option<&VisibleGraph>,
    links: &[Link],
    svg: &str,
) -> Result<Value, DrawError> {
    let Some(visible) = visible else {
        return state_json_rows(drawing, svg);
    };
    let trace = index.trace;
    let mut opens = BTreeMap::new();
    let mut closes = BTreeMap::new();
    for link in links {
        match link.step {
            Move::Open(node) => opens.insert(node, link.target),
            Move::Close(cluster) => closes.insert(cluster, link.target),
        };
    }
    let nodes: Vec<Value> = drawing
        .styled
        .nodes
        .iter()
        .enumerate()
        .map(|(i, node)| {
            let mut entry = json!({ "id": node.id, "rows": rows_text(node) });
            if let Some(drawn) = visible.nodes.get(i) {
                entry["ops"] = json!(ranges(&drawn.kind.ops()));
                if matches!(drawn.kind, NodeKind::OpCapsule(_)) {
                    entry["kind"] = json!("capsule");
                }
                if let Some(module) = module_of(&drawn.kind) {
                    entry["module"] = json!(module);
                }
                if let NodeKind::ModuleBox(module_box) = &drawn.kind {
                    if let Some(call) = module_box.call {
                        entry["call"] = json!(trace.module_calls[call].label);
                    }
                }
            }
            if let Some(target) = opens.get(&i) {
                entry["opens"] = json!(target);
            }
            entry
        })
        .collect();
    let clusters: Vec<Value> = drawing
        .styled
        .clusters
        .iter()
        .zip(&visible.clusters)
        .enumerate()
        .map(|(i, (styled, cluster))| {
            let call = &trace.module_calls[cluster.call];
            let mut entry = json!({ "id": styled.id, "module": call.address, "call": call.label });
            if let Some(target) = closes.get(&i) {
                entry["closes"] = json!(target);
            }
            entry
        })
        .collect();
    let pairs_of: BTreeMap<(usize, usize), &[(usize, usize)]> = visible
        .edges
        .iter()
        .map(|e| ((e.from, e.to), e.pairs.as_slice()))
        .collect();
    let edges: Vec<Value> = drawing
        .styled
        .edges
        .iter()
        .map(|edge| {
            // Arrows of the backward part of a combined drawing carry no forward pairs.
            let pairs = pairs_of
                .get(&(edge.from, edge.to))
                .copied()
                .unwrap_or_default();
            json!({
                "from": drawing.styled.nodes[edge.from].id,
                "to": drawing.styled.nodes[edge.to].id,
                "count": pairs.len(),
                // The first few are enough to read the arrow's tensor and argument.
                "pairs": pairs.iter().take(PAIRS_SHOWN).map(|(p, c)| [p, c]).collect::<Vec<_>>(),
            })
        })
        .collect();
    packed_state(drawing, svg, nodes, clusters, edges)
}

/// Arrow pairs kept per drawn arrow (the count says how many it stands for).
const PAIRS_SHOWN: usize = 6;

/// A state with only the drawn rows as fields (no trace records).
fn state_json_rows(drawing: &Drawing, svg: &str) -> Result<Value, DrawError> {
    let nodes: Vec<Value> = drawing
        .styled
        .nodes
        .iter()
        .map(|node| json!({ "id": node.id, "rows": rows_text(node) }))
        .collect();
    packed_state(drawing, svg, nodes, Vec::new(), Vec::new())
}

/// A state as the page holds it: its node count in the open, the rest packed (a state's
/// SVG and node lists pack about 6 to 1; GPT-2 small's page holds over a hundred).
fn packed_state(
    drawing: &Drawing,
    svg: &str,
    nodes: Vec<Value>,
    clusters: Vec<Value>,
    edges: Vec<Value>,
) -> Result<Value, DrawError> {
    let header: Vec<&str> = drawing
        .styled
        .header
        .iter()
        .map(|row| row.text.as_str())
        .collect();
    let state = json!({
        "svg": svg,
        "nodes": nodes,
        "clusters": clusters,
        "edges": edges,
        "header": header,
    });
    Ok(
        json!({ "count": drawing.styled.nodes.len(), "packed": template::packed(&state.to_string())? }),
    )
}

fn rows_text(node: &tl_style::StyledNode) -> Vec<String> {
    node.rows.iter().map(|row| row.text.clone()).collect()
}

/// The module a box or capsule stands for (a capsule: its first member).
fn module_of(kind: &NodeKind) -> Option<String> {
    match kind {
        NodeKind::ModuleBox(module_box) => Some(module_box.address.clone()),
        NodeKind::Capsule(capsule) => capsule.members.first().cloned(),
        NodeKind::FoldEllipsis(ellipsis) => ellipsis.members.first().cloned(),
        NodeKind::LoopEllipsis(ellipsis) => Some(ellipsis.address.clone()),
        _ => None,
    }
}
