//! The module tree an exporter left in an ONNX graph: `torch.onnx.export` (the dynamo
//! exporter, the default) writes each node's module addresses and classes as metadata
//! (`pkg.torch.onnx.name_scopes`, `pkg.torch.onnx.class_hierarchy`); the older TorchScript
//! exporter names nodes by their scope (`/encoder/layers.0/self_attn/MatMul`).

use crate::proto::Node;

/// One module on a node's path: its address and class (`None` when not recorded).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scope {
    pub address: String,
    pub class_name: Option<String>,
}

/// Whether the exporter recorded where a node ran (nodes its optimizer made, such as a
/// split of a fused projection, carry no scope).
pub fn recorded(node: &Node) -> bool {
    node.name.starts_with('/')
        || node
            .metadata
            .iter()
            .any(|(key, _)| key == "pkg.torch.onnx.name_scopes")
}

/// The modules a node ran in, outermost first.
pub fn scopes_of(node: &Node) -> Vec<Scope> {
    let meta = |key: &str| {
        node.metadata
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| python_strings(v))
    };
    if let Some(names) = meta("pkg.torch.onnx.name_scopes") {
        // `['', 'layer1', 'layer1.0', 'layer1.0.bn1', '<the op>']`: the root, the modules,
        // then the operation's own name.
        let classes = meta("pkg.torch.onnx.class_hierarchy").filter(|c| c.len() == names.len());
        let inner = names.len().saturating_sub(1);
        let segments = (1..inner).map(|k| {
            let class = classes.as_ref().map(|c| short_class(&c[k]));
            (names[k].as_str(), class)
        });
        return addresses(segments);
    }
    // `/layer1/layer1.0/conv1/Conv`: scopes, then the operation.
    match node.name.strip_prefix('/') {
        Some(path) => {
            let mut parts: Vec<&str> = path.split('/').collect();
            parts.pop();
            addresses(parts.into_iter().map(|part| (part, None)))
        }
        None => Vec::new(),
    }
}

/// Addresses from segments that are either whole addresses (`layer1.0` under `layer1`) or
/// names relative to the scope above (`layers.0` under `encoder`: `encoder.layers.0`).
fn addresses<'a>(segments: impl Iterator<Item = (&'a str, Option<String>)>) -> Vec<Scope> {
    let mut scopes: Vec<Scope> = Vec::new();
    for (segment, class_name) in segments {
        let segment = segment.trim_matches('.');
        if segment.is_empty() {
            continue;
        }
        let address = match scopes.last() {
            Some(parent)
                if segment.len() > parent.address.len()
                    && segment.starts_with(parent.address.as_str())
                    && segment.as_bytes()[parent.address.len()] == b'.' =>
            {
                segment.to_owned()
            }
            Some(parent) => format!("{}.{segment}", parent.address),
            // The trace's root is `self`: a top-level module of that name is renamed.
            None if segment == "self" || segment.starts_with("self.") => format!("_{segment}"),
            None => segment.to_owned(),
        };
        if scopes
            .last()
            .is_some_and(|parent| parent.address == address)
        {
            continue;
        }
        scopes.push(Scope {
            address,
            class_name,
        });
    }
    scopes
}

/// `torch.nn.modules.conv.Conv2d` -> `Conv2d`.
fn short_class(qualified: &str) -> String {
    qualified.rsplit('.').next().unwrap_or(qualified).to_owned()
}

/// The strings of a Python list literal (`['', 'a', "b'c"]`), as the exporter writes it.
fn python_strings(text: &str) -> Vec<String> {
    let mut strings = Vec::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\'' && c != '"' {
            continue;
        }
        let quote = c;
        let mut value = String::new();
        while let Some(c) = chars.next() {
            match c {
                '\\' => value.extend(chars.next()),
                c if c == quote => break,
                c => value.push(c),
            }
        }
        strings.push(value);
    }
    strings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(name: &str, metadata: &[(&str, &str)]) -> Node {
        Node {
            name: name.to_owned(),
            metadata: metadata
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
            ..Node::default()
        }
    }

    fn addresses_of(node: &Node) -> Vec<String> {
        scopes_of(node).into_iter().map(|s| s.address).collect()
    }

    #[test]
    fn the_dynamo_exporter_names_modules_and_classes() {
        let node = node(
            "node_Conv_295",
            &[
                ("pkg.torch.onnx.name_scopes", "['', 'layer1', 'layer1.0', 'layer1.0.bn1', '_native_batch_norm']"),
                ("pkg.torch.onnx.class_hierarchy", "['torchvision.models.resnet.ResNet', 'torch.nn.modules.container.Sequential', 'torchvision.models.resnet.BasicBlock', 'torch.nn.modules.batchnorm.BatchNorm2d', 'aten._native_batch_norm']"),
            ],
        );
        let scopes = scopes_of(&node);
        assert_eq!(addresses_of(&node), ["layer1", "layer1.0", "layer1.0.bn1"]);
        assert_eq!(scopes[1].class_name.as_deref(), Some("BasicBlock"));
    }

    #[test]
    fn scope_names_are_relative_or_whole() {
        assert_eq!(
            addresses_of(&node("/encoder/layers.0/self_attn/MatMul", &[])),
            ["encoder", "encoder.layers.0", "encoder.layers.0.self_attn"]
        );
        assert_eq!(
            addresses_of(&node("/layer1/layer1.0/conv1/Conv", &[])),
            ["layer1", "layer1.0", "layer1.0.conv1"]
        );
        assert_eq!(addresses_of(&node("Identity_0", &[])), Vec::<String>::new());
        assert_eq!(addresses_of(&node("/self/Add", &[])), ["_self"]);
    }

    #[test]
    fn python_lists_with_quotes_and_escapes() {
        assert_eq!(python_strings(r#"['', "a'b", 'c\'d']"#), ["", "a'b", "c'd"]);
    }
}
