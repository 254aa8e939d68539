//! Parsing a large trace on two threads. Building the op records is most of loading (a
//! 100,000-op trace is 160 MiB of JSON); the ops list is cut in two at a line break between
//! two ops near the middle of the file, and each half is parsed on its own thread: the first
//! as a trace closed after the cut (a copy), the second op by op where it lies.
//!
//! The cut relies on the canonical layout (two-space indentation, `ops` the last field),
//! which the adapter and `save` both write. It is safe on any text: a JSON string cannot
//! hold a raw line break, so the cut falls between tokens, and the two halves parse only
//! when the cut lies between two elements of the root's last list and the rest of that list
//! is op records up to the closing; the list must then be `ops`. Anything else returns `None` and
//! the caller parses the text in one pass.

use crate::records::{Chunks, OpRecord, Trace};

/// Smaller texts parse faster in one pass than two threads can start.
const MIN_BYTES: usize = 4 << 20;
/// A line break between two op records in the canonical layout: `}` ends one, `{` starts
/// the next.
const BETWEEN_OPS: &str = "\n    },\n    {";
/// The end of a canonical trace: the ops list closes, then the root object.
const CLOSING: &str = "\n  ]\n}";

/// The op records of `list`, the elements of a JSON list without its brackets, read where
/// they lie (the list is not copied).
fn op_records(mut list: &str) -> Option<Chunks<OpRecord>> {
    let mut ops = Chunks::new();
    loop {
        let mut records = serde_json::Deserializer::from_str(list).into_iter::<OpRecord>();
        ops.push(records.next()?.ok()?);
        list = list[records.byte_offset()..].trim_start();
        match list.strip_prefix(',') {
            Some(rest) => list = rest,
            None => return list.is_empty().then_some(ops),
        }
    }
}

/// The trace in `text`, parsed on two threads, or `None` when the text is small, not in
/// the canonical layout, or not a well-formed trace (the caller's one-pass parse then
/// decides, and names any error).
pub(crate) fn parse_in_halves(text: &str) -> Option<Trace> {
    if text.len() < MIN_BYTES {
        return None;
    }
    let body = text.trim_end();
    let list_end = body.strip_suffix(CLOSING)?.len();
    let mut middle = text.len() / 2;
    while !text.is_char_boundary(middle) {
        middle += 1;
    }
    // Both patterns are ASCII, so every index found is a character boundary.
    let cut = middle + text.get(middle..list_end)?.find(BETWEEN_OPS)?;
    let first_end = cut + BETWEEN_OPS.find('}')? + 1;
    let second_start = cut + BETWEEN_OPS.len() - 1;
    std::thread::scope(|scope| {
        let second = scope.spawn(|| op_records(&text[second_start..list_end]));
        // The first half is closed like a whole trace (a copy: the text cannot be extended).
        let mut head = String::with_capacity(first_end + CLOSING.len());
        head.push_str(&text[..first_end]);
        head.push_str(CLOSING);
        let mut trace = serde_json::from_str::<Trace>(&head).ok()?;
        second.join().ok()??.append_to(&mut trace.ops);
        Some(trace)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synthetic::transformer_of_size;

    fn big_trace_json() -> (Trace, String) {
        let trace = transformer_of_size(4_000);
        let text = trace.to_json();
        assert!(text.len() > MIN_BYTES, "{} bytes", text.len());
        (trace, text)
    }

    #[test]
    fn a_large_canonical_trace_parses_in_halves_to_the_same_records() {
        let (trace, text) = big_trace_json();
        assert_eq!(parse_in_halves(&text), Some(trace));
    }

    #[test]
    fn odd_texts_are_refused_without_panicking() {
        // The middle falls inside a two-byte character.
        let wide = format!("{}{CLOSING}", "é".repeat(MIN_BYTES));
        assert!(!wide.is_char_boundary(wide.len() / 2));
        assert_eq!(parse_in_halves(&wide), None);
        // Trailing white space longer than the document.
        let (_, text) = big_trace_json();
        let padded = format!("{text}{}", " ".repeat(text.len()));
        assert_eq!(parse_in_halves(&padded), None);
    }

    #[test]
    fn other_layouts_and_bad_records_are_left_to_the_one_pass_parse() {
        let (trace, text) = big_trace_json();
        // Compact JSON: no canonical line breaks.
        let compact = serde_json::to_string(&trace).unwrap();
        assert_eq!(parse_in_halves(&compact), None);
        // `ops` not the last field (serde_json's maps sort keys: `version` comes last).
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let reordered = serde_json::to_string_pretty(&value).unwrap();
        assert!(reordered.trim_end().ends_with("\"version\": 1\n}"));
        assert_eq!(parse_in_halves(&reordered), None);
        assert_eq!(Trace::from_json(&reordered).unwrap(), trace);
        // A bad record in the second half.
        let broken = text.replacen("\"dtype\": \"float32\"", "\"dtype\": 32", 1);
        let last = text.rfind("\"dtype\": \"float32\"").unwrap();
        let broken_late = format!("{}\"dtype\": 32{}", &text[..last], &text[last + 18..]);
        assert_ne!(broken, text);
        assert_eq!(parse_in_halves(&broken), None);
        assert_eq!(parse_in_halves(&broken_late), None);
        let error = Trace::from_json(&broken_late).unwrap_err().to_string();
        let index = trace.ops.len()
            - 1
            - trace
                .ops
                .iter()
                .rev()
                .position(|op| op.dtype.is_some())
                .unwrap();
        assert!(error.contains(&format!("ops[{index}].dtype")), "{error}");
    }
}
