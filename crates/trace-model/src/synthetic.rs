//! Synthetic but structurally realistic traces, for benchmarks and property tests.
//!
//! [`residual_stack`] builds what TorchLens would record for
//! `embed -> blocks[0..n] (LayerNorm, MLP(fc1, GELU, fc2), residual add) -> head`, the same
//! shape as the `stack8`/`stack40` fixtures, at any size. [`transformer`] builds a GPT-2-like
//! model (`transformer.h.N.attn.c_attn`, four levels deep) with two residual adds per block
//! and a causal mask made once and read by every block: long hub arrows. Every record is
//! consistent, so the results pass [`Trace::validate`](crate::Trace::validate).

use crate::builder::TraceBuilder;
use crate::records::*;

const WIDTH: u64 = 64;
const BATCH: u64 = 8;
const FLOAT_BYTES: u64 = 4;

/// Ops of one [`transformer`] block.
pub const TRANSFORMER_BLOCK_OPS: usize = 16;
/// Ops of a [`transformer`] outside its blocks (inputs, embeddings, mask, head, output).
pub const TRANSFORMER_FIXED_OPS: usize = 9;

struct Generator {
    builder: TraceBuilder,
}

impl Generator {
    /// A generator of a trace of the model class `class_name`.
    fn new(class_name: &str) -> Generator {
        Generator {
            builder: TraceBuilder::new(class_name),
        }
    }

    /// Records one op reading `parents`, inside `calls` (outermost first).
    fn op(
        &mut self,
        kind: OpKind,
        layer_type: &str,
        parents: &[String],
        calls: &[String],
        params: Vec<String>,
    ) -> String {
        let mut record = self.builder.record(kind, layer_type).with_parents(parents);
        record.shape = Some(vec![BATCH, WIDTH]);
        record.dtype = Some("float32".to_owned());
        record.bytes = Some(BATCH * WIDTH * FLOAT_BYTES);
        record.modules = calls.to_vec();
        record.params = params;
        if kind == OpKind::Op {
            record.duration_s = Some(1.0e-5 * f64::from(record.step_index % 7 + 1));
            record.flops = Some(2 * BATCH * WIDTH * WIDTH);
        }
        record.magnitude = Some(0.5);
        record.finiteness = Some(Finiteness::Finite);
        self.builder.push_op(record)
    }

    /// A call of a new module `address` under `parent`, made inside `outer` calls; returns
    /// the call stack inside it.
    fn enter(
        &mut self,
        address: &str,
        class_name: &str,
        parent: &str,
        outer: &[String],
    ) -> Vec<String> {
        self.builder.module(address, class_name, parent, 1);
        let call = self.builder.call(address, outer.last().map(String::as_str));
        let mut calls = outer.to_vec();
        calls.push(call);
        calls
    }

    /// A module running a single op (`Linear`, `LayerNorm`, ...), called inside `outer`.
    fn atomic(
        &mut self,
        address: &str,
        class_name: &str,
        parent: &str,
        outer: &[String],
        input: &str,
    ) -> String {
        let calls = self.enter(address, class_name, parent, outer);
        let (layer_type, params) = match class_name {
            "LayerNorm" => ("layernorm", vec![WIDTH]),
            "GELU" => ("gelu", vec![]),
            "Embedding" => ("embedding", vec![1024, WIDTH]),
            _ => ("linear", vec![WIDTH, WIDTH]),
        };
        let params = if params.is_empty() {
            Vec::new()
        } else {
            let mut names = vec![self.builder.param(address, "weight", params)];
            if class_name != "Embedding" {
                names.push(self.builder.param(address, "bias", vec![WIDTH]));
            }
            names
        };
        let call = calls.last().expect("entered").clone();
        let op = self.op(OpKind::Op, layer_type, &[input.to_owned()], &calls, params);
        self.builder.mark_atomic(&op);
        self.builder.mark_output(&call, &op);
        op
    }

