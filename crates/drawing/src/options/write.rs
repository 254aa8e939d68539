//! Write-time settings: how a finished drawing is written, not what it shows. The same
//! [`crate::Drawing`] is written in every format and at every resolution, so these are
//! arguments of the write (`Drawing::write`, `tl_draw::Drawn::write`), not drawing options.
//! The guide's `trace.draw(path, file_format=..., dpi=...)` and the command line's
//! `--file-format`/`--dpi` take them by name through [`WRITE_OPTIONS`].

use super::{FlagShape, OptionSpec, OptionValue};
use crate::error::DrawError;
use crate::keywords::KeywordValue;

/// How a drawing is written: `None` follows the guide's rules (the format from the path's
/// extension, else PDF; the renderer's resolution).
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct WriteOptions {
    /// Output format when it should not follow the path's extension.
    pub file_format: Option<String>,
    /// Dots per inch of raster (PNG) output.
    pub dpi: Option<f64>,
}

impl WriteOptions {
    /// Sets `file_format=`.
    pub fn file_format(mut self, format: &str) -> Self {
        self.file_format = Some(format.to_owned());
        self
    }

    /// Sets `dpi=`.
    pub fn dpi(mut self, dpi: f64) -> Self {
        self.dpi = Some(dpi);
        self
    }

    /// `other`'s settings where it has them, else these (a later `save(dpi=...)` over the
    /// `draw(...)` call's).
    pub fn overridden_by(&self, other: &WriteOptions) -> WriteOptions {
        WriteOptions {
            file_format: other
                .file_format
                .clone()
                .or_else(|| self.file_format.clone()),
            dpi: other.dpi.or(self.dpi),
        }
    }

    /// Refuses a resolution that is not a positive number.
    pub fn check(&self) -> Result<(), DrawError> {
        match self.dpi {
            Some(dpi) => check_dpi(dpi),
            None => Ok(()),
        }
    }

    /// Sets the write keyword `name` (`file_format`, `dpi`) to `value`;
    /// [`KeywordValue::Unset`] leaves it as it is. `None` when `name` is not a write keyword.
    pub fn set_keyword(
        self,
        name: &str,
        value: &KeywordValue,
    ) -> Option<Result<WriteOptions, DrawError>> {
        let option = WRITE_OPTIONS.iter().find(|option| option.name == name)?;
        Some(match value {
            KeywordValue::Unset => Ok(self),
            value => (option.set)(self, value),
        })
    }
}

/// Refuses a resolution that is not a positive number.
pub fn check_dpi(dpi: f64) -> Result<(), DrawError> {
    if dpi.is_finite() && dpi > 0.0 {
        Ok(())
    } else {
        Err(DrawError::invalid(
            "dpi_invalid",
            format!("dpi must be a positive number; received {dpi}"),
        ))
    }
}

/// Sets a write setting from a keyword's value, with the keyword's own refusal.
fn set<T: OptionValue>(
    name: &str,
    wanted: &str,
    value: &KeywordValue,
    field: impl FnOnce(T) -> Result<T, DrawError>,
) -> Result<T, DrawError> {
    T::from_keyword(value)
        .map_err(|error| error.for_keyword(name, wanted, value))
        .and_then(field)
}

/// The write keywords, as [`WriteOptions::set_keyword`] takes them.
pub const WRITE_KEYWORDS: [&str; 2] = ["file_format", "dpi"];

/// The write settings as the command line's flags and the bindings' keywords.
pub const WRITE_OPTIONS: &[OptionSpec<WriteOptions>] = &[
    OptionSpec {
        name: "file_format",
        wanted: "a format name such as \"png\"",
        flag: FlagShape::Text,
        value_name: Some("FORMAT"),
        help: "Output format, overriding the extension: pdf, png, svg, svgz, ps, eps, dot, json, xdot, plain or html",
        set: |options, value| {
            // Checked when given, not when the drawing is first written.
            let format: String = set("file_format", "a format name such as \"png\"", value, |format: String| {
                crate::OutputFormat::parse(&format).map(|_| format)
            })?;
            Ok(options.file_format(&format))
        },
    },
    OptionSpec {
        name: "dpi",
        wanted: "a number of dots per inch",
        flag: FlagShape::Float,
        value_name: None,
        help: "Dots per inch of raster (PNG) output",
        set: |options, value| {
            let dpi = set("dpi", "a number of dots per inch", value, |dpi: f64| {
                check_dpi(dpi).map(|()| dpi)
            })?;
            Ok(options.dpi(dpi))
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_set_the_write_settings_and_refuse_bad_values() {
        let options = WriteOptions::default()
            .set_keyword("dpi", &KeywordValue::Int(110))
            .expect("dpi is a write keyword")
            .expect("110 dpi is valid");
        assert_eq!(options.dpi, Some(110.0));
        let refused = WriteOptions::default()
            .set_keyword("dpi", &KeywordValue::Float(-1.0))
            .expect("dpi is a write keyword")
            .expect_err("a negative dpi is refused");
        assert_eq!(refused.code(), "dpi_invalid", "{refused}");
        let wrong = WriteOptions::default()
            .set_keyword("file_format", &KeywordValue::Int(3))
            .expect("file_format is a write keyword")
            .expect_err("a number is not a format");
        assert!(wrong.to_string().contains("file_format= takes"), "{wrong}");
        assert!(WriteOptions::default()
            .set_keyword("collapse", &KeywordValue::Unset)
            .is_none());
        let names: Vec<&str> = WRITE_OPTIONS.iter().map(|option| option.name).collect();
        assert_eq!(names, WRITE_KEYWORDS, "one list");
    }

    #[test]
    fn a_later_setting_overrides_an_earlier_one() {
        let drawn = WriteOptions::default().dpi(72.0).file_format("png");
        let saved = drawn.overridden_by(&WriteOptions::default().dpi(300.0));
        assert_eq!(saved, WriteOptions::default().dpi(300.0).file_format("png"));
    }
}
