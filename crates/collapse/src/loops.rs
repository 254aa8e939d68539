//! Loops of calls: one module called again and again by a Python loop (an `nn.LSTMCell` over
//! 64 time steps, a decoder cell per generated token). A folded drawing boxes its first call
//! and draws every later iteration, the calls and whatever runs between them (the slice of
//! the input each step reads), as one ellipsis node: `... +63 more calls of @cell`. It is
//! the repeat fold of calls, where [`crate::folds`] folds identical sibling modules.
//!
//! Invariant: the later steps are one stretch of the execution order that no module call
//! crosses, so one node can stand for them without a cycle (every path between two of its
//! operations runs inside the stretch) and without cutting a frame.

use std::ops::Range;

use tl_trace_model::OpKind;

use crate::TraceIndex;

/// The fewest calls a loop has (as the fewest members of a repeat fold).
pub const MIN_CALLS: usize = 3;

/// A loop of calls of one module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallLoop {
    /// The module whose calls mark the steps (the first called, when several are called
    /// once a step).
    pub address: String,
    /// Its calls in the order they ran (indices into `trace.module_calls`), one a step.
    pub calls: Vec<usize>,
    /// The first step's ops, drawn as the plan draws them (indices into `trace.ops`).
    pub first: Range<usize>,
    /// The later steps' ops, held by the ellipsis.
    pub later: Range<usize>,
    /// The modules enclosing the calls, outermost first: a box of one of them hides the
    /// loop.
    pub enclosing: Vec<String>,
    /// How many calls enclose the loop (its steps run inside them).
    pub depth: usize,
}

impl CallLoop {
    /// What the later steps run: the modules they call (directly, in order of first call)
    /// with how many calls each, and the ops they run outside any module call.
    pub fn later_work(&self, index: &TraceIndex<'_>) -> (Vec<(String, usize)>, Vec<usize>) {
        self.work_of(index, self.later.clone())
    }

    /// [`CallLoop::later_work`] of some of the later steps' ops (a rolled drawing's
    /// ellipsis holds only what no node of the first step draws).
    pub fn work_of(
        &self,
        index: &TraceIndex<'_>,
        ops: impl IntoIterator<Item = usize>,
    ) -> (Vec<(String, usize)>, Vec<usize>) {
        let mut called: Vec<(String, usize)> = Vec::new();
        let mut between = Vec::new();
        let mut last_call = None;
        for i in ops {
            let Some(&call) = index.stack(i).get(self.depth) else {
                if index.trace.ops[i].kind == OpKind::Op {
                    between.push(i);
                }
                continue;
            };
            if last_call == Some(call) {
                continue;
            }
            last_call = Some(call);
            let address = &index.trace.module_calls[call].address;
            match called.iter_mut().find(|(a, _)| a == address) {
                Some((_, count)) => *count += 1,
                None => called.push((address.clone(), 1)),
            }
        }
        (called, between)
    }
}

/// First and last op of every module call (`usize::MAX` / 0 for a call with no op).
struct CallSpans {
    first: Vec<usize>,
    last: Vec<usize>,
}

impl CallSpans {
    fn new(index: &TraceIndex<'_>) -> CallSpans {
        let calls = index.trace.module_calls.len();
        let mut spans = CallSpans {
            first: vec![usize::MAX; calls],
            last: vec![0; calls],
        };
        for i in 0..index.trace.ops.len() {
            for &call in index.stack(i) {
                spans.first[call] = spans.first[call].min(i);
                spans.last[call] = i;
            }
        }
        spans
    }

    fn ran(&self, call: usize) -> bool {
        self.first[call] != usize::MAX
    }
}

