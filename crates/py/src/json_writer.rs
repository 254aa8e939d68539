//! JSON written straight into a byte vector: records, strings, numbers. What `ops_json`
//! writes with; every write into a vector succeeds (a vector has no I/O to fail).

/// A record being written: `{"key":value,...}`.
pub(crate) struct Record<'a> {
    pub(crate) out: &'a mut Vec<u8>,
    first: bool,
}

impl<'a> Record<'a> {
    pub(crate) fn open(out: &'a mut Vec<u8>) -> Self {
        out.push(b'{');
        Record { out, first: true }
    }

    pub(crate) fn key(&mut self, key: &str) {
        if !std::mem::take(&mut self.first) {
            self.out.push(b',');
        }
        write_string(self.out, key);
        self.out.push(b':');
    }

    pub(crate) fn raw(&mut self, json: &[u8]) {
        self.out.extend_from_slice(json);
    }

    pub(crate) fn string(&mut self, key: &str, value: &str) {
        self.key(key);
        write_string(self.out, value);
    }

    pub(crate) fn integer(&mut self, key: &str, value: i64) {
        self.key(key);
        write_integer(self.out, value);
    }

    /// The values as a list, or the first error among them.
    pub(crate) fn integers<E>(
        &mut self,
        values: impl Iterator<Item = Result<i64, E>>,
    ) -> Result<(), E> {
        let values = values.collect::<Result<Vec<_>, E>>()?;
        write_integers(self.out, &values);
        Ok(())
    }

    /// The values as a list, or the first error among them.
    pub(crate) fn strings<S: StringLike, E>(
        &mut self,
        values: impl Iterator<Item = Result<S, E>>,
    ) -> Result<(), E> {
        self.out.push(b'[');
        for (at, value) in values.enumerate() {
            if at > 0 {
                self.out.push(b',');
            }
            value?.write(self.out);
        }
        self.out.push(b']');
        Ok(())
    }

    pub(crate) fn close(self) {
        self.out.push(b'}');
    }
}

/// A label as the format qualifies it: TorchLens names a single-pass layer without its
/// pass, `relu_1_2`, the format always with it, `relu_1_2:1` (`_label` in Python).
pub(crate) struct Qualified<'s>(pub(crate) &'s str);

pub(crate) trait StringLike {
    fn write(self, out: &mut Vec<u8>);
}

impl StringLike for &str {
    fn write(self, out: &mut Vec<u8>) {
        write_string(out, self);
    }
}

impl StringLike for Qualified<'_> {
    fn write(self, out: &mut Vec<u8>) {
        write_qualified(out, self);
    }
}

pub(crate) fn write_qualified(out: &mut Vec<u8>, label: Qualified<'_>) {
    if label.0.contains(':') {
        write_string(out, label.0);
    } else {
        write_string(out, &format!("{}:1", label.0));
    }
}

pub(crate) fn write_string(out: &mut Vec<u8>, value: &str) {
    // Writing a `&str` into a vector fails only on an I/O error, which a vector has none of.
    let _ = serde_json::to_writer(&mut *out, value);
}

pub(crate) fn write_float(out: &mut Vec<u8>, value: f64) {
    if value.is_finite() {
        let _ = serde_json::to_writer(&mut *out, &value);
    } else {
        // As orjson writes a float that is not finite.
        out.extend_from_slice(b"null");
    }
}

pub(crate) fn write_integer(out: &mut Vec<u8>, value: i64) {
    let _ = serde_json::to_writer(&mut *out, &value);
}

pub(crate) fn write_integers(out: &mut Vec<u8>, values: &[i64]) {
    let _ = serde_json::to_writer(&mut *out, values);
}
