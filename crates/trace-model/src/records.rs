//! The record types of the `tl-trace` v1 JSON format.
//!
//! Field names and meanings are documented one by one in `docs/trace-format.md`; keep the
//! two in step. Every struct rejects unknown fields so that a misspelt field in a
//! hand-edited trace is reported instead of silently ignored.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

pub use crate::values::{ArgValue, ScalarValue};

/// The value of the `format` field of every trace file.
pub const TRACE_FORMAT: &str = "tl-trace";
/// The value of the `format` field of every bundle file.
pub const BUNDLE_FORMAT: &str = "tl-bundle";
/// The format version this crate reads and writes.
pub const FORMAT_VERSION: u32 = 1;

fn is_false(value: &bool) -> bool {
    !*value
}

/// One recorded run of a model: everything a drawing needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trace {
    /// Always [`TRACE_FORMAT`].
    pub format: String,
    /// Always [`FORMAT_VERSION`] for files this crate writes.
    pub version: u32,
    /// The model that ran.
    pub model: ModelInfo,
    /// Whole-network counts; loading checks them against the records.
    pub summary: TraceSummary,
    /// Every parameter of the model, in registration order.
    #[serde(default)]
    pub params: Vec<ParamRecord>,
    /// Every module of the model, the root (`self`) first, in registration order.
    pub modules: Vec<ModuleRecord>,
    /// Every module call, in the order the calls began.
    #[serde(default, deserialize_with = "records_in_chunks")]
    pub module_calls: Vec<ModuleCallRecord>,
    /// Every recorded tensor (operation pass, input, output, buffer version) in execution order.
    #[serde(deserialize_with = "records_in_chunks")]
    pub ops: Vec<OpRecord>,
    /// The Python `if` statements whose condition was a tensor.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditionals: Vec<ConditionalRecord>,
    /// Edges that lead into the computation of a branch condition (drawn with `IF`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditional_branch_edges: Vec<EdgeRef>,
    /// The backward pass(es), when the trace recorded any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backward: Option<BackwardGraph>,
    /// Edits made on this trace when it is an edited fork.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edits: Option<EditSet>,
    /// What the capture warned about (TorchLens's capture advisories).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub advisories: Vec<CaptureAdvisory>,
}

/// A capture advisory: something the run did that the trace may not fully show
/// (`scalar_escape`: a tensor became a Python number, so what followed is not recorded).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaptureAdvisory {
    /// The advisory's kind, as TorchLens names it.
    pub kind: String,
    /// How many times it happened.
    pub count: u64,
    /// Where it first happened (`models.py:49`), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_at: Option<String>,
}

/// Records read one by one, kept in fixed-size chunks and moved once more, into a vector of
/// the exact length: a vector grown by doubling copies every 800-byte op record at each
/// doubling (a fifth of the time of loading 100,000 ops).
struct Chunks<T> {
    full: Vec<Vec<T>>,
    current: Vec<T>,
}

impl<T> Chunks<T> {
    const SIZE: usize = 4096;

    fn new() -> Chunks<T> {
        Chunks {
            full: Vec::new(),
            current: Vec::with_capacity(Self::SIZE),
        }
    }

    fn push(&mut self, record: T) {
        if self.current.len() == Self::SIZE {
            let full = std::mem::replace(&mut self.current, Vec::with_capacity(Self::SIZE));
            self.full.push(full);
        }
        self.current.push(record);
    }

    fn into_vec(mut self) -> Vec<T> {
        if self.full.is_empty() {
            self.current.shrink_to_fit();
            return self.current;
        }
        let mut records = Vec::with_capacity(self.full.len() * Self::SIZE + self.current.len());
        for chunk in self.full {
            records.extend(chunk);
        }
        records.extend(self.current);
        records
    }
}

/// Deserialises a long JSON list of large records through [`Chunks`].
pub(crate) fn records_in_chunks<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct Chunked<T>(std::marker::PhantomData<T>);
    impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Chunked<T> {
        type Value = Vec<T>;
        fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            formatter.write_str("a list of records")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let mut chunks = Chunks::new();
            while let Some(record) = seq.next_element()? {
                chunks.push(record);
            }
            Ok(chunks.into_vec())
        }
    }
    deserializer.deserialize_seq(Chunked(std::marker::PhantomData))
}

