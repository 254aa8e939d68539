//! The `tl-draw` command-line program, as a library module so that tools (`cargo xtask
//! figures`) and tests run exactly what a user types, in process (feature `cli`, on by
//! default).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::options::{parse_show_buffers, FlagShape, OptionSpec, OPTIONS, WRITE_OPTIONS};
use crate::{
    BundleKeywords, Caller, Document, DrawError, DrawOptions, Drawn, KeywordValue, Subject, Trace,
    WriteOptions, Written,
};
use clap::{Arg, ArgAction, Args, Parser, Subcommand};

/// Text from a trace as the terminal may show it: control characters (escape sequences
/// that would move the cursor or recolour the screen) spelled out, `\u001b`.
fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    tl_style::format::visible_controls(text)
}

/// An error's message as the command line says it (its remedies as flags), shown.
fn said(message: &str) -> String {
    shown(&tl_drawing::in_language(
        message,
        tl_drawing::Language::CommandLine,
    ))
    .into_owned()
}

/// From this many nodes on, layout takes about a second: a log (stderr not a terminal) is
/// told it has begun.
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
        #[arg(long, default_value_t = crate::DEFAULT_MAX_TRACE_BYTES)]
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
    #[command(flatten)]
    options: OptionFlags,
    /// Bundles: the difference metric of --graph diff: relative_l2, cosine or pearson.
    #[arg(long)]
    metric: Option<String>,
    /// Bundles: compare outputs (out) or gradients (grad).
    #[arg(long)]
    on: Option<String>,
    /// Bundles: only these members, comma separated.
    #[arg(long, value_delimiter = ',')]
    members: Option<Vec<String>>,
    /// Refuse trace files larger than this many bytes (1 GiB; a 100,000-operation trace is about 110 MB).
    #[arg(long, default_value_t = crate::DEFAULT_MAX_TRACE_BYTES)]
    max_trace_bytes: u64,
}

