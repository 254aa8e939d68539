//! The `tl-draw` command-line program, as a library module so that tools (`cargo xtask
//! figures`) and tests run exactly what a user types, in process (feature `cli`, on by
//! default).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::options::{
    parse_direction, parse_label_field, parse_node_style, parse_show_buffers, parse_theme,
    parse_view,
};
use crate::{
    BatchRender, BundleKeywords, Caller, Collapse, Document, DrawError, DrawOptions, Drawn,
    GraphKind, LayoutEngine, Subject, Trace, TraceError, Written,
};
use clap::{Args, Parser, Subcommand};

/// Text from a trace as the terminal may show it: control characters (escape sequences
/// that would move the cursor or recolour the screen) spelled out, `\u001b`.
fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    tl_style::format::visible_controls(text)
}

/// From this many nodes on, layout takes about a second: progress goes to stderr.
const PROGRESS_NODES: usize = 800;

/// Draw TorchLens traces (exported with the tl_export Python adapter) as PDF, PNG, SVG or DOT.
#[derive(Parser)]
#[command(name = "tl-draw", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Draw a trace.
    Draw(Box<DrawArgs>),
    /// Print the collapse schedule: each stop's level, node count and what it folds.
    Schedule {
        /// The trace JSON file.
        trace: PathBuf,
        /// Buffers: never, meaningful or always (they change the counts).
        #[arg(long, default_value = "meaningful")]
        show_buffers: String,
    },
    /// Validate trace or bundle files and print what each holds.
    Check {
        /// Trace (`tl-trace`) or bundle (`tl-bundle`) JSON files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Refuse trace files larger than this many bytes.
        #[arg(long, default_value_t = tl_trace_model::DEFAULT_MAX_TRACE_BYTES)]
        max_trace_bytes: u64,
    },
}