    /// The module's own op closing `calls` (a block's residual add), marked as its output.
    fn closing(&mut self, layer_type: &str, parents: &[String], calls: &[String]) -> String {
        let op = self.op(OpKind::Op, layer_type, parents, calls, Vec::new());
        self.builder
            .mark_output(calls.last().expect("inside a call"), &op);
        op
    }
}

/// A residual stack of `blocks` blocks (5 ops each, 4 more around them).
pub fn residual_stack(blocks: usize) -> Trace {
    let mut g = Generator::new("SyntheticStack");
    let input = g.op(OpKind::Input, "input", &[], &[], Vec::new());
    let mut x = g.atomic("embed", "Linear", "self", &[], &input);
    g.builder.module("blocks", "ModuleList", "self", 0);
    for b in 0..blocks {
        let block = format!("blocks.{b}");
        let block_calls = g.enter(&block, "Block", "blocks", &[]);
        let normed = g.atomic(
            &format!("{block}.norm"),
            "LayerNorm",
            &block,
            &block_calls,
            &x,
        );
        let mlp = format!("{block}.mlp");
        let mlp_calls = g.enter(&mlp, "MLP", &block, &block_calls);
        let hidden = g.atomic(&format!("{mlp}.fc1"), "Linear", &mlp, &mlp_calls, &normed);
        let activated = g.atomic(&format!("{mlp}.act"), "GELU", &mlp, &mlp_calls, &hidden);
        let out = g.atomic(
            &format!("{mlp}.fc2"),
            "Linear",
            &mlp,
            &mlp_calls,
            &activated,
        );
        g.builder.mark_output(&mlp_calls[1], &out);
        let sum = g.closing("add", &[x.clone(), out], &block_calls);
        g.builder.mark_atomic(&sum);
        x = sum;
    }
    let head = g.atomic("head", "Linear", "self", &[], &x);
    g.op(OpKind::Output, "output", &[head], &[], Vec::new());
    g.builder.finish()
}

/// A GPT-2-like transformer of `blocks` blocks ([`TRANSFORMER_BLOCK_OPS`] ops each, plus
/// [`TRANSFORMER_FIXED_OPS`]): token and position embeddings, a causal mask made once and
/// read by every block's attention, `ln_1 -> attn -> add -> ln_2 -> mlp -> add` per block,
/// a final norm and a head.
pub fn transformer(blocks: usize) -> Trace {
    let mut g = Generator::new("SyntheticTransformer");
    let ids = g.op(OpKind::Input, "input", &[], &[], Vec::new());
    let top = g.enter("transformer", "Transformer", "self", &[]);
    let positions = g.op(OpKind::Op, "arange", &[], &top, Vec::new());
    let mask = g.op(OpKind::Op, "tril", &[], &top, Vec::new());
    let tokens = g.atomic("transformer.wte", "Embedding", "transformer", &top, &ids);
    let placed = g.atomic(
        "transformer.wpe",
        "Embedding",
        "transformer",
        &top,
        &positions,
    );
    let mut x = g.op(OpKind::Op, "add", &[tokens, placed], &top, Vec::new());
    g.builder
        .module("transformer.h", "ModuleList", "transformer", 0);
    for b in 0..blocks {
        let block = format!("transformer.h.{b}");
        let calls = g.enter(&block, "Block", "transformer.h", &top);
        let normed = g.atomic(&format!("{block}.ln_1"), "LayerNorm", &block, &calls, &x);
        let attn = format!("{block}.attn");
        let attn_calls = g.enter(&attn, "Attention", &block, &calls);
        let qkv = g.atomic(
            &format!("{attn}.c_attn"),
            "Linear",
            &attn,
            &attn_calls,
            &normed,
        );
        let split = g.op(OpKind::Op, "split", &[qkv], &attn_calls, Vec::new());
        let keys = g.op(
            OpKind::Op,
            "transpose",
            std::slice::from_ref(&split),
            &attn_calls,
            Vec::new(),
        );
        let scores = g.op(
            OpKind::Op,
            "matmul",
            &[split.clone(), keys],
            &attn_calls,
            Vec::new(),
        );
        let scaled = g.op(OpKind::Op, "mul", &[scores], &attn_calls, Vec::new());
        let masked = g.op(
            OpKind::Op,
            "masked_fill",
            &[scaled, mask.clone()],
            &attn_calls,
            Vec::new(),
        );
        let weights = g.op(OpKind::Op, "softmax", &[masked], &attn_calls, Vec::new());
        let mixed = g.op(
            OpKind::Op,
            "matmul",
            &[weights, split],
            &attn_calls,
            Vec::new(),
        );
        let attended = g.atomic(
            &format!("{attn}.c_proj"),
            "Linear",
            &attn,
            &attn_calls,
            &mixed,
        );
        g.builder.mark_output(&attn_calls[2], &attended);
        let x1 = g.op(
            OpKind::Op,
            "add",
            &[x.clone(), attended],
            &calls,
            Vec::new(),
        );
        let normed = g.atomic(&format!("{block}.ln_2"), "LayerNorm", &block, &calls, &x1);
        let mlp = format!("{block}.mlp");
        let mlp_calls = g.enter(&mlp, "MLP", &block, &calls);
        let hidden = g.atomic(&format!("{mlp}.c_fc"), "Linear", &mlp, &mlp_calls, &normed);
        let activated = g.atomic(&format!("{mlp}.act"), "GELU", &mlp, &mlp_calls, &hidden);
        let out = g.atomic(
            &format!("{mlp}.c_proj"),
            "Linear",
            &mlp,
            &mlp_calls,
            &activated,
        );
        g.builder.mark_output(&mlp_calls[2], &out);
        x = g.closing("add", &[x1, out], &calls);
    }
    let normed = g.atomic("transformer.ln_f", "LayerNorm", "transformer", &top, &x);
    g.builder.mark_output(&top[0], &normed);
    let logits = g.atomic("lm_head", "Linear", "self", &[], &normed);
    g.op(OpKind::Output, "output", &[logits], &[], Vec::new());
    g.builder.finish()
}

