//! A bounds-checked walk over the top-level fields of one protobuf message, yielding borrowed
//! slices for length-delimited fields. Used where prost would copy or where fields are visited
//! one by one (the metrics, templates and rule results of a result; a module's cubin).

/// The value of one field on the wire.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum WireValue<'a> {
    Varint(u64),
    Fixed64(u64),
    Fixed32(u32),
    Bytes(&'a [u8]),
}

/// One top-level field: its number, its value, and its offset in the message.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WireField<'a> {
    pub number: u32,
    pub value: WireValue<'a>,
    /// Offset of the field's value (after tag and length) from the start of the message.
    pub offset: usize,
}

/// Why a message could not be walked: the offset from the start of the message and a reason.
#[derive(Debug, Clone, PartialEq)]
pub struct WireError {
    pub offset: usize,
    pub message: &'static str,
}

/// Iterates over the top-level fields of a message; stops at the first malformed field.
pub struct FieldIter<'a> {
    buf: &'a [u8],
    pos: usize,
    failed: bool,
}

impl<'a> FieldIter<'a> {
    pub fn new(buf: &'a [u8]) -> Self {
        FieldIter {
            buf,
            pos: 0,
            failed: false,
        }
    }

    /// Where the next field starts, from the start of the message.
    pub fn position(&self) -> usize {
        self.pos
    }

    fn varint(&mut self) -> Result<u64, WireError> {
        let mut value = 0u64;
        for i in 0..10 {
            let Some(&byte) = self.buf.get(self.pos) else {
                return Err(self.error("varint runs past the end"));
            };
            self.pos += 1;
            value |= u64::from(byte & 0x7f) << (7 * i);
            if byte < 0x80 {
                return Ok(value);
            }
        }
        Err(self.error("varint longer than 10 bytes"))
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], WireError> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&end| end <= self.buf.len())
            .ok_or_else(|| self.error("field runs past the end of its message"))?;
        let slice = &self.buf[self.pos..end];
        self.pos = end;
        Ok(slice)
    }

    fn error(&self, message: &'static str) -> WireError {
        WireError {
            offset: self.pos,
            message,
        }
    }

    fn field(&mut self) -> Result<WireField<'a>, WireError> {
        let key = self.varint()?;
        let number = u32::try_from(key >> 3).map_err(|_| self.error("field number too large"))?;
        if number == 0 {
            return Err(self.error("field number 0"));
        }
        let value = match key & 7 {
            0 => WireValue::Varint(self.varint()?),
            1 => {
                let b = self.take(8)?;
                let mut a = [0u8; 8];
                a.copy_from_slice(b);
                WireValue::Fixed64(u64::from_le_bytes(a))
            }
            2 => {
                let len = self.varint()?;
                let len = usize::try_from(len).map_err(|_| self.error("length too large"))?;
                WireValue::Bytes(self.take(len)?)
            }
            5 => {
                let b = self.take(4)?;
                let mut a = [0u8; 4];
                a.copy_from_slice(b);
                WireValue::Fixed32(u32::from_le_bytes(a))
            }
            _ => return Err(self.error("unsupported wire type")),
        };
        let offset = match value {
            WireValue::Bytes(b) => self.pos - b.len(),
            _ => self.pos,
        };
        Ok(WireField {
            number,
            value,
            offset,
        })
    }
}

impl<'a> Iterator for FieldIter<'a> {
    type Item = Result<WireField<'a>, WireError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.pos >= self.buf.len() {
            return None;
        }
        let r = self.field();
        if r.is_err() {
            self.failed = true;
        }
        Some(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_fields_and_rejects_overruns() {
        // field 1 varint 150, field 2 bytes "ab", field 3 fixed32.
        let msg = [0x08, 0x96, 0x01, 0x12, 0x02, b'a', b'b', 0x1d, 1, 0, 0, 0];
        let fields: Vec<_> = FieldIter::new(&msg).collect::<Result<_, _>>().unwrap();
        assert_eq!(fields[0].value, WireValue::Varint(150));
        assert_eq!(fields[1].value, WireValue::Bytes(b"ab"));
        assert_eq!(fields[1].offset, 5);
        assert_eq!(fields[2].value, WireValue::Fixed32(1));
        // A length that claims more than what remains.
        let bad = [0x12, 0x7f, 0x00];
        let r: Result<Vec<_>, _> = FieldIter::new(&bad).collect();
        assert!(r.is_err());
        // A varint that never ends.
        let bad = [0x08, 0xff, 0xff];
        assert!(FieldIter::new(&bad).any(|f| f.is_err()));
    }
}
