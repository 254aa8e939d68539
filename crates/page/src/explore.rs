//! The drawings a forward page holds: every stop of the collapse schedule (thinned when the
//! page's size is bounded, [`crate::holding`]), and the drawings reached from them by opening
//! boxes and closing frames, found by [`Search`] within a budget of layout time (and of
//! bytes, when bounded).

use std::collections::HashMap;

use serde_json::{json, Value};
use tl_collapse::schedule::{readable_band, Schedule, Stop};
use tl_collapse::transitions::{after, canonical, plan_of, Move};
use tl_collapse::{BufferVisibility, Plan, TraceIndex, VisibleGraph};
use tl_drawing::{draw_indexed, DrawError, DrawOptions, Drawing};
use tl_layout::guard::{expected_seconds, layout_cost};

use crate::holding::{self, StopSize};
use crate::search::{self, Search};
use crate::Link;

/// The drawings a page holds, what a click on each leads to, and the slider's stops.
pub(crate) struct Explored {
    pub(crate) drawn: Vec<(Drawing, Option<VisibleGraph>)>,
    pub(crate) links: Vec<Vec<Link>>,
    pub(crate) stops: Vec<Value>,
    /// The schedule's stops, held or not.
    pub(crate) schedule_stops: usize,
}

/// A drawing made before layout, with what it shows.
type Drawn = (Drawing, VisibleGraph);

/// Every schedule stop of a forward drawing, and the drawings reached from `first` and the
/// stops by opening boxes and closing frames, breadth first within the layout budget. With
/// `state_bytes`, the states are estimated to take at most that many bytes: stops are
/// thinned to a share of it, and the search stops where the next drawing would pass it.
pub(crate) fn explore(
    index: &TraceIndex<'_>,
    options: &DrawOptions,
    show_buffers: BufferVisibility,
    first: Drawn,
    state_bytes: Option<usize>,
) -> Result<Explored, DrawError> {
    let trace = index.trace;
    let schedule = Schedule::build_with(index, show_buffers);
    let auto = schedule.auto(readable_band(trace)).level;
    let first_plan = canonical(plan_of(index, &first.1));
    // In the estimate's bytes: what it says, divided by its margin, must fit.
    let byte_budget = state_bytes.map(|bytes| (bytes as f64 / holding::ESTIMATE_MARGIN) as usize);
    let held = match byte_budget {
        Some(budget) => weigh_stops(index, options, &schedule, auto, &first, &first_plan, budget)?,
        None => Held {
            stops: schedule.stops.iter().map(|step| (step, None)).collect(),
            bytes: 0,
        },
    };
    let (mut search, at) = Search::new([first_plan]);
    let mut ready: HashMap<usize, Drawn> = HashMap::new();
    ready.insert(at[0], first);
    // The `auto` stop next (when the page does not open on it): what its boxes open to is
    // then first among the drawings a click reaches after the opening drawing's own, before
    // a budget cuts the search off (a notebook's page opens on full detail, whose clicks
    // close frames of the largest drawing).
    if let Some((step, _)) = held.stops.iter().find(|(step, _)| step.level == auto) {
        search.add(canonical(step.plan.clone()), None);
    }
    let mut stops = Vec::new();
    for (step, drawn) in held.stops {
        let state = search.add(canonical(step.plan.clone()), None);
        stops.push(json!({
            "level": step.level,
            "nodes": step.nodes,
            "folds": step.folds,
            "auto": step.level == auto,
            "state": state,
        }));
        if let Some(drawn) = drawn {
            ready.entry(state).or_insert(drawn);
        }
    }
    let bytes = byte_budget.map(|limit| Bytes {
        limit,
        spent: held.bytes,
    });
    let visited = visit(index, options, &mut search, ready, bytes)?;
    let mut explored = Explored {
        drawn: visited.drawn,
        links: visited.links,
        stops,
        schedule_stops: schedule.stops.len(),
    };
    renumber(&mut explored, &visited.drawn_as);
    Ok(explored)
}

/// The schedule's stops a page holds, each with its drawing when it was made already, and
/// the estimated bytes of the opening drawing and these stops.
struct Held<'s> {
    stops: Vec<(&'s Stop, Option<Drawn>)>,
    bytes: usize,
}

/// A bounded page's estimated bytes: its limit and what the drawings held so far take.
#[derive(Clone, Copy)]
struct Bytes {
    limit: usize,
    spent: usize,
}

