//! Saved models drawn like traces: ONNX files exported by `torch.onnx.export` (the dynamo
//! exporter, torch's default; `python/tl_export/onnx_models.py`) of ResNet-18, GPT-2 small,
//! BERT-base and a model whose forward branches on data (an ONNX `If`), committed without
//! their weights (`fixtures/onnx/*.onnx.data` are not needed: the reader never reads
//! weights), and hostile protobufs built here.

use std::path::PathBuf;

use tl_draw::{draw, read_onnx, Collapse, DrawOptions};
use tl_tests::{check_golden, fixtures_dir, node_titles};

fn onnx(name: &str) -> PathBuf {
    fixtures_dir().join("onnx").join(format!("{name}.onnx"))
}

/// One operation per ONNX node, subgraphs included (counted with the `onnx` package
/// 1.23.2: `len(graph.node)` plus each subgraph's), and the header says where the graph
/// came from.
#[test]
fn every_onnx_node_is_one_operation() {
    for (name, nodes) in [
        ("resnet18", 49),
        ("gpt2_small", 524),
        ("bert_base", 439),
        ("gate_if", 8),
    ] {
        let trace = read_onnx(&onnx(name)).unwrap();
        assert_eq!(trace.summary.num_ops, nodes, "{name}");
        let source = trace.model.source.as_deref().unwrap();
        assert!(
            source.starts_with("ONNX opset 20, exported by pytorch 2."),
            "{source}"
        );
        let drawing = draw(&trace, &DrawOptions::default().force(true)).unwrap();
        assert_eq!(drawing.styled.header[1].text, source, "{name}");
    }
}

/// GPT-2 small's export at `auto`: the embedding, the twelve blocks boxed, the final layer
/// norm and the head, inside the readable band, as the TorchLens trace draws it. The
/// nodes the exporter's optimizer made without a scope (each block's split of the fused
/// query-key-value projection) sit in the modules around them: before, each one ended
/// `@gpt2`'s call and the drawing was thirteen calls of `@gpt2`.
#[test]
fn gpt2_small_from_onnx_folds_into_its_blocks() {
    let trace = read_onnx(&onnx("gpt2_small")).unwrap();
    let auto = draw(&trace, &DrawOptions::default().collapse(Collapse::Auto)).unwrap();
    let titles = node_titles(&auto);
    assert!(titles.len() <= 25, "{} nodes: {titles:?}", titles.len());
    for block in 0..12 {
        assert!(
            titles.contains(&format!("@gpt2.transformer.h.{block}")),
            "block {block}: {titles:?}"
        );
    }
    assert_eq!(
        trace
            .module_calls
            .iter()
            .filter(|call| call.address == "gpt2")
            .count(),
        1
    );
    let dot = &auto.dot;
    assert!(dot.contains("@gpt2.transformer.ln_f") && dot.contains("@gpt2.lm_head"));
}

/// ResNet-18's modules and classes come from the exporter's metadata.
#[test]
fn resnet18_from_onnx_has_its_modules_and_classes() {
    let trace = read_onnx(&onnx("resnet18")).unwrap();
    let class = |address: &str| {
        trace
            .modules
            .iter()
            .find(|m| m.address == address)
            .map(|m| m.class_name.clone())
    };
    assert_eq!(class("layer1").as_deref(), Some("Sequential"));
    assert_eq!(class("layer1.0").as_deref(), Some("BasicBlock"));
    // The export's floating initializers (counted with the `onnx` package): ResNet-18's
    // 11,689,512 parameters less its batch norms, which the exporter folded into the
    // convolutions before them.
    assert_eq!(trace.summary.num_params, 11_679_912);
    let auto = draw(&trace, &DrawOptions::default().collapse(Collapse::Auto)).unwrap();
    assert!(auto.styled.nodes.len() <= 40);
}

/// An `If`: both branches are drawn, each in a frame of its own, before the `If`, which
/// reads what each returns.
#[test]
fn both_branches_of_an_if_are_drawn_in_frames() {
    let trace = read_onnx(&onnx("gate_if")).unwrap();
    let drawing = draw(&trace, &DrawOptions::default()).unwrap();
    let frames: Vec<&str> = drawing
        .styled
        .clusters
        .iter()
        .map(|c| c.title.as_str())
        .collect();
    assert!(
        frames.iter().any(|f| f.ends_with(".then_branch")),
        "{frames:?}"
    );
    assert!(
        frames.iter().any(|f| f.ends_with(".else_branch")),
        "{frames:?}"
    );
    let if_op = trace.ops.iter().find(|op| op.layer_type == "if").unwrap();
    let parents: Vec<&str> = if_op
        .parents
        .iter()
        .map(|p| {
            trace
                .ops
                .iter()
                .find(|op| &op.label == p)
                .unwrap()
                .layer_type
                .as_str()
        })
        .collect();
    assert_eq!(parents, ["greater", "relu", "tanh"]);
}

