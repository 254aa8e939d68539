//! The guide's `trace.draw(...)` keywords by name, for callers that hold them as names and
//! loosely typed values (the Python package): `DrawOptions::set_keyword("collapse",
//! KeywordValue::Float(0.25))` is `DrawOptions::collapse(Collapse::Level(0.25))`, with the
//! same parsers and error codes as the setters and the command line.

use crate::error::DrawError;
use crate::options::{
    parse_direction, parse_label_field, parse_node_style, parse_show_buffers, parse_theme,
    parse_view, BatchRender, Collapse, DrawOptions, GraphKind,
};
use tl_layout::LayoutEngine;

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
    fn described(&self) -> String {
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

/// Every keyword [`DrawOptions::set_keyword`] takes, in the guide's order. Bundle drawings
/// also take [`BUNDLE_KEYWORDS`]; callables (`node_spec_fn=`, a function for `color_by=`)
/// are the binding's to wire.
pub const DRAW_KEYWORDS: [&str; 29] = [
    "file_format",
    "dpi",
    "view",
    "graph",
    "depth",
    "collapse",
    "fold_repeats",
    "module",
    "rolled",
    "direction",
    "node_style",
    "node_label_fields",
    "theme",
    "show_buffers",
    "show_legend",
    "color_by",
    "size_by",
    "size_scale",
    "show_cone",
    "show_saved_for_backward",
    "show_redundant_args",
    "show_edge_shapes",
    "show_module_paths",
    "show_grad_values",
    "layout_engine",
    "batch_render",
    "max_nodes",
    "max_layout_cost",
    "force",
];

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

fn wrong_type(keyword: &str, wanted: &str, value: &KeywordValue) -> DrawError {
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
        use KeywordValue as V;
        if *value == V::Unset {
            return if DRAW_KEYWORDS.contains(&name) {
                Ok(self)
            } else {
                Err(unknown_keyword(name))
            };
        }
        let text = |wanted: &str| match value {
            V::Text(text) => Ok(text.as_str()),
            other => Err(wrong_type(name, wanted, other)),
        };
        let flag = || match value {
            V::Bool(flag) => Ok(*flag),
            other => Err(wrong_type(name, "True or False", other)),
        };
        let count = || match value {
            V::Int(n) if *n >= 0 => Ok(*n as u64),
            other => Err(wrong_type(name, "a whole number of at least 0", other)),
        };
        Ok(match name {
            "file_format" => self.file_format(text("a format name such as \"png\"")?),
            "dpi" => match value {
                V::Int(n) => self.dpi(*n as f64),
                V::Float(dpi) => self.dpi(*dpi),
                other => return Err(wrong_type(name, "a number of dots per inch", other)),
            },
            "view" => self.view(&parse_view(text("a view name such as \"speed\"")?)?),
            "graph" => self.graph(GraphKind::parse(text(
                "\"forward\", \"backward\" or \"combined\"",
            )?)?),
            "depth" => self.depth(u32::try_from(count()?).unwrap_or(u32::MAX)),
            "collapse" => self.collapse(match value {
                V::Text(text) => Collapse::parse(text)?,
                V::Int(n) => Collapse::parse(&n.to_string())?,
                V::Float(level) => Collapse::parse(&level.to_string())?,
                other => {
                    return Err(wrong_type(
                        name,
                        "\"none\", \"auto\", \"max\" or a number from 0.0 to 1.0",
                        other,
                    ))
                }
            }),
            "fold_repeats" => self.fold_repeats(Some(flag()?)),
            "module" => self.module(text("a module address such as \"blocks.1\"")?),
            "rolled" => self.rolled(flag()?),
            "direction" => {
                self.direction(parse_direction(text("a direction such as \"leftright\"")?)?)
            }
            "node_style" => {
                self.node_style(parse_node_style(text("\"default\" or \"profiling\"")?)?)
            }
            "node_label_fields" => {
                let fields = match value {
                    V::Texts(fields) => fields,
                    other => return Err(wrong_type(name, "a list of field names", other)),
                };
                let fields = fields
                    .iter()
                    .map(|field| parse_label_field(field.trim()))
                    .collect::<Result<Vec<_>, _>>()?;
                self.node_label_fields(fields)
            }
            "theme" => self.theme(&parse_theme(text("a theme name such as \"dark\"")?)?),
            "show_buffers" => self.show_buffers(parse_show_buffers(text(
                "\"never\", \"meaningful\" or \"always\"",
            )?)?),
            "show_legend" => self.show_legend(Some(flag()?)),
            "color_by" => self.color_by(text("a value name such as \"time\", or a function")?),
            "size_by" => self.size_by(text("a value name such as \"bytes\", or a function")?),
            "size_scale" => self.size_scale(text("\"sqrt\" or \"linear\"")?),
            "show_cone" => self.show_cone(flag()?),
            "show_saved_for_backward" => self.show_saved_for_backward(flag()?),
            "show_redundant_args" => self.show_redundant_args(flag()?),
            "show_edge_shapes" => self.show_edge_shapes(flag()?),
            "show_module_paths" => self.show_module_paths(flag()?),
            "show_grad_values" => self.show_grad_values(flag()?),
            "layout_engine" => {
                self.layout_engine(text("\"embedded\" or \"dot\"")?.parse::<LayoutEngine>()?)
            }
            "batch_render" => {
                self.batch_render(BatchRender::parse(text("\"auto\" or \"shape_only\"")?)?)
            }
            "max_nodes" => self.max_nodes(usize::try_from(count()?).unwrap_or(usize::MAX)),
            "max_layout_cost" => {
                self.max_layout_cost(usize::try_from(count()?).unwrap_or(usize::MAX))
            }
            "force" => self.force(flag()?),
            _ => return Err(unknown_keyword(name)),
        })
    }
}

/// `draw_keyword_unknown`, naming the closest keyword.
pub fn unknown_keyword(name: &str) -> DrawError {
    let known = DRAW_KEYWORDS
        .iter()
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
            .theme("dark")
            .show_legend(Some(true))
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
            closest_keyword("show_legnd", DRAW_KEYWORDS),
            Some("show_legend")
        );
        assert_eq!(closest_keyword("membres", BUNDLE_KEYWORDS), Some("members"));
        assert_eq!(closest_keyword("zzzzzzzz", DRAW_KEYWORDS), None);
    }
}
