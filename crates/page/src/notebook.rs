//! A drawing as a notebook shows it: the interactive page inside the output cell where
//! scripts run (a trusted notebook, `nbconvert --to html`, VS Code), and a picture where they
//! do not (an untrusted notebook, GitHub's and nbviewer's views). One HTML output holds both:
//! a PNG `<img>` that a sanitizer keeps, and a script that puts the page, in a sandboxed
//! frame, in its place. The page is the same file `-o model.html` writes, so the notebook
//! and the browser run one viewer.

use base64::Engine;
use tl_drawing::{Collapse, DrawError, DrawOptions, Drawing, OutputFormat};
use tl_trace_model::Trace;

use crate::template::{self, escape};
use crate::{build, single_page, svg_of};

/// The most bytes a notebook output may hold (page and picture together): 12 MB. GPT-2
/// small at full detail (every stop and the boxes that open, 2,500 nodes) takes about 4 MB.
pub const OUTPUT_BUDGET: usize = 12 * 1024 * 1024;

/// What the budget keeps for the picture and the viewer; the page's records and states
/// share the rest (its states thinned to fit, as estimated before layout). The picture is
/// there twice (in the HTML in base64, and as `image/png`): 4 MiB covers one of 1.7 MB (the
/// real models' largest, BERT-base's, is 1.6 MB); the viewer's script and style and the
/// page's escaping take about 60 KB.
const PICTURE_AND_VIEWER: usize = 4 * 1024 * 1024;

/// The widest picture, in pixels: about a notebook cell's width on a laptop screen.
const PICTURE_WIDTH: f64 = 1200.0;
/// The tallest picture, in pixels: a long scroll, not an endless one.
const PICTURE_HEIGHT: f64 = 16000.0;
/// Pixels per point at which the drawing's 10 to 14 pt text can still be read.
const LEGIBLE: f64 = 0.8;
/// Pixels per point of the drawing at its natural size (96 dpi).
const NATURAL: f64 = 96.0 / 72.0;

/// One notebook output: its HTML (picture and viewer), the picture alone for frontends that
/// show only images, and what the picture shows.
#[derive(Debug, Clone)]
pub struct NotebookOutput {
    /// The `text/html` output.
    pub html: String,
    /// The `image/png` output (the picture the HTML shows where scripts cannot run).
    pub png: Vec<u8>,
    /// What the picture shows, when it is not the drawing asked for (too large to read as
    /// one picture): said under it.
    pub caption: Option<String>,
}

/// The notebook output of `trace` drawn as `options` say. The viewer opens on that drawing
/// (full detail unless `collapse=` or `depth=` say otherwise, as `draw` draws it); the
/// picture is the most detailed of the page's drawings that can be read at a cell's width.
pub fn notebook(trace: &Trace, options: &DrawOptions) -> Result<NotebookOutput, DrawError> {
    let mut options = options.clone();
    if options.collapse.is_none() && options.depth.is_none() {
        options.collapse = Some(Collapse::None);
    }
    let built = build(trace, &options, Some(OUTPUT_BUDGET - PICTURE_AND_VIEWER))?;
    let page = template::html(&trace.model.class_name, &built.data);
    let sizes = &built.sizes;
    let chosen = picture_state(&built.drawn, sizes);
    let (drawing, _) = &built.drawn[chosen];
    let caption = (chosen != 0).then(|| {
        format!(
            "{}: a folded picture ({} of the drawing's {} nodes, boxes closed), since the whole is too large to read as one picture. Trust the notebook to explore every operation here, or write the page: draw(trace, \"model.html\").",
            trace.model.class_name,
            drawing.styled.nodes.len(),
            built.drawn[0].0.styled.nodes.len()
        )
    });
    let png = picture(drawing, sizes[chosen])?;
    let alt = caption.clone().unwrap_or_else(|| {
        format!(
            "{}: {} nodes",
            trace.model.class_name,
            drawing.styled.nodes.len()
        )
    });
    let html = cell(&page, &png, &alt, caption.as_deref(), sizes[0]);
    Ok(NotebookOutput { html, png, caption })
}

