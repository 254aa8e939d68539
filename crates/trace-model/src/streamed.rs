//! Loading a large canonical trace straight from its file on two threads, without holding
//! its text. Each thread reads its part of the file through a buffer of a few MiB and
//! parses the records as they arrive: the text of a 100,000-op trace (105 MiB) never sits
//! in memory whole (peak memory 525 to 362 MiB), and no thread waits for the whole file to
//! be read before parsing.
//!
//! The thread that starts at the top reads the rest of the document, the `params`,
//! `modules` and `module_calls` lists and the first ops; the other starts at a fixed
//! fraction of the file, skips to the first line break between two op records and parses
//! the remaining ops, then keeps the text after the list. Where the second part starts is
//! sent to the first before either parses anything but one record, so a file whose ops do
//! not reach that far is given back at once; either thread stops reading once the other
//! gave up.
//!
//! The same layout rules and safety argument as [`crate::halves`]: every pattern falls
//! between tokens (a JSON string cannot hold a raw line break), the rest of the document
//! must parse as a trace, each list's records must fill it exactly, and the first part must
//! end exactly where the second begins. Anything else returns `None` and the caller reads
//! the whole text.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use memchr::memmem;
use serde::de::DeserializeOwned;

use crate::halves::{reserved, BETWEEN_OPS, MIN_BYTES};
use crate::records::{ModuleCallRecord, ModuleRecord, OpRecord, ParamRecord, Trace};

/// Bytes read at a time (1 MiB measured the same).
const CHUNK_BYTES: usize = 4 << 20;
/// How every canonical trace begins.
const TRACE_START: &str = "{\n  \"format\": \"tl-trace\",";

/// The trace in the file at `path`, or `None` when the file is small, not a canonical trace,
/// or changed while read (the caller then reads the whole text, and names any error).
pub(crate) fn load(path: &Path) -> io::Result<Option<Trace>> {
    load_in_chunks(path, CHUNK_BYTES)
}

/// [`load`], reading `chunk` bytes at a time.
fn load_in_chunks(path: &Path, chunk: usize) -> io::Result<Option<Trace>> {
    let file = File::open(path)?;
    let metadata = file.metadata()?;
    let length = metadata.len();
    if !metadata.is_file() || length < MIN_BYTES as u64 {
        return Ok(None);
    }
    // Balanced for a trace whose ops are half its bytes: the first thread's other records
    // parse in about three quarters of the time of as many bytes of ops.
    let split = length / 2 + length / 16;
    let given_up = AtomicBool::new(false);
    let (cut_sender, cut) = mpsc::channel();
    let parts = std::thread::scope(|scope| {
        // Not `tl_threads::join`: the first part waits for the cut the last part finds, so
        // the two cannot run in turn. Without a second thread the caller reads the file whole.
        let started = std::thread::Builder::new().spawn_scoped(scope, || {
            let mut stream = Stream::new(&file, &given_up, split, length, chunk);
            let part = last_part(&mut stream, cut_sender);
            if !matches!(part, Ok(Some(_))) {
                given_up.store(true, Ordering::Relaxed);
            }
            part
        });
        let Ok(last) = started else {
            return Ok(None);
        };
        let mut stream = Stream::new(&file, &given_up, 0, length, chunk);
        let first = first_part(&mut stream, &cut);
        if !matches!(first, Ok(Some(_))) {
            given_up.store(true, Ordering::Relaxed);
        }
        let last = last
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the parsing thread failed")));
        first.and_then(|first| last.map(|last| first.zip(last)))
    });
    let (first, (mut ops, tail)) = match parts {
        Ok(Some(parts)) => parts,
        Ok(None) => return Ok(None),
        // The file shrank while read.
        Err(error) if error.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(error) => return Err(error),
    };
    let FirstPart {
        mut rest,
        params,
        modules,
        module_calls,
        ops: first_ops,
    } = first;
    rest.push_str(&tail);
    let Ok(mut trace) = serde_json::from_str::<Trace>(&rest) else {
        return Ok(None);
    };
    trace.params = params;
    trace.modules = modules;
    trace.module_calls = module_calls;
    // The second part's vector has room for every op: the first ops go in front of the
    // others, which move once within it.
    ops.splice(0..0, first_ops);
    trace.ops = ops;
    Ok(Some(trace))
}

/// What the thread that starts at the top parsed.
struct FirstPart {
    /// The document outside the lists, up to the end of the ops list.
    rest: String,
    params: Vec<ParamRecord>,
    modules: Vec<ModuleRecord>,
    module_calls: Vec<ModuleCallRecord>,
    /// The ops up to where the second part starts.
    ops: Vec<OpRecord>,
}

