//! The key: which fills, shapes and marks a drawing uses.

use super::*;

/// The fills, shapes and marks a drawing uses, for its key.
#[derive(Default)]
pub(super) struct Used {
    pub(super) roles: Vec<Role>,
    pub(super) ovals: bool,
    pub(super) rectangles: bool,
    pub(super) double_borders: bool,
    pub(super) cylinders: bool,
    pub(super) boxes: bool,
    pub(super) capsules: bool,
    pub(super) folds: bool,
    pub(super) input_stubs: bool,
    pub(super) output_stubs: bool,
    pub(super) dashed: bool,
}

impl Used {
    pub(super) fn role(&mut self, role: Role) {
        if !self.roles.contains(&role) {
            self.roles.push(role);
        }
    }

    pub(super) fn legend(&self, theme: &Theme) -> Legend {
        let mut entries = Vec::new();
        let order = [
            Role::Input,
            Role::Output,
            Role::Condition,
            Role::Trainable,
            Role::Frozen,
            Role::Mixed,
        ];
        for role in order.into_iter().filter(|role| self.roles.contains(role)) {
            entries.push(LegendEntry {
                ring: false,
                swatch: Some(role.fill(theme)),
                text: role.legend_text().to_owned(),
            });
        }
        let shapes = [
            (self.ovals, "ellipse: an operation"),
            (self.rectangles, "rectangle: a module call's whole work"),
            (
                self.double_borders,
                "double border: also reads hidden buffers",
            ),
            (self.cylinders, "cylinder: a buffer version"),
            (self.boxes, "3-D box: a whole module"),
            (
                self.capsules,
                "dashed rounded box: a run of consecutive blocks",
            ),
            (self.folds, "... +N more: further identical modules"),
            (self.dashed, "dashed: computed without any model input"),
        ];
        for (_, text) in shapes.into_iter().filter(|(used, _)| *used) {
            entries.push(LegendEntry {
                ring: false,
                swatch: None,
                text: text.to_owned(),
            });
        }
        let stubs = [
            (
                self.input_stubs,
                &theme.roles.input,
                "from ...: an operation outside that feeds this module",
            ),
            (
                self.output_stubs,
                &theme.roles.output,
                "to ...: an operation outside that reads from it",
            ),
        ];
        for (_, color, text) in stubs.into_iter().filter(|(used, _, _)| *used) {
            entries.push(LegendEntry {
                ring: false,
                swatch: Some(Fill::Solid(color.clone())),
                text: text.to_owned(),
            });
        }
        Legend::keyed(entries, theme)
    }
}
