//! Reading and parsing a large trace on two threads. Reading copies the file from the page
//! cache into fresh memory; two threads, each copying half, take 38 ms where one takes 58
//! (161 MiB, measured on the two-space indented layout of earlier versions).
//!
//! Parsing: building the records is most of loading (a 100,000-op trace is 105 MiB of
//! JSON), so the four long lists (`params`, `modules`, `module_calls`, `ops`) are read
//! where they lie, record by record, and the ops list is cut in two at a line break between
//! two ops. One thread parses the first ops into
//! a vector reserved for the whole list (a bound: only what is written takes memory), the
//! one the trace keeps; the other the rest of the document (a small copy with those lists
//! emptied), the first three lists and the last ops, which are then moved behind the first.
//! The cut balances the threads, so the last ops are only those the other lists leave time
//! for (a quarter of the ops of the synthetic transformers): few records are copied, and no
//! vector grows by copying.
//!
//! The cuts rely on the canonical layout (the root's lists at two spaces, one record per
//! line; the fields in their declared order), which the adapter and `save` both write;
//! files in two-space pretty JSON, the layout of earlier versions, are cut the same way.
//! They are safe on any text: a JSON string cannot hold a raw line break, so every pattern
//! below falls between tokens; the rest of the document must parse as a trace, and each
//! list's contents must be records that exactly fill the range found for it. Anything else returns `None` and the
//! caller parses the text in one pass.

use std::io;
use std::ops::Range;
use std::path::Path;

use memchr::memmem;
use serde::de::DeserializeOwned;

use crate::records::{OpRecord, Trace};

/// From a quarter of a MiB (ResNet-50's trace and up) two threads parse faster than one: a
/// thread starts in well under a tenth of a millisecond, and such a text takes one thread
/// about two milliseconds (docs/performance.md, "Two threads from a quarter of a MiB").
pub(crate) const MIN_BYTES: usize = 256 << 10;
/// From 4 MiB a file that is read whole (not streamed) is read by two threads, as measured
/// (161 MiB: 58 -> 38 ms); the parsing line above was measured for parsing, not reading.
const MIN_READ_BYTES: usize = 4 << 20;
/// The line break between two records of a root list, in the canonical layout (one record
/// per line) and in two-space pretty JSON alike: `}` ends one, `{` starts the next.
pub(crate) const BETWEEN_OPS: &str = "},\n    {";
/// The line that closes a list of the root object.
const LIST_CLOSING: &str = "\n  ]";
/// Fewer bytes than the smallest op record (its required fields alone take more, written
/// compactly), so `bytes / MIN_OP_BYTES` bounds the number of records in `bytes` of the list.
const MIN_OP_BYTES: usize = 150;

/// The text of the file at `path`; a large file is read on two threads.
pub(crate) fn read_text(path: &Path) -> io::Result<String> {
    #[cfg(unix)]
    if let Some(text) = read_in_halves(path)? {
        return Ok(text);
    }
    std::fs::read_to_string(path)
}

/// The text of a large regular file, each half read by its own thread; `None` for a small
/// or special file, or one that changed size while read (the caller reads it in one go).
#[cfg(unix)]
fn read_in_halves(path: &Path) -> io::Result<Option<String>> {
    use std::os::unix::fs::FileExt;

    let file = std::fs::File::open(path)?;
    let metadata = file.metadata()?;
    let length = match usize::try_from(metadata.len()) {
        Ok(length) if metadata.is_file() && length >= MIN_READ_BYTES => length,
        _ => return Ok(None),
    };
    let mut bytes = vec![0; length];
    let (first, second) = bytes.split_at_mut(length / 2);
    let (second, first) = tl_threads::join(
        || file.read_exact_at(second, (length / 2) as u64),
        || file.read_exact_at(first, 0),
    );
    let read =
        first.and(second.unwrap_or_else(|_| Err(io::Error::other("the reading thread failed"))));
    match read {
        Err(error) if error.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(error) => return Err(error),
        Ok(()) => {}
    }
    if file.read_at(&mut [0], length as u64)? != 0 {
        return Ok(None);
    }
    String::from_utf8(bytes).map(Some).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        )
    })
}