/// The top of the file down to `cut` (received from the other thread).
fn first_part(stream: &mut Stream<'_>, cut: &mpsc::Receiver<u64>) -> io::Result<Option<FirstPart>> {
    while stream.unread().len() < TRACE_START.len() {
        if !stream.fill()? {
            return Ok(None);
        }
    }
    if !stream.unread().starts_with(TRACE_START) {
        return Ok(None);
    }
    // The other thread drops its sender when it gives up.
    let Ok(cut) = cut.recv() else {
        return Ok(None);
    };
    let mut rest = String::new();
    let Some(params) = stream.list_after("params", &mut rest, None)? else {
        return Ok(None);
    };
    let Some(modules) = stream.list_after("modules", &mut rest, None)? else {
        return Ok(None);
    };
    let Some(module_calls) = stream.list_after("module_calls", &mut rest, None)? else {
        return Ok(None);
    };
    let Some(ops) = stream.list_after("ops", &mut rest, Some(cut))? else {
        return Ok(None);
    };
    Ok(Some(FirstPart {
        rest,
        params,
        modules,
        module_calls,
        ops,
    }))
}

/// The ops from the first line break between two ops in `stream`, and the text after the
/// list. Where they start is sent on `cut` once the first of them parsed as an op.
fn last_part(
    stream: &mut Stream<'_>,
    cut: mpsc::Sender<u64>,
) -> io::Result<Option<(Vec<OpRecord>, String)>> {
    if !stream.skip_to(BETWEEN_OPS, None)? {
        return Ok(None);
    }
    let first_ends = stream.position() + BETWEEN_OPS.find('}').unwrap_or(0) as u64 + 1;
    stream.advance(BETWEEN_OPS.len() - 1);
    let Some(first) = stream.record::<OpRecord>()? else {
        return Ok(None);
    };
    // A send fails only when the other thread has given up already.
    if cut.send(first_ends).is_err() {
        return Ok(None);
    }
    let mut ops = reserved(usize::try_from(stream.end).unwrap_or(usize::MAX));
    ops.push(first);
    let Some(ops) = stream.list_from(ops, true, None)? else {
        return Ok(None);
    };
    let mut tail = String::new();
    loop {
        tail.push_str(stream.unread());
        stream.advance(stream.unread().len());
        if !stream.fill()? {
            return Ok(Some((ops, tail)));
        }
    }
}

/// A part of a file, read a chunk at a time into a text buffer.
struct Stream<'f> {
    file: &'f File,
    /// Set when either thread gave up: reading stops.
    given_up: &'f AtomicBool,
    /// File offset of `text`'s first byte.
    offset: u64,
    /// Where the part ends in the file.
    end: u64,
    /// Read text; what precedes `at` is consumed.
    text: String,
    at: usize,
    /// The first bytes of a character the last read cut in two.
    partial: Vec<u8>,
    /// The read buffer.
    bytes: Vec<u8>,
    chunk: usize,
    /// Nothing read yet.
    fresh: bool,
}

