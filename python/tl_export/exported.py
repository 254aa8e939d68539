"""``torch.export`` programs as traces: an ``ExportedProgram`` (or a saved ``.pt2`` archive)
drawn with the same call as a TorchLens trace.

One operation per ``call_function`` node of the FX graph (its ATen op's name as the type:
``aten.conv2d.default`` is ``conv2d``, labels counted per type as TorchLens counts them),
arrows from the nodes each reads, the user inputs and the returned values as inputs and
outputs, parameters from the graph signature (trainable as each says; buffers, such as a batch
norm's running statistics, are read by their ops but are not parameters),
shapes and dtypes from each node's ``val``, and the module tree from ``nn_module_stack`` (a
call is a stretch of consecutive nodes in a module). A static graph records no run: the
header says where it came from, and no timings, passes or branches are claimed.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from typing import Any

#: The format version written (the same as ``tl_export.convert``'s).
FORMAT_VERSION = 1


def load_program(path: str | os.PathLike[str]) -> Any:
    """The ``ExportedProgram`` saved at ``path`` (``torch.export.save``'s ``.pt2``)."""
    import torch

    return torch.export.load(os.fspath(path))


def export_program(program: Any, name: str | None = None) -> dict[str, Any]:
    """The ``tl-trace`` document of ``program``, named ``name`` (else the exported module's
    class)."""
    return _Converter(program, name).document()


def _class_name(cls: Any) -> str:
    """A class, or its qualified name as the stack records it, as its short name."""
    name = getattr(cls, "__name__", None) or str(cls)
    return name.rsplit(".", 1)[-1].strip("'<>")


def _root_class(program: Any) -> str | None:
    """The exported module's class, from the first node's module stack (its root entry)."""
    for node in program.graph_module.graph.nodes:
        for path, cls in (node.meta.get("nn_module_stack") or {}).values():
            if str(path) == "":
                return _class_name(cls)
    return None


def _op_type(node: Any) -> str:
    """``aten.conv2d.default`` -> ``conv2d``; ``<built-in function getitem>`` -> ``getitem``."""
    target = node.target
    name = getattr(target, "__name__", None) or str(target)
    base = name.split(".")[1] if name.startswith("aten.") and name.count(".") >= 2 else name
    base = base.split(".")[0].lstrip("_").lower()
    return "".join(c for c in base if c.isalnum()) or "op"


def _tensor_facts(node: Any) -> dict[str, Any]:
    """Shape, dtype and bytes of a node's value (its first tensor, for a tuple)."""
    value = node.meta.get("val")
    if isinstance(value, (list, tuple)):
        value = next((v for v in value if hasattr(v, "shape")), None)
    if value is None or not hasattr(value, "shape"):
        return {}
    try:
        shape = [int(d) for d in value.shape]
    except (TypeError, ValueError, RuntimeError):  # a symbolic dimension: no shape to show
        return {"dtype": str(value.dtype).replace("torch.", "")}
    dtype = str(value.dtype).replace("torch.", "")
    size = value.element_size() if hasattr(value, "element_size") else 0
    return {"shape": shape, "dtype": dtype, "bytes": math.prod(shape) * size}


def _subgraphs(node: Any) -> Iterator[tuple[Any, list[Any]]]:
    """The graph modules a higher-order op runs (``get_attr`` arguments: ``torch.cond``'s
    branches, ``while_loop``'s condition and body), each with the operands its placeholders
    receive, in order."""
    import torch.fx

    attributes = [a for a in node.args if isinstance(a, torch.fx.Node) and a.op == "get_attr"]
    if not attributes:
        return
    operands: list[Any] = []
    for arg in node.args[node.args.index(attributes[-1]) + 1 :]:
        if isinstance(arg, (list, tuple)):
            operands += [a for a in arg if isinstance(a, torch.fx.Node)]
        elif isinstance(arg, torch.fx.Node):
            operands.append(arg)
    for attribute in attributes:
        yield attribute, operands


def _fx_inputs(node: Any) -> Iterator[tuple[list[int] | None, str | None, Any]]:
    """The FX nodes ``node`` reads, with their argument position or keyword."""
    import torch.fx

    def walk(value: Any, path: list[int]) -> Iterator[tuple[list[int], Any]]:
        if isinstance(value, torch.fx.Node):
            yield path, value
        elif isinstance(value, (list, tuple)):
            for k, item in enumerate(value):
                yield from walk(item, [*path, k])

    for position, arg in enumerate(node.args):
        for path, found in walk(arg, [position]):
            yield path, None, found
    for key, arg in node.kwargs.items():
        for _, found in walk(arg, []):
            yield None, str(key), found


class _Converter:
    def __init__(self, program: Any, name: str | None) -> None:
        self.program = program
        self.name = name or _root_class(program) or "ExportedProgram"
        self.graph = program.graph_module.graph
        self.ops: list[dict[str, Any]] = []
        self.label_of: dict[Any, str] = {}
        self.counts: dict[str, int] = {}
        self.step = 0
        self.modules: dict[str, dict[str, Any]] = {}
        self.calls: list[dict[str, Any]] = []
        self.params: list[dict[str, Any]] = []
        self.param_of: dict[str, str] = {}
        self.param_at: dict[int, str] = {}
        self.by_label: dict[str, dict[str, Any]] = {}
        self.by_call: dict[str, dict[str, Any]] = {}

    def document(self) -> dict[str, Any]:
        import torch

        self._signature()
        open_calls: list[tuple[str, str]] = []
        user_inputs = self._user_inputs()
        for node in self.graph.nodes:
            if node.op == "placeholder" and node.name in user_inputs:
                self._input(node, user_inputs[node.name])
            elif node.op == "call_function":
                open_calls = self._call(node, open_calls)
            elif node.op == "output":
                self._outputs(node)
        self._children_and_outputs()
        ops = [op for op in self.ops if op["kind"] == "op"]
        root = self.modules.get("self") or self._module("self", self.name, None)
        root["num_calls"] = 1
        trainable = sum(p["numel"] for p in self.params if p["trainable"])
        frozen = sum(p["numel"] for p in self.params if not p["trainable"])
        return {
            "format": "tl-trace",
            "version": FORMAT_VERSION,
            "model": {
                "class_name": self.name,
                "source": f"torch.export (torch {torch.__version__}): a saved graph, no run recorded",
            },
            "summary": {
                "num_ops": len(ops),
                "num_tensors": len(self.ops),
                "total_output_bytes": sum(op.get("bytes", 0) for op in self.ops if op["kind"] != "output"),
                "num_params": trainable + frozen,
                "num_params_trainable": trainable,
                "num_params_frozen": frozen,
                "total_param_bytes": sum(p["bytes"] for p in self.params),
            },
            "params": self.params,
            "modules": list(self.modules.values()),
            "module_calls": self.calls,
            "ops": self.ops,
        }

    # -- the graph signature: which placeholders are parameters, buffers or user inputs

    def _signature(self) -> None:
        state = self.program.state_dict
        for spec in self.program.graph_signature.input_specs:
            kind = spec.kind.name
            # Buffers (a batch norm's running statistics) are read by their ops but are not
            # parameters: TorchLens counts only parameters.
            if kind != "PARAMETER" or spec.target is None:
                continue
            tensor = state.get(spec.target)
            if tensor is None:
                tensor = self.program.constants.get(spec.target)
            if tensor is None:
                continue
            # A weight tied to another (GPT-2's head and token embedding) is one parameter.
            if tensor.data_ptr() in self.param_at:
                self.param_of[spec.arg.name] = self.param_at[tensor.data_ptr()]
                continue
            self.param_at[tensor.data_ptr()] = spec.target
            module, _, leaf = spec.target.rpartition(".")
            shape = [int(d) for d in tensor.shape]
            numel = math.prod(shape)
            self.params.append(
                {
                    "address": spec.target,
                    "name": leaf,
                    "module": module or "self",
                    "shape": shape,
                    "dtype": str(tensor.dtype).replace("torch.", ""),
                    "trainable": bool(getattr(tensor, "requires_grad", True)),
                    "numel": numel,
                    "bytes": numel * tensor.element_size(),
                }
            )
            self.param_of[spec.arg.name] = spec.target

    def _user_inputs(self) -> dict[str, str]:
        names: dict[str, str] = {}
        for spec in self.program.graph_signature.input_specs:
            if spec.kind.name == "USER_INPUT" and hasattr(spec.arg, "name"):
                names[spec.arg.name] = spec.arg.name
        return names

    # -- records

    def _record(self, kind: str, layer_type: str) -> dict[str, Any]:
        self.counts[layer_type] = self.counts.get(layer_type, 0) + 1
        index = self.counts[layer_type]
        if kind == "op":
            self.step += 1
            layer_label = f"{layer_type}_{index}_{self.step}"
        else:
            layer_label = f"{layer_type}_{index}"
        return {
            "label": f"{layer_label}:1",
            "layer_label": layer_label,
            "kind": kind,
            "layer_type": layer_type,
            "func_name": layer_type if kind == "op" else "none",
            "type_index": index,
            "step_index": self.step if kind == "op" else 0,
            "pass_index": 1,
            "num_passes": 1,
            "children": [],
            "has_input_ancestor": True,
        }

    def _input(self, node: Any, name: str) -> None:
        record = self._record("input", "input")
        record["io_role"] = f"input.{name}"
        record.update(_tensor_facts(node))
        self._push(record, node)

    def _push(self, record: dict[str, Any], node: Any) -> None:
        self.ops.append(record)
        self.by_label[record["label"]] = record
        self.label_of[node] = record["label"]

    def _module(self, address: str, class_name: str, parent: str | None) -> dict[str, Any]:
        if address not in self.modules:
            record: dict[str, Any] = {
                "address": address,
                "class_name": class_name,
                "depth": 0 if parent is None else self.modules[parent]["depth"] + 1,
                "children": [],
                "num_calls": 0,
                "num_params": 0,
                "num_params_trainable": 0,
                "num_params_frozen": 0,
            }
            if parent is not None:
                record["parent"] = parent
                self.modules[parent]["children"].append(address)
            self.modules[address] = record
        return self.modules[address]

    def _scopes(self, node: Any) -> list[tuple[str, str]]:
        """``(address, class)`` of the modules a node ran in, outermost first."""
        stack = node.meta.get("nn_module_stack") or {}
        scopes: list[tuple[str, str]] = []
        for path, cls in stack.values():
            address = str(path)
            if not address or (scopes and scopes[-1][0] == address):
                continue
            scopes.append((address, _class_name(cls)))
        return scopes

    def _call(
        self,
        node: Any,
        open_calls: list[tuple[str, str]],
        frames: tuple[tuple[str, str], ...] = (),
        env: dict[Any, Any] | None = None,
    ) -> list[tuple[str, str]]:
        """Records ``node`` in the calls of its modules (inside ``frames``, for a subgraph's
        node, whose placeholders ``env`` maps to what the outer graph passed); a node running
        subgraphs (``torch.cond``'s branches, ``while_loop``'s functions) records them first,
        each in a frame of its own, and reads their results."""
        self._module("self", self.name, None)
        scopes = [*frames, *self._scopes(node)]
        results: list[str] = []
        for attribute, operands in _subgraphs(node):
            graph_module = getattr(self.program.graph_module, attribute.target, None)
            if graph_module is None:
                continue
            frame = (
                f"{scopes[-1][0]}.{node.name}.{attribute.target}" if scopes else f"{node.name}.{attribute.target}",
                f"{_op_type(node)} {attribute.target}",
            )
            placeholders = [n for n in graph_module.graph.nodes if n.op == "placeholder"]
            inner_env = {
                inner: (env or {}).get(outer, outer) for inner, outer in zip(placeholders, operands, strict=False)
            }
            for inner in graph_module.graph.nodes:
                if inner.op == "call_function":
                    open_calls = self._call(inner, open_calls, (*scopes, frame), inner_env)
                elif inner.op == "output":
                    returned = inner.args[0] if isinstance(inner.args[0], (list, tuple)) else (inner.args[0],)
                    results += [self.label_of[r] for r in returned if r in self.label_of]
        open_calls = self._open(scopes, open_calls)
        record = self._record("op", _op_type(node))
        record["func_name"] = str(node.target)
        record.update(_tensor_facts(node))
        record["modules"] = [label for _, label in open_calls]
        parents: list[str] = []
        slots: list[dict[str, Any]] = []
        params: list[str] = []
        for path, key, found in _fx_inputs(node):
            source = (env or {}).get(found, found)
            if source.op == "placeholder" and source.name in self.param_of:
                # A higher-order op hands parameters on to its subgraphs, where they are used.
                if not results and self.param_of[source.name] not in params:
                    params.append(self.param_of[source.name])
                continue
            producer = self.label_of.get(source)
            if producer is None:
                continue
            if producer not in parents:
                parents.append(producer)
            slots.append({"parent": producer, "arg": path} if key is None else {"parent": producer, "kwarg": key})
        parents += [result for result in results if result not in parents]
        record["parents"] = parents
        record["arg_slots"] = slots
        if params:
            record["params"] = params
        record["has_input_ancestor"] = any(self.by_label[p]["has_input_ancestor"] for p in parents)
        self._push(record, node)
        for _, label in open_calls:
            self.by_call[label]["ops"].append(record["label"])
        return open_calls

    def _open(self, scopes: list[tuple[str, str]], open_calls: list[tuple[str, str]]) -> list[tuple[str, str]]:
        """The calls open around a node in ``scopes``: those already open that it shares, then
        a new call of each module it enters."""
        shared = 0
        while shared < min(len(open_calls), len(scopes)) and open_calls[shared][0] == scopes[shared][0]:
            shared += 1
        open_calls = open_calls[:shared]
        for address, class_name in scopes[shared:]:
            parent = open_calls[-1][0] if open_calls else "self"
            module = self._module(address, class_name, parent)
            module["num_calls"] += 1
            label = f"{address}:{module['num_calls']}"
            call: dict[str, Any] = {
                "label": label,
                "address": address,
                "call_index": module["num_calls"],
                "ops": [],
                "output_ops": [],
            }
            if open_calls:
                call["parent_call"] = open_calls[-1][1]
            self.calls.append(call)
            self.by_call[label] = call
            open_calls = [*open_calls, (address, label)]
        return open_calls

    def _outputs(self, node: Any) -> None:
        results = node.args[0] if node.args else ()
        results = results if isinstance(results, (list, tuple)) else (results,)
        returned = [r for r in results if r is not None and r in self.label_of]
        for position, result in enumerate(returned):
            record = self._record("output", "output")
            record["io_role"] = "output" if len(returned) == 1 else f"output.{position}"
            record["parents"] = [self.label_of[result]]
            record["arg_slots"] = [{"parent": self.label_of[result], "arg": [0]}]
            record.update(_tensor_facts(result))
            self.ops.append(record)

    def _children_and_outputs(self) -> None:
        """Children lists, each call's outputs, parameter counts of every module, and the
        one op a leaf module's call ran as that module's whole work."""
        by_label = {op["label"]: op for op in self.ops}
        for op in self.ops:
            for parent in op.get("parents", []):
                by_label[parent]["children"].append(op["label"])
        for op in self.ops:
            if not op["children"]:
                del op["children"]
        for call in self.calls:
            inside = set(call["ops"])
            for label in call["ops"]:
                if any(child not in inside for child in by_label[label].get("children", [])):
                    call["output_ops"].append(label)
                    by_label[label].setdefault("output_of_calls", []).append(call["label"])
            if not self.modules[call["address"]]["children"] and len(call["ops"]) == 1:
                by_label[call["ops"][0]]["is_atomic_module"] = True
        # A parameter of a module no node ran in (a weight tied to another module's) is
        # counted by its nearest module that ran, so every parameter names a module.
        for param in self.params:
            module = param["module"]
            while module not in self.modules and module != "self":
                module = module.rpartition(".")[0] or "self"
            param["module"] = module
        for param in self.params:
            module = param["module"]
            while module in self.modules:
                record = self.modules[module]
                record["num_params"] += param["numel"]
                record["num_params_trainable" if param["trainable"] else "num_params_frozen"] += param["numel"]
                module = record.get("parent")
                if module is None:
                    break
