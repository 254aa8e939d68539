//! Ctrl-C during a drawing: Python runs its signal handlers only on the thread that holds
//! the interpreter, between bytecodes, so a layout of half a minute on that thread would
//! hold a `KeyboardInterrupt` back until it ends. The work runs on a worker thread instead,
//! while the calling thread waits without the GIL and checks for signals every 50 ms.
//! Waiting there, it also shows the drawing's progress once it has taken a second
//! (`tl_draw._progress`: a bar in a notebook or on a terminal).

use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::Duration;

use pyo3::prelude::*;
use tl_draw::progress::{Progress, SHOW_AFTER};

/// How often the waiting thread checks for Ctrl-C.
const CHECK_EVERY: Duration = Duration::from_millis(50);

/// Runs `work` on a worker thread and returns its result, raising `KeyboardInterrupt` (or
/// whatever a signal handler raises) within about 50 ms of Ctrl-C; where no thread starts,
/// runs it here. An interrupted worker cannot be stopped: it is left to finish on its own,
/// its writes cancelled (a file it was about to replace stays as it was, and its temporary
/// file is removed) and its result dropped. User callables it calls take the GIL as they
/// would on the calling thread.
pub(crate) fn interruptible<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (sender, receiver) = channel();
    let progress = Progress::new();
    let watched = progress.clone();
    let job = move || {
        let result = watched.watch(work);
        tl_trace_model::forget_cancelled(std::thread::current().id());
        // The caller may have stopped waiting (interrupted): nothing to hand over then.
        let _ = sender.send(result);
    };
    let worker = std::thread::Builder::new().name("tl-draw".to_owned());
    let worker = match tl_threads::spawn_or_give_back(worker, job) {
        Ok(worker) => worker.thread().id(),
        // No thread to be had (the process is at the system's limit): the drawing runs here,
        // without the interpreter's lock, to its end; Ctrl-C and the progress display wait.
        Err(job) => {
            // A panic ends it as it ends the worker: no result sent.
            py.detach(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).ok());
            return receiver.recv().map_err(|_| stopped_without_result());
        }
    };
    let mut receiver = receiver;
    let mut shown = Shown::default();
    let outcome = loop {
        // The receiver goes into the GIL-free wait and comes back (it is Send, not Sync).
        let (received, back) = py.detach(move || (receiver.recv_timeout(CHECK_EVERY), receiver));
        receiver = back;
        match received {
            Ok(result) => break Ok(result),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(interrupted) = py.check_signals() {
                    tl_trace_model::cancel_writes_of(worker);
                    break Err(interrupted);
                }
                shown.report(py, &progress);
            }
            Err(RecvTimeoutError::Disconnected) => break Err(stopped_without_result()),
        }
    };
    shown.finish(py);
    outcome
}

/// The drawing ended without handing over its result: a panic in the drawing.
fn stopped_without_result() -> PyErr {
    pyo3::exceptions::PyRuntimeError::new_err(
        "tl-draw's drawing thread stopped without a result (a bug: please report it with the trace)",
    )
}

/// What the waiting thread has shown of the progress: its `tl_draw._progress.Display`, made
/// once the drawing has run a second (or `tl_draw._progress.SHOW_AFTER` seconds, when set).
/// A display that raises is dropped for the rest of the drawing: progress never stops one.
#[derive(Default)]
struct Shown {
    display: Option<Py<PyAny>>,
    broken: bool,
    /// Read at the first report, so that a drawing done within one wait reads nothing.
    show_after: Option<Duration>,
}

impl Shown {
    fn report(&mut self, py: Python<'_>, progress: &Progress) {
        let Some(snapshot) = progress.now() else {
            return;
        };
        let show_after = *self.show_after.get_or_insert_with(|| show_after(py));
        if self.broken || snapshot.elapsed < show_after {
            return;
        }
        let text = tl_draw::progress::describe(&snapshot);
        let line = tl_draw::progress::bar(&snapshot, 100);
        let display = match &self.display {
            Some(display) => Ok(display.bind(py).clone()),
            None => py
                .import("tl_draw._progress")
                .and_then(|module| module.call_method0("Display")),
        };
        let called = display.and_then(|display| {
            display.call_method1("report", (snapshot.fraction, text, line))?;
            Ok(display)
        });
        match called {
            Ok(display) => self.display = Some(display.unbind()),
            Err(_) => self.broken = true,
        }
    }

    fn finish(self, py: Python<'_>) {
        if let Some(display) = self.display {
            let _ = display.bind(py).call_method0("finish");
        }
    }
}

/// `tl_draw._progress.SHOW_AFTER` when it is a number of seconds, else the core's delay.
fn show_after(py: Python<'_>) -> Duration {
    py.import("tl_draw._progress")
        .and_then(|module| module.getattr("SHOW_AFTER"))
        .and_then(|seconds| seconds.extract::<Option<f64>>())
        .ok()
        .flatten()
        .and_then(|seconds| Duration::try_from_secs_f64(seconds).ok())
        .unwrap_or(SHOW_AFTER)
}
