//! The recorded fields the page shows on hover: every field of every operation, module and
//! module call, as the trace format writes them (pictures left out: the drawing shows them).

use serde_json::{json, Value};
use tl_trace_model::Trace;

/// `{ops: [...], modules: {address: record}, calls: {label: record}}` as JSON text.
pub(crate) fn records_json(trace: &Trace) -> String {
    let ops: Vec<Value> = trace
        .ops
        .iter()
        .map(|op| {
            let mut fields = serde_json::to_value(op).unwrap_or(Value::Null);
            if let Some(picture) = fields.get_mut("picture").filter(|p| !p.is_null()) {
                *picture = json!("(drawn in the node)");
            }
            fields
        })
        .collect();
    let modules: serde_json::Map<String, Value> = trace
        .modules
        .iter()
        .map(|m| {
            (
                m.address.clone(),
                serde_json::to_value(m).unwrap_or(Value::Null),
            )
        })
        .collect();
    let calls: serde_json::Map<String, Value> = trace
        .module_calls
        .iter()
        .map(|c| {
            let mut fields = serde_json::to_value(c).unwrap_or(Value::Null);
            // The op lists are long and the node already says what it holds.
            for list in ["ops", "output_ops"] {
                if let Some(ops) = fields.get_mut(list).and_then(Value::as_array_mut) {
                    let count = ops.len();
                    if count > 8 {
                        ops.truncate(8);
                        ops.push(json!(format!("... {count} in all")));
                    }
                }
            }
            (c.label.clone(), fields)
        })
        .collect();
    json!({ "ops": ops, "modules": modules, "calls": calls }).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_of_an_op_is_there_and_pictures_are_not() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/photo.json");
        let trace = Trace::load(path).unwrap();
        let records: Value = serde_json::from_str(&records_json(&trace)).unwrap();
        let ops = records["ops"].as_array().unwrap();
        assert_eq!(ops.len(), trace.ops.len());
        assert_eq!(ops[1]["label"], json!(trace.ops[1].label));
        assert!(ops[1].get("layer_type").is_some());
        let text = records.to_string();
        assert!(!text.contains("iVBOR"), "no PNG data in the records");
        assert!(records["modules"].as_object().unwrap().len() == trace.modules.len());
    }
}
