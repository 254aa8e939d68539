//! The argument row: which captured arguments are shown, in what order, and how values
//! read (the guide's argument row ("Reading a node"), with the guide's rule that defaults are never shown).

use tl_trace_model::{ArgValue, OpRecord};

/// Constructor argument order of the module behind each op type; other keys follow in
/// stored order.
fn constructor_order(layer_type: &str) -> &'static [&'static str] {
    if layer_type == "linear" {
        &["in_features", "out_features", "bias"]
    } else if layer_type.starts_with("conv") || layer_type == "convolution" {
        &[
            "in_channels",
            "out_channels",
            "kernel_size",
            "stride",
            "padding",
            "output_padding",
            "dilation",
            "groups",
            "bias",
            "padding_mode",
        ]
    } else if layer_type.starts_with("batchnorm") || layer_type.starts_with("instancenorm") {
        &[
            "num_features",
            "eps",
            "momentum",
            "affine",
            "track_running_stats",
        ]
    } else if layer_type == "layernorm" {
        &["normalized_shape", "eps", "elementwise_affine", "bias"]
    } else if layer_type == "embedding" {
        &[
            "num_embeddings",
            "embedding_dim",
            "padding_idx",
            "max_norm",
            "norm_type",
        ]
    } else if layer_type.starts_with("maxpool") || layer_type.starts_with("avgpool") {
        &["kernel_size", "stride", "padding", "dilation", "ceil_mode"]
    } else {
        &[]
    }
}

/// Constructor defaults TorchLens 2.36.1 still records; the guide shows only arguments
/// that differ from their defaults.
fn is_default(layer_type: &str, key: &str, value: &ArgValue) -> bool {
    let number = match value {
        ArgValue::Float(v) => *v,
        ArgValue::Int(v) => *v as f64,
        _ => return false,
    };
    let norm = layer_type.starts_with("batchnorm")
        || layer_type.starts_with("instancenorm")
        || layer_type == "layernorm"
        || layer_type == "groupnorm";
    let default = match (key, layer_type) {
        ("eps", _) if norm => 1e-5,
        ("momentum", _)
            if layer_type.starts_with("batchnorm") || layer_type.starts_with("instancenorm") =>
        {
            0.1
        }
        ("p", t) if t.contains("dropout") => 0.5,
        ("negative_slope", "leakyrelu") => 0.01,
        ("alpha", "elu") => 1.0,
        ("min_val", "hardtanh") => -1.0,
        // nn.Embedding(padding_idx=None) reaches F.embedding as -1.
        ("padding_idx", "embedding") => -1.0,
        ("max_val", "hardtanh") => 1.0,
        _ => return false,
    };
    (number - default).abs() <= 1e-12 * default.abs().max(1.0)
}

/// The shape dimension an argument duplicates, when this trace shows it.
fn is_redundant(op: &OpRecord, parent_shape: Option<&[u64]>, key: &str, value: &ArgValue) -> bool {
    let own = op.shape.as_deref().unwrap_or(&[]);
    let t = op.layer_type.as_str();
    let int = |v: &ArgValue| match v {
        ArgValue::Int(n) => u64::try_from(*n).ok(),
        _ => None,
    };
    let dim = |shape: Option<&[u64]>, index: usize| shape.and_then(|s| s.get(index).copied());
    let last = |shape: Option<&[u64]>| shape.and_then(|s| s.last().copied());
    let conv = t.starts_with("conv") || t == "convolution";
    let expected = match key {
        "in_features" if t == "linear" => last(parent_shape),
        "out_features" if t == "linear" => last(Some(own)),
        "in_channels" if conv => dim(parent_shape, 1),
        "out_channels" if conv => dim(Some(own), 1),
        "num_features" if t.starts_with("batchnorm") || t.starts_with("instancenorm") => {
            dim(Some(own), 1)
        }
        "embedding_dim" if t == "embedding" => last(Some(own)),
        "embed_dim" if t.starts_with("multiheadattention") => last(Some(own)),
        "normalized_shape" if t == "layernorm" => {
            let wanted: Option<Vec<u64>> = match value {
                ArgValue::List(items) => items.iter().map(int).collect(),
                other => int(other).map(|n| vec![n]),
            };
            return wanted.is_some_and(|w| own.ends_with(&w));
        }
        _ => None,
    };
    expected.is_some() && expected == int(value)
}

/// A value as Python's `str()` writes it: `(3, 3)`, `1e-05`, `True`, `None`.
pub fn value_text(value: &ArgValue) -> String {
    match value {
        ArgValue::Null => "None".to_owned(),
        ArgValue::Bool(true) => "True".to_owned(),
        ArgValue::Bool(false) => "False".to_owned(),
        ArgValue::Int(n) => n.to_string(),
        ArgValue::Float(x) => python_float(*x),
        ArgValue::Text(text) => text.clone(),
        ArgValue::List(items) => {
            let parts: Vec<String> = items.iter().map(value_text).collect();
            if parts.len() == 1 {
                format!("({},)", parts[0])
            } else {
                format!("({})", parts.join(", "))
            }
        }
    }
}

/// Python's `repr(float)`: shortest round-trip digits, scientific below 1e-4 and from 1e16.
pub fn python_float(value: f64) -> String {
    if let Some(text) = crate::format::non_finite(value) {
        return text.to_owned();
    }
    let scientific = format!("{value:e}");
    let (mantissa, exponent) = scientific
        .split_once('e')
        .expect("LowerExp writes an exponent");
    let exponent: i32 = exponent.parse().expect("LowerExp exponents are integers");
    if (-4..16).contains(&exponent) {
        let plain = value.to_string();
        if plain.contains('.') {
            plain
        } else {
            format!("{plain}.0")
        }
    } else {
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exponent.abs())
    }
}

/// The argument row of `op` (`kernel_size=(3, 3), padding=(1, 1)`), or `None` when empty.
/// `parent_shape` is the output shape of the op's single parent, if it has exactly one.
pub fn argument_row(
    op: &OpRecord,
    parent_shape: Option<&[u64]>,
    show_redundant: bool,
) -> Option<String> {
    let order = constructor_order(&op.layer_type);
    let mut keys: Vec<&String> = op.args.keys().collect();
    keys.sort_by_key(|key| {
        order
            .iter()
            .position(|known| known == key)
            .unwrap_or(order.len())
    });
    let parts: Vec<String> = keys
        .into_iter()
        .filter_map(|key| {
            let value = &op.args[key];
            let hidden = is_default(&op.layer_type, key, value)
                || (!show_redundant && is_redundant(op, parent_shape, key, value));
            (!hidden).then(|| format!("{key}={}", value_text(value)))
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_read_like_python() {
        assert_eq!(python_float(1e-5), "1e-05");
        assert_eq!(python_float(0.1), "0.1");
        assert_eq!(python_float(1.0), "1.0");
        assert_eq!(python_float(0.0001), "0.0001");
        assert_eq!(python_float(1e16), "1e+16");
        assert_eq!(python_float(-2.5), "-2.5");
    }

    #[test]
    fn lists_read_as_tuples() {
        let pair = ArgValue::List(vec![ArgValue::Int(3), ArgValue::Int(3)]);
        assert_eq!(value_text(&pair), "(3, 3)");
        assert_eq!(value_text(&ArgValue::List(vec![ArgValue::Int(8)])), "(8,)");
        assert_eq!(value_text(&ArgValue::Bool(true)), "True");
    }
}
