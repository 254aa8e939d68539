"""Reading many fields of many TorchLens ops at once, from the row store behind them, and
the trace's parameters as stored.

The one place the adapter reads TorchLens 2.36's private internals (``torchlens._trace_core``,
the ``Op`` field descriptors and properties, the parameter accessor's list): a plain
attribute read costs about 2 us, and a real model's conversion takes tens of thousands.
What it reads is exactly what the attributes return (tested field by field); with other
internals it steps aside and the converter reads attribute by attribute."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any, Literal

#: The op fields ``_export_op`` reads, prefetched column by column when TorchLens stores them
#: in its row store (see ``_prefetched_ops``). ``type`` is what ``layer_type`` returns and
#: ``_param_logs`` what ``params`` is made of (see ``_PROPERTIES``).
_OP_FIELDS = (
    "label",
    "layer_label",
    "type",
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
    "_param_logs",
)

#: ``Op`` properties made from one stored field (the last name), by the names their code
#: reads: read ahead when TorchLens's property reads exactly these, else the op's own is used.
_PROPERTIES = {
    # layer_type: ``cast(str, self.type)``
    "layer_type": ("cast", "str", "type"),
    # params: ``ParamAccessor({p.address: p for p in self._param_logs})``
    "params": ("param", "ParamAccessor", "_param_logs"),
}


class _Prefetched:
    """An op's stored fields, read ahead; any other attribute is the op's own."""

    def __init__(self, op: Any, fields: dict[str, Any]) -> None:
        self.__dict__.update(fields)
        self._op = op

    def __getattr__(self, name: str) -> Any:
        return getattr(self._op, name)


#: How a field descriptor reads its cell: ``plain`` (a pooled container hydrated), ``fact``
#: (a shared-fact sentinel hydrated) or ``dataflow`` (an edge-table sentinel materialized).
_Kind = Literal["plain", "fact", "dataflow"]


def _field_kinds(op_type: type) -> dict[str, _Kind] | None:
    """Which of ``_OP_FIELDS`` TorchLens 2.36's ``Op`` keeps as row-store cells (read by one
    of its field descriptors, not intercepted by ``Op.__getattribute__``), and how each is
    read; ``None`` when its internals are not the ones this reads."""
    try:
        from torchlens.data_classes import op as op_module

        getters: dict[Any, _Kind] = {
            op_module._OpField.__get__: "plain",
            op_module._FactField.__get__: "fact",
            op_module._DataflowField.__get__: "dataflow",
        }
        intercepted = op_module._INTERCEPTED_READ_FIELDS
    except (ImportError, AttributeError):
        return None
    kinds: dict[str, _Kind] = {}
    for name in _OP_FIELDS:
        descriptor = inspect.getattr_static(op_type, name, None)
        kind = getters.get(getattr(type(descriptor), "__get__", None))
        if name not in intercepted and kind is not None:
            kinds[name] = kind
    return kinds


def _properties(op_type: type, kinds: dict[str, _Kind]) -> list[str]:
    """Which of ``_PROPERTIES`` are TorchLens's property of the expected code, their field read."""
    found = []
    for name, code_names in _PROPERTIES.items():
        prop = inspect.getattr_static(op_type, name, None)
        code = getattr(getattr(prop, "fget", None), "__code__", None)
        if isinstance(prop, property) and code is not None and code.co_names == code_names:
            if code_names[-1] in kinds:
                found.append(name)
    return found


def _with_properties(fields: dict[str, Any], properties: list[str]) -> dict[str, Any]:
    """``fields`` with the values of ``properties`` made as TorchLens's properties make them."""
    if "layer_type" in properties and "type" in fields:
        fields["layer_type"] = fields["type"]
    if "params" in properties and "_param_logs" in fields:
        # The accessor's items in its order: one per address, the last of each.
        fields["params"] = list({p.address: p for p in fields["_param_logs"]}.values())
    return fields


def _prefetched_ops(ops: Sequence[Any], fill_column: Any = None) -> list[Any]:
    """``ops`` with their stored fields read ahead from TorchLens's row store: a read through
    ``Op.__getattribute__``, the field descriptor and the store costs about 2 us, and a
    GPT-2 small trace takes 25,000 of them (a third of its conversion). A store by columns
    (TorchLens's for 512 ops or more) is read a column at a time, one by rows a row's list
    at a time. Reads exactly what the descriptor returns (an unset cell stays unset: the op
    raises as before, a hydrated value is kept in the row as the descriptor keeps it); with
    other internals, the ops as they are. ``fill_column`` (``tl_draw._native.fill_column``)
    copies a column's cells into the ops' fields in Rust, as ``_fill_column`` does.
    ``tests/test_export.py`` checks every field of real traces against a plain read."""
    if not ops:
        return list(ops)
    op_type = type(ops[0])
    kinds = _field_kinds(op_type)
    if not kinds:
        return list(ops)
    try:
        from torchlens._trace_core.op_store import OpRowStore
        from torchlens.data_classes import op as op_module

        internals: Any = op_module  # private names, not in its typed surface
        core_of, row_of = internals._CORE_GET, internals._ROW_GET
        columns = [(name, internals.Op.__dict__[name]._fid, kind) for name, kind in kinds.items()]
        sentinels = _Sentinels(internals._MISSING, internals.PooledCell, internals._FACT, internals._CSR)
        materialize = internals.materialize_dataflow_view
    except (ImportError, AttributeError, KeyError):
        return list(ops)
    try:
        fields = _read_ahead(ops, op_type, columns, core_of, row_of, sentinels, materialize, OpRowStore, fill_column)
    except (AttributeError, IndexError, KeyError, TypeError):
        return list(ops)  # a store of another shape: read attribute by attribute
    properties = _properties(op_type, kinds)
    return [
        _Prefetched(op, _with_properties(values, properties)) if type(op) is op_type else op
        for op, values in zip(ops, fields, strict=True)
    ]


