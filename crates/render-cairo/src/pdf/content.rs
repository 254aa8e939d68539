//! The page's content stream, written as the painter paints: a canvas that writes PDF
//! operators. Colours, alphas, line widths and dashes are written only when they change;
//! each path is held until it is painted, since PDF sets colours before a path, not between
//! its construction and its painting.

use std::cell::RefCell;

use super::glyphs::GlyphSets;
use crate::canvas::{fit_text, At, Canvas, Linear, Paint, Pen, TextFont, TextPlace};
use crate::paint::Rgba;

/// The magic number of a circle's quarter drawn as one cubic Bézier curve.
const KAPPA: f64 = 0.552_284_749_830_793_4;

/// A canvas whose painting is the page's PDF content stream.
pub(crate) struct PdfCanvas {
    state: RefCell<Written>,
}

/// What has been written, and the graphics state it leaves.
struct Written {
    content: Vec<u8>,
    path: Vec<u8>,
    fill: Option<[u16; 3]>,
    stroke: Option<[u16; 3]>,
    /// The fill and stroke alphas in effect, as indices into `alphas`.
    fill_alpha: Option<usize>,
    stroke_alpha: Option<usize>,
    /// Every alpha used, in order of first use: each is an `ExtGState` of the page.
    alphas: Vec<u16>,
    line_width: Option<f64>,
    dash: Vec<f64>,
    /// Every linear gradient filled, in order: `/G{index}` paints `gradients[index]`.
    gradients: Vec<Linear>,
    glyphs: GlyphSets,
    /// The glyphs of the text being set (a buffer kept from text to text).
    cids: Vec<u16>,
}

/// The content stream painted, and what its resources must hold.
pub(crate) struct Painted {
    pub content: Vec<u8>,
    /// Alpha values in thousandths; `/A{index}` sets the fill alpha and `/a{index}` the
    /// stroke alpha of `alphas[index]`.
    pub alphas: Vec<u16>,
    pub gradients: Vec<Linear>,
    pub glyphs: GlyphSets,
}

impl PdfCanvas {
    /// A canvas for a page `height` points high in page units of `scale` points (y down).
    pub(crate) fn new(glyphs: GlyphSets, scale: f64, height: f64) -> PdfCanvas {
        let mut content = Vec::with_capacity(1 << 16);
        // PDF's y axis points up: flip it, so the painter's page coordinates apply. The
        // scale to a millionth: a thousandth's error would drift a 14,400-point page by 15.
        let matrix = format!("{scale:.6} 0 0 {:.6} 0 ", -scale);
        content.extend_from_slice(matrix.as_bytes());
        push_number(&mut content, height);
        content.extend_from_slice(b" cm\n");
        PdfCanvas {
            state: RefCell::new(Written {
                content,
                path: Vec::new(),
                fill: None,
                stroke: None,
                fill_alpha: None,
                stroke_alpha: None,
                alphas: Vec::new(),
                line_width: None,
                dash: Vec::new(),
                gradients: Vec::new(),
                glyphs,
                cids: Vec::new(),
            }),
        }
    }

    /// The content stream and what it uses.
    pub(crate) fn finish(self) -> Painted {
        let written = self.state.into_inner();
        Painted {
            content: written.content,
            alphas: written.alphas,
            gradients: written.gradients,
            glyphs: written.glyphs,
        }
    }

    fn path_op(&self, points: &[At], op: &[u8]) {
        let mut written = self.state.borrow_mut();
        let path = &mut written.path;
        for &(x, y) in points {
            push_number(path, x);
            path.push(b' ');
            push_number(path, y);
            path.push(b' ');
        }
        path.extend_from_slice(op);
        path.push(b'\n');
    }
}

impl Written {
    fn set_color(&mut self, paint: &Paint, stroking: bool) {
        let Rgba(r, g, b, a) = solid(paint);
        self.set_alpha(a, stroking);
        // Thousandths, as numbers are written: enough to give back every 8-bit channel.
        let rgb = [r, g, b].map(|c| (c.clamp(0.0, 1.0) * 1000.0).round() as u16);
        let (current, op) = if stroking {
            (&mut self.stroke, &b" RG\n"[..])
        } else {
            (&mut self.fill, &b" rg\n"[..])
        };
        if *current != Some(rgb) {
            *current = Some(rgb);
            for (i, channel) in rgb.iter().enumerate() {
                if i > 0 {
                    self.content.push(b' ');
                }
                push_number(&mut self.content, f64::from(*channel) / 1000.0);
            }
            self.content.extend_from_slice(op);
        }
    }

