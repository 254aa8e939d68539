//! What a page holds when its size is bounded (a notebook output): the schedule's stops
//! thinned and the drawings reached by clicks cut off so that the states, estimated before
//! any layout, stay within a number of bytes. The page written to a file has no bound and
//! holds every stop.

use tl_layout::guard::LayoutCost;

/// Bytes a state is estimated to take in the page (packed: its SVG, node, frame and arrow
/// lists, compressed and in base64), from its layout cost before layout: 177 per arrow and
/// 415 per square root of the virtual nodes (the long arrows' ranks: a hub read by every
/// block draws one long path per reader). Fitted by least squares on the 889 states of ten
/// real models' notebook outputs (GPT-2 small, -24 and -48, the 32-layer Llama, Mamba,
/// Mixtral, DenseNet-121, BERT-base, ResNet-50, T5-small); per model, the states' real
/// total is 0.75 to 1.25 times the estimate.
pub(crate) fn estimated_bytes(cost: LayoutCost) -> usize {
    let arrows = 177.0 * cost.edges as f64;
    let long_arrows = 415.0 * (cost.virtual_nodes as f64).sqrt();
    (arrows + long_arrows).round() as usize
}

/// Estimates are multiplied by this before they are held to a budget: the most a model's
/// states came to against the estimate (1.25), and a little over.
pub(crate) const ESTIMATE_MARGIN: f64 = 1.3;

/// The share of a bounded page's state bytes that the schedule's stops may take; the rest
/// is for drawings reached by opening boxes and closing frames (small ones, near `auto`).
pub(crate) const STOPS_SHARE: f64 = 0.75;

/// One schedule stop as the thinning sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct StopSize {
    /// The stop's level (strictly increasing along the schedule; equal steps fold by equal
    /// ratios of drawn nodes).
    pub(crate) level: f64,
    /// Its estimated bytes in the page (0 when it is held anyway, as the opening drawing).
    pub(crate) bytes: usize,
    /// Kept whatever the budget (the `auto` stop).
    pub(crate) pinned: bool,
}

/// Which stops to keep so that their bytes stay within `budget`: the first (full detail),
/// the last (`max`) and pinned ones always; of the others, the one whose neighbours kept
/// are nearest in level is left out first, and so on until the rest fits. Levels follow
/// the ratio of drawn nodes, so the run of near-full-detail stops that each box one more
/// block of a deep model (1,980 nodes, then 1,859, 1,801...) is thinned first and evenly,
/// and the small stops near `auto`, where each step changes the drawing most, stay.
pub(crate) fn thinned(stops: &[StopSize], budget: usize) -> Vec<bool> {
    let mut kept = vec![true; stops.len()];
    let mut total: usize = stops.iter().map(|stop| stop.bytes).sum();
    while total > budget {
        let kept_at: Vec<usize> = (0..stops.len()).filter(|&at| kept[at]).collect();
        let left_out = kept_at
            .windows(3)
            .filter(|three| !stops[three[1]].pinned)
            .min_by(|a, b| {
                let gap = |three: &[usize]| stops[three[2]].level - stops[three[0]].level;
                // Equal gaps: the larger stop first, then the more detailed one.
                gap(a)
                    .total_cmp(&gap(b))
                    .then(stops[b[1]].bytes.cmp(&stops[a[1]].bytes))
                    .then(a[1].cmp(&b[1]))
            })
            .map(|three| three[1]);
        let Some(at) = left_out else {
            break; // only the ends and the pinned stops are left
        };
        kept[at] = false;
        total -= stops[at].bytes;
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stop drawing `nodes` of a 1,000-node model whose `max` draws 10.
    fn stop(nodes: usize, bytes: usize) -> StopSize {
        StopSize {
            level: (1000.0 / nodes as f64).ln() / 100f64.ln(),
            bytes,
            pinned: false,
        }
    }

    #[test]
    fn stops_within_the_budget_are_all_kept() {
        let stops = [stop(100, 10), stop(60, 10), stop(20, 10)];
        assert_eq!(thinned(&stops, 30), vec![true; 3]);
    }

    #[test]
    fn a_run_of_near_identical_stops_is_thinned_evenly_and_the_ends_stay() {
        // A deep model's schedule: one block boxed a stop, then a few large steps.
        let mut stops: Vec<StopSize> = (0..10).map(|k| stop(1000 - 50 * k, 100)).collect();
        stops.extend([stop(200, 20), stop(60, 10), stop(30, 8), stop(10, 5)]);
        let kept = thinned(&stops, 700);
        let total: usize = (0..stops.len())
            .filter(|&at| kept[at])
            .map(|at| stops[at].bytes)
            .sum();
        assert!(total <= 700, "{total}");
        assert!(kept[0] && kept[stops.len() - 1], "the ends stay: {kept:?}");
        // The small stops where the drawing changes most are kept.
        assert!(kept[10] && kept[11] && kept[12], "{kept:?}");
        // Within the run, no two stops left out next to each other while another pair of
        // neighbours is kept (even spacing).
        let run: Vec<bool> = kept[..10].to_vec();
        let kept_in_run = run.iter().filter(|&&k| k).count();
        assert!((3..=6).contains(&kept_in_run), "{run:?}");
        assert!(
            !run.windows(3).any(|w| w == [false, false, false]),
            "{run:?}"
        );
    }

    #[test]
    fn pinned_stops_and_ends_are_kept_over_the_budget() {
        let mut stops = vec![stop(100, 50), stop(80, 50), stop(60, 50), stop(40, 50)];
        stops[2].pinned = true;
        assert_eq!(thinned(&stops, 10), vec![true, false, true, true]);
        assert_eq!(thinned(&[stop(10, 99)], 0), vec![true]);
        assert!(thinned(&[], 0).is_empty());
    }

    #[test]
    fn the_estimate_grows_with_arrows_and_long_arrows() {
        let cost = |edges, virtual_nodes| LayoutCost {
            nodes: 100,
            edges,
            virtual_nodes,
            hub_load: 0,
            hub: None,
        };
        assert_eq!(estimated_bytes(cost(0, 0)), 0);
        assert_eq!(estimated_bytes(cost(100, 0)), 17_700);
        assert_eq!(estimated_bytes(cost(100, 10_000)), 17_700 + 41_500);
    }
}
