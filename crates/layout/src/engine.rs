//! DOT text to laid-out text, by the embedded graphviz-pure engine, by tl-draw's own layered
//! engine (`layered/`), or by the system's Graphviz `dot` program.

use std::borrow::Cow;
use std::io::Write;
use std::process::{Command, Stdio};
use std::str::FromStr;
use std::sync::Arc;

use graphviz_pure_core::charset::{self, Decoded};

use crate::error::LayoutError;
use crate::painting::Painting;

/// Which program lays the graph out (`layout_engine=`, `--layout-engine`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum LayoutEngine {
    /// graphviz-pure for the drawings its `dot` lays out in about a second, the layered
    /// engine above that ([`LayoutEngine::resolve`], `crate::guard::prefers_layered`).
    #[default]
    Auto,
    /// graphviz-pure, built in: no Graphviz install needed; Graphviz's `dot` algorithm.
    Embedded,
    /// tl-draw's own layered engine (`tl-layered`), built in: linear time, for large and
    /// dense drawings.
    Layered,
    /// The system's Graphviz `dot` program.
    SystemDot,
}

impl LayoutEngine {
    /// The engine that lays out a drawing of estimated `cost`: `Auto` picks by the cost,
    /// any other engine is itself.
    pub fn resolve(self, cost: crate::guard::LayoutCost) -> LayoutEngine {
        match self {
            LayoutEngine::Auto if crate::guard::prefers_layered(cost) => LayoutEngine::Layered,
            LayoutEngine::Auto => LayoutEngine::Embedded,
            engine => engine,
        }
    }

    /// The engine that lays out a drawing with no cost estimate at hand: `Auto` is
    /// graphviz-pure, any other engine is itself.
    fn without_estimate(self) -> LayoutEngine {
        match self {
            LayoutEngine::Auto => LayoutEngine::Embedded,
            engine => engine,
        }
    }

    /// Whether graphviz-pure writes this engine's output (its xdot escapes text as the
    /// painter expects); only the system's `dot` does not.
    pub fn is_built_in(self) -> bool {
        self != LayoutEngine::SystemDot
    }
}

impl FromStr for LayoutEngine {
    type Err = LayoutError;

    /// Parses `auto`, `embedded`, `layered` or `dot`.
    fn from_str(text: &str) -> Result<LayoutEngine, LayoutError> {
        match text {
            "auto" => Ok(LayoutEngine::Auto),
            "embedded" => Ok(LayoutEngine::Embedded),
            "layered" => Ok(LayoutEngine::Layered),
            "dot" => Ok(LayoutEngine::SystemDot),
            _ => Err(LayoutError::EngineUnknown {
                name: text.to_owned(),
            }),
        }
    }
}

/// A text format the layout engine writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub enum TextFormat {
    /// SVG (`-Tsvg`).
    Svg,
    /// JSON with positions and xdot drawing operations (`-Tjson`): what the painter reads.
    Json,
    /// DOT with positions and drawing operations (`-Txdot`): places node pictures.
    Xdot,
    /// One line per node and arrow (`-Tplain`).
    Plain,
    /// Not text: the drawing operations the `json` output holds, parsed
    /// ([`LaidOut::painting`]), which is what the painter reads; the built-in engines only.
    Painting,
}

impl TextFormat {
    /// The engine's name of the format (`-T<name>`).
    pub fn name(self) -> &'static str {
        match self {
            TextFormat::Svg => "svg",
            TextFormat::Json => "json",
            TextFormat::Xdot => "xdot",
            TextFormat::Plain => "plain",
            TextFormat::Painting => "painting",
        }
    }
}

/// One format's output.
pub(crate) enum Written {
    Text(String),
    Painting(Painting),
}

/// One layout written in the formats asked for.
#[derive(Debug, Clone, Default)]
pub struct LaidOut {
    texts: Vec<(TextFormat, String)>,
    painting: Option<Arc<Painting>>,
}

impl LaidOut {
    fn new(formats: &[TextFormat], written: Vec<Written>) -> LaidOut {
        let mut laid_out = LaidOut::default();
        for (&format, written) in formats.iter().zip(written) {
            match written {
                Written::Text(text) => laid_out.texts.push((format, text)),
                Written::Painting(painting) => laid_out.painting = Some(Arc::new(painting)),
            }
        }
        laid_out
    }

