//! Which drawings an interactive page holds: every stop of the collapse schedule, and the
//! drawings reached from them by opening a box or closing a frame
//! ([`tl_collapse::transitions`]), found breadth first within a budget of estimated layout
//! time (each is laid out when the page is written: the page has no layout engine).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::hash::{DefaultHasher, Hash, Hasher};

use tl_collapse::transitions::canonical;
use tl_collapse::Plan;

/// Seconds of layout (on one core of this machine, as [`tl_layout::guard::layout_seconds`]
/// estimates them)
/// the drawings reached by clicks may add to the stops. GPT-2 small's page (1.5 s to
/// write) reaches the state limit first: every box of its `auto` drawing opens, down to
/// the blocks' attention and MLP; DenseNet-121's (12 s, most of it its nine stops), whose
/// opened dense blocks take seconds each, opens each block and a few of their layers.
pub(crate) const LAYOUT_BUDGET: f64 = 3.0;

/// Reachable drawings at most, whatever their cost.
pub(crate) const STATE_LIMIT: usize = 120;

/// A search over plans: `roots` first, then what a click leads to, each plan once, those
/// reached from smaller drawings first (opening boxes near the `auto` end is what a reader
/// does most; closing one frame of a full-detail drawing costs a full-detail layout).
pub(crate) struct Search {
    /// Plans in the order found, `roots` first, each name as its number in `names`: a plan
    /// near full detail names thousands of modules and every box of a drawing leads to a
    /// plan, so a 100,000-operation page found plans holding 2.6 GB of names, and their
    /// keys (the names written out) 0.87 GB more.
    plans: Vec<Numbered>,
    /// The positions of the plans found, by a hash of the plan.
    seen: HashMap<u64, Vec<usize>>,
    names: Names,
    /// By the size of the drawing a plan was reached from (in hundreds of nodes), then
    /// the clicks from a root, then the order found.
    queue: BinaryHeap<Reverse<(usize, usize, usize)>>,
    depth: Vec<usize>,
}

/// A [`Plan`] with each module address and operation label as its number in [`Names`].
#[derive(Hash, PartialEq, Eq)]
struct Numbered {
    boxes: Vec<u32>,
    capsules: Vec<Vec<u32>>,
    folds: Vec<Vec<u32>>,
    op_capsules: Vec<Vec<u32>>,
    loops: Vec<u32>,
}

/// The names plans use, each once, numbered in the order met.
#[derive(Default)]
struct Names {
    numbers: HashMap<String, u32>,
    names: Vec<String>,
}

impl Names {
    fn number(&mut self, name: &str) -> u32 {
        if let Some(&number) = self.numbers.get(name) {
            return number;
        }
        // A page's records are refused past 256 MB before any search, so a trace it explores
        // has far fewer than 2^32 module addresses and operation labels.
        let number = u32::try_from(self.names.len()).expect("a page's names fit in a u32");
        self.names.push(name.to_owned());
        self.numbers.insert(name.to_owned(), number);
        number
    }

    fn numbered(&mut self, plan: &Plan) -> Numbered {
        let mut list = |names: &[String]| names.iter().map(|n| self.number(n)).collect();
        Numbered {
            boxes: list(&plan.boxes),
            capsules: plan.capsules.iter().map(|run| list(run)).collect(),
            folds: plan.folds.iter().map(|run| list(run)).collect(),
            op_capsules: plan.op_capsules.iter().map(|run| list(run)).collect(),
            loops: list(&plan.loops),
        }
    }

    fn plan(&self, numbered: &Numbered) -> Plan {
        let list = |numbers: &[u32]| {
            numbers
                .iter()
                .map(|&n| self.names[n as usize].clone())
                .collect()
        };
        let runs = |runs: &[Vec<u32>]| runs.iter().map(|run| list(run)).collect();
        Plan {
            boxes: list(&numbered.boxes),
            capsules: runs(&numbered.capsules),
            folds: runs(&numbered.folds),
            op_capsules: runs(&numbered.op_capsules),
            loops: list(&numbered.loops),
        }
    }
}