    fn set_alpha(&mut self, alpha: f64, stroking: bool) {
        let alpha = (alpha.clamp(0.0, 1.0) * 1000.0).round() as u16;
        let index = match self.alphas.iter().position(|&known| known == alpha) {
            Some(index) => index,
            None => {
                self.alphas.push(alpha);
                self.alphas.len() - 1
            }
        };
        let (current, prefix) = if stroking {
            (&mut self.stroke_alpha, b'a')
        } else {
            (&mut self.fill_alpha, b'A')
        };
        if *current != Some(index) {
            *current = Some(index);
            self.content.push(b'/');
            self.content.push(prefix);
            push_integer(&mut self.content, index as u64);
            self.content.extend_from_slice(b" gs\n");
        }
    }

    /// Paints `gradient` inside the current path (kept for an outline after it), opaque.
    fn fill_with_gradient(&mut self, gradient: &Linear) {
        self.set_alpha(1.0, false);
        // One shading per fill: each runs across its own shape (its colours are shared).
        let index = self.gradients.len();
        self.gradients.push(gradient.clone());
        self.content.extend_from_slice(b"q\n");
        self.content.extend_from_slice(&self.path);
        self.content.extend_from_slice(b"W n /G");
        push_integer(&mut self.content, index as u64);
        self.content.extend_from_slice(b" sh Q\n");
    }

    fn set_pen(&mut self, pen: Pen<'_>) {
        self.set_color(pen.paint, true);
        if self.line_width != Some(pen.width) {
            self.line_width = Some(pen.width);
            push_number(&mut self.content, pen.width);
            self.content.extend_from_slice(b" w\n");
        }
        if self.dash != pen.dash {
            self.dash = pen.dash.to_vec();
            self.content.push(b'[');
            for (i, length) in pen.dash.iter().enumerate() {
                if i > 0 {
                    self.content.push(b' ');
                }
                push_number(&mut self.content, *length);
            }
            self.content.extend_from_slice(b"] 0 d\n");
        }
    }
}

impl Canvas for PdfCanvas {
    fn move_to(&self, at: At) {
        self.path_op(&[at], b"m");
    }

    fn line_to(&self, at: At) {
        self.path_op(&[at], b"l");
    }

    fn curve_to(&self, a: At, b: At, c: At) {
        self.path_op(&[a, b, c], b"c");
    }

    fn close_path(&self) {
        self.path_op(&[], b"h");
    }

    fn ellipse(&self, (cx, cy): At, rx: f64, ry: f64) {
        let (kx, ky) = (KAPPA * rx, KAPPA * ry);
        self.move_to((cx + rx, cy));
        self.curve_to((cx + rx, cy + ky), (cx + kx, cy + ry), (cx, cy + ry));
        self.curve_to((cx - kx, cy + ry), (cx - rx, cy + ky), (cx - rx, cy));
        self.curve_to((cx - rx, cy - ky), (cx - kx, cy - ry), (cx, cy - ry));
        self.curve_to((cx + kx, cy - ry), (cx + rx, cy - ky), (cx + rx, cy));
        self.close_path();
    }

    fn finish_path(&self, fill: Option<&Paint>, pen: Option<Pen<'_>>) {
        let mut written = self.state.borrow_mut();
        let fill = match fill {
            Some(Paint::Linear(gradient)) => {
                written.fill_with_gradient(gradient);
                // Filled already; the outline follows.
                None
            }
            solid => solid,
        };
        let op: &[u8] = match (fill, pen) {
            (None, None) => {
                written.path.clear();
                return;
            }
            (Some(_), None) => b"f\n",
            (None, Some(_)) => b"S\n",
            (Some(_), Some(_)) => b"B\n",
        };
        if let Some(fill) = fill {
            written.set_color(fill, false);
        }
        if let Some(pen) = pen {
            written.set_pen(pen);
        }
        let Written { content, path, .. } = &mut *written;
        content.append(path);
        content.extend_from_slice(op);
    }