/// Every option of the user guide's `trace.draw()`, spelt as a flag.
#[derive(Args)]
struct DrawArgs {
    /// The trace JSON file; or a bundle file, or several traces of one model, for a bundle
    /// drawing (`--graph diff` needs a bundle file, which carries the differences).
    #[arg(required = true)]
    traces: Vec<PathBuf>,
    /// Output path; the extension picks the format (pdf, png, svg, svgz, ps, eps, dot, json,
    /// xdot, plain, html: the interactive page; other image formats are refused). Default:
    /// the first file's name with .pdf, in the current folder.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Output format, overriding the extension: pdf, png, svg, svgz, ps, eps, dot, json,
    /// xdot, plain or html.
    #[arg(long, value_name = "FORMAT")]
    file_format: Option<String>,
    /// Dots per inch of raster (PNG) output.
    #[arg(long)]
    dpi: Option<f64>,
    /// A ready-made view: debug, speed, memory, compute, transformer, sequence, interventions.
    #[arg(long)]
    view: Option<String>,
    /// Which graph: forward, backward or combined (default: forward); for bundles also
    /// diff (the default for a bundle file).
    #[arg(long)]
    graph: Option<String>,
    /// Bundles: the difference metric of --graph diff: relative_l2, cosine or pearson.
    #[arg(long)]
    metric: Option<String>,
    /// Bundles: compare outputs (out) or gradients (grad).
    #[arg(long)]
    on: Option<String>,
    /// Bundles: only these members, comma separated.
    #[arg(long, value_delimiter = ',')]
    members: Option<Vec<String>>,
    /// Modules at this level of the module tree (1: the top-level modules) are drawn as one
    /// 3-D box each, with everything inside them; 0 never boxes (default: all open).
    #[arg(long)]
    depth: Option<u32>,
    /// How much to fold: none, auto, max, or a level from 0.0 to 1.0 (default: none).
    #[arg(long)]
    collapse: Option<String>,
    /// Fold runs of identical modules: true or false (default: the collapse mode decides).
    #[arg(long, value_name = "BOOL")]
    fold_repeats: Option<bool>,
    /// Draw only the inside of this module (its address, e.g. blocks.1).
    #[arg(long)]
    module: Option<String>,
    /// One node per layer, loops drawn as loops.
    #[arg(long)]
    rolled: bool,
    /// Flow direction: bottomup, topdown, leftright or rightleft.
    #[arg(long)]
    direction: Option<String>,
    /// Node style: default or profiling (adds t=, out=, call=, fn= rows).
    #[arg(long)]
    node_style: Option<String>,
    /// Rows to show instead of the default ones, comma separated (name, type, shape, dtype,
    /// memory, module, params, pass, flops, time).
    #[arg(long, value_delimiter = ',', value_name = "FIELDS")]
    node_label_fields: Option<Vec<String>>,
    /// Colour theme: torchlens, paper, dark, colorblind or high_contrast (default: torchlens).
    #[arg(long)]
    theme: Option<String>,
    /// Buffers: never, meaningful or always (default: meaningful).
    #[arg(long)]
    show_buffers: Option<String>,
    /// Draw the key: true or false (default: automatic).
    #[arg(long, value_name = "BOOL")]
    show_legend: Option<bool>,
    /// Colour nodes by a value: time, bytes, flops, magnitude, grad_norm or a record field.
    #[arg(long)]
    color_by: Option<String>,
    /// Scale nodes by a value: the color_by sources and dims.
    #[arg(long)]
    size_by: Option<String>,
    /// How size values map to area: sqrt (the default) or linear.
    #[arg(long)]
    size_scale: Option<String>,
    /// Shade everything downstream of an edit.
    #[arg(long)]
    show_cone: bool,
    /// Add a row with the tensors each operation kept for the backward pass.
    #[arg(long)]
    show_saved_for_backward: bool,
    /// Show arguments the node's shapes already imply.
    #[arg(long)]
    show_redundant_args: bool,
    /// Write each tensor's shape on its arrow.
    #[arg(long)]
    show_edge_shapes: bool,
    /// Backward drawings: module and parameter rows.
    #[arg(long)]
    show_module_paths: bool,
    /// Backward drawings: gradient norm and largest absolute value.
    #[arg(long)]
    show_grad_values: bool,
    /// Pictures captured as the input: auto (a thumbnail) or shape_only (the plain node).
    #[arg(long)]
    batch_render: Option<String>,
    /// Refuse drawings with more nodes than this (they take minutes to lay out).
    #[arg(long, default_value_t = crate::guard::DEFAULT_MAX_NODES)]
    max_nodes: usize,
    /// Refuse drawings whose layout would place more nodes, drawn and virtual (one per rank
    /// an arrow crosses), than this: about 10 s of layout.
    #[arg(long, default_value_t = crate::guard::DEFAULT_MAX_LAYOUT_COST)]
    max_layout_cost: usize,
    /// Refuse trace files larger than this many bytes (1 GiB; a 100,000-operation trace is about 110 MB).
    #[arg(long, default_value_t = tl_trace_model::DEFAULT_MAX_TRACE_BYTES)]
    max_trace_bytes: u64,
    /// Lay out however many nodes the drawing has.
    #[arg(long)]
    force: bool,
    /// Layout engine: embedded (graphviz-pure, the default) or dot (the system's Graphviz).
    #[arg(long)]
    layout_engine: Option<String>,
}

impl DrawArgs {
    fn options(&self) -> Result<DrawOptions, DrawError> {
        // Only what the user passed is set, so that a view's settings fill in the rest.
        let mut options = DrawOptions::default()
            .max_nodes(self.max_nodes)
            .max_layout_cost(self.max_layout_cost)
            .force(self.force);
        if let Some(graph) = self.graph.as_deref().filter(|g| *g != "diff") {
            options = options.graph(GraphKind::parse(graph)?);
        }
        if let Some(depth) = self.depth {
            options = options.depth(depth);
        }
        if let Some(collapse) = &self.collapse {
            options = options.collapse(Collapse::parse(collapse)?);
        }
        if self.fold_repeats.is_some() {
            options = options.fold_repeats(self.fold_repeats);
        }
        if let Some(style) = &self.node_style {
            options = options.node_style(parse_node_style(style)?);
        }
        if let Some(theme) = &self.theme {
            options = options.theme(&parse_theme(theme)?);
        }
        if let Some(buffers) = &self.show_buffers {
            options = options.show_buffers(parse_show_buffers(buffers)?);
        }
        if self.show_legend.is_some() {
            options = options.show_legend(self.show_legend);
        }
        if let Some(engine) = &self.layout_engine {
            options = options.layout_engine(engine.parse::<LayoutEngine>()?);
        }
        if let Some(render) = &self.batch_render {
            options = options.batch_render(BatchRender::parse(render)?);
        }
        let flags = [
            (
                self.rolled,
                DrawOptions::rolled as fn(DrawOptions, bool) -> DrawOptions,
            ),
            (self.show_cone, DrawOptions::show_cone),
            (
                self.show_saved_for_backward,
                DrawOptions::show_saved_for_backward,
            ),
            (self.show_redundant_args, DrawOptions::show_redundant_args),
            (self.show_edge_shapes, DrawOptions::show_edge_shapes),
            (self.show_module_paths, DrawOptions::show_module_paths),
            (self.show_grad_values, DrawOptions::show_grad_values),
        ];
        for (set, setter) in flags {
            if set {
                options = setter(options, true);
            }
        }
        if let Some(direction) = &self.direction {
            options = options.direction(parse_direction(direction)?);
        }
        if let Some(fields) = &self.node_label_fields {
            let fields = fields
                .iter()
                .map(|f| parse_label_field(f.trim()))
                .collect::<Result<Vec<_>, _>>()?;
            options = options.node_label_fields(fields);
        }
        if let Some(view) = &self.view {
            options = options.view(&parse_view(view)?);
        }
        if let Some(module) = &self.module {
            options = options.module(module);
        }
        if let Some(format) = &self.file_format {
            options = options.file_format(format);
        }
        if let Some(dpi) = self.dpi {
            options = options.dpi(dpi);
        }
        if let Some(source) = &self.color_by {
            options = options.color_by(source);
        }
        if let Some(source) = &self.size_by {
            options = options.size_by(source);
        }
        if let Some(scale) = &self.size_scale {
            options = options.size_scale(scale);
        }
        Ok(options)
    }

