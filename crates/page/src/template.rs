//! The HTML file: the viewer's style and script and the data, inlined into one page that
//! needs nothing else.

use base64::Engine;
use serde_json::Value;

const VIEWER_JS: &str = include_str!("assets/viewer.js");
const VIEWER_CSS: &str = include_str!("assets/viewer.css");
const TEMPLATE: &str = include_str!("assets/page.html");

/// `text` gzip-compressed and base64-encoded: the viewer unpacks it with the browser's own
/// `DecompressionStream` (drawings are SVG text, which packs about 6 to 1 at the fast level
/// a page is packed at).
pub(crate) fn packed(text: &str) -> Result<String, tl_drawing::DrawError> {
    Ok(base64(&tl_drawing::Gzipped::fast().whole(text.as_bytes())?))
}

/// `bytes` base64-encoded, as the page carries compressed data.
pub(crate) fn base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// The page titled `title` showing `data`.
pub(crate) fn html(title: &str, data: &Value) -> String {
    let title = escape(&tl_style::format::capped(
        &tl_style::format::visible_controls(title),
    ));
    let data = script_json(data.to_string());
    // The viewer is a constant: its hash is computed once per process, not per page.
    static SCRIPT_HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let script_hash = SCRIPT_HASH.get_or_init(|| format!("'sha256-{}'", sha256_base64(VIEWER_JS)));
    expand(TEMPLATE, |name| match name {
        "title" => Some(&title),
        "style" => Some(VIEWER_CSS),
        "viewer" => Some(VIEWER_JS),
        "data" => Some(&data),
        "script_hash" => Some(script_hash.as_str()),
        _ => None,
    })
}

/// `template` with each `{{name}}` replaced by `value(name)`, in one pass over the
/// template: what a value holds (a model's class name may hold `{{data}}`) is never read
/// as template syntax.
fn expand<'a>(template: &str, value: impl Fn(&str) -> Option<&'a str>) -> String {
    let mut page = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        let Some(length) = rest[start + 2..].find("}}") else {
            break;
        };
        let name = &rest[start + 2..start + 2 + length];
        page.push_str(&rest[..start]);
        match value(name) {
            Some(text) => page.push_str(text),
            None => page.push_str(&rest[start..start + 2 + length + 2]),
        }
        rest = &rest[start + 2 + length + 2..];
    }
    page.push_str(rest);
    page
}

/// JSON text made safe to stand inside a `<script>` element: `<`, `>` and `&` written as
/// `\u003c`, `\u003e`, `\u0026` (the same string to JSON and JavaScript), so that nothing a
/// trace holds can close the element (`</script>`) or open a comment (`<!--`) that would
/// swallow the script after it. Serialized JSON holds those characters only in strings.
pub(crate) fn script_json(json: String) -> String {
    if !json.contains(['<', '>', '&']) {
        return json;
    }
    let mut safe = String::with_capacity(json.len() + 16);
    for ch in json.chars() {
        match ch {
            '<' => safe.push_str("\\u003c"),
            '>' => safe.push_str("\\u003e"),
            '&' => safe.push_str("\\u0026"),
            _ => safe.push(ch),
        }
    }
    safe
}

/// The base64 SHA-256 of `script`, as a Content-Security-Policy source names it.
fn sha256_base64(script: &str) -> String {
    use sha2::Digest;
    base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(script.as_bytes()))
}

/// Text for HTML content and attributes.
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text between `<script type="application/json" id="tl-data">` and its end.
    fn data_script(page: &str) -> &str {
        let script = page.split("id=\"tl-data\">").nth(1).unwrap();
        &script[..script.find("</script>").unwrap()]
    }

    #[test]
    fn trace_text_cannot_end_the_script_or_the_title() {
        let name = "</script><script>alert(1)</script>";
        let data = serde_json::json!({ "name": name });
        let page = html("<b>&", &data);
        assert!(page.contains("<title>tl-draw: &lt;b&gt;&amp;</title>"));
        let body = data_script(&page);
        assert!(!body.contains('<') && !body.contains('>'), "{body}");
        let read: Value = serde_json::from_str(body).unwrap();
        assert_eq!(read["name"], name);
    }

    #[test]
    fn a_comment_opened_in_the_data_cannot_swallow_the_viewer() {
        let name = "<!--<script>";
        let page = html(name, &serde_json::json!({ "module": name }));
        let body = data_script(&page);
        assert!(!body.contains("<!--"), "{body}");
        assert_eq!(serde_json::from_str::<Value>(body).unwrap()["module"], name);
        // The viewer's script follows, whole.
        assert!(page.contains(&format!("<script>{VIEWER_JS}</script>")));
    }

    #[test]
    fn template_syntax_in_a_name_is_text() {
        let data = serde_json::json!({ "class": "{{data}} {{viewer}} {{title}}", "pad": "x".repeat(10_000) });
        let page = html("{{data}}{{style}}", &data);
        assert!(page.contains("<title>tl-draw: {{data}}{{style}}</title>"));
        // The data and the viewer appear once each: the page grows with the trace, no more.
        assert_eq!(page.matches(&"x".repeat(10_000)).count(), 1);
        assert_eq!(
            page.matches("const data =").count(),
            VIEWER_JS.matches("const data =").count()
        );
        assert!(page.len() < VIEWER_JS.len() + VIEWER_CSS.len() + TEMPLATE.len() + 11_000);
    }

    #[test]
    fn a_long_or_hidden_title_is_cut_and_spelled_visibly() {
        let page = html(
            &format!("\u{202e}{}", "n".repeat(1_000_000)),
            &serde_json::json!({}),
        );
        assert!(page.len() < 200_000, "{}", page.len());
        assert!(page.contains("<title>tl-draw: \\u202enn"));
    }

    #[test]
    fn only_the_viewer_script_may_run() {
        let page = html("m", &serde_json::json!({}));
        let policy = format!("script-src 'sha256-{}'", sha256_base64(VIEWER_JS));
        assert!(page.contains(&policy), "{policy}");
        assert!(!page.contains("script-src 'unsafe-inline'"));
    }

    #[test]
    fn the_page_asks_for_nothing_from_the_network() {
        let page = html("m", &serde_json::json!({}));
        // The policy forbids any request; nothing in the page tries one either.
        assert!(page.contains("content=\"default-src 'none'; script-src 'sha256-"));
        assert!(!TEMPLATE.contains(" src=") && !TEMPLATE.contains("<link"));
        for script in [VIEWER_JS] {
            for call in [
                "fetch(",
                "XMLHttpRequest",
                "import(",
                "WebSocket",
                "sendBeacon",
            ] {
                assert!(!script.contains(call), "{call}");
            }
        }
    }
}
