//! xdot renderer: port of the xdot half of `plugin/core/gvrender_core_dot.c`. Draw operations
//! are collected per emit state and attached as `_draw_`, `_ldraw_`, `_hdraw_`, `_tdraw_`,
//! `_hldraw_`, `_tldraw_` attributes.

use crate::emit::job::{
    EmitState, Engine, Features, GRADIENT, GVRENDER_DOES_MAPS, GVRENDER_DOES_TARGETS,
    GVRENDER_DOES_TOOLTIPS, GVRENDER_DOES_TRANSFORM, Job, LoadImage, ObjKind, RGRADIENT,
};
use crate::emit::model::TextSpan;
use crate::emit::num::{push_xdot_num, trim_zeros};
use graphviz_pure_core::math;
use graphviz_pure_core::usershape::UserShape;
use graphviz_pure_core::{BoundingBox, Point};
use std::fmt::Write;

/// Index of the buffer an emit state writes to (`xbufs[]`).
fn buf_of(s: EmitState) -> usize {
    match s {
        EmitState::GDraw => 0,
        EmitState::CDraw | EmitState::NDraw | EmitState::EDraw => 1,
        EmitState::TDraw => 2,
        EmitState::HDraw => 3,
        EmitState::GLabel => 4,
        EmitState::CLabel | EmitState::NLabel | EmitState::ELabel => 5,
        EmitState::TLabel => 6,
        EmitState::HLabel => 7,
    }
}

/// What the engine writes one object's operations into (`xbufs[]`): xdot text, as the
/// `xdot` and `json` writers set it on the graph, or (tl-draw's patch) the operations that
/// text reads back as ([`crate::xdot_ops::OpList`]), for the painter. A single point comes
/// with `y` already through `yDir`; lists and gradients with the offset that puts theirs
/// through it.
pub(crate) trait XdotWriter: Default {
    fn is_empty(&self) -> bool;
    /// `c` (pen) or `C` (fill) with a colour.
    fn color(&mut self, fill: bool, color: &str);
    /// `C` with a gradient.
    fn gradient(&mut self, gradient: &Gradient);
    /// `S`.
    fn style(&mut self, style: &str);
    /// `F`.
    fn font(&mut self, size: f64, name: &str);
    /// `t`.
    fn font_flags(&mut self, bits: u32);
    /// `T`.
    fn text(&mut self, at: Point, just: i32, width: f64, text: &str);
    /// `p`, `P`, `b`, `B` or `L`.
    fn points(&mut self, op: char, points: &[Point], y_off: f64);
    /// `e` or `E`: the centre `at` and the radii.
    fn ellipse(&mut self, filled: bool, at: Point, rx: f64, ry: f64);
    /// `I`.
    fn image(&mut self, at: Point, width: f64, height: f64, name: &str);
    /// A label's operations as they are set on the graph (its text's backslashes doubled).
    fn escaped(self) -> Self;
    /// The `xdotversion` value to set on the graph, for a writer whose sets are attributes.
    fn version_attribute(version: &str) -> Option<Self>;
}

/// A gradient fill (`xdot_gradient_fillcolor`): its geometry, `y` not yet through `yDir`,
/// and two stops.
pub(crate) struct Gradient {
    pub shape: GradientShape,
    pub stops: [(f64, [u8; 4]); 2],
    pub y_off: f64,
}

pub(crate) enum GradientShape {
    /// From one point to the other.
    Linear([Point; 2]),
    /// From the inner circle to the outer one.
    Radial {
        inner: Point,
        inner_radius: f64,
        outer: Point,
        outer_radius: f64,
    },
}

/// The text of a colour: `#rrggbb`, with `aa` when not opaque.
pub(crate) fn color_str(rgba: [u8; 4]) -> String {
    if rgba[3] == 0xff {
        format!("#{:02x}{:02x}{:02x}", rgba[0], rgba[1], rgba[2])
    } else {
        format!(
            "#{:02x}{:02x}{:02x}{:02x}",
            rgba[0], rgba[1], rgba[2], rgba[3]
        )
    }
}

/// A gradient stop's position as xdot text writes it: `%.03f`, trailing zeros removed.
pub(crate) fn stop_text(position: f64) -> String {
    trim_zeros(super::emit::num::c_fixed(position, 3))
}

impl XdotWriter for String {
    fn is_empty(&self) -> bool {
        str::is_empty(self)
    }

    fn color(&mut self, fill: bool, color: &str) {
        str_(self, if fill { "C " } else { "c " }, color);
    }

