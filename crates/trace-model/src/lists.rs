//! Per-record lists of record indices (each op's parents, each op's calls), stored flat:
//! two vectors instead of one small vector per record.

use std::ops::Range;

/// A list of indices per row, stored flat: row `i` is `items[starts[i]..starts[i + 1]]`.
/// Built row by row ([`IndexLists::push`], [`IndexLists::end_row`]) or from an iterator of
/// rows ([`IndexLists::build`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexLists {
    starts: Vec<usize>,
    items: Vec<usize>,
}

impl Default for IndexLists {
    fn default() -> IndexLists {
        IndexLists::with_capacity(0, 0)
    }
}

impl IndexLists {
    /// No rows yet, with room for `rows` rows and `items` items.
    pub fn with_capacity(rows: usize, items: usize) -> IndexLists {
        let mut starts = Vec::with_capacity(rows + 1);
        starts.push(0);
        IndexLists {
            starts,
            items: Vec::with_capacity(items),
        }
    }

    /// One row per item of `rows`.
    pub fn build(rows: impl Iterator<Item = impl IntoIterator<Item = usize>>) -> IndexLists {
        let (rows_hint, _) = rows.size_hint();
        let mut lists = IndexLists::with_capacity(rows_hint, rows_hint * 2);
        for row in rows {
            lists.items.extend(row);
            lists.end_row();
        }
        lists
    }

    /// Appends `item` to the row being built.
    #[inline]
    pub fn push(&mut self, item: usize) {
        self.items.push(item);
    }

    /// The items of the row being built.
    #[inline]
    pub fn open_row(&self) -> &[usize] {
        let start = self.starts[self.starts.len() - 1];
        &self.items[start..]
    }

    /// Closes the row being built; the next items go into a new row.
    #[inline]
    pub fn end_row(&mut self) {
        self.starts.push(self.items.len());
    }

    /// The number of finished rows.
    #[inline]
    pub fn rows(&self) -> usize {
        self.starts.len() - 1
    }

    /// Row `i`.
    #[inline]
    pub fn row(&self, i: usize) -> &[usize] {
        let range: Range<usize> = self.starts[i]..self.starts[i + 1];
        &self.items[range]
    }

    /// The inverse relation over `targets` rows: row `t` lists, in order, the rows whose
    /// list holds `t` (every item must be below `targets`).
    pub fn inverse(&self, targets: usize) -> IndexLists {
        let mut starts = vec![0usize; targets + 1];
        for &target in &self.items {
            starts[target + 1] += 1;
        }
        for t in 0..targets {
            starts[t + 1] += starts[t];
        }
        let mut fill = starts.clone();
        let mut items = vec![0usize; self.items.len()];
        for source in 0..self.rows() {
            for &target in self.row(source) {
                items[fill[target]] = source;
                fill[target] += 1;
            }
        }
        IndexLists { starts, items }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_built_either_way_agree_and_invert() {
        let built = IndexLists::build([vec![], vec![0], vec![0, 1]].into_iter());
        let mut pushed = IndexLists::default();
        pushed.end_row();
        pushed.push(0);
        pushed.end_row();
        pushed.push(0);
        assert_eq!(pushed.open_row(), [0]);
        pushed.push(1);
        pushed.end_row();
        assert_eq!(built, pushed);
        assert_eq!(built.rows(), 3);
        assert_eq!(built.row(2), [0, 1]);
        let inverse = built.inverse(3);
        assert_eq!(
            (0..3).map(|t| inverse.row(t).to_vec()).collect::<Vec<_>>(),
            [vec![1, 2], vec![2], vec![]]
        );
        assert_eq!(IndexLists::default().rows(), 0);
    }
}
