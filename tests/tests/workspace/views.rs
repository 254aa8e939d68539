//! Views (`view=`): golden DOT of every view on the fixtures it answers, its caption under
//! the header, the keywords that win over its settings, and the refusals naming a remedy.
//! Also the node restyling hook. `TL_UPDATE_GOLDEN=1` rewrites the golden files.

use tl_draw::{draw, Collapse, DrawOptions, NodeKind, Row, ThemeName, Trace, View};
use tl_tests::{check_golden, fixtures_dir};

fn trace(name: &str) -> Trace {
    Trace::load(fixtures_dir().join(format!("{name}.json"))).unwrap()
}

fn dot(name: &str, options: &DrawOptions) -> String {
    draw(&trace(name), options).unwrap().dot
}

#[test]
fn every_view_on_the_fixture_it_answers() {
    let cases = [
        ("convnet", "debug"),
        ("convnet", "speed"),
        ("convnet", "memory"),
        ("convnet", "compute"),
        ("gpt2", "transformer"),
        ("recurrent", "sequence"),
    ];
    for (fixture, view) in cases {
        let text = dot(fixture, &DrawOptions::default().view(view.parse().unwrap()));
        check_golden(&format!("dot/{fixture}.view_{view}.dot"), &text);
        assert!(
            text.contains(&format!("view: {view} -- ")),
            "{view}: the caption names the view and its question"
        );
    }
}

#[test]
fn views_bundle_their_settings_and_captions() {
    // speed: profiling rows, time colours, the five slowest called out.
    let speed = dot("convnet", &DrawOptions::default().view(View::Speed));
    assert!(speed.contains("time: encoded 12 of 12 ops"));
    assert!(speed.contains("time: 0.0279 ms ... 0.794 ms"));
    assert!(speed.contains("t=0.794 ms"), "rows in the key's unit");
    // Inputs and outputs have no measured time: no `t=` row rather than `t=0 ms`.
    assert!(!speed.contains("t=0 ms"));
    let input = speed
        .lines()
        .find(|l| l.contains("<B>input_1</B>"))
        .unwrap();
    assert!(
        !input.contains("<TD>t=") && input.contains("<TD>out="),
        "{input}"
    );
    for rank in 1..=5 {
        assert!(speed.contains(&format!("top-{rank} of 5 (")), "top-{rank}");
    }
    assert!(!speed.contains("top-6"));
    // debug: every buffer, a dtype row, the non-finite status in the caption.
    let debug = dot("convnet", &DrawOptions::default().view(View::Debug));
    assert!(debug.contains("dtype: float32"));
    assert!(debug.contains("running_mean"));
    assert!(debug.contains("non-finite status: all finite (12 of 12 ops checked)"));
    // memory: bytes, with the saved-for-backward rows this capture has.
    let memory = dot("convnet", &DrawOptions::default().view(View::Memory));
    assert!(memory.contains("bytes: 40 B ... 4 KB"));
    assert!(memory.contains("output-storage bytes, not live, allocator or peak memory"));
    // transformer: the first repeated block holding attention, its roles.
    let transformer = dot("gpt2", &DrawOptions::default().view(View::Transformer));
    assert!(transformer.contains("GPT2LMHeadModel &gt; transformer.h.0"));
    assert!(transformer
        .contains("drawing transformer.h.0, the first of 2 repeated blocks holding attention"));
    assert!(transformer.contains("attention role: fused q/k/v projection"));
    assert!(transformer.contains("attention: scaled dot-product (observed)"));
    // module= another block: the caption says which one it is, never "the first".
    let caption = |module: &str| {
        let dot = dot(
            "gpt2",
            &DrawOptions::default()
                .view(View::Transformer)
                .module(module),
        );
        let start = dot.find("drawing transformer").expect("a focus caption");
        dot[start..start + dot[start..].find('<').unwrap()].to_owned()
    };
    assert_eq!(
        caption("transformer.h.1"),
        "drawing transformer.h.1, block 2 of 2 repeated blocks holding attention"
    );
    assert_eq!(
        caption("transformer.h.0.attn"),
        "drawing transformer.h.0.attn; attention is held by 2 repeated blocks, the first transformer.h.0"
    );
    // sequence: unrolled, coloured by pass.
    let sequence = dot("recurrent", &DrawOptions::default().view(View::Sequence));
    assert!(sequence.contains("pass_index: 1 ... 3"));
    assert!(sequence.contains("tanh_1_5:3"));
}

#[test]
fn keywords_passed_win_over_the_view() {
    let by_bytes = dot(
        "convnet",
        &DrawOptions::default().view(View::Speed).color_by("bytes"),
    );
    assert!(by_bytes.contains("bytes: 40 B ... 4 KB") && !by_bytes.contains("time: 0.0279"));
    let other_block = dot(
        "gpt2",
        &DrawOptions::default()
            .view(View::Transformer)
            .module("transformer.h.1"),
    );
    assert!(other_block.contains("drawing transformer.h.1"));
    let no_key = dot(
        "convnet",
        &DrawOptions::default().view(View::Debug).show_legend(false),
    );
    assert!(!no_key.contains("tl_legend"));
    // theme= recolours any view.
    let dark = dot(
        "convnet",
        &DrawOptions::default()
            .view(View::Speed)
            .theme(ThemeName::Dark),
    );
    assert!(dark.contains("bgcolor=\"#111827\""));
    // An explicit collapse lets debug draw a large trace folded.
    let folded = dot(
        "stack40",
        &DrawOptions::default()
            .view(View::Debug)
            .collapse(Collapse::Auto),
    );
    assert!(folded.contains("box:"));
}