/// Every loop of calls in the trace, in flow order. Loops never overlap: of two modules
/// called once a step (an RNN's input and recurrent `Linear`), the first called names the
/// loop; a module whose calls all run inside an earlier loop's steps is part of it.
pub fn call_loops(index: &TraceIndex<'_>, hidden: &[bool]) -> Vec<CallLoop> {
    let candidates: Vec<String> = index
        .trace
        .modules
        .iter()
        .filter(|module| module.num_calls as usize >= MIN_CALLS)
        .map(|module| module.address.clone())
        .collect();
    let mut loops = call_loops_of(index, hidden, &candidates);
    loops.sort_by_key(|call_loop| {
        (
            call_loop.first.start,
            usize::MAX - call_loop.later.end,
            // Of two modules called once a step, the first called names the loop.
            index.trace.module_calls[call_loop.calls[0]]
                .ops
                .first()
                .and_then(|label| index.op(label)),
        )
    });
    let mut kept: Vec<CallLoop> = Vec::new();
    for call_loop in loops {
        let overlaps = kept
            .iter()
            .any(|k| call_loop.first.start < k.later.end && k.first.start < call_loop.later.end);
        if !overlaps {
            kept.push(call_loop);
        }
    }
    kept
}

/// The loops of calls of the modules at `addresses` (those whose calls form one), in the
/// order given: the call spans are computed once, so a plan of many loops costs one pass
/// over the trace, not one per loop.
pub fn call_loops_of(
    index: &TraceIndex<'_>,
    hidden: &[bool],
    addresses: &[String],
) -> Vec<CallLoop> {
    if addresses.is_empty() {
        return Vec::new();
    }
    let spans = CallSpans::new(index);
    addresses
        .iter()
        .filter_map(|address| loop_of(index, hidden, &spans, address))
        .collect()
}

