//! Every committed fixture loads, validates and round-trips byte for byte through
//! save/load, and the guide's numbers hold on the fixtures made for its drawings.

use tl_tests::{fixture_files, fixtures_dir, is_bundle};
use tl_trace_model::{Bundle, OpKind, Trace};

fn trace(name: &str) -> Trace {
    Trace::load(fixtures_dir().join(format!("{name}.json"))).unwrap()
}

#[test]
fn every_fixture_round_trips_byte_for_byte() {
    let files = fixture_files();
    assert!(
        files.len() >= 16,
        "expected every guide fixture, found {}",
        files.len()
    );
    let folder = std::env::temp_dir().join(format!("tl-roundtrip-{}", std::process::id()));
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let copy = folder.join(path.file_name().unwrap());
        if is_bundle(&text) {
            let bundle = Bundle::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(
                bundle.to_json(),
                text,
                "{} is not canonical",
                path.display()
            );
            bundle.save(&copy).unwrap();
            assert_eq!(Bundle::load(&copy).unwrap(), bundle);
        } else {
            let trace = Trace::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(trace.to_json(), text, "{} is not canonical", path.display());
            trace.save(&copy).unwrap();
            assert_eq!(Trace::load(&copy).unwrap(), trace);
        }
        assert_eq!(std::fs::read_to_string(&copy).unwrap(), text);
    }
    std::fs::remove_dir_all(folder).unwrap();
}

#[test]
fn convnet_has_the_guide_counts() {
    let convnet = trace("convnet");
    assert_eq!(convnet.model.class_name, "ConvNet");
    assert_eq!(convnet.summary.num_ops, 12);
    assert_eq!(convnet.summary.num_params, 1610);
    assert_eq!(convnet.summary.num_params_trainable, 1610);
    // 19.4 KB of outputs, buffers included.
    assert_eq!(convnet.summary.total_output_bytes, 19840);
    let names: Vec<&str> = convnet
        .ops
        .iter()
        .filter(|op| op.kind == OpKind::Op)
        .map(|op| op.layer_label.as_str())
        .collect();
    assert_eq!(
        names[..4],
        ["conv2d_1_1", "add_1_2", "batchnorm_1_3", "relu_1_4"],
        "the hidden step-counter add still takes a step number"
    );
    let counter = convnet.op("add_1_2:1").unwrap();
    assert!(
        !counter.has_input_ancestor,
        "the step-counter update reads only buffers"
    );
    assert_eq!(
        convnet.op("input_1:1").unwrap().io_role.as_deref(),
        Some("input.x")
    );
}

#[test]
fn branch_fixtures_record_the_condition_and_the_arm() {
    let taken = trace("branch_true");
    let condition = taken.op("gt_1_2:1").unwrap().condition.as_ref().unwrap();
    assert!(condition.value);
    let arms = &taken.op("input_1:1").unwrap().arm_entries;
    assert_eq!(arms.len(), 1);
    assert_eq!(arms[0].child, "linear_1_3:1");
    assert_eq!(
        taken.op("mean_1_1:1").unwrap().shape.as_deref(),
        Some(&[][..])
    );
    assert!(
        taken.op("mean_1_1:1").unwrap().value.is_some(),
        "scalar values are saved"
    );

    let not_taken = trace("branch_false");
    assert!(
        !not_taken
            .op("gt_1_2:1")
            .unwrap()
            .condition
            .as_ref()
            .unwrap()
            .value
    );
    assert!(not_taken.op("neg_1_4:1").is_some());
    assert!(not_taken.ops.iter().all(|op| op.arm_entries.is_empty()));
    let pos = not_taken.module("pos").unwrap();
    assert_eq!(
        pos.num_calls, 0,
        "the untaken branch's module is known but never ran"
    );
}

#[test]
fn recurrent_fixture_has_three_passes() {
    let recurrent = trace("recurrent");
    let tanh = recurrent.op("tanh_1_5:2").unwrap();
    assert_eq!((tanh.pass_index, tanh.num_passes), (2, 3));
    let rec = recurrent.op("linear_2_3:2").unwrap();
    assert_eq!(rec.modules, ["rec:2"]);
    assert_eq!(rec.parents, ["tanh_1_5:1"]);
    assert_eq!(
        recurrent.op("zeroslike_1_1:1").unwrap().children,
        ["linear_2_3:1"]
    );
}

#[test]
fn stacks_have_the_guide_node_counts() {
    assert_eq!(trace("stack8").ops.len(), 44);
    let stack40 = trace("stack40");
    assert_eq!(stack40.ops.len(), 204);
    let blocks = stack40.module("blocks").unwrap();
    assert_eq!(
        (blocks.class_name.as_str(), blocks.num_calls),
        ("ModuleList", 0)
    );
    assert_eq!(blocks.children.len(), 40);
}

