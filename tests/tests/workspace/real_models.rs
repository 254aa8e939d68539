//! Real architectures at their real sizes (`fixtures/real`, built by `cargo xtask fixtures`
//! from `python/tl_export/real_models.py`): every one draws at full detail within the layout
//! guard, and the DOT constructs that made their layouts slow stay out. These are structural
//! checks of the DOT (issue: GPT-2 small took 16.7 s and GPT-2-48 never finished, because
//! every output was pinned to the sink; DenseNet's ranked concatenation labels cost 7x).
//! Timings live in `cargo xtask bench-compare`, not here.

use std::path::{Path, PathBuf};

use tl_draw::guard::{layout_cost, DEFAULT_MAX_HUB_LOAD, DEFAULT_MAX_LAYOUT_COST};
use tl_draw::{draw, Collapse, DrawOptions, Trace};
use tl_tests::{fixtures_dir, node_titles};

fn real(name: &str) -> PathBuf {
    fixtures_dir().join("real").join(format!("{name}.json"))
}

/// The committed real architectures, by name (the adapter's test checks they are the
/// builder's whole list).
fn committed() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(fixtures_dir().join("real"))
        .expect("fixtures/real exists")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .map(|path| stem(&path))
        .collect();
    names.sort();
    names
}

fn stem(path: &Path) -> String {
    path.file_stem().unwrap().to_string_lossy().into_owned()
}

/// The node ids inside the DOT's `rank=sink` block.
fn sink_members(dot: &str) -> Vec<String> {
    let Some(start) = dot.find("rank=sink") else {
        return Vec::new();
    };
    let block = &dot[start..dot[start..].find('}').map_or(dot.len(), |end| start + end)];
    block
        .lines()
        .skip(1)
        .map(|line| line.trim().trim_matches('"').to_owned())
        .filter(|line| !line.is_empty())
        .collect()
}

#[test]
fn the_real_fixtures_cover_the_families_users_draw() {
    let names = committed();
    for family in [
        "gpt2_",
        "bert",
        "vit",
        "resnet",
        "mobilenet",
        "densenet",
        "unet",
        "lstm_gru",
        "llama_",
        "mixtral_",
        "t5_",
        "whisper_",
        "mamba",
        "vae_",
        "lstmcell_",
    ] {
        assert!(
            names.iter().any(|name| name.starts_with(family)),
            "{family}: run `cargo xtask fixtures` ({names:?})"
        );
    }
}

#[test]
fn only_the_output_made_last_is_pinned_to_the_sink() {
    for name in [
        "gpt2_small",
        "gpt2_48",
        "llama_4",
        "llama_32",
        "mixtral_4",
        "t5_small",
        "whisper_tiny",
    ] {
        let trace = Trace::load(real(name)).unwrap();
        let outputs: Vec<&str> = trace
            .ops
            .iter()
            .filter(|op| op.kind == tl_trace_model::OpKind::Output)
            .map(|op| op.label.as_str())
            .collect();
        assert!(
            outputs.len() > 8,
            "{name}: the logits and the key/value cache are outputs ({} found)",
            outputs.len()
        );
        let drawing = draw(&trace, &DrawOptions::default()).unwrap();
        let sink = sink_members(&drawing.dot);
        // The logits (`output_1`, returned first, made last by the head), never the last
        // cache value or T5's encoder state returned last (TorchLens pins that one, above the
        // logits at the end of a long arrow). Node ids name the layer and its pass.
        assert_eq!(
            sink,
            ["output_1pass1".to_owned()],
            "{name}: only the output made last is pinned to rank=sink (every output there forces each cache arrow past every later block)"
        );
    }
}

#[test]
fn labels_of_many_input_operations_float_beside_their_arrows() {
    let trace = Trace::load(real("densenet121")).unwrap();
    let drawing = draw(&trace, &DrawOptions::default()).unwrap();
    let arrows: Vec<&str> = drawing.dot.lines().filter(|l| l.contains(" -> ")).collect();
    let floating = arrows.iter().filter(|l| l.contains("xlabel=<")).count();
    let ranked_argument_labels = arrows
        .iter()
        .filter(|l| l.contains(" label=<") || l.contains("[label=<"))
        .filter(|l| l.contains("arg ("))
        .count();
    assert!(
        floating > 500,
        "DenseNet's concatenations read every earlier layer: their `arg` labels float ({floating})"
    );
    assert_eq!(
        ranked_argument_labels, 0,
        "a ranked midpoint label becomes a layout node and doubles every rank"
    );
}

