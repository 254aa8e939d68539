//! Themes: colour palettes read from the data files in `themes/` (one JSON file each).

use serde::Deserialize;

/// Colours of semantic roles (the guide's "Fills and the key" and "Themes").
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoleColors {
    /// Model inputs.
    pub input: String,
    /// Model outputs.
    pub output: String,
    /// Operations using parameters whose trainability is unknown.
    pub params: String,
    /// Operations using only trainable parameters.
    pub params_trainable: String,
    /// Operations using only frozen parameters.
    pub params_frozen: String,
    /// The bool that decided a Python `if`.
    pub boolean: String,
    /// Buffers (legend swatch).
    pub buffer: String,
    /// Edit marks.
    pub intervention: String,
}

fn one() -> f64 {
    1.0
}

/// A complete palette.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Theme {
    /// Name used by `theme=`.
    pub name: String,
    /// One sentence for `--help` and the docs.
    pub description: String,
    /// Page (background) colour.
    pub page: String,
    /// Font family.
    pub font: String,
    /// Fill of plain nodes.
    pub node_fill: String,
    /// Node borders.
    pub node_border: String,
    /// Text.
    pub font_color: String,
    /// Arrows.
    pub edge_color: String,
    /// Arrow labels.
    pub edge_font_color: String,
    /// Arrow line width.
    #[serde(default = "one")]
    pub edge_penwidth: f64,
    /// Module cluster fill.
    pub cluster_fill: String,
    /// Module cluster border.
    pub cluster_border: String,
    /// Fill of the dashed capsule over a run of blocks.
    pub segment_fill: String,
    /// Its border.
    pub segment_border: String,
    /// Its text.
    pub segment_font: String,
    /// Text of a repeat fold's `... +N more` node.
    pub ellipsis_font: String,
    /// Role colours.
    pub roles: RoleColors,
}

/// The theme files shipped with tl-draw, by name.
const BUILT_IN: &[(&str, &str)] = &[
    ("torchlens", include_str!("../../../themes/torchlens.json")),
    ("paper", include_str!("../../../themes/paper.json")),
    ("dark", include_str!("../../../themes/dark.json")),
    (
        "colorblind",
        include_str!("../../../themes/colorblind.json"),
    ),
    (
        "high_contrast",
        include_str!("../../../themes/high_contrast.json"),
    ),
];

/// A built-in theme, by the name `theme=` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ThemeName {
    /// TorchLens's own colours (the default).
    #[default]
    Torchlens,
    /// For print: greys and one accent.
    Paper,
    /// Light text on a dark page.
    Dark,
    /// Colours that stay apart for colour-blind readers.
    Colorblind,
    /// The strongest contrast.
    HighContrast,
}

impl ThemeName {
    /// Every built-in theme, in the order of `themes/`.
    pub const ALL: [ThemeName; 5] = [
        ThemeName::Torchlens,
        ThemeName::Paper,
        ThemeName::Dark,
        ThemeName::Colorblind,
        ThemeName::HighContrast,
    ];

    /// The name `theme=` takes (`high_contrast`).
    pub fn name(self) -> &'static str {
        match self {
            ThemeName::Torchlens => "torchlens",
            ThemeName::Paper => "paper",
            ThemeName::Dark => "dark",
            ThemeName::Colorblind => "colorblind",
            ThemeName::HighContrast => "high_contrast",
        }
    }
}

/// A name that is no built-in theme.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Unsupported visualization theme {name:?}; choose one of {}", Theme::names().join(", "))]
pub struct UnknownTheme {
    /// The name asked for.
    pub name: String,
}

impl UnknownTheme {
    /// The stable code of this error.
    pub fn code(&self) -> &'static str {
        "visualization_theme_invalid"
    }
}

impl std::str::FromStr for ThemeName {
    type Err = UnknownTheme;

    fn from_str(text: &str) -> Result<ThemeName, UnknownTheme> {
        ThemeName::ALL
            .into_iter()
            .find(|theme| theme.name() == text)
            .ok_or_else(|| UnknownTheme {
                name: text.to_owned(),
            })
    }
}

impl Theme {
    /// The built-in theme `name`.
    pub fn named(name: ThemeName) -> Theme {
        Theme::built_in(name.name()).expect("every ThemeName is a built-in theme (tested)")
    }

    /// Names of the built-in themes.
    pub fn names() -> Vec<&'static str> {
        BUILT_IN.iter().map(|(name, _)| *name).collect()
    }

    /// A built-in theme by name.
    pub fn built_in(name: &str) -> Option<Theme> {
        BUILT_IN
            .iter()
            .find(|(known, _)| *known == name)
            .map(|(_, text)| {
                serde_json::from_str(text).expect("built-in theme files are valid (tested)")
            })
    }
}

impl Default for Theme {
    fn default() -> Self {
        Theme::built_in("torchlens").expect("the torchlens theme is built in")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_theme_parses_and_is_named_after_its_file() {
        for name in Theme::names() {
            assert_eq!(Theme::built_in(name).unwrap().name, name);
        }
    }

    #[test]
    fn every_theme_name_is_a_built_in_theme_and_others_are_coded() {
        let names: Vec<&str> = ThemeName::ALL.iter().map(|theme| theme.name()).collect();
        assert_eq!(names, Theme::names());
        for theme in ThemeName::ALL {
            assert_eq!(Theme::named(theme).name, theme.name());
            assert_eq!(theme.name().parse::<ThemeName>(), Ok(theme));
        }
        let unknown = "neon".parse::<ThemeName>().unwrap_err();
        assert_eq!(unknown.code(), "visualization_theme_invalid");
        assert!(
            unknown.to_string().contains("torchlens, paper, dark"),
            "{unknown}"
        );
    }
}