    fn gradient(&mut self, gradient: &Gradient) {
        let y_off = gradient.y_off;
        let mut xb = String::new();
        match gradient.shape {
            GradientShape::Linear([from, to]) => {
                xb.push('[');
                point(&mut xb, from, y_off);
                point(&mut xb, to, y_off);
            }
            GradientShape::Radial {
                inner,
                inner_radius,
                outer,
                outer_radius,
            } => {
                xb.push('(');
                point(&mut xb, inner, y_off);
                push_xdot_num(&mut xb, inner_radius);
                xb.push(' ');
                point(&mut xb, outer, y_off);
                push_xdot_num(&mut xb, outer_radius);
                xb.push(' ');
            }
        }
        xb.push_str("2 ");
        for (position, color) in gradient.stops {
            xb.push_str(&stop_text(position));
            xb.push(' ');
            let cs = color_str(color);
            let _ = write!(
                xb,
                "{} -{cs} ",
                graphviz_pure_core::charset::encode(&cs).len()
            );
        }
        xb.pop();
        xb.push(match gradient.shape {
            GradientShape::Linear(_) => ']',
            GradientShape::Radial { .. } => ')',
        });
        str_(self, "C ", &xb);
    }

    fn style(&mut self, style: &str) {
        str_(self, "S ", style);
    }

    fn font(&mut self, size: f64, name: &str) {
        self.push_str("F ");
        push_xdot_num(self, size);
        self.push(' ');
        str_(self, "", name);
    }

    fn font_flags(&mut self, bits: u32) {
        let _ = write!(self, "t {bits} ");
    }

    fn text(&mut self, at: Point, just: i32, width: f64, text: &str) {
        self.push_str("T ");
        push_xdot_num(self, at.x);
        self.push(' ');
        push_xdot_num(self, at.y);
        self.push(' ');
        let _ = write!(self, "{just} ");
        push_xdot_num(self, width);
        self.push(' ');
        str_(self, "", text);
    }

    fn points(&mut self, op: char, points: &[Point], y_off: f64) {
        let _ = write!(self, "{op} {} ", points.len());
        for p in points {
            point(self, *p, y_off);
        }
    }

    fn ellipse(&mut self, filled: bool, at: Point, rx: f64, ry: f64) {
        self.push_str(if filled { "E " } else { "e " });
        push_xdot_num(self, at.x);
        self.push(' ');
        push_xdot_num(self, at.y);
        self.push(' ');
        push_xdot_num(self, rx);
        self.push(' ');
        push_xdot_num(self, ry);
        self.push(' ');
    }

    fn image(&mut self, at: Point, width: f64, height: f64, name: &str) {
        self.push_str("I ");
        for v in [at.x, at.y, width, height] {
            push_xdot_num(self, v);
            self.push(' ');
        }
        str_(self, "", name);
    }

    fn escaped(self) -> Self {
        self.replace('\\', "\\\\")
    }

    fn version_attribute(version: &str) -> Option<Self> {
        Some(version.to_string())
    }
}

/// A string operand: its length in bytes, `-`, the string.
fn str_(b: &mut String, pfx: &str, s: &str) {
    let _ = write!(
        b,
        "{pfx}{} -{s} ",
        graphviz_pure_core::charset::encode(s).len()
    );
}

/// `xdot_point`: `y` through `yDir` with the offset `attach_attrs_and_arrows` returned.
fn point(buf: &mut String, p: Point, y_off: f64) {
    push_xdot_num(buf, p.x);
    buf.push(' ');
    push_xdot_num(buf, crate::emit::y_dir(p.y, y_off));
    buf.push(' ');
}

pub(crate) struct XdotEngine<W = String> {
    /// The versioned format (`xdot1.2`, `xdot1.4`) this engine renders, if any.
    fixed: Option<&'static str>,
    pub version: u16,
    pub version_s: String,
    bufs: [W; 8],
    penwidth: [f64; 12],
    textflags: [u32; 12],
    /// Attributes to set: object, name, value.
    pub sets: Vec<(ObjKind, &'static str, W)>,
    /// `xd->yOff`: the offset `attach_attrs_and_arrows` returned, for `yDir`.
    y_off: f64,
}

fn version_num(s: &str) -> u16 {
    let mut us: u32 = 0;
    for c in s.bytes().filter(u8::is_ascii_digit) {
        if us > (u32::from(u16::MAX) - u32::from(c - b'0')) / 10 {
            break;
        }
        us = us * 10 + u32::from(c - b'0');
    }
    us as u16
}

impl<W: XdotWriter> XdotEngine<W> {
    /// `xdot_begin_graph` for format `xdot` (`fixed` is `Some("1.2")`/`Some("1.4")` for the
    /// versioned formats).
    pub fn new(xdotversion_attr: Option<&str>, fixed: Option<&str>, y_off: f64) -> Self {
        let (version, version_s) = match fixed {
            Some("1.4") => (14, "1.4".to_string()),
            Some("1.2") => (12, "1.2".to_string()),
            _ => match xdotversion_attr.filter(|s| !s.is_empty()) {
                Some(s) if version_num(s) > 10 => (version_num(s), s.to_string()),
                _ => (17, "1.7".to_string()),
            },
        };
        XdotEngine {
            fixed: match fixed {
                Some("1.4") => Some("xdot1.4"),
                Some("1.2") => Some("xdot1.2"),
                _ => None,
            },
            version,
            version_s,
            bufs: Default::default(),
            penwidth: [1.0; 12],
            textflags: [0; 12],
            sets: Vec::new(),
            y_off,
        }
    }