/// The flags of [`WRITE_OPTIONS`] and [`OPTIONS`], one per setting, as given on the
/// command line.
struct OptionFlags {
    write: Vec<(&'static OptionSpec<WriteOptions>, KeywordValue)>,
    given: Vec<(&'static OptionSpec, KeywordValue)>,
}

/// The flag of `option`: `--show-legend <BOOL>`, with its help.
fn flag<O>(option: &'static OptionSpec<O>) -> Arg {
    let arg = Arg::new(option.name)
        .long(option.name.replace('_', "-"))
        .help(option.help);
    let arg = match option.value_name {
        Some(name) => arg.value_name(name),
        None => arg.value_name(option.name.to_ascii_uppercase()),
    };
    match option.flag {
        FlagShape::Switch => arg.action(ArgAction::SetTrue),
        FlagShape::Bool => arg.value_parser(clap::value_parser!(bool)),
        FlagShape::Text => arg,
        // A negative number is a value to refuse with its code, not another flag.
        FlagShape::Int => arg
            .value_parser(clap::value_parser!(i64))
            .allow_negative_numbers(true),
        FlagShape::Float => arg
            .value_parser(clap::value_parser!(f64))
            .allow_negative_numbers(true),
        FlagShape::List => arg.value_delimiter(','),
    }
}

impl clap::Args for OptionFlags {
    fn augment_args(command: clap::Command) -> clap::Command {
        let command = WRITE_OPTIONS
            .iter()
            .fold(command, |command, option| command.arg(flag(option)));
        OPTIONS
            .iter()
            .fold(command, |command, option| command.arg(flag(option)))
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Self::augment_args(command)
    }
}

/// The value given to `option`'s flag, if it was given.
fn given<O>(matches: &clap::ArgMatches, option: &OptionSpec<O>) -> Option<KeywordValue> {
    match option.flag {
        FlagShape::Switch => matches
            .get_flag(option.name)
            .then_some(KeywordValue::Bool(true)),
        FlagShape::Bool => matches
            .get_one::<bool>(option.name)
            .map(|flag| KeywordValue::Bool(*flag)),
        FlagShape::Text => matches
            .get_one::<String>(option.name)
            .map(|text| KeywordValue::Text(text.clone())),
        FlagShape::Int => matches
            .get_one::<i64>(option.name)
            .map(|n| KeywordValue::Int(*n)),
        FlagShape::Float => matches
            .get_one::<f64>(option.name)
            .map(|x| KeywordValue::Float(*x)),
        FlagShape::List => matches
            .get_many::<String>(option.name)
            .map(|texts| KeywordValue::Texts(texts.cloned().collect())),
    }
}

/// The options of `options` whose flags were given, with their values.
fn with_values<O>(
    matches: &clap::ArgMatches,
    options: &'static [OptionSpec<O>],
) -> Vec<(&'static OptionSpec<O>, KeywordValue)> {
    options
        .iter()
        .filter_map(|option| given(matches, option).map(|value| (option, value)))
        .collect()
}

impl clap::FromArgMatches for OptionFlags {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        Ok(OptionFlags {
            write: with_values(matches, WRITE_OPTIONS),
            given: with_values(matches, OPTIONS),
        })
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl DrawArgs {
    /// The drawing options, the bundle keywords and the write settings the flags give.
    /// Only what the user passed is set, so that a view's settings fill in the rest.
    fn options(&self) -> Result<(DrawOptions, BundleKeywords, WriteOptions), DrawError> {
        let mut bundle = BundleKeywords {
            graph: None,
            metric: self.metric.clone(),
            on: self.on.clone(),
            members: self.members.clone(),
        };
        let mut options = DrawOptions::default();
        for (option, value) in &self.options.given {
            options = match option.name {
                "graph" => bundle.set_graph(options, value),
                _ => (option.set)(options, value),
            }
            .map_err(|error| as_flag(error, option, value))?;
        }
        let mut write = WriteOptions::default();
        for (option, value) in &self.options.write {
            write = (option.set)(write, value).map_err(|error| as_flag(error, option, value))?;
        }
        Ok((options, bundle, write))
    }

    fn run(&self) -> Result<Written, DrawError> {
        let (options, bundle_keywords, write) = self.options()?;
        let first = &self.traces[0];
        let output = self.output.clone().unwrap_or_else(|| {
            let stem = first.file_stem().unwrap_or_default();
            Path::new(stem).with_extension("pdf")
        });
        let (target, format) = crate::output_target(&output, write.file_format.as_deref())?;
        self.refuse_output_over_an_input(&target)?;
        let drawn = Drawn::new(
            self.subject()?,
            options,
            &bundle_keywords,
            &Caller::command_line(first),
        )?;
        // A terminal shows a bar once the drawing takes a second; a log is told once that a
        // layout of a second or more has begun.
        let progress = crate::progress::Progress::new();
        let bar = crate::progress::TerminalBar::start(&progress);
        if bar.is_none() && (format != crate::OutputFormat::Html || drawn.trace().is_none()) {
            let nodes = drawn.drawing()?.styled.nodes.len();
            if nodes > PROGRESS_NODES {
                eprintln!("tl-draw: laying out {nodes} nodes...");
            }
        }
        // The process ends right after writing: freeing a large trace or drawing record by
        // record would only make the user wait (a tenth of a second per 100,000 operations).
        let written = progress.watch(|| {
            if format == crate::OutputFormat::Html {
                let written = drawn.write(&output, &write);
                std::mem::forget(drawn);
                written
            } else {
                drawn.into_drawing()?.write_once(&output, &write)
            }
        });
        if let Some(bar) = bar {
            bar.finish();
        }
        let mut written = written?;
        if write.dpi.is_some() && written.path.extension().is_none_or(|e| e != "png") {
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
    fn refuse_output_over_an_input(&self, target: &Path) -> Result<(), DrawError> {
        let Ok(target) = std::fs::canonicalize(target) else {
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
            return Ok(Subject::Document(crate::read_document(
                only,
                self.max_trace_bytes,
            )?));
        }
        let traces = self
            .traces
            .iter()
            .map(|path| {
                let name = path.file_stem().unwrap_or_default();
                let trace = read_trace(path, self.max_trace_bytes)?;
                trace.validate()?;
                Ok((name.to_string_lossy().into_owned(), trace))
            })
            .collect::<Result<Vec<_>, DrawError>>()?;
        Ok(Subject::Traces(traces))
    }
}

/// One trace: a trace file, or an ONNX model's graph.
fn read_trace(path: &Path, max_bytes: u64) -> Result<Trace, DrawError> {
    if crate::is_onnx_path(path) {
        return crate::read_onnx(path);
    }
    Ok(Trace::read_limited(path, max_bytes)?)
}

fn check(path: &Path, max_bytes: u64) -> Result<String, DrawError> {
    let document = crate::read_document(path, max_bytes)?;
    if let Document::Trace(trace) = &document {
        trace.validate()?;
    }
    match document {
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
    let trace = read_trace(trace, crate::DEFAULT_MAX_TRACE_BYTES)?;
    let schedule = crate::Schedule::build(&trace, buffers)?;
    let band = crate::readable_band(&trace);
    let auto = schedule.auto(band).level;
    let mut text = format!(
        "{}: collapse schedule (auto picks t={auto}, readable band {band} nodes)\n",
        trace.model.class_name
    );
    for step in &schedule.stops {
        text.push_str(&format!("t={:.6}  {:>5} nodes", step.level, step.nodes));
        if !step.folds.is_empty() {
            text.push_str(&format!("  {}", step.folds.join("; ")));
        }
        text.push('\n');
    }
    Ok(text)
}

/// A keyword's type error in the flag's spelling: `--depth takes ...`, not `depth= takes`.
fn as_flag<O>(error: DrawError, option: &OptionSpec<O>, value: &KeywordValue) -> DrawError {
    match error.code() {
        "keyword_value_invalid" => DrawError::invalid(
            "keyword_value_invalid",
            format!(
                "--{} takes {}; received {}",
                option.name.replace('_', "-"),
                option.wanted,
                value.described()
            ),
        ),
        _ => error,
    }
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
                eprintln!("error[{}]: {}", error.code(), said(&error.to_string()));
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
                eprintln!("error[{}]: {}", error.code(), said(&error.to_string()));
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
                            said(&error.to_string())
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
