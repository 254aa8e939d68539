"""Reading many fields of many TorchLens ops at once, from the row store behind them.

The one place the adapter reads TorchLens 2.36's private internals (``torchlens._trace_core``
and the ``Op`` field descriptors): a plain attribute read costs about 2 us, and a real
model's conversion takes tens of thousands. What it reads is exactly what the attributes
return (tested field by field); with other internals it steps aside and the converter
reads attribute by attribute."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: The op fields ``_export_op`` reads, prefetched column by column when TorchLens stores them
#: plainly (see ``_prefetched_ops``).
_OP_FIELDS = (
    "label",
    "layer_label",
    "layer_type",
    "func_name",
    "type_index",
    "pass_index",
    "num_passes",
    "shape",
    "dtype",
    "activation_memory",
    "modules",
    "is_atomic_module",
    "output_of_module_calls",
    "func_config",
    "parents",
    "parent_arg_positions",
    "has_input_ancestor",
    "io_role",
    "address",
    "buffer_pass",
    "is_terminal_bool",
    "bool_value",
    "conditional_context_kind",
    "terminal_conditional_id",
    "conditional_arm_children",
    "func_duration",
    "flops_forward",
    "code_context",
    "num_autograd_tensors",
    "autograd_memory",
    "has_grad",
    "annotations",
    "visualizer_path",
    "interventions",
    "is_input",
    "is_output",
    "is_buffer",
)


class _Prefetched:
    """An op's plainly stored fields, read ahead; any other attribute is the op's own."""

    def __init__(self, op: Any, fields: dict[str, Any]) -> None:
        self.__dict__.update(fields)
        self._op = op

    def __getattr__(self, name: str) -> Any:
        return getattr(self._op, name)


def _plain_fields(op_type: type) -> list[str] | None:
    """Which of ``_OP_FIELDS`` TorchLens 2.36's ``Op`` keeps as plain row-store cells (read
    by ``_OpField.__get__``, not intercepted by ``Op.__getattribute__``), or ``None`` when
    its internals are not the ones this reads."""
    try:
        from torchlens.data_classes import op as op_module

        field_type = op_module._OpField
        intercepted = op_module._INTERCEPTED_READ_FIELDS
    except (ImportError, AttributeError):
        return None
    plain = []
    for name in _OP_FIELDS:
        descriptor: Any = next((vars(c)[name] for c in op_type.__mro__ if name in vars(c)), None)
        if name not in intercepted and type(descriptor).__get__ is field_type.__get__:
            plain.append(name)
    return plain


def _prefetched_ops(ops: Sequence[Any]) -> list[Any]:
    """``ops`` with their plainly stored fields read ahead from TorchLens's row store: a read
    through ``Op.__getattribute__``, the field descriptor and the store costs about 2 us, and
    a GPT-2 small trace takes 25,000 of them (a third of its conversion). A frozen store is
    read a column at a time. Reads exactly what the descriptor returns (an unset cell stays
    unset: the op raises as before); with other internals, the ops as they are.
    ``tests/test_export.py`` checks every field of real traces against a plain read."""
    if not ops:
        return list(ops)
    op_type = type(ops[0])
    plain = _plain_fields(op_type)
    if not plain:
        return list(ops)
    try:
        from torchlens._trace_core.op_store import OpRowStore
        from torchlens.data_classes import op as op_module

        core_of, row_of = op_module._CORE_GET, op_module._ROW_GET
        missing, pooled = op_module._MISSING, op_module.PooledCell  # type: ignore[attr-defined]
        columns = [(name, op_module.Op.__dict__[name]._fid) for name in plain]
    except (ImportError, AttributeError, KeyError):
        return list(ops)
    try:
        fields = _read_ahead(ops, op_type, columns, core_of, row_of, missing, pooled, OpRowStore)
    except (AttributeError, IndexError, KeyError, TypeError):
        return list(ops)  # a store of another shape: read attribute by attribute
    return [_Prefetched(op, values) if type(op) is op_type else op for op, values in zip(ops, fields, strict=True)]


def _read_ahead(
    ops: Sequence[Any],
    op_type: type,
    columns: list[tuple[str, int]],
    core_of: Any,
    row_of: Any,
    missing: Any,
    pooled: Any,
    frozen_type: Any,
) -> list[dict[str, Any]]:
    """Per op, its cells of ``columns`` (field name, column id) that are set."""
    fields: list[dict[str, Any]] = [{} for _ in ops]
    # Ops of one store, read together (a trace has one; an op of another type is read as is).
    by_store: dict[int, tuple[Any, list[tuple[int, int]]]] = {}
    value: Any
    for at, op in enumerate(ops):
        if type(op) is op_type:
            store = core_of(op)
            by_store.setdefault(id(store), (store, []))[1].append((at, row_of(op)))
    for store, rows in by_store.values():
        frozen = type(store) is frozen_type and store._rows is None and store._columns is not None
        for name, fid in columns:
            if frozen:
                # OpRowStore.cell_get of a frozen store: the overlay, else the column.
                column = store._columns[fid]
                values = column.values.tolist() if column.packed else column.values
                present, overlay, width = column.present, store._overlay, store.layout.n_fields
                cells = [
                    overlay.get(row * width + fid, values[row] if present is None or present[row] else missing)
                    if overlay
                    else (values[row] if present is None or present[row] else missing)
                    for _, row in rows
                ]
            else:
                cells = [store.cell_get(row, fid) for _, row in rows]
            for (at, row), value in zip(rows, cells, strict=True):
                if value is missing:
                    continue
                if value.__class__ is pooled:
                    value = value.hydrate()
                    store.cell_set(row, fid, value)  # as the descriptor does: one container per row
                fields[at][name] = value
    return fields
