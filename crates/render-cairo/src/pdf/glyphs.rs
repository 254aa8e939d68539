//! Text as glyphs: each character's glyph and advance in its face (as cairo's simple text
//! sets it: the character map and the glyphs' advances, no kerning), the glyphs a drawing
//! used, and those written into the PDF as subset fonts (Type 0, CFF outlines, with widths
//! and a Unicode map so text can be searched and copied).

use std::collections::HashMap;

use pdf_writer::types::{CidFontType, FontFlags, SystemInfo, UnicodeCmap};
use pdf_writer::{Filter, Finish, Name, Pdf, Rect, Ref, Str};
use subsetter::GlyphRemapper;

use super::faces::{Face, Faces};

/// The glyphs used of one face.
struct FaceUse {
    remapper: GlyphRemapper,
    /// Per CID: the first character set with it, and its advance in font units.
    cids: Vec<(char, u16)>,
    /// Characters seen, with their CID and advance.
    known: HashMap<char, (u16, u16)>,
}

impl FaceUse {
    fn new(face: &Face) -> FaceUse {
        let notdef = face
            .parsed
            .glyph_hor_advance(ttf_parser::GlyphId(0))
            .unwrap_or(0);
        FaceUse {
            remapper: GlyphRemapper::new(),
            cids: vec![('\0', notdef)],
            known: HashMap::new(),
        }
    }

    fn glyph(&mut self, face: &Face, character: char) -> (u16, u16) {
        if let Some(&known) = self.known.get(&character) {
            return known;
        }
        let glyph = face.parsed.glyph_index(character).unwrap_or_default();
        let advance = face.parsed.glyph_hor_advance(glyph).unwrap_or(0);
        let cid = self.remapper.remap(glyph.0);
        if usize::from(cid) == self.cids.len() {
            self.cids.push((character, advance));
        }
        self.known.insert(character, (cid, advance));
        (cid, advance)
    }
}

/// The glyphs a drawing used, per face.
pub(crate) struct GlyphSets {
    faces: &'static Faces,
    used: [Option<FaceUse>; 4],
}

impl GlyphSets {
    pub(crate) fn new(faces: &'static Faces) -> GlyphSets {
        GlyphSets {
            faces,
            used: [None, None, None, None],
        }
    }

    /// Sets `text` in face `index`: `cids` becomes each character's glyph, numbered as in
    /// the face's subset (its CID, which the content stream addresses); returns the text's
    /// advance in ems.
    pub(crate) fn shape(&mut self, index: usize, text: &str, cids: &mut Vec<u16>) -> f64 {
        let face = &self.faces[index];
        let used = self.used[index].get_or_insert_with(|| FaceUse::new(face));
        cids.clear();
        let mut advance = 0u64;
        for character in text.chars() {
            let (cid, width) = used.glyph(face, character);
            cids.push(cid);
            advance += u64::from(width);
        }
        advance as f64 / face.units_per_em
    }

    /// Writes the faces used into `pdf`, from object `next` on (which it advances), and
    /// returns them as `(index, font object)` for the page's resources; `None` when a face
    /// cannot be subset.
    pub(crate) fn write(&self, pdf: &mut Pdf, next: &mut i32) -> Option<Vec<(usize, Ref)>> {
        let mut fonts = Vec::new();
        for (index, used) in self.used.iter().enumerate() {
            let Some(used) = used else { continue };
            let face = &self.faces[index];
            let mut reference = || {
                *next += 1;
                Ref::new(*next - 1)
            };
            let [type0, cid_font, descriptor, file, unicode] = [(); 5].map(|()| reference());
            let subset = subsetter::subset(face.bytes, 0, &used.remapper).ok()?;
            let cff = ttf_parser::RawFace::parse(&subset, 0)
                .ok()?
                .table(ttf_parser::Tag::from_bytes(b"CFF "))?;
            let name = format!("{}+{}", subset_tag(&used.cids), face.postscript_name);
            let name = Name(name.as_bytes());
            let system = SystemInfo {
                registry: Str(b"Adobe"),
                ordering: Str(b"Identity"),
                supplement: 0,
            };
            pdf.type0_font(type0)
                .base_font(name)
                .encoding_predefined(Name(b"Identity-H"))
                .descendant_font(cid_font)
                .to_unicode(unicode);
            let em = |units: f64| (units * 1000.0 / face.units_per_em) as f32;
            let mut cid = pdf.cid_font(cid_font);
            cid.subtype(CidFontType::Type0)
                .base_font(name)
                .system_info(system)
                .font_descriptor(descriptor)
                .default_width(em(f64::from(used.cids[0].1)));
            cid.widths()
                .consecutive(0, used.cids.iter().map(|(_, w)| em(f64::from(*w))));
            cid.finish();
            let parsed = &face.parsed;
            let bbox = parsed.global_bounding_box();
            let mut flags = FontFlags::NON_SYMBOLIC;
            if parsed.is_italic() {
                flags |= FontFlags::ITALIC;
            }
            let stem = if parsed.is_bold() { 140.0 } else { 80.0 };
            pdf.font_descriptor(descriptor)
                .name(name)
                .flags(flags)
                .bbox(Rect::new(
                    em(f64::from(bbox.x_min)),
                    em(f64::from(bbox.y_min)),
                    em(f64::from(bbox.x_max)),
                    em(f64::from(bbox.y_max)),
                ))
                .italic_angle(parsed.italic_angle())
                .ascent(em(f64::from(parsed.ascender())))
                .descent(em(f64::from(parsed.descender())))
                .cap_height(em(f64::from(
                    parsed.capital_height().unwrap_or(parsed.ascender()),
                )))
                .stem_v(stem)
                .font_file3(file);
            let compressed = super::deflate(cff);
            pdf.stream(file, &compressed)
                .filter(Filter::FlateDecode)
                .pair(Name(b"Subtype"), Name(b"CIDFontType0C"));
            let mut cmap = UnicodeCmap::<u16>::new(Name(b"Adobe-Identity-UCS"), system);
            for (cid, (character, _)) in used.cids.iter().enumerate().skip(1) {
                cmap.pair(cid as u16, *character);
            }
            pdf.cmap(unicode, &cmap.finish());
            fonts.push((index, type0));
        }
        Some(fonts)
    }
}

/// The six capital letters before a subset font's name, from the glyphs it holds: the same
/// glyphs give the same tag, so the same drawing gives the same bytes.
fn subset_tag(cids: &[(char, u16)]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for (character, _) in cids {
        for byte in u32::from(*character).to_le_bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    (0..6)
        .map(|i| char::from(b'A' + ((hash >> (i * 8)) % 26) as u8))
        .collect()
}
