//! The ops of a live TorchLens trace written as `tl-trace` JSON, from the fields the Python
//! converter read ahead of them (`tl_export.row_store`): building each op's record field by
//! field in Python was a fifth of converting a real model.
//!
//! Only the common op is written here, exactly as `tl_export.convert._export_op` writes it
//! without value summaries or a clean trace; an op with anything rarer (a 0-d output, a
//! branch test or arm, the user's annotations or a picture, edits, a gradient, a field
//! missing or of a type not listed below) is left to that function, which the writer calls
//! back for it. The Python converter stays the reference: `tests/test_native_ops.py`
//! compares the two documents on real models, and the two records op by op.

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

use crate::json_writer::{
    write_float, write_integer, write_integers, write_qualified, write_string, Qualified, Record,
};

/// An op this writer leaves to the Python converter (a field missing, of another type, or
/// one only the converter writes); a Python error while reading counts as one too, so that
/// the converter meets it and reports it as it would have.
struct Delegated;

impl From<PyErr> for Delegated {
    fn from(_: PyErr) -> Self {
        Delegated
    }
}

type Written<T = ()> = Result<T, Delegated>;

/// What `write_ops` hands back: the JSON array of every op, and over the ops it wrote
/// itself how many are of kind `op` and the bytes of every output but the model's outputs.
type OpsWritten = (Py<PyBytes>, usize, i128);

/// Writes the JSON array of the ops whose read-ahead fields are `fields` (one dict per op,
/// in order), with `children[i]` the labels of the ops reading op `i`, `sites` the JSON of
/// each call site by the `id()` of its frame (`None` for a frame with no site), and
/// `export_one(i)` the JSON of op `i` as the Python converter writes it (called for the ops
/// left to it). Returns the array, and over the ops written here the number of kind `op`
/// and the sum of their `bytes` but the model outputs'.
#[pyfunction]
pub fn write_ops(
    fields: &Bound<'_, PyList>,
    children: &Bound<'_, PyList>,
    sites: &Bound<'_, PyDict>,
    export_one: &Bound<'_, PyAny>,
) -> PyResult<OpsWritten> {
    let py = fields.py();
    let mut out = Vec::with_capacity(fields.len() * 600);
    let mut dtypes = DtypeNames::default();
    // Summed as Python sums them: exactly (128 bits hold any number of 64-bit sizes).
    let (mut num_ops, mut output_bytes) = (0usize, 0i128);
    out.push(b'[');
    for (index, op) in fields.iter().enumerate() {
        if index > 0 {
            out.push(b',');
        }
        let start = out.len();
        let op_children = children.get_item(index)?;
        let written = op
            .cast::<PyDict>()
            .map_err(|_| Delegated)
            .and_then(|op| write_op(&mut out, op, &op_children, sites, &mut dtypes));
        match written {
            Ok(facts) => {
                num_ops += usize::from(facts.kind == "op");
                if facts.kind != "output" {
                    output_bytes += i128::from(facts.bytes);
                }
            }
            Err(Delegated) => {
                out.truncate(start);
                let record = export_one.call1((index,))?;
                out.extend_from_slice(record.cast::<PyBytes>()?.as_bytes());
            }
        }
    }
    out.push(b']');
    Ok((PyBytes::new(py, &out).unbind(), num_ops, output_bytes))
}

/// What the document's summary counts of an op written here.
struct OpFacts {
    kind: &'static str,
    bytes: i64,
}

/// The names of the dtypes met (`str(torch.float32)` less `torch.`), by the object's
/// address: a model's ops have a handful, and each is a singleton.
#[derive(Default)]
struct DtypeNames(Vec<(usize, String)>);

impl DtypeNames {
    fn name(&mut self, dtype: &Bound<'_, PyAny>) -> Written<&str> {
        let address = dtype.as_ptr() as usize;
        let at = match self.0.iter().position(|(known, _)| *known == address) {
            Some(at) => at,
            None => {
                let text = dtype.str()?.to_str()?.replace("torch.", "");
                self.0.push((address, text));
                self.0.len() - 1
            }
        };
        Ok(&self.0[at].1)
    }
}

/// The fields of one op's dict, read by name.
struct Fields<'a, 'py> {
    dict: &'a Bound<'py, PyDict>,
}