#[test]
fn every_real_fixture_draws_at_full_detail_within_the_layout_guard() {
    for name in committed() {
        let name = name.as_str();
        let trace = Trace::load(real(name)).unwrap();
        // Over the node limit (Mamba-130m: 5,103 nodes), refused naming the count.
        let nodes = draw(&trace, &DrawOptions::default().force(true))
            .unwrap()
            .styled
            .nodes
            .len();
        if nodes > tl_draw::guard::DEFAULT_MAX_NODES {
            let error = draw(&trace, &DrawOptions::default()).unwrap_err();
            assert_eq!(error.code(), "layout_too_large");
            assert!(
                error.to_string().contains(&format!("{nodes} nodes")),
                "{error}"
            );
            continue;
        }
        let drawing = draw(&trace, &DrawOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e} [{}]", e.code()));
        let cost = layout_cost(&drawing.styled);
        assert!(cost.total() <= DEFAULT_MAX_LAYOUT_COST, "{name}: {cost:?}");
        // No real model comes near the hub limit (DenseNet-121 is the highest measured).
        assert!(
            cost.hub_load * 10 <= DEFAULT_MAX_HUB_LOAD,
            "{name}: {cost:?}"
        );
        // The cost of a transformer grows with its depth linearly, never by a cliff: about
        // 41 virtual nodes a layer (measured: 248 / 494 / 986 / 1,970 at 6 / 12 / 24 / 48).
        let layers = match name {
            "gpt2_small" => Some(12),
            other => other
                .strip_prefix("gpt2_")
                .and_then(|l| l.parse::<usize>().ok()),
        };
        if let Some(layers) = layers {
            assert!(cost.virtual_nodes <= 50 * layers, "{name}: {cost:?}");
        }
    }
}

#[test]
fn a_drawing_over_the_layout_cost_is_refused_with_the_remedies() {
    let trace = Trace::load(real("densenet121")).unwrap();
    let embedded = DrawOptions::default()
        .max_layout_cost(10_000)
        .layout_engine(tl_draw::LayoutEngine::Embedded);
    let error = draw(&trace, &embedded).unwrap_err();
    assert_eq!(error.code(), "layout_too_large");
    let message = error.to_string();
    for remedy in [
        "--layout-engine layered",
        "--collapse auto",
        "--depth",
        "--module",
        "--force",
    ] {
        assert!(message.contains(remedy), "{message}");
    }
    assert!(draw(&trace, &embedded.force(true)).is_ok());
    // `auto` gives it to the layered engine, which no cost limit holds.
    let auto = draw(&trace, &DrawOptions::default().max_layout_cost(10_000)).unwrap();
    assert_eq!(auto.layout_engine(), tl_draw::LayoutEngine::Layered);
}

/// A box is named after the outermost module holding its operations: UNet's `inc` is a
/// DoubleConv whose only child `net` (a Sequential) holds the same operations, and `max`
/// boxes it as `@inc (DoubleConv)`, never `@inc.net (Sequential)`.
#[test]
fn boxes_take_the_name_of_the_outermost_module_holding_their_operations() {
    let unet = Trace::load(real("unet")).unwrap();
    let drawing = draw(
        &unet,
        &DrawOptions::default().collapse(tl_draw::Collapse::Max),
    )
    .unwrap();
    let boxes: Vec<(&str, &str)> = drawing
        .styled
        .nodes
        .iter()
        .filter(|node| node.shape == tl_draw::Shape::Box3d)
        .map(|node| (node.rows[0].text.as_str(), node.rows[1].text.as_str()))
        .collect();
    assert!(boxes.contains(&("@inc", "DoubleConv")), "{boxes:?}");
    assert!(
        !boxes.iter().any(|(title, _)| title.contains(".net")),
        "{boxes:?}"
    );
}

