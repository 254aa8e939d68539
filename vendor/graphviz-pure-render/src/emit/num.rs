//! C number formatting used by the renderers: `gvprintdouble`, `gvprintnum`, `%.Ng`,
//! `agxbuf_trim_zeros`.
//!
//! tl-draw's patch: public (with [`c_fixed`] and [`fmt_g`]), so that tl-draw's workspace
//! tests check their fast paths against graphviz-pure-core's exact formatters.

/// Strips trailing zeros after a decimal point, and the point itself (`agxbuf_trim_zeros`).
pub(crate) fn trim_zeros(s: String) -> String {
    let had_point = s.contains('.');
    let s = trim_g(s);
    // agxbuf_trim_zeros turns a remaining "-0" into "0" (tl-draw's patch: the stripping
    // itself is `%g`'s, [`trim_g`]).
    if had_point && s == "-0" {
        "0".to_string()
    } else {
        s
    }
}

/// C `printf("%.{prec}f", v)` on the reference platform (macOS libc): non-finite values
/// print as `nan` (whatever the sign), `inf` and `-inf`.
///
/// tl-draw's patch: the digits are worked out from an integer when that is certain to give
/// `format!`'s (`graphviz_pure_core::cnum::fmt_f`) very text, which it is for every
/// coordinate a drawing has; `format!`'s exact decimal expansion was a fifth of the time of
/// writing a drawing's JSON.
pub fn c_fixed(v: f64, prec: usize) -> String {
    fast_fixed(v, prec).unwrap_or_else(|| graphviz_pure_core::cnum::fmt_f(v, prec))
}

/// Powers of ten up to the largest precision [`fast_fixed`] handles.
const TENS: [u64; 11] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
    1_000_000_000,
    10_000_000_000,
];

/// `|v| * scale` rounded to the nearest integer, or `None` where that might not be the
/// rounding of the exact value (see [`fast_fixed`]).
fn scaled_exactly(v: f64, scale: u64) -> Option<u64> {
    let product = v.abs() * scale as f64;
    if !product.is_finite() || product >= 1e9 {
        return None;
    }
    let whole = product.floor();
    let fraction = product - whole;
    if (fraction - 0.5).abs() < 1e-6 {
        return None;
    }
    Some(whole as u64 + u64::from(fraction > 0.5))
}

/// `format!("{v:.prec$}")`, or `None` where working it out from `v * 10^prec` might differ:
/// non-finite values, precisions over 10, products of 10^9 or more, and products within
/// 10^-6 of a rounding tie. Below 10^9 the product is within 6e-8 of the exact one (half
/// an ulp), so rounding it to the nearest integer rounds the exact value the same way
/// whenever it is further than that from a tie.
fn fast_fixed(v: f64, prec: usize) -> Option<String> {
    let scale = *TENS.get(prec)?;
    let rounded = scaled_exactly(v, scale)?;
    let mut text = String::with_capacity(16);
    if v.is_sign_negative() {
        text.push('-');
    }
    // tl-draw's patch: the digits written here rather than through `write!`'s formatting
    // machinery (a few percent of writing a drawing's SVG); the same text.
    push_decimal(&mut text, rounded / scale, 1);
    if prec > 0 {
        text.push('.');
        push_decimal(&mut text, rounded % scale, prec);
    }
    Some(text)
}

/// Writes `n` in decimal, zero-padded on the left to `width` digits: `{n:0width$}`.
fn push_decimal(text: &mut String, mut n: u64, width: usize) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for _ in digits.len() - start..width {
        text.push('0');
    }
    text.extend(digits[start..].iter().map(|&digit| char::from(digit)));
}

/// `gvprintdouble`: `%.02f` with trailing zeros removed; values within 0.005 of zero print `0`.
pub fn gvdouble(num: f64) -> String {
    if num > -0.005 && num < 0.005 {
        return "0".to_string();
    }
    trim_zeros(c_fixed(num, 2))
}

/// `%.02f` then `agxbuf_trim_zeros` (xdot numbers; `-0` is possible).
pub fn xdot_num(v: f64) -> String {
    trim_zeros(c_fixed(v, 2))
}

/// [`gvdouble`] written at the end of `out`.
///
/// tl-draw's patch: the writers push their coordinates with this and [`push_xdot_num`]
/// rather than through a string of the number's own (and its trimmed copy), a few percent of
/// writing a drawing's SVG or its painter's operations; the same text.
pub fn push_gvdouble(out: &mut String, num: f64) {
    if num > -0.005 && num < 0.005 {
        out.push('0');
    } else {
        push_xdot_num(out, num);
    }
}

/// [`xdot_num`] written at the end of `out` (see [`push_gvdouble`]).
pub fn push_xdot_num(out: &mut String, v: f64) {
    let Some(rounded) = scaled_exactly(v, 100) else {
        out.push_str(&xdot_num(v));
        return;
    };
    // `0.00` and `-0.00` trim to `0`.
    if rounded == 0 {
        out.push('0');
        return;
    }
    if v.is_sign_negative() {
        out.push('-');
    }
    push_decimal(out, rounded / 100, 1);
    let hundredths = rounded % 100;
    if hundredths != 0 {
        out.push('.');
        if hundredths % 10 == 0 {
            push_decimal(out, hundredths / 10, 1);
        } else {
            push_decimal(out, hundredths, 2);
        }
    }
}

