//! PNG files painted band by band and encoded by the `png` crate (zlib level 2, Paeth
//! filter). cairo's own writer (zlib at its default level) was 81% of a full-detail GPT-2
//! small PNG run, and a fresh image-sized surface cost more in page zeroing than the
//! painting (docs/performance.md): only a few bands' pixels exist at a time, each band's
//! surface painted again once the encoder is done with it.

use std::io::Write;

use cairo::ImageSurface;

use crate::RenderError;

/// Rows painted and encoded at a time: a band's surface is the only pixel buffer, so a
/// full-detail drawing's 30,000-row image never sits in memory (a fresh buffer that size
/// cost more in the kernel's zeroing of its pages than the painting).
const BAND_ROWS: i32 = 256;

/// Band surfaces in use at once: one painted, one encoded and one waiting between them, so
/// that a band slow to paint (dense with text) or to encode does not stall the other thread.
const BANDS_IN_FLIGHT: usize = 3;

/// A painted band on its way to the encoder: cairo's pixels, the rows of them that belong to
/// the picture (the last band is cut short) and the bytes from one row to the next.
struct PaintedBand {
    pixels: cairo::ImageSurfaceDataOwned,
    rows: usize,
    stride: usize,
}

/// A `width` x `height` PNG file painted band by band: `paint(band, top)` paints the rows
/// from `top` down onto `band` (as many rows as the band has; the band's previous pixels
/// are to be replaced). `opaque`: every pixel painted is opaque, so the file is RGB;
/// otherwise RGBA. 8 bits a channel. A second thread converts, filters and compresses each
/// band while the next one is painted, and hands the band's surface back to be painted again:
/// pixels are neither copied nor allocated band after band. Where the system starts no
/// thread, each band is painted and encoded in turn on this one, in one surface.
pub(crate) fn encode_in_bands(
    width: i32,
    height: i32,
    opaque: bool,
    paint: impl FnMut(&ImageSurface, i32) -> Result<(), RenderError>,
) -> Result<Vec<u8>, RenderError> {
    encode_in_bands_on(std::thread::Builder::new(), width, height, opaque, paint)
}