/// `max` capsules runs of operations across module frames, as the guide's "the modules it
/// spans" says and TorchLens does: ViT's patch embedding, class token and the encoder's
/// first add and dropout are one capsule of 7 operations (before, only the 3 inside
/// `@conv_proj`, and `max` drew 14 nodes); the twelve layers, too many for one capsule,
/// are two capsules in the `@encoder.layers` frame that holds them: 6 nodes, as TorchLens.
#[test]
fn max_capsules_runs_of_operations_across_module_frames() {
    let vit = Trace::load(real("vit_b_16")).unwrap();
    let drawing = draw(
        &vit,
        &DrawOptions::default().collapse(tl_draw::Collapse::Max),
    )
    .unwrap();
    let styled = &drawing.styled;
    let titles: Vec<&str> = styled
        .nodes
        .iter()
        .map(|n| n.rows[0].text.as_str())
        .collect();
    assert!(
        titles.contains(
            &"conv2d_1_1 ... dropout_1_7 -- 7 ops -- spans @conv_proj, @encoder, @encoder.dropout"
        ),
        "{titles:?}"
    );
    assert!(
        styled.nodes.len() <= 8,
        "{} nodes: {titles:?}",
        styled.nodes.len()
    );
    let capsule = styled
        .nodes
        .iter()
        .find(|n| {
            n.rows[0]
                .text
                .starts_with("encoder.layers.encoder_layer_0-")
        })
        .expect("a capsule of encoder layers");
    let frame = &styled.clusters[capsule.cluster.expect("inside a frame")];
    assert_eq!(frame.title, "@encoder.layers");
    // Capsules are dashed boxes; the frame around them is solid, since what they hold was
    // computed from the input (a dashed frame means nothing inside was).
    assert!(!frame.dashed);
}

/// The schedule's promises on every real architecture, not only on synthetic traces: the
/// stops fold monotonically (each draws fewer nodes than the one before, at a higher
/// level), and every stop draws the node count it prints.
#[test]
fn every_schedule_stop_of_every_real_fixture_draws_its_printed_count() {
    for name in committed() {
        let trace = Trace::load(real(&name)).unwrap();
        let schedule =
            tl_draw::Schedule::build(&trace, tl_draw::BufferVisibility::Meaningful).unwrap();
        for pair in schedule.stops.windows(2) {
            assert!(
                pair[1].level > pair[0].level && pair[1].nodes < pair[0].nodes,
                "{name}"
            );
        }
        for step in &schedule.stops {
            let options = DrawOptions::default()
                .collapse(tl_draw::Collapse::Level(step.level))
                .force(true);
            let drawing = draw(&trace, &options).unwrap();
            let drawn = drawing
                .styled
                .nodes
                .iter()
                .filter(|node| node.id != "tl_legend")
                .count();
            assert_eq!(drawn, step.nodes, "{name} at t={}", step.level);
        }
    }
}

/// Against TorchLens 2.36.1's own collapsed drawings of the same traces
/// (`fixtures/real/reference/<name>.auto.dot`, `.max.dot`): `max` draws at most TorchLens's
/// node count, and `auto` is inside the readable band unless even `max` is not.
#[test]
fn collapsed_drawings_are_as_condensed_as_torchlens() {
    let mut compared = 0;
    for name in committed() {
        let reference = |level: &str| {
            let path = fixtures_dir()
                .join("real")
                .join("reference")
                .join(format!("{name}.{level}.dot"));
            let dot = std::fs::read_to_string(path).ok()?;
            Some(
                tl_tests::reference_dot::parse_reference(&dot, false)
                    .0
                    .len(),
            )
        };
        let Some(their_max) = reference("max") else {
            continue;
        };
        let trace = Trace::load(real(&name)).unwrap();
        let schedule =
            tl_draw::Schedule::build(&trace, tl_draw::BufferVisibility::Meaningful).unwrap();
        let ours = schedule.max().nodes;
        assert!(
            ours <= their_max,
            "{name}: max draws {ours} nodes, TorchLens {their_max}"
        );
        let band = tl_draw::readable_band(&trace);
        let auto = schedule.auto(band).nodes;
        assert!(
            auto <= band || auto == ours,
            "{name}: auto draws {auto} nodes, band {band}"
        );
        compared += 1;
    }
    assert!(compared >= 8, "compared {compared} real fixtures");
}

