//! Stage 1: raw bytes → the source the parser reads.
//!
//! RFC 9309 §2.3 says the file is UTF-8 plain text; Google's documentation says the same and
//! that a UTF-8 byte order mark is ignored. Real files are messier, so this stage records what
//! it found instead of rejecting anything:
//!
//! - a UTF-8 byte order mark at offset 0 ([`Encoding::Utf8Bom`]);
//! - UTF-16 (LE or BE) with a byte order mark, transcoded to UTF-8 as the WHATWG Encoding
//!   Standard decodes it (an unpaired surrogate or an odd last byte becomes U+FFFD);
//! - a byte order mark that was itself re-encoded as UTF-8 (`ï»¿`, bytes `C3 AF C2 BB C2 BF`);
//! - other bytes that are not UTF-8, kept as they are (matching works on bytes) and decoded
//!   lossily (as Windows-1252) only for display.

/// The parsing limit in bytes. RFC 9309 §2.5 requires crawlers to parse at least 500 KiB
/// (512,000 bytes); Google documents that it ignores content after 500 KiB.
pub const PARSING_LIMIT: usize = 512_000;

/// Google's line buffer in bytes (2083 × 8, including the terminating NUL): google/robotstxt keeps
/// at most `GOOGLE_MAX_LINE_BYTES - 1` = 16,663 bytes of a line and drops the rest.
pub const GOOGLE_MAX_LINE_BYTES: usize = 2083 * 8;

/// The bytes of a UTF-8 byte order mark.
pub const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// The bytes of a UTF-8 byte order mark that was decoded as Windows-1252 and encoded as UTF-8
/// again (it displays as `ï»¿`).
pub const MISENCODED_BOM: &[u8] = b"\xC3\xAF\xC2\xBB\xC2\xBF";

/// How the input bytes were encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Encoding {
    /// Valid UTF-8 (ASCII included) without a byte order mark.
    Utf8,
    /// Valid UTF-8 after a UTF-8 byte order mark.
    Utf8Bom,
    /// UTF-16 little-endian with a byte order mark; transcoded to UTF-8.
    Utf16Le,
    /// UTF-16 big-endian with a byte order mark; transcoded to UTF-8.
    Utf16Be,
    /// Not valid UTF-8; the bytes are parsed as they are and shown as Windows-1252.
    NotUtf8,
}

impl Encoding {
    /// Every encoding, in declaration order.
    pub const ALL: [Encoding; 5] = [
        Encoding::Utf8,
        Encoding::Utf8Bom,
        Encoding::Utf16Le,
        Encoding::Utf16Be,
        Encoding::NotUtf8,
    ];

    /// The encoding whose [`Encoding::label`] is `label`, if any (for reading back a label
    /// written into a machine output).
    pub fn from_label(label: &str) -> Option<Encoding> {
        Encoding::ALL.into_iter().find(|e| e.label() == label)
    }

    /// Human label, e.g. `UTF-8 with byte order mark`.
    pub fn label(self) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::Utf8Bom => "UTF-8 with byte order mark",
            Encoding::Utf16Le => "UTF-16 LE (transcoded)",
            Encoding::Utf16Be => "UTF-16 BE (transcoded)",
            Encoding::NotUtf8 => "not UTF-8 (shown as Windows-1252)",
        }
    }
}

/// How much of the original input a [`Source`] holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub enum Extent {
    /// The whole input.
    #[default]
    Whole,
    /// Only the first bytes of a longer input were read (an input read with a cap on memory).
    /// Counts of what lies past the parsing limit are then lower bounds.
    Prefix {
        /// The whole input's size in bytes, when known (from a regular file's metadata).
        total: Option<u64>,
    },
}