/// The trace in `text`, parsed on two threads, or `None` when the text is small, not in
/// the canonical layout, or not a well-formed trace (the caller's one-pass parse then
/// decides, and names any error).
pub(crate) fn parse_in_halves(text: &str) -> Option<Trace> {
    if text.len() < MIN_BYTES {
        return None;
    }
    let params = list_contents(text, 0, "params")?;
    let modules = list_contents(text, params.end, "modules")?;
    let calls = list_contents(text, modules.end, "module_calls")?;
    let ops = list_contents(text, calls.end, "ops")?;
    // The other thread parses the first ops straight into the vector the trace keeps; this
    // one the other records, then the last ops, whose records are moved behind the first
    // (the fewer, the less is copied). Balance the two: the other records parse in about
    // three quarters of the time of as many bytes of op records.
    let others = text.len() - ops.len();
    let mut middle = (ops.start + (ops.len() + others * 3 / 4) / 2).min(ops.end);
    while !text.is_char_boundary(middle) {
        middle += 1;
    }
    // Every pattern is ASCII, so every index found is a character boundary.
    let (first_ops, last_ops) =
        match memmem::find(&text.as_bytes()[middle..ops.end], BETWEEN_OPS.as_bytes()) {
            Some(found) => {
                let cut = middle + found;
                (
                    ops.start..cut + BETWEEN_OPS.find('}')? + 1,
                    cut + BETWEEN_OPS.len() - 1..ops.end,
                )
            }
            // The other records outweigh the ops: the other thread takes them all.
            None => (ops.clone(), ops.end..ops.end),
        };
    let (first, rest) = tl_threads::join(
        || records::<OpRecord>(&text[first_ops.clone()], reserved(ops.len())),
        || {
            // The rest of the document, with the four lists emptied.
            let mut rest = String::with_capacity(others);
            let mut from = 0;
            for list in [&params, &modules, &calls, &ops] {
                rest.push_str(&text[from..list.start]);
                from = list.end;
            }
            rest.push_str(&text[from..]);
            let mut trace = serde_json::from_str::<Trace>(&rest).ok()?;
            trace.params = records(&text[params.clone()], Vec::new())?;
            trace.modules = records(&text[modules.clone()], Vec::new())?;
            trace.module_calls = records(&text[calls.clone()], Vec::new())?;
            let last = records(&text[last_ops.clone()], reserved(last_ops.len()))?;
            Some((trace, last))
        },
    );
    let (mut trace, mut last) = rest?;
    trace.ops = first.ok()??;
    trace.ops.append(&mut last);
    Some(trace)
}

/// An empty vector with room for every op record `bytes` of the list can hold, so that it
/// never grows by copying. A bound, not a count: only the records written occupy memory.
pub(crate) fn reserved<T>(bytes: usize) -> Vec<T> {
    let mut records = Vec::new();
    if records.try_reserve_exact(bytes / MIN_OP_BYTES).is_err() {
        records = Vec::new();
    }
    records
}

/// Where the contents of the root's list `key` lie (between its brackets), the key found
/// at or after `from`.
fn list_contents(text: &str, from: usize, key: &str) -> Option<Range<usize>> {
    let opening = format!("\n  \"{key}\": [");
    let start =
        from + memmem::find(text.get(from..)?.as_bytes(), opening.as_bytes())? + opening.len();
    if text[start..].starts_with(']') {
        return Some(start..start);
    }
    let end = start + memmem::find(&text.as_bytes()[start..], LIST_CLOSING.as_bytes())?;
    Some(start..end)
}