    fn text(
        &self,
        font: TextFont<'_>,
        text: &str,
        place: TextPlace<'_>,
        paint: &Paint,
    ) -> (f64, f64) {
        let mut borrowed = self.state.borrow_mut();
        let written = &mut *borrowed;
        let face = crate::fonts::face_index(font.bold, font.italic);
        let advance = written.glyphs.shape(face, text, &mut written.cids) * font.size;
        let (left, squeeze, drawn) = fit_text(Some(advance), place);
        written.set_color(paint, false);
        let content = &mut written.content;
        content.extend_from_slice(b"BT /F");
        push_integer(content, face as u64);
        content.push(b' ');
        push_number(content, font.size);
        content.extend_from_slice(b" Tf ");
        for value in [squeeze, 0.0, 0.0, -1.0, left, place.anchor.1] {
            push_number(content, value);
            content.push(b' ');
        }
        // Two bytes a glyph as a literal string: half the size of hex, which a text-heavy
        // drawing's content stream feels even compressed.
        content.extend_from_slice(b"Tm (");
        for byte in written.cids.iter().flat_map(|cid| cid.to_be_bytes()) {
            match byte {
                b'(' | b')' | b'\\' => content.extend_from_slice(&[b'\\', byte]),
                // A bare line end in a string reads as a newline byte: escape both.
                b'\r' => content.extend_from_slice(b"\\r"),
                b'\n' => content.extend_from_slice(b"\\n"),
                _ => content.push(byte),
            }
        }
        content.extend_from_slice(b") Tj ET\n");
        (left, drawn)
    }
}

/// The colour of `paint`; a gradient by its first stop (linear gradients fill through
/// `fill_with_gradient`, and `pdf::writes` leaves radial ones to cairo).
fn solid(paint: &Paint) -> Rgba {
    match paint {
        Paint::Solid(rgba) => *rgba,
        Paint::Linear(Linear { stops, .. }) | Paint::Radial { stops, .. } => stops
            .first()
            .map_or(Rgba(0.0, 0.0, 0.0, 1.0), |(_, rgba)| *rgba),
    }
}

/// Writes `value` to three decimals (a thousandth of a point), without an exponent, which
/// PDF does not read; a value that is not finite as 0.
pub(crate) fn push_number(out: &mut Vec<u8>, value: f64) {
    let thousandths = if value.is_finite() {
        (value * 1000.0).round()
    } else {
        0.0
    };
    // Past 2^53 thousandths a page has long been refused; clamp rather than wrap.
    let thousandths = thousandths.clamp(-9.0e15, 9.0e15) as i64;
    if thousandths < 0 {
        out.push(b'-');
    }
    let magnitude = thousandths.unsigned_abs();
    push_integer(out, magnitude / 1000);
    let mut fraction = magnitude % 1000;
    if fraction != 0 {
        out.push(b'.');
        let mut digits = 3;
        while fraction % 10 == 0 {
            fraction /= 10;
            digits -= 1;
        }
        let text = [
            b'0' + (fraction / 100 % 10) as u8,
            b'0' + (fraction / 10 % 10) as u8,
            b'0' + (fraction % 10) as u8,
        ];
        out.extend_from_slice(&text[3 - digits..]);
    }
}

/// Writes `value` in decimal.
pub(crate) fn push_integer(out: &mut Vec<u8>, mut value: u64) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[start..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(value: f64) -> String {
        let mut out = Vec::new();
        push_number(&mut out, value);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn numbers_are_written_to_a_thousandth_without_exponents() {
        assert_eq!(number(0.0), "0");
        assert_eq!(number(12.5), "12.5");
        assert_eq!(number(-0.0004), "0");
        assert_eq!(number(-3.25), "-3.25");
        assert_eq!(number(0.05), "0.05");
        assert_eq!(number(1.0e-9), "0");
        assert_eq!(number(123_456.789), "123456.789");
        assert_eq!(number(2.0 / 3.0), "0.667");
        assert_eq!(number(f64::NAN), "0");
        assert_eq!(number(1.0e300), "9000000000000");
    }
}
