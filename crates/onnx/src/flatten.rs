//! The model's graphs as one list of nodes: every subgraph (`If`'s branches, `Loop`'s and
//! `Scan`'s body) flattened before the node that runs it, each node after the nodes making
//! what it reads (the file's order, or a topological sort), with the modules it ran in.

use std::collections::{HashMap, HashSet};

use crate::proto::{Graph, Node, ValueInfo};
use crate::scopes::{recorded, scopes_of, Scope};
use crate::OnnxError;

/// Who made a tensor name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Producer {
    Input,
    Initializer,
    /// A node, by position in [`Flat::nodes`].
    Node(usize),
}

/// The names in scope: a subgraph sees its own and every enclosing graph's.
#[derive(Default)]
pub(crate) struct Names {
    pub(crate) produced: HashMap<String, Producer>,
}

/// Every node of the model and its subgraphs, in an order where each name is made before
/// it is read, with the modules it ran in.
#[derive(Default)]
pub(crate) struct Flat<'m> {
    pub(crate) nodes: Vec<FlatNode<'m>>,
}

pub(crate) struct FlatNode<'m> {
    pub(crate) node: &'m Node,
    pub(crate) scopes: Vec<Scope>,
    /// The producer of each input (`None` for an omitted optional input, `""`).
    pub(crate) inputs: Vec<Option<(Producer, &'m str)>>,
    /// Subgraph outputs the node reads (its branches' or body's results).
    pub(crate) reads: Vec<usize>,
    /// Whether the exporter recorded the node's modules.
    pub(crate) recorded: bool,
}