/// `into` followed by the records of `list`, the elements of a JSON list without its
/// brackets, read where they lie (the list is not copied).
fn records<T: DeserializeOwned>(list: &str, mut into: Vec<T>) -> Option<Vec<T>> {
    let mut list = list.trim_start();
    while !list.is_empty() {
        let mut stream = serde_json::Deserializer::from_str(list).into_iter::<T>();
        into.push(stream.next()?.ok()?);
        list = list[stream.byte_offset()..].trim_start();
        if !list.is_empty() {
            list = list.strip_prefix(',')?.trim_start();
            if list.is_empty() {
                return None;
            }
        }
    }
    Some(into)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synthetic::transformer_of_size;

    fn big_trace_json() -> (Trace, String) {
        let trace = transformer_of_size(4_000);
        let text = trace.to_json();
        assert!(text.len() > MIN_READ_BYTES, "{} bytes", text.len());
        (trace, text)
    }

    #[test]
    fn a_large_file_is_read_whole_on_two_threads_and_must_be_utf8() {
        let (_, text) = big_trace_json();
        // A character of three bytes across the middle, where the two reads meet.
        let middle = text.len() / 2;
        let at = (middle - 1..).find(|&i| text.is_char_boundary(i)).unwrap();
        let text = format!("{}\u{20AC}{}", &text[..at], &text[at..]);
        assert!(!text.is_char_boundary(text.len() / 2));
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("big.json");
        std::fs::write(&path, &text).unwrap();
        assert!(read_in_halves(&path).unwrap().is_some());
        assert!(read_text(&path).unwrap() == text);

        let mut bytes = text.into_bytes();
        bytes[middle + 100] = 0xFF;
        std::fs::write(&path, &bytes).unwrap();
        let error = read_text(&path).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidData, "{error}");

        // Small files, and files that are not regular ones, are read in one go.
        let small = folder.path().join("small.json");
        std::fs::write(&small, "{}").unwrap();
        assert!(read_in_halves(&small).unwrap().is_none());
        assert_eq!(read_text(&small).unwrap(), "{}");
        assert!(read_in_halves(folder.path()).unwrap().is_none());
    }

    /// `text` with the `dtype` at byte `at` made a number.
    fn bad_dtype_at(text: &str, at: usize) -> String {
        assert!(text[at..].starts_with(DTYPE));
        format!("{}\"dtype\":32{}", &text[..at], &text[at + DTYPE.len()..])
    }

    /// A field of most op records, as the canonical layout writes it.
    const DTYPE: &str = "\"dtype\":\"float32\"";

    #[test]
    fn a_large_canonical_trace_parses_in_halves_to_the_same_records() {
        let (trace, text) = big_trace_json();
        // `==`, not `assert_eq!`: a failure would print megabytes of records.
        assert!(parse_in_halves(&text) == Some(trace.clone()));
        // Two-space pretty JSON, the canonical layout of earlier versions, too.
        let mut pretty = serde_json::to_string_pretty(&trace).unwrap();
        pretty.push('\n');
        assert!(parse_in_halves(&pretty) == Some(trace.clone()));
        // Trailing white space, even longer than the document, changes nothing.
        let padded = format!("{text}{}", " ".repeat(text.len()));
        assert!(parse_in_halves(&padded) == Some(trace));
    }

    #[test]
    fn fields_after_the_ops_and_empty_lists_are_found() {
        let (trace, text) = big_trace_json();
        let with_tail = text.replacen("\n  ]\n}", "\n  ],\n  \"conditionals\": []\n}", 1);
        assert_ne!(with_tail, text);
        assert!(parse_in_halves(&with_tail) == Some(trace));
        let lists = "{\n  \"params\": [],\n  \"modules\": [\n    {}\n  ]\n}";
        let params = list_contents(lists, 0, "params").unwrap();
        assert!(params.is_empty());
        let modules = list_contents(lists, params.end, "modules").unwrap();
        assert_eq!(&lists[modules.clone()], "\n    {}");
        assert_eq!(list_contents(lists, modules.end, "params"), None);
    }

    #[test]
    fn odd_texts_are_refused_without_panicking() {
        // Two-byte characters, shifted by one byte: in one of the two the cut's starting
        // point falls inside a character.
        let lists = "{\n  \"params\": [],\n  \"modules\": [],\n  \"module_calls\": [],";
        for shift in ["", "x"] {
            let ops = "é".repeat(MIN_BYTES);
            let wide = format!("{lists}\n  \"ops\": [{shift}{ops}\n  ]\n}}");
            assert!(parse_in_halves(&wide).is_none());
        }
        // No ops key: refused. An empty ops list: nothing to cut, the trace one pass reads.
        let (_, text) = big_trace_json();
        let ops_key = "\n  \"ops\": [";
        assert!(parse_in_halves(&text.replacen(ops_key, "\n  \"opz\": [", 1)).is_none());
        let list_start = text.find(ops_key).unwrap() + ops_key.len();
        let empty = format!("{}]\n}}", &text[..list_start]);
        assert!(empty.len() >= MIN_BYTES, "{} bytes", empty.len());
        let one_pass = serde_json::from_str::<Trace>(&empty).unwrap();
        assert!(one_pass.ops.is_empty());
        assert!(parse_in_halves(&empty) == Some(one_pass));
        // A list that does not end where its closing line says.
        let broken = text.replacen(BETWEEN_OPS, "}\n  ]\n    {", 1);
        assert!(parse_in_halves(&broken).is_none());
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
        let list_start = text.find("\n  \"ops\": [").unwrap();
        let in_params = text.find(DTYPE).unwrap();
        let first_op = list_start + text[list_start..].find(DTYPE).unwrap();
        let last_op = text.rfind(DTYPE).unwrap();
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