def stored_params(trace: Any) -> Sequence[Any]:
    """``trace.params`` as stored: iterating the accessor first looks each parameter up in
    the live model again (``model.get_parameter``, a third of exporting the parameters),
    which the fields the converter reads (address, shape, sizes) do not depend on."""
    accessor = trace.params
    stored = getattr(accessor, "_list", None)
    return stored if isinstance(stored, list) else list(accessor)


class _Sentinels:
    """TorchLens's cell markers: unset, a pooled container, a shared fact, an edge-table view."""

    def __init__(self, missing: Any, pooled: Any, fact: Any, csr: Any) -> None:
        self.missing, self.pooled, self.fact, self.csr = missing, pooled, fact, csr


def _read_ahead(
    ops: Sequence[Any],
    op_type: type,
    columns: list[tuple[str, int, _Kind]],
    core_of: Any,
    row_of: Any,
    sentinels: _Sentinels,
    materialize: Any,
    frozen_type: Any,
    fill_column: Any = None,
) -> list[dict[str, Any]]:
    """Per op, its cells of ``columns`` (field name, column id, kind) that are set."""
    fields: list[dict[str, Any]] = [{} for _ in ops]
    missing, pooled, fact, csr = sentinels.missing, sentinels.pooled, sentinels.fact, sentinels.csr
    # Ops of one store, read together (a trace has one; an op of another type is read as is).
    by_store: dict[int, tuple[Any, list[tuple[int, int]]]] = {}
    for at, op in enumerate(ops):
        if type(op) is op_type:
            store = core_of(op)
            by_store.setdefault(id(store), (store, []))[1].append((at, row_of(op)))
    for store, placed in by_store.values():
        rows = [row for _, row in placed]
        records = [fields[at] for at, _ in placed]
        # OpRowStore.cell_get read in bulk, where the store's class reads cells as it does.
        own_reads = type(store).cell_get is frozen_type.cell_get
        table = store._rows if own_reads else None
        frozen = type(store) is frozen_type and table is None and store._columns is not None
        cells_of = _frozen_cells(store, rows, [fid for _, fid, _ in columns], missing) if frozen else None
        # A row-major store handed over a row per op (each row's cells in a list).
        row_lists = [table[row] for row in rows] if table is not None else None
        fill = fill_column or _fill_column
        for name, fid, kind in columns:
            if row_lists is not None:
                cells, cell_at = row_lists, fid
            elif cells_of is not None:
                cells, cell_at = cells_of(fid), None
            else:
                cells, cell_at = [store.cell_get(row, fid) for row in rows], None
            # As the field's descriptor does: a marked cell becomes its value, kept in the row.
            marked_class = pooled if kind == "plain" else None
            marked_value = fact if kind == "fact" else csr if kind == "dataflow" else None
            resolve = _resolver(kind, store, fid, name, materialize)
            fill(records, rows, cells, name, missing, marked_class, marked_value, resolve, cell_at)
    return fields


def _fill_column(
    records: list[dict[str, Any]],
    rows: list[int],
    cells: list[Any],
    name: str,
    missing: Any,
    marked_class: Any,
    marked_value: Any,
    resolve: Any,
    fid: int | None = None,
) -> None:
    """``tl_draw._native.fill_column`` in Python, for ``tl_export`` on its own: each op's
    cell (``cells[i]``, or ``cells[i][fid]`` of a row) set in its fields unless ``missing``,
    a marker (of ``marked_class``, or ``marked_value`` itself) made its value by ``resolve``."""
    for record, row, cell in zip(records, rows, cells, strict=True):
        value = cell if fid is None else cell[fid]
        if value is missing:
            continue
        if value.__class__ is marked_class or (marked_value is not None and value is marked_value):
            value = resolve(row, value)
        record[name] = value


def _resolver(kind: _Kind, store: Any, fid: int, name: str, materialize: Any) -> Any:
    """``resolve(row, marker)``: a marked cell made its value and kept in the store, as the
    field's descriptor does."""

    def resolve(row: int, marker: Any) -> Any:
        if kind == "plain":
            value = marker.hydrate()
        elif kind == "fact":
            value = store.fact_blocks.hydrate(row, name)
        else:
            value = materialize(store, row, name)
        store.cell_set(row, fid, value)
        return value

    return resolve


def _frozen_cells(store: Any, rows: list[int], fids: list[int], missing: Any) -> Any:
    """``OpRowStore.cell_get`` of a frozen store, a column at a time: the overlay (its
    entries for ``fids``, gathered once), else the column's value where it is present."""
    width = store.layout.n_fields
    wanted = set(fids)
    position = {row: at for at, row in enumerate(rows)}
    overlaid: dict[int, list[tuple[int, Any]]] = {}
    for key, value in store._overlay.items() if store._overlay else ():
        row, fid = divmod(key, width)
        at = position.get(row)
        if fid in wanted and at is not None:
            overlaid.setdefault(fid, []).append((at, value))
    first = rows[0] if rows else 0
    contiguous = rows == list(range(first, first + len(rows)))

    def cells(fid: int) -> list[Any]:
        column = store._columns[fid]
        values = column.values.tolist() if column.packed else column.values
        read = values[first : first + len(rows)] if contiguous else [values[row] for row in rows]
        present = column.present
        if present is not None:
            read = [value if present[row] else missing for value, row in zip(read, rows, strict=True)]
        for at, value in overlaid.get(fid, ()):
            read[at] = value
        return read

    return cells
