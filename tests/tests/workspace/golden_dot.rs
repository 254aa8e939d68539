//! Golden DOT: the exact DOT source of every forward fixture's default drawing and of the
//! drawings of each option the forward-drawing issue covers. `TL_UPDATE_GOLDEN=1 cargo test
//! -p tl-tests --test workspace golden_dot::` rewrites them; review the pictures before committing.

use tl_draw::{
    draw, BufferVisibility, Direction, DrawOptions, LabelField, NodeStyle, ThemeName, Trace,
    ValueSource,
};
use tl_tests::{check_golden, fixture_files, fixtures_dir, is_bundle};

fn trace(name: &str) -> Trace {
    Trace::load(fixtures_dir().join(format!("{name}.json"))).unwrap()
}

fn golden(name: &str, trace: &Trace, options: DrawOptions) {
    let drawing = draw(trace, &options).unwrap();
    // Deterministic: drawing twice gives the same bytes.
    assert_eq!(
        draw(trace, &options).unwrap().dot,
        drawing.dot,
        "{name} is not deterministic"
    );
    // The DOT is the same on every machine: pictures are named relatively.
    check_golden(&format!("dot/{name}.dot"), &drawing.dot);
}

#[test]
fn every_forward_fixture_default_drawing() {
    for path in fixture_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        if is_bundle(&text) {
            continue;
        }
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        golden(
            &name,
            &Trace::from_json(&text).unwrap(),
            DrawOptions::default(),
        );
    }
}

#[test]
fn depth_cuts() {
    golden(
        "convnet.depth1",
        &trace("convnet"),
        DrawOptions::default().depth(1),
    );
    golden(
        "convnet.depth2",
        &trace("convnet"),
        DrawOptions::default().depth(2),
    );
    golden(
        "stack8.depth1",
        &trace("stack8"),
        DrawOptions::default().depth(1),
    );
}

#[test]
fn buffers_and_rows() {
    let convnet = trace("convnet");
    golden(
        "convnet.buffers_always",
        &convnet,
        DrawOptions::default().show_buffers(BufferVisibility::Always),
    );
    golden(
        "convnet.buffers_never",
        &convnet,
        DrawOptions::default().show_buffers(BufferVisibility::Never),
    );
    golden(
        "convnet.legend",
        &convnet,
        DrawOptions::default().show_legend(true),
    );
    golden(
        "convnet.redundant_args",
        &convnet,
        DrawOptions::default().show_redundant_args(true),
    );
    golden(
        "convnet.saved_for_backward",
        &convnet,
        DrawOptions::default().show_saved_for_backward(true),
    );
    golden(
        "convnet.profiling",
        &convnet,
        DrawOptions::default().node_style(NodeStyle::Profiling),
    );
    golden(
        "convnet.label_fields",
        &convnet,
        DrawOptions::default().node_label_fields(vec![
            LabelField::Name,
            LabelField::Shape,
            LabelField::Dtype,
        ]),
    );
    golden(
        "convnet.leftright",
        &convnet,
        DrawOptions::default().direction(Direction::LeftRight),
    );
    golden(
        "frozen.legend",
        &trace("frozen"),
        DrawOptions::default().show_legend(true),
    );
}

#[test]
fn every_theme_draws_the_first_drawing() {
    let convnet = trace("convnet");
    for theme in ["torchlens", "paper", "dark", "colorblind", "high_contrast"] {
        golden(
            &format!("convnet.theme_{theme}"),
            &convnet,
            DrawOptions::default()
                .theme(theme.parse().unwrap())
                .show_legend(true),
        );
    }
    let dark = draw(&convnet, &DrawOptions::default().theme(ThemeName::Dark))
        .unwrap()
        .dot;
    assert!(
        dark.contains("bgcolor=\"#111827\"") && dark.contains("color=\"#9CA3AF\""),
        "dark arrows and page"
    );
    let arrow_defaults = dark.lines().find(|l| l.starts_with("\tedge [")).unwrap();
    assert!(
        arrow_defaults.contains("color=\"#9CA3AF\""),
        "dark arrows: {arrow_defaults}"
    );
    assert!(
        !dark
            .lines()
            .any(|l| (l.contains(" -> ") || l.starts_with("\tedge [")) && l.contains("\"black\"")),
        "no black arrows on the dark page"
    );
}

#[test]
fn edge_shapes_label_every_arrow() {
    let convnet = trace("convnet");
    golden(
        "convnet.edge_shapes",
        &convnet,
        DrawOptions::default().show_edge_shapes(true),
    );
    // On a collapsed drawing an arrow into a box carries the shape of what enters it.
    let stack8 = trace("stack8");
    let options = DrawOptions::default()
        .collapse(tl_draw::Collapse::Level(0.5))
        .show_edge_shapes(true);
    golden("stack8.collapse_0.5.edge_shapes", &stack8, options.clone());
    let dot = draw(&stack8, &options).unwrap().dot;
    let arrow = |from: &str, to: &str| {
        dot.lines()
            .find(|line| line.contains(&format!("\"{from}\" -> \"{to}\"")))
            .unwrap()
            .to_owned()
    };
    assert!(arrow("input_1pass1", "linear_1_1pass1").contains(">(2, 4)<"));
    assert!(arrow("linear_1_1pass1", "box:blocks.0:1").contains(">(2, 8)<"));
}