/// Each stop drawn (not laid out) and weighed by its estimated bytes, and those kept within
/// [`holding::STOPS_SHARE`] of `budget` (in the estimate's bytes). The opening drawing
/// (`first`, of the canonical `first_plan`) is held anyway: a stop that is the same drawing
/// weighs nothing, and the rest share what it leaves.
fn weigh_stops<'s>(
    index: &TraceIndex<'_>,
    options: &DrawOptions,
    schedule: &'s Schedule,
    auto: f64,
    first: &Drawn,
    first_plan: &Plan,
    budget: usize,
) -> Result<Held<'s>, DrawError> {
    let first_bytes = holding::estimated_bytes(layout_cost(&first.0.styled));
    let mut drawings = Vec::with_capacity(schedule.stops.len());
    let mut sizes = Vec::with_capacity(schedule.stops.len());
    for step in &schedule.stops {
        let plan = canonical(step.plan.clone());
        let same_as_first = plan == *first_plan;
        // Over the layout guard, it is not laid out in the page either: it weighs nothing.
        let drawn = drawn_plan(index, options, plan)?;
        let bytes = match &drawn {
            Some((drawing, _)) if !same_as_first => {
                holding::estimated_bytes(layout_cost(&drawing.styled))
            }
            _ => 0,
        };
        sizes.push(StopSize {
            level: step.level,
            bytes,
            pinned: step.level == auto,
        });
        drawings.push(drawn);
    }
    let share = (budget as f64 * holding::STOPS_SHARE) as usize;
    let kept = holding::thinned(&sizes, share.saturating_sub(first_bytes));
    let mut held = Held {
        stops: Vec::new(),
        bytes: first_bytes,
    };
    for (((step, drawn), size), kept) in schedule.stops.iter().zip(drawings).zip(&sizes).zip(kept) {
        if kept {
            held.stops.push((step, drawn));
            held.bytes += size.bytes;
        }
    }
    Ok(held)
}

/// `plan` drawn (not laid out), if it is a forward drawing within the layout guard: one over
/// it (a full-detail stop of a huge model, unless forced) is left out of the page, and its
/// slider says why.
fn drawn_plan(
    index: &TraceIndex<'_>,
    options: &DrawOptions,
    plan: Plan,
) -> Result<Option<Drawn>, DrawError> {
    match draw_indexed(index, options, Some(plan)) {
        Ok((drawing, Some(visible))) => Ok(Some((drawing, visible))),
        Ok((_, None)) => Ok(None),
        Err(error) if error.is_layout_refusal() => Ok(None),
        Err(error) => Err(error),
    }
}

/// The drawings the search visited, their links (to plans) and, per plan found, where it
/// is drawn (plans over the budget are not).
struct Visited {
    drawn: Vec<(Drawing, Option<VisibleGraph>)>,
    links: Vec<Vec<Link>>,
    drawn_as: Vec<Option<usize>>,
}

/// The search's plans visited in its order, each drawn (or taken from `ready`) and what a
/// click on each of its boxes and frames leads to queued; the drawings reached by clicks
/// stop at the layout budget, and at the byte limit of `bytes` when there is one (its
/// `spent` counts the roots already).
fn visit(
    index: &TraceIndex<'_>,
    options: &DrawOptions,
    search: &mut Search,
    mut ready: HashMap<usize, Drawn>,
    mut bytes: Option<Bytes>,
) -> Result<Visited, DrawError> {
    let mut drawn: Vec<(Drawing, Option<VisibleGraph>)> = Vec::new();
    let mut links: Vec<Vec<Link>> = Vec::new();
    let roots = search.len();
    let mut spent = 0.0;
    let mut drawn_as: Vec<Option<usize>> = Vec::new();
    while let Some(at) = search.next() {
        if drawn.len() >= search::STATE_LIMIT {
            break;
        }
        let plan = search.plan(at);
        let made = match ready.remove(&at) {
            Some(made) => Some(made),
            None => drawn_plan(index, options, plan.clone())?,
        };
        let Some((drawing, visible)) = made else {
            continue; // not a forward drawing, or over the layout guard
        };
        if at >= roots {
            // The plans still queued are reached from drawings as large or larger: past
            // either budget, drawing each only to drop it cost GPT-2-48 ten seconds.
            let cost = layout_cost(&drawing.styled);
            let seconds = expected_seconds(cost, drawing.layout_engine());
            if spent + seconds > search::LAYOUT_BUDGET {
                break;
            }
            spent += seconds;
            if let Some(bytes) = bytes.as_mut() {
                let more = holding::estimated_bytes(cost);
                if bytes.spent + more > bytes.limit {
                    break;
                }
                bytes.spent += more;
            }
        }
        let moves = (0..visible.nodes.len())
            .map(Move::Open)
            .chain((0..visible.clusters.len()).map(Move::Close));
        let mut state_links = Vec::new();
        for step in moves {
            if let Some(next) = after(index, &plan, &visible, &step) {
                let target = search.add(next, Some((at, visible.nodes.len())));
                state_links.push(Link { step, target });
            }
        }
        drawn_as.resize(drawn_as.len().max(at + 1), None);
        drawn_as[at] = Some(drawn.len());
        drawn.push((drawing, Some(visible)));
        links.push(state_links);
    }
    Ok(Visited {
        drawn,
        links,
        drawn_as,
    })
}