/// [`encode_in_bands`] with the encoder's thread made by `builder` (a test's builder the
/// system refuses shows the work done in turn).
fn encode_in_bands_on(
    builder: std::thread::Builder,
    width: i32,
    height: i32,
    opaque: bool,
    mut paint: impl FnMut(&ImageSurface, i32) -> Result<(), RenderError>,
) -> Result<Vec<u8>, RenderError> {
    let band_height = BAND_ROWS.min(height);
    let mut painted = |surface: Option<cairo::ImageSurfaceDataOwned>, top: i32| {
        let band = match surface {
            Some(surface) => surface.into_inner(),
            None => ImageSurface::create(cairo::Format::ARgb32, width, band_height)?,
        };
        paint(&band, top)?;
        Ok(PaintedBand {
            rows: (height - top).min(band_height) as usize,
            stride: band.stride() as usize,
            pixels: band.take_data().map_err(png_error)?,
        })
    };
    let (send, receive) = std::sync::mpsc::channel::<PaintedBand>();
    let (give_back, given_back) = std::sync::mpsc::channel::<cairo::ImageSurfaceDataOwned>();
    std::thread::scope(|scope| {
        let encoding = builder.spawn_scoped(scope, move || {
            let bands = receive.into_iter().map(Ok);
            write_png(width, height, opaque, bands, |pixels| {
                // The painter may have finished: then the band is simply dropped.
                let _ = give_back.send(pixels);
            })
        });
        let Ok(encoder) = encoding else {
            return encoded_in_turn(width, height, opaque, &mut painted);
        };
        let painting = (|| {
            let mut made = 0;
            let mut top = 0;
            while top < height {
                let surface = match given_back.try_recv() {
                    Ok(surface) => Some(surface),
                    Err(_) if made < BANDS_IN_FLIGHT => {
                        made += 1;
                        None
                    }
                    // Every surface is out: wait for the encoder to hand one back.
                    Err(_) => match given_back.recv() {
                        Ok(surface) => Some(surface),
                        // The encoder stopped: its error is the one to report.
                        Err(_) => break,
                    },
                };
                if send.send(painted(surface, top)?).is_err() {
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
        painting.and(written)
    })
}

/// The PNG file of the bands `painted(surface, top)` paints, each encoded as soon as it is
/// painted, on this thread: one surface, painted again for every band.
fn encoded_in_turn(
    width: i32,
    height: i32,
    opaque: bool,
    painted: &mut impl FnMut(
        Option<cairo::ImageSurfaceDataOwned>,
        i32,
    ) -> Result<PaintedBand, RenderError>,
) -> Result<Vec<u8>, RenderError> {
    let spare = std::cell::Cell::new(None);
    let mut top = 0;
    let bands = std::iter::from_fn(|| {
        (top < height).then(|| {
            let band = painted(spare.take(), top);
            top += BAND_ROWS;
            band
        })
    });
    write_png(width, height, opaque, bands, |pixels| {
        spare.set(Some(pixels))
    })
}

/// One row of cairo's premultiplied native-endian ARGB32 pixels as straight RGB (`opaque`)
/// or RGBA bytes.
fn straight_pixels(row: &[u8], line: &mut [u8], opaque: bool) {
    let argb = |pixel: &[u8]| u32::from_ne_bytes([pixel[0], pixel[1], pixel[2], pixel[3]]);
    if opaque {
        // Every pixel of an opaque drawing has alpha 255 (the page colour is painted first,
        // over every pixel), so its channels are already straight: a loop without branches.
        for (pixel, out) in row.chunks_exact(4).zip(line.chunks_exact_mut(3)) {
            let argb = argb(pixel);
            out.copy_from_slice(&[(argb >> 16) as u8, (argb >> 8) as u8, argb as u8]);
        }
        return;
    }
    for (pixel, out) in row.chunks_exact(4).zip(line.chunks_exact_mut(4)) {
        let argb = argb(pixel);
        let alpha = argb >> 24;
        let [r, g, b] = [16, 8, 0].map(|shift| unpremultiply((argb >> shift) & 0xff, alpha));
        out.copy_from_slice(&[r, g, b, alpha as u8]);
    }
}

/// The PNG file of the bands `bands` brings, in order, each handed to `give_back` once
/// encoded; written as straight RGB (`opaque`) or RGBA bytes. A band that failed to paint
/// ends it with that error.
fn write_png(
    width: i32,
    height: i32,
    opaque: bool,
    bands: impl Iterator<Item = Result<PaintedBand, RenderError>>,
    mut give_back: impl FnMut(cairo::ImageSurfaceDataOwned),
) -> Result<Vec<u8>, RenderError> {
    let mut bytes = Vec::with_capacity(width as usize * height as usize / 4 + 1024);
    let mut encoder = png::Encoder::new(&mut bytes, width as u32, height as u32);
    encoder.set_color(if opaque {
        png::ColorType::Rgb
    } else {
        png::ColorType::Rgba
    });
    encoder.set_depth(png::BitDepth::Eight);
    // zlib level 2: level 1 writes files 14-21% larger for hardly less time; against level
    // 1, level 6 made the whole GPT-2 small run at full detail 1.7 times as long and cairo's
    // own writer 3.3 times (docs/performance.md, "PNG encoding", "Deflate by zlib-rs").
    encoder.set_deflate_compression(png::DeflateCompression::Level(2));
    // Paeth on every row: within 2% of the adaptive choice's size on the real drawings
    // (DenseNet-121 at full detail: 4.78 MB, adaptive 4.75 MB, Up 4.97 MB, Sub 5.89 MB),
    // for a fifth less encoding time than trying every filter on every row.
    encoder.set_filter(png::Filter::Paeth);
    let mut writer = encoder.write_header().map_err(png_error)?;
    let mut stream = writer.stream_writer().map_err(png_error)?;
    let channels = if opaque { 3 } else { 4 };
    let row_bytes = 4 * width as usize;
    let mut line = vec![0u8; width as usize * channels];
    for band in bands {
        let band = band?;
        let pixels: &[u8] = band.pixels.as_ref();
        for y in 0..band.rows {
            let row = &pixels[y * band.stride..y * band.stride + row_bytes];
            straight_pixels(row, &mut line, opaque);
            stream.write_all(&line).map_err(png_error)?;
        }
        give_back(band.pixels);
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

    /// Paints `rows` rows of `width` pixels: row `y` red `y % 251` with a blue first pixel,
    /// through bands, as `render` does (251: no two bands alike, so a band's stale pixels
    /// would show).
    fn striped(width: i32, rows: i32, opaque: bool) -> Vec<u8> {
        striped_on(std::thread::Builder::new(), width, rows, opaque)
    }

    /// A builder whose thread no system starts (a stack of half the address space).
    fn refused() -> std::thread::Builder {
        std::thread::Builder::new().stack_size(usize::MAX / 2)
    }

    fn striped_on(builder: std::thread::Builder, width: i32, rows: i32, opaque: bool) -> Vec<u8> {
        encode_in_bands_on(builder, width, rows, opaque, |band, top| {
            let context = cairo::Context::new(band).unwrap();
            context.set_operator(cairo::Operator::Source);
            for y in 0..band.height() {
                let alpha = if opaque { 1.0 } else { 0.5 };
                let red = f64::from((top + y) % 251) / 255.0;
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
        // More bands than surfaces in flight: each surface is painted again.
        let rows = (BANDS_IN_FLIGHT as i32 + 2) * BAND_ROWS + 7;
        let bytes = striped(3, rows, true);
        let (info, pixels) = decoded(&bytes);
        assert_eq!((info.width, info.height), (3, rows as u32));
        assert_eq!(info.color_type, png::ColorType::Rgb);
        for y in 0..rows as usize {
            let row = &pixels[9 * y..9 * y + 9];
            let red = (y % 251) as u8;
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
    fn without_an_encoder_thread_the_bands_are_encoded_in_turn_into_the_same_file() {
        assert!(
            refused().spawn(|| ()).is_err(),
            "the system started the refused thread"
        );
        let rows = (BANDS_IN_FLIGHT as i32 + 2) * BAND_ROWS + 7;
        for opaque in [true, false] {
            let in_turn = striped_on(refused(), 5, rows, opaque);
            assert_eq!(in_turn, striped(5, rows, opaque));
            assert_eq!(decoded(&in_turn).0.height, rows as u32);
        }
        let failed = encode_in_bands_on(refused(), 4, 3 * BAND_ROWS, true, |_, top| {
            if top > 0 {
                Err(RenderError::Png("painting failed".to_owned()))
            } else {
                Ok(())
            }
        });
        assert!(matches!(failed, Err(RenderError::Png(m)) if m == "painting failed"));
    }

    #[test]
    fn the_same_pixels_give_the_same_bytes() {
        assert_eq!(striped(40, 300, true), striped(40, 300, true));
    }
}