/// Flattens `graph` (nested `depth` subgraphs deep) inside the modules `outer`.
pub(crate) fn flatten<'m>(
    graph: &'m Graph,
    outer: &[Scope],
    names: &mut Names,
    flat: &mut Flat<'m>,
    depth: usize,
) -> Result<(), OnnxError> {
    if depth > crate::wire::MAX_DEPTH {
        return Err(OnnxError::TooDeep {
            depth: crate::wire::MAX_DEPTH,
        });
    }
    for index in order(graph, names)? {
        let node = &graph.nodes[index];
        let mut scopes: Vec<Scope> = outer.to_vec();
        let own = scopes_of(node);
        // Inside a subgraph the exporter's scopes restart: keep them under its frame.
        for scope in own {
            let address = match scopes.last() {
                Some(parent)
                    if !scope.address.starts_with(&format!("{}.", parent.address)) && depth > 0 =>
                {
                    format!("{}.{}", parent.address, scope.address)
                }
                _ => scope.address,
            };
            scopes.push(Scope {
                address,
                class_name: scope.class_name,
            });
        }
        let mut reads = Vec::new();
        for attribute in &node.attributes {
            for (k, subgraph) in attribute.graphs.iter().enumerate() {
                let frame = subgraph_frame(node, &attribute.name, k, flat.nodes.len(), &scopes);
                let mut inner = scopes.clone();
                inner.push(frame);
                // A body's formal inputs are what the node hands it (`Loop`: the trip
                // count, the condition, the carried values), in order.
                for (position, formal) in subgraph.inputs.iter().enumerate() {
                    let given = node
                        .inputs
                        .get(position)
                        .and_then(|n| names.produced.get(n))
                        .copied();
                    names
                        .produced
                        .insert(formal.name.clone(), given.unwrap_or(Producer::Input));
                }
                for tensor in &subgraph.initializers {
                    names
                        .produced
                        .insert(tensor.name.clone(), Producer::Initializer);
                }
                flatten(subgraph, &inner, names, flat, depth + 1)?;
                for output in &subgraph.outputs {
                    if let Some(Producer::Node(at)) = names.produced.get(&output.name) {
                        reads.push(*at);
                    }
                }
            }
        }
        let inputs = node
            .inputs
            .iter()
            .map(|input| {
                if input.is_empty() {
                    return Ok(None);
                }
                match names.produced.get(input) {
                    Some(&producer) => Ok(Some((producer, input.as_str()))),
                    None => Err(OnnxError::Dangling {
                        node: node_name(node, flat.nodes.len()),
                        input: input.clone(),
                    }),
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        let at = flat.nodes.len();
        for output in node.outputs.iter().filter(|o| !o.is_empty()) {
            names.produced.insert(output.clone(), Producer::Node(at));
        }
        flat.nodes.push(FlatNode {
            node,
            scopes,
            inputs,
            reads,
            recorded: recorded(node),
        });
    }
    Ok(())
}

/// A node whose modules the exporter did not record (its optimizer's split of GPT-2's fused
/// query-key-value projection) ran in the modules all its recorded neighbours share: without
/// that, every such node would end the call of each module around it (GPT-2 drawn as 13
/// calls of `@gpt2`).
pub(crate) fn infer_scopes(flat: &mut Flat<'_>) {
    let mut neighbours: Vec<Vec<usize>> = vec![Vec::new(); flat.nodes.len()];
    for (at, node) in flat.nodes.iter().enumerate() {
        let producers = node
            .inputs
            .iter()
            .flatten()
            .filter_map(|(producer, _)| match producer {
                Producer::Node(p) => Some(*p),
                _ => None,
            });
        for p in producers.chain(node.reads.iter().copied()) {
            neighbours[at].push(p);
            neighbours[p].push(at);
        }
    }
    for (at, around) in neighbours.iter().enumerate() {
        if flat.nodes[at].recorded {
            continue;
        }
        let known: Vec<&[Scope]> = around
            .iter()
            .filter(|&&n| flat.nodes[n].recorded)
            .map(|&n| flat.nodes[n].scopes.as_slice())
            .collect();
        let Some(first) = known.first() else { continue };
        let shared = (0..first.len())
            .take_while(|&k| known.iter().all(|s| s.get(k) == Some(&first[k])))
            .count();
        // Never outside the frames it was found in (a subgraph's).
        let own = flat.nodes[at].scopes.len();
        if shared >= own {
            flat.nodes[at].scopes = first[..shared].to_vec();
        }
    }
}

/// The frame a subgraph is drawn in: `<scope>.<node>.<attribute>` (`If_3.then_branch`).
fn subgraph_frame(node: &Node, attribute: &str, k: usize, at: usize, scopes: &[Scope]) -> Scope {
    let own = node
        .name
        .rsplit('/')
        .next()
        .unwrap_or_default()
        .replace('.', "_");
    let own = if own.is_empty() {
        format!("{}_{at}", node.op_type)
    } else {
        own
    };
    let leaf = if k == 0 {
        format!("{own}.{attribute}")
    } else {
        format!("{own}.{attribute}_{k}")
    };
    let address = match scopes.last() {
        Some(parent) => format!("{}.{leaf}", parent.address),
        None => leaf,
    };
    Scope {
        address,
        class_name: Some(format!("{} {attribute}", node.op_type)),
    }
}

fn node_name(node: &Node, at: usize) -> String {
    if node.name.is_empty() {
        format!("{} node #{at}", node.op_type)
    } else {
        node.name.clone()
    }
}

/// The graph's nodes in an order where every name is made before it is read: the file's
/// own order when it is one (ONNX requires it), else a topological sort; a cycle is an
/// error naming a node on it.
fn order(graph: &Graph, names: &Names) -> Result<Vec<usize>, OnnxError> {
    let mut made_by: HashMap<&str, usize> = HashMap::new();
    for (index, node) in graph.nodes.iter().enumerate() {
        for output in &node.outputs {
            made_by.entry(output.as_str()).or_insert(index);
        }
    }
    // Names a node reads from nodes of this graph (subgraphs read outer names too).
    let reads = |node: &Node| -> Vec<usize> {
        let mut own: Vec<&str> = node.inputs.iter().map(String::as_str).collect();
        for attribute in &node.attributes {
            for subgraph in &attribute.graphs {
                outer_reads(subgraph, &mut own);
            }
        }
        own.iter()
            .filter(|name| !name.is_empty() && !names.produced.contains_key(**name))
            .filter_map(|name| made_by.get(name).copied())
            .collect()
    };
    let deps: Vec<Vec<usize>> = graph.nodes.iter().map(reads).collect();
    if deps
        .iter()
        .enumerate()
        .all(|(index, d)| d.iter().all(|&p| p < index))
    {
        return Ok((0..graph.nodes.len()).collect());
    }
    let mut waiting: Vec<usize> = deps.iter().map(Vec::len).collect();
    let mut readers: Vec<Vec<usize>> = vec![Vec::new(); graph.nodes.len()];
    for (index, d) in deps.iter().enumerate() {
        for &p in d {
            readers[p].push(index);
        }
    }
    let mut ready: std::collections::BTreeSet<usize> = (0..graph.nodes.len())
        .filter(|&i| waiting[i] == 0)
        .collect();
    let mut sorted = Vec::with_capacity(graph.nodes.len());
    while let Some(next) = ready.pop_first() {
        sorted.push(next);
        for &reader in &readers[next] {
            waiting[reader] -= 1;
            if waiting[reader] == 0 {
                ready.insert(reader);
            }
        }
    }
    if sorted.len() < graph.nodes.len() {
        let stuck = (0..graph.nodes.len())
            .find(|&i| waiting[i] > 0)
            .unwrap_or(0);
        return Err(OnnxError::Cycle {
            node: node_name(&graph.nodes[stuck], stuck),
        });
    }
    Ok(sorted)
}

/// The names a subgraph reads from enclosing graphs (not made inside it).
fn outer_reads<'g>(graph: &'g Graph, into: &mut Vec<&'g str>) {
    let mut inside: HashSet<&str> = graph.inputs.iter().map(|i| i.name.as_str()).collect();
    inside.extend(graph.initializers.iter().map(|t| t.name.as_str()));
    for node in &graph.nodes {
        inside.extend(node.outputs.iter().map(String::as_str));
    }
    for node in &graph.nodes {
        into.extend(
            node.inputs
                .iter()
                .map(String::as_str)
                .filter(|n| !inside.contains(n)),
        );
        for attribute in &node.attributes {
            for subgraph in &attribute.graphs {
                outer_reads(subgraph, into);
            }
        }
    }
}

pub(crate) fn collect_types<'m>(graph: &'m Graph, into: &mut HashMap<&'m str, &'m ValueInfo>) {
    for info in graph
        .inputs
        .iter()
        .chain(&graph.outputs)
        .chain(&graph.value_info)
    {
        into.entry(info.name.as_str()).or_insert(info);
    }
    for node in &graph.nodes {
        for attribute in &node.attributes {
            for subgraph in &attribute.graphs {
                collect_types(subgraph, into);
            }
        }
    }
}
