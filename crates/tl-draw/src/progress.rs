//! Progress of a long drawing as a person sees it: one line of text ([`describe`]) that the
//! Python package shows in a notebook or on a terminal, and a bar the `tl-draw` program
//! redraws on a terminal's stderr ([`TerminalBar`]). What is measured is the layout stage's
//! ([`tl_layout::progress`]).

use std::io::{IsTerminal, Write};
use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

pub use tl_layout::progress::{Progress, Snapshot, Step};

/// A drawing shows progress only once it has taken this long: most drawings take less,
/// and a bar that flashes for a moment is noise.
pub const SHOW_AFTER: Duration = Duration::from_secs(1);

/// How often a bar is redrawn.
pub const REDRAW_EVERY: Duration = Duration::from_millis(100);

/// The snapshot as one line: `laying out 99,993 nodes: placing nodes and arrows (8 s)`; an
/// interactive page, which lays out a drawing per stop and opened box, counts them.
pub fn describe(snapshot: &Snapshot) -> String {
    if let Some((done, total)) = snapshot.batch {
        return format!(
            "laying out the page's drawings: {done} of {total} done ({} s)",
            snapshot.elapsed.as_secs()
        );
    }
    let drawing = if snapshot.layouts > 1 {
        format!("drawing {}, ", snapshot.layouts)
    } else {
        String::new()
    };
    format!(
        "{drawing}laying out {} nodes: {} ({} s)",
        grouped(snapshot.nodes),
        snapshot.step.describe(),
        snapshot.elapsed.as_secs()
    )
}

/// The snapshot as a terminal line `width` characters wide at most:
/// `tl-draw [#########...........] 45% laying out ...`.
pub fn bar(snapshot: &Snapshot, width: usize) -> String {
    const CELLS: usize = 24;
    let filled = ((snapshot.fraction.clamp(0.0, 1.0) * CELLS as f64) as usize).min(CELLS);
    let line = format!(
        "tl-draw [{}{}] {:>3}% {}",
        "#".repeat(filled),
        ".".repeat(CELLS - filled),
        (snapshot.fraction * 100.0).floor() as u32,
        describe(snapshot)
    );
    line.chars().take(width).collect()
}

/// `99993` as `99,993`.
fn grouped(count: usize) -> String {
    let digits = count.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// A progress bar on stderr, redrawn in place while the drawing it watches runs, erased
/// when it ends. Only on a terminal: a log or a pipe gets no carriage returns. Finishing
/// wakes the redrawing thread at once, so a quick drawing is not kept waiting for it.
pub struct TerminalBar {
    stop: Sender<()>,
    thread: JoinHandle<bool>,
}

impl TerminalBar {
    /// Starts redrawing `progress` on stderr, if stderr is a terminal.
    pub fn start(progress: &Progress) -> Option<TerminalBar> {
        if !std::io::stderr().is_terminal() {
            return None;
        }
        let (stop, stopped) = channel::<()>();
        let progress = progress.clone();
        let thread = std::thread::Builder::new()
            .name("tl-draw-progress".to_owned())
            .spawn(move || {
                let mut shown = false;
                // A message or a hang-up both mean the drawing is done.
                while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(REDRAW_EVERY) {
                    let Some(snapshot) = progress.now() else {
                        continue;
                    };
                    if snapshot.elapsed >= SHOW_AFTER {
                        let mut stderr = std::io::stderr().lock();
                        let _ = write!(stderr, "\r{}\x1b[K", bar(&snapshot, 100));
                        let _ = stderr.flush();
                        shown = true;
                    }
                }
                shown
            })
            .ok()?;
        Some(TerminalBar { stop, thread })
    }

    /// Stops redrawing and erases the bar.
    pub fn finish(self) {
        let _ = self.stop.send(());
        if self.thread.join().unwrap_or(false) {
            let _ = write!(std::io::stderr().lock(), "\r\x1b[K");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tl_layout::LayoutEngine;

    fn snapshot(fraction: f64, layouts: usize) -> Snapshot {
        let progress = Progress::new();
        progress.watch(|| {
            for _ in 0..layouts {
                tl_layout::progress::begin(99_993, LayoutEngine::Layered, || 20.0);
            }
            tl_layout::progress::mark(Step::Placing);
        });
        Snapshot {
            fraction,
            ..progress.now().unwrap()
        }
    }

    #[test]
    fn the_line_says_what_is_laid_out_and_which_step() {
        let line = describe(&snapshot(0.4, 1));
        assert!(
            line.starts_with("laying out 99,993 nodes: placing nodes and arrows ("),
            "{line}"
        );
        assert!(describe(&snapshot(0.4, 3)).starts_with("drawing 3, laying out"));
        let page = Snapshot {
            batch: Some((2, 9)),
            ..snapshot(0.2, 1)
        };
        assert!(describe(&page).starts_with("laying out the page's drawings: 2 of 9 done ("));
        assert_eq!(grouped(1_234_567), "1,234,567");
        assert_eq!(grouped(999), "999");
    }

    #[test]
    fn the_bar_fills_with_the_fraction_and_fits_the_width() {
        let half = bar(&snapshot(0.5, 1), 200);
        assert!(
            half.starts_with("tl-draw [############............]  50% laying out"),
            "{half}"
        );
        assert_eq!(bar(&snapshot(1.0, 1), 30).chars().count(), 30);
        assert!(bar(&snapshot(0.0, 1), 200).contains("[....."));
    }
}