/// The reviewed drawings: the `If` model at full detail, ResNet-18's export at `auto`.
#[test]
fn onnx_drawings_match_their_golden_dot() {
    let gate = read_onnx(&onnx("gate_if")).unwrap();
    check_golden(
        "dot/onnx_gate_if.dot",
        &draw(&gate, &DrawOptions::default()).unwrap().dot,
    );
    let resnet = read_onnx(&onnx("resnet18")).unwrap();
    let auto = draw(&resnet, &DrawOptions::default().collapse(Collapse::Auto)).unwrap();
    check_golden("dot/onnx_resnet18.collapse_auto.dot", &auto.dot);
}

/// A tiny protobuf writer for hostile files.
mod proto {
    pub fn varint(mut value: u64, out: &mut Vec<u8>) {
        while value >= 0x80 {
            out.push((value as u8) | 0x80);
            value >>= 7;
        }
        out.push(value as u8);
    }

    pub fn bytes(field: u64, payload: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        varint(field << 3 | 2, &mut out);
        varint(payload.len() as u64, &mut out);
        out.extend_from_slice(payload);
        out
    }

    pub fn int(field: u64, value: u64) -> Vec<u8> {
        let mut out = Vec::new();
        varint(field << 3, &mut out);
        varint(value, &mut out);
        out
    }

    pub fn node(name: &str, op: &str, inputs: &[&str], outputs: &[&str]) -> Vec<u8> {
        let mut out = Vec::new();
        for input in inputs {
            out.extend(bytes(1, input.as_bytes()));
        }
        for output in outputs {
            out.extend(bytes(2, output.as_bytes()));
        }
        out.extend(bytes(3, name.as_bytes()));
        out.extend(bytes(4, op.as_bytes()));
        out
    }

    pub fn graph(nodes: &[Vec<u8>], inputs: &[&str], outputs: &[&str]) -> Vec<u8> {
        let mut out = Vec::new();
        for node in nodes {
            out.extend(bytes(1, node));
        }
        for input in inputs {
            out.extend(bytes(11, &bytes(1, input.as_bytes())));
        }
        for output in outputs {
            out.extend(bytes(12, &bytes(1, output.as_bytes())));
        }
        out
    }

    pub fn model(graph: &[u8], opset: u64) -> Vec<u8> {
        let mut out = int(1, 10);
        out.extend(bytes(7, graph));
        out.extend(bytes(8, &int(2, opset)));
        out
    }
}

fn code_of(bytes: &[u8]) -> &'static str {
    match tl_onnx::from_bytes(bytes, "hostile") {
        Ok(_) => "ok",
        Err(error) => error.code(),
    }
}

#[test]
fn bad_onnx_files_get_coded_errors() {
    use proto::*;
    let relu = graph(&[node("r", "Relu", &["x"], &["y"])], &["x"], &["y"]);
    let good = model(&relu, 17);
    assert_eq!(code_of(&good), "ok");
    // Truncated anywhere: a coded error, never a panic.
    for cut in 1..good.len() {
        let code = code_of(&good[..cut]);
        assert!(
            [
                "onnx_truncated",
                "onnx_no_graph",
                "onnx_reference_dangling",
                "ok"
            ]
            .contains(&code),
            "cut at {cut}: {code}"
        );
    }
    assert_eq!(code_of(&good[..good.len() - 3]), "onnx_truncated");
    assert_eq!(code_of(&[0xff; 16]), "onnx_malformed");
    assert_eq!(code_of(b"{\"format\": \"tl-trace\"}"), "onnx_malformed");
    // A length prefix claiming a terabyte.
    let mut huge = Vec::new();
    varint(7 << 3 | 2, &mut huge);
    varint(1 << 40, &mut huge);
    assert_eq!(code_of(&huge), "onnx_truncated");
    assert_eq!(code_of(&model(&relu, 999)), "onnx_opset_unknown");
    assert_eq!(code_of(&int(1, 10)), "onnx_no_graph");
    let cycle = graph(
        &[
            node("a", "Relu", &["b"], &["a"]),
            node("b", "Relu", &["a"], &["b"]),
        ],
        &["x"],
        &["b"],
    );
    assert_eq!(code_of(&model(&cycle, 17)), "onnx_graph_cyclic");
    let dangling = graph(&[node("r", "Relu", &["nothing"], &["y"])], &["x"], &["y"]);
    assert_eq!(code_of(&model(&dangling, 17)), "onnx_reference_dangling");
    let no_producer = graph(&[node("r", "Relu", &["x"], &["y"])], &["x"], &["z"]);
    assert_eq!(code_of(&model(&no_producer, 17)), "onnx_reference_dangling");
    // Subgraphs nested deeper than any model: refused, not a stack overflow.
    let mut nested = relu.clone();
    for _ in 0..200 {
        let attribute = [bytes(1, b"then_branch"), bytes(6, &nested)].concat();
        let mut if_node = node("i", "If", &["x"], &["y"]);
        if_node.extend(bytes(5, &attribute));
        nested = graph(&[if_node], &["x"], &["y"]);
    }
    assert_eq!(code_of(&model(&nested, 17)), "onnx_too_deep");
    // Nodes out of order are sorted.
    let reversed = graph(
        &[
            node("b", "Tanh", &["a"], &["y"]),
            node("a", "Relu", &["x"], &["a"]),
        ],
        &["x"],
        &["y"],
    );
    assert_eq!(code_of(&model(&reversed, 17)), "ok");
}