/// The source the parser reads, and what decoding found.
#[derive(Clone, Debug)]
pub struct Source {
    /// The bytes to parse. Equal to the input, except for UTF-16 input, where this is the
    /// UTF-8 transcoding (starting with the 3-byte UTF-8 byte order mark that stands for the
    /// original 2-byte one).
    pub bytes: std::sync::Arc<[u8]>,
    /// The input's encoding.
    pub encoding: Encoding,
    /// Length of the byte order mark at the start of [`Source::bytes`]: 0, 3, or 1–2 for a
    /// truncated one.
    pub bom_len: usize,
    /// The input starts with a re-encoded byte order mark ([`MISENCODED_BOM`]). It is not
    /// stripped: crawlers read it as part of the first field name.
    pub misencoded_bom: bool,
    /// Size of the original input in bytes (of the part read, see [`Source::extent`]).
    pub input_len: usize,
    /// Whether the input is whole or only its start was read.
    pub extent: Extent,
    /// Byte offset of the first invalid UTF-8 sequence in [`Source::bytes`], if any.
    pub first_invalid_utf8: Option<usize>,
    /// Number of NUL bytes in the source.
    pub nul_bytes: usize,
    /// Number of control bytes other than TAB, LF, CR, FF and NUL.
    pub control_bytes: usize,
    /// UTF-16 input that contained unpaired surrogates (replaced by U+FFFD).
    pub utf16_errors: bool,
    /// The input starts with a UTF-16 byte order mark but is kept undecoded: its raw bytes hold
    /// fields that Google's parser reads (possible only in crafted files), so both readings read
    /// the raw bytes, as Googlebot does. [`Source::encoding`] is then that of the raw bytes.
    pub utf16_kept_raw: bool,
}

impl Source {
    /// Decodes input bytes. Never fails.
    pub fn decode(input: &[u8]) -> Source {
        Self::decode_with(input, true)
    }

    /// Takes input bytes as they are, without transcoding UTF-16: what Google's parser reads.
    /// Never fails.
    pub fn undecoded(input: &[u8]) -> Source {
        Self::decode_with(input, false)
    }

    /// Whether the source was transcoded from UTF-16. google/robotstxt reads the raw bytes of
    /// such a file: a NUL byte ends each line's content, so it finds no field and the Google
    /// reading of the file is empty (everything allowed).
    pub fn is_utf16(&self) -> bool {
        matches!(self.encoding, Encoding::Utf16Le | Encoding::Utf16Be)
    }

    fn decode_with(input: &[u8], transcode_utf16: bool) -> Source {
        let (bytes, encoding, bom_len, utf16_errors) =
            if transcode_utf16 && starts_with_utf16_bom(input) {
                let le = input[0] == 0xFF;
                let mut out = Vec::with_capacity(input.len() + 1);
                out.extend_from_slice(UTF8_BOM);
                let had_errors = utf16_to_utf8(&input[2..], le, &mut out);
                (
                    std::sync::Arc::<[u8]>::from(out),
                    if le {
                        Encoding::Utf16Le
                    } else {
                        Encoding::Utf16Be
                    },
                    3,
                    had_errors,
                )
            } else {
                match utf8_bom_len(input) {
                    0 => (std::sync::Arc::from(input), Encoding::Utf8, 0, false),
                    n => (std::sync::Arc::from(input), Encoding::Utf8Bom, n, false),
                }
            };
        let first_invalid_utf8 = match std::str::from_utf8(&bytes[bom_len..]) {
            Ok(_) => None,
            Err(e) => Some(bom_len + e.valid_up_to()),
        };
        let encoding = if first_invalid_utf8.is_some() && encoding == Encoding::Utf8 {
            Encoding::NotUtf8
        } else {
            encoding
        };
        let (nul_bytes, control_bytes) = count_controls(&bytes);
        Source {
            bytes,
            misencoded_bom: input.starts_with(MISENCODED_BOM),
            input_len: input.len(),
            extent: Extent::Whole,
            first_invalid_utf8,
            nul_bytes,
            control_bytes,
            utf16_errors,
            utf16_kept_raw: false,
            encoding,
            bom_len,
        }
    }

    /// Whether only the start of a longer input was read.
    pub fn is_prefix(&self) -> bool {
        matches!(self.extent, Extent::Prefix { .. })
    }

    /// The original input's size in bytes, when known: [`Source::input_len`] for a whole
    /// input, the recorded size for a prefix, `None` when a prefix's size is unknown.
    pub fn total_len(&self) -> Option<u64> {
        match self.extent {
            Extent::Whole => Some(self.input_len as u64),
            Extent::Prefix { total } => total,
        }
    }