/// The notebook output of one finished drawing (a bundle's): its page and its picture.
pub fn notebook_of_drawing(drawing: &Drawing) -> Result<NotebookOutput, DrawError> {
    let page = single_page(drawing)?;
    let size = svg_size(&svg_of(drawing)?);
    let png = picture(drawing, size)?;
    let alt = format!(
        "{}: {} nodes",
        drawing.styled.name,
        drawing.styled.nodes.len()
    );
    let html = cell(&page, &png, &alt, None, size);
    Ok(NotebookOutput {
        html,
        png,
        caption: None,
    })
}

/// The state to picture: the first (the drawing asked for) when it can be read at a cell's
/// width within the height, else the one with the most nodes that can, else the smallest.
fn picture_state(
    drawn: &[(Drawing, Option<tl_collapse::VisibleGraph>)],
    sizes: &[Option<(f64, f64)>],
) -> usize {
    let legible = |size: &Option<(f64, f64)>| {
        size.is_some_and(|(width, height)| {
            width * LEGIBLE <= PICTURE_WIDTH && height * LEGIBLE <= PICTURE_HEIGHT
        })
    };
    if legible(&sizes[0]) {
        return 0;
    }
    let most_detailed = (0..drawn.len())
        .filter(|&i| legible(&sizes[i]))
        .max_by_key(|&i| (drawn[i].0.styled.nodes.len(), std::cmp::Reverse(i)));
    most_detailed.unwrap_or_else(|| {
        (0..drawn.len())
            .min_by(|&a, &b| {
                let area = |i: usize| sizes[i].map_or(f64::INFINITY, |(w, h)| w * h);
                area(a).total_cmp(&area(b))
            })
            .unwrap_or(0)
    })
}

/// The PNG of `drawing` (`size`: its laid-out size in points) at its natural size, scaled
/// down to the picture's width and height.
fn picture(drawing: &Drawing, size: Option<(f64, f64)>) -> Result<Vec<u8>, DrawError> {
    let scale = size.map_or(NATURAL, |(width, height)| {
        NATURAL
            .min(PICTURE_WIDTH / width.max(1.0))
            .min(PICTURE_HEIGHT / height.max(1.0))
    });
    Ok(drawing
        .render_at(OutputFormat::Png, Some(scale * 72.0))?
        .bytes)
}

/// A Graphviz SVG's size in points: `<svg width="206pt" height="1712pt"`.
pub(crate) fn svg_size(svg: &str) -> Option<(f64, f64)> {
    let open = &svg[svg.find("<svg")?..];
    let open = &open[..open.find('>')?];
    let attribute = |name: &str| -> Option<f64> {
        let start = open.find(&format!(" {name}=\""))? + name.len() + 3;
        let value = &open[start..];
        value[..value.find('"')?]
            .trim_end_matches("pt")
            .parse()
            .ok()
    };
    Some((attribute("width")?, attribute("height")?))
}

