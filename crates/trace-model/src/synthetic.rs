//! Synthetic but structurally realistic traces, for benchmarks and property tests.
//!
//! [`residual_stack`] builds what TorchLens would record for
//! `embed -> blocks[0..n] (LayerNorm, MLP(fc1, GELU, fc2), residual add) -> head`, the same
//! shape as the `stack8`/`stack40` fixtures, at any size. Every record is consistent, so the
//! result passes [`Trace::validate`](crate::Trace::validate).

use crate::records::*;

const WIDTH: u64 = 64;
const BATCH: u64 = 8;
const FLOAT_BYTES: u64 = 4;

struct Builder {
    trace: Trace,
    labels: LabelCounter,
}

impl Builder {
    fn module(&mut self, address: &str, class_name: &str, parent: Option<&str>, num_calls: u32) {
        let depth = match parent {
            None => 0,
            Some(parent) => {
                let parent_record = self
                    .trace
                    .modules
                    .iter_mut()
                    .find(|m| m.address == parent)
                    .expect("parents are added first");
                parent_record.children.push(address.to_owned());
                parent_record.depth + 1
            }
        };
        self.trace.modules.push(ModuleRecord {
            address: address.to_owned(),
            class_name: class_name.to_owned(),
            parent: parent.map(str::to_owned),
            depth,
            children: Vec::new(),
            num_calls,
            num_params: 0,
            num_params_trainable: 0,
            num_params_frozen: 0,
            buffers: Vec::new(),
        });
    }

    fn param(&mut self, module: &str, name: &str, shape: Vec<u64>) -> String {
        let numel: u64 = shape.iter().product();
        let address = format!("{module}.{name}");
        self.trace.params.push(ParamRecord {
            address: address.clone(),
            name: name.to_owned(),
            module: module.to_owned(),
            shape,
            dtype: "float32".to_owned(),
            trainable: true,
            numel,
            bytes: numel * FLOAT_BYTES,
        });
        // The owner and every ancestor count the parameter.
        let mut owner = Some(module.to_owned());
        while let Some(address) = owner {
            let record = self
                .trace
                .modules
                .iter_mut()
                .find(|m| m.address == address)
                .expect("parameter owners exist");
            record.num_params += numel;
            record.num_params_trainable += numel;
            owner = record.parent.clone();
        }
        address
    }

    fn call(&mut self, address: &str, parent_call: Option<&str>) -> String {
        let label = format!("{address}:1");
        self.trace.module_calls.push(ModuleCallRecord {
            label: label.clone(),
            address: address.to_owned(),
            call_index: 1,
            parent_call: parent_call.map(str::to_owned),
            ops: Vec::new(),
            output_ops: Vec::new(),
        });
        label
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
        let mut record = self.labels.next(kind, layer_type).with_parents(parents);
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
        self.trace.push_op(record)
    }

    /// Marks `op` as the single-op output of the innermost call in `calls`.
    fn atomic(&mut self, op: &str, call: &str) {
        let record = self
            .trace
            .ops
            .iter_mut()
            .rev()
            .find(|o| o.label == op)
            .expect("op exists");
        record.is_atomic_module = true;
        record.output_of_calls.push(call.to_owned());
    }

    fn outputs(&mut self, call: &str, op: &str) {
        let record = self
            .trace
            .module_calls
            .iter_mut()
            .find(|c| c.label == call)
            .expect("call exists");
        record.output_ops.push(op.to_owned());
    }

    /// A module with a single linear op, called from within `outer` calls.
    fn linear(
        &mut self,
        address: &str,
        class_name: &str,
        parent: &str,
        outer: &[String],
        input: &str,
        with_params: bool,
    ) -> String {
        self.module(address, class_name, Some(parent), 1);
        let params = if with_params {
            vec![
                self.param(address, "weight", vec![WIDTH, WIDTH]),
                self.param(address, "bias", vec![WIDTH]),
            ]
        } else {
            Vec::new()
        };
        let call = self.call(address, outer.last().map(String::as_str));
        let mut calls = outer.to_vec();
        calls.push(call.clone());
        let layer_type = match class_name {
            "LayerNorm" => "layernorm",
            "GELU" => "gelu",
            _ => "linear",
        };
        let op = self.op(OpKind::Op, layer_type, &[input.to_owned()], &calls, params);
        self.atomic(&op, &call);
        self.outputs(&call, &op);
        op
    }
}

/// A residual stack of `blocks` blocks (5 ops each, 4 more around them).
pub fn residual_stack(blocks: usize) -> Trace {
    let mut builder = Builder {
        trace: Trace::empty("SyntheticStack"),
        labels: LabelCounter::default(),
    };
    let input = builder.op(OpKind::Input, "input", &[], &[], Vec::new());
    let mut x = builder.linear("embed", "Linear", "self", &[], &input, true);
    builder.module("blocks", "ModuleList", Some("self"), 0);
    for b in 0..blocks {
        let block = format!("blocks.{b}");
        builder.module(&block, "Block", Some("blocks"), 1);
        let block_call = builder.call(&block, None);
        let outer = [block_call.clone()];
        let normed = builder.linear(
            &format!("{block}.norm"),
            "LayerNorm",
            &block,
            &outer,
            &x,
            true,
        );
        let mlp = format!("{block}.mlp");
        builder.module(&mlp, "MLP", Some(&block), 1);
        let mlp_call = builder.call(&mlp, Some(&block_call));
        let inner = [block_call.clone(), mlp_call.clone()];
        let hidden = builder.linear(&format!("{mlp}.fc1"), "Linear", &mlp, &inner, &normed, true);
        let activated = builder.linear(&format!("{mlp}.act"), "GELU", &mlp, &inner, &hidden, false);
        let out = builder.linear(
            &format!("{mlp}.fc2"),
            "Linear",
            &mlp,
            &inner,
            &activated,
            true,
        );
        builder.outputs(&mlp_call, &out);
        let sum = builder.op(OpKind::Op, "add", &[x.clone(), out], &outer, Vec::new());
        builder.atomic(&sum, &block_call);
        builder.outputs(&block_call, &sum);
        x = sum;
    }
    let head = builder.linear("head", "Linear", "self", &[], &x, true);
    builder.op(OpKind::Output, "output", &[head], &[], Vec::new());

    let mut trace = builder.trace;
    trace.summary = trace.computed_summary();
    trace
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
}
