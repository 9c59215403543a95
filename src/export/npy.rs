//! NumPy's `.npy` and `.npz` formats, written: little-endian arrays with a
//! format-1.0 header, and an uncompressed ("stored") zip of them, as
//! `numpy.savez` writes — what `numpy.load` reads.

use crate::error::{Error, Result};
use std::path::Path;

/// One array's data.
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    /// `float64`.
    F64(Vec<f64>),
    /// `int64`.
    I64(Vec<i64>),
    /// `uint8`.
    U8(Vec<u8>),
    /// `bool`.
    Bool(Vec<bool>),
}

/// A named array: its shape and its values in C order.
#[derive(Clone, Debug, PartialEq)]
pub struct Array {
    /// Its name in the `.npz` (`name.npy` inside).
    pub name: String,
    /// Its shape (the product equals the number of values).
    pub shape: Vec<usize>,
    /// The values.
    pub data: Data,
}

/// The `.npy` bytes of an array.
pub fn npy_bytes(a: &Array) -> Vec<u8> {
    let (descr, body): (&str, Vec<u8>) = match &a.data {
        Data::F64(v) => ("<f8", v.iter().flat_map(|x| x.to_le_bytes()).collect()),
        Data::I64(v) => ("<i8", v.iter().flat_map(|x| x.to_le_bytes()).collect()),
        Data::U8(v) => ("|u1", v.clone()),
        Data::Bool(v) => ("|b1", v.iter().map(|&b| b as u8).collect()),
    };
    let shape = match a.shape.as_slice() {
        [n] => format!("({n},)"),
        dims => format!(
            "({})",
            dims.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    // Padded with spaces and a newline so that the data starts on a
    // multiple of 64 bytes.
    let total = 10 + header.len() + 1;
    header.push_str(&" ".repeat((64 - total % 64) % 64));
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len() + body.len());
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(&body);
    out
}

/// CRC-32 (IEEE), as zip stores it.
fn crc32(bytes: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (i, t) in table.iter_mut().enumerate() {
        let mut c = i as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
        *t = c;
    }
    !bytes.iter().fold(!0u32, |c, &b| {
        table[((c ^ b as u32) & 0xff) as usize] ^ (c >> 8)
    })
}

/// The bytes of an uncompressed zip of `files` (name, content); `None`
/// where the whole passes 4 GiB (the classic zip's limit: no zip64).
pub fn zip_bytes(files: &[(String, Vec<u8>)]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    let le16 = |v: &mut Vec<u8>, x: u16| v.extend_from_slice(&x.to_le_bytes());
    let le32 = |v: &mut Vec<u8>, x: u32| v.extend_from_slice(&x.to_le_bytes());
    for (name, data) in files {
        let offset = u32::try_from(out.len()).ok()?;
        let size = u32::try_from(data.len()).ok()?;
        let crc = crc32(data);
        // version, flags, method (stored), time, date (1980-01-01), crc,
        // sizes, name length, extra length.
        let fields = |v: &mut Vec<u8>| {
            for x in [20u16, 0, 0, 0, 0x21] {
                le16(v, x);
            }
            le32(v, crc);
            le32(v, size);
            le32(v, size);
            le16(v, name.len() as u16);
            le16(v, 0);
        };
        le32(&mut out, 0x0403_4b50);
        fields(&mut out);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(data);
        le32(&mut central, 0x0201_4b50);
        le16(&mut central, 20); // made by
        fields(&mut central);
        for x in [0u16, 0, 0] {
            le16(&mut central, x); // comment, disk, internal attributes
        }
        le32(&mut central, 0);
        le32(&mut central, offset);
        central.extend_from_slice(name.as_bytes());
    }
    let start = u32::try_from(out.len()).ok()?;
    let size = u32::try_from(central.len()).ok()?;
    let n = u16::try_from(files.len()).ok()?;
    out.extend_from_slice(&central);
    le32(&mut out, 0x0605_4b50);
    le32(&mut out, 0);
    le16(&mut out, n);
    le16(&mut out, n);
    le32(&mut out, size);
    le32(&mut out, start);
    le16(&mut out, 0);
    u32::try_from(out.len()).ok()?;
    Some(out)
}

/// Writes `arrays` to `path` as `.npz` (uncompressed).
pub fn write_npz(path: &Path, arrays: &[Array]) -> Result<()> {
    let files: Vec<(String, Vec<u8>)> = arrays
        .iter()
        .map(|a| (format!("{}.npy", a.name), npy_bytes(a)))
        .collect();
    let bytes = zip_bytes(&files).ok_or_else(|| {
        Error::Input(format!(
            "{}: more than 4 GiB of samples, past the .npz writer's limit",
            path.display()
        ))
    })?;
    crate::files::write_atomic(path, &bytes)
}

/// Writes one array to `path` as `.npy`.
pub fn write_npy(path: &Path, array: &Array) -> Result<()> {
    crate::files::write_atomic(path, &npy_bytes(array))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The check value of CRC-32/ISO-HDLC.
    #[test]
    fn crc_of_the_standard_check_string() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn headers_align_data_to_64_bytes() {
        for n in [0, 1, 7, 1000] {
            let a = Array {
                name: "x".into(),
                shape: vec![n, 3],
                data: Data::F64(vec![1.5; 3 * n]),
            };
            let b = npy_bytes(&a);
            let h = u16::from_le_bytes([b[8], b[9]]) as usize;
            assert_eq!((10 + h) % 64, 0);
            assert_eq!(b.len(), 10 + h + 24 * n);
        }
    }
}