/// Facts about the model class.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelInfo {
    /// The model's class name (`ConvNet`), first line of every header.
    pub class_name: String,
    /// The trace's own name as TorchLens gave it (`convnet_1`), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace_name: Option<String>,
    /// Where the graph came from when it is not a TorchLens trace of one run (`ONNX opset
    /// 20, exported by pytorch 2.15.0`): a saved static graph, drawn with this line in its
    /// header.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// Whole-network counts, independent of what any drawing shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceSummary {
    /// Operations: entries that are not inputs, outputs or buffer versions.
    pub num_ops: u64,
    /// Every entry of `ops`: operations, inputs, outputs and buffer versions.
    pub num_tensors: u64,
    /// Sum of `bytes` over every entry except outputs (they alias their producer).
    pub total_output_bytes: u64,
    /// Number of parameter elements.
    pub num_params: u64,
    /// Elements of parameters with `requires_grad=True`.
    pub num_params_trainable: u64,
    /// Elements of parameters with `requires_grad=False`.
    pub num_params_frozen: u64,
    /// Bytes of all parameters.
    pub total_param_bytes: u64,
}

/// One parameter tensor.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamRecord {
    /// Full dotted address, `fc1.weight`.
    pub address: String,
    /// Leaf name, `weight`.
    pub name: String,
    /// Address of the owning module (`self` for parameters of the root).
    pub module: String,
    /// Tensor shape.
    pub shape: Vec<u64>,
    /// Element type, `float32`.
    pub dtype: String,
    /// `requires_grad`.
    pub trainable: bool,
    /// Number of elements.
    pub numel: u64,
    /// Size in bytes.
    pub bytes: u64,
}

/// One module of the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModuleRecord {
    /// Dotted address; the root model is `self`.
    pub address: String,
    /// Python class name, `Sequential`.
    pub class_name: String,
    /// Address of the parent module; `None` only for the root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// Depth in the module tree: 0 for the root, 1 for its children, ...
    pub depth: u32,
    /// Addresses of the child modules, in registration order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<String>,
    /// How many times `forward` ran (0 for containers such as `ModuleList`).
    pub num_calls: u32,
    /// Parameter elements owned by the module and its descendants.
    pub num_params: u64,
    /// Of which trainable.
    pub num_params_trainable: u64,
    /// Of which frozen.
    pub num_params_frozen: u64,
    /// Addresses of the buffers the module registered itself.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub buffers: Vec<String>,
}

/// One call of a module's `forward`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModuleCallRecord {
    /// Call label, `features.0:1`.
    pub label: String,
    /// Module address, `features.0`.
    pub address: String,
    /// 1-based call index.
    pub call_index: u32,
    /// The enclosing call, `None` for calls made directly by the root model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_call: Option<String>,
    /// Labels of every op recorded inside this call (recursively), in execution order.
    pub ops: Vec<String>,
    /// Labels of the ops the call returned; the last is the module's output.
    pub output_ops: Vec<String>,
}

/// What kind of entry an op record is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpKind {
    /// A model input.
    Input,
    /// A model output (aliases its producer).
    Output,
    /// One version of a buffer.
    Buffer,
    /// A tensor-producing operation.
    Op,
}

/// Which argument slot of a child an incoming tensor filled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArgSlot {
    /// Label of the parent op whose output filled the slot.
    pub parent: String,
    /// Positional path: `[3]` is argument 3, `[0, 1]` element 1 of list argument 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arg: Option<Vec<u32>>,
    /// Keyword name, for keyword arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kwarg: Option<String>,
}

/// A buffer version: which buffer, which version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BufferVersion {
    /// Buffer address, `features.0.bn.running_mean`.
    pub address: String,
    /// 1-based version: 1 is the value read, 2 the value written back, ...
    pub version: u32,
}

/// Kind of test a condition was: every kind TorchLens 2.36.1 records, and any other name a
/// later version writes (kept as written, so a trace saves back unchanged, and drawn as a
/// generic condition).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum ConditionKind {
    /// The condition of an `if` (`if_test`).
    IfTest,
    /// The condition of an `elif` (`elif_test`).
    ElifTest,
    /// The condition of a conditional expression, `a if t > 0 else b` (`ifexp`).
    IfExp,
    /// The test of a `while` loop, once per iteration it ran (`while`).
    While,
    /// The test of an `assert` (`assert`).
    Assert,
    /// A tensor turned into a Python bool, `bool(t)` (`bool_cast`).
    BoolCast,
    /// The filter of a comprehension, `[x for x in xs if t]` (`comprehension_filter`).
    ComprehensionFilter,
    /// The guard of a `match` case, `case _ if t` (`match_guard`).
    MatchGuard,
    /// A kind this version does not know, as the trace names it.
    Other(String),
}