impl<'py> Fields<'_, 'py> {
    /// The field's value; a field the read-ahead did not find is left to the converter.
    fn get(&self, name: &Bound<'py, PyString>) -> Written<Bound<'py, PyAny>> {
        self.dict.get_item(name)?.ok_or(Delegated)
    }

    /// The field, `None` when it holds Python's `None`.
    fn optional(&self, name: &Bound<'py, PyString>) -> Written<Option<Bound<'py, PyAny>>> {
        let value = self.get(name)?;
        Ok((!value.is_none()).then_some(value))
    }

    /// The field's truth, as `if op.field:` reads it.
    fn truthy(&self, name: &Bound<'py, PyString>) -> Written<bool> {
        Ok(self.get(name)?.is_truthy()?)
    }
}

fn write_op(
    out: &mut Vec<u8>,
    op: &Bound<'_, PyDict>,
    children: &Bound<'_, PyAny>,
    sites: &Bound<'_, PyDict>,
    dtypes: &mut DtypeNames,
) -> Written<OpFacts> {
    let py = op.py();
    let fields = Fields { dict: op };
    let kind = if fields.truthy(intern!(py, "is_input"))? {
        "input"
    } else if fields.truthy(intern!(py, "is_output"))? {
        "output"
    } else if fields.truthy(intern!(py, "is_buffer"))? {
        "buffer"
    } else {
        "op"
    };
    // Only the converter writes these (or reads the saved output for them).
    for rare in [
        intern!(py, "is_terminal_bool"),
        intern!(py, "conditional_arm_children"),
        intern!(py, "visualizer_path"),
        intern!(py, "interventions"),
        intern!(py, "has_grad"),
    ] {
        if fields.truthy(rare)? {
            return Err(Delegated);
        }
    }
    if user_annotations(&fields.get(intern!(py, "annotations"))?)? {
        return Err(Delegated);
    }
    let mut record = Record::open(out);
    let layer_label = fields.get(intern!(py, "layer_label"))?;
    let layer_label = text(&layer_label)?;
    record.string("label", text(&fields.get(intern!(py, "label"))?)?);
    record.string("layer_label", layer_label);
    record.string("kind", kind);
    record.string("layer_type", text(&fields.get(intern!(py, "layer_type"))?)?);
    let func_name = fields.get(intern!(py, "func_name"))?.str()?;
    record.string("func_name", func_name.to_str()?);
    record.integer(
        "type_index",
        integer(&fields.get(intern!(py, "type_index"))?)?,
    );
    record.integer("step_index", step_index(layer_label, kind)?);
    record.integer(
        "pass_index",
        integer(&fields.get(intern!(py, "pass_index"))?)?,
    );
    record.integer(
        "num_passes",
        integer(&fields.get(intern!(py, "num_passes"))?)?,
    );
    let bytes = write_output(&mut record, &fields, dtypes)?;
    write_structure(&mut record, &fields, kind, children)?;
    write_profile(&mut record, &fields, kind, sites)?;
    record.close();
    Ok(OpFacts {
        kind,
        bytes: bytes.unwrap_or(0),
    })
}

/// Whether `op.annotations` holds what `trace.annotate` wrote (under `user`), which the
/// converter writes; TorchLens's own entries (a buffer's deduplication) are not drawn.
fn user_annotations(annotations: &Bound<'_, PyAny>) -> Written<bool> {
    if !annotations.is_truthy()? {
        return Ok(false);
    }
    let annotations = annotations.cast::<PyDict>().map_err(|_| Delegated)?;
    Ok(annotations
        .get_item(intern!(annotations.py(), "user"))?
        .is_some_and(|user| !user.is_none()))
}

/// The output's shape, dtype and size; returns the size. A 0-d output's value is read from
/// the saved tensor, by the converter.
fn write_output(
    record: &mut Record<'_>,
    fields: &Fields<'_, '_>,
    dtypes: &mut DtypeNames,
) -> Written<Option<i64>> {
    let py = fields.dict.py();
    if let Some(shape) = fields.optional(intern!(py, "shape"))? {
        let dims = sequence(&shape)?;
        if dims.is_empty() {
            return Err(Delegated);
        }
        record.key("shape");
        record.integers(dims.iter().map(integer))?;
    }
    if let Some(dtype) = fields.optional(intern!(py, "dtype"))? {
        record.string("dtype", dtypes.name(&dtype)?);
    }
    let bytes = match fields.optional(intern!(py, "activation_memory"))? {
        Some(memory) => Some(integer(&memory)?),
        None => None,
    };
    if let Some(bytes) = bytes {
        record.integer("bytes", bytes);
    }
    Ok(bytes)
}

/// Where the op sits: its module calls, parameters, arguments and arrows.
fn write_structure(
    record: &mut Record<'_>,
    fields: &Fields<'_, '_>,
    kind: &str,
    children: &Bound<'_, PyAny>,
) -> Written {
    let py = fields.dict.py();
    let modules = fields.get(intern!(py, "modules"))?;
    if modules.is_truthy()? {
        record.key("modules");
        record.strings(sequence(&modules)?.iter().map(text))?;
    }
    if fields.truthy(intern!(py, "is_atomic_module"))? {
        record.key("is_atomic_module");
        record.raw(b"true");
    }
    let output_of = fields.get(intern!(py, "output_of_module_calls"))?;
    if output_of.is_truthy()? {
        record.key("output_of_calls");
        record.strings(sequence(&output_of)?.iter().map(text))?;
    }
    let params = sequence(&fields.get(intern!(py, "params"))?)?;
    if !params.is_empty() {
        let addresses = params
            .iter()
            .map(|param| param.getattr(intern!(py, "address")))
            .collect::<PyResult<Vec<_>>>()?;
        record.key("params");
        record.strings(addresses.iter().map(text))?;
    }
    let config = fields.get(intern!(py, "func_config"))?;
    if config.is_truthy()? {
        let config = config.cast::<PyDict>().map_err(|_| Delegated)?;
        record.key("args");
        record.out.push(b'{');
        for (at, (name, value)) in config.iter().enumerate() {
            if at > 0 {
                record.out.push(b',');
            }
            // A key of another type could meet another's name once made a string.
            write_string(record.out, text(&name)?);
            record.out.push(b':');
            write_arg_value(record.out, &value)?;
        }
        record.out.push(b'}');
    }
    let parents = sequence(&fields.get(intern!(py, "parents"))?)?;
    if !parents.is_empty() {
        record.key("parents");
        record.strings(parents.iter().map(|parent| text(parent).map(Qualified)))?;
    }
    write_arg_slots(record, &fields.get(intern!(py, "parent_arg_positions"))?)?;
    let children = sequence(children)?;
    if !children.is_empty() {
        record.key("children");
        record.strings(children.iter().map(text))?;
    }
    record.key("has_input_ancestor");
    record.raw(if fields.truthy(intern!(py, "has_input_ancestor"))? {
        b"true"
    } else {
        b"false"
    });
    let io_role = fields.get(intern!(py, "io_role"))?;
    if io_role.is_truthy()? {
        record.string("io_role", io_role.str()?.to_str()?);
    }
    if kind == "buffer" {
        let address = fields.get(intern!(py, "address"))?;
        let version = fields.get(intern!(py, "buffer_pass"))?;
        let version = if version.is_truthy()? {
            integer(&version)?
        } else {
            1
        };
        record.key("buffer");
        record.out.extend_from_slice(b"{\"address\":");
        write_string(record.out, text(&address)?);
        record.out.extend_from_slice(b",\"version\":");
        write_integer(record.out, version);
        record.out.push(b'}');
    }
    Ok(())
}

/// Which argument slot each parent filled: `{"args": {position: parent}, "kwargs": {name:
/// parent}}`, a position an index or a path of them.
fn write_arg_slots<'py>(record: &mut Record<'_>, positions: &Bound<'py, PyAny>) -> Written {
    if !positions.is_truthy()? {
        return Ok(());
    }
    let py = positions.py();
    let positions = positions.cast::<PyDict>().map_err(|_| Delegated)?;
    let part = |name: &Bound<'py, PyString>| -> Written<Option<Bound<'py, PyDict>>> {
        match positions.get_item(name)? {
            Some(part) if part.is_truthy()? => {
                Ok(Some(part.cast_into::<PyDict>().map_err(|_| Delegated)?))
            }
            _ => Ok(None),
        }
    };
    let (args, kwargs) = (part(intern!(py, "args"))?, part(intern!(py, "kwargs"))?);
    if args.is_none() && kwargs.is_none() {
        return Ok(());
    }
    record.key("arg_slots");
    record.out.push(b'[');
    let mut first = true;
    for (position, parent) in args.iter().flat_map(|args| args.iter()) {
        let path = match position.cast::<PyTuple>() {
            Ok(path) => path
                .iter()
                .map(|step| integer(&step))
                .collect::<Written<Vec<_>>>()?,
            Err(_) => vec![integer(&position)?],
        };
        slot_start(record.out, &mut first, text(&parent)?);
        record.out.extend_from_slice(b",\"arg\":");
        write_integers(record.out, &path);
        record.out.push(b'}');
    }
    for (name, parent) in kwargs.iter().flat_map(|kwargs| kwargs.iter()) {
        slot_start(record.out, &mut first, text(&parent)?);
        record.out.extend_from_slice(b",\"kwarg\":");
        write_string(record.out, name.str()?.to_str()?);
        record.out.push(b'}');
    }
    record.out.push(b']');
    Ok(())
}