    /// The drawing operations, if [`TextFormat::Painting`] was asked for.
    pub fn painting(&self) -> Option<&Painting> {
        self.painting.as_deref()
    }

    /// The text in `format`, if it was asked for.
    pub fn get(&self, format: TextFormat) -> Option<&str> {
        self.texts
            .iter()
            .find(|(written, _)| *written == format)
            .map(|(_, text)| text.as_str())
    }

    /// Bytes held: the texts, and about what the painting holds.
    pub(crate) fn bytes(&self) -> usize {
        let painting = self.painting.as_ref().map_or(0, |p| p.approximate_bytes());
        self.texts.iter().map(|(_, text)| text.len()).sum::<usize>() + painting
    }

    /// The text in `format`, taken out (empty if it was not asked for).
    pub fn take(&mut self, format: TextFormat) -> String {
        self.texts
            .iter_mut()
            .find(|(written, _)| *written == format)
            .map(|(_, text)| std::mem::take(text))
            .unwrap_or_default()
    }
}

/// Lays out `dot` once and writes it in each format asked for. `Auto` here, with no cost
/// estimate at hand, is graphviz-pure; callers that have the styled graph resolve it first
/// ([`LayoutEngine::resolve`]).
pub fn lay_out(
    dot: &str,
    formats: &[TextFormat],
    engine: LayoutEngine,
) -> Result<LaidOut, LayoutError> {
    let engine = engine.without_estimate();
    if engine.is_built_in() {
        if let Some(laid_out) = crate::recent::find(dot, engine, formats) {
            return Ok(laid_out);
        }
    }
    if engine == LayoutEngine::SystemDot {
        crate::progress::mark(crate::progress::Step::Placing);
    }
    let written = match engine {
        LayoutEngine::Embedded => embedded(dot, formats).map_err(|detail| LayoutError::Failed {
            engine: "embedded (graphviz-pure)",
            detail,
        })?,
        LayoutEngine::Layered => {
            crate::layered::lay_out(dot, formats, crate::layered::Writer::Own)?
        }
        // Each run of the system program lays out again; it is the optional backend.
        LayoutEngine::SystemDot | LayoutEngine::Auto => formats
            .iter()
            .map(|&format| system_dot(dot, format).map(Written::Text))
            .collect::<Result<_, _>>()?,
    };
    let laid_out = LaidOut::new(formats, written);
    if engine.is_built_in() {
        crate::recent::keep(dot, engine, formats, &laid_out);
    }
    Ok(laid_out)
}

/// [`lay_out`] in SVG, handed to `chunks` a piece at a time (about a megabyte each) as it is
/// written instead of returned whole: a drawing of 100,000 operations writes 140 MB of it.
/// The pieces, joined, are `lay_out`'s SVG of `dot`, and a drawing small enough is
/// remembered as `lay_out` remembers it; an owned `dot` too large for that is let go as soon
/// as the engine has read it (40 MB of a 100,000-operation drawing's peak).
pub fn lay_out_svg_into(
    mut dot: Cow<'_, str>,
    engine: LayoutEngine,
    chunks: &mut dyn FnMut(&str),
) -> Result<(), LayoutError> {
    let engine = engine.without_estimate();
    let svg = [TextFormat::Svg];
    let remembered = engine
        .is_built_in()
        .then(|| crate::recent::find(&dot, engine, &svg))
        .flatten();
    if !engine.is_built_in() || remembered.is_some() {
        let laid_out = match remembered {
            Some(laid_out) => laid_out,
            None => lay_out(&dot, &svg, engine)?,
        };
        chunks(laid_out.get(TextFormat::Svg).unwrap_or_default());
        return Ok(());
    }
    // The SVG is longer than its DOT: a DOT of more than half the bound cannot be remembered.
    let dot_bytes = dot.len();
    let remember = crate::recent::fits(2 * dot_bytes);
    let read: Cow<'_, str> = if remember {
        Cow::Borrowed(&dot)
    } else {
        std::mem::take(&mut dot)
    };
    // A copy for remembering, given up once the text is too large to be remembered.
    let mut copy = remember.then(String::new);
    let mut as_text = |decoded: &str| {
        let text = charset::to_text(decoded);
        if let Some(kept) = copy.as_mut() {
            if crate::recent::fits(dot_bytes + kept.len() + text.len()) {
                kept.push_str(&text);
            } else {
                copy = None;
            }
        }
        chunks(&text);
    };
    if engine == LayoutEngine::Layered {
        crate::layered::svg_into(read, &mut as_text)?;
    } else {
        embedded_graph(read, |graph, measured| {
            writers_job(graph, measured).render_svg_into(&mut as_text)
        })
        .map_err(|detail| LayoutError::Failed {
            engine: "embedded (graphviz-pure)",
            detail,
        })?;
    }
    if let Some(text) = copy {
        let laid_out = LaidOut::new(&svg, vec![Written::Text(text)]);
        crate::recent::keep(&dot, engine, &svg, &laid_out);
    }
    Ok(())
}

