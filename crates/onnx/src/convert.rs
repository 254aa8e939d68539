//! An ONNX model as a trace: one operation per ONNX node (its op type lower-cased as the
//! operation's type, labels counted per type as TorchLens counts them), arrows from tensor
//! names, the graph's inputs and outputs, initializers as parameters of the module that
//! uses them, shapes and types from `value_info`, and the module tree from the exporter's
//! scopes. A subgraph (`If`'s branches, `Loop`'s and `Scan`'s body) is drawn in a frame of
//! its own (`<node>.then_branch`), before the node that runs it, which reads its outputs.

use std::collections::{HashMap, HashSet};

use tl_trace_model::builder::TraceBuilder;
use tl_trace_model::{ArgSlot, ArgValue, OpKind, OpRecord, ParamRecord, Trace};

use crate::flatten::{collect_types, flatten, infer_scopes, Flat, FlatNode, Names, Producer};
use crate::proto::{Model, ValueInfo};
use crate::OnnxError;

/// The trace of `model`, named `name` (the file's stem).
pub fn to_trace(model: &Model, name: &str) -> Result<Trace, OnnxError> {
    let mut flat = Flat::default();
    let mut names = Names::default();
    let graph = &model.graph;
    let initializers: HashSet<&str> = graph.initializers.iter().map(|t| t.name.as_str()).collect();
    for input in graph
        .inputs
        .iter()
        .filter(|i| !initializers.contains(i.name.as_str()))
    {
        names.produced.insert(input.name.clone(), Producer::Input);
    }
    for tensor in &graph.initializers {
        names
            .produced
            .insert(tensor.name.clone(), Producer::Initializer);
    }
    flatten(graph, &[], &mut names, &mut flat, 0)?;
    infer_scopes(&mut flat);
    let mut types: HashMap<&str, &ValueInfo> = HashMap::new();
    collect_types(graph, &mut types);
    Builder::new(model, name, &flat, &types).build()
}

/// ONNX `TensorProto.DataType`: the dtype name and bytes per element.
fn dtype(code: i32) -> Option<(&'static str, u64)> {
    Some(match code {
        1 => ("float32", 4),
        2 => ("uint8", 1),
        3 => ("int8", 1),
        4 => ("uint16", 2),
        5 => ("int16", 2),
        6 => ("int32", 4),
        7 => ("int64", 8),
        8 => ("string", 0),
        9 => ("bool", 1),
        10 => ("float16", 2),
        11 => ("float64", 8),
        12 => ("uint32", 4),
        13 => ("uint64", 8),
        16 => ("bfloat16", 2),
        _ => return None,
    })
}

/// Builds the trace from the flattened nodes.
struct Builder<'a, 'm> {
    model: &'m Model,
    name: &'a str,
    flat: &'a Flat<'m>,
    types: &'a HashMap<&'m str, &'m ValueInfo>,
}

impl<'a, 'm> Builder<'a, 'm> {
    fn new(
        model: &'m Model,
        name: &'a str,
        flat: &'a Flat<'m>,
        types: &'a HashMap<&'m str, &'m ValueInfo>,
    ) -> Builder<'a, 'm> {
        Builder {
            model,
            name,
            flat,
            types,
        }
    }

    fn build(&self) -> Result<Trace, OnnxError> {
        let mut builder = TraceBuilder::new(self.name);
        self.add_modules(&mut builder);
        let mut label_of = self.add_inputs(&mut builder);
        let params = self.params(&mut builder);
        self.add_nodes(&mut builder, &params, &mut label_of);
        self.add_outputs(&mut builder, &label_of)?;
        builder.mark_call_outputs_and_atomic_ops();
        let mut trace = builder.finish();
        trace.model.source = Some(self.source());
        trace.validate().map_err(|error| OnnxError::Inconsistent {
            detail: error.to_string(),
        })?;
        Ok(trace)
    }

    /// Every module on a node's path, with how many calls each.
    fn add_modules(&self, builder: &mut TraceBuilder) {
        let calls = self.count_calls();
        let mut made: HashSet<String> = HashSet::new();
        for flat in &self.flat.nodes {
            let mut parent = "self".to_owned();
            for scope in &flat.scopes {
                if made.insert(scope.address.clone()) {
                    let class = scope.class_name.as_deref().unwrap_or("module");
                    builder.module(
                        &scope.address,
                        class,
                        &parent,
                        calls[scope.address.as_str()],
                    );
                }
                parent = scope.address.clone();
            }
        }
    }

