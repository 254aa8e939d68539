//! How far the layouts under way have gone, for a progress bar on a terminal or in a
//! notebook.
//!
//! A caller that shows progress makes a [`Progress`] and runs the drawing inside
//! [`Progress::watch`] on the thread doing the work (threads the work starts join with
//! [`current`]); the drawing announces each layout with its expected seconds ([`begin`]),
//! the layout stage marks each step it starts, and any other thread reads
//! [`Progress::now`] to draw the bar. A thread nobody watches pays one thread-local read
//! a mark.
//!
//! Invariant: the fraction a snapshot gives never goes back while one layout runs. Within a
//! step it grows with the time spent against the step's share of the expected seconds, and
//! stops short of the step's end until the next step begins, so a layout slower than
//! expected waits at the step it is in rather than claiming to be done.

use std::cell::RefCell;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// A step of a layout, as a progress bar names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Step {
    /// Reading the graph text and sizing its nodes and labels.
    Reading,
    /// Placing nodes and routing arrows (all of Graphviz's `dot` algorithm).
    Placing,
    /// Writing the laid-out drawing (SVG, JSON, ...).
    Writing,
    /// Painting the drawing (PDF, PNG).
    Painting,
}

impl Step {
    /// What the step does, as a bar shows it.
    pub fn describe(self) -> &'static str {
        match self {
            Step::Reading => "reading and sizing",
            Step::Placing => "placing nodes and arrows",
            Step::Writing => "writing",
            Step::Painting => "painting",
        }
    }

    /// The step's share of a layout's time and where it starts, by engine: graphviz-pure
    /// spends nearly all of it placing; the layered engine's 100,000-operation drawing
    /// spent about a third reading and sizing, a third placing and keeping the positions,
    /// a third writing SVG (docs/performance.md, "The layered engine").
    fn span(self, layered: bool) -> (f64, f64) {
        match (self, layered) {
            (Step::Reading, false) => (0.0, 0.05),
            (Step::Placing, false) => (0.05, 0.85),
            (Step::Writing, false) => (0.9, 0.05),
            (Step::Reading, true) => (0.0, 0.35),
            (Step::Placing, true) => (0.35, 0.35),
            (Step::Writing, true) => (0.7, 0.25),
            (Step::Painting, _) => (0.95, 0.05),
        }
    }
}

/// One look at the progress: the layout begun last.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    /// Nodes the layout places.
    pub nodes: usize,
    /// The step under way.
    pub step: Step,
    /// How much of the layout is done, from 0 to 1.
    pub fraction: f64,
    /// Time since the progress was made: how long the drawing has run.
    pub elapsed: Duration,
    /// Layouts begun so far under this watch.
    pub layouts: usize,
    /// Of a batch of layouts announced with [`expect_layouts`] (an interactive page lays
    /// out a drawing per stop and opened box): how many are done, of how many. The
    /// fraction is then the batch's.
    pub batch: Option<(usize, usize)>,
}

#[derive(Debug)]
struct Layout {
    nodes: usize,
    expected: f64,
    layered: bool,
    step: Step,
    step_started: Instant,
}

#[derive(Debug)]
struct State {
    created: Instant,
    layout: Option<Layout>,
    layouts: usize,
    batch: Option<(usize, usize)>,
}

/// The progress of the layouts run under [`Progress::watch`]; clones share it.
#[derive(Debug, Clone)]
pub struct Progress(Arc<Mutex<State>>);

impl Default for Progress {
    fn default() -> Progress {
        Progress(Arc::new(Mutex::new(State {
            created: Instant::now(),
            layout: None,
            layouts: 0,
            batch: None,
        })))
    }
}

thread_local! {
    static WATCHED: RefCell<Option<Progress>> = const { RefCell::new(None) };
}

impl Progress {
    /// A progress with no layout begun.
    pub fn new() -> Progress {
        Progress::default()
    }

    /// Runs `work` on this thread with its layouts reported here.
    pub fn watch<R>(&self, work: impl FnOnce() -> R) -> R {
        let before = WATCHED.with(|watched| watched.replace(Some(self.clone())));
        let result = work();
        WATCHED.with(|watched| *watched.borrow_mut() = before);
        result
    }

    /// The layout begun last, if any, as far as it has gone now.
    pub fn now(&self) -> Option<Snapshot> {
        self.now_at(Instant::now())
    }