/// The layered engine's layout of `dot` written by graphviz-pure's own keep-positions path
/// (`neato -n2`), which reads every position back from the graph's text and sizes every
/// label again: the reference that the layered engine's own writer must match byte for
/// byte (it is a fifth of the time on large drawings). Not remembered.
pub fn lay_out_layered_by_graphviz(
    dot: &str,
    formats: &[TextFormat],
) -> Result<LaidOut, LayoutError> {
    let written = crate::layered::lay_out(dot, formats, crate::layered::Writer::Graphviz)?;
    Ok(LaidOut::new(formats, written))
}

fn embedded(dot: &str, formats: &[TextFormat]) -> Result<Vec<Written>, String> {
    embedded_graph(Cow::Borrowed(dot), |graph, measured| {
        write_formats(graph, formats, measured)
    })
}

/// The writers' job for the laid-out `graph`, taking the nodes' `measured` geometries and
/// labels when there are any (without them the job measures every label again).
pub(crate) fn writers_job(
    graph: &graphviz_pure_core::Graph,
    measured: Option<crate::sizing::Measured>,
) -> graphviz_pure_render::GraphJobs<'_> {
    let mut job = graphviz_pure_render::GraphJobs::new(graph);
    if let Some(measured) = measured {
        job.use_measured_nodes(measured.nodes);
        job.use_measured_labels(measured.edge_labels, measured.cluster_labels);
    }
    job
}

/// The laid-out `graph` written in each of `formats`, one writers' job per format as
/// `render_graph` runs them: the last job takes the nodes' `measured` geometries, the
/// others a copy.
pub(crate) fn write_formats(
    graph: &graphviz_pure_core::Graph,
    formats: &[TextFormat],
    mut measured: Option<crate::sizing::Measured>,
) -> graphviz_pure_core::Result<Vec<Written>> {
    formats
        .iter()
        .enumerate()
        .map(|(index, &format)| {
            let sizes = if index + 1 == formats.len() {
                measured.take()
            } else {
                measured.clone()
            };
            let mut job = writers_job(graph, sizes);
            if format == TextFormat::Painting {
                let drawn = job.xdot_drawing()?;
                return Ok(Written::Painting(Painting::new(graph, drawn)));
            }
            let name = format.name();
            let text = job.render(graphviz_pure_render::OutputFormat::parse(name)?, name)?;
            Ok(Written::Text(match charset::to_text(&text) {
                Cow::Borrowed(_) => text,
                Cow::Owned(owned) => owned,
            }))
        })
        .collect()
}

/// `dot` parsed (an owned one is let go then) and laid out by graphviz-pure's `dot`, given
/// to `write` with its nodes' geometries when they were measured (before the layout, which
/// reads them too: [`crate::sizing::lay_out_with_dot`]; the writers take them instead of
/// measuring again): the facade's `parse_dot`, `layout_graph` and `render_graph`, on the graph
/// itself, as the painting needs it; layout diagnostics are warnings about the drawing, not
/// failures, and are dropped.
fn embedded_graph<T>(
    dot: Cow<'_, str>,
    write: impl FnOnce(
        &graphviz_pure_core::Graph,
        Option<crate::sizing::Measured>,
    ) -> graphviz_pure_core::Result<T>,
) -> Result<T, String> {
    crate::progress::mark(crate::progress::Step::Placing);
    let (result, _diagnostics) = graphviz_pure_core::diag::capture(|| {
        let mut graph = parsed_afresh(dot)?;
        let (laid_out, measured) = crate::sizing::lay_out_with_dot(&mut graph);
        laid_out?;
        crate::progress::mark(crate::progress::Step::Writing);
        write(&graph, measured)
    });
    result.map_err(|error| charset::to_text(&error.to_string()).into_owned())
}

