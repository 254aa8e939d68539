//! Two pieces of work side by side: `beside` on a thread of its own while `here` runs on the
//! calling thread ([`join`]); or work handed to a thread of its own, given back to run in
//! turn when none starts ([`spawn_or_give_back`]).
//!
//! Invariant: the results never depend on whether a thread could start. A system that
//! refuses one (a process or memory limit) gets the same results computed in turn, never a
//! panic; only the time differs.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{Builder, JoinHandle, Result};

/// Runs `beside` on a new thread while `here` runs on this one, and returns both results:
/// `beside`'s as `Err` with the panic's payload if it panicked (as
/// [`std::thread::ScopedJoinHandle::join`] gives it). When the system will not start the
/// thread, `beside` runs here after `here`.
pub fn join<A: Send, B>(
    beside: impl FnOnce() -> A + Send,
    here: impl FnOnce() -> B,
) -> (Result<A>, B) {
    join_on(Builder::new(), beside, here)
}

/// [`join`] with the new thread made by `builder`: a test's builder that asks for more
/// stack than the system gives shows the fallback.
fn join_on<A: Send, B>(
    builder: Builder,
    beside: impl FnOnce() -> A + Send,
    here: impl FnOnce() -> B,
) -> (Result<A>, B) {
    let waiting = Mutex::new(Some(beside));
    std::thread::scope(|scope| {
        let started = builder
            .spawn_scoped(scope, || take(&waiting).map(|beside| beside()))
            .ok();
        let here = here();
        let beside = match started {
            Some(thread) => thread.join(),
            None => catch_unwind(AssertUnwindSafe(|| take(&waiting).map(|beside| beside()))),
        };
        // Exactly one of the two took the work, so it ran.
        let beside = beside.map(|ran| ran.expect("the work beside ran once"));
        (beside, here)
    })
}

/// Starts `work` on a new thread made by `builder`, or gives `work` back, not run, when the
/// system will not start one: the caller then runs it in turn.
pub fn spawn_or_give_back<F: FnOnce() + Send + 'static>(
    builder: Builder,
    work: F,
) -> std::result::Result<JoinHandle<()>, F> {
    let waiting = Arc::new(Mutex::new(Some(work)));
    let taken = Arc::clone(&waiting);
    match builder.spawn(move || take(&taken).map_or((), |work| work())) {
        Ok(thread) => Ok(thread),
        // A thread that did not start took nothing.
        Err(_) => Err(take(&waiting).expect("the work is still waiting")),
    }
}

/// The work waiting in `slot`, taken by whichever of a new thread and its caller comes for it:
/// a thread that does not start drops only the closure that would have taken it.
fn take<F>(slot: &Mutex<Option<F>>) -> Option<F> {
    slot.lock().unwrap_or_else(PoisonError::into_inner).take()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A builder whose thread no system starts: a stack of half the address space.
    fn refused() -> Builder {
        Builder::new().stack_size(usize::MAX / 2)
    }

    #[test]
    fn both_results_come_back_from_a_thread() {
        let here_thread = std::thread::current().id();
        let (beside, here) = join(|| std::thread::current().id(), || 2);
        assert_ne!(beside.unwrap(), here_thread);
        assert_eq!(here, 2);
    }

    #[test]
    fn work_a_thread_could_not_take_runs_here_after_the_rest() {
        let order = Mutex::new(Vec::new());
        let (beside, here) = join_on(
            refused(),
            || {
                order.lock().unwrap().push("beside");
                std::thread::current().id()
            },
            || order.lock().unwrap().push("here"),
        );
        assert_eq!(beside.unwrap(), std::thread::current().id());
        assert_eq!(here, ());
        assert_eq!(*order.lock().unwrap(), ["here", "beside"]);
    }

    #[test]
    fn work_is_given_back_when_its_thread_does_not_start() {
        let (sender, receiver) = std::sync::mpsc::channel();
        let work = move || sender.send(std::thread::current().id()).unwrap();
        let given_back = spawn_or_give_back(refused(), work);
        let Err(work) = given_back else {
            panic!("the refused thread started");
        };
        assert!(
            receiver.try_recv().is_err(),
            "the work ran before it was given back"
        );
        work();
        assert_eq!(receiver.recv().unwrap(), std::thread::current().id());

        let (sender, receiver) = std::sync::mpsc::channel();
        let work = move || sender.send(std::thread::current().id()).unwrap();
        let Ok(thread) = spawn_or_give_back(Builder::new(), work) else {
            panic!("no thread started");
        };
        thread.join().unwrap();
        assert_ne!(receiver.recv().unwrap(), std::thread::current().id());
    }

    #[test]
    fn a_panic_beside_is_returned_on_either_path() {
        for builder in [Builder::new(), refused()] {
            let (beside, here) = join_on(builder, || -> u8 { panic!("beside failed") }, || 1);
            assert!(beside.is_err());
            assert_eq!(here, 1);
        }
    }
}