impl ConditionKind {
    /// The name the trace format uses (`if_test`, `while`, ...).
    pub fn name(&self) -> &str {
        match self {
            ConditionKind::IfTest => "if_test",
            ConditionKind::ElifTest => "elif_test",
            ConditionKind::IfExp => "ifexp",
            ConditionKind::While => "while",
            ConditionKind::Assert => "assert",
            ConditionKind::BoolCast => "bool_cast",
            ConditionKind::ComprehensionFilter => "comprehension_filter",
            ConditionKind::MatchGuard => "match_guard",
            ConditionKind::Other(name) => name,
        }
    }
}

impl From<String> for ConditionKind {
    fn from(name: String) -> ConditionKind {
        match name.as_str() {
            "if_test" => ConditionKind::IfTest,
            "elif_test" => ConditionKind::ElifTest,
            "ifexp" => ConditionKind::IfExp,
            "while" => ConditionKind::While,
            "assert" => ConditionKind::Assert,
            "bool_cast" => ConditionKind::BoolCast,
            "comprehension_filter" => ConditionKind::ComprehensionFilter,
            "match_guard" => ConditionKind::MatchGuard,
            _ => ConditionKind::Other(name),
        }
    }
}

impl From<ConditionKind> for String {
    fn from(kind: ConditionKind) -> String {
        kind.name().to_owned()
    }
}

/// Facts of an op that decided a Python `if`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BranchCondition {
    /// Which kind of test.
    pub kind: ConditionKind,
    /// What the condition evaluated to.
    pub value: bool,
    /// Id of the conditional (see [`ConditionalRecord`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conditional: Option<u32>,
}

/// The arm of a conditional a child op opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArmKind {
    /// The `if` body.
    Then,
    /// An `elif` body.
    Elif,
    /// The `else` body.
    Else,
}

/// An edge from an op to the first op of a branch arm that ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmEntry {
    /// Label of the child that is the first op of the arm.
    pub child: String,
    /// Which arm.
    pub arm: ArmKind,
    /// For `elif`: its 1-based position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elif_index: Option<u32>,
    /// Id of the conditional.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conditional: Option<u32>,
}

/// A recorded Python `if` on a tensor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConditionalRecord {
    /// Id referenced by ops.
    pub id: u32,
    /// Source file of the `if`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Line of the `if`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

/// A (parent, child) pair of op labels.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdgeRef {
    /// Source op label.
    pub parent: String,
    /// Destination op label.
    pub child: String,
}

/// One line of code that called an op.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CallSite {
    /// File path as recorded.
    pub file: String,
    /// 1-based line number.
    pub line: u32,
    /// Name of the function containing the line.
    pub function: String,
    /// Qualified name of that function (`Net.forward`), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qualname: Option<String>,
}

/// Tensors an op's grad_fn kept for the backward pass.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedTensors {
    /// Number of saved tensors.
    pub count: u32,
    /// Their size, when measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
}

/// Summary of a captured gradient tensor.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GradSummary {
    /// Gradient shape.
    pub shape: Vec<u64>,
    /// L2 norm.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub norm: Option<f64>,
    /// Largest absolute value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_abs: Option<f64>,
}

/// Non-finite status of a saved output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Finiteness {
    /// Every element finite.
    Finite,
    /// Some NaN, no infinities.
    Nan,
    /// Some +inf only.
    PosInf,
    /// Some -inf only.
    NegInf,
    /// Several kinds of non-finite values.
    Mixed,
}

/// Where a node picture came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PictureSource {
    /// The photo the trace was captured from (input nodes).
    InputPhoto,
    /// A picture attached with `annotate(image=...)`.
    Annotation,
    /// A layer visualizer thumbnail or feature-map grid.
    Visualizer,
}

/// A PNG picture carried by a node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Picture {
    /// Where it came from.
    pub source: PictureSource,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The PNG file, base64-encoded.
    pub png_base64: String,
}

/// A decoded class label on an output node.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecodedLabel {
    /// Class name.
    pub label: String,
    /// Score (probability).
    pub score: f64,
}

/// One firing of an edit at an op.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EditFire {
    /// The helper that edited the value (`zero_ablate`, `user_hook`, ...).
    pub helper: String,
    /// The engine that applied it (`replay`, `live_hook`, ...), when recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
}

