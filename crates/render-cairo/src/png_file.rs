//! PNG files from cairo's pixels, encoded by the `png` crate at zlib level 1. cairo's own
//! writer (zlib at its default level) was 81% of a full-detail GPT-2 small PNG run
//! (docs/performance.md). Rows are converted one at a time, so the only image-sized
//! buffer is cairo's surface.

use std::io::Write;

use cairo::ImageSurface;

use crate::RenderError;

/// The surface's pixels as a PNG file: RGB when every pixel is opaque (a drawing on its
/// page colour), RGBA otherwise, 8 bits a channel.
pub(crate) fn encode(surface: &mut ImageSurface) -> Result<Vec<u8>, RenderError> {
    surface.flush();
    let (width, height) = (surface.width() as usize, surface.height() as usize);
    let stride = surface.stride() as usize;
    let data = surface.data().map_err(png_error)?;
    let pixel = |row: &[u8], x: usize| {
        // ARGB32: one native-endian u32 a pixel, alpha in the high byte, premultiplied.
        u32::from_ne_bytes([row[4 * x], row[4 * x + 1], row[4 * x + 2], row[4 * x + 3]])
    };
    let rows = || (0..height).map(|y| &data[y * stride..y * stride + 4 * width]);
    let opaque = rows().all(|row| (0..width).all(|x| pixel(row, x) >> 24 == 0xff));
    let channels = if opaque { 3 } else { 4 };

    let mut bytes = Vec::with_capacity(width * height / 4 + 1024);
    let mut encoder = png::Encoder::new(&mut bytes, width as u32, height as u32);
    encoder.set_color(if opaque {
        png::ColorType::Rgb
    } else {
        png::ColorType::Rgba
    });
    encoder.set_depth(png::BitDepth::Eight);
    // zlib level 1 (miniz_oxide): measured on GPT-2 small at full detail (73,000 px), the
    // whole run took 1.65 s with cairo's writer, 0.50 s with this (4.2 MB instead of 3.8 MB),
    // 0.48 s with fdeflate (5.3 MB) and 0.87 s at level 6 (3.1 MB).
    encoder.set_deflate_compression(png::DeflateCompression::Level(1));
    encoder.set_filter(png::Filter::Adaptive);
    let mut writer = encoder.write_header().map_err(png_error)?;
    let mut stream = writer.stream_writer().map_err(png_error)?;
    let mut line = vec![0u8; width * channels];
    for row in rows() {
        for (x, out) in line.chunks_exact_mut(channels).enumerate() {
            let argb = pixel(row, x);
            let alpha = argb >> 24;
            let [r, g, b] = [16, 8, 0].map(|shift| unpremultiply((argb >> shift) & 0xff, alpha));
            out[..3].copy_from_slice(&[r, g, b]);
            if !opaque {
                out[3] = alpha as u8;
            }
        }
        stream.write_all(&line).map_err(png_error)?;
    }
    stream.finish().map_err(png_error)?;
    drop(writer);
    Ok(bytes)
}

/// A premultiplied channel back to its straight value, rounded as cairo's writer does.
fn unpremultiply(channel: u32, alpha: u32) -> u8 {
    match alpha {
        0 => 0,
        255 => channel as u8,
        _ => ((channel * 255 + alpha / 2) / alpha).min(255) as u8,
    }
}

fn png_error(error: impl std::fmt::Display) -> RenderError {
    RenderError::Png(error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(bytes: &[u8]) -> (png::OutputInfo, Vec<u8>) {
        let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
            .read_info()
            .unwrap();
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut pixels).unwrap();
        pixels.truncate(info.buffer_size());
        (info, pixels)
    }

    #[test]
    fn an_opaque_drawing_is_rgb_and_keeps_every_pixel() {
        let mut surface = ImageSurface::create(cairo::Format::ARgb32, 3, 2).unwrap();
        {
            let context = cairo::Context::new(&surface).unwrap();
            context.set_source_rgb(1.0, 1.0, 1.0);
            context.paint().unwrap();
            context.set_source_rgb(1.0, 0.0, 0.0);
            context.rectangle(0.0, 0.0, 1.0, 1.0);
            context.fill().unwrap();
        }
        let (info, pixels) = decoded(&encode(&mut surface).unwrap());
        assert_eq!((info.width, info.height), (3, 2));
        assert_eq!(info.color_type, png::ColorType::Rgb);
        assert_eq!(&pixels[..6], &[255, 0, 0, 255, 255, 255]);
        // cairo reads it back the same.
        let back =
            ImageSurface::create_from_png(&mut std::io::Cursor::new(encode(&mut surface).unwrap()))
                .unwrap();
        assert_eq!((back.width(), back.height()), (3, 2));
    }

    #[test]
    fn a_transparent_drawing_keeps_its_alpha_straight() {
        let mut surface = ImageSurface::create(cairo::Format::ARgb32, 2, 1).unwrap();
        {
            let context = cairo::Context::new(&surface).unwrap();
            context.set_source_rgba(0.0, 0.0, 1.0, 0.5);
            context.rectangle(0.0, 0.0, 1.0, 1.0);
            context.fill().unwrap();
        }
        let (info, pixels) = decoded(&encode(&mut surface).unwrap());
        assert_eq!(info.color_type, png::ColorType::Rgba);
        // Half-transparent blue, then a fully transparent pixel.
        assert_eq!(pixels[2], 255);
        assert!((127..=128).contains(&pixels[3]), "{pixels:?}");
        assert_eq!(&pixels[4..], &[0, 0, 0, 0]);
    }

    #[test]
    fn the_same_pixels_give_the_same_bytes() {
        let mut surface = ImageSurface::create(cairo::Format::ARgb32, 40, 30).unwrap();
        assert_eq!(encode(&mut surface).unwrap(), encode(&mut surface).unwrap());
    }
}
