//! Building consistent traces in code, for synthetic traces and property tests: records are
//! wired to each other through label indexes, so a trace of 100,000 operations builds in
//! linear time.

use std::collections::HashMap;

use crate::records::*;

/// Builds a [`Trace`] record by record: modules, parameters, calls and ops, each wired to
/// the records it names (children, call op lists, parameter counts of every ancestor).
#[derive(Debug, Clone)]
pub struct TraceBuilder {
    trace: Trace,
    labels: LabelCounter,
    op_at: HashMap<String, usize>,
    call_at: HashMap<String, usize>,
    module_at: HashMap<String, usize>,
    /// Calls made so far, per module address.
    calls_made: HashMap<String, u32>,
}

impl TraceBuilder {
    /// A builder of a trace of `model_name` holding only the root module `self`.
    pub fn new(model_name: &str) -> TraceBuilder {
        let trace = Trace::empty(model_name);
        let module_at = trace
            .modules
            .iter()
            .enumerate()
            .map(|(i, m)| (m.address.clone(), i))
            .collect();
        TraceBuilder {
            trace,
            labels: LabelCounter::default(),
            op_at: HashMap::new(),
            call_at: HashMap::new(),
            module_at,
            calls_made: HashMap::new(),
        }
    }

    /// Adds the module `address` under `parent` (already added).
    ///
    /// # Panics
    /// When `parent` was not added first (a bug in the generator).
    pub fn module(&mut self, address: &str, class_name: &str, parent: &str, num_calls: u32) {
        let parent_index = self.module_at[parent];
        let parent_record = &mut self.trace.modules[parent_index];
        parent_record.children.push(address.to_owned());
        let depth = parent_record.depth + 1;
        self.module_at
            .insert(address.to_owned(), self.trace.modules.len());
        self.trace.modules.push(ModuleRecord {
            address: address.to_owned(),
            class_name: class_name.to_owned(),
            parent: Some(parent.to_owned()),
            depth,
            children: Vec::new(),
            num_calls,
            num_params: 0,
            num_params_trainable: 0,
            num_params_frozen: 0,
            buffers: Vec::new(),
        });
    }

    /// Adds a trainable float32 parameter `name` of `module`, counted by the module and every
    /// ancestor. Returns its address.
    pub fn param(&mut self, module: &str, name: &str, shape: Vec<u64>) -> String {
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
            bytes: numel * 4,
        });
        let mut owner = Some(self.module_at[module]);
        while let Some(index) = owner {
            let record = &mut self.trace.modules[index];
            record.num_params += numel;
            record.num_params_trainable += numel;
            owner = record.parent.as_ref().map(|p| self.module_at[p.as_str()]);
        }
        address
    }

    /// Adds the next call of the module `address`, made inside `parent_call`. Returns its
    /// label (`blocks.0:1`).
    pub fn call(&mut self, address: &str, parent_call: Option<&str>) -> String {
        let calls = self.calls_made.entry(address.to_owned()).or_insert(0);
        *calls += 1;
        let call_index = *calls;
        let label = format!("{address}:{call_index}");
        self.call_at
            .insert(label.clone(), self.trace.module_calls.len());
        self.trace.module_calls.push(ModuleCallRecord {
            label: label.clone(),
            address: address.to_owned(),
            call_index,
            parent_call: parent_call.map(str::to_owned),
            ops: Vec::new(),
            output_ops: Vec::new(),
        });
        label
    }

    /// A fresh record of the next layer of `layer_type` (labels minted like TorchLens).
    pub fn record(&mut self, kind: OpKind, layer_type: &str) -> OpRecord {
        self.labels.next(kind, layer_type)
    }

    /// Appends `record` (its parents and module calls already added), listing it as a child
    /// of each parent and as an op of each call in its stack. Returns its label.
    ///
    /// # Panics
    /// When a parent or call was not added first (a bug in the generator).
    pub fn push_op(&mut self, record: OpRecord) -> String {
        let label = record.label.clone();
        for parent in &record.parents {
            let index = self.op_at[parent.as_str()];
            self.trace.ops[index].children.push(label.clone());
        }
        for call in &record.modules {
            let index = self.call_at[call.as_str()];
            self.trace.module_calls[index].ops.push(label.clone());
        }
        self.op_at.insert(label.clone(), self.trace.ops.len());
        self.trace.ops.push(record);
        label
    }

    /// Marks `op` as the work of an atomic module: the single op a module (a `Linear`, or a
    /// block's residual add) runs itself.
    pub fn mark_atomic(&mut self, op: &str) {
        self.trace.ops[self.op_at[op]].is_atomic_module = true;
    }

    /// Records `op` as an output of `call`, on both records.
    pub fn mark_output(&mut self, call: &str, op: &str) {
        let index = self.call_at[call];
        self.trace.module_calls[index]
            .output_ops
            .push(op.to_owned());
        let record = &mut self.trace.ops[self.op_at[op]];
        record.output_of_calls.push(call.to_owned());
    }

    /// The op labelled `label`, when pushed.
    pub fn op(&self, label: &str) -> Option<&OpRecord> {
        self.op_at.get(label).map(|&index| &self.trace.ops[index])
    }

    /// Adds parameters as they are (their modules already added), each counted by its
    /// module and every ancestor, trainable or frozen as it says.
    pub fn add_params(&mut self, params: Vec<ParamRecord>) {
        for param in params {
            let mut owner = self.module_at.get(param.module.as_str()).copied();
            while let Some(index) = owner {
                let record = &mut self.trace.modules[index];
                record.num_params = record.num_params.saturating_add(param.numel);
                if param.trainable {
                    record.num_params_trainable =
                        record.num_params_trainable.saturating_add(param.numel);
                } else {
                    record.num_params_frozen = record.num_params_frozen.saturating_add(param.numel);
                }
                owner = record.parent.as_ref().map(|p| self.module_at[p.as_str()]);
            }
            self.trace.params.push(param);
        }
    }

    /// Marks, for every call, its outputs (its ops read from outside it, or by an output),
    /// and for a call of a module with no children that ran one op, that op as the module's
    /// whole work: what a graph read without TorchLens's hooks must work out afterwards.
    pub fn mark_call_outputs_and_atomic_ops(&mut self) {
        for call in 0..self.trace.module_calls.len() {
            let record = &self.trace.module_calls[call];
            let label = record.label.clone();
            let inside: std::collections::HashSet<&str> =
                record.ops.iter().map(String::as_str).collect();
            let outputs: Vec<String> = record
                .ops
                .iter()
                .filter(|op| {
                    let children = &self.trace.ops[self.op_at[op.as_str()]].children;
                    children
                        .iter()
                        .any(|child| !inside.contains(child.as_str()))
                })
                .cloned()
                .collect();
            let leaf = self.trace.modules[self.module_at[record.address.as_str()]]
                .children
                .is_empty();
            let only = (leaf && record.ops.len() == 1).then(|| record.ops[0].clone());
            for op in outputs {
                self.mark_output(&label, &op);
            }
            if let Some(op) = only {
                self.mark_atomic(&op);
            }
        }
    }

    /// The trace, with its summary computed from the records.
    pub fn finish(self) -> Trace {
        let mut trace = self.trace;
        trace.summary = trace.computed_summary();
        trace
    }
}