/// A language model with its key/value cache, folded: the cache is one output node saying
/// what it holds, `auto` is inside the readable band at every depth of the GPT-2 family
/// and of the Llama-style decoder (whose rotary cos and sin feed every block) and shows its
/// blocks, and full detail still draws every output.
#[test]
fn folded_language_models_draw_their_cache_as_one_output_node() {
    use tl_draw::Collapse;
    // Name, layers, the cache's shapes, how its places in the returned structure end.
    for (name, layers, shape, place) in [
        ("gpt2_6", 6, "(1, 12, 16, 64)", ""),
        ("gpt2_small", 12, "(1, 12, 16, 64)", ""),
        ("gpt2_24", 24, "(1, 12, 16, 64)", ""),
        ("gpt2_48", 48, "(1, 12, 16, 64)", ""),
        ("llama_4", 4, "(1, 2, 16, 64)", ""),
        ("llama_32", 32, "(1, 2, 16, 64)", ""),
        ("mixtral_4", 4, "(1, 2, 16, 64)", ""),
        // A convolution state then a recurrent state per layer: a pair of shapes in turn.
        ("mamba", 24, "(1, 1536, 4) and (1, 1536, 16) in turn", ".0"),
    ] {
        let trace = Trace::load(real(name)).unwrap();
        let auto = draw(&trace, &DrawOptions::default().collapse(Collapse::Auto)).unwrap();
        assert!(
            auto.styled.nodes.len() <= 25,
            "{name}: {} nodes at auto",
            auto.styled.nodes.len()
        );
        let cache: Vec<_> = auto
            .styled
            .nodes
            .iter()
            .filter(|node| node.id.starts_with("outputs:"))
            .collect();
        assert_eq!(cache.len(), 1, "{name}: one node for the cache");
        let rows: Vec<&str> = cache[0].rows.iter().map(|row| row.text.as_str()).collect();
        assert_eq!(rows[0], format!("{} outputs", 2 * layers), "{name}");
        let each = if shape.ends_with("in turn") {
            ""
        } else {
            " each"
        };
        assert!(
            rows[1].starts_with(&format!("{shape}{each}, ")),
            "{name}: {rows:?}"
        );
        // Embedding, blocks and head: the blocks boxed, or a run of them in a capsule.
        let blocks = auto
            .styled
            .nodes
            .iter()
            .filter(|node| node.id.contains(".h.") || node.id.contains(".layers."))
            .count();
        assert!(blocks >= 2, "{name}: the blocks are drawn ({blocks})");
        assert_eq!(
            rows[2],
            format!("@output.1{place} ... @output.{}{place}", 2 * layers),
            "{name}"
        );
        let full = draw(&trace, &DrawOptions::default().force(true)).unwrap();
        let outputs = full.dot.matches("@output.").count();
        assert!(
            outputs > 2 * layers,
            "{name}: full detail keeps every output"
        );
    }
}

/// An operation that reads one tensor in several slots (ViT's attention takes its layer
/// norm as query, key and value; a rotary embedding's `torch.cat((freqs, freqs))`) says so
/// on its one arrow: `x3` and each slot. (TorchLens draws one labelled arrow per slot.)
#[test]
fn a_tensor_read_in_several_slots_shows_each_slot_and_the_count() {
    let trace = Trace::load(real("vit_b_16")).unwrap();
    let drawing = draw(&trace, &DrawOptions::default()).unwrap();
    let arrow = drawing
        .dot
        .lines()
        .find(|line| {
            line.contains("\"layernorm_1_8pass1\" -> \"nativemultiheadattention_1_9pass1\"")
        })
        .expect("the layer norm feeds the attention");
    assert!(arrow.contains("arg 0<BR/>arg 1<BR/>arg 2"), "{arrow}");
    assert!(arrow.contains(">x3<"), "{arrow}");
}

