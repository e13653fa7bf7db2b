//! xz-compressed input (LAVA keeps job logs as `log.yaml.xz`), recognised by its magic bytes
//! whatever the file is called, and decompressed as it is read (pure Rust, `lzma-rs`).

use std::io::{self, BufRead, Write};

/// The first bytes of an xz stream (the xz file format, 2.1.1.1 Header Magic Bytes).
pub const MAGIC: [u8; 6] = [0xFD, b'7', b'z', b'X', b'Z', 0x00];

/// Whether `head` (a file's first bytes) starts an xz stream.
pub fn is_xz(head: &[u8]) -> bool {
    head.starts_with(&MAGIC)
}

/// Errors decompressing an xz input.
#[derive(Debug, thiserror::Error)]
pub enum XzError {
    /// The stream is not valid xz (corrupt, or cut short).
    #[error("{source_name}: corrupt xz stream: {detail}")]
    Corrupt {
        /// The input as given.
        source_name: String,
        /// What the decoder found.
        detail: String,
    },
    /// Reading the input or writing what was decompressed failed.
    #[error("{source_name}: {error}")]
    Io {
        /// The input as given.
        source_name: String,
        /// The error.
        #[source]
        error: io::Error,
    },
}

/// Decompresses the xz stream `input` (named `source_name` in errors) into `out` as it is
/// read.
pub fn decompress(
    source_name: &str,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<(), XzError> {
    let corrupt = |detail: String| XzError::Corrupt {
        source_name: source_name.to_string(),
        detail,
    };
    lzma_rs::xz_decompress(input, out).map_err(|e| match e {
        lzma_rs::error::Error::IoError(error) | lzma_rs::error::Error::HeaderTooShort(error)
            if error.kind() == io::ErrorKind::UnexpectedEof =>
        {
            corrupt("the stream ends early".into())
        }
        lzma_rs::error::Error::IoError(error) | lzma_rs::error::Error::HeaderTooShort(error) => {
            XzError::Io {
                source_name: source_name.to_string(),
                error,
            }
        }
        lzma_rs::error::Error::LzmaError(d) | lzma_rs::error::Error::XzError(d) => corrupt(d),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `printf 'hello\n' | xz -9 | xxd -i`: a stream made by xz-utils.
    const HELLO: &[u8] = &[
        0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0x00, 0x04, 0xe6, 0xd6, 0xb4, 0x46, 0x02, 0x00, 0x21,
        0x01, 0x1c, 0x00, 0x00, 0x00, 0x10, 0xcf, 0x58, 0xcc, 0x01, 0x00, 0x05, 0x68, 0x65, 0x6c,
        0x6c, 0x6f, 0x0a, 0x00, 0x00, 0x00, 0xa5, 0x60, 0x97, 0xf1, 0x94, 0xf6, 0xfd, 0xe0, 0x00,
        0x01, 0x1e, 0x06, 0xc1, 0x2f, 0xa4, 0x1d, 0x1f, 0xb6, 0xf3, 0x7d, 0x01, 0x00, 0x00, 0x00,
        0x00, 0x04, 0x59, 0x5a,
    ];

    #[test]
    fn decodes_and_names_the_file_when_corrupt() {
        assert!(is_xz(HELLO) && !is_xz(b"- {\"dt\""));
        let mut out = Vec::new();
        decompress("a.xz", &mut &HELLO[..], &mut out).unwrap();
        assert_eq!(out, b"hello\n");
        let e = decompress("cut.xz", &mut &HELLO[..40], &mut Vec::new()).unwrap_err();
        assert!(matches!(e, XzError::Corrupt { .. }), "{e}");
        assert!(
            e.to_string().starts_with("cut.xz: corrupt xz stream"),
            "{e}"
        );
        let mut bad = HELLO.to_vec();
        bad[30] ^= 0xff;
        let e = decompress("bad.xz", &mut &bad[..], &mut Vec::new()).unwrap_err();
        assert!(
            e.to_string().starts_with("bad.xz: corrupt xz stream"),
            "{e}"
        );
    }
}