/// A [`transformer`] of about `ops` operations (at least one block).
pub fn transformer_of_size(ops: usize) -> Trace {
    transformer((ops.saturating_sub(TRANSFORMER_FIXED_OPS) / TRANSFORMER_BLOCK_OPS).max(1))
}

/// A hostile shape for the checks: `inputs` model inputs all read by one concatenation
/// (one op with `inputs` parents and argument slots), then the output. Validation of it
/// must stay linear in `inputs` (issue 31: 100,000 parents once took 15 s).
pub fn wide_concat(inputs: usize) -> Trace {
    let mut g = Generator::new("WideConcat");
    let parents: Vec<String> = (0..inputs)
        .map(|_| g.op(OpKind::Input, "input", &[], &[], Vec::new()))
        .collect();
    let mut record = g.builder.record(OpKind::Op, "cat");
    record.arg_slots = parents
        .iter()
        .enumerate()
        .map(|(position, parent)| crate::ArgSlot {
            parent: parent.clone(),
            arg: Some(vec![0, position as u32]),
            kwarg: None,
        })
        .collect();
    record.parents = parents;
    record.shape = Some(vec![BATCH, WIDTH * inputs as u64]);
    record.dtype = Some("float32".to_owned());
    let cat = g.builder.push_op(record);
    g.op(OpKind::Output, "output", &[cat], &[], Vec::new());
    g.builder.finish()
}

/// A hostile shape for the layout guard: `n` operations each read by every one of `n` more
/// (a complete bipartite graph K(n, n): n² arrows between two ranks), then one output.
pub fn complete_bipartite(n: usize) -> Trace {
    let mut g = Generator::new("CompleteBipartite");
    let input = g.op(OpKind::Input, "input", &[], &[], Vec::new());
    let first: Vec<String> = (0..n)
        .map(|_| {
            g.op(
                OpKind::Op,
                "relu",
                std::slice::from_ref(&input),
                &[],
                Vec::new(),
            )
        })
        .collect();
    let second: Vec<String> = (0..n)
        .map(|_| g.op(OpKind::Op, "add", &first, &[], Vec::new()))
        .collect();
    let sum = g.op(OpKind::Op, "stack", &second, &[], Vec::new());
    g.op(OpKind::Output, "output", &[sum], &[], Vec::new());
    g.builder.finish()
}