    fn run(&self) -> Result<Written, DrawError> {
        let options = self.options()?;
        let first = &self.traces[0];
        let output = self.output.clone().unwrap_or_else(|| {
            let stem = first.file_stem().unwrap_or_default();
            Path::new(stem).with_extension("pdf")
        });
        self.refuse_output_over_an_input(&output, options.file_format.as_deref())?;
        let bundle_keywords = BundleKeywords {
            graph: self.graph.clone(),
            metric: self.metric.clone(),
            on: self.on.clone(),
            members: self.members.clone(),
        };
        let file_format = options.file_format.clone();
        let drawn = Drawn::new(
            self.subject()?,
            options,
            &bundle_keywords,
            &Caller::command_line(first),
        )?;
        let (_, format) = crate::output_target(&output, file_format.as_deref())?;
        if format != crate::OutputFormat::Html || drawn.trace().is_none() {
            // Layouts of this size take a second or more: say what is happening.
            let nodes = drawn.drawing()?.styled.nodes.len();
            if nodes > PROGRESS_NODES {
                eprintln!("tl-draw: laying out {nodes} nodes...");
            }
        }
        let written = drawn.write(&output, file_format.as_deref(), None);
        // The process ends right after: freeing a large trace record by record would only
        // make the user wait (a tenth of a second per 100,000 operations).
        std::mem::forget(drawn);
        let mut written = written?;
        if self.dpi.is_some() && written.path.extension().is_none_or(|e| e != "png") {
            written.warnings.insert(
                0,
                "--dpi sets the resolution of PNG output; this drawing is vector output and was drawn at its natural size"
                    .to_owned(),
            );
        }
        Ok(written)
    }

