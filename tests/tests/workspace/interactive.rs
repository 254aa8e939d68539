//! The interactive page on traces at real sizes: what it holds, what a click leads to, and
//! what it does when a stop is too large to lay out. (The browser tests, `web/`, drive the
//! page itself.)

use tl_draw::{html, DrawOptions, Trace};
use tl_tests::{fixtures_dir, page_data as data};

#[test]
fn gpt2_small_holds_every_stop_and_opens_from_auto_down_to_a_block() {
    let trace = Trace::load(fixtures_dir().join("real/gpt2_small.json")).unwrap();
    let page = html::page(&trace, &DrawOptions::default()).unwrap();
    assert_eq!(
        page,
        html::page(&trace, &DrawOptions::default()).unwrap(),
        "deterministic"
    );
    assert!(
        page.len() < 4_000_000,
        "a few MB at most: {} bytes",
        page.len()
    );
    let data = data(&page);
    let stops = data["stops"].as_array().unwrap();
    let states = data["states"].as_array().unwrap();
    assert!(
        stops.iter().all(|s| s["state"].is_u64()),
        "every stop is laid out"
    );
    // With its 24 cache outputs drawn as one node when folded, the blocks box one by one:
    // a stop per block, and `auto` (the page's first drawing) inside the readable band.
    let counts: Vec<u64> = stops.iter().map(|s| s["nodes"].as_u64().unwrap()).collect();
    assert_eq!(counts[0], 579);
    assert!(counts.len() >= 12, "{counts:?}");
    let auto = stops.iter().find(|s| s["auto"] == true).unwrap();
    assert!(auto["nodes"].as_u64().unwrap() <= 25, "{auto}");
    // Opening the model, its transformer and its run of blocks reaches drawings of their
    // own, and the page stays within its limit of drawings.
    assert!(
        states.len() >= 4 && states.len() <= 120,
        "{} drawings",
        states.len()
    );
}

#[test]
fn a_stop_too_large_to_lay_out_is_left_out_and_the_page_still_opens() {
    let trace = tl_trace_model::synthetic::transformer_of_size(6_000);
    let limited = DrawOptions::default().max_nodes(3_000);
    let full = tl_draw::draw(&trace, &limited).err();
    assert!(
        full.is_some_and(|e| e.code() == "layout_too_large"),
        "full detail is over the node limit"
    );
    let data = data(&html::page(&trace, &limited).unwrap());
    let stops = data["stops"].as_array().unwrap();
    assert!(
        stops[0]["state"].is_null(),
        "full detail is not in the page"
    );
    assert!(stops.iter().any(|s| s["auto"] == true && s["state"] == 0));
}

/// A model past Graphviz's 5,000 nodes keeps its full-detail stop: the layered engine lays
/// it out (issue 33).
#[test]
fn a_large_model_keeps_its_full_detail_stop() {
    let trace = tl_trace_model::synthetic::transformer_of_size(6_000);
    let full = tl_draw::draw(&trace, &DrawOptions::default()).unwrap();
    assert_eq!(full.layout_engine(), tl_draw::LayoutEngine::Layered);
    let data = data(&html::page(&trace, &DrawOptions::default()).unwrap());
    let stops = data["stops"].as_array().unwrap();
    assert!(stops[0]["state"].is_u64(), "full detail is in the page");
}
