//! The value types an op record holds as written: argument values (`args`, `annotations`)
//! and a 0-d output's scalar.
//!
//! Both are plain JSON values of a few kinds, read by one visitor each: serde's derived
//! `untagged` reader buffers every value and tries the kinds one after another, building an
//! error for each miss, up to an eighth of reading a convolutional model's trace, whose ops'
//! arguments are mostly integers and lists of them (docs/performance.md).

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A scalar value saved for a 0-d output.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ScalarValue {
    /// A boolean tensor.
    Bool(bool),
    /// Any numeric tensor.
    Number(f64),
}

/// A salient argument value: plain JSON scalars and lists of them.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ArgValue {
    /// Python `None`.
    Null,
    /// A bool.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A string (dtypes, modes, ...).
    Text(String),
    /// A tuple or list; drawn in tuple notation.
    List(Vec<ArgValue>),
}

/// What a value that is none of the kinds is reported as: the words serde's derived reader
/// used, so a trace it refused is refused with the same message.
fn no_variant<E: de::Error>(name: &str) -> E {
    E::custom(format_args!(
        "data did not match any variant of untagged enum {name}"
    ))
}

struct ArgValueVisitor;

impl<'de> Visitor<'de> for ArgValueVisitor {
    type Value = ArgValue;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("null, a bool, a number, a string or a list of these")
    }

    fn visit_unit<E: de::Error>(self) -> Result<ArgValue, E> {
        Ok(ArgValue::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<ArgValue, E> {
        Ok(ArgValue::Null)
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<ArgValue, E> {
        Ok(ArgValue::Bool(value))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<ArgValue, E> {
        Ok(ArgValue::Int(value))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<ArgValue, E> {
        // Past i64's range an integer is kept as the nearest float, as the derived reader did.
        Ok(i64::try_from(value).map_or(ArgValue::Float(value as f64), ArgValue::Int))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<ArgValue, E> {
        Ok(ArgValue::Float(value))
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<ArgValue, E> {
        Ok(ArgValue::Text(value.to_owned()))
    }

    fn visit_string<E: de::Error>(self, value: String) -> Result<ArgValue, E> {
        Ok(ArgValue::Text(value))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ArgValue, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(ArgValue::List(items))
    }

    fn visit_map<A: de::MapAccess<'de>>(self, _map: A) -> Result<ArgValue, A::Error> {
        Err(no_variant("ArgValue"))
    }
}

impl<'de> Deserialize<'de> for ArgValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ArgValueVisitor)
    }
}

struct ScalarValueVisitor;

impl<'de> Visitor<'de> for ScalarValueVisitor {
    type Value = ScalarValue;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a bool or a number")
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<ScalarValue, E> {
        Ok(ScalarValue::Bool(value))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<ScalarValue, E> {
        Ok(ScalarValue::Number(value as f64))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<ScalarValue, E> {
        Ok(ScalarValue::Number(value as f64))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<ScalarValue, E> {
        Ok(ScalarValue::Number(value))
    }

    fn visit_unit<E: de::Error>(self) -> Result<ScalarValue, E> {
        Err(no_variant("ScalarValue"))
    }

    fn visit_str<E: de::Error>(self, _value: &str) -> Result<ScalarValue, E> {
        Err(no_variant("ScalarValue"))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _seq: A) -> Result<ScalarValue, A::Error> {
        Err(no_variant("ScalarValue"))
    }

    fn visit_map<A: de::MapAccess<'de>>(self, _map: A) -> Result<ScalarValue, A::Error> {
        Err(no_variant("ScalarValue"))
    }
}

impl<'de> Deserialize<'de> for ScalarValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ScalarValueVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What serde's derived `untagged` reader made of the same JSON: the reference the
    /// visitors are held to.
    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(untagged)]
    enum DerivedArg {
        Null,
        Bool(bool),
        Int(i64),
        Float(f64),
        Text(String),
        List(Vec<DerivedArg>),
    }

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(untagged)]
    enum DerivedScalar {
        Bool(bool),
        Number(f64),
    }

    fn same_arg(ours: &ArgValue, derived: &DerivedArg) -> bool {
        match (ours, derived) {
            (ArgValue::Null, DerivedArg::Null) => true,
            (ArgValue::Bool(a), DerivedArg::Bool(b)) => a == b,
            (ArgValue::Int(a), DerivedArg::Int(b)) => a == b,
            (ArgValue::Float(a), DerivedArg::Float(b)) => a.to_bits() == b.to_bits(),
            (ArgValue::Text(a), DerivedArg::Text(b)) => a == b,
            (ArgValue::List(a), DerivedArg::List(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_arg(x, y))
            }
            _ => false,
        }
    }

    const VALUES: [&str; 16] = [
        "null",
        "true",
        "false",
        "0",
        "-7",
        "9223372036854775807",
        "9223372036854775808",
        "18446744073709551615",
        "-9223372036854775808",
        "1.5",
        "-0.0",
        "1e300",
        "\"reflect\"",
        "\"a \\\"quoted\\\" \\u00e9\"",
        "[1, [2, 3.5], \"x\", null, true, []]",
        "[]",
    ];

    #[test]
    fn argument_values_read_as_the_derived_untagged_reader_read_them() {
        for text in VALUES {
            let ours: ArgValue = serde_json::from_str(text).unwrap();
            let derived: DerivedArg = serde_json::from_str(text).unwrap();
            assert!(same_arg(&ours, &derived), "{text}: {ours:?} vs {derived:?}");
            // Written back, it reads the same again.
            let again: ArgValue =
                serde_json::from_str(&serde_json::to_string(&ours).unwrap()).unwrap();
            assert_eq!(again, ours, "{text}");
        }
    }

    #[test]
    fn scalar_values_read_as_the_derived_untagged_reader_read_them() {
        for text in VALUES {
            let ours = serde_json::from_str::<ScalarValue>(text);
            let derived = serde_json::from_str::<DerivedScalar>(text);
            match (&ours, &derived) {
                (Ok(ScalarValue::Bool(a)), Ok(DerivedScalar::Bool(b))) => assert_eq!(a, b),
                (Ok(ScalarValue::Number(a)), Ok(DerivedScalar::Number(b))) => {
                    assert_eq!(a.to_bits(), b.to_bits(), "{text}")
                }
                (Err(_), Err(_)) => {}
                _ => panic!("{text}: {ours:?} vs {derived:?}"),
            }
        }
    }

    #[test]
    fn a_hostile_nesting_of_lists_is_refused_not_followed_down_the_stack() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let error = serde_json::from_str::<ArgValue>(&deep).unwrap_err();
        assert!(error.to_string().contains("recursion limit"), "{error}");
    }

    #[test]
    fn a_value_of_no_kind_is_refused_in_the_words_of_the_derived_reader() {
        for (text, name) in [("{\"a\": 1}", "ArgValue"), ("[1, {\"a\": 1}]", "ArgValue")] {
            let error = serde_json::from_str::<ArgValue>(text).unwrap_err();
            let message = format!("data did not match any variant of untagged enum {name}");
            assert!(error.to_string().starts_with(&message), "{error}");
        }
        for text in ["null", "\"x\"", "[1]", "{}"] {
            let error = serde_json::from_str::<ScalarValue>(text).unwrap_err();
            assert!(
                error
                    .to_string()
                    .starts_with("data did not match any variant of untagged enum ScalarValue"),
                "{error}"
            );
        }
    }
}
