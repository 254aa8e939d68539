//! Parsing a large trace on two threads. Building the op records is most of loading (a
//! 100,000-op trace is 160 MiB of JSON), so the text is read in three parts: the envelope
//! (every field before `ops`), and the ops list cut in two at a line break between two ops
//! near the middle of the file. One thread parses the envelope and the first ops, the other
//! the rest of the ops; the ops are read where they lie, into a vector reserved for the
//! whole list, so each record is written once (and those of the second part moved once).
//!
//! The cut relies on the canonical layout (two-space indentation, `ops` the last field),
//! which the adapter and `save` both write. It is safe on any text: a JSON string cannot
//! hold a raw line break, so every pattern below falls between tokens; the envelope parses
//! as a trace only if it stops at the root's `ops` key, and the two parts must be op
//! records that exactly fill the list up to the closing of the root. Anything else returns
//! `None` and the caller parses the text in one pass.

use memchr::memmem;

use crate::records::{OpRecord, Trace};

/// Smaller texts parse faster in one pass than two threads can start.
const MIN_BYTES: usize = 4 << 20;
/// The root's `ops` key and the opening of its list.
const OPS_KEY: &str = "\n  \"ops\": [";
/// A line break between two op records: `}` ends one, `{` starts the next.
const BETWEEN_OPS: &str = "\n    },\n    {";
/// The end of a canonical trace: the ops list closes, then the root object.
const CLOSING: &str = "\n  ]\n}";
/// Fewer bytes than the smallest canonical op record (its required fields alone take
/// more), so `bytes / MIN_OP_BYTES` bounds the number of records in `bytes` of the list.
const MIN_OP_BYTES: usize = 200;

/// The trace in `text`, parsed on two threads, or `None` when the text is small, not in
/// the canonical layout, or not a well-formed trace (the caller's one-pass parse then
/// decides, and names any error).
pub(crate) fn parse_in_halves(text: &str) -> Option<Trace> {
    if text.len() < MIN_BYTES {
        return None;
    }
    let list_end = text.trim_end().strip_suffix(CLOSING)?.len();
    // Both patterns are ASCII, so every index found is a character boundary.
    let list_start = memmem::find(text.as_bytes(), OPS_KEY.as_bytes())? + OPS_KEY.len();
    // Balance the two threads: the envelope (mostly module calls) parses in about three
    // quarters of the time of as many bytes of op records.
    let list_bytes = list_end - list_start;
    let first_ops = list_bytes.saturating_sub(list_start * 3 / 4) / 2;
    let mut middle = list_start + first_ops;
    while !text.is_char_boundary(middle) {
        middle += 1;
    }
    let cut = middle
        + memmem::find(
            text.get(middle..list_end)?.as_bytes(),
            BETWEEN_OPS.as_bytes(),
        )?;
    let first_end = cut + BETWEEN_OPS.find('}')? + 1;
    let second_start = cut + BETWEEN_OPS.len() - 1;
    std::thread::scope(|scope| {
        let second = scope.spawn(|| op_records(&text[second_start..list_end], Vec::new()));
        // The envelope, closed with an empty ops list (a copy: the text cannot be extended).
        let mut envelope = String::with_capacity(list_start + 4);
        envelope.push_str(&text[..list_start]);
        envelope.push_str("]\n}");
        let mut trace = serde_json::from_str::<Trace>(&envelope).ok()?;
        let mut ops = Vec::new();
        // A bound, not a count: only the records written occupy memory.
        if ops
            .try_reserve_exact((list_end - list_start) / MIN_OP_BYTES)
            .is_err()
        {
            ops = Vec::new();
        }
        let mut ops = op_records(&text[list_start..first_end], ops)?;
        let mut rest = second.join().ok()??;
        ops.append(&mut rest);
        trace.ops = ops;
        Some(trace)
    })
}

/// `ops` followed by the op records of `list`, the elements of a JSON list without its
/// brackets, read where they lie (the list is not copied).
fn op_records(mut list: &str, mut ops: Vec<OpRecord>) -> Option<Vec<OpRecord>> {
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

    /// `text` with the `dtype` at byte `at` made a number.
    fn bad_dtype_at(text: &str, at: usize) -> String {
        let field = "\"dtype\": \"float32\"";
        assert!(text[at..].starts_with(field));
        format!("{}\"dtype\": 32{}", &text[..at], &text[at + field.len()..])
    }

    #[test]
    fn a_large_canonical_trace_parses_in_halves_to_the_same_records() {
        let (trace, text) = big_trace_json();
        // `==`, not `assert_eq!`: a failure would print megabytes of records.
        assert!(parse_in_halves(&text) == Some(trace.clone()));
        // Trailing white space, even longer than the document, changes nothing.
        let padded = format!("{text}{}", " ".repeat(text.len()));
        assert!(parse_in_halves(&padded) == Some(trace));
    }

    #[test]
    fn odd_texts_are_refused_without_panicking() {
        // Two-byte characters, shifted by one byte: in one of the two the cut's starting
        // point falls inside a character.
        for shift in ["", "x"] {
            let wide = format!("{OPS_KEY}{shift}{}{CLOSING}", "é".repeat(MIN_BYTES));
            assert!(parse_in_halves(&wide).is_none());
        }
        // No ops key, or an empty ops list.
        let (_, text) = big_trace_json();
        assert!(parse_in_halves(&text.replacen(OPS_KEY, "\n  \"opz\": [", 1)).is_none());
        let list_start = text.find(OPS_KEY).unwrap() + OPS_KEY.len();
        let empty = format!("{}{CLOSING}", &text[..list_start]);
        assert!(parse_in_halves(&empty).is_none());
    }

    #[test]
    fn other_layouts_and_bad_records_are_left_to_the_one_pass_parse() {
        let (trace, text) = big_trace_json();
        // Compact JSON: no canonical line breaks.
        let compact = serde_json::to_string(&trace).unwrap();
        assert!(parse_in_halves(&compact).is_none());
        // `ops` not the last field (serde_json's maps sort keys: `version` comes last).
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let reordered = serde_json::to_string_pretty(&value).unwrap();
        assert!(reordered.trim_end().ends_with("\"version\": 1\n}"));
        assert!(parse_in_halves(&reordered).is_none());
        assert!(Trace::from_json(&reordered).unwrap() == trace);
        // A bad record in the envelope (a parameter), in the first ops and in the last op.
        let field = "\"dtype\": \"float32\"";
        let list_start = text.find(OPS_KEY).unwrap();
        let in_params = text.find(field).unwrap();
        let first_op = list_start + text[list_start..].find(field).unwrap();
        let last_op = text.rfind(field).unwrap();
        assert!(in_params < list_start);
        for at in [in_params, first_op, last_op] {
            assert!(
                parse_in_halves(&bad_dtype_at(&text, at)).is_none(),
                "at {at}"
            );
        }
        let error = Trace::from_json(&bad_dtype_at(&text, last_op))
            .unwrap_err()
            .to_string();
        let last = trace.ops.iter().rposition(|op| op.dtype.is_some()).unwrap();
        assert!(error.contains(&format!("ops[{last}].dtype")), "{error}");
    }
}