    fn now_at(&self, now: Instant) -> Option<Snapshot> {
        let state = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let layout = state.layout.as_ref()?;
        let (start, share) = layout.step.span(layout.layered);
        let expected = share * layout.expected.max(1e-3);
        let within = now
            .saturating_duration_since(layout.step_started)
            .as_secs_f64()
            / expected;
        let fraction = match state.batch {
            Some((done, total)) => done as f64 / total.max(1) as f64,
            None => start + share * within.min(0.9),
        };
        Some(Snapshot {
            nodes: layout.nodes,
            step: layout.step,
            fraction: fraction.min(1.0),
            elapsed: now.saturating_duration_since(state.created),
            layouts: state.layouts,
            batch: state.batch,
        })
    }

    fn update(&self, change: impl FnOnce(&mut State)) {
        change(&mut self.0.lock().unwrap_or_else(PoisonError::into_inner));
    }
}

/// The progress this thread's work reports to, to carry to the threads it starts.
pub fn current() -> Option<Progress> {
    WATCHED.with(|watched| watched.borrow().clone())
}

/// Announces a layout of `nodes` nodes by `engine`, expected to take the seconds
/// `expected_seconds` gives ([`crate::guard::layout_seconds`]; asked only when watched).
pub fn begin(nodes: usize, engine: crate::LayoutEngine, expected_seconds: impl FnOnce() -> f64) {
    if let Some(progress) = current() {
        let expected = expected_seconds();
        let now = Instant::now();
        progress.update(|state| {
            state.layouts += 1;
            state.layout = Some(Layout {
                nodes,
                expected,
                layered: engine == crate::LayoutEngine::Layered,
                step: Step::Reading,
                step_started: now,
            });
        });
    }
}

/// Announces a batch of `total` layouts; each reports [`layout_done`] when it is done.
pub fn expect_layouts(total: usize) {
    if let Some(progress) = current() {
        progress.update(|state| state.batch = Some((0, total)));
    }
}

/// Counts one layout of the batch announced by [`expect_layouts`] done.
pub fn layout_done() {
    if let Some(progress) = current() {
        progress.update(|state| {
            if let Some((done, total)) = &mut state.batch {
                *done = (*done + 1).min(*total);
            }
        });
    }
}

/// Marks the start of `step` of the layout begun last on this thread's watch.
pub fn mark(step: Step) {
    if let Some(progress) = current() {
        progress.update(|state| {
            if let Some(layout) = &mut state.layout {
                layout.step = step;
                layout.step_started = Instant::now();
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LayoutEngine;

    #[test]
    fn nothing_is_reported_outside_a_watch_nor_before_a_layout_begins() {
        begin(10, LayoutEngine::Embedded, || 1.0);
        let progress = Progress::new();
        assert_eq!(progress.now(), None);
        progress.watch(|| mark(Step::Placing));
        assert_eq!(progress.now(), None);
        assert!(current().is_none(), "the watch ends with its work");
    }

    #[test]
    fn the_fraction_grows_with_time_and_steps_and_waits_short_of_each_steps_end() {
        let progress = Progress::new();
        progress.watch(|| begin(5000, LayoutEngine::Layered, || 10.0));
        let started = progress.now().unwrap();
        assert_eq!(
            (started.nodes, started.step, started.layouts),
            (5000, Step::Reading, 1)
        );
        let later = |seconds: f64| {
            progress
                .now_at(Instant::now() + Duration::from_secs_f64(seconds))
                .unwrap()
                .fraction
        };
        assert!(later(1.0) > started.fraction);
        // Far past the step's expected time: still short of the next step's start.
        assert!(later(100.0) < 0.35, "{}", later(100.0));
        progress.watch(|| mark(Step::Writing));
        let writing = progress.now().unwrap();
        assert!(writing.fraction >= 0.7 && writing.fraction < later(1.0).max(0.71) + 0.3);
        assert!(later(1000.0) <= 1.0);
    }

    #[test]
    fn a_thread_started_by_the_work_reports_to_the_same_progress() {
        let progress = Progress::new();
        progress.watch(|| {
            let carried = current().unwrap();
            std::thread::spawn(move || carried.watch(|| begin(7, LayoutEngine::Embedded, || 1.0)))
                .join()
                .unwrap();
        });
        assert_eq!(progress.now().unwrap().nodes, 7);
    }

    #[test]
    fn a_batch_counts_its_layouts_done() {
        let progress = Progress::new();
        progress.watch(|| {
            expect_layouts(4);
            begin(7, LayoutEngine::Embedded, || 1.0);
            layout_done();
        });
        let snapshot = progress.now().unwrap();
        assert_eq!((snapshot.batch, snapshot.fraction), (Some((1, 4)), 0.25));
    }
}
