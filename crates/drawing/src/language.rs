//! Messages in their reader's language. A stage's error names its remedies in both of the
//! program's spellings (`collapse="auto" (--collapse auto)`), since the stage does not know
//! who called it; [`DrawError::message_in`] keeps the one its reader writes, and puts the
//! Python spelling where a remedy exists only on the command line.

use crate::DrawError;

/// Who reads a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Language {
    /// Options are flags: `--collapse auto`, `--force`.
    CommandLine,
    /// Options are keywords: `collapse="auto"`, `force=True`.
    Python,
}

impl Language {
    /// The keyword `name` as this language writes it: `--name` or `name=`.
    pub fn spell(self, name: &str) -> String {
        match self {
            Language::CommandLine => format!("--{name}"),
            Language::Python => format!("{name}="),
        }
    }
}

/// Each remedy as the stages write it, then as the command line and Python say it. Every
/// row is checked against the message that holds it (`tests::every_phrasing_is_in_use`).
const PHRASINGS: &[(&str, &str, &str)] = &[
    (
        "collapse=\"auto\" (--collapse auto)",
        "--collapse auto",
        "collapse=\"auto\"",
    ),
    ("depth= (--depth 2)", "--depth 2", "depth=2"),
    ("depth= (--depth 1)", "--depth 1", "depth=1"),
    (
        "module= (--module <address>)",
        "--module <address>",
        "module=\"<address>\"",
    ),
    ("with --force", "with --force", "with force=True"),
    (
        "(--layout-engine auto, the default)",
        "(--layout-engine auto, the default)",
        "(layout_engine=\"auto\", the default)",
    ),
    (
        "try another engine (--layout-engine)",
        "try another engine (--layout-engine)",
        "try another engine (layout_engine=\"embedded\", \"layered\" or \"dot\")",
    ),
    (
        "(--layout-engine layered, or auto, the default)",
        "(--layout-engine layered, or auto, the default)",
        "(layout_engine=\"layered\", or \"auto\", the default)",
    ),
    ("(max_nodes=, --max-nodes)", "(--max-nodes)", "(max_nodes=)"),
    (
        "(`tl-draw check` lists every module)",
        "(`tl-draw check` lists every module)",
        "(`[m.address for m in trace.modules]` lists every module)",
    ),
    (
        "raise the limit (--max-trace-bytes)",
        "raise the limit (--max-trace-bytes)",
        "load it yourself and draw the document (tl_draw.draw(json.load(open(path)), ...))",
    ),
    (
        ", or a closure from Rust",
        "",
        ", or a function of the node (color_by=lambda node: ...)",
    ),
];

impl DrawError {
    /// The message as `language` writes options (the `Display` form names both spellings
    /// where a stage gave both).
    pub fn message_in(&self, language: Language) -> String {
        in_language(&self.to_string(), language)
    }
}

/// `message` with its remedies as `language` writes them.
pub fn in_language(message: &str, language: Language) -> String {
    PHRASINGS.iter().fold(
        message.to_owned(),
        |text, (written, command_line, python)| {
            let said = match language {
                Language::CommandLine => command_line,
                Language::Python => python,
            };
            text.replace(written, said)
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use tl_layout::LayoutError;

    /// Messages of the stages that name remedies both ways.
    fn bilingual_messages() -> Vec<String> {
        let too_large = LayoutError::TooLarge {
            nodes: 9_000,
            limit: 5_000,
        };
        let crossings = LayoutError::TooCostly {
            nodes: 900,
            virtual_nodes: 90_000,
            limit: 40_000,
        };
        let hub = LayoutError::HubTooHeavy {
            hub: "`tril_1_2`".to_owned(),
            arrows: 148,
            load: 3_000_000,
            limit: 2_000_000,
        };
        let missing = LayoutError::GraphvizUnavailable;
        let failed = LayoutError::Failed {
            engine: "embedded",
            detail: "trouble".to_owned(),
        };
        let not_found = tl_collapse::VisibilityError::FocusNotFound(
            "blocks.99".to_owned(),
            "blocks.9".to_owned(),
        );
        let too_big = tl_trace_model::TraceError::TooLarge {
            path: "huge.json".into(),
            bytes: 2 << 30,
            limit: 1 << 30,
        };
        let source = tl_style::encoding::EncodingError::SourceInvalid {
            channel: "color_by",
            source_name: "nope".to_owned(),
            dims: "",
        };
        vec![
            too_large.to_string(),
            crossings.to_string(),
            hub.to_string(),
            missing.to_string(),
            failed.to_string(),
            not_found.to_string(),
            too_big.to_string(),
            source.to_string(),
        ]
    }

    #[test]
    fn every_phrasing_is_in_use() {
        let messages = bilingual_messages().join("\n");
        for (written, _, _) in PHRASINGS {
            assert!(messages.contains(written), "no message says {written:?}");
        }
    }

    #[test]
    fn python_readers_see_no_flag_and_command_line_readers_no_keyword() {
        for message in bilingual_messages() {
            let python = in_language(&message, Language::Python);
            assert!(!python.contains("--"), "{python}");
            let command_line = in_language(&message, Language::CommandLine);
            for keyword in ["collapse=", "depth=", "module=", "force=", "closure"] {
                assert!(!command_line.contains(keyword), "{command_line}");
            }
        }
        let python = in_language(&bilingual_messages()[0], Language::Python);
        assert!(python.contains("collapse=\"auto\", depth=2, or focus one module with module=\"<address>\"; or lift the limit with force=True"), "{python}");
    }
}
