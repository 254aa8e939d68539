//! Number and text formats of node rows and headers (the guide's number formats ("Reading a node")).

/// Whether `ch` is a control character that must be shown, not passed on: C0 controls but
/// tab, line feed and carriage return (which each output handles itself), DEL, the C1
/// controls, the noncharacters U+FFFE/U+FFFF and the bidirectional-text controls. They
/// would make an SVG that is not well-formed XML, DOT that Graphviz rejects, move a
/// terminal's cursor, or display a name in another order than it is spelled.
pub fn is_hidden_control(ch: char) -> bool {
    matches!(ch, '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{fffe}' | '\u{ffff}')
        || is_bidi_control(ch)
}

/// The bidirectional-text controls (marks, embeddings, overrides and isolates): drawn as
/// they are, they would display a name reversed or reordered (`U+202E`).
fn is_bidi_control(ch: char) -> bool {
    matches!(ch, '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// The longest text a drawing shows in one place (a row, a caption, a header line, a
/// tooltip), in characters; longer text ends in `…` there. A real row is rarely over 100
/// (a deep module address); before, a 64 MiB class name made a PDF take 122 s and 8.3 GB.
pub const MAX_SHOWN_CHARS: usize = 200;

/// `text` cut to [`MAX_SHOWN_CHARS`] characters, the last being `…` when it was longer.
pub fn capped(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(MAX_SHOWN_CHARS) {
        None => std::borrow::Cow::Borrowed(text),
        Some(_) => {
            let end = text
                .char_indices()
                .nth(MAX_SHOWN_CHARS - 1)
                .map_or(text.len(), |(i, _)| i);
            std::borrow::Cow::Owned(format!("{}…", &text[..end]))
        }
    }
}

/// How a hidden control character is drawn: visibly escaped, `\u0001`.
pub fn control_escape(ch: char) -> String {
    format!("\\u{:04x}", u32::from(ch))
}

/// `text` with every hidden control character ([`is_hidden_control`]) spelled as its
/// escape (`\u001b`): safe to print to a terminal, and to draw.
pub fn visible_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(is_hidden_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len() + 8);
    for ch in text.chars() {
        if is_hidden_control(ch) {
            shown.push_str(&control_escape(ch));
        } else {
            shown.push(ch);
        }
    }
    std::borrow::Cow::Owned(shown)
}

/// A tensor shape in Python tuple notation: `()`, `(8,)`, `(2, 16)`.
pub fn shape(dims: &[u64]) -> String {
    match dims {
        [] => "()".to_owned(),
        [only] => format!("({only},)"),
        _ => {
            let parts: Vec<String> = dims.iter().map(u64::to_string).collect();
            format!("({})", parts.join(", "))
        }
    }
}

/// `value` with `digits` significant digits, trailing zeros dropped: `0.098`, `1.46`.
pub fn significant(value: f64, digits: i32) -> String {
    if value == 0.0 || !value.is_finite() {
        return format!("{value}");
    }
    let trim = |text: String| {
        if text.contains('.') {
            text.trim_end_matches('0').trim_end_matches('.').to_owned()
        } else {
            text
        }
    };
    // Very small and very large values read better in scientific notation: `1.11e-16`.
    if value.abs() < 1e-3 || value.abs() >= 1e6 {
        let text = format!("{value:.*e}", (digits - 1).max(0) as usize);
        let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
        return format!("{}e{exponent}", trim(mantissa.to_owned()));
    }
    let magnitude = value.abs().log10().floor() as i32;
    let decimals = (digits - 1 - magnitude).max(0) as usize;
    trim(format!("{value:.decimals$}"))
}

/// A byte count in binary units: `128 B`, `4.0 KB`, `19.4 KB`, `12.2 MB`.
pub fn bytes(count: u64) -> String {
    const UNITS: [&str; 6] = ["B", "KB", "MB", "GB", "TB", "PB"];
    if count < 1024 {
        return format!("{count} B");
    }
    let mut value = count as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// A count printed compactly when large: `876`, `1.61K`, `12.3K`, `86.6M`, `1.20B`.
///
/// Three significant digits; a value that rounds up to 1000 of a unit moves to the next.
pub fn compact_count(count: u64) -> String {
    const UNITS: [(f64, &str); 4] = [(1e3, "K"), (1e6, "M"), (1e9, "B"), (1e12, "T")];
    if count < 1000 {
        return count.to_string();
    }
    let value = count as f64;
    for (index, (scale, suffix)) in UNITS.iter().enumerate() {
        let scaled = value / scale;
        let text = three_significant(scaled);
        let rounds_to_next_unit = text.parse::<f64>().is_ok_and(|v| v >= 1000.0);
        if !rounds_to_next_unit || index == UNITS.len() - 1 {
            return format!("{text}{suffix}");
        }
    }
    unreachable!("the loop returns on its last unit")
}

fn three_significant(value: f64) -> String {
    if value >= 100.0 {
        format!("{value:.0}")
    } else if value >= 10.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.2}")
    }
}