#[test]
fn frozen_fixture_marks_trainability_per_parameter() {
    let frozen = trace("frozen");
    assert_eq!(frozen.summary.num_params_frozen, 104);
    assert_eq!(frozen.summary.num_params_trainable, 4);
    let fc2 = frozen.op("linear_2_3:1").unwrap();
    let trainable: Vec<bool> = fc2
        .params
        .iter()
        .map(|address| {
            frozen
                .params
                .iter()
                .find(|p| &p.address == address)
                .unwrap()
                .trainable
        })
        .collect();
    assert_eq!(trainable, [false, true]);
}

#[test]
fn custom_buffer_is_a_buffer_version() {
    let custom = trace("custom_buffer");
    let buffer = custom
        .ops
        .iter()
        .find(|op| op.kind == OpKind::Buffer)
        .unwrap();
    assert_eq!(buffer.buffer.as_ref().unwrap().address, "scale");
    assert_eq!(custom.module("self").unwrap().buffers, ["scale"]);
}

#[test]
fn edited_fork_records_the_edit_and_the_clean_difference() {
    let edited = trace("edited");
    let edits = edited.edits.as_ref().unwrap();
    assert!(edits.clean_parent_available);
    assert_eq!(edits.edits[0].helper, "zero_ablate");
    assert_eq!(edits.edits[0].sites, ["linear_1_1:1"]);
    assert_eq!(
        edited.op("linear_1_1:1").unwrap().edits[0].helper,
        "zero_ablate"
    );
    assert_eq!(
        edited.op("input_1:1").unwrap().clean_max_abs_change,
        Some(0.0)
    );
    assert!(
        edited
            .op("linear_2_3:1")
            .unwrap()
            .clean_max_abs_change
            .unwrap()
            > 0.0
    );
    assert!(trace("edited_clean").edits.is_none());
}

#[test]
fn backward_fixtures_hold_grad_fns_and_gradients() {
    let once = trace("backward");
    let backward = once.backward.as_ref().unwrap();
    assert_eq!(backward.num_passes, 1);
    let addmm = backward
        .grad_fns
        .iter()
        .find(|g| g.forward_layer.as_deref() == Some("linear_2_3"))
        .unwrap();
    assert_eq!(addmm.module.as_deref(), Some("fc2"));
    assert!(backward
        .grad_fns
        .iter()
        .any(|g| g.param.as_deref() == Some("fc2.bias")));
    assert!(
        backward.grad_fns.iter().any(|g| g.forward_layer.is_none()),
        "[i] steps exist"
    );
    assert_eq!(
        once.op("linear_1_1:1")
            .unwrap()
            .grad
            .as_ref()
            .unwrap()
            .shape,
        [2, 16]
    );
    let twice = trace("backward_twice");
    assert_eq!(twice.backward.as_ref().unwrap().num_passes, 2);
}

#[test]
fn bundle_has_two_members_and_deltas() {
    let bundle = Bundle::load(fixtures_dir().join("bundle.json")).unwrap();
    assert_eq!(bundle.members.len(), 2);
    assert_eq!(bundle.baseline, "clean");
    for metric in ["relative_l2", "cosine", "pearson"] {
        assert!(bundle
            .deltas
            .iter()
            .any(|d| d.metric == metric && d.member == "noisy"));
    }
}

#[test]
fn photo_input_carries_its_picture() {
    let photo = trace("photo");
    let input = photo.op("input_1:1").unwrap();
    let picture = input.picture.as_ref().unwrap();
    assert!(picture.width > 0 && picture.height > 0 && !picture.png_base64.is_empty());
}

#[test]
fn gpt2_and_resnet18_are_real_architectures() {
    let gpt2 = trace("gpt2");
    assert!(gpt2.module("transformer.h.0.attn").is_some());
    assert!(gpt2
        .ops
        .iter()
        .any(|op| op.layer_type == "scaleddotproductattention"));
    let resnet = trace("resnet18");
    assert_eq!(resnet.model.class_name, "ResNet");
    assert_eq!(resnet.summary.num_params, 11_689_512);
    assert!(resnet.module("layer4.1.conv2").is_some());
}

#[test]
fn every_fixture_has_a_reference_drawing() {
    for path in fixture_files() {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let reference = fixtures_dir().join("reference").join(format!("{stem}.dot"));
        let dot = std::fs::read_to_string(&reference)
            .unwrap_or_else(|_| panic!("missing {}", reference.display()));
        assert!(
            dot.contains("digraph"),
            "{} is not DOT",
            reference.display()
        );
    }
}