/// A hostile shape for the layout guard: a chain of `n` operations, each also read by one
/// final `stack` (every layer's output collected at the end): `n` long arrows into one node.
pub fn chain_into_one(n: usize) -> Trace {
    let mut g = Generator::new("ChainIntoOne");
    let mut x = g.op(OpKind::Input, "input", &[], &[], Vec::new());
    let mut collected = Vec::with_capacity(n);
    for _ in 0..n {
        x = g.op(
            OpKind::Op,
            "tanh",
            std::slice::from_ref(&x),
            &[],
            Vec::new(),
        );
        collected.push(x.clone());
    }
    let stacked = g.op(OpKind::Op, "stack", &collected, &[], Vec::new());
    g.op(OpKind::Output, "output", &[stacked], &[], Vec::new());
    g.builder.finish()
}

/// A hostile shape for memory: a chain of `depth` modules, each called once inside the
/// one before, with one linear layer run inside the innermost (issue 31: a tree 10,000
/// deep took 2 GB for a 3-node drawing).
pub fn deep_modules(depth: usize) -> Trace {
    let mut g = Generator::new("DeepModules");
    let input = g.op(OpKind::Input, "input", &[], &[], Vec::new());
    let mut calls: Vec<String> = Vec::with_capacity(depth);
    let mut parent = "self".to_owned();
    for level in 1..depth {
        let address = format!("m{level}");
        calls = g.enter(&address, "Wrap", &parent, &calls);
        parent = address;
    }
    let out = g.atomic("leaf", "Linear", &parent, &calls, &input);
    for call in calls.iter().rev() {
        g.builder.mark_output(call, &out);
    }
    g.op(OpKind::Output, "output", &[out], &[], Vec::new());
    g.builder.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Trace;

    #[test]
    fn synthetic_stack_is_valid_and_round_trips() {
        let trace = residual_stack(12);
        trace.validate().unwrap();
        assert_eq!(trace.ops.len(), 12 * 5 + 4);
        assert_eq!(Trace::from_json(&trace.to_json()).unwrap(), trace);
    }

    #[test]
    fn synthetic_transformer_is_valid_and_has_the_stated_size() {
        let trace = transformer(3);
        trace.validate().unwrap();
        assert_eq!(
            trace.ops.len(),
            3 * TRANSFORMER_BLOCK_OPS + TRANSFORMER_FIXED_OPS
        );
        // The mask is read by every block: a hub.
        let mask = trace.ops.iter().find(|op| op.layer_type == "tril").unwrap();
        assert_eq!(mask.children.len(), 3);
        assert_eq!(Trace::from_json(&trace.to_json()).unwrap(), trace);
    }

    #[test]
    fn a_deep_module_chain_is_valid() {
        let trace = deep_modules(50);
        trace.validate().unwrap();
        assert_eq!(trace.modules.len(), 51);
        assert_eq!(trace.ops[1].modules.len(), 50);
    }

    #[test]
    fn a_wide_concatenation_is_valid_and_a_stray_slot_is_refused() {
        let trace = wide_concat(40);
        trace.validate().unwrap();
        assert_eq!(trace.ops[40].parents.len(), 40);
        // Past the scan's reach the set answers the same: a slot naming no parent is refused.
        let mut stray = trace.clone();
        stray.ops[40].arg_slots[39].parent = "nobody_1_1".to_owned();
        let error = stray.validate().unwrap_err();
        assert_eq!(error.code(), "trace_inconsistent", "{error}");
        let mut twice = trace;
        let first = twice.ops[40].parents[0].clone();
        twice.ops[40].parents.push(first);
        twice.validate().unwrap();
    }
}
