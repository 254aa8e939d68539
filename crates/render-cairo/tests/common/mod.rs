//! What the fonts tests share (each is a test binary of its own: registering fonts is
//! process-wide).

use tl_render_cairo::{render, Format, RenderOptions};

/// `dot` laid out by graphviz-pure and painted to PNG.
pub fn png_of(dot: &str) -> Vec<u8> {
    let layout = graphviz_pure::render_dot(dot, "dot", "json")
        .unwrap()
        .into_output();
    let options = RenderOptions {
        xdot_escaped_text: true,
        ..RenderOptions::default()
    };
    render(&layout, Format::Png, &options).unwrap().bytes
}
