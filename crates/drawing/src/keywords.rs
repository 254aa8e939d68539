//! The guide's `trace.draw(...)` keywords by name, for callers that hold them as names and
//! loosely typed values (the Python package, the command line):
//! `DrawOptions::set_keyword("collapse", KeywordValue::Float(0.25))` is
//! `DrawOptions::collapse(Collapse::Level(0.25))`, through the row of
//! [`crate::options::OPTIONS`] that declares the option.

use crate::error::DrawError;
pub use crate::options::DRAW_KEYWORDS;
use crate::options::{DrawOptions, OPTIONS};

/// A keyword's value as a dynamically typed caller holds it.
#[derive(Debug, Clone, PartialEq)]
pub enum KeywordValue {
    /// `None`: leave the option unset (its default, or what a view says).
    Unset,
    /// `True` / `False`.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A number.
    Float(f64),
    /// A string.
    Text(String),
    /// A list of strings.
    Texts(Vec<String>),
}

impl KeywordValue {
    /// What the value is, for messages: `the string "abc"`.
    pub fn described(&self) -> String {
        match self {
            KeywordValue::Unset => "None".to_owned(),
            KeywordValue::Bool(value) => if *value { "True" } else { "False" }.to_owned(),
            KeywordValue::Int(value) => format!("the number {value}"),
            KeywordValue::Float(value) => format!("the number {value}"),
            KeywordValue::Text(text) => format!("the string {text:?}"),
            KeywordValue::Texts(texts) => format!("the list {texts:?}"),
        }
    }
}

/// Keywords that take a callable, which a binding wires itself (`DrawOptions::node_spec_fn`).
pub const HOOK_KEYWORDS: [&str; 1] = ["node_spec_fn"];

/// Keywords only a bundle drawing takes (`bundle.draw(graph="diff", metric=..., on=...,
/// members=...)`).
pub const BUNDLE_KEYWORDS: [&str; 3] = ["metric", "on", "members"];

/// The known keyword closest to `name` (a misspelling: `colapse` -> `collapse`), if any is
/// close enough to be what was meant.
pub fn closest_keyword<'a>(
    name: &str,
    known: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    tl_trace_model::suggest::closest(&name.to_ascii_lowercase(), known)
}

/// `keyword_value_invalid`: keyword `keyword` takes `wanted`, not a value of `value`'s kind.
pub(crate) fn wrong_kind(keyword: &str, wanted: &str, value: &KeywordValue) -> DrawError {
    DrawError::invalid(
        "keyword_value_invalid",
        format!("{keyword}= takes {wanted}; received {}", value.described()),
    )
}

impl DrawOptions {
    /// Sets the keyword `name` of the guide's `trace.draw(...)` to `value`, as the named
    /// setter would; [`KeywordValue::Unset`] leaves the option as it is. Unknown names are
    /// refused with `draw_keyword_unknown` and the closest keyword.
    pub fn set_keyword(self, name: &str, value: &KeywordValue) -> Result<DrawOptions, DrawError> {
        if crate::options::WRITE_KEYWORDS.contains(&name) {
            return Err(DrawError::invalid(
                "draw_keyword_unknown",
                format!("{name}= is how the drawing is written, not what it shows: give it to the write (WriteOptions, Drawing::write)"),
            ));
        }
        let option = OPTIONS
            .iter()
            .find(|option| option.name == name)
            .ok_or_else(|| unknown_keyword(name))?;
        match value {
            KeywordValue::Unset => Ok(self),
            value => (option.set)(self, value),
        }
    }
}

/// `draw_keyword_unknown`, naming the closest keyword.
pub fn unknown_keyword(name: &str) -> DrawError {
    let known = DRAW_KEYWORDS
        .iter()
        .chain(&crate::options::WRITE_KEYWORDS)
        .chain(&HOOK_KEYWORDS)
        .chain(&BUNDLE_KEYWORDS)
        .copied();
    let hint = match closest_keyword(name, known) {
        Some(close) => format!("did you mean {close}=?"),
        None => format!("the keywords are {}", DRAW_KEYWORDS.join(", ")),
    };
    DrawError::invalid(
        "draw_keyword_unknown",
        format!("draw() got an unexpected keyword {name}=; {hint}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{parse_label_field, Collapse};
    use tl_style::ThemeName;

    #[test]
    fn keywords_set_what_the_setters_set() {
        let by_keyword = DrawOptions::default()
            .set_keyword("collapse", &KeywordValue::Float(0.25))
            .and_then(|o| o.set_keyword("depth", &KeywordValue::Int(2)))
            .and_then(|o| o.set_keyword("theme", &KeywordValue::Text("dark".into())))
            .and_then(|o| o.set_keyword("show_legend", &KeywordValue::Bool(true)))
            .and_then(|o| {
                o.set_keyword(
                    "node_label_fields",
                    &KeywordValue::Texts(vec!["name".into(), "shape".into()]),
                )
            })
            .unwrap();
        let by_setter = DrawOptions::default()
            .collapse(Collapse::Level(0.25))
            .depth(2)
            .theme(ThemeName::Dark)
            .show_legend(true)
            .node_label_fields(vec![
                parse_label_field("name").unwrap(),
                parse_label_field("shape").unwrap(),
            ]);
        assert_eq!(by_keyword, by_setter);
    }

    #[test]
    fn unset_leaves_the_option_to_its_default_or_the_view() {
        let options = DrawOptions::default()
            .set_keyword("show_legend", &KeywordValue::Unset)
            .unwrap();
        assert_eq!(options, DrawOptions::default());
    }

    #[test]
    fn values_are_checked_with_the_setters_codes() {
        let refused = |name: &str, value: KeywordValue| {
            DrawOptions::default()
                .set_keyword(name, &value)
                .unwrap_err()
                .code()
        };
        assert_eq!(
            refused("collapse", KeywordValue::Float(1.5)),
            "collapse_level_invalid"
        );
        assert_eq!(
            refused("collapse", KeywordValue::Text("most".into())),
            "collapse_mode_invalid"
        );
        assert_eq!(
            refused("theme", KeywordValue::Text("neon".into())),
            "visualization_theme_invalid"
        );
        assert_eq!(
            refused("depth", KeywordValue::Text("2".into())),
            "keyword_value_invalid"
        );
        assert_eq!(
            refused("depth", KeywordValue::Int(-1)),
            "keyword_value_invalid"
        );
        assert_eq!(
            refused("rolled", KeywordValue::Int(1)),
            "keyword_value_invalid"
        );
    }

    #[test]
    fn a_misspelt_keyword_names_the_closest() {
        let error = DrawOptions::default()
            .set_keyword("colapse", &KeywordValue::Text("auto".into()))
            .unwrap_err();
        assert_eq!(error.code(), "draw_keyword_unknown");
        assert!(
            error.to_string().contains("did you mean collapse=?"),
            "{error}"
        );
        assert_eq!(
            closest_keyword("show_legnd", DRAW_KEYWORDS.iter().copied()),
            Some("show_legend")
        );
        assert_eq!(closest_keyword("membres", BUNDLE_KEYWORDS), Some("members"));
        assert_eq!(
            closest_keyword("zzzzzzzz", DRAW_KEYWORDS.iter().copied()),
            None
        );
    }
}