/// `dot` parsed for a layout started as a new `dot` process starts it: the writers'
/// per-process counters (gradient and anchor ids in SVG) and caches begin again, so a
/// drawing's text does not depend on what was drawn before it in the same process (a
/// notebook, the page's states). An owned `dot` is let go once parsed.
pub(crate) fn parsed_afresh(
    dot: Cow<'_, str>,
) -> graphviz_pure_core::Result<graphviz_pure_core::Graph> {
    graphviz_pure_render::reset_render_state();
    graphviz_pure_render::decoded::parse_dot(&Decoded::from_text(&dot))
}

fn system_dot(dot: &str, format: TextFormat) -> Result<String, LayoutError> {
    let failed = |detail: String| LayoutError::Failed {
        engine: "system dot",
        detail,
    };
    if format == TextFormat::Painting {
        return Err(failed(
            "the system's dot writes no painting; ask it for json".to_owned(),
        ));
    }
    let mut child = Command::new("dot")
        .arg(format!("-T{}", format.name()))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| match error.kind() {
            std::io::ErrorKind::NotFound => LayoutError::GraphvizUnavailable,
            _ => failed(error.to_string()),
        })?;
    // Write on another thread so a large output cannot deadlock against a full pipe.
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let source = dot.to_owned();
    let writer = std::thread::Builder::new().spawn(move || stdin.write_all(source.as_bytes()));
    let Ok(writer) = writer else {
        // Written in turn, a drawing larger than the pipe would wait on dot's full output.
        let _ = child.kill();
        let _ = child.wait();
        return Err(failed(
            "the system started no thread to feed dot its input (the process is at its \
             limit of threads)"
                .to_owned(),
        ));
    };
    let output = child
        .wait_with_output()
        .map_err(|error| failed(error.to_string()))?;
    writer
        .join()
        .map_err(|_| failed("writing to dot panicked".to_owned()))?
        .map_err(|error| failed(error.to_string()))?;
    if !output.status.success() {
        return Err(failed(
            String::from_utf8_lossy(&output.stderr).trim().to_owned(),
        ));
    }
    String::from_utf8(output.stdout).map_err(|error| failed(error.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_layout_answers_every_format_asked_for() {
        let mut laid_out = lay_out(
            "digraph G { a -> b }",
            &[TextFormat::Json, TextFormat::Svg],
            LayoutEngine::Embedded,
        )
        .unwrap();
        assert!(laid_out.get(TextFormat::Svg).unwrap().contains("<svg"));
        assert!(laid_out.get(TextFormat::Xdot).is_none());
        assert!(laid_out.take(TextFormat::Json).contains("\"objects\""));
    }

    #[test]
    fn a_layout_does_not_depend_on_the_layouts_drawn_before_it() {
        // Two-colour fills are SVG gradients, numbered per `dot` process.
        let dot = r#"digraph G { a [style=filled fillcolor="red:blue"] }"#;
        for engine in [LayoutEngine::Embedded, LayoutEngine::Layered] {
            let svg = |dot: &str| {
                crate::forget_recent_layouts();
                lay_out(dot, &[TextFormat::Svg], engine)
                    .unwrap()
                    .take(TextFormat::Svg)
            };
            let first = svg(dot);
            svg(r#"digraph G { b [style=filled fillcolor="green:blue"] }"#);
            assert!(first.contains(r#"_l_0""#), "{first}");
            assert_eq!(svg(dot), first, "{engine:?}");
        }
    }

    #[test]
    fn engine_names_parse_and_unknown_ones_are_coded() {
        assert_eq!(
            "dot".parse::<LayoutEngine>().unwrap(),
            LayoutEngine::SystemDot
        );
        let error = "neato".parse::<LayoutEngine>().unwrap_err();
        assert_eq!(error.code(), "layout_engine_invalid");
        assert!(
            error
                .to_string()
                .contains("'auto', 'embedded', 'layered' or 'dot'"),
            "{error}"
        );
        assert_eq!(
            "layered".parse::<LayoutEngine>().unwrap(),
            LayoutEngine::Layered
        );
    }
}