    /// Text of a byte range for display: UTF-8 where valid, otherwise Windows-1252 (every byte
    /// maps to a character, so nothing is hidden). Out-of-range ends are clamped.
    pub fn display(&self, start: usize, end: usize) -> std::borrow::Cow<'_, str> {
        let end = end.min(self.bytes.len());
        let start = start.min(end);
        display_bytes(&self.bytes[start..end])
    }
}

/// Counts NUL bytes and other control bytes (not TAB, LF, CR or FF). Most files have neither, so
/// a branch-free pass (which the compiler vectorises) checks for any before counting them.
fn count_controls(bytes: &[u8]) -> (usize, usize) {
    let is_control =
        |b: u8| (b < 0x20) & (b != b'\t') & (b != b'\n') & (b != b'\r') & (b != 0x0C) | (b == 0x7F);
    let any = bytes
        .chunks(256)
        .any(|chunk| chunk.iter().fold(false, |acc, &b| acc | is_control(b)));
    if !any {
        return (0, 0);
    }
    let nul = bytes.iter().filter(|&&b| b == 0).count();
    let all = bytes.iter().filter(|&&b| is_control(b)).count();
    (nul, all - nul)
}

/// Whether `input` starts with a UTF-16 byte order mark (`FF FE` or `FE FF`); such input is
/// transcoded by [`Source::decode`].
pub fn starts_with_utf16_bom(input: &[u8]) -> bool {
    input.starts_with(b"\xFF\xFE") || input.starts_with(b"\xFE\xFF")
}

/// The length in bytes of the UTF-8 byte order mark at the start of `input`: 3 for a whole
/// one, 1 or 2 for a truncated one (`EF BB`, or `EF` not followed by `BB`; google/robotstxt
/// skips any prefix of the mark, so it is not part of the first line either), else 0.
pub fn utf8_bom_len(input: &[u8]) -> usize {
    if input.starts_with(UTF8_BOM) {
        3
    } else {
        truncated_bom(input).unwrap_or(0)
    }
}

/// The length of a truncated UTF-8 byte order mark at the start (`EF BB` not followed by `BF`,
/// or `EF` not followed by `BB`): 1 or 2.
fn truncated_bom(input: &[u8]) -> Option<usize> {
    match input {
        [0xEF, 0xBB, 0xBF, ..] => None,
        [0xEF, 0xBB, ..] => Some(2),
        [0xEF, next, ..] if *next != 0xBB && !(0x80..0xC0).contains(next) => Some(1),
        [0xEF] => Some(1),
        _ => None,
    }
}

/// Decodes bytes for display: UTF-8 where valid, else Windows-1252 (every byte maps to a
/// character, so nothing is hidden).
pub fn display_bytes(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => std::borrow::Cow::Borrowed(s),
        Err(_) => std::borrow::Cow::Owned(bytes.iter().map(|&b| windows_1252(b)).collect()),
    }
}

/// The characters of bytes 0x80–0x9F in Windows-1252, from the WHATWG Encoding Standard's
/// `index-windows-1252`; every other byte is the code point of the same value. A table of our
/// own rather than `encoding_rs`: its decoders dispatch over every encoding, which would put
/// all their tables into the WebAssembly module of the pages' tester (about 250 KB). The tests
/// compare both decoders with `encoding_rs`.
const WINDOWS_1252_80_9F: [char; 32] = [
    '\u{20AC}', '\u{0081}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{02C6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{008D}', '\u{017D}', '\u{008F}',
    '\u{0090}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}', '\u{0153}', '\u{009D}', '\u{017E}', '\u{0178}',
];

/// The character of byte `b` in Windows-1252.
fn windows_1252(b: u8) -> char {
    match b {
        0x80..=0x9F => WINDOWS_1252_80_9F[usize::from(b - 0x80)],
        _ => char::from(b),
    }
}

