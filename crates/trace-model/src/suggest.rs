//! "Did you mean" suggestions for names a user typed (keywords, module addresses): the
//! known names closest to what was written.

/// Levenshtein distance over characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        previous = current;
    }
    previous[b.len()]
}

/// The known name closest to `name` (a misspelling: `colapse` -> `collapse`), if any is
/// close enough to be what was meant.
pub fn closest<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    known
        .into_iter()
        .map(|candidate| (edit_distance(name, candidate), candidate))
        .filter(|(distance, candidate)| *distance <= (candidate.len() / 3).max(2))
        .min()
        .map(|(_, candidate)| candidate)
}

/// Up to `count` known names nearest `name`, nearest first: names that contain it (`attn`
/// for `transformer.h.0.attn`) before the rest, then by edit distance, ties in the order
/// given. Always suggests something when anything is known, so a message can show real
/// names rather than an example that may not exist.
pub fn nearest<'a>(
    name: &str,
    known: impl IntoIterator<Item = &'a str>,
    count: usize,
) -> Vec<&'a str> {
    let mut ranked: Vec<(bool, usize, usize, &str)> = known
        .into_iter()
        .enumerate()
        .map(|(order, candidate)| {
            let apart = !name.is_empty() && !candidate.contains(name);
            (apart, edit_distance(name, candidate), order, candidate)
        })
        .collect();
    ranked.sort_unstable();
    ranked.dedup_by(|a, b| a.3 == b.3);
    ranked.into_iter().take(count).map(|(.., c)| c).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misspellings_find_the_name_meant_and_strangers_find_none() {
        assert_eq!(closest("colapse", ["collapse", "depth"]), Some("collapse"));
        assert_eq!(closest("zzzzzz", ["collapse", "depth"]), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn nearest_puts_containing_names_first_then_the_closest() {
        let modules = ["conv1", "layer1", "layer1.0", "transformer.h.0.attn", "fc"];
        assert_eq!(nearest("attn", modules, 2), ["transformer.h.0.attn", "fc"]);
        assert_eq!(nearest("layer9", modules, 2), ["layer1", "layer1.0"]);
        assert!(nearest("x", [], 3).is_empty());
    }
}