#[test]
fn colour_and_size_by_value() {
    let convnet = trace("convnet");
    golden(
        "convnet.color_by_time",
        &convnet,
        DrawOptions::default().color_by("time"),
    );
    golden(
        "gpt2.color_by_flops.size_by_bytes",
        &trace("gpt2"),
        DrawOptions::default().color_by("flops").size_by("bytes"),
    );
    // The key of an encoded drawing shows its scales and nothing else by default.
    let dot = draw(&convnet, &DrawOptions::default().color_by("time"))
        .unwrap()
        .dot;
    assert!(dot.contains("time: 0.0279 ms ... 0.794 ms"), "{dot}");
    assert!(!dot.contains("ellipse: an operation"));
    // Inputs and outputs keep their role colour as a ring around the scale fill.
    let input = dot
        .lines()
        .find(|l| l.starts_with("\t\"input_1pass1\" ["))
        .unwrap();
    assert!(
        input.contains("color=\"#98FB98\"") && input.contains("peripheries=2"),
        "{input}"
    );
    // A closure from Rust, with the name the key shows; a field by name.
    let by_step = ValueSource::custom("step", |op| Some(f64::from(op.step_index)));
    let dot = draw(&convnet, &DrawOptions::default().color_by(by_step))
        .unwrap()
        .dot;
    assert!(dot.contains("step: 0 ... 12"), "{dot}");
    let dot = draw(&convnet, &DrawOptions::default().size_by("step_index"))
        .unwrap()
        .dot;
    assert!(dot.contains("size: step_index, 0 ... 12") && dot.contains("fixedsize=false"));
}

#[test]
fn encoding_requests_that_cannot_be_drawn_are_refused() {
    let convnet = trace("convnet");
    let refused = |options: DrawOptions| draw(&convnet, &options).unwrap_err().code();
    assert_eq!(
        refused(DrawOptions::default().color_by("nosuch")),
        "encoding_source_invalid"
    );
    assert_eq!(
        refused(DrawOptions::default().color_by("dims")),
        "encoding_source_invalid"
    );
    assert_eq!(
        refused(DrawOptions::default().color_by("dtype")),
        "encoding_value_invalid"
    );
    assert_eq!(
        refused(DrawOptions::default().size_scale("linear")),
        "scale_requires_size_by"
    );
    assert_eq!(
        refused(DrawOptions::default().size_by("bytes").size_scale("cubic")),
        "size_scale_invalid"
    );
    // A rolled layer whose passes differ cannot take one size.
    let recurrent = trace("recurrent");
    let error = draw(
        &recurrent,
        &DrawOptions::default().rolled(true).size_by("pass_index"),
    )
    .unwrap_err();
    assert_eq!(error.code(), "size_by_rolled_varying");
}

#[test]
fn node_content_rows_pictures_and_decoded_labels() {
    let drawing = draw(&trace("photo"), &DrawOptions::default()).unwrap();
    let node = |id: &str| {
        drawing
            .styled
            .nodes
            .iter()
            .find(|n| n.id == id)
            .unwrap()
            .clone()
    };
    let rows = |id: &str| -> Vec<String> { node(id).rows.iter().map(|r| r.text.clone()).collect() };
    // annotate(data=...) entries are rows.
    assert_eq!(
        rows("conv2d_1_1pass1").last().unwrap(),
        "note: stem: stride 2"
    );
    // A feature-map grid sits in its own cell above the rows of a rounded box.
    let relu = node("relu_1_2pass1");
    assert!(relu.picture.is_some() && relu.rounded);
    // The output lists the decoded class names, best first, in a rounded box.
    let output = node("output_1pass1");
    assert!(output.rounded && output.shape == tl_draw::Shape::Box);
    assert_eq!(
        rows("output_1pass1")[3..],
        ["1. abstract 39%", "2. portrait 33%", "3. landscape 28%"]
    );
}

/// The guide: under color_by= "the input and output keep their colours as a ring ... The
/// key shows the same rings", and a key appears whenever a colour channel is on. size_by=
/// alone changes no fill, so its key has no rings.
#[test]
fn colour_keys_show_the_input_and_output_rings() {
    for show_legend in [None, Some(true)] {
        let mut options = DrawOptions::default().color_by("time");
        options.show_legend = show_legend;
        let drawing = draw(&trace("convnet"), &options).unwrap();
        let legend = drawing.styled.legend.as_ref().expect("a key");
        let rings: Vec<&str> = legend
            .entries
            .iter()
            .filter(|entry| entry.ring)
            .map(|entry| entry.text.as_str())
            .collect();
        assert_eq!(rings, ["model input", "model output"], "{show_legend:?}");
        assert!(legend
            .entries
            .iter()
            .all(|entry| entry.ring || entry.swatch.is_none()));
        assert_eq!(
            drawing
                .dot
                .matches("COLOR=\"#98FB98\" WIDTH=\"16\"")
                .count(),
            1,
            "the input's ring in the key"
        );
    }
    let sized = draw(&trace("convnet"), &DrawOptions::default().size_by("bytes")).unwrap();
    let legend = sized
        .styled
        .legend
        .as_ref()
        .expect("a key for the size channel");
    assert!(legend.entries.iter().all(|entry| !entry.ring));
}
