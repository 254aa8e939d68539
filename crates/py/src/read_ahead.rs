//! One column of TorchLens's row store copied into the ops' field dicts, for
//! `tl_export.row_store`: the Python loop over every cell (a real model's ops have tens of
//! thousands) was half of reading the store ahead once TorchLens had made its cells values.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

/// For each op `i`, `records[i][name] = cells[i]`, skipping cells that are `missing`; a cell
/// of class `marked_class`, or that is `marked_value`, is a marker TorchLens makes its value
/// on first read, and becomes `resolve(rows[i], cell)` (which also keeps it in the store, as
/// the field's descriptor does). With `fid`, `cells[i]` is op `i`'s row of a store by rows
/// and its cell is `cells[i][fid]`. The same as the Python loop it replaces, cell for cell.
#[pyfunction]
#[pyo3(signature = (records, rows, cells, name, missing, marked_class, marked_value, resolve, fid=None))]
#[allow(clippy::too_many_arguments)] // one per part of the Python loop it replaces
pub fn fill_column(
    records: &Bound<'_, PyList>,
    rows: &Bound<'_, PyList>,
    cells: &Bound<'_, PyList>,
    name: &Bound<'_, PyString>,
    missing: &Bound<'_, PyAny>,
    marked_class: Option<&Bound<'_, PyAny>>,
    marked_value: Option<&Bound<'_, PyAny>>,
    resolve: &Bound<'_, PyAny>,
    fid: Option<usize>,
) -> PyResult<()> {
    if records.len() != cells.len() || rows.len() != cells.len() {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "fill_column: records, rows and cells differ in length",
        ));
    }
    let marked_class = marked_class.map(Bound::as_ptr);
    let marked_value = marked_value.map(Bound::as_ptr);
    for (at, cell) in cells.iter().enumerate() {
        let cell = match fid {
            Some(fid) => cell.get_item(fid)?,
            None => cell,
        };
        if cell.is(missing) {
            continue;
        }
        let marked = marked_class.is_some_and(|class| cell.get_type().as_ptr() == class)
            || marked_value.is_some_and(|value| cell.as_ptr() == value);
        let value = if marked {
            resolve.call1((rows.get_item(at)?, cell))?
        } else {
            cell
        };
        records
            .get_item(at)?
            .cast::<PyDict>()?
            .set_item(name, value)?;
    }
    Ok(())
}