    /// The graph's inputs (those that are not initializers); the op label of each name.
    fn add_inputs(&self, builder: &mut TraceBuilder) -> HashMap<&'m str, String> {
        let graph = &self.model.graph;
        let initializers: HashSet<&str> =
            graph.initializers.iter().map(|t| t.name.as_str()).collect();
        let mut label_of = HashMap::new();
        for input in graph
            .inputs
            .iter()
            .filter(|i| !initializers.contains(i.name.as_str()))
        {
            let mut record = builder.record(OpKind::Input, "input");
            record.io_role = Some(format!("input.{}", input.name));
            self.typed(&mut record, &input.name);
            label_of.insert(input.name.as_str(), builder.push_op(record));
        }
        label_of
    }

    /// One operation per node, in the calls of its modules (a call opens where a stretch of
    /// consecutive nodes in its module starts).
    fn add_nodes(
        &self,
        builder: &mut TraceBuilder,
        params: &HashMap<&'m str, String>,
        label_of: &mut HashMap<&'m str, String>,
    ) {
        let mut open: Vec<(String, String)> = Vec::new();
        let mut node_labels: Vec<String> = Vec::with_capacity(self.flat.nodes.len());
        for flat in &self.flat.nodes {
            let shared = open
                .iter()
                .zip(&flat.scopes)
                .take_while(|((address, _), scope)| *address == scope.address)
                .count();
            open.truncate(shared);
            for scope in &flat.scopes[shared..] {
                let parent = open.last().map(|(_, call)| call.as_str());
                let call = builder.call(&scope.address, parent);
                open.push((scope.address.clone(), call));
            }
            let mut record = self.node_record(builder, flat, params, label_of, &node_labels);
            record.modules = open.iter().map(|(_, call)| call.clone()).collect();
            let label = builder.push_op(record);
            for output in flat.node.outputs.iter().filter(|o| !o.is_empty()) {
                label_of.insert(output.as_str(), label.clone());
            }
            node_labels.push(label);
        }
    }

    /// The record of one node: type, parents and argument slots, parameters, shape and
    /// the attributes that differ from their defaults.
    fn node_record(
        &self,
        builder: &mut TraceBuilder,
        flat: &FlatNode<'_>,
        params: &HashMap<&'m str, String>,
        label_of: &HashMap<&'m str, String>,
        node_labels: &[String],
    ) -> OpRecord {
        let node = flat.node;
        let layer_type = match node.op_type.to_lowercase() {
            empty if empty.is_empty() => "node".to_owned(),
            lowered => lowered,
        };
        let mut record = builder.record(OpKind::Op, &layer_type);
        record.func_name = if node.domain.is_empty() || node.domain == "ai.onnx" {
            node.op_type.clone()
        } else {
            format!("{}::{}", node.domain, node.op_type)
        };
        let mut parents: Vec<String> = Vec::new();
        for (position, input) in flat.inputs.iter().enumerate() {
            let Some((producer, name)) = input else {
                continue;
            };
            if *producer == Producer::Initializer {
                if let Some(address) = params.get(*name) {
                    if !record.params.contains(address) {
                        record.params.push(address.clone());
                    }
                }
                continue;
            }
            let Some(parent) = label_of.get(name) else {
                continue;
            };
            if !parents.contains(parent) {
                parents.push(parent.clone());
            }
            record.arg_slots.push(ArgSlot {
                parent: parent.clone(),
                arg: Some(vec![position as u32]),
                kwarg: None,
            });
        }
        for parent in flat.reads.iter().map(|&read| &node_labels[read]) {
            if !parents.contains(parent) {
                parents.push(parent.clone());
            }
        }
        record.has_input_ancestor = parents
            .iter()
            .any(|parent| builder.op(parent).is_some_and(|op| op.has_input_ancestor));
        record.parents = parents;
        if let Some(output) = node.outputs.iter().find(|o| !o.is_empty()) {
            self.typed(&mut record, output);
        }
        for attribute in node.attributes.iter().filter(|a| a.graphs.is_empty()) {
            if let Some(value) = attribute_value(attribute) {
                if !is_default(&node.op_type, &attribute.name, &value) {
                    record.args.insert(attribute.name.clone(), value);
                }
            }
        }
        record
    }

    /// The graph's outputs, each reading the node that makes it.
    fn add_outputs(
        &self,
        builder: &mut TraceBuilder,
        label_of: &HashMap<&'m str, String>,
    ) -> Result<(), OnnxError> {
        let outputs = &self.model.graph.outputs;
        for output in outputs {
            let Some(parent) = label_of.get(output.name.as_str()).cloned() else {
                return Err(OnnxError::Dangling {
                    node: "the graph's outputs".to_owned(),
                    input: output.name.clone(),
                });
            };
            let mut record = builder
                .record(OpKind::Output, "output")
                .with_parents(&[parent]);
            record.io_role = Some(if outputs.len() == 1 {
                "output".to_owned()
            } else {
                format!("output.{}", output.name)
            });
            self.typed(&mut record, &output.name);
            builder.push_op(record);
        }
        Ok(())
    }

    /// How many calls each module gets: a call is a stretch of consecutive nodes in it.
    fn count_calls(&self) -> HashMap<&'a str, u32> {
        let mut calls: HashMap<&str, u32> = HashMap::new();
        let mut open: Vec<&str> = Vec::new();
        for flat in &self.flat.nodes {
            let shared = open
                .iter()
                .zip(&flat.scopes)
                .take_while(|(address, scope)| **address == scope.address)
                .count();
            open.truncate(shared);
            for scope in &flat.scopes[shared..] {
                *calls.entry(scope.address.as_str()).or_insert(0) += 1;
                open.push(scope.address.as_str());
            }
        }
        calls
    }

    /// Shape, dtype and bytes of the tensor `name`, when the model records them.
    fn typed(&self, record: &mut OpRecord, name: &str) {
        let Some(info) = self.types.get(name) else {
            return;
        };
        let element = info.elem_type.and_then(dtype);
        if let Some((dtype, _)) = element {
            record.dtype = Some(dtype.to_owned());
        }
        let Some(shape) = &info.shape else { return };
        let Some(dims) = shape.iter().copied().collect::<Option<Vec<u64>>>() else {
            return;
        };
        if let Some((_, size)) = element {
            record.bytes = dims.iter().try_fold(size, |total, &d| total.checked_mul(d));
        }
        record.shape = Some(dims);
    }

    /// The parameters, by initializer name: their addresses.
    fn params(&self, builder: &mut TraceBuilder) -> HashMap<&'m str, String> {
        let mut first_reader: HashMap<&str, &FlatNode<'_>> = HashMap::new();
        for flat in &self.flat.nodes {
            for (_, name) in flat.inputs.iter().flatten() {
                first_reader.entry(*name).or_insert(flat);
            }
        }
        let modules: HashSet<String> = self
            .flat
            .nodes
            .iter()
            .flat_map(|f| f.scopes.iter().map(|s| s.address.clone()))
            .collect();
        let mut records: Vec<ParamRecord> = Vec::new();
        let mut addresses = HashMap::new();
        let mut taken: HashSet<String> = HashSet::new();
        for tensor in &self.model.graph.initializers {
            // Integer and boolean initializers are shapes, axes and indices the exporter
            // folded into constants, not parameters.
            // A floating scalar (`scalar_tensor_default`, a comparison's 0.0) is a constant.
            let floating = matches!(tensor.data_type, 1 | 10 | 11 | 16);
            if !floating
                || tensor.dims.is_empty()
                || !first_reader.contains_key(tensor.name.as_str())
            {
                continue;
            }
            // Owned by the longest module its name starts with (`layer1.0.conv1.weight`:
            // `layer1.0.conv1`, or `layer1.0` when the exporter fused that convolution into
            // the batch norm after it: `conv1_weight`), else by the innermost module of the
            // first node reading it.
            let owner = std::iter::successors(Some(tensor.name.as_str()), |prefix| {
                prefix.rsplit_once('.').map(|(head, _)| head)
            })
            .skip(1)
            .find(|prefix| modules.contains(*prefix));
            let (module, name) = match owner {
                Some(module) => (
                    module.to_owned(),
                    tensor.name[module.len() + 1..].replace('.', "_"),
                ),
                None => {
                    let module = first_reader[tensor.name.as_str()]
                        .scopes
                        .last()
                        .map_or("self".to_owned(), |s| s.address.clone());
                    (module, tensor.name.replace('.', "_"))
                }
            };
            let mut address = if module == "self" {
                name.clone()
            } else {
                format!("{module}.{name}")
            };
            while !taken.insert(address.clone()) {
                address.push('_');
            }
            let shape: Vec<u64> = tensor.dims.iter().map(|&d| d.max(0) as u64).collect();
            let numel = shape
                .iter()
                .try_fold(1u64, |n, &d| n.checked_mul(d))
                .unwrap_or(u64::MAX);
            let (dtype, size) = dtype(tensor.data_type).unwrap_or(("unknown", 0));
            records.push(ParamRecord {
                address: address.clone(),
                name,
                module,
                shape,
                dtype: dtype.to_owned(),
                trainable: true,
                numel,
                bytes: numel.saturating_mul(size),
            });
            addresses.insert(tensor.name.as_str(), address);
        }
        builder.add_params(records);
        addresses
    }

    /// `ONNX opset 20, exported by pytorch 2.15.0 -- a saved graph: parameters from its
    /// initializers (trainable or frozen not recorded), no run recorded`.
    fn source(&self) -> String {
        let opset = self
            .model
            .opsets
            .iter()
            .find(|(domain, _)| domain.is_empty() || domain == "ai.onnx")
            .map_or_else(
                || "ONNX".to_owned(),
                |(_, version)| format!("ONNX opset {version}"),
            );
        let producer = match (
            self.model.producer_name.as_str(),
            self.model.producer_version.as_str(),
        ) {
            ("", _) => String::new(),
            (name, "") => format!(", exported by {name}"),
            (name, version) => format!(", exported by {name} {version}"),
        };
        format!("{opset}{producer}: a saved graph, no run recorded; parameters from initializers, trainable or frozen not recorded")
    }
}

