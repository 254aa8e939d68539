//! The last few layouts of the built-in engines, by their DOT source and engine: drawing the same trace
//! again with the same options (a notebook cell run twice, a drawing rendered to another
//! format by a new call) makes the same DOT, and its layout is a pure function of it.
//!
//! Invariant: an entry is used only for byte-identical DOT and the same formats, so a
//! remembered layout is exactly what laying out again would give. Bounded in entries and in
//! bytes; the least recently used goes first.

use std::collections::VecDeque;
use std::sync::Mutex;

use crate::engine::{LaidOut, LayoutEngine, TextFormat};

/// At most this many layouts are remembered.
const MAX_ENTRIES: usize = 4;
/// At most this many bytes of DOT and laid-out text are remembered, in all.
const MAX_BYTES: usize = 48 << 20;

struct Entry {
    dot: String,
    engine: LayoutEngine,
    formats: Vec<TextFormat>,
    laid_out: LaidOut,
}

impl Entry {
    fn same(&self, dot: &str, engine: LayoutEngine, formats: &[TextFormat]) -> bool {
        self.engine == engine && self.formats == formats && self.dot == dot
    }

    fn bytes(&self) -> usize {
        self.dot.len() + self.laid_out.bytes()
    }
}

static RECENT: Mutex<VecDeque<Entry>> = Mutex::new(VecDeque::new());

/// Forgets every remembered layout: for timings of layout itself (benchmarks, the timing
/// tasks), where a remembered layout would be measured instead.
pub fn forget_recent_layouts() {
    RECENT.lock().unwrap_or_else(|p| p.into_inner()).clear();
}

/// The remembered layout of `dot` in `formats`, if there is one (it becomes the most recent).
pub(crate) fn find(dot: &str, engine: LayoutEngine, formats: &[TextFormat]) -> Option<LaidOut> {
    let mut recent = RECENT.lock().unwrap_or_else(|p| p.into_inner());
    let at = recent
        .iter()
        .position(|entry| entry.same(dot, engine, formats))?;
    let entry = recent.remove(at)?;
    let laid_out = entry.laid_out.clone();
    recent.push_front(entry);
    Some(laid_out)
}

/// Whether a layout of `bytes`, DOT and laid-out text together, can be remembered.
pub(crate) fn fits(bytes: usize) -> bool {
    bytes <= MAX_BYTES
}

/// Remembers the layout of `dot`, forgetting the least recent ones over the bounds; a layout
/// larger than the whole budget is not kept.
pub(crate) fn keep(dot: &str, engine: LayoutEngine, formats: &[TextFormat], laid_out: &LaidOut) {
    // Measured before copying: a large drawing's DOT and SVG are hundreds of megabytes.
    if !fits(dot.len() + laid_out.bytes()) {
        return;
    }
    let entry = Entry {
        dot: dot.to_owned(),
        engine,
        formats: formats.to_vec(),
        laid_out: laid_out.clone(),
    };
    let mut recent = RECENT.lock().unwrap_or_else(|p| p.into_inner());
    recent.retain(|kept| !kept.same(dot, engine, formats));
    recent.push_front(entry);
    while recent.len() > MAX_ENTRIES || recent.iter().map(Entry::bytes).sum::<usize>() > MAX_BYTES {
        recent.pop_back();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::lay_out;

    #[test]
    fn the_same_dot_gives_the_remembered_layout_and_other_dot_its_own() {
        let dot = "digraph remembered_once { a -> b }";
        let formats = [TextFormat::Json];
        let first = lay_out(dot, &formats, LayoutEngine::Embedded).unwrap();
        let embedded = LayoutEngine::Embedded;
        let found = find(dot, embedded, &formats).expect("remembered");
        assert_eq!(found.get(TextFormat::Json), first.get(TextFormat::Json));
        assert!(
            find(dot, embedded, &[TextFormat::Svg]).is_none(),
            "other formats"
        );
        assert!(
            find(dot, LayoutEngine::Layered, &formats).is_none(),
            "other engines"
        );
        assert!(find("digraph remembered_once { a -> c }", embedded, &formats).is_none());
        // Many other layouts later, it has been forgotten; the bound holds.
        for n in 0..MAX_ENTRIES + 1 {
            let other = format!("digraph g{n} {{ a -> b{n} }}");
            lay_out(&other, &formats, LayoutEngine::Embedded).unwrap();
        }
        assert!(find(dot, embedded, &formats).is_none());
        assert!(RECENT.lock().unwrap().len() <= MAX_ENTRIES);
    }
}