/// Points links and stops at the drawings' positions (`drawn_as`: per plan found, where it
/// is drawn): links to plans never drawn (over the budget) are dropped, so those boxes do
/// not open here (the slider's finer stops show their insides), and each stop counts what
/// its drawing shows (the schedule counts the unrolled graph; a rolled stop draws fewer).
fn renumber(explored: &mut Explored, drawn_as: &[Option<usize>]) {
    for state_links in explored.links.iter_mut() {
        state_links.retain_mut(|link| match drawn_as.get(link.target).copied().flatten() {
            Some(state) => {
                link.target = state;
                true
            }
            None => false,
        });
    }
    for stop in explored.stops.iter_mut() {
        let plan = stop["state"].as_u64().unwrap_or_default() as usize;
        let state = drawn_as.get(plan).copied().flatten();
        if let Some(state) = state {
            stop["nodes"] = json!(explored.drawn[state].0.styled.nodes.len());
        }
        stop["state"] = json!(state);
    }
}

#[cfg(test)]
mod tests {
    use tl_drawing::Collapse;
    use tl_trace_model::Trace;

    use crate::build;

    use super::*;

    fn gpt2_small() -> Trace {
        let path = format!(
            "{}/../../fixtures/real/gpt2_small.json",
            env!("CARGO_MANIFEST_DIR")
        );
        Trace::load(path).unwrap()
    }

    #[test]
    fn a_bounded_page_thins_its_stops_and_every_link_and_stop_leads_to_a_held_state() {
        let trace = gpt2_small();
        let mut options = DrawOptions::default();
        options.collapse = Some(Collapse::None);
        let whole = build(&trace, &options, None).unwrap();
        let bounded = build(&trace, &options, Some(1_500_000)).unwrap();
        let stops = |data: &Value| data["stops"].as_array().unwrap().clone();
        let (all, held) = (stops(&whole.data), stops(&bounded.data));
        assert!(whole.data.get("thinned").is_none());
        assert_eq!(
            bounded.data["thinned"],
            json!({ "held": held.len(), "of": all.len() })
        );
        assert!(held.len() < all.len() && held.len() >= 3, "{}", held.len());
        // The ends and `auto` stay; what is held is in the schedule's order.
        let levels = |stops: &[Value]| -> Vec<f64> {
            stops.iter().map(|s| s["level"].as_f64().unwrap()).collect()
        };
        let (all_levels, held_levels) = (levels(&all), levels(&held));
        assert_eq!(held_levels.first(), all_levels.first());
        assert_eq!(held_levels.last(), all_levels.last());
        assert!(held.iter().any(|s| s["auto"] == json!(true)));
        assert!(held_levels.windows(2).all(|w| w[0] < w[1]));
        assert!(held_levels.iter().all(|l| all_levels.contains(l)));
        // Fewer states, each stop and link pointing at one of them.
        let states = bounded.data["states"].as_array().unwrap();
        assert!(states.len() < whole.data["states"].as_array().unwrap().len());
        assert_eq!(states.len(), bounded.drawn.len());
        for stop in &held {
            let state = stop["state"].as_u64().expect("every held stop is laid out");
            assert!((state as usize) < states.len());
        }
        let packed: usize = states
            .iter()
            .map(|s| s["packed"].as_str().unwrap().len())
            .sum();
        assert!(packed <= 1_500_000, "{packed}");
    }
}
