//! PNG files painted band by band and encoded by the `png` crate at zlib level 1. cairo's
//! own writer (zlib at its default level) was 81% of a full-detail GPT-2 small PNG run, and
//! a fresh image-sized surface cost more in page zeroing than the painting
//! (docs/performance.md): only one band's pixels exist at a time.

use std::io::Write;

use cairo::ImageSurface;

use crate::RenderError;

/// Rows painted and encoded at a time: a band's surface is the only pixel buffer, so a
/// full-detail drawing's 30,000-row image never sits in memory (a fresh buffer that size
/// cost more in the kernel's zeroing of its pages than the painting).
const BAND_ROWS: i32 = 256;

/// A `width` x `height` PNG file painted band by band: `paint(band, top)` paints the rows
/// from `top` down onto `band` (as many rows as the band has; the band's previous pixels
/// are to be replaced). `opaque`: every pixel painted is opaque, so the file is RGB;
/// otherwise RGBA. 8 bits a channel. A second thread filters and compresses each band while
/// the next one is painted.
pub(crate) fn encode_in_bands(
    width: i32,
    height: i32,
    opaque: bool,
    mut paint: impl FnMut(&ImageSurface, i32) -> Result<(), RenderError>,
) -> Result<Vec<u8>, RenderError> {
    let columns = width as usize;
    let mut band = ImageSurface::create(cairo::Format::ARgb32, width, BAND_ROWS.min(height))?;
    // Two bands in flight at most: one being encoded, one waiting. The painting thread
    // only copies cairo's pixels out (it paints the next band meanwhile); converting and
    // compressing them is the encoder's.
    let (send, receive) = std::sync::mpsc::sync_channel::<Vec<u8>>(1);
    std::thread::scope(|scope| {
        let encoder = scope.spawn(move || write_png(width, height, opaque, receive));
        let painted = (|| {
            let mut top = 0;
            while top < height {
                paint(&band, top)?;
                band.flush();
                let stride = band.stride() as usize;
                let band_rows = (height - top).min(band.height()) as usize;
                let data = band.data().map_err(png_error)?;
                let mut pixels = Vec::with_capacity(band_rows * columns * 4);
                for y in 0..band_rows {
                    pixels.extend_from_slice(&data[y * stride..y * stride + 4 * columns]);
                }
                drop(data);
                if send.send(pixels).is_err() {
                    // The encoder stopped: its error is the one to report.
                    break;
                }
                top += BAND_ROWS;
            }
            Ok(())
        })();
        drop(send);
        let written = encoder
            .join()
            .unwrap_or_else(|_| Err(RenderError::Png("the PNG encoder stopped".to_owned())));
        painted.and(written)
    })
}

/// One row of cairo's premultiplied native-endian ARGB32 pixels as straight RGB (`opaque`)
/// or RGBA bytes.
fn straight_pixels(row: &[u8], line: &mut [u8], opaque: bool) {
    let channels = if opaque { 3 } else { 4 };
    for (pixel, out) in row.chunks_exact(4).zip(line.chunks_exact_mut(channels)) {
        let argb = u32::from_ne_bytes([pixel[0], pixel[1], pixel[2], pixel[3]]);
        let alpha = argb >> 24;
        let [r, g, b] = if alpha == 0xff {
            [(argb >> 16) as u8, (argb >> 8) as u8, argb as u8]
        } else {
            [16, 8, 0].map(|shift| unpremultiply((argb >> shift) & 0xff, alpha))
        };
        out[..3].copy_from_slice(&[r, g, b]);
        if !opaque {
            out[3] = alpha as u8;
        }
    }
}

/// The PNG file of the rows `bands` brings, in order, as cairo's ARGB32 pixels, four bytes
/// a pixel, rows back to back; written as straight RGB (`opaque`) or RGBA bytes.
fn write_png(
    width: i32,
    height: i32,
    opaque: bool,
    bands: std::sync::mpsc::Receiver<Vec<u8>>,
) -> Result<Vec<u8>, RenderError> {
    let mut bytes = Vec::with_capacity(width as usize * height as usize / 4 + 1024);
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
    let channels = if opaque { 3 } else { 4 };
    let mut line = vec![0u8; width as usize * channels];
    for pixels in bands {
        for row in pixels.chunks_exact(4 * width as usize) {
            straight_pixels(row, &mut line, opaque);
            stream.write_all(&line).map_err(png_error)?;
        }
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

    /// Paints `rows` rows of `width` pixels: row `y` red `y % 256` with a blue first pixel,
    /// through bands, as `render` does.
    fn striped(width: i32, rows: i32, opaque: bool) -> Vec<u8> {
        encode_in_bands(width, rows, opaque, |band, top| {
            let context = cairo::Context::new(band).unwrap();
            context.set_operator(cairo::Operator::Source);
            for y in 0..band.height() {
                let alpha = if opaque { 1.0 } else { 0.5 };
                let red = f64::from((top + y) % 256) / 255.0;
                context.set_source_rgba(red, 0.0, 0.0, alpha);
                context.rectangle(0.0, f64::from(y), f64::from(width), 1.0);
                context.fill().unwrap();
                context.set_source_rgba(0.0, 0.0, 1.0, alpha);
                context.rectangle(0.0, f64::from(y), 1.0, 1.0);
                context.fill().unwrap();
            }
            Ok(())
        })
        .unwrap()
    }

    #[test]
    fn an_opaque_drawing_is_rgb_and_keeps_every_pixel_across_bands() {
        let rows = 2 * BAND_ROWS + 7;
        let bytes = striped(3, rows, true);
        let (info, pixels) = decoded(&bytes);
        assert_eq!((info.width, info.height), (3, rows as u32));
        assert_eq!(info.color_type, png::ColorType::Rgb);
        for y in 0..rows as usize {
            let row = &pixels[9 * y..9 * y + 9];
            let red = (y % 256) as u8;
            assert_eq!(row, &[0, 0, 255, red, 0, 0, red, 0, 0], "row {y}");
        }
        // cairo reads it back the same.
        let back = ImageSurface::create_from_png(&mut std::io::Cursor::new(bytes)).unwrap();
        assert_eq!((back.width(), back.height()), (3, rows));
    }

    #[test]
    fn a_transparent_drawing_keeps_its_alpha_straight() {
        let (info, pixels) = decoded(&striped(2, 1, false));
        assert_eq!(info.color_type, png::ColorType::Rgba);
        // Half-transparent blue, then half-transparent black (red 0 on row 0).
        assert_eq!(pixels[2], 255);
        assert!((127..=128).contains(&pixels[3]), "{pixels:?}");
        assert_eq!(&pixels[4..7], &[0, 0, 0]);
        assert!((127..=128).contains(&pixels[7]), "{pixels:?}");
    }

    #[test]
    fn a_painting_error_is_reported_and_no_file_made() {
        let result = encode_in_bands(4, 3 * BAND_ROWS, true, |_, top| {
            if top > 0 {
                Err(RenderError::Png("painting failed".to_owned()))
            } else {
                Ok(())
            }
        });
        assert!(matches!(result, Err(RenderError::Png(m)) if m == "painting failed"));
    }

    #[test]
    fn the_same_pixels_give_the_same_bytes() {
        assert_eq!(striped(40, 300, true), striped(40, 300, true));
    }
}
