//! The vendored writers' number formatting (`vendor/graphviz-pure-render`, tl-draw's patch):
//! its fast paths write what graphviz-pure-core's exact formatters write, digit for digit,
//! so that the drawings' SVG, JSON and xdot text is the text graphviz-pure writes, and the
//! numbers the writers push straight into their text are the ones its trimmed strings hold.

use graphviz_pure_render::emit::num as number;

/// Numbers a drawing writes and the edges of the fast paths: ties, carries into a new
/// digit, powers of ten, signed zeros, the bounds, non-finite values, and a spread of
/// values from a fixed pseudo-random sequence.
fn awkward_numbers() -> Vec<f64> {
    let mut values = vec![
        0.0,
        -0.0,
        0.5,
        -0.5,
        1.5,
        2.5,
        0.125,
        0.0625,
        0.0005,
        0.00049,
        9.9995,
        99999.5,
        99999.4,
        9999.95,
        999.995,
        0.99995,
        1e-4,
        9.9999e-5,
        1e5,
        1e6,
        1e9,
        1e12,
        123456.0,
        0.001,
        0.01,
        0.1,
        1.0,
        10.0,
        100.0,
        1000.0,
        10000.0,
        72.0,
        36.0,
        -209.8,
        205.8,
        0.333333333,
        2.0 / 3.0,
        1.0 / 72.0,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::MIN_POSITIVE,
        f64::MAX,
        5e-324,
    ];
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    for _ in 0..200_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let unit = (state >> 11) as f64 / (1u64 << 53) as f64;
        let scale = [1e-5, 1e-3, 1.0, 100.0, 1e4, 2e5, 1e7][(state % 7) as usize];
        let value = (unit - 0.3) * scale;
        values.push(value);
        // Binary fractions land on exact decimal ties.
        values.push((value * 64.0).round() / 64.0);
        values.push((value * 2000.0).round() / 2000.0);
    }
    values
}

#[test]
fn fixed_and_g_write_what_the_exact_formatters_write() {
    for v in awkward_numbers() {
        for prec in 0..=12 {
            assert_eq!(
                number::c_fixed(v, prec),
                graphviz_pure_core::cnum::fmt_f(v, prec),
                "{v:e} at {prec}"
            );
        }
        for prec in 1..=7 {
            assert_eq!(
                number::fmt_g(v, prec),
                graphviz_pure_core::diag::fmt_g(v, prec),
                "{v:e} at {prec}"
            );
        }
    }
}

#[test]
fn pushed_numbers_are_the_trimmed_ones() {
    // The writers push coordinates straight into their text; the text is the trimmed
    // `%.2f` the string functions give, `-0` and ties included.
    let mut more = awkward_numbers();
    more.extend([
        0.004, -0.004, 0.005, -0.005, 0.0049999, -0.001, 0.05, 0.5, 1.1, 10.1,
    ]);
    for v in more {
        let mut text = String::from("x");
        number::push_xdot_num(&mut text, v);
        assert_eq!(text[1..], number::xdot_num(v), "{v:e}");
        text.truncate(1);
        number::push_gvdouble(&mut text, v);
        assert_eq!(text[1..], number::gvdouble(v), "{v:e}");
    }
}

#[test]
fn numbers_read_back_without_text_are_the_ones_read_from_it() {
    // The painting's operations take each xdot number as the reader reads its text back,
    // worked out without the text: bit for bit (the sign of zero too), where a number is
    // read; where none is, neither way gives one.
    let mut more = awkward_numbers();
    more.extend([
        0.004, -0.004, 0.005, -0.005, -0.001, 0.015, 1.005, 2.675, -2.675,
    ]);
    for v in more {
        let mut text = String::new();
        number::push_xdot_num(&mut text, v);
        let read = match graphviz_pure_core::xdot::parse_xdot(&format!("F {text} 1 -a")).first() {
            Some(graphviz_pure_core::xdot::Op::Font(size, _)) => Some(*size),
            _ => None,
        };
        let handed = number::xdot_num_read_back(v);
        assert_eq!(
            handed.map(f64::to_bits),
            read.map(f64::to_bits),
            "{v:e} written {text}"
        );
    }
}
