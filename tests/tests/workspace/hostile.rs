//! Any trace that validation accepts draws every way without a panic or a hang. Traces are
//! the committed fixtures with random mutations of their JSON (a number, a string, a flag
//! changed; a list element dropped or repeated; a field removed): most are refused with a
//! coded error, the rest must draw (or refuse an option) within a time proportional to
//! their size. The fuzz targets (`fuzz/`) search the same space by coverage.

use std::time::{Duration, Instant};

use proptest::prelude::*;
use serde_json::Value;
use tl_tests::{draw_every_way, fixture_files, fixtures_dir};
use tl_trace_model::Document;

/// The small fixtures mutated here (the real architectures are drawn unmutated below).
const MUTATED: [&str; 8] = [
    "convnet",
    "branch_true",
    "recurrent",
    "backward_twice",
    "bundle",
    "edited",
    "stack8",
    "photo",
];

/// Every place in `value` that a mutation can hit, as JSON pointers.
fn places(value: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match value {
        Value::Object(map) => {
            for (key, item) in map {
                let key = key.replace('~', "~0").replace('/', "~1");
                places(item, format!("{at}/{key}"), out);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                places(item, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// Changes the value at `pointer` by `kind`, with `seed` for the new value.
fn mutate(document: &mut Value, pointer: &str, kind: u8, seed: u64) {
    let strings = [
        "",
        "x",
        "linear_1_1:1",
        "linear_1_1pass1",
        "self",
        "\u{1}\u{ffff}",
        "a.b.c",
        "output_1:1",
    ];
    let numbers = [0i64, 1, -1, 2, 3, 1 << 40, i64::MAX];
    let (parent_pointer, key) = pointer.rsplit_once('/').unwrap_or(("", ""));
    match kind % 4 {
        // Replace the value itself.
        0 | 1 => {
            let Some(target) = document.pointer_mut(pointer) else {
                return;
            };
            *target = match target {
                Value::Number(_) => Value::from(numbers[(seed % numbers.len() as u64) as usize]),
                Value::String(_) => Value::from(strings[(seed % strings.len() as u64) as usize]),
                Value::Bool(flag) => Value::from(!*flag),
                Value::Null => Value::from(numbers[(seed % numbers.len() as u64) as usize]),
                Value::Array(items) if !items.is_empty() => {
                    let i = (seed % items.len() as u64) as usize;
                    if seed.is_multiple_of(2) {
                        items.remove(i);
                    } else {
                        let copy = items[i].clone();
                        items.insert(i, copy);
                    }
                    return;
                }
                _ => return,
            };
        }
        // Remove the field or element.
        2 => match document.pointer_mut(parent_pointer) {
            Some(Value::Object(map)) => {
                map.remove(&key.replace("~1", "/").replace("~0", "~"));
            }
            Some(Value::Array(items)) => {
                if let Ok(i) = key.parse::<usize>() {
                    if i < items.len() {
                        items.remove(i);
                    }
                }
            }
            _ => {}
        },
        // Swap it with a sibling element.
        _ => {
            if let (Some(Value::Array(items)), Ok(i)) =
                (document.pointer_mut(parent_pointer), key.parse::<usize>())
            {
                let j = (seed % items.len().max(1) as u64) as usize;
                if i < items.len() && j < items.len() {
                    items.swap(i, j);
                }
            }
        }
    }
}

/// The fixture `name` with the mutations `kinds` (kind, seed) applied at `place`.
fn mutated(name: &str, place: &prop::sample::Index, kinds: &[(u8, u64)]) -> Value {
    let text = std::fs::read_to_string(fixtures_dir().join(format!("{name}.json"))).unwrap();
    let mut document: Value = serde_json::from_str(&text).unwrap();
    for &(kind, seed) in kinds {
        let mut all = Vec::new();
        places(&document, String::new(), &mut all);
        let pointer = place.get(&all).clone();
        mutate(&mut document, &pointer, kind, seed);
    }
    document
}

/// Draws `text` every way if it is accepted, and checks the time bound.
fn draws_if_accepted(text: &str) {
    let Ok(document) = Document::from_json(text) else {
        return;
    };
    let start = Instant::now();
    draw_every_way(&document);
    // Drawing is linear in the trace; this bound is ~100x what a debug build needs.
    let bound = Duration::from_secs(5) + Duration::from_micros(40 * text.len() as u64);
    assert!(
        start.elapsed() < bound,
        "drawing took {:?} (bound {bound:?})",
        start.elapsed()
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn any_accepted_mutation_of_a_fixture_draws_every_way(
        fixture in 0..MUTATED.len(),
        place in any::<prop::sample::Index>(),
        kinds in proptest::collection::vec((any::<u8>(), any::<u64>()), 1..4),
    ) {
        draws_if_accepted(&mutated(MUTATED[fixture], &place, &kinds).to_string());
    }
}

proptest! {
    // Each page lays out every drawing it holds: fewer cases.
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn any_accepted_mutation_of_a_fixture_writes_its_interactive_page(
        fixture in 0..MUTATED.len(),
        place in any::<prop::sample::Index>(),
        kind in any::<u8>(),
        seed in any::<u64>(),
    ) {
        let document = mutated(MUTATED[fixture], &place, &[(kind, seed)]);
        if let Ok(Document::Trace(trace)) = Document::from_json(&document.to_string()) {
            // Refused with a code or written; never a panic.
            let options = tl_draw::DrawOptions::default().force(true);
            if let Ok(page) = tl_draw::html::page(&trace, &options) {
                prop_assert!(page.starts_with("<!DOCTYPE html>"));
            }
        }
    }
}

/// The same invariant on every committed fixture as it is, real architectures included.
#[test]
fn every_fixture_draws_every_way() {
    let mut files = fixture_files();
    files.extend(
        std::fs::read_dir(fixtures_dir().join("real"))
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| {
                path.extension().is_some_and(|ext| ext == "json")
                    && !path.to_string_lossy().contains("gpt2_")
            }),
    );
    for path in files {
        let document = Document::load(&path).unwrap();
        let drawn = draw_every_way(&document);
        assert!(drawn > 0, "{}: nothing drew", path.display());
    }
}

/// The mutations above must reach drawing often enough to mean something: run a fixed
/// series of them (a small xorshift generator) and require that a share is accepted.
#[test]
fn a_fair_share_of_mutations_is_accepted_and_drawn() {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut accepted, mut tried) = (0, 0);
    for fixture in MUTATED {
        let text = std::fs::read_to_string(fixtures_dir().join(format!("{fixture}.json"))).unwrap();
        for _ in 0..40 {
            let mut document: Value = serde_json::from_str(&text).unwrap();
            let mut all = Vec::new();
            places(&document, String::new(), &mut all);
            let pointer = all[(next() % all.len() as u64) as usize].clone();
            mutate(&mut document, &pointer, (next() % 256) as u8, next());
            let mutated = document.to_string();
            tried += 1;
            if Document::from_json(&mutated).is_ok() {
                accepted += 1;
                draws_if_accepted(&mutated);
            }
        }
    }
    eprintln!("{accepted} of {tried} mutations accepted and drawn");
    assert!(
        accepted * 5 >= tried,
        "only {accepted} of {tried} mutations were accepted"
    );
}

/// Every crash the fuzzers found (`fuzz/corpus/regressions/`), kept so that it stays fixed:
/// each loads and, when accepted, draws every way without a panic.
#[test]
fn every_crash_found_so_far_stays_fixed() {
    let folder = tl_tests::repo_root()
        .join("fuzz")
        .join("corpus")
        .join("regressions");
    let mut found = 0;
    for entry in std::fs::read_dir(&folder).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        if let Ok(text) = std::str::from_utf8(&bytes) {
            draws_if_accepted(text);
        }
        found += 1;
    }
    assert!(found >= 1, "{} holds the crash inputs", folder.display());
}
