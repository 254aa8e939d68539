//! The protobuf wire format, read from a stream: fields are decoded in place and the ones
//! not needed (an initializer's weights, which can be gigabytes) are skipped by seeking, so
//! memory stays bounded by what the drawing keeps, not by the file.

use std::fs::File;
use std::io::{BufReader, Cursor, Read};

use crate::OnnxError;

/// A byte source that can skip forward cheaply.
pub(crate) trait Source: Read {
    /// Skips `n` bytes.
    fn skip_bytes(&mut self, n: u64) -> std::io::Result<()>;
}

impl Source for BufReader<File> {
    fn skip_bytes(&mut self, n: u64) -> std::io::Result<()> {
        let n = i64::try_from(n).map_err(|_| std::io::ErrorKind::InvalidInput)?;
        self.seek_relative(n)
    }
}

impl Source for Cursor<&[u8]> {
    fn skip_bytes(&mut self, n: u64) -> std::io::Result<()> {
        self.set_position(self.position().saturating_add(n));
        Ok(())
    }
}

/// Wire types.
pub(crate) const VARINT: u8 = 0;
pub(crate) const FIXED64: u8 = 1;
pub(crate) const LENGTH: u8 = 2;
pub(crate) const FIXED32: u8 = 5;

/// The longest text field kept (names, op types, metadata values): longer ones are cut.
const MAX_TEXT: u64 = 1 << 20;
/// How deep messages may nest (subgraphs in subgraphs): a hostile file cannot recurse
/// without bound.
pub(crate) const MAX_DEPTH: usize = 64;
/// How many fields are decoded, and how many bytes of text kept, at most: what is kept is
/// bounded whatever the file holds (GPT-2 small's export decodes about 100,000 fields).
pub(crate) const MAX_FIELDS: u64 = 20_000_000;
pub(crate) const MAX_TEXT_TOTAL: u64 = 512 << 20;

/// A reader of one protobuf stream, inside the bounds of the message being read.
pub(crate) struct Wire<'s> {
    source: &'s mut dyn Source,
    /// Bytes read or skipped so far.
    pos: u64,
    /// Where the message being read ends.
    end: u64,
    /// Messages entered.
    pub(crate) depth: usize,
    /// Fields decoded and text bytes kept so far.
    fields: u64,
    text_bytes: u64,
}

