//! The `tl-draw` command-line program (see `tl_draw::cli`).

// Loading a trace and laying it out make millions of small allocations; mimalloc makes
// them about a quarter cheaper than the system allocator (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    tl_draw::cli::run(std::env::args_os())
}
