//! The layout guard on adversarial shapes (issue 31): what it refuses it refuses before
//! layout, naming the cause and the remedies; what real models draw it lets through. The
//! times of what it lets through are in `cargo xtask bench-guard`, not here.

use tl_draw::guard::{position_limit, DEFAULT_MAX_HUB_LOAD};
use tl_draw::{draw, DrawOptions, LayoutEngine, OutputFormat};
use tl_trace_model::synthetic::transformer_of_size;

/// A mask every block reads, at `--depth 2`: with Graphviz's algorithm 1,800 operations lay
/// out in 7-12 s, 2,400 in a minute and 6,000 in over five, at fewer points than the
/// 32-layer Llama's 160,000; asked for by name, it is refused. `auto` gives it to the
/// layered engine, which draws it.
#[test]
fn a_mask_read_by_every_block_is_refused_by_its_hub_load_naming_it() {
    let depth_2 = DrawOptions::default()
        .depth(2)
        .layout_engine(LayoutEngine::Embedded);
    let small = draw(&transformer_of_size(1800), &depth_2).expect("within the guard");
    let cost = tl_draw::guard::layout_cost(&small.styled);
    assert!(cost.hub_load <= DEFAULT_MAX_HUB_LOAD, "{cost:?}");
    for ops in [2400, 6000] {
        let error = draw(&transformer_of_size(ops), &depth_2).unwrap_err();
        assert_eq!(error.code(), "layout_too_large");
        let message = error.to_string();
        assert!(message.contains("`tril_1_2` has"), "{message}");
        for remedy in [
            "--layout-engine layered",
            "--collapse auto",
            "--depth 1",
            "--module",
            "--force",
        ] {
            assert!(message.contains(remedy), "{message}");
        }
        assert!(draw(&transformer_of_size(ops), &depth_2.clone().force(true)).is_ok());
    }
    let auto = DrawOptions::default().depth(2);
    let drawing = draw(&transformer_of_size(2400), &auto).expect("auto takes it");
    assert_eq!(drawing.layout_engine(), LayoutEngine::Layered);
    let svg = drawing
        .render(OutputFormat::Svg)
        .expect("the layered engine draws it");
    assert!(String::from_utf8_lossy(&svg.bytes).contains("tril_1_2"));
}

/// The x placement's iteration bound is written where it could matter, and not with
/// `force`, which asks for the whole layout.
#[test]
fn a_drawing_let_through_a_raised_limit_carries_the_position_bound() {
    let trace = transformer_of_size(1800);
    let raised = DrawOptions::default()
        .max_layout_cost(1_000_000)
        .layout_engine(LayoutEngine::Embedded);
    let drawing = draw(&trace, &raised).expect("the raised limit lets it through");
    let limit = position_limit(tl_draw::guard::layout_cost(&drawing.styled)).unwrap();
    assert!(
        drawing.dot.contains(&format!(" nslimit={limit} ")),
        "{}",
        drawing.dot.lines().nth(2).unwrap_or_default()
    );
    let forced = draw(
        &trace,
        &DrawOptions::default()
            .force(true)
            .layout_engine(LayoutEngine::Embedded),
    )
    .unwrap();
    assert!(!forced.dot.contains("nslimit"));
    // The layered engine has no iteration bound to write.
    let layered = draw(&trace, &DrawOptions::default()).unwrap();
    assert_eq!(layered.layout_engine(), LayoutEngine::Layered);
    assert!(!layered.dot.contains("nslimit"));
    let gpt2 = tl_draw::Trace::load(tl_tests::fixtures_dir().join("real/gpt2_small.json")).unwrap();
    let small = draw(&gpt2, &DrawOptions::default()).unwrap();
    assert!(
        !small.dot.contains("nslimit"),
        "GPT-2 small's DOT is as it was"
    );
}

/// Every layer's output collected by one final op: the bundle converges on one node, which
/// Graphviz's algorithm takes longer over than a hub read by as many (150 operations: 15 s).
/// Asked for by name, it refuses; `auto` draws it with the layered engine.
#[test]
fn a_chain_collected_by_one_op_is_refused_by_its_hub_load() {
    use tl_trace_model::synthetic::chain_into_one;
    let embedded = DrawOptions::default().layout_engine(LayoutEngine::Embedded);
    assert!(draw(&chain_into_one(100), &embedded).is_ok());
    let error = draw(&chain_into_one(150), &embedded).unwrap_err();
    assert_eq!(error.code(), "layout_too_large");
    assert!(error.to_string().contains("`stack_1_151` has"), "{error}");
    let drawing = draw(&chain_into_one(150), &DrawOptions::default()).unwrap();
    assert_eq!(drawing.layout_engine(), LayoutEngine::Layered);
}
