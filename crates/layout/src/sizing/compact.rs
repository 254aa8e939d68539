//! Gives back the room graphviz-pure's measured node geometries hold beyond their contents.
//!
//! Every node's geometry is kept from sizing until the writers take it, so on a large
//! drawing they are the biggest thing alive while the nodes are placed and while the SVG is
//! written. graphviz-pure's HTML parser builds them by pushing onto
//! empty vectors, which start at four elements: a cell's one line of text keeps room for
//! four text items of about 180 bytes each, and a five-row table room for eight cells of
//! about 300 bytes. Shrinking each vector to its length changes no value, only capacity,
//! and halves what a node's parsed label costs (docs/performance.md, "The layered engine").
//!
//! Invariant: [`compact`] leaves a geometry equal (`==`) to what it was.

use graphviz_pure_geom::html_label::{HtmlContent, HtmlLabel, HtmlTbl, HtmlText};
use graphviz_pure_geom::node_size::{LabelGeometry, NodeGeometry};

/// Shrinks the vectors of `geometry`'s parsed HTML labels and outline to their lengths.
pub(super) fn compact(geometry: &mut NodeGeometry) {
    compact_label(&mut geometry.label);
    if let Some(xlabel) = &mut geometry.xlabel {
        compact_label(xlabel);
    }
    if let Some(polygon) = &mut geometry.polygon {
        polygon.vertices.shrink_to_fit();
    }
}

/// Shrinks the vectors of `label`'s parsed HTML label to their lengths.
pub(super) fn compact_label(label: &mut LabelGeometry) {
    match label.html_label.as_deref_mut() {
        Some(HtmlLabel::Text(text)) => compact_text(text),
        Some(HtmlLabel::Table(table)) => compact_table(table),
        None => {}
    }
}

fn compact_table(table: &mut HtmlTbl) {
    for cell in &mut table.cells {
        match &mut cell.child {
            HtmlContent::Text(text) => compact_text(text),
            HtmlContent::Table(inner) => compact_table(inner),
            HtmlContent::Image(_) => {}
        }
    }
    table.cells.shrink_to_fit();
    table.widths.shrink_to_fit();
    table.heights.shrink_to_fit();
}

fn compact_text(text: &mut HtmlText) {
    for line in &mut text.spans {
        line.items.shrink_to_fit();
    }
    text.spans.shrink_to_fit();
}

#[cfg(test)]
mod tests {
    use super::*;
    use graphviz_pure_geom::node_size::{node_geometry, NodeSizeEnv};

    /// A TorchLens-style node (a table of one bold line and three plain ones) measures the
    /// same after compaction, and its vectors hold no spare room.
    #[test]
    fn compaction_changes_no_value_and_leaves_no_spare_room() {
        let dot = r#"digraph { n [shape=box label=<<TABLE BORDER="0" CELLSPACING="0"><TR><TD><B>linear_1_1</B></TD></TR><TR><TD>(8, 64), 2.0 KB</TD></TR><TR><TD>params: weight (64, 64)</TD></TR><TR><TD>@lm_head</TD></TR></TABLE>> xlabel="x"] }"#;
        let graph = crate::engine::parsed_afresh(dot.into()).expect("parses");
        let env = NodeSizeEnv::from_graph(&graph);
        let mut geometry = node_geometry(&graph.nodes[0], &env).expect("sizes");
        let cell_items = |geometry: &NodeGeometry| {
            let Some(HtmlLabel::Table(table)) = geometry.label.html_label.as_deref() else {
                panic!("the label is a table");
            };
            assert_eq!(table.cells.len(), 4);
            let HtmlContent::Text(text) = &table.cells[0].child else {
                panic!("each cell holds text");
            };
            (text.spans[0].items.len(), text.spans[0].items.capacity())
        };
        let (items, room) = cell_items(&geometry);
        assert!(
            room > items,
            "graphviz-pure's parser leaves spare room (else this module has nothing to do)"
        );
        // A clone holds the same values (its vectors allocated to their lengths).
        let measured = geometry.clone();
        compact(&mut geometry);
        assert_eq!(geometry, measured);
        let Some(HtmlLabel::Table(table)) = geometry.label.html_label.as_deref() else {
            panic!("the label is a table");
        };
        assert_eq!(table.cells.capacity(), table.cells.len());
        for cell in &table.cells {
            let HtmlContent::Text(text) = &cell.child else {
                panic!("each cell holds text");
            };
            assert_eq!(text.spans.capacity(), text.spans.len());
            for line in &text.spans {
                assert_eq!(line.items.capacity(), line.items.len());
            }
        }
    }
}