    fn buf(&mut self, j: &Job) -> &mut W {
        &mut self.bufs[buf_of(j.obj().emit_state)]
    }

    fn pencolor(&mut self, j: &Job) {
        let c = color_str(j.obj().pencolor.rgba());
        self.buf(j).color(false, &c);
    }

    fn fillcolor(&mut self, j: &Job) {
        let c = color_str(j.obj().fillcolor.rgba());
        self.buf(j).color(true, &c);
    }

    fn style(&mut self, j: &Job) {
        let o = j.obj();
        let es = o.emit_state as usize;
        if (o.penwidth - self.penwidth[es]).abs() >= 0.0005 {
            self.penwidth[es] = o.penwidth;
            let s = format!(
                "setlinewidth({})",
                trim_zeros(super::emit::num::c_fixed(o.penwidth, 3))
            );
            self.buf(j).style(&s);
        }
        let Some(raw) = o.rawstyle.as_ref() else {
            return;
        };
        for it in raw {
            if matches!(it.name.as_str(), "filled" | "bold" | "setlinewidth") {
                continue;
            }
            let mut s = it.name.clone();
            if !it.args.is_empty() {
                s.push('(');
                s.push_str(&it.args.join(","));
                s.push(')');
            }
            self.buf(j).style(&s);
        }
    }

    fn gradient_fillcolor(&mut self, j: &Job, filled: i32, a: &[Point]) {
        let o = j.obj();
        if self.version < 14 {
            self.fillcolor(j);
            return;
        }
        let angle = o.gradient_angle as f64 * std::f64::consts::PI / 180.0;
        let shape = if filled == GRADIENT {
            GradientShape::Linear(crate::emit::geom::gradient_points(a, angle, 2))
        } else {
            let g = crate::emit::geom::gradient_points(a, 0.0, 3);
            let r2 = g[1].y;
            let c1 = if o.gradient_angle == 0 {
                g[0]
            } else {
                // C (clang) fuses `G[0] + r2 / 4 * cos/sin(angle)`.
                Point::new(
                    (r2 / 4.0).mul_add(math::cos(angle), g[0].x),
                    (r2 / 4.0).mul_add(math::sin(angle), g[0].y),
                )
            };
            GradientShape::Radial {
                inner: c1,
                inner_radius: r2 / 4.0,
                outer: g[0],
                outer_radius: r2,
            }
        };
        let stops = if o.gradient_frac > 0.0 {
            [
                (o.gradient_frac, o.fillcolor.rgba()),
                (o.gradient_frac, o.stopcolor.rgba()),
            ]
        } else {
            [(0.0, o.fillcolor.rgba()), (1.0, o.stopcolor.rgba())]
        };
        let gradient = Gradient {
            shape,
            stops,
            y_off: self.y_off,
        };
        self.buf(j).gradient(&gradient);
    }

    fn fill(&mut self, j: &Job, filled: i32, a: &[Point]) {
        if filled == GRADIENT || filled == RGRADIENT {
            self.gradient_fillcolor(j, filled, a);
        } else {
            self.fillcolor(j);
        }
    }

    fn take(&mut self, i: usize) -> W {
        std::mem::take(&mut self.bufs[i])
    }

    fn reset(&mut self, states: &[EmitState]) {
        for s in states {
            self.penwidth[*s as usize] = 1.0;
            self.textflags[*s as usize] = 0;
        }
    }
}

impl<W: XdotWriter> Engine for XdotEngine<W> {
    fn render_type(&self) -> &str {
        "xdot"
    }

    /// `core_loadimage_xdot` (`plugin/core/gvrender_core_dot.c`): an `I` operation.
    fn loadimage(&mut self, j: &Job, li: LoadImage, us: &UserShape, b: BoundingBox) {
        if li != LoadImage::Xdot {
            return;
        }
        let at = Point::new(b.ll.x, crate::emit::y_dir(b.ll.y, self.y_off));
        self.buf(j)
            .image(at, b.ur.x - b.ll.x, b.ur.y - b.ll.y, &us.name);
    }

    fn output_langname(&self) -> &str {
        match self.fixed {
            Some(v) => v,
            None => "xdot",
        }
    }