impl<'f> Stream<'f> {
    fn new(
        file: &'f File,
        given_up: &'f AtomicBool,
        start: u64,
        end: u64,
        chunk: usize,
    ) -> Stream<'f> {
        Stream {
            file,
            given_up,
            offset: start,
            end,
            text: String::new(),
            at: 0,
            partial: Vec::new(),
            bytes: Vec::new(),
            chunk,
            fresh: true,
        }
    }

    /// The file offset of the next unconsumed byte.
    fn position(&self) -> u64 {
        self.offset + self.at as u64
    }

    /// The text read and not yet consumed.
    fn unread(&self) -> &str {
        &self.text[self.at..]
    }

    fn advance(&mut self, bytes: usize) {
        self.at += bytes;
    }

    /// Reads the next chunk behind the unconsumed text; `false` at the end of the part, or
    /// when either thread gave up.
    fn fill(&mut self) -> io::Result<bool> {
        if self.given_up.load(Ordering::Relaxed) {
            return Ok(false);
        }
        self.text.drain(..self.at);
        self.offset += self.at as u64;
        self.at = 0;
        let from = self.offset + (self.text.len() + self.partial.len()) as u64;
        if from >= self.end {
            // A character cut off by the end of the file is not UTF-8.
            return if self.partial.is_empty() {
                Ok(false)
            } else {
                Err(invalid_utf8())
            };
        }
        let length = (self.end - from).min(self.chunk as u64) as usize;
        self.bytes.clear();
        self.bytes.append(&mut self.partial);
        let start = self.bytes.len();
        self.bytes.resize(start + length, 0);
        self.file.read_exact_at(&mut self.bytes[start..], from)?;
        // A part may start inside a character, and a read may end inside one.
        let skip = if std::mem::take(&mut self.fresh) {
            self.bytes
                .iter()
                .take(3)
                .take_while(|&&byte| byte & 0xC0 == 0x80)
                .count()
        } else {
            0
        };
        self.offset += skip as u64;
        let read = &self.bytes[skip..];
        let valid = match std::str::from_utf8(read) {
            Ok(text) => text,
            Err(error) if error.error_len().is_none() => {
                let (whole, cut) = read.split_at(error.valid_up_to());
                self.partial.extend_from_slice(cut);
                std::str::from_utf8(whole).map_err(|_| invalid_utf8())?
            }
            Err(_) => return Err(invalid_utf8()),
        };
        self.text.push_str(valid);
        Ok(true)
    }

    /// Consumes the text up to `pattern` (copied to `copy`, when given), reading on as
    /// needed; `false` when the part ends first.
    fn skip_to(&mut self, pattern: &str, mut copy: Option<&mut String>) -> io::Result<bool> {
        loop {
            if let Some(found) = memmem::find(self.unread().as_bytes(), pattern.as_bytes()) {
                if let Some(copy) = copy.as_deref_mut() {
                    copy.push_str(&self.unread()[..found]);
                }
                self.advance(found);
                return Ok(true);
            }
            // Keep what could be the pattern's beginning for the next read.
            let mut keep_from = self.unread().len().saturating_sub(pattern.len() - 1);
            while !self.unread().is_char_boundary(keep_from) {
                keep_from -= 1;
            }
            if let Some(copy) = copy.as_deref_mut() {
                copy.push_str(&self.unread()[..keep_from]);
            }
            self.advance(keep_from);
            if !self.fill()? {
                return Ok(false);
            }
        }
    }

    /// Consumes JSON white space; `false` when the part ends first.
    fn skip_white_space(&mut self) -> io::Result<bool> {
        loop {
            let unread = self.unread();
            let white = unread.len() - unread.trim_start_matches([' ', '\t', '\n', '\r']).len();
            self.advance(white);
            if !self.unread().is_empty() {
                return Ok(true);
            }
            if !self.fill()? {
                return Ok(false);
            }
        }
    }

    /// The record that starts here (after white space), reading on while it is cut off.
    fn record<T: DeserializeOwned>(&mut self) -> io::Result<Option<T>> {
        if !self.skip_white_space()? {
            return Ok(None);
        }
        loop {
            let mut records = serde_json::Deserializer::from_str(self.unread()).into_iter::<T>();
            match records.next() {
                Some(Ok(record)) => {
                    let length = records.byte_offset();
                    self.advance(length);
                    return Ok(Some(record));
                }
                Some(Err(error)) if error.is_eof() => {
                    if !self.fill()? {
                        return Ok(None);
                    }
                }
                _ => return Ok(None),
            }
        }
    }

    /// The records of the root's list `key`, the text before it copied to `rest` with the
    /// list left empty. With `until`, the list must reach that file offset, where a record
    /// ends and another thread takes over.
    fn list_after<T: DeserializeOwned>(
        &mut self,
        key: &str,
        rest: &mut String,
        until: Option<u64>,
    ) -> io::Result<Option<Vec<T>>> {
        let opening = format!("\n  \"{key}\": [");
        if !self.skip_to(&opening, Some(rest))? {
            return Ok(None);
        }
        rest.push_str(&opening);
        rest.push(']');
        self.advance(opening.len());
        let into = match until {
            Some(until) => reserved(usize::try_from(until - self.position()).unwrap_or(0)),
            None => Vec::new(),
        };
        self.list_from(into, false, until)
    }

    /// Records of a list, appended to `into`; `after_record` when a record was just read.
    /// Ends after the closing `]`, or at `until`.
    fn list_from<T: DeserializeOwned>(
        &mut self,
        mut into: Vec<T>,
        mut after_record: bool,
        until: Option<u64>,
    ) -> io::Result<Option<Vec<T>>> {
        loop {
            if after_record {
                if until.is_some_and(|until| self.position() >= until) {
                    return Ok((until == Some(self.position())).then_some(into));
                }
                if !self.skip_white_space()? {
                    return Ok(None);
                }
                match self.unread().as_bytes()[0] {
                    b',' => self.advance(1),
                    // A list meant to reach `until` must not end before it.
                    b']' if until.is_none() => {
                        self.advance(1);
                        return Ok(Some(into));
                    }
                    _ => return Ok(None),
                }
            } else {
                if !self.skip_white_space()? {
                    return Ok(None);
                }
                if until.is_none() && self.unread().starts_with(']') {
                    self.advance(1);
                    return Ok(Some(into));
                }
            }
            let Some(record) = self.record()? else {
                return Ok(None);
            };
            into.push(record);
            after_record = true;
        }
    }
}