/// An `nn.LSTMCell` stepped 64 times by a loop: at `depth=1` each call is one box holding
/// its two outputs (h and c), as TorchLens draws it (133 nodes); before, the two outputs
/// stayed rectangles and nothing was boxed (197 nodes, issue 29).
#[test]
fn a_cell_called_in_a_loop_is_one_box_per_call_at_depth_one() {
    let trace = Trace::load(real("lstmcell_64")).unwrap();
    let drawing = draw(&trace, &DrawOptions::default().depth(1)).unwrap();
    let boxes = drawing
        .dot
        .lines()
        .filter(|l| l.contains("shape=box3d") && l.contains("<B>@cell:"))
        .count();
    assert_eq!(boxes, 64);
    assert_eq!(drawing.styled.nodes.len(), 133, "TorchLens's count");
    // Full detail still draws both outputs of every call as the cell's rectangles.
    let full = draw(&trace, &DrawOptions::default()).unwrap();
    assert_eq!(full.styled.nodes.len(), 197);
}

/// The same loop folded: `auto` boxes the cell's first call and draws the 63 later steps,
/// the cell's calls and the slice of the input each reads, as one ellipsis (issue 29: `auto`
/// and `max` were 4 nodes, two op capsules split at step 39, and no stop boxed the cell).
/// The schedule passes through one box per call (TorchLens's 133) on the way.
#[test]
fn a_cell_called_in_a_loop_folds_into_its_first_call_and_the_later_ones() {
    let trace = Trace::load(real("lstmcell_64")).unwrap();
    let auto = draw(&trace, &DrawOptions::default().collapse(Collapse::Auto)).unwrap();
    assert_eq!(
        node_titles(&auto),
        [
            "input_1",
            "newzeros_1_1",
            "newzeros_2_2",
            "getitem_1_3",
            "@cell:1",
            "... +63 more steps of the loop",
            "linear_1_69",
            "output_1",
        ]
    );
    let rows: Vec<&str> = auto.styled.nodes[5]
        .rows
        .iter()
        .map(|row| row.text.as_str())
        .collect();
    assert_eq!(
        rows[1..],
        ["@cell (LSTMCell): 63 calls", "and 63 other ops (getitem)"]
    );
    let schedule = auto.collapse_schedule.as_ref().unwrap();
    let counts: Vec<usize> = schedule.stops.iter().map(|stop| stop.nodes).collect();
    assert_eq!(counts, [197, 133, 8, 6]);
    // The input feeds every later step's slice: one arrow into the ellipsis says so.
    let into_loop: Vec<&str> = auto
        .styled
        .edges
        .iter()
        .filter(|edge| edge.to == 5)
        .flat_map(|edge| edge.label.iter().map(|text| text.text.as_str()))
        .collect();
    assert!(
        into_loop.iter().any(|label| label.contains("x63")),
        "{into_loop:?}"
    );

    // fold_repeats=False never folds: each call is its own box.
    let unfolded = draw(
        &trace,
        &DrawOptions::default()
            .collapse(Collapse::Auto)
            .fold_repeats(false),
    )
    .unwrap();
    let titles = node_titles(&unfolded);
    assert!(
        !titles.iter().any(|t| t.contains("more steps")),
        "{titles:?}"
    );
    assert_eq!(
        titles.iter().filter(|t| t.starts_with("@cell:")).count(),
        64
    );
    // Rolled, the cell is one box for its 64 calls; the later steps' slices of the input,
    // each a layer of its own, are one node (TorchLens draws them in a 64-wide row).
    let rolled = draw(
        &trace,
        &DrawOptions::default().collapse(Collapse::Auto).rolled(true),
    )
    .unwrap();
    assert_eq!(
        node_titles(&rolled),
        [
            "input_1",
            "newzeros_1_1",
            "newzeros_2_2",
            "getitem_1_3",
            "@cell (x64)",
            "... +63 more steps of the loop",
            "linear_1_69",
            "output_1",
        ]
    );
    assert_eq!(rolled.styled.nodes[5].rows[1].text, "63 ops (getitem)");
    // fold_repeats=True folds it at full detail too: the first call open, the rest folded.
    let folded = draw(&trace, &DrawOptions::default().fold_repeats(true)).unwrap();
    let titles = node_titles(&folded);
    assert!(titles.contains(&"... +63 more steps of the loop".to_owned()));
    assert_eq!(folded.styled.nodes.len(), 9, "{titles:?}");
}