/// Whether an attribute holds its ONNX default (the guide: arguments appear "when they
/// differ from the defaults"): the defaults of the attributes exporters write out anyway.
fn is_default(op_type: &str, name: &str, value: &ArgValue) -> bool {
    let all = |want: i64| match value {
        ArgValue::List(items) => items.iter().all(|item| *item == ArgValue::Int(want)),
        _ => false,
    };
    match (name, value) {
        ("auto_pad", ArgValue::Text(text)) => text == "NOTSET",
        ("dilations" | "strides", _) => all(1),
        ("pads", _) => all(0),
        ("group" | "keepdims", ArgValue::Int(1)) => true,
        (
            "ceil_mode"
            | "storage_order"
            | "noop_with_empty_axes"
            | "allowzero"
            | "transA"
            | "transB"
            | "count_include_pad"
            | "select_last_index",
            ArgValue::Int(0),
        ) => true,
        ("alpha" | "beta", ArgValue::Float(f)) => op_type == "Gemm" && *f == 1.0,
        ("axis", ArgValue::Int(axis)) => matches!(
            (op_type, *axis),
            ("LayerNormalization" | "Softmax" | "LogSoftmax", -1)
                | ("Gather" | "GatherElements" | "Split", 0)
                | ("Flatten", 1)
        ),
        ("stash_type", ArgValue::Int(1)) => op_type == "LayerNormalization",
        ("approximate", ArgValue::Text(text)) => text == "none",
        _ => false,
    }
}

/// An attribute as an argument row value: numbers and text; tensors and graphs are not.
fn attribute_value(attribute: &crate::proto::Attribute) -> Option<ArgValue> {
    if let Some(int) = attribute.int {
        return Some(ArgValue::Int(int));
    }
    if let Some(float) = attribute.float {
        // The float32's shortest decimal (`1e-5`, not `9.999999747378752e-06`).
        let shortest = float.to_string().parse().unwrap_or(f64::from(float));
        return Some(ArgValue::Float(shortest));
    }
    if let Some(text) = &attribute.text {
        return Some(ArgValue::Text(text.clone()));
    }
    if !attribute.ints.is_empty() && attribute.ints.len() <= 16 {
        return Some(ArgValue::List(
            attribute.ints.iter().map(|&i| ArgValue::Int(i)).collect(),
        ));
    }
    None
}