    fn features(&self) -> Features {
        Features {
            flags: GVRENDER_DOES_TRANSFORM
                | GVRENDER_DOES_MAPS
                | GVRENDER_DOES_TARGETS
                | GVRENDER_DOES_TOOLTIPS,
            default_pad: 0.0,
            knowncolors: &[],
            rgba: true,
            default_dpi: 72.0,
        }
    }

    fn end_node(&mut self, j: &Job) {
        let kind = j.obj().kind;
        if !self.bufs[1].is_empty() {
            let v = self.take(1);
            self.sets.push((kind, "_draw_", v));
        }
        if !self.bufs[5].is_empty() {
            let v = self.take(5).escaped();
            self.sets.push((kind, "_ldraw_", v));
        }
        self.reset(&[EmitState::NDraw, EmitState::NLabel]);
    }

    fn end_edge(&mut self, j: &Job) {
        let kind = j.obj().kind;
        for (i, name, esc) in [
            (1, "_draw_", false),
            (2, "_tdraw_", false),
            (3, "_hdraw_", false),
            (5, "_ldraw_", true),
            (6, "_tldraw_", false),
            (7, "_hldraw_", false),
        ] {
            if !self.bufs[i].is_empty() {
                let v = self.take(i);
                self.sets
                    .push((kind, name, if esc { v.escaped() } else { v }));
            }
        }
        self.reset(&[
            EmitState::EDraw,
            EmitState::ELabel,
            EmitState::TDraw,
            EmitState::HDraw,
            EmitState::TLabel,
            EmitState::HLabel,
        ]);
    }

    fn end_cluster(&mut self, j: &Job) {
        let kind = j.obj().kind;
        let v = self.take(1);
        self.sets.push((kind, "_draw_", v));
        if let ObjKind::Cluster(c) = kind
            && j.m.clusters[c].label.is_some()
        {
            let v = self.take(5);
            self.sets.push((kind, "_ldraw_", v));
        }
        self.reset(&[EmitState::CDraw, EmitState::CLabel]);
    }

    fn end_graph(&mut self, j: &Job) {
        if !self.bufs[0].is_empty() {
            let v = self.take(0);
            self.sets.push((ObjKind::Root, "_draw_", v));
        }
        if j.m.label.is_some() {
            let v = self.take(4).escaped();
            self.sets.push((ObjKind::Root, "_ldraw_", v));
        }
        if let Some(version) = W::version_attribute(&self.version_s) {
            self.sets.push((ObjKind::Root, "xdotversion", version));
        }
    }

    fn textspan(&mut self, j: &Job, mut p: Point, span: &TextSpan) {
        let es = j.obj().emit_state as usize;
        self.buf(j).font(span.font.size, &span.font.name);
        self.pencolor(j);
        let jst = match span.just {
            'l' => -1,
            'r' => 1,
            _ => 0,
        };
        let masks = [0x1Fu32, 0x3F, 0x7F];
        if self.version >= 15 && usize::from(self.version - 15) < masks.len() {
            let bits = u32::from(span.font.flags) & masks[usize::from(self.version - 15)];
            if self.textflags[es] != bits {
                self.buf(j).font_flags(bits);
                self.textflags[es] = bits;
            }
        }
        p.y += span.yoffset_centerline;
        let at = Point::new(p.x, crate::emit::y_dir(p.y, self.y_off));
        self.buf(j).text(at, jst, span.width, &span.str);
    }

    fn ellipse(&mut self, j: &Job, a: [Point; 2], filled: i32) {
        self.style(j);
        self.pencolor(j);
        if filled != 0 {
            self.fill(j, filled, &a);
        }
        let at = Point::new(a[0].x, crate::emit::y_dir(a[0].y, self.y_off));
        self.buf(j)
            .ellipse(filled != 0, at, a[1].x - a[0].x, a[1].y - a[0].y);
    }

    fn bezier(&mut self, j: &Job, a: &[Point], filled: i32) {
        self.style(j);
        self.pencolor(j);
        let y_off = self.y_off;
        if filled != 0 {
            self.fill(j, filled, a);
            self.buf(j).points('b', a, y_off);
        } else {
            self.buf(j).points('B', a, y_off);
        }
    }

    fn polygon(&mut self, j: &Job, a: &[Point], filled: i32) {
        self.style(j);
        self.pencolor(j);
        let y_off = self.y_off;
        if filled != 0 {
            self.fill(j, filled, a);
            self.buf(j).points('P', a, y_off);
        } else {
            self.buf(j).points('p', a, y_off);
        }
    }

    fn polyline(&mut self, j: &Job, a: &[Point]) {
        self.style(j);
        self.pencolor(j);
        let y_off = self.y_off;
        self.buf(j).points('L', a, y_off);
    }
}