/// A duration in seconds as `500 us`, `67.7 us`, `1.46 ms` (largest unit not above it).
pub fn duration(seconds: f64) -> String {
    let (value, unit) = duration_unit(seconds);
    format!("{} {unit}", trimmed_decimals(value))
}

/// A duration in milliseconds to three significant digits, as the key's time scale and the
/// profiling rows both write it (`0.098 ms`, `1.46 ms`): one unit for a reader comparing a
/// node's `t=` row with the key (TorchLens prints rows as `488.52 us`).
pub fn milliseconds(seconds: f64) -> String {
    format!("{} ms", significant(seconds * 1e3, 3))
}

fn duration_unit(seconds: f64) -> (f64, &'static str) {
    let magnitude = seconds.abs();
    if magnitude >= 1.0 {
        (seconds, "s")
    } else if magnitude >= 1e-3 {
        (seconds * 1e3, "ms")
    } else if magnitude >= 1e-6 {
        (seconds * 1e6, "us")
    } else {
        (seconds * 1e9, "ns")
    }
}

/// 0 decimals at 0 or from 100, 1 from 10, else 2 with trailing zeros stripped.
fn trimmed_decimals(value: f64) -> String {
    let magnitude = value.abs();
    if magnitude == 0.0 || magnitude >= 100.0 {
        format!("{value:.0}")
    } else if magnitude >= 10.0 {
        format!("{value:.1}")
    } else {
        let text = format!("{value:.2}");
        text.trim_end_matches('0').trim_end_matches('.').to_owned()
    }
}

/// A FLOP count in SI units: `216 FLOPs`, `1.2 KFLOPs`, `3.46 MFLOPs`.
pub fn flops(count: u64) -> String {
    const UNITS: [&str; 6] = ["FLOPs", "KFLOPs", "MFLOPs", "GFLOPs", "TFLOPs", "PFLOPs"];
    let mut value = count as f64;
    let mut unit = 0;
    while value >= 1000.0 && unit < UNITS.len() - 1 {
        value /= 1000.0;
        unit += 1;
    }
    format!("{} {}", trimmed_decimals(value), UNITS[unit])
}

/// Sorted, de-duplicated integers as compact runs: `1-3,7-8,10`.
pub fn compact_ranges(values: &[u32]) -> String {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut runs: Vec<String> = Vec::new();
    let mut index = 0;
    while index < sorted.len() {
        let start = sorted[index];
        let mut end = start;
        while index + 1 < sorted.len() && sorted[index + 1] == end + 1 {
            index += 1;
            end = sorted[index];
        }
        runs.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        index += 1;
    }
    runs.join(",")
}

/// `nan`, `inf` or `-inf` as Python prints them; `None` for finite values.
pub fn non_finite(value: f64) -> Option<&'static str> {
    if value.is_nan() {
        Some("nan")
    } else if value.is_infinite() {
        Some(if value > 0.0 { "inf" } else { "-inf" })
    } else {
        None
    }
}