fn slot_start(out: &mut Vec<u8>, first: &mut bool, parent: &str) {
    if !std::mem::take(first) {
        out.push(b',');
    }
    out.extend_from_slice(b"{\"parent\":");
    write_qualified(out, Qualified(parent));
}

/// Time, FLOPs, the call site, what the op saved for backward.
fn write_profile(
    record: &mut Record<'_>,
    fields: &Fields<'_, '_>,
    kind: &str,
    sites: &Bound<'_, PyDict>,
) -> Written {
    let py = fields.dict.py();
    if let Some(duration) = fields.optional(intern!(py, "func_duration"))? {
        if kind == "op" {
            let seconds = number(&duration)?;
            record.key("duration_s");
            write_float(record.out, seconds);
        }
    }
    if let Some(flops) = fields.optional(intern!(py, "flops_forward"))? {
        record.integer("flops", integer(&flops)?);
    }
    let frames = fields.get(intern!(py, "code_context"))?;
    if frames.is_truthy()? {
        let frames = sequence(&frames)?;
        if let Some(frame) = frames.first() {
            // By the frame's identity, as the converter's `_CallSites` keeps them.
            let site = sites.get_item(frame.as_ptr() as usize)?.ok_or(Delegated)?;
            if !site.is_none() {
                record.key("call_sites");
                record.out.push(b'[');
                record
                    .out
                    .extend_from_slice(site.cast::<PyBytes>().map_err(|_| Delegated)?.as_bytes());
                record.out.push(b']');
            }
        }
    }
    let saved = fields.get(intern!(py, "num_autograd_tensors"))?;
    if saved.is_truthy()? {
        record.key("saved_for_backward");
        record.out.extend_from_slice(b"{\"count\":");
        write_integer(record.out, integer(&saved)?);
        if let Some(bytes) = fields.optional(intern!(py, "autograd_memory"))? {
            record.out.extend_from_slice(b",\"bytes\":");
            write_integer(record.out, integer(&bytes)?);
        }
        record.out.push(b'}');
    }
    Ok(())
}

