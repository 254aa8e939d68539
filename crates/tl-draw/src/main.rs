//! The `tl-draw` command-line program.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tl_draw::{Bundle, Trace, TraceError};

/// Draw TorchLens traces (exported with the tl_export Python adapter).
#[derive(Parser)]
#[command(name = "tl-draw", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate trace or bundle files and print what each holds.
    Check {
        /// Trace (`tl-trace`) or bundle (`tl-bundle`) JSON files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

fn check(path: &PathBuf) -> Result<String, TraceError> {
    let text = std::fs::read_to_string(path).map_err(|source| TraceError::Read {
        path: path.clone(),
        source,
    })?;
    if text.contains("\"format\": \"tl-bundle\"") {
        let bundle = Bundle::from_json(&text)?;
        let names: Vec<&str> = bundle.members.iter().map(|m| m.name.as_str()).collect();
        let first = &bundle.members[0].trace;
        Ok(format!(
            "bundle of {} members ({}), baseline {}; {}",
            names.len(),
            names.join(", "),
            bundle.baseline,
            tl_draw::summary(first)
        ))
    } else {
        Ok(tl_draw::summary(&Trace::from_json(&text)?))
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check { files } => {
            let mut failed = false;
            for path in &files {
                match check(path) {
                    Ok(line) => println!("{}: {line}", path.display()),
                    Err(error) => {
                        eprintln!("error[{}]: {}: {error}", error.code(), path.display());
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
