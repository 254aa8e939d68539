//! Golden DOT: the exact DOT source of every forward fixture's default drawing and of the
//! drawings of each option the forward-drawing issue covers. `TL_UPDATE_GOLDEN=1 cargo test
//! -p tl-tests --test golden_dot` rewrites them; review the pictures before committing.

use tl_draw::{draw, BufferVisibility, Direction, DrawOptions, LabelField, NodeStyle, Trace};
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
    // Pictures live in a per-machine folder; the golden file names it `$PICTURES`.
    let pictures = std::env::temp_dir().join("tl-draw-pictures");
    let dot = drawing.dot.replace(pictures.to_str().unwrap(), "$PICTURES");
    check_golden(&format!("dot/{name}.dot"), &dot);
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
        DrawOptions::default().show_legend(Some(true)),
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
        DrawOptions::default().show_legend(Some(true)),
    );
}

#[test]
fn every_theme_draws_the_first_drawing() {
    let convnet = trace("convnet");
    for theme in ["torchlens", "paper", "dark", "colorblind", "high_contrast"] {
        golden(
            &format!("convnet.theme_{theme}"),
            &convnet,
            DrawOptions::default().theme(theme).show_legend(Some(true)),
        );
    }
    let dark = draw(&convnet, &DrawOptions::default().theme("dark"))
        .unwrap()
        .dot;
    assert!(
        dark.contains("bgcolor=\"#111827\"") && dark.contains("color=\"#9CA3AF\""),
        "dark arrows and page"
    );
    assert!(
        !dark.contains("color=\"black\" fontcolor=\"black\" labelfontsize"),
        "no black arrows on the dark page"
    );
}