/// A scalar value as `-0.492`, `1e+03`, `True`: three significant digits, general notation.
pub fn scalar(value: f64) -> String {
    if value == 0.0 {
        return "0".to_owned();
    }
    if let Some(text) = non_finite(value) {
        return text.to_owned();
    }
    let exponent = value.abs().log10().floor() as i32;
    if !(-4..3).contains(&exponent) {
        let mantissa = value / 10f64.powi(exponent);
        let mantissa = format!("{mantissa:.2}");
        let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
        let sign = if exponent < 0 { '-' } else { '+' };
        return format!("{mantissa}e{sign}{:02}", exponent.abs());
    }
    let decimals = (2 - exponent).max(0) as usize;
    let text = format!("{value:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bidirectional_controls_are_spelled_visibly() {
        assert_eq!(
            visible_controls("evil\u{202e}txt.exe"),
            "evil\\u202etxt.exe"
        );
        for ch in [
            '\u{61c}', '\u{200e}', '\u{200f}', '\u{202a}', '\u{2066}', '\u{2069}',
        ] {
            assert!(is_hidden_control(ch), "{ch:?}");
        }
        assert!(!is_hidden_control('\u{2070}') && !is_hidden_control('ü'));
    }

    #[test]
    fn significant_digits_drop_trailing_zeros() {
        assert_eq!(significant(0.098, 3), "0.098");
        assert_eq!(significant(1.4567, 3), "1.46");
        assert_eq!(significant(123.456, 4), "123.5");
        assert_eq!(significant(0.5, 4), "0.5");
        assert_eq!(significant(1.1102230246251565e-16, 3), "1.11e-16");
        assert_eq!(significant(0.000_098, 3), "9.8e-5");
    }

    #[test]
    fn shapes_use_tuple_notation() {
        assert_eq!(shape(&[]), "()");
        assert_eq!(shape(&[16]), "(16,)");
        assert_eq!(shape(&[2, 16]), "(2, 16)");
    }

    #[test]
    fn bytes_use_binary_units() {
        assert_eq!(bytes(0), "0 B");
        assert_eq!(bytes(128), "128 B");
        assert_eq!(bytes(1023), "1023 B");
        assert_eq!(bytes(4096), "4.0 KB");
        assert_eq!(bytes(19840), "19.4 KB");
        assert_eq!(bytes(1536), "1.5 KB");
        assert_eq!(bytes(12_800_000), "12.2 MB");
    }

    #[test]
    fn counts_compact_like_the_guide() {
        assert_eq!(compact_count(876), "876");
        assert_eq!(compact_count(1610), "1.61K");
        assert_eq!(compact_count(12_345), "12.3K");
        assert_eq!(compact_count(86_600_000), "86.6M");
        assert_eq!(compact_count(11_689_512), "11.7M");
        assert_eq!(compact_count(999_999), "1.00M");
        assert_eq!(compact_count(1_000), "1.00K");
    }

    #[test]
    fn durations_pick_the_largest_unit() {
        assert_eq!(duration(0.0), "0 ns");
        assert_eq!(duration(500e-6), "500 us");
        assert_eq!(duration(67.7e-6), "67.7 us");
        assert_eq!(duration(1.46e-3), "1.46 ms");
        assert_eq!(duration(2.5e-3), "2.5 ms");
    }

    #[test]
    fn profiling_times_are_in_the_keys_milliseconds() {
        assert_eq!(milliseconds(488.52e-6), "0.489 ms");
        assert_eq!(milliseconds(30.76e-6), "0.0308 ms");
        assert_eq!(milliseconds(1.46e-3), "1.46 ms");
        assert_eq!(milliseconds(2.5), "2500 ms");
    }

    #[test]
    fn flops_use_si_units() {
        assert_eq!(flops(216), "216 FLOPs");
        assert_eq!(flops(6), "6 FLOPs");
        assert_eq!(flops(24), "24.0 FLOPs");
        assert_eq!(flops(3_460_000), "3.46 MFLOPs");
    }

    #[test]
    fn ranges_compact_runs() {
        assert_eq!(compact_ranges(&[3, 1, 2, 7, 8, 10, 2]), "1-3,7-8,10");
        assert_eq!(compact_ranges(&[1]), "1");
        assert_eq!(compact_ranges(&[]), "");
    }

    #[test]
    fn scalars_have_three_significant_digits() {
        assert_eq!(scalar(-0.49212), "-0.492");
        assert_eq!(scalar(0.47662827372550964), "0.477");
        assert_eq!(scalar(1.0), "1");
        assert_eq!(scalar(12.5), "12.5");
        assert_eq!(scalar(123.4), "123");
        assert_eq!(scalar(1234.0), "1.23e+03");
        assert_eq!(scalar(0.00001234), "1.23e-05");
        assert_eq!(scalar(0.0), "0");
    }
}