/// The output's HTML: the picture, then a script that replaces it with the page in a
/// sandboxed frame of the cell's width and about a screen's height (less for a small
/// drawing). A sanitizer removes the script and keeps the picture.
fn cell(
    page: &str,
    png: &[u8],
    alt: &str,
    caption: Option<&str>,
    size: Option<(f64, f64)>,
) -> String {
    let data = base64::engine::general_purpose::STANDARD.encode(png);
    // Inside `<script>`, `</` would end the element and `<!--` would change how the rest
    // is read: the JSON string spells `<` as `\u003c` (the same text to JavaScript).
    let page = template::script_json(serde_json::to_string(page).unwrap_or_default());
    // The bar and the folds line take about 70 px; a drawing shorter than the screen gets
    // its own height.
    let natural = size.map_or(600.0, |(_, height)| (height * NATURAL + 80.0).max(320.0));
    let caption = caption
        .map(|text| {
            format!(
                "<p style=\"font-size:12px;color:#555\">{}</p>",
                escape(text)
            )
        })
        .unwrap_or_default();
    format!(
        "<div class=\"tl-draw-output\"><img src=\"data:image/png;base64,{data}\" alt=\"{alt}\" style=\"max-width:100%;height:auto\">{caption}<script>\n(function () {{\n  var here = document.currentScript && document.currentScript.parentElement;\n  if (!here) return;\n  var frame = document.createElement('iframe');\n  frame.setAttribute('sandbox', 'allow-scripts');\n  frame.setAttribute('title', {title});\n  frame.className = 'tl-draw-viewer';\n  frame.style.cssText = 'display:block;width:100%;height:min(80vh, 760px, {natural:.0}px);min-height:320px;border:1px solid #ccc;box-sizing:border-box';\n  frame.srcdoc = {page};\n  here.replaceChildren(frame);\n}})();\n</script></div>",
        alt = escape(alt),
        title = template::script_json(serde_json::to_string(&format!("tl-draw viewer: {alt}")).unwrap_or_default()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> Trace {
        let path = format!("{}/../../fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
        Trace::load(path).unwrap()
    }

    #[test]
    fn the_svg_size_is_read_from_the_root_element() {
        let svg = "<?xml ...?>\n<svg width=\"206pt\" height=\"1712pt\"\n viewBox=\"0 0 206 1712\">";
        assert_eq!(svg_size(svg), Some((206.0, 1712.0)));
        assert_eq!(svg_size("<svg>"), None);
    }

    #[test]
    fn a_small_drawing_is_its_own_picture_and_the_viewer_replaces_it() {
        let output = notebook(&fixture("convnet.json"), &DrawOptions::default()).unwrap();
        assert!(output.caption.is_none());
        assert!(output.png.starts_with(b"\x89PNG"));
        let html = &output.html;
        let data = base64::engine::general_purpose::STANDARD.encode(&output.png);
        assert!(html.contains(&format!("<img src=\"data:image/png;base64,{data}\"")));
        assert!(html.contains("sandbox', 'allow-scripts'"));
        // The page inside cannot end the output's script early.
        let script = &html[html.find("<script>").unwrap() + 8..];
        assert_eq!(
            script.matches("</script>").count(),
            1,
            "only the script's own end"
        );
        // It opens at full detail, as draw() draws it (the file page opens on auto).
        let full = tl_drawing::draw(&fixture("convnet.json"), &DrawOptions::default()).unwrap();
        let first = &html[html.find("\\\"count\\\":").unwrap() + 10..];
        let count: usize = first[..first.find(|c: char| !c.is_ascii_digit()).unwrap()]
            .parse()
            .unwrap();
        assert_eq!(count, full.styled.nodes.len());
    }

    #[test]
    fn a_page_holding_comment_and_script_openers_cannot_change_the_outputs_script() {
        let html = cell("<p><!--<script>x</script>--></p>", b"png", "a", None, None);
        let script = &html[html.find("<script>").unwrap() + 8..];
        assert_eq!(script.matches("</script>").count(), 1, "only its own end");
        assert!(
            !script.contains("<!--"),
            "no comment opener in the script's text"
        );
    }

    #[test]
    fn a_drawing_too_large_to_read_is_pictured_folded_and_the_output_fits_its_budget() {
        let trace = fixture("real/gpt2_small.json");
        let output = notebook(&trace, &DrawOptions::default()).unwrap();
        let caption = output
            .caption
            .as_deref()
            .expect("GPT-2 at full detail is too large");
        assert!(caption.contains("folded picture"), "{caption}");
        assert!(
            output.html.len() + output.png.len() <= OUTPUT_BUDGET,
            "{}",
            output.html.len()
        );
        // Legible: the picture is drawn at no less than the legible scale, within its width.
        let width = u32::from_be_bytes(output.png[16..20].try_into().unwrap());
        assert!(f64::from(width) <= PICTURE_WIDTH + 1.0, "{width}");
    }
}
