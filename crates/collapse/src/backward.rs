//! What a backward drawing shows (`graph="backward"`, the guide's "The backward pass"): one node per
//! autograd step (grad_fn), or, when the trace holds two or more backward passes, one node
//! per step and pass with each pass in its own box; arrows from each step to the steps it
//! passes gradients to, accumulations into parameters marked.

use std::collections::HashMap;

use tl_trace_model::Trace;

/// A drawn autograd step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepNode {
    /// Index into `trace.backward.grad_fns`.
    pub grad_fn: usize,
    /// The backward pass this node stands for, when passes are drawn apart.
    pub pass: Option<u32>,
}

/// A drawn arrow between two steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepEdge {
    /// Source node index.
    pub from: usize,
    /// Destination node index.
    pub to: usize,
    /// The destination accumulates the gradient into a parameter or leaf.
    pub accumulates: bool,
}

/// The backward graph as drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackwardView {
    /// Steps, in discovery order (per pass, passes in order, when drawn apart).
    pub nodes: Vec<StepNode>,
    /// Arrows, in the order of their source nodes.
    pub edges: Vec<StepEdge>,
    /// Backward passes recorded.
    pub passes: u32,
}

/// Why there is no backward drawing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BackwardError {
    /// The trace recorded no backward pass.
    #[error("No backward graph is available for this trace; call trace.backward(loss) (log_backward) before exporting it, then draw graph=\"backward\" or \"combined\"")]
    Unavailable,
}

impl BackwardError {
    /// Stable code.
    pub fn code(&self) -> &'static str {
        match self {
            BackwardError::Unavailable => "backward_graph_unavailable",
        }
    }
}

/// The backward graph of `trace`.
pub fn backward_view(trace: &Trace) -> Result<BackwardView, BackwardError> {
    let backward = trace
        .backward
        .as_ref()
        .filter(|b| !b.grad_fns.is_empty())
        .ok_or(BackwardError::Unavailable)?;
    let grad_fns = &backward.grad_fns;
    let by_label: HashMap<&str, usize> = grad_fns
        .iter()
        .enumerate()
        .map(|(i, g)| (g.label.as_str(), i))
        .collect();
    let ran_in = |g: usize, pass: u32| {
        let calls = &grad_fns[g].calls;
        calls.is_empty() && pass == 1 || calls.iter().any(|c| c.pass == pass)
    };
    let passes = backward.num_passes.max(1);
    let apart = passes > 1;
    let mut nodes = Vec::new();
    let mut node_of: HashMap<(usize, Option<u32>), usize> = HashMap::new();
    let pass_keys: Vec<Option<u32>> = if apart {
        (1..=passes).map(Some).collect()
    } else {
        vec![None]
    };
    for &pass in &pass_keys {
        for g in 0..grad_fns.len() {
            if pass.is_none_or(|p| ran_in(g, p)) {
                node_of.insert((g, pass), nodes.len());
                nodes.push(StepNode { grad_fn: g, pass });
            }
        }
    }
    let mut edges = Vec::new();
    for (from, node) in nodes.iter().enumerate() {
        for next in &grad_fns[node.grad_fn].next {
            // Validation guarantees the label exists.
            let Some(&target) = by_label.get(next.as_str()) else {
                continue;
            };
            if let Some(&to) = node_of.get(&(target, node.pass)) {
                edges.push(StepEdge {
                    from,
                    to,
                    accumulates: grad_fns[target].grad_type == "accumulategrad",
                });
            }
        }
    }
    Ok(BackwardView {
        nodes,
        edges,
        passes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> Trace {
        let path = format!("{}/../../fixtures/{name}.json", env!("CARGO_MANIFEST_DIR"));
        Trace::load(path).unwrap()
    }

    #[test]
    fn one_node_per_step_and_accumulations_marked() {
        let trace = fixture("backward");
        let view = backward_view(&trace).unwrap();
        assert_eq!(view.nodes.len(), 11);
        assert!(view.nodes.iter().all(|n| n.pass.is_none()));
        assert_eq!(view.edges.len(), 10);
        assert_eq!(view.edges.iter().filter(|e| e.accumulates).count(), 4);
    }

    #[test]
    fn two_passes_are_drawn_apart() {
        let trace = fixture("backward_twice");
        let view = backward_view(&trace).unwrap();
        assert_eq!(view.passes, 2);
        // Pass 1 ran the first 11 steps; pass 2 ran 10 of them plus its own two.
        let in_pass = |p| view.nodes.iter().filter(|n| n.pass == Some(p)).count();
        assert_eq!((in_pass(1), in_pass(2)), (11, 12));
        // Arrows stay within their pass.
        assert!(view
            .edges
            .iter()
            .all(|e| view.nodes[e.from].pass == view.nodes[e.to].pass));
    }

    #[test]
    fn traces_without_a_backward_pass_are_refused() {
        let error = backward_view(&fixture("convnet")).unwrap_err();
        assert_eq!(error.code(), "backward_graph_unavailable");
    }
}