/// One tensor of the recorded run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpRecord {
    /// Pass-qualified label, `relu_1_2:1`.
    pub label: String,
    /// Layer label (pass-free), `relu_1_2`.
    pub layer_label: String,
    /// What kind of entry this is.
    pub kind: OpKind,
    /// Normalised op type (`batchnorm`, `zeroslike`, `input`, `output`, `buffer`).
    pub layer_type: String,
    /// Raw function name (`batch_norm`, `__add__`; `none` for inputs and outputs).
    pub func_name: String,
    /// The n-th distinct layer of this type (1-based).
    pub type_index: u32,
    /// Step number in the layer label (0 for inputs and buffers).
    pub step_index: u32,
    /// 1-based pass of the layer.
    pub pass_index: u32,
    /// Number of passes of the layer.
    pub num_passes: u32,
    /// Output shape (`[]` for 0-d); `None` when the output was not a tensor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<Vec<u64>>,
    /// Output element type (`float32`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dtype: Option<String>,
    /// Output size in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
    /// The value of a 0-d output, when it was saved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<ScalarValue>,
    /// Module-call stack the op ran inside, outermost first (`features:1`, `features.0:1`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modules: Vec<String>,
    /// The op is the whole own work of a module call (drawn as a rectangle).
    #[serde(default, skip_serializing_if = "is_false")]
    pub is_atomic_module: bool,
    /// Module calls this op is an output of.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub output_of_calls: Vec<String>,
    /// Addresses of the parameters the op used, in use order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<String>,
    /// Salient arguments as captured (defaults already dropped), in stored order.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub args: IndexMap<String, ArgValue>,
    /// Labels of the ops whose outputs this op read, in argument order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parents: Vec<String>,
    /// Which argument slot each parent filled.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arg_slots: Vec<ArgSlot>,
    /// Labels of the ops that read this op's output.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<String>,
    /// Some model input flows into this op (false: computed from buffers/constants only).
    pub has_input_ancestor: bool,
    /// Address text after `@` for inputs and outputs (`input.x`, `output.a`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub io_role: Option<String>,
    /// For buffer versions: which buffer and version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffer: Option<BufferVersion>,
    /// For the bool that decided a Python `if`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<BranchCondition>,
    /// Children that are the first op of a branch arm that ran.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arm_entries: Vec<ArmEntry>,
    /// Wall time of the call in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_s: Option<f64>,
    /// Forward FLOPs (2 per multiply-accumulate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flops: Option<u64>,
    /// Call sites, innermost user frame first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub call_sites: Vec<CallSite>,
    /// Tensors kept for backward, when measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub saved_for_backward: Option<SavedTensors>,
    /// Mean absolute value of the saved output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub magnitude: Option<f64>,
    /// Non-finite status of the saved output, when it was checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finiteness: Option<Finiteness>,
    /// The gradient of the output, when it was saved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grad: Option<GradSummary>,
    /// User annotations (`annotate(data=...)`), in insertion order.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub annotations: IndexMap<String, ArgValue>,
    /// A picture drawn inside the node.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub picture: Option<Picture>,
    /// Decoded class labels (output nodes of recognised models).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decoded_labels: Vec<DecodedLabel>,
    /// Edits that fired at this op.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edits: Vec<EditFire>,
    /// Largest absolute change of the output against the clean run (edited forks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clean_max_abs_change: Option<f64>,
}

/// Mints layer labels the way TorchLens does: per-type indices, and step numbers that every
/// operation (not inputs, outputs or buffers) consumes.
#[derive(Debug, Clone, Default)]
pub struct LabelCounter {
    counts: IndexMap<String, u32>,
    step: u32,
}

impl LabelCounter {
    /// A fresh record of the next layer of `layer_type`.
    pub fn next(&mut self, kind: OpKind, layer_type: &str) -> OpRecord {
        let count = self.counts.entry(layer_type.to_owned()).or_insert(0);
        *count += 1;
        let type_index = *count;
        let step_index = if kind == OpKind::Op {
            self.step += 1;
            self.step
        } else {
            0
        };
        OpRecord::new(kind, layer_type, type_index, step_index)
    }
}