    /// `draw t.svg -o t.svg` would replace the trace with its own drawing: refused before
    /// anything is read or written.
    fn refuse_output_over_an_input(
        &self,
        output: &Path,
        file_format: Option<&str>,
    ) -> Result<(), DrawError> {
        let (target, _) = crate::output_target(output, file_format)?;
        let Ok(target) = std::fs::canonicalize(&target) else {
            return Ok(()); // Nothing there yet: it cannot be an input.
        };
        for input in &self.traces {
            if std::fs::canonicalize(input).is_ok_and(|input| input == target) {
                return Err(DrawError::invalid(
                    "output_is_input",
                    format!(
                        "the output '{}' is the input trace '{}'; drawing it there would destroy the trace: name another output (-o drawing.svg)",
                        target.display(),
                        input.display()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// One file: a trace or a bundle. Several: traces of one model, as a bundle without
    /// differences, named after their files (the first is the baseline).
    fn subject(&self) -> Result<Subject, DrawError> {
        // A trace is validated when it is drawn, so it is only read here.
        if let [only] = self.traces.as_slice() {
            return Ok(Subject::Document(Document::read_limited(
                only,
                self.max_trace_bytes,
            )?));
        }
        let traces = self
            .traces
            .iter()
            .map(|path| {
                let name = path.file_stem().unwrap_or_default();
                let trace = Trace::read_limited(path, self.max_trace_bytes)?;
                trace.validate()?;
                Ok((name.to_string_lossy().into_owned(), trace))
            })
            .collect::<Result<Vec<_>, DrawError>>()?;
        Ok(Subject::Traces(traces))
    }
}

fn check(path: &Path, max_bytes: u64) -> Result<String, TraceError> {
    match Document::load_limited(path, max_bytes)? {
        Document::Bundle(bundle) => {
            let names: Vec<&str> = bundle.members.iter().map(|m| m.name.as_str()).collect();
            Ok(format!(
                "bundle of {} members ({}), baseline {}; {}",
                names.len(),
                names.join(", "),
                bundle.baseline,
                crate::summary(&bundle.members[0].trace)
            ))
        }
        Document::Trace(trace) => Ok(crate::summary(&trace)),
    }
}

fn schedule(trace: &Path, show_buffers: &str) -> Result<String, DrawError> {
    let buffers = parse_show_buffers(show_buffers)?;
    let trace = Trace::read(trace)?;
    let schedule = crate::Schedule::build(&trace, buffers)?;
    let band = crate::readable_band(&trace);
    let auto = schedule.auto(band).t;
    let mut text = format!(
        "{}: collapse schedule (auto picks t={auto}, readable band {band} nodes)\n",
        trace.model.class_name
    );
    for step in &schedule.steps {
        text.push_str(&format!("t={:.6}  {:>5} nodes", step.t, step.visible));
        if !step.events.is_empty() {
            text.push_str(&format!("  {}", step.events.join("; ")));
        }
        text.push('\n');
    }
    Ok(text)
}

/// Runs the program on `args` (the program name first, as `std::env::args_os` gives
/// them): prints what it wrote on stdout and errors (`error[code]: ...`) on stderr.
pub fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(error) => {
            // --help and --version are not failures.
            let _ = error.print();
            return if error.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli.command {
        Command::Schedule {
            trace,
            show_buffers,
        } => match schedule(&trace, &show_buffers) {
            Ok(text) => {
                print!("{}", shown(&text));
                ExitCode::SUCCESS
            }
            Err(error) => {
                eprintln!("error[{}]: {}", error.code(), shown(&error.to_string()));
                ExitCode::FAILURE
            }
        },
        Command::Draw(args) => match args.run() {
            Ok(written) => {
                for warning in &written.warnings {
                    eprintln!("warning: {}", shown(warning));
                }
                println!("{}", written.path.display());
                ExitCode::SUCCESS
            }
            Err(error) => {
                eprintln!("error[{}]: {}", error.code(), shown(&error.to_string()));
                ExitCode::FAILURE
            }
        },
        Command::Check {
            files,
            max_trace_bytes,
        } => {
            let mut failed = false;
            for path in &files {
                match check(path, max_trace_bytes) {
                    Ok(line) => println!("{}: {}", path.display(), shown(&line)),
                    Err(error) => {
                        eprintln!(
                            "error[{}]: {}: {}",
                            error.code(),
                            path.display(),
                            shown(&error.to_string())
                        );
                        failed = true;
                    }
                }
            }
            if failed {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::Cli;

    /// `docs/cli.md` lists exactly the flags of `tl-draw draw`, each with its help text.
    #[test]
    fn the_cli_reference_matches_the_option_definitions() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/cli.md");
        let reference = std::fs::read_to_string(path).unwrap();
        let documented: Vec<&str> = reference
            .lines()
            .filter_map(|line| line.strip_prefix("| `--"))
            .filter_map(|rest| rest.split('`').next())
            .collect();
        let command = Cli::command();
        let draw = command.find_subcommand("draw").unwrap();
        let mut defined = Vec::new();
        for argument in draw.get_arguments() {
            let Some(long) = argument.get_long() else {
                continue;
            };
            if long == "help" {
                continue;
            }
            defined.push(long);
            let help = argument
                .get_help()
                .map(|h| h.to_string())
                .unwrap_or_default();
            let row = reference
                .lines()
                .find(|line| line.starts_with(&format!("| `--{long}`")))
                .unwrap_or_else(|| panic!("docs/cli.md has no row for --{long}"));
            assert!(
                row.replace("\\|", "|").contains(&help),
                "docs/cli.md: the row of --{long} should say {help:?}"
            );
        }
        assert_eq!(
            documented, defined,
            "docs/cli.md rows, in the order of --help"
        );
    }
}