/// The number `parse_xdot` reads back from [`push_xdot_num`]'s text of `v` (`None` where it
/// reads none, or none for certain), worked out without the text: the text of the fast path
/// is the decimal `n / 100` for an integer `n` up to 10^9, and `n as f64 / 100.0`, one
/// correctly rounded division, is the double nearest it, as the correctly rounded `strtod`
/// reads it (`-0.00` reads as `0`, its text being `0`); other values are read from their text.
///
/// tl-draw's patch, for the painting handed over without text (`crate::xdot_ops`).
pub fn xdot_num_read_back(v: f64) -> Option<f64> {
    match scaled_exactly(v, 100) {
        Some(0) => Some(0.0),
        Some(hundredths) => {
            let magnitude = hundredths as f64 / 100.0;
            Some(if v.is_sign_negative() {
                -magnitude
            } else {
                magnitude
            })
        }
        None => read_whole_number(&xdot_num(v)),
    }
}

/// The number `text` holds when a number is all it holds, as `parse_xdot` reads one word.
pub(crate) fn read_whole_number(text: &str) -> Option<f64> {
    let (value, rest) = graphviz_pure_core::strtod::strtod_rest(text)?;
    (rest.is_empty() && !text.contains('(')).then_some(value)
}

/// `gvprintnum`: `%.03f`, trailing zeros and a leading `0` removed.
#[allow(dead_code)]
pub(crate) fn gvprintnum(number: f64) -> String {
    const MAXNEG: f64 = -999_999_999_999_999.99;
    if number < MAXNEG {
        return "-999999999999999.99".to_string();
    }
    if number > -MAXNEG {
        return "999999999999999.99".to_string();
    }
    let s = trim_zeros(c_fixed(number, 3));
    if let Some(rest) = s.strip_prefix("0.") {
        format!(".{rest}")
    } else if let Some(rest) = s.strip_prefix("-0.") {
        format!("-.{rest}")
    } else {
        s
    }
}

/// C `printf("%.{prec}g", v)`.
///
/// tl-draw's patch: numbers from 10^-4 to 10^prec, which are every coordinate of a drawing,
/// are written as [`c_fixed`] with `prec` significant digits, trailing zeros removed, as
/// `graphviz_pure_core::diag::fmt_g` writes them (it formats each number twice, once to find
/// its exponent); other numbers, and any whose rounding reaches 10^prec, go to it.
pub fn fmt_g(v: f64, prec: usize) -> String {
    fast_g(v, prec).unwrap_or_else(|| graphviz_pure_core::diag::fmt_g(v, prec))
}

/// [`fmt_g`] for `1e-4 <= |v| < 10^prec`, `prec` from 1 to 6, when [`fast_fixed`] can write
/// it; `None` otherwise.
fn fast_g(v: f64, prec: usize) -> Option<String> {
    const POWERS: [f64; 11] = [1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6];
    let magnitude = v.abs();
    if !(1..=6).contains(&prec) || !(1e-4..POWERS[4 + prec]).contains(&magnitude) {
        return None;
    }
    // 10^exponent <= |v|: `prec` significant digits are `prec - 1 - exponent` decimals. When
    // they round |v| up to the next power of ten, C takes the next exponent and one decimal
    // less; the decimal this keeps is a zero, which trimming removes.
    let exponent = POWERS.iter().take(4 + prec).filter(|p| magnitude >= **p).count() as i32 - 5;
    let decimals = (prec as i32 - 1 - exponent) as usize;
    let text = fast_fixed(v, decimals)?;
    // ... but rounding up to 10^prec itself is C's exponent form (`1e+05`).
    if decimals == 0 && text.trim_start_matches('-').len() > prec {
        return None;
    }
    Some(trim_g(text))
}

/// `%g`'s removal of trailing zeros after a decimal point, and of the point itself.
fn trim_g(mut text: String) -> String {
    if text.contains('.') {
        while text.ends_with('0') {
            text.pop();
        }
        if text.ends_with('.') {
            text.pop();
        }
    }
    text
}

/// `%f` (six decimals).
pub(crate) fn fmt_f6(v: f64) -> String {
    c_fixed(v, 6)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn g_format_matches_printf() {
        assert_eq!(fmt_g(205.8, 5), "205.8");
        assert_eq!(fmt_g(0.75, 5), "0.75");
        assert_eq!(fmt_g(123456.0, 5), "1.2346e+05");
        assert_eq!(fmt_g(0.0001234, 5), "0.0001234");
        assert_eq!(fmt_g(0.00001234, 5), "1.234e-05");
        assert_eq!(fmt_g(99999.5, 5), "1e+05");
        assert_eq!(fmt_g(1.0, 5), "1");
        assert_eq!(fmt_g(-2.5, 5), "-2.5");
        assert_eq!(fmt_g(1.0, 6), "1");
        assert_eq!(fmt_g(0.333333333, 6), "0.333333");
    }

    #[test]
    fn printdouble_and_xdot() {
        assert_eq!(gvdouble(-0.004), "0");
        assert_eq!(gvdouble(12.5), "12.5");
        assert_eq!(gvdouble(-209.8), "-209.8");
        assert_eq!(xdot_num(-0.001), "0");
        assert_eq!(xdot_num(20.0), "20");
        assert_eq!(gvprintnum(0.5), ".5");
    }
}