/// The calls of `address` form a loop when there are at least [`MIN_CALLS`] of them, all
/// made from the same enclosing call, the same number of ops apart (a step), and every step
/// runs the same operation types in the same order, the module's call at the same place.
/// A step starts where the repetition does: as many ops before the call as match the ops
/// before the next call (an `LSTMCell` step starts with the slice of the input it reads).
/// No module call may cross the later steps' stretch, nor any input or output sit in it.
fn loop_of(
    index: &TraceIndex<'_>,
    hidden: &[bool],
    spans: &CallSpans,
    address: &str,
) -> Option<CallLoop> {
    let trace = index.trace;
    let mut calls: Vec<usize> = (0..trace.module_calls.len())
        .filter(|&call| trace.module_calls[call].address == address && spans.ran(call))
        .collect();
    if calls.len() < MIN_CALLS {
        return None;
    }
    calls.sort_by_key(|&call| spans.first[call]);
    let context = |call: usize| {
        let stack = index.stack(spans.first[call]);
        let at = stack.iter().position(|&c| c == call)?;
        Some(&stack[..at])
    };
    let shared = context(calls[0])?;
    if calls.iter().any(|&call| context(call) != Some(shared)) {
        return None;
    }
    let starts: Vec<usize> = calls.iter().map(|&call| spans.first[call]).collect();
    let step = starts[1] - starts[0];
    if starts.windows(2).any(|pair| pair[1] - pair[0] != step) {
        return None;
    }
    let kind = |i: usize| {
        (
            trace.ops[i].kind,
            trace.ops[i].layer_type.as_str(),
            hidden[i],
        )
    };
    // How far before each call a step starts.
    let gap = starts[1] - spans.last[calls[0]];
    let lead = (1..gap)
        .take_while(|&back| back <= starts[0] && kind(starts[0] - back) == kind(starts[1] - back))
        .count();
    let first = starts[0] - lead..starts[0] - lead + step;
    let later = first.end..first.end + step * (calls.len() - 1);
    if later.end > trace.ops.len() {
        return None;
    }
    for i in later.clone() {
        let stack = index.stack(i);
        let inside = trace.ops[i].kind == OpKind::Op || trace.ops[i].kind == OpKind::Buffer;
        let nested = stack.starts_with(shared)
            && stack[shared.len()..]
                .iter()
                .all(|&call| spans.first[call] >= later.start && spans.last[call] < later.end);
        let same = kind(i) == kind(first.start + (i - first.start) % step);
        if !inside || !nested || !same {
            return None;
        }
    }
    let enclosing = index.tree.path(starts[0]);
    let at = enclosing.iter().position(|&a| a == address)?;
    Some(CallLoop {
        address: address.to_owned(),
        calls,
        first,
        later,
        enclosing: enclosing[..at].iter().map(|&a| a.to_owned()).collect(),
        depth: shared.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{hidden_ops, BufferVisibility};
    use tl_trace_model::Trace;

    fn fixture(name: &str) -> Trace {
        let path = format!("{}/../../fixtures/{name}.json", env!("CARGO_MANIFEST_DIR"));
        Trace::load(path).unwrap()
    }

    fn loops_of(trace: &Trace) -> Vec<CallLoop> {
        let index = TraceIndex::validate(trace).unwrap();
        call_loops(&index, &hidden_ops(&index, BufferVisibility::Meaningful))
    }

    fn labels(trace: &Trace, ops: Range<usize>) -> Vec<&str> {
        ops.map(|i| trace.ops[i].label.as_str()).collect()
    }

    /// An RNN stepped 20 times: a step is `inp`, `rec`, add, tanh, mul; the first module
    /// called names the loop, and the later steps are one stretch up to the output layer.
    #[test]
    fn an_rnn_step_is_the_stretch_its_repetition_covers() {
        let trace = fixture("long_loop");
        let loops = loops_of(&trace);
        assert_eq!(loops.len(), 1, "{loops:?}");
        let call_loop = &loops[0];
        assert_eq!(call_loop.address, "inp");
        assert_eq!(call_loop.calls.len(), 20);
        assert_eq!(
            labels(&trace, call_loop.first.clone()),
            [
                "linear_1_2:1",
                "linear_2_3:1",
                "add_1_4:1",
                "tanh_1_5:1",
                "mul_1_6:1"
            ]
        );
        assert_eq!(trace.ops[call_loop.later.start].label, "linear_1_2:2");
        assert_eq!(trace.ops[call_loop.later.end - 1].label, "mul_1_6:20");
        let index = TraceIndex::validate(&trace).unwrap();
        let (called, between) = call_loop.later_work(&index);
        assert_eq!(called, [("inp".to_owned(), 19), ("rec".to_owned(), 19)]);
        assert_eq!(between.len(), 57);
    }

    /// A step starts with what runs before the call each time (the slice of the input an
    /// `LSTMCell` reads), not at the call.
    #[test]
    fn a_cell_step_starts_with_the_slice_it_reads() {
        let trace = fixture("cell_loop");
        let loops = loops_of(&trace);
        assert_eq!(loops.len(), 1);
        assert_eq!(
            labels(&trace, loops[0].first.clone()),
            ["getitem_1_3:1", "lstmcell_1_4:1", "lstmcell_2_5:1"]
        );
    }

    /// A step that runs something else is not the same step: no loop.
    #[test]
    fn steps_that_differ_are_no_loop() {
        let mut trace = fixture("long_loop");
        let at = trace
            .ops
            .iter()
            .position(|op| op.label == "tanh_1_5:7")
            .unwrap();
        trace.ops[at].layer_type = "sigmoid".to_owned();
        assert_eq!(loops_of(&trace), []);
    }

    /// A module called twice is not a loop (as two blocks are not a repeat fold).
    #[test]
    fn two_calls_are_no_loop() {
        let mut trace = fixture("recurrent");
        assert_eq!(loops_of(&trace).len(), 1);
        // Forget the third step's calls: each module is called twice.
        for module in &mut trace.modules {
            if module.num_calls == 3 {
                module.num_calls = 2;
            }
        }
        trace.module_calls.retain(|call| call.call_index < 3);
        for op in &mut trace.ops {
            op.modules.retain(|call| !call.ends_with(":3"));
            op.output_of_calls.retain(|call| !call.ends_with(":3"));
        }
        assert_eq!(loops_of(&trace), []);
    }
}
