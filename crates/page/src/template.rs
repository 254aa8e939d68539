//! The HTML file: the viewer's style and script and the data, inlined into one page that
//! needs nothing else.

use base64::Engine;
use serde_json::Value;

const VIEWER_JS: &str = include_str!("assets/viewer.js");
const VIEWER_CSS: &str = include_str!("assets/viewer.css");
const TEMPLATE: &str = include_str!("assets/page.html");

/// `text` gzip-compressed and base64-encoded: the viewer unpacks it with the browser's own
/// `DecompressionStream` (drawings are SVG text, which packs about 7 to 1).
pub(crate) fn packed(text: &str) -> Result<String, tl_drawing::DrawError> {
    let bytes = tl_drawing::gzip(text.as_bytes())?;
    Ok(base64::engine::general_purpose::STANDARD.encode(bytes))
}

/// The page titled `title` showing `data`.
pub(crate) fn html(title: &str, data: &Value) -> String {
    // Inside `<script>`, `</` would end the element: JSON may write it as `<\/`.
    let data = data.to_string().replace("</", "<\\/");
    TEMPLATE
        .replace("{{title}}", &escape(title))
        .replace("{{style}}", VIEWER_CSS)
        .replace("{{viewer}}", VIEWER_JS)
        .replace("{{data}}", &data)
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

    #[test]
    fn trace_text_cannot_end_the_script_or_the_title() {
        let data = serde_json::json!({ "name": "</script><script>alert(1)</script>" });
        let page = html("<b>&", &data);
        assert!(page.contains("<title>tl-draw: &lt;b&gt;&amp;</title>"));
        let script = page.split("id=\"tl-data\"").nth(1).unwrap();
        let body = &script[..script.find("</script>").unwrap()];
        assert!(body.contains("<\\/script>"));
    }

    #[test]
    fn the_page_asks_for_nothing_from_the_network() {
        let page = html("m", &serde_json::json!({}));
        // The policy forbids any request; nothing in the page tries one either.
        assert!(page.contains("content=\"default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\""));
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