impl OpRecord {
    /// A first-pass record of a single-pass layer, every optional fact absent: the base
    /// that generators of synthetic traces fill in.
    pub fn new(kind: OpKind, layer_type: &str, type_index: u32, step_index: u32) -> OpRecord {
        let layer_label = match kind {
            OpKind::Op => format!("{layer_type}_{type_index}_{step_index}"),
            _ => format!("{layer_type}_{type_index}"),
        };
        OpRecord {
            label: format!("{layer_label}:1"),
            layer_label,
            kind,
            layer_type: layer_type.to_owned(),
            func_name: if kind == OpKind::Op {
                layer_type.to_owned()
            } else {
                "none".to_owned()
            },
            type_index,
            step_index,
            pass_index: 1,
            num_passes: 1,
            shape: None,
            dtype: None,
            bytes: None,
            value: None,
            modules: Vec::new(),
            is_atomic_module: false,
            output_of_calls: Vec::new(),
            params: Vec::new(),
            args: IndexMap::new(),
            parents: Vec::new(),
            arg_slots: Vec::new(),
            children: Vec::new(),
            has_input_ancestor: true,
            io_role: match kind {
                OpKind::Input => Some("input.x".to_owned()),
                OpKind::Output => Some("output".to_owned()),
                _ => None,
            },
            buffer: None,
            condition: None,
            arm_entries: Vec::new(),
            duration_s: None,
            flops: None,
            call_sites: Vec::new(),
            saved_for_backward: None,
            magnitude: None,
            finiteness: None,
            grad: None,
            annotations: IndexMap::new(),
            picture: None,
            decoded_labels: Vec::new(),
            edits: Vec::new(),
            clean_max_abs_change: None,
        }
    }

    /// Sets the parents (deduplicated, in order) and one positional argument slot each.
    pub fn with_parents(mut self, parents: &[String]) -> OpRecord {
        for parent in parents {
            if !self.parents.contains(parent) {
                self.parents.push(parent.clone());
            }
        }
        self.arg_slots = self
            .parents
            .iter()
            .enumerate()
            .map(|(position, parent)| ArgSlot {
                parent: parent.clone(),
                arg: Some(vec![position as u32]),
                kwarg: None,
            })
            .collect();
        self
    }
}

/// The backward graph(s) of a trace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BackwardGraph {
    /// How many backward passes were recorded.
    pub num_passes: u32,
    /// One record per grad_fn, in discovery order.
    pub grad_fns: Vec<GradFnRecord>,
}

/// One autograd step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GradFnRecord {
    /// Label `<type>_back_<type_index>_<discovery_index>`.
    pub label: String,
    /// Normalised type (`addmm`, `accumulategrad`).
    pub grad_type: String,
    /// Layer label of the forward op it differentiates, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forward_layer: Option<String>,
    /// A custom autograd function.
    #[serde(default, skip_serializing_if = "is_false")]
    pub is_custom: bool,
    /// Derivative order (1 = first derivative).
    pub order: u32,
    /// Labels of the grad_fns it passes gradients to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub next: Vec<String>,
    /// Address of the module of its forward op.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub module: Option<String>,
    /// For AccumulateGrad: the parameter the gradient accumulates into.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub param: Option<String>,
    /// One entry per call (per backward pass it ran in).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<GradFnCall>,
}

/// One call of a grad_fn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GradFnCall {
    /// 1-based backward pass.
    pub pass: u32,
    /// The first output gradient of the call, when saved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grad_output: Option<GradSummary>,
}

/// Edits of an edited fork.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EditSet {
    /// One record per edit, in the order they were made.
    pub edits: Vec<EditRecord>,
    /// Whether the clean parent trace was available when exporting (then
    /// `clean_max_abs_change` is filled on every op).
    pub clean_parent_available: bool,
}

/// One edit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EditRecord {
    /// Helper name (`zero_ablate`).
    pub helper: String,
    /// What the user targeted (`module fc1`).
    pub target: String,
    /// Labels of the ops the edit applied to.
    pub sites: Vec<String>,
    /// True when a firing was recorded at every site; false when the site is inferred.
    pub recorded: bool,
}

/// Several named traces of one model, with what a diff drawing needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bundle {
    /// Always [`BUNDLE_FORMAT`].
    pub format: String,
    /// Always [`FORMAT_VERSION`].
    pub version: u32,
    /// Name of the member others are compared with.
    pub baseline: String,
    /// The members, in bundle order.
    pub members: Vec<BundleMember>,
    /// Per-op differences against the baseline.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deltas: Vec<DeltaTable>,
}

/// One named trace of a bundle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BundleMember {
    /// Member name.
    pub name: String,
    /// Its trace.
    pub trace: Trace,
}

/// What a diff compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeltaOn {
    /// Op outputs.
    Out,
    /// Op output gradients.
    Grad,
}

/// Values of one metric for one member against the baseline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeltaTable {
    /// Compared member.
    pub member: String,
    /// `relative_l2`, `cosine` or `pearson`.
    pub metric: String,
    /// What was compared.
    pub on: DeltaOn,
    /// Op label (pass-qualified) to metric value; ops missing in either member are absent.
    pub values: IndexMap<String, f64>,
}
