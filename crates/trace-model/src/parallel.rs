//! Two independent passes over a trace, on two threads when the trace is large enough to
//! repay starting one. Validation and `tl_collapse::TraceIndex` split their work this way.
//! And freeing a large value beside the work that follows it ([`drop_beside`]).

use crate::Trace;

/// Below this many op records a pass over a trace takes less time than starting a thread
/// (50-70 µs on the project's 2-core machines), so the two passes run one after the other.
pub const PARALLEL_FROM_OPS: usize = 2_000;

/// Runs `first` (on a second thread when `trace` has [`PARALLEL_FROM_OPS`] ops or more,
/// and the system starts one) and `second` (on this thread), and returns both results. A
/// panic in `first` is resumed on this thread.
pub fn join<A: Send, B>(
    trace: &Trace,
    first: impl FnOnce() -> A + Send,
    second: impl FnOnce() -> B,
) -> (A, B) {
    if trace.ops.len() < PARALLEL_FROM_OPS {
        let first = first();
        return (first, second());
    }
    let (first, second) = tl_threads::join(first, second);
    let first = first.unwrap_or_else(|panic| std::panic::resume_unwind(panic));
    (first, second)
}

/// Lets go of `value` on a thread of its own: freeing a large trace or drawing record by
/// record (a tenth of a second per 100,000 operations) would only make the work after it,
/// or a program about to exit, wait. Where no thread can start, it is freed here.
pub fn drop_beside<T: Send + 'static>(value: T) {
    let _ = std::thread::Builder::new()
        .name("tl-draw-free".to_owned())
        .spawn(move || drop(value));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_passes_run_once_on_small_and_large_traces() {
        for ops in [10, 2 * PARALLEL_FROM_OPS] {
            let trace = crate::synthetic::transformer_of_size(ops);
            assert_eq!(trace.ops.len() >= PARALLEL_FROM_OPS, ops > 10);
            let (first, second) = join(&trace, || trace.ops.len(), || trace.modules.len());
            assert_eq!((first, second), (trace.ops.len(), trace.modules.len()));
        }
    }

    #[test]
    #[should_panic(expected = "first pass failed")]
    fn a_panic_on_the_second_thread_reaches_the_caller() {
        let trace = crate::synthetic::transformer_of_size(2 * PARALLEL_FROM_OPS);
        join(&trace, || panic!("first pass failed"), || ());
    }
}
