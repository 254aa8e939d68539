//! cairo's context as a canvas: PNG, SVG, PostScript, and PDF where tl-draw's own writer
//! does not apply (`pdf::writes`).

use std::f64::consts::TAU;

use cairo::{
    Context, FontSlant, FontWeight, Gradient, ImageSurface, LinearGradient, RadialGradient,
};

use crate::canvas::{fit_text, At, Canvas, Linear, Paint, Pen, TextFont, TextPlace};
use crate::paint::{Frame, Rgba};
use crate::xdot::ImagePlacement;

impl Canvas for Context {
    fn move_to(&self, (x, y): At) {
        Context::move_to(self, x, y);
    }

    fn line_to(&self, (x, y): At) {
        Context::line_to(self, x, y);
    }

    fn curve_to(&self, a: At, b: At, c: At) {
        Context::curve_to(self, a.0, a.1, b.0, b.1, c.0, c.1);
    }

    fn close_path(&self) {
        Context::close_path(self);
    }

    fn ellipse(&self, (cx, cy): At, rx: f64, ry: f64) {
        self.save().ok();
        self.translate(cx, cy);
        self.scale(rx, ry);
        self.new_sub_path();
        self.arc(0.0, 0.0, 1.0, 0.0, TAU);
        self.restore().ok();
    }

    fn finish_path(&self, fill: Option<&Paint>, pen: Option<Pen<'_>>) {
        if let Some(fill) = fill {
            set_source(self, fill);
            let _ = self.fill_preserve();
        }
        match pen {
            Some(pen) => {
                self.set_line_width(pen.width);
                self.set_dash(pen.dash, 0.0);
                set_source(self, pen.paint);
                let _ = self.stroke();
            }
            None => self.new_path(),
        }
    }

    fn text(
        &self,
        font: TextFont<'_>,
        text: &str,
        place: TextPlace<'_>,
        paint: &Paint,
    ) -> (f64, f64) {
        match crate::fonts::helvetica(font.bold, font.italic).filter(|_| font.family == "Helvetica")
        {
            Some(face) => self.set_font_face(face),
            None => select_system_font(self, font.family, font.bold, font.italic),
        }
        self.set_font_size(font.size);
        let advance = self.text_extents(text).map(|e| e.x_advance()).ok();
        let (left, squeeze, drawn) = fit_text(advance, place);
        set_source(self, paint);
        self.save().ok();
        self.translate(left, place.anchor.1);
        self.scale(squeeze, 1.0);
        Context::move_to(self, 0.0, 0.0);
        let _ = self.show_text(text);
        self.restore().ok();
        (left, drawn)
    }
}

/// Makes `paint` cairo's source; one that cannot be set leaves the previous source.
fn set_source(context: &Context, paint: &Paint) {
    let with_stops = |gradient: &Gradient, stops: &[(f64, Rgba)]| {
        for (frac, Rgba(r, g, b, a)) in stops {
            gradient.add_color_stop_rgba(*frac, *r, *g, *b, *a);
        }
    };
    let _ = match paint {
        Paint::Solid(Rgba(r, g, b, a)) => {
            context.set_source_rgba(*r, *g, *b, *a);
            Ok(())
        }
        Paint::Linear(Linear { from, to, stops }) => {
            let gradient = LinearGradient::new(from.0, from.1, to.0, to.1);
            with_stops(&gradient, stops);
            context.set_source(&gradient)
        }
        Paint::Radial {
            from,
            from_radius,
            to,
            to_radius,
            stops,
        } => {
            let gradient =
                RadialGradient::new(from.0, from.1, *from_radius, to.0, to.1, *to_radius);
            with_stops(&gradient, stops);
            context.set_source(&gradient)
        }
    };
}

/// Sets `family` as fontconfig resolves it.
fn select_system_font(context: &Context, family: &str, bold: bool, italic: bool) {
    context.select_font_face(
        family,
        if italic {
            FontSlant::Italic
        } else {
            FontSlant::Normal
        },
        if bold {
            FontWeight::Bold
        } else {
            FontWeight::Normal
        },
    );
}

/// Paints a node picture scaled into its rectangle; a picture that cannot be read is left
/// out (the layout kept its room empty).
pub(crate) fn paint_image(context: &Context, frame: Frame, image: &ImagePlacement) {
    let Ok(mut file) = std::fs::File::open(&image.file) else {
        return;
    };
    let Ok(surface) = ImageSurface::create_from_png(&mut file) else {
        return;
    };
    let [x, y, width, height] = image.rect;
    let (left, top) = frame.map([x, y + height]);
    let (scale_x, scale_y) = (
        width / f64::from(surface.width().max(1)),
        height / f64::from(surface.height().max(1)),
    );
    context.save().ok();
    context.translate(left, top);
    context.scale(scale_x, scale_y);
    let _ = context.set_source_surface(&surface, 0.0, 0.0);
    let _ = context.paint();
    context.restore().ok();
}