impl Search {
    pub(crate) fn new(roots: impl IntoIterator<Item = Plan>) -> (Search, Vec<usize>) {
        let mut search = Search {
            plans: Vec::new(),
            seen: HashMap::new(),
            names: Names::default(),
            queue: BinaryHeap::new(),
            depth: Vec::new(),
        };
        let at = roots
            .into_iter()
            .map(|plan| search.add(canonical(plan), None))
            .collect();
        (search, at)
    }

    /// How many plans were found.
    pub(crate) fn len(&self) -> usize {
        self.plans.len()
    }

    /// The plan found at `at`.
    pub(crate) fn plan(&self, at: usize) -> Plan {
        self.names.plan(&self.plans[at])
    }

    /// The plan's position, adding it when new and queueing it for a visit: `from` is the
    /// plan it is reached from and that drawing's node count (`None` for a root).
    pub(crate) fn add(&mut self, plan: Plan, from: Option<(usize, usize)>) -> usize {
        let plan = self.names.numbered(&plan);
        let hash = hash_of(&plan);
        if let Some(at) = self.find_hashed(&plan, hash) {
            return at;
        }
        let at = self.plans.len();
        let (size, depth) = match from {
            Some((parent, nodes)) => (1 + nodes / 100, self.depth[parent] + 1),
            None => (0, 0),
        };
        self.seen.entry(hash).or_default().push(at);
        self.plans.push(plan);
        self.depth.push(depth);
        self.queue.push(Reverse((size, depth, at)));
        at
    }

    #[cfg(test)]
    fn find(&mut self, plan: &Plan) -> Option<usize> {
        let plan = self.names.numbered(plan);
        self.find_hashed(&plan, hash_of(&plan))
    }

    /// The position of `plan`, whose hash is `hash`, if it was found before.
    fn find_hashed(&self, plan: &Numbered, hash: u64) -> Option<usize> {
        self.seen
            .get(&hash)?
            .iter()
            .copied()
            .find(|&at| self.plans[at] == *plan)
    }

    /// The next plan to visit.
    pub(crate) fn next(&mut self) -> Option<usize> {
        self.queue.pop().map(|Reverse((_, _, at))| at)
    }
}

/// A hash of `plan` (canonical plans are equal when their drawings are the same).
fn hash_of(plan: &Numbered) -> u64 {
    let mut hasher = DefaultHasher::new();
    plan.hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_meets_each_plan_once() {
        let plan = |boxes: &[&str]| Plan {
            boxes: boxes.iter().map(|b| (*b).to_owned()).collect(),
            ..Plan::default()
        };
        let (mut search, roots) = Search::new([plan(&["b", "a"]), plan(&["a", "b"])]);
        assert_eq!(roots, vec![0, 0]);
        assert_eq!(search.add(plan(&["c"]), Some((0, 500))), 1);
        assert_eq!(search.add(plan(&["d"]), Some((0, 30))), 2);
        assert_eq!(search.add(plan(&["e"]), Some((2, 30))), 3);
        assert_eq!(search.add(plan(&["f"]), Some((0, 40))), 4);
        assert_eq!(search.find(&canonical(plan(&["b", "a"]))), Some(0));
        assert_eq!(search.find(&canonical(plan(&["b", "c"]))), None);
        assert_eq!(search.plan(1), plan(&["c"]));
        assert_eq!(search.len(), 5);
        assert_eq!(search.next(), Some(0));
        // Reached from a smaller drawing: visited first, nearer the root first.
        assert_eq!(search.next(), Some(2));
        assert_eq!(search.next(), Some(4));
        assert_eq!(search.next(), Some(3));
        assert_eq!(search.next(), Some(1));
        assert_eq!(search.next(), None);
    }
}