fn invalid_utf8() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        "stream did not contain valid UTF-8",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synthetic::transformer_of_size;

    /// A large trace whose texts hold characters of two and three bytes, so that reads cut
    /// some of them in two.
    fn big_trace() -> Trace {
        let mut trace = transformer_of_size(4_000);
        for op in &mut trace.ops {
            op.func_name = format!("{}·é€", op.func_name);
        }
        trace
    }

    /// A field of most op records, as the canonical layout writes it.
    const DTYPE: &str = "\"dtype\":\"float32\"";

    fn written(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("trace.json");
        std::fs::write(&path, text).unwrap();
        (folder, path)
    }

    #[test]
    fn a_large_canonical_trace_streams_to_the_same_records_whatever_the_read_size() {
        let trace = big_trace();
        let text = trace.to_json();
        assert!(text.len() > MIN_BYTES);
        let (_folder, path) = written(&text);
        // `==`, not `assert_eq!`: a failure would print megabytes of records.
        for chunk in [CHUNK_BYTES, 1 << 16, 4099, 97] {
            assert!(
                load_in_chunks(&path, chunk).unwrap() == Some(trace.clone()),
                "{chunk}"
            );
        }
        // Two-space pretty JSON, the canonical layout of earlier versions, too.
        let mut pretty = serde_json::to_string_pretty(&trace).unwrap();
        pretty.push('\n');
        let (_folder, path) = written(&pretty);
        assert!(load_in_chunks(&path, 1 << 16).unwrap() == Some(trace.clone()));
        // Fields after the ops list are kept.
        let with_tail = text.replacen("\n  ]\n}", "\n  ],\n  \"conditionals\": []\n}", 1);
        assert_ne!(with_tail, text);
        let (_folder, path) = written(&with_tail);
        assert!(load_in_chunks(&path, 1 << 16).unwrap() == Some(trace));
    }

    #[test]
    fn other_files_are_given_back_for_a_whole_read() {
        let text = big_trace().to_json();
        let cases = [
            // Small.
            "{}".to_owned(),
            // Not in the canonical layout.
            serde_json::to_string(&serde_json::from_str::<serde_json::Value>(&text).unwrap())
                .unwrap(),
            // The ops end before the second part would start.
            format!("{text}{}", " ".repeat(text.len())),
            // A bad record in the first part, and in the second.
            text.replacen(DTYPE, "\"dtype\":32", 1),
            {
                let at = text.rfind(DTYPE).unwrap();
                format!("{}\"dtype\":32{}", &text[..at], &text[at + DTYPE.len()..])
            },
            // So few ops that the second part would start among the module calls.
            {
                let mut value = serde_json::to_value(transformer_of_size(12_000)).unwrap();
                value["ops"].as_array_mut().unwrap().truncate(3);
                let mut few = serde_json::to_string_pretty(&value).unwrap();
                few.push('\n');
                assert!(few.len() > MIN_BYTES);
                few
            },
            // Not a trace.
            text.replacen("\"tl-trace\"", "\"tl-bundle\"", 1),
        ];
        for (case, bad) in cases.iter().enumerate() {
            let (_folder, path) = written(bad);
            assert!(
                load_in_chunks(&path, 1 << 16).unwrap().is_none(),
                "case {case}"
            );
        }
        // Invalid UTF-8 is refused, inside the file or cut off at its end.
        let mut bytes = text.into_bytes();
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("trace.json");
        let mut cut_off = bytes.clone();
        cut_off.push(0xE2);
        let middle = bytes.len() / 2;
        bytes[middle] = 0xFF;
        for bad in [bytes, cut_off] {
            std::fs::write(&path, &bad).unwrap();
            let error = load_in_chunks(&path, 1 << 16).unwrap_err();
            assert_eq!(error.kind(), io::ErrorKind::InvalidData);
        }
    }

    #[test]
    fn the_second_part_starts_at_the_first_op_after_the_split_even_inside_a_character() {
        let text = big_trace().to_json();
        let (_folder, path) = written(&text);
        let file = File::open(&path).unwrap();
        // Every start inside the 3-byte `€`, and just after it.
        let euro = text.find('€').unwrap() as u64;
        for start in euro + 1..=euro + 3 {
            let given_up = AtomicBool::new(false);
            let mut stream = Stream::new(&file, &given_up, start, text.len() as u64, 64);
            assert!(stream.skip_to(BETWEEN_OPS, None).unwrap());
            let position = stream.position() as usize;
            assert!(position > start as usize);
            assert_eq!(&text[position..position + BETWEEN_OPS.len()], BETWEEN_OPS);
        }
    }
}
