//! The `tl-draw` command-line program (see `tl_draw::cli`).

// Loading a trace and laying it out make millions of small allocations; mimalloc makes
// them about a quarter cheaper than the system allocator (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

// Cairo taken into the program from its archives where the system has them (build.rs), so
// that it starts with 3 shared libraries to load instead of 24.
include!(concat!(env!("OUT_DIR"), "/static_cairo.rs"));

fn main() -> std::process::ExitCode {
    // Interrupted (Ctrl-C, `kill`, a closed terminal): remove the temporary file of a write
    // under way, leave every output as it was, and exit as interrupted programs do.
    let _ = ctrlc::set_handler(|| {
        tl_trace_model::remove_unfinished_writes();
        std::process::exit(130);
    });
    tl_draw::cli::run(std::env::args_os())
}