impl<'s> Wire<'s> {
    /// A reader of a stream of `len` bytes.
    pub(crate) fn new(source: &'s mut dyn Source, len: u64) -> Wire<'s> {
        Wire {
            source,
            pos: 0,
            end: len,
            depth: 0,
            fields: 0,
            text_bytes: 0,
        }
    }

    /// Is the current message read to its end?
    pub(crate) fn done(&self) -> bool {
        self.pos >= self.end
    }

    /// Fills `buffer` from the current message.
    fn read(&mut self, buffer: &mut [u8]) -> Result<(), OnnxError> {
        let len = buffer.len() as u64;
        if len > self.end.saturating_sub(self.pos) {
            return Err(OnnxError::Truncated { at: self.pos });
        }
        self.source
            .read_exact(buffer)
            .map_err(|_| OnnxError::Truncated { at: self.pos })?;
        self.pos += len;
        Ok(())
    }

    fn byte(&mut self) -> Result<u8, OnnxError> {
        let mut one = [0u8; 1];
        self.read(&mut one)?;
        Ok(one[0])
    }

    /// A base-128 varint (at most ten bytes).
    pub(crate) fn varint(&mut self) -> Result<u64, OnnxError> {
        let mut value = 0u64;
        for shift in 0..10 {
            let byte = self.byte()?;
            value |= u64::from(byte & 0x7f) << (7 * shift);
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(OnnxError::Malformed {
            at: self.pos,
            what: "a varint longer than ten bytes",
        })
    }

    /// The next field's number and wire type.
    pub(crate) fn key(&mut self) -> Result<(u64, u8), OnnxError> {
        self.fields += 1;
        if self.fields > MAX_FIELDS {
            return Err(OnnxError::TooLarge {
                what: "more than 20 million protobuf fields",
            });
        }
        let key = self.varint()?;
        let wire = (key & 7) as u8;
        if key >> 3 == 0 {
            return Err(OnnxError::Malformed {
                at: self.pos,
                what: "field number 0",
            });
        }
        Ok((key >> 3, wire))
    }

    /// A length prefix that fits in the current message.
    fn length(&mut self) -> Result<u64, OnnxError> {
        let len = self.varint()?;
        if len > self.end.saturating_sub(self.pos) {
            return Err(OnnxError::Truncated { at: self.pos });
        }
        Ok(len)
    }

    fn skip(&mut self, n: u64) -> Result<(), OnnxError> {
        self.source
            .skip_bytes(n)
            .map_err(|_| OnnxError::Truncated { at: self.pos })?;
        self.pos += n;
        Ok(())
    }

    /// Skips a field of wire type `wire`.
    pub(crate) fn skip_field(&mut self, wire: u8) -> Result<(), OnnxError> {
        match wire {
            VARINT => self.varint().map(drop),
            FIXED64 => self.skip_within(8),
            LENGTH => {
                let len = self.length()?;
                self.skip(len)
            }
            FIXED32 => self.skip_within(4),
            _ => Err(OnnxError::Malformed {
                at: self.pos,
                what: "an unknown or group wire type",
            }),
        }
    }

    fn skip_within(&mut self, n: u64) -> Result<(), OnnxError> {
        if n > self.end.saturating_sub(self.pos) {
            return Err(OnnxError::Truncated { at: self.pos });
        }
        self.skip(n)
    }

    /// A length-delimited text field (names, op types): lossy UTF-8, cut at 1 MiB.
    pub(crate) fn text(&mut self, wire: u8) -> Result<String, OnnxError> {
        self.expect(wire, LENGTH)?;
        let len = self.length()?;
        let kept = len.min(MAX_TEXT);
        self.text_bytes += kept;
        if self.text_bytes > MAX_TEXT_TOTAL {
            return Err(OnnxError::TooLarge {
                what: "more than 512 MiB of names and text",
            });
        }
        let mut bytes = vec![0u8; kept as usize];
        self.read(&mut bytes)?;
        self.skip(len - kept)?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// An `int64` field, or every value of a packed `repeated int64` (`dims`), keeping at
    /// most `max` values in all.
    pub(crate) fn ints(
        &mut self,
        wire: u8,
        into: &mut Vec<i64>,
        max: usize,
    ) -> Result<(), OnnxError> {
        let mut push = |value: u64| {
            if into.len() >= max {
                return Err(OnnxError::TooLarge {
                    what: "a list of integers longer than the drawing reads (tensor dimensions, attribute values)",
                });
            }
            into.push(value as i64);
            Ok(())
        };
        match wire {
            VARINT => push(self.varint()?)?,
            LENGTH => {
                let saved = self.enter(LENGTH)?;
                while !self.done() {
                    push(self.varint()?)?;
                }
                self.leave(saved)?;
            }
            _ => self.wrong_type()?,
        }
        Ok(())
    }

    /// A `float` field (fixed 32 bits).
    pub(crate) fn float(&mut self, wire: u8) -> Result<f32, OnnxError> {
        self.expect(wire, FIXED32)?;
        let mut bytes = [0u8; 4];
        self.read(&mut bytes)?;
        Ok(f32::from_le_bytes(bytes))
    }

    /// Enters an embedded message; returns what [`Wire::leave`] restores.
    pub(crate) fn enter(&mut self, wire: u8) -> Result<u64, OnnxError> {
        self.expect(wire, LENGTH)?;
        if self.depth >= MAX_DEPTH {
            return Err(OnnxError::TooDeep { depth: MAX_DEPTH });
        }
        let len = self.length()?;
        let saved = self.end;
        self.end = self.pos + len;
        self.depth += 1;
        Ok(saved)
    }

    /// Leaves an embedded message, skipping what of it was not read.
    pub(crate) fn leave(&mut self, saved: u64) -> Result<(), OnnxError> {
        let rest = self.end - self.pos.min(self.end);
        self.skip(rest)?;
        self.end = saved;
        self.depth -= 1;
        Ok(())
    }

    fn expect(&self, wire: u8, want: u8) -> Result<(), OnnxError> {
        if wire == want {
            Ok(())
        } else {
            self.wrong_type()
        }
    }

    fn wrong_type(&self) -> Result<(), OnnxError> {
        Err(OnnxError::Malformed {
            at: self.pos,
            what: "a field of an unexpected wire type",
        })
    }
}
