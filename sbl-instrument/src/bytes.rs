//! Bounds-checked little/big-endian reads over a byte slice, and the checked arithmetic every
//! offset, size and address read from the input goes through, with errors naming the structure.

use crate::error::{Error, Result};

/// A view of part of a file: `data` starts at file offset `base`. A view lies inside the file,
/// so `base + off` cannot overflow for an `off` already read or checked inside it; any other
/// offset goes through [`View::at`], [`add`] or [`mul`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct View<'a> {
    pub data: &'a [u8],
    pub base: u64,
}

impl<'a> View<'a> {
    pub fn new(data: &'a [u8], base: u64) -> Self {
        View { data, base }
    }

    pub fn len(&self) -> u64 {
        self.data.len() as u64
    }

    /// The file offset of `off` (relative to this view): `base + off`, checked.
    pub fn at(&self, off: u64, structure: &str) -> Result<u64> {
        add(self.base, off, structure, self.base)
    }

    /// `len` bytes at `off` (relative to this view).
    pub fn slice(&self, off: u64, len: u64, structure: &str) -> Result<&'a [u8]> {
        let avail = self.len().saturating_sub(off);
        if off > self.len() || len > avail {
            return Err(Error::truncated(
                structure,
                self.at(off, structure)?,
                len,
                avail,
            ));
        }
        Ok(&self.data[off as usize..(off + len) as usize])
    }

    /// A sub-view of `len` bytes at `off`.
    pub fn sub(&self, off: u64, len: u64, structure: &str) -> Result<View<'a>> {
        let data = self.slice(off, len, structure)?;
        Ok(View::new(data, self.at(off, structure)?))
    }

    fn arr<const N: usize>(&self, off: u64, structure: &str) -> Result<[u8; N]> {
        let s = self.slice(off, N as u64, structure)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }

    pub fn u8(&self, off: u64, structure: &str) -> Result<u8> {
        Ok(self.arr::<1>(off, structure)?[0])
    }
    pub fn u16le(&self, off: u64, structure: &str) -> Result<u16> {
        Ok(u16::from_le_bytes(self.arr(off, structure)?))
    }
    pub fn u32le(&self, off: u64, structure: &str) -> Result<u32> {
        Ok(u32::from_le_bytes(self.arr(off, structure)?))
    }
    pub fn u64le(&self, off: u64, structure: &str) -> Result<u64> {
        Ok(u64::from_le_bytes(self.arr(off, structure)?))
    }
    pub fn u32be(&self, off: u64, structure: &str) -> Result<u32> {
        Ok(u32::from_be_bytes(self.arr(off, structure)?))
    }
}

/// `a + b` for offsets, sizes and addresses read from the input: an overflow is
/// [`Error::Overflow`] naming `structure` at file offset `offset`.
pub(crate) fn add(a: u64, b: u64, structure: &str, offset: u64) -> Result<u64> {
    a.checked_add(b)
        .ok_or_else(|| Error::overflow(structure, offset, a, '+', b))
}

/// `a * b` for counts and sizes read from the input: an overflow is [`Error::Overflow`].
pub(crate) fn mul(a: u64, b: u64, structure: &str, offset: u64) -> Result<u64> {
    a.checked_mul(b)
        .ok_or_else(|| Error::overflow(structure, offset, a, '*', b))
}

/// Read a little-endian u32 at `off` if the slice is long enough.
pub(crate) fn peek_u32le(data: &[u8], off: usize) -> Option<u32> {
    data.get(off..off.checked_add(4)?)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

/// Read a big-endian u32 at `off` if the slice is long enough.
pub(crate) fn peek_u32be(data: &[u8], off: usize) -> Option<u32> {
    data.get(off..off.checked_add(4)?)
        .map(|s| u32::from_be_bytes([s[0], s[1], s[2], s[3]]))
}

/// Lower-case hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    const H: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(H[(b >> 4) as usize] as char);
        s.push(H[(b & 15) as usize] as char);
    }
    s
}

/// A NUL-terminated string at the start of `data` (lossy UTF-8), if a NUL is found within `max`.
pub(crate) fn c_str(data: &[u8], max: usize) -> Option<String> {
    let lim = data.len().min(max);
    let end = data[..lim].iter().position(|&b| b == 0)?;
    Some(String::from_utf8_lossy(&data[..end]).into_owned())
}
