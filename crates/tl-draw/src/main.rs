//! The `tl-draw` command-line program (see `tl_draw::cli`).

fn main() -> std::process::ExitCode {
    tl_draw::cli::run(std::env::args_os())
}