/// An argument value as `tl_export.values._arg_value` writes it, for the kinds it keeps or
/// lists; a dtype, a tensor or any other object is the converter's.
fn write_arg_value(out: &mut Vec<u8>, value: &Bound<'_, PyAny>) -> Written {
    if value.is_none() {
        out.extend_from_slice(b"null");
    } else if let Ok(flag) = value.cast::<PyBool>() {
        out.extend_from_slice(if flag.is_true() { b"true" } else { b"false" });
    } else if value.is_instance_of::<PyInt>() {
        write_integer(out, value.extract::<i64>()?);
    } else if let Ok(string) = value.cast::<PyString>() {
        write_string(out, string.to_str()?);
    } else if let Ok(float) = value.cast::<PyFloat>() {
        let float = float.value();
        if float.is_finite() {
            write_float(out, float);
        } else {
            write_string(out, value.str()?.to_str()?);
        }
    } else if value.is_instance_of::<PyTuple>() || value.is_instance_of::<PyList>() {
        out.push(b'[');
        for (at, item) in value.try_iter()?.enumerate() {
            if at > 0 {
                out.push(b',');
            }
            write_arg_value(out, &item?)?;
        }
        out.push(b']');
    } else {
        return Err(Delegated);
    }
    Ok(())
}

/// The text of a Python `str`; any other type is the converter's.
fn text<'a>(value: &'a Bound<'_, PyAny>) -> Written<&'a str> {
    Ok(value.cast::<PyString>().map_err(|_| Delegated)?.to_str()?)
}

/// `int(value)` of a Python `int` (a bool included, as `int()` takes it); a float or any
/// other type is the converter's.
fn integer(value: &Bound<'_, PyAny>) -> Written<i64> {
    if !value.is_instance_of::<PyInt>() {
        return Err(Delegated);
    }
    Ok(value.extract::<i64>()?)
}

/// `float(value)` of a Python `float` or `int`.
fn number(value: &Bound<'_, PyAny>) -> Written<f64> {
    if let Ok(float) = value.cast::<PyFloat>() {
        return Ok(float.value());
    }
    Ok(integer(value)? as f64)
}

/// The items of a list or tuple (a `torch.Size` is one); any other container is the
/// converter's.
fn sequence<'py>(value: &Bound<'py, PyAny>) -> Written<Vec<Bound<'py, PyAny>>> {
    if let Ok(list) = value.cast::<PyList>() {
        return Ok(list.iter().collect());
    }
    if let Ok(tuple) = value.cast::<PyTuple>() {
        return Ok(tuple.iter().collect());
    }
    Err(Delegated)
}

/// The step number in an op's layer label (`conv2d_3_7` -> 7), 0 for the model's inputs and
/// outputs, as `_step_index` reads it; a label it cannot read is the converter's.
fn step_index(layer_label: &str, kind: &str) -> Written<i64> {
    if kind != "op" {
        return Ok(0);
    }
    let (_, step) = layer_label.rsplit_once('_').ok_or(Delegated)?;
    // Python's `int()` also takes spaces and digit underscores; Rust's parser only plain
    // digits, so anything else is left to the converter.
    if step.is_empty() || !step.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Delegated);
    }
    step.parse().map_err(|_| Delegated)
}