#[test]
fn views_refuse_traces_without_their_subject() {
    let refused = |fixture: &str, view: &str| {
        draw(
            &trace(fixture),
            &DrawOptions::default().view(view.parse().unwrap()),
        )
        .unwrap_err()
        .code()
    };
    assert_eq!(
        refused("convnet", "transformer"),
        "lens_attention_subject_absent"
    );
    assert_eq!(
        refused("convnet", "sequence"),
        "lens_single_pass_no_sequence"
    );
    assert_eq!(
        refused("convnet", "interventions"),
        "surgery_evidence_missing"
    );
    assert_eq!(
        DrawOptions::default()
            .set_keyword("view", &tl_draw::KeywordValue::Text("x-ray".into()))
            .unwrap_err()
            .code(),
        "visualization_view_invalid"
    );
    // A trace without timings cannot answer "where does time go?".
    let mut untimed = trace("convnet");
    for op in &mut untimed.ops {
        op.duration_s = None;
    }
    let error = draw(&untimed, &DrawOptions::default().view(View::Speed)).unwrap_err();
    assert_eq!(error.code(), "lens_headline_evidence_missing");
    assert!(error.to_string().contains("0 of 12 ops"), "{error}");
}

#[test]
fn the_node_hook_restyles_nodes_after_the_built_in_rules() {
    // The guide's example: drop the double border, and add a row to convolutions.
    let options = DrawOptions::default().node_spec_fn(|context, node| {
        node.peripheries = None;
        if let (NodeKind::Op(_), Some(op)) = (context.kind, context.op) {
            if op.layer_type == "conv2d" {
                node.rows.push(Row::plain("checked by hand"));
                node.fill = tl_draw::Fill::Solid("#FFD700".to_owned());
            }
        }
    });
    let text = dot("convnet", &options);
    assert!(!text.contains("peripheries=2"));
    assert_eq!(text.matches("checked by hand").count(), 2);
    assert_eq!(text.matches("fillcolor=\"#FFD700\"").count(), 2);
}

/// What a hook sets stays drawable (issue 31): `width=inf` gave `nan` coordinates and a
/// PNG error, a 10 MB row a 3 GB page, 100,000 rows 26 s and 3 GB (here 20,000).
#[test]
fn a_hook_cannot_set_what_a_drawing_cannot_show() {
    let options = DrawOptions::default().node_spec_fn(|_, node| {
        node.min_size = Some((f64::INFINITY, 1.0));
        node.penwidth = Some(f64::NAN);
        node.peripheries = Some(u32::MAX);
        node.rows.push(Row::plain("x".repeat(10 << 20)));
        node.rows
            .extend((0..100_000).map(|i| Row::plain(format!("field {i}"))));
    });
    let drawing = draw(&trace("convnet"), &options).unwrap();
    assert!(
        drawing.dot.len() < 2_000_000,
        "{} bytes of DOT",
        drawing.dot.len()
    );
    for node in &drawing.styled.nodes {
        assert!(node.rows.len() <= 64, "{}", node.rows.len());
        assert!(node
            .rows
            .iter()
            .all(|r| r.text.chars().count() <= tl_style::format::MAX_SHOWN_CHARS));
        assert_eq!((node.min_size, node.penwidth), (None, None));
        assert!(node.peripheries.unwrap_or(1) <= 10);
    }
    assert!(drawing.styled.nodes[0]
        .rows
        .last()
        .unwrap()
        .text
        .ends_with("more lines"));
    let svg = String::from_utf8(drawing.render(tl_draw::OutputFormat::Svg).unwrap().bytes).unwrap();
    assert!(!svg.contains("nan") && !svg.contains("inf"));
    assert!(!drawing
        .render(tl_draw::OutputFormat::Png)
        .unwrap()
        .bytes
        .is_empty());
}

#[test]
fn every_theme_recolours_an_encoded_view_with_readable_text() {
    let convnet = trace("convnet");
    for theme in tl_style::Theme::names() {
        let drawing = draw(
            &convnet,
            &DrawOptions::default()
                .view(View::Speed)
                .theme(theme.parse().unwrap()),
        )
        .unwrap();
        for node in &drawing.styled.nodes {
            let (tl_draw::Fill::Solid(fill) | tl_draw::Fill::Gradient(fill, _)) = &node.fill;
            let ratio = tl_style::contrast::ratio(fill, &node.font_color);
            assert!(
                ratio >= 4.5,
                "{theme}: {} text {} on {fill} has contrast {ratio:.2}",
                node.id,
                node.font_color
            );
        }
    }
}