/// The layout quality any engine must keep (issue 33; `docs/performance.md`, "Layout
/// quality"): on real models, no arrow is drawn through a node it does not join and no two
/// frames overlap without one holding the other; the layered engine's arrow labels cover a
/// node or another label for at most 1% of its arrows; and its crossings stay within 30%
/// of graphviz-pure's where both lay a model out (T5 0.99x, Whisper 1.12x, GPT-2 small
/// 1.00x; Mixtral within 50%: 1.43x, where the rounded positions gave graphviz-pure 28
/// crossings it does not draw), its arrows within 20% of graphviz-pure's length on T5
/// (1.12x), Whisper (1.17x), GPT-2 small (1.03x), ResNet-50 (0.97x), BERT (1.11x) and the
/// VAE (1.00x), and within 50% on Mixtral (1.43x). As drawn, where a trunk several arrows
/// share is one line crossed once, its crossings are within 20% of graphviz-pure's (and
/// one) and its line within 25% on all of these (Mixtral 1.04x and 1.19x).
#[test]
fn real_layouts_draw_no_arrow_through_a_node_and_no_overlapping_frames() {
    use tl_layout::{lay_out, LayoutEngine, TextFormat};
    let cases = [
        ("resnet50", LayoutEngine::Embedded),
        ("gpt2_small", LayoutEngine::Embedded),
        ("t5_small", LayoutEngine::Embedded),
        ("mixtral_4", LayoutEngine::Embedded),
        ("whisper_tiny", LayoutEngine::Embedded),
        ("bert_base", LayoutEngine::Embedded),
        ("vae_dict", LayoutEngine::Embedded),
        ("resnet50", LayoutEngine::Layered),
        ("bert_base", LayoutEngine::Layered),
        ("vae_dict", LayoutEngine::Layered),
        ("gpt2_small", LayoutEngine::Layered),
        ("t5_small", LayoutEngine::Layered),
        ("mixtral_4", LayoutEngine::Layered),
        ("densenet121", LayoutEngine::Layered),
        ("llama_32", LayoutEngine::Layered),
        ("lstmcell_64", LayoutEngine::Layered),
        ("whisper_tiny", LayoutEngine::Layered),
    ];
    let mut measured = std::collections::BTreeMap::new();
    for (name, engine) in cases {
        let trace = Trace::load(real(name)).unwrap();
        let drawing = draw(&trace, &DrawOptions::default().force(true)).unwrap();
        let laid_out = lay_out(&drawing.dot, &[TextFormat::Json], engine).unwrap();
        let quality = tl_layout::quality::measure(laid_out.get(TextFormat::Json).unwrap()).unwrap();
        assert_eq!(
            quality.nodes,
            drawing.styled.nodes.len(),
            "{name}: every node measured"
        );
        assert_eq!(
            quality.arrows_through_nodes, 0,
            "{name} {engine:?}: {quality:?}"
        );
        assert_eq!(
            quality.frames_overlapping, 0,
            "{name} {engine:?}: {quality:?}"
        );
        // The layered engine sets labels where they cover nothing when there is room
        // (graphviz-pure's `xlabel`s cover up to 16% of DenseNet-121's nodes and labels).
        if engine == LayoutEngine::Layered {
            assert!(
                quality.labels_overlapping * 100 <= quality.arrows as u64,
                "{name}: {} labels on a node or a label",
                quality.labels_overlapping
            );
        }
        measured.insert((name, engine == LayoutEngine::Layered), quality);
    }
    for (&(name, layered), quality) in &measured {
        let Some(dot) = measured.get(&(name, false)).filter(|_| layered) else {
            continue;
        };
        let (crossed_most, longest) = match name {
            "t5_small" | "whisper_tiny" | "gpt2_small" => (Some(1.3), Some(1.2)),
            "mixtral_4" => (Some(1.5), Some(1.5)),
            "resnet50" | "bert_base" | "vae_dict" => (None, Some(1.2)),
            _ => (None, None),
        };
        if let Some(most) = crossed_most {
            assert!(
                quality.crossings as f64 <= most * dot.crossings as f64,
                "{name}: the layered engine crosses {} times, graphviz-pure {}",
                quality.crossings,
                dot.crossings
            );
        }
        // As drawn (a trunk several arrows share drawn and crossed once), the issue's
        // "within about 20%" on every model both engines lay out here.
        assert!(
            quality.crossings_drawn as f64 <= 1.2 * dot.crossings_drawn as f64 + 1.0,
            "{name}: the layered engine's lines cross at {} spots, graphviz-pure's at {}",
            quality.crossings_drawn,
            dot.crossings_drawn
        );
        assert!(
            quality.line_drawn <= 1.25 * dot.line_drawn,
            "{name}: the layered engine draws {:.0} pt of line, graphviz-pure {:.0}",
            quality.line_drawn,
            dot.line_drawn
        );
        if let Some(most) = longest {
            assert!(
                quality.arrow_length <= most * dot.arrow_length,
                "{name}: the layered engine's arrows are {:.0} pt long, graphviz-pure's {:.0}",
                quality.arrow_length,
                dot.arrow_length
            );
        }
    }
}

