//! The recorded fields the page shows on hover: every field of every operation, module and
//! module call, as the trace format writes them (pictures left out: the drawing shows them).
//!
//! Invariant: memory stays within a small factor of one record, whatever the trace's size:
//! the records are written one at a time into the gzip stream the page carries (building
//! them all as JSON values first took 1.3 GB for 100,000 operations).

use std::collections::BTreeMap;
use std::io::Write;

use serde::Serialize;
use serde_json::{json, Value};
use tl_drawing::{DrawError, Gzipped};
use tl_trace_model::Trace;

/// The most JSON text of records a page may carry. The viewer unpacks them into one string
/// and parses it: browsers cap a string near 512 MB (V8: 2^29 characters) and need several
/// times its size to parse it, so a page over this would not open.
pub const MAX_RECORDS_BYTES: u64 = 256 << 20;

/// `{calls: {label: record}, modules: {address: record}, ops: [...]}` as JSON text (keys
/// in order, as serde_json writes a map), gzip-compressed; refused (`page_too_large`) as
/// soon as the text passes `limit` bytes.
pub(crate) fn records_gzipped(trace: &Trace, limit: u64) -> Result<Vec<u8>, DrawError> {
    let mut out = Limited {
        inner: Gzipped::fast(),
        written: 0,
        limit,
    };
    match write_records(trace, &mut out) {
        Ok(()) => out.inner.finish(),
        Err(_) if out.written > limit => Err(DrawError::output(
            "page_too_large",
            format!(
                "the interactive page of this trace would carry over {} MB of recorded fields ({} operations), more than a browser can open; write a static drawing instead (.svg, .pdf or .png), folded or focused on one module as needed",
                limit >> 20,
                trace.ops.len(),
            ),
        )),
        Err(error) => Err(DrawError::output(
            "output_write_failed",
            format!("writing the page's records failed: {error}"),
        )),
    }
}

/// A writer that fails once more than `limit` bytes were written to it.
struct Limited<W> {
    inner: W,
    written: u64,
    limit: u64,
}

impl<W: Write> Write for Limited<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.written += bytes.len() as u64;
        if self.written > self.limit {
            return Err(std::io::Error::other("over the page's limit"));
        }
        self.inner.write(bytes)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

fn write_records(trace: &Trace, out: &mut impl Write) -> std::io::Result<()> {
    let calls: BTreeMap<&str, _> = trace
        .module_calls
        .iter()
        .map(|call| (call.label.as_str(), call))
        .collect();
    let modules: BTreeMap<&str, _> = trace
        .modules
        .iter()
        .map(|module| (module.address.as_str(), module))
        .collect();
    out.write_all(b"{\"calls\":{")?;
    for (n, (label, call)) in calls.into_iter().enumerate() {
        entry(out, n, label, &call_fields(call))?;
    }
    out.write_all(b"},\"modules\":{")?;
    for (n, (address, module)) in modules.into_iter().enumerate() {
        entry(out, n, address, &fields_of(module))?;
    }
    out.write_all(b"},\"ops\":[")?;
    for (n, op) in trace.ops.iter().enumerate() {
        if n > 0 {
            out.write_all(b",")?;
        }
        let mut fields = fields_of(op);
        if let Some(picture) = fields.get_mut("picture").filter(|p| !p.is_null()) {
            *picture = json!("(drawn in the node)");
        }
        serde_json::to_writer(&mut *out, &fields)?;
    }
    out.write_all(b"]}")
}

/// `"key":value` of an object, after a comma unless it is the first (`n` = 0).
fn entry(out: &mut impl Write, n: usize, key: &str, value: &Value) -> std::io::Result<()> {
    if n > 0 {
        out.write_all(b",")?;
    }
    serde_json::to_writer(&mut *out, key)?;
    out.write_all(b":")?;
    serde_json::to_writer(&mut *out, value)?;
    Ok(())
}

/// A record as a JSON value (its fields in key order).
fn fields_of(record: &impl Serialize) -> Value {
    serde_json::to_value(record).unwrap_or(Value::Null)
}

/// A module call's fields, its long op lists cut: the node already says what it holds.
fn call_fields(call: &impl Serialize) -> Value {
    let mut fields = fields_of(call);
    for list in ["ops", "output_ops"] {
        if let Some(ops) = fields.get_mut(list).and_then(Value::as_array_mut) {
            let count = ops.len();
            if count > 8 {
                ops.truncate(8);
                ops.push(json!(format!("... {count} in all")));
            }
        }
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    fn records(trace: &Trace) -> Value {
        let bytes = records_gzipped(trace, MAX_RECORDS_BYTES).unwrap();
        let mut text = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut text)
            .unwrap();
        serde_json::from_str(&text).unwrap()
    }

    #[test]
    fn every_field_of_an_op_is_there_and_pictures_are_not() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/photo.json");
        let trace = Trace::load(path).unwrap();
        let records = records(&trace);
        let ops = records["ops"].as_array().unwrap();
        assert_eq!(ops.len(), trace.ops.len());
        assert_eq!(ops[1]["label"], json!(trace.ops[1].label));
        assert!(ops[1].get("layer_type").is_some());
        let text = records.to_string();
        assert!(!text.contains("iVBOR"), "no PNG data in the records");
        assert!(records["modules"].as_object().unwrap().len() == trace.modules.len());
    }

    #[test]
    fn records_over_the_limit_are_refused_as_soon_as_they_pass_it() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../fixtures/real/gpt2_small.json"
        );
        let trace = Trace::load(path).unwrap();
        let error = records_gzipped(&trace, 100_000).unwrap_err();
        assert_eq!(error.code(), "page_too_large");
        assert!(error.to_string().contains(".svg, .pdf or .png"), "{error}");
        assert!(records_gzipped(&trace, 10_000_000).is_ok());
    }

    #[test]
    fn calls_and_modules_are_keyed_and_long_op_lists_cut() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../fixtures/real/gpt2_small.json"
        );
        let trace = Trace::load(path).unwrap();
        let records = records(&trace);
        let calls = records["calls"].as_object().unwrap();
        assert_eq!(calls.len(), trace.module_calls.len());
        let longest = trace
            .module_calls
            .iter()
            .max_by_key(|c| c.ops.len())
            .unwrap();
        let shown = calls[&longest.label]["ops"].as_array().unwrap();
        assert_eq!(shown.len(), 9, "8 ops and the count");
        assert_eq!(shown[8], json!(format!("... {} in all", longest.ops.len())));
        for module in &trace.modules {
            assert_eq!(
                records["modules"][&module.address]["address"],
                json!(module.address)
            );
        }
    }
}