/// Names chosen to break a drawing (markup, quotes, a reversing control) stay text.
#[test]
fn hostile_onnx_names_stay_text() {
    use proto::*;
    let name = "</TD><script>alert(1)</script>\"'&\u{202e}";
    let graph = graph(
        &[node(&format!("/{name}/Relu"), "Relu", &["x"], &["y"])],
        &["x"],
        &["y"],
    );
    let trace = tl_onnx::from_bytes(&model(&graph, 17), "hostile").unwrap();
    let drawing = draw(&trace, &DrawOptions::default()).unwrap();
    assert!(!drawing.dot.contains("<script>"));
    let svg = drawing.render(tl_draw::OutputFormat::Svg).unwrap();
    assert!(!String::from_utf8_lossy(&svg.bytes).contains("<script>"));
}

/// A file that cannot be read is the same error as an unreadable trace.
#[test]
fn a_missing_onnx_file_is_a_read_error() {
    let error = read_onnx(&fixtures_dir().join("onnx").join("missing.onnx")).unwrap_err();
    assert_eq!(error.code(), "trace_read_failed");
    assert!(error.file_failure().is_some());
    // A folder (or a pipe, which would block the open) is refused before it is opened.
    let folder = tempfile::tempdir().unwrap();
    let not_a_file = folder.path().join("model.onnx");
    std::fs::create_dir(&not_a_file).unwrap();
    assert_eq!(
        read_onnx(&not_a_file).unwrap_err().code(),
        "trace_not_a_file"
    );
    let pipe = folder.path().join("pipe.onnx");
    let made = std::process::Command::new("mkfifo").arg(&pipe).status();
    if made.is_ok_and(|status| status.success()) {
        assert_eq!(read_onnx(&pipe).unwrap_err().code(), "trace_not_a_file");
    }
}

/// The process's peak resident memory, in bytes (Linux).
fn peak_memory() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| {
            rest.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })
        .map_or(0, |kb| kb * 1024)
}

/// A 2 GiB weight (a sparse file: the bytes are never written) is skipped, not read: the
/// graph is drawn and the process's peak memory grows by far less than the file.
#[test]
fn a_two_gigabyte_model_is_read_in_bounded_memory() {
    use proto::*;
    const WEIGHT_BYTES: u64 = 1 << 31;
    let add = node("add", "Add", &["x", "w"], &["y"]);
    let mut tensor = bytes(8, b"w");
    tensor.extend(int(2, 1)); // float32
    tensor.extend(int(1, WEIGHT_BYTES / 4)); // dims
    let mut raw_key = Vec::new();
    varint(9 << 3 | 2, &mut raw_key);
    varint(WEIGHT_BYTES, &mut raw_key);
    let tensor_len = tensor.len() as u64 + raw_key.len() as u64 + WEIGHT_BYTES;
    let mut graph = graph(&[add], &["x"], &["y"]);
    let mut initializer_key = Vec::new();
    varint(5 << 3 | 2, &mut initializer_key);
    varint(tensor_len, &mut initializer_key);
    graph.extend(&initializer_key);
    let graph_len = graph.len() as u64 + tensor_len;
    let mut head = int(1, 10);
    head.extend(bytes(8, &int(2, 17)));
    varint(7 << 3 | 2, &mut head);
    varint(graph_len, &mut head);
    head.extend(&graph);
    head.extend(&tensor);
    head.extend(&raw_key);
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("huge.onnx");
    let file = std::fs::File::create(&path).unwrap();
    use std::io::Write;
    (&file).write_all(&head).unwrap();
    file.set_len(head.len() as u64 + WEIGHT_BYTES).unwrap();
    drop(file);
    let before = peak_memory();
    let trace = read_onnx(&path).unwrap();
    let grown = peak_memory().saturating_sub(before);
    assert_eq!(trace.summary.num_params, WEIGHT_BYTES / 4);
    assert!(grown < 512 << 20, "peak memory grew by {grown} bytes");
}
