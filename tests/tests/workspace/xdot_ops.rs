//! The vendored xdot reader (`vendor/graphviz-pure-core`, tl-draw's patch): each number is
//! read from the bytes up to the white space after it rather than from the whole rest of
//! the text (which made an operation of n points quadratic to read), and reads what it read
//! before: the painter's operations, and with them every PDF and PNG, are the same.

use graphviz_pure_core::xdot::{parse_xdot, Grad, Op};

#[test]
fn numbers_read_as_before_around_any_white_space() {
    // Numbers after several spaces, tabs, line breaks, vertical tabs and form feeds, signs,
    // exponents, a hexadecimal float, a number at the very end with nothing after it.
    let ops = parse_xdot("L 3 1.5  -2e1\t+.25\n0x1p4 \u{b}7\u{c}-0 e 1 2 3 4.75");
    assert_eq!(
        ops,
        vec![
            Op::Polyline(vec![(1.5, -20.0), (0.25, 16.0), (7.0, -0.0)]),
            Op::Ellipse(false, [1.0, 2.0, 3.0, 4.75]),
        ]
    );
    assert!(matches!(ops[0], Op::Polyline(ref p) if p[2].1.is_sign_negative()));
}

#[test]
fn a_number_stops_where_its_form_does() {
    // A number glued to what follows reads its longest valid prefix, as `strtod` does; the
    // operation after it then fails to parse, which ends the list.
    assert_eq!(
        parse_xdot("e 1 2 3 4x5 p 1 0 0"),
        vec![Op::Ellipse(false, [1.0, 2.0, 3.0, 4.0])]
    );
    assert_eq!(parse_xdot("e 1 2 3"), Vec::<Op>::new());
}

#[test]
fn nan_with_a_payload_reads_to_its_closing_parenthesis() {
    // `strtod` takes every character up to the first `)`, white space included.
    let ops = parse_xdot("e nan(a b) 2 3 4 e 5 6 7 8");
    assert_eq!(ops.len(), 2);
    let Op::Ellipse(false, [x, y, w, h]) = ops[0] else {
        panic!("{ops:?}")
    };
    assert!(x.is_nan());
    assert_eq!([y, w, h], [2.0, 3.0, 4.0]);
    assert_eq!(ops[1], Op::Ellipse(false, [5.0, 6.0, 7.0, 8.0]));
}

#[test]
fn strings_and_colours_read_as_before() {
    let ops = parse_xdot(
        "F 14 9 -Helvetica c 7 -#000000 C 9 -#ff0000ff T 10.5 -3 0 42.25 5 -ΔW x S 6 -dashed \
         C 33 -[0 0 10 10 2 0 4 -#fff 1 4 -#000]",
    );
    assert_eq!(
        ops,
        vec![
            Op::Font(14.0, "Helvetica".to_owned()),
            Op::Color(false, Grad::None("#000000".to_owned())),
            Op::Color(true, Grad::None("#ff0000ff".to_owned())),
            Op::Text(10.5, -3.0, 0, 42.25, "ΔW x".to_owned()),
            Op::Style("dashed".to_owned()),
            Op::Color(
                true,
                Grad::Linear(
                    0.0,
                    0.0,
                    10.0,
                    10.0,
                    vec![(0.0, "#fff".to_owned()), (1.0, "#000".to_owned())]
                )
            ),
        ]
    );
}

#[test]
fn a_long_spline_reads_every_point() {
    // The shape of a long arrow's spline (DenseNet-121's skip arrows have hundreds).
    let points: Vec<(f64, f64)> = (0..20_000)
        .map(|i| (f64::from(i) * 0.25, -f64::from(i) / 8.0))
        .collect();
    let mut text = format!("b {} ", points.len());
    for (x, y) in &points {
        text.push_str(&format!("{x} {y} "));
    }
    assert_eq!(parse_xdot(&text), vec![Op::Bezier(true, points)]);
}
