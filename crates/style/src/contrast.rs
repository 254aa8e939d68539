//! Text that stays readable on every fill: WCAG 2.1 contrast (via palette) between text and
//! fill colours, and the choice of a readable text colour for a fill.

use std::str::FromStr;

use palette::color_difference::Wcag21RelativeContrast;
use palette::Srgb;

use crate::theme::Theme;

/// WCAG 2.1 level AA for normal text.
pub const MINIMUM_CONTRAST: f32 = 4.5;

/// A Graphviz colour (`#rrggbb`, `#rrggbbaa`, `white`, `black`) as sRGB; `None` if unknown.
pub fn parse(color: &str) -> Option<Srgb<f32>> {
    match color {
        "white" => Some(Srgb::new(1.0, 1.0, 1.0)),
        "black" => Some(Srgb::new(0.0, 0.0, 0.0)),
        hex if hex.starts_with('#') && hex.len() >= 7 => Srgb::<u8>::from_str(&hex[..7])
            .ok()
            .map(|c| c.into_format()),
        _ => None,
    }
}

/// `a` blended toward `b` by `t` (0: `a`, 1: `b`), as `#RRGGBB`; `a` when either cannot be
/// read.
pub fn mix(a: &str, b: &str, t: f32) -> String {
    match (parse(a), parse(b)) {
        (Some(a), Some(b)) => {
            let blend = |x: f32, y: f32| ((x + (y - x) * t).clamp(0.0, 1.0) * 255.0).round() as u8;
            format!(
                "#{:02X}{:02X}{:02X}",
                blend(a.red, b.red),
                blend(a.green, b.green),
                blend(a.blue, b.blue)
            )
        }
        _ => a.to_owned(),
    }
}

/// Contrast ratio (1 to 21) between two colours; 1 when either cannot be read.
pub fn ratio(a: &str, b: &str) -> f32 {
    match (parse(a), parse(b)) {
        (Some(a), Some(b)) => a.relative_contrast(b),
        _ => 1.0,
    }
}

/// The theme's text colour when it reads well on `fill`, else the better of the theme's
/// dark and light inks (a light label on a dark fill and the reverse).
pub fn text_on(fill: &str, theme: &Theme) -> String {
    if ratio(&theme.font_color, fill) >= MINIMUM_CONTRAST {
        return theme.font_color.clone();
    }
    let (dark, light) = ("#111111", "#F9FAFB");
    if ratio(dark, fill) >= ratio(light, fill) {
        dark.to_owned()
    } else {
        light.to_owned()
    }
}

/// Every (place, text, fill) pairing of a theme whose contrast is below the minimum.
pub fn failures(theme: &Theme) -> Vec<String> {
    let roles = &theme.roles;
    let mut fills: Vec<(&str, &str)> = vec![
        ("page", &theme.page),
        ("plain node", &theme.node_fill),
        ("cluster", &theme.cluster_fill),
        ("input", &roles.input),
        ("output", &roles.output),
        ("parameters", &roles.params),
        ("trainable parameters", &roles.params_trainable),
        ("frozen parameters", &roles.params_frozen),
        ("condition", &roles.boolean),
    ];
    fills.sort();
    let mut failures = Vec::new();
    for (place, fill) in fills {
        let text = text_on(fill, theme);
        let contrast = ratio(&text, fill);
        if contrast < MINIMUM_CONTRAST {
            failures.push(format!(
                "{}: text {text} on {place} fill {fill} has contrast {contrast:.2}",
                theme.name
            ));
        }
    }
    let capsule = ratio(&theme.segment_font, &theme.segment_fill);
    if capsule < MINIMUM_CONTRAST {
        failures.push(format!(
            "{}: capsule text has contrast {capsule:.2}",
            theme.name
        ));
    }
    let edges = ratio(&theme.edge_font_color, &theme.page);
    if edges < MINIMUM_CONTRAST {
        failures.push(format!(
            "{}: arrow labels have contrast {edges:.2} on the page",
            theme.name
        ));
    }
    failures
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn black_on_white_is_21() {
        assert!((ratio("black", "white") - 21.0).abs() < 0.01);
    }

    #[test]
    fn dark_fills_get_light_text() {
        let theme = Theme::built_in("torchlens").unwrap();
        assert_eq!(text_on("#1F2937", &theme), "#F9FAFB");
        assert_eq!(text_on("#98FB98", &theme), "black");
    }

    #[test]
    fn every_built_in_theme_meets_wcag_contrast() {
        for name in Theme::names() {
            let failures = failures(&Theme::built_in(name).unwrap());
            assert!(failures.is_empty(), "{failures:#?}");
        }
    }
}