/// Appends to `out` the UTF-8 of the UTF-16 code units in `body` (little-endian when `le`),
/// decoded as the WHATWG Encoding Standard decodes UTF-16: each unpaired surrogate, and an odd
/// last byte, becomes U+FFFD. Returns whether any did.
fn utf16_to_utf8(body: &[u8], le: bool, out: &mut Vec<u8>) -> bool {
    let units = body.chunks_exact(2).map(|p| {
        if le {
            u16::from_le_bytes([p[0], p[1]])
        } else {
            u16::from_be_bytes([p[0], p[1]])
        }
    });
    let mut errors = false;
    let mut buf = [0u8; 4];
    for c in char::decode_utf16(units) {
        let c = c.unwrap_or_else(|_| {
            errors = true;
            char::REPLACEMENT_CHARACTER
        });
        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }
    // An odd last byte is one more error, unless the stream already ends in an unpaired lead
    // surrogate: the standard reports the end of a stream that is mid-character once.
    let ends_in_lead = body
        .len()
        .checked_sub(3)
        .map(|i| [body[i], body[i + 1]])
        .map(|p| {
            if le {
                u16::from_le_bytes(p)
            } else {
                u16::from_be_bytes(p)
            }
        })
        .is_some_and(|u| (0xD800..0xDC00).contains(&u));
    if body.len() % 2 == 1 {
        errors = true;
        if !ends_in_lead {
            out.extend_from_slice("\u{FFFD}".as_bytes());
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    //! The decoders of our own give what `encoding_rs` (an implementation of the WHATWG
    //! Encoding Standard) gives.
    use super::{display_bytes, utf16_to_utf8};
    use proptest::prelude::*;

    #[test]
    fn every_encoding_is_listed_and_found_by_its_label() {
        use super::Encoding;
        // The match fails to compile when a variant is added without a place in `ALL`.
        let place = |e: Encoding| match e {
            Encoding::Utf8 => 0,
            Encoding::Utf8Bom => 1,
            Encoding::Utf16Le => 2,
            Encoding::Utf16Be => 3,
            Encoding::NotUtf8 => 4,
        };
        for (i, e) in Encoding::ALL.into_iter().enumerate() {
            assert_eq!(place(e), i);
            assert_eq!(Encoding::from_label(e.label()), Some(e));
        }
        assert_eq!(Encoding::from_label("latin-1"), None);
    }

    #[test]
    fn windows_1252_every_byte() {
        for b in 0..=255u8 {
            // The byte beside one that is never UTF-8, so the slice is decoded as Windows-1252.
            let bytes = [b, 0xFF];
            let expected = encoding_rs::WINDOWS_1252
                .decode_without_bom_handling(&bytes)
                .0;
            assert_eq!(display_bytes(&bytes), expected, "byte {b:#04x}");
        }
    }

    fn check_utf16(body: &[u8]) {
        for (le, enc) in [
            (true, encoding_rs::UTF_16LE),
            (false, encoding_rs::UTF_16BE),
        ] {
            let (expected, errors) = enc.decode_without_bom_handling(body);
            let mut out = Vec::new();
            let our_errors = utf16_to_utf8(body, le, &mut out);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                expected,
                "{body:02x?} le={le}"
            );
            assert_eq!(our_errors, errors, "{body:02x?} le={le}");
        }
    }

    #[test]
    fn utf16_edges() {
        for body in [
            &b""[..],
            b"U\0s\0",
            b"U\0s\0e",
            b"\x00\xD8",
            b"\x00\xD8\x00\xDC",
            b"\x00\xDC\x00\xD8a\0",
            b"\x3D\xD8\x00\xDE",
            b"a\0\xD4\xDA3",
            b"\xD4\xDA3",
            b"\x00\xDC3",
        ] {
            check_utf16(body);
        }
    }

    proptest! {
        #[test]
        fn utf16_any(body in proptest::collection::vec(any::<u8>(), 0..64)) {
            check_utf16(&body);
        }

        #[test]
        fn utf16_surrogate_heavy(units in proptest::collection::vec(
            prop_oneof![0xD800u16..0xE000, 0u16..0x80, any::<u16>()], 0..32)) {
            let body: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
            check_utf16(&body);
        }
    }
}