/// The layered engine writes its positions onto graphviz-pure's graph itself
/// (`tl_layout`'s `keep_positions`) instead of through graphviz-pure's keep-positions path,
/// which reads them back and sizes every label again: every format must come out the same,
/// byte for byte, on every real model at full detail and on guide fixtures with pictures,
/// floating labels, a dark theme and each direction.
#[test]
fn the_layered_engine_writes_what_graphviz_pures_keep_positions_path_writes() {
    use tl_draw::{Direction, ThemeName, View};
    use tl_layout::{lay_out, lay_out_layered_by_graphviz, LayoutEngine, TextFormat};
    let formats = [
        TextFormat::Svg,
        TextFormat::Json,
        TextFormat::Xdot,
        TextFormat::Plain,
    ];
    let mut cases: Vec<(String, PathBuf, DrawOptions)> = committed()
        .into_iter()
        .map(|name| {
            let path = real(&name);
            (name, path, DrawOptions::default().force(true))
        })
        .collect();
    let guide = fixtures_dir();
    cases.extend([
        (
            "photo, debug view".to_owned(),
            guide.join("photo.json"),
            DrawOptions::default().view(View::Debug),
        ),
        (
            "control flow, dark, left to right".to_owned(),
            guide.join("control_flow.json"),
            DrawOptions::default()
                .theme(ThemeName::Dark)
                .direction(Direction::LeftRight),
        ),
        (
            "gpt2, top down".to_owned(),
            guide.join("gpt2.json"),
            DrawOptions::default().direction(Direction::TopDown),
        ),
    ]);
    for (name, path, options) in cases {
        let trace = Trace::load(&path).unwrap();
        let drawing = draw(&trace, &options).unwrap();
        let own = lay_out(&drawing.dot, &formats, LayoutEngine::Layered).unwrap();
        let reference = lay_out_layered_by_graphviz(&drawing.dot, &formats).unwrap();
        for format in formats {
            assert!(
                own.get(format) == reference.get(format),
                "{name}: the {} differs from graphviz-pure's keep-positions path",
                format.name()
            );
        }
    }
}

/// The layered engine is deterministic and `auto` picks it only past the switch point: the
/// guide's models keep graphviz-pure (their figures and goldens do not change), the large
/// ones get the layered engine, and what it writes is the same text every time.
#[test]
fn auto_picks_the_layered_engine_past_the_switch_point_and_it_is_deterministic() {
    use tl_draw::{LayoutEngine, OutputFormat};
    for (name, engine) in [
        ("resnet50", LayoutEngine::Embedded),
        ("gpt2_small", LayoutEngine::Embedded),
        ("densenet121", LayoutEngine::Layered),
        ("llama_32", LayoutEngine::Layered),
    ] {
        let trace = Trace::load(real(name)).unwrap();
        let drawing = draw(&trace, &DrawOptions::default()).unwrap();
        assert_eq!(drawing.layout_engine(), engine, "{name}");
    }
    let trace = Trace::load(real("densenet121")).unwrap();
    let drawing = draw(&trace, &DrawOptions::default()).unwrap();
    let first = drawing.render(OutputFormat::Svg).unwrap().bytes;
    tl_draw::forget_recent_layouts();
    let again = drawing.render(OutputFormat::Svg).unwrap().bytes;
    assert!(first == again, "the same SVG twice");
}
