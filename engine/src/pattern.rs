//! Path patterns and URL paths: normalisation and matching (RFC 9309 §2.2.2–§2.2.3).
//!
//! A pattern is matched against the start of a URL's path (with parameters and query):
//! `*` matches any sequence of bytes and a final `$` anchors the pattern at the end of the path.
//! Matching runs in time linear in the path for each literal piece between `*`s (it uses
//! `memchr::memmem`), so patterns full of `*` cannot make it slow.
//!
//! Normalisation differs by reading:
//! - Google (google/robotstxt `MaybeEscapePattern`): in patterns, bytes ≥ 0x80 become `%XX` and the
//!   hex digits of existing escapes are upper-cased; URLs are taken as they are.
//! - RFC 9309: §2.2.2 asks for escapes of unreserved characters (`A–Z a–z 0–9 - . _ ~`) in the
//!   URI to be decoded before matching. This reading does that on both sides (in patterns too),
//!   and, as its own choice following RFC 3986 §2.1 and §6.2.2, upper-cases other escapes and
//!   percent-encodes non-ASCII bytes, controls and characters outside the URI grammar; a literal `*` or `$` in the URL becomes `%2A` / `%24`, so that
//!   the pattern `%2A` matches it (§2.2.3, Figure 6).

use crate::Reading;
use std::borrow::Cow;

const HEX: &[u8; 16] = b"0123456789ABCDEF";

fn hex_val(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// Whether a byte must be percent-encoded before comparison in the RFC 9309 reading: controls,
/// space, DEL, bytes ≥ 0x80, and ASCII characters that RFC 3986 does not allow in a URI.
fn rfc_must_encode(b: u8) -> bool {
    b <= 0x20
        || b >= 0x7F
        || matches!(
            b,
            b'"' | b'<' | b'>' | b'\\' | b'^' | b'`' | b'{' | b'|' | b'}'
        )
}

fn push_escape(out: &mut Vec<u8>, b: u8) {
    out.extend_from_slice(&[b'%', HEX[(b >> 4) as usize], HEX[(b & 15) as usize]]);
}

/// Which side of the comparison is being normalised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// A rule's path pattern: `*` and a final `$` are special.
    Pattern,
    /// A URL's path, parameters and query: every byte is literal.
    Url,
}

/// Normalises a pattern or URL path for comparison in `reading`. Returns the input unchanged
/// (borrowed) when nothing needs to change.
pub fn normalize(bytes: &[u8], reading: Reading, side: Side) -> Cow<'_, [u8]> {
    match reading {
        Reading::Google => match side {
            Side::Url => Cow::Borrowed(bytes),
            Side::Pattern => google_escape_pattern(bytes),
        },
        Reading::Rfc9309 => rfc_normalize(bytes, side),
    }
}

/// Whether `bytes` hold a byte ≥ 0x80 or one of `specials` (none of them 0): eight bytes at a
/// time, without branching on the bytes.
#[inline]
pub(crate) fn any_high_or<const N: usize>(bytes: &[u8], specials: [u8; N]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    debug_assert!(!specials.contains(&0));
    // The high bit of some byte is set exactly when some byte of the word is zero (a borrow
    // can set others too, but only after a zero byte).
    let some_zero = |x: u64| x.wrapping_sub(ONES) & !x;
    let found_in = |w: u64| {
        specials
            .iter()
            .fold(w, |found, &s| found | some_zero(w ^ (ONES * u64::from(s))))
    };
    let mut chunks = bytes.chunks_exact(8);
    let mut found = 0u64;
    for chunk in &mut chunks {
        found |= found_in(u64::from_le_bytes(chunk.try_into().unwrap_or_default()));
    }
    // The last bytes padded with zeros, which are neither high nor special.
    let mut last = [0u8; 8];
    last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    found |= found_in(u64::from_le_bytes(last));
    found & HIGH != 0
}

/// Slices from this length on are searched with `memchr`; shorter ones (most patterns, paths
/// and values) by [`find_byte`] and [`find_byte2`] themselves, eight bytes at a time, which
/// costs less than the call. (Lines are not searched this way: over the rest of a file, where
/// the next line end usually lies within a few dozen bytes, `memchr2` costs less.)
const SHORT_SCAN: usize = 64;

/// The first position in `hay` of a byte `wanted` accepts, eight bytes at a time: `marks`
/// gives, for eight bytes read little-endian, a word whose lowest set high bit (0x80 of a byte)
/// is at the first byte wanted among them, and none when there is none ([`zero_bytes`] of the
/// word with the wanted byte cleared). Slices under eight bytes are read byte by byte.
#[inline(always)]
fn scan_words(
    hay: &[u8],
    marks: impl Fn(u64) -> u64,
    wanted: impl Fn(u8) -> bool,
) -> Option<usize> {
    let word = |at: usize| u64::from_le_bytes(hay[at..at + 8].try_into().unwrap_or_default());
    if hay.len() < 8 {
        return hay.iter().position(|&b| wanted(b));
    }
    let mut at = 0;
    while at + 8 <= hay.len() {
        let m = marks(word(at));
        if m != 0 {
            return Some(at + (m.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    // The last eight bytes, overlapping those already read: none of those held a wanted byte,
    // so the first one found is the first of the slice.
    let last = hay.len() - 8;
    let m = marks(word(last));
    (m != 0).then(|| last + (m.trailing_zeros() / 8) as usize)
}

/// The high bit (0x80) of every zero byte of `x`, and possibly of bytes after the first zero
/// one (a borrow), never before it: the lowest set bit marks the first zero byte exactly.
#[inline(always)]
fn zero_bytes(x: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    x.wrapping_sub(ONES) & !x & HIGH
}

/// The first position of `needle` in `hay`, as `memchr::memchr` gives it.
#[inline]
pub(crate) fn find_byte(needle: u8, hay: &[u8]) -> Option<usize> {
    if hay.len() >= SHORT_SCAN {
        return memchr::memchr(needle, hay);
    }
    let splat = 0x0101_0101_0101_0101 * u64::from(needle);
    scan_words(hay, |w| zero_bytes(w ^ splat), |b| b == needle)
}

/// The first position of `a` or `b` in `hay`, as `memchr::memchr2` gives it.
#[inline]
pub(crate) fn find_byte2(a: u8, b: u8, hay: &[u8]) -> Option<usize> {
    let (sa, sb) = (
        0x0101_0101_0101_0101 * u64::from(a),
        0x0101_0101_0101_0101 * u64::from(b),
    );
    if hay.len() >= SHORT_SCAN {
        return memchr::memchr2(a, b, hay);
    }
    let marks = |w: u64| zero_bytes(w ^ sa) | zero_bytes(w ^ sb);
    scan_words(hay, marks, |x| x == a || x == b)
}

/// google/robotstxt's `MaybeEscapePattern`: upper-case the hex digits of `%xx` escapes and
/// percent-encode bytes ≥ 0x80.
pub fn google_escape_pattern(bytes: &[u8]) -> Cow<'_, [u8]> {
    // Most patterns are plain ASCII without `%`: one branch-free pass tells.
    if !any_high_or(bytes, [b'%']) {
        return Cow::Borrowed(bytes);
    }
    let needs = bytes.iter().enumerate().any(|(i, &b)| {
        b >= 0x80
            || (b == b'%'
                && i + 2 < bytes.len()
                && hex_val(bytes[i + 1]).is_some()
                && hex_val(bytes[i + 2]).is_some()
                && (bytes[i + 1].is_ascii_lowercase() || bytes[i + 2].is_ascii_lowercase()))
    });
    if !needs {
        return Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len() + 8);
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'%'
            && i + 2 < bytes.len()
            && hex_val(bytes[i + 1]).is_some()
            && hex_val(bytes[i + 2]).is_some()
        {
            out.extend_from_slice(&[
                b'%',
                bytes[i + 1].to_ascii_uppercase(),
                bytes[i + 2].to_ascii_uppercase(),
            ]);
            i += 3;
        } else if b >= 0x80 {
            push_escape(&mut out, b);
            i += 1;
        } else {
            out.push(b);
            i += 1;
        }
    }
    Cow::Owned(out)
}

/// What the RFC 9309 reading may change about a byte ([`rfc_normalize`]): [`RFC_ESCAPE`] for
/// `%` and the bytes it must encode, [`RFC_DOLLAR`] for `$`, [`RFC_STAR`] for `*`.
const RFC_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = if c == b'%'
            || c <= 0x20
            || c >= 0x7F
            || matches!(
                c,
                b'"' | b'<' | b'>' | b'\\' | b'^' | b'`' | b'{' | b'|' | b'}'
            ) {
            RFC_ESCAPE
        } else if c == b'$' {
            RFC_DOLLAR
        } else if c == b'*' {
            RFC_STAR
        } else {
            0
        };
        b += 1;
    }
    t
};
const RFC_ESCAPE: u8 = 1;
const RFC_DOLLAR: u8 = 2;
const RFC_STAR: u8 = 4;

fn rfc_normalize(bytes: &[u8], side: Side) -> Cow<'_, [u8]> {
    let last = bytes.len().wrapping_sub(1);
    let special = |i: usize, b: u8| match side {
        Side::Url => b == b'*' || b == b'$',
        Side::Pattern => b == b'$' && i != last,
    };
    // One table lookup a byte: most patterns and paths need nothing. In a pattern, `*` is
    // special and a final `$` is the anchor.
    let classes = |s: &[u8]| {
        s.iter()
            .fold(0u8, |any, &b| any | RFC_CLASS[usize::from(b)])
    };
    let needs = match side {
        Side::Url => classes(bytes) != 0,
        Side::Pattern => bytes.split_last().is_some_and(|(&end, body)| {
            classes(body) & (RFC_ESCAPE | RFC_DOLLAR) != 0
                || RFC_CLASS[usize::from(end)] & RFC_ESCAPE != 0
        }),
    };
    if !needs {
        return Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len() + 8);
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'%' {
            if let (Some(h), Some(l)) = (
                bytes.get(i + 1).copied().and_then(hex_val),
                bytes.get(i + 2).copied().and_then(hex_val),
            ) {
                let v = h * 16 + l;
                if is_unreserved(v) {
                    out.push(v);
                } else {
                    push_escape(&mut out, v);
                }
                i += 3;
                continue;
            }
            push_escape(&mut out, b'%');
        } else if rfc_must_encode(b) || special(i, b) {
            push_escape(&mut out, b);
        } else {
            out.push(b);
        }
        i += 1;
    }
    Cow::Owned(out)
}

/// The path, parameters and query of a URL, as google/robotstxt's `GetPathParamsQuery` extracts
/// them: the scheme and authority are dropped, the fragment is dropped, a missing path gives `/`,
/// and a result starting with `?` or `;` gets a leading `/`. A plain path is returned as it is.
pub fn path_params_query(url: &str) -> Cow<'_, str> {
    let b = url.as_bytes();
    let search_start = if b.starts_with(b"//") { 2 } else { 0 };
    let find_any = |from: usize, set: &[u8]| {
        b.get(from..)
            .and_then(|s| s.iter().position(|c| set.contains(c)))
            .map(|i| i + from)
    };
    let early_path = find_any(search_start, b"/?;");
    let mut protocol_end = url
        .get(search_start..)
        .and_then(|s| s.find("://"))
        .map(|i| i + search_start);
    if let (Some(e), Some(p)) = (early_path, protocol_end)
        && e < p
    {
        protocol_end = None;
    }
    let from = protocol_end.map_or(search_start, |p| p + 3);
    let Some(path_start) = find_any(from, b"/?;") else {
        return Cow::Borrowed("/");
    };
    let hash = find_any(search_start, b"#");
    if let Some(h) = hash
        && h < path_start
    {
        return Cow::Borrowed("/");
    }
    let path_end = hash.unwrap_or(b.len());
    let s = &url[path_start..path_end];
    if b[path_start] != b'/' {
        Cow::Owned(format!("/{s}"))
    } else {
        Cow::Borrowed(s)
    }
}

/// Whether `pattern` (already normalised) matches the start of `path` (already normalised).
///
/// `*` matches any sequence of bytes; a `$` that is the last byte anchors the match at the end of
/// the path; any other `$` is literal. An empty pattern matches every path, so callers must
/// handle empty rules themselves: both readings of this tool treat them as matching nothing.
/// That is Google's behaviour (its documentation says rules without a path are ignored, and
/// google/robotstxt gives an empty pattern priority 0, which never decides); RFC 9309's grammar
/// allows an empty value (§2.2) but does not say what it matches.
pub fn matches(pattern: &[u8], path: &[u8]) -> bool {
    let (pat, anchored) = match pattern.split_last() {
        Some((b'$', rest)) => (rest, true),
        _ => (pattern, false),
    };
    // The literal start, compared byte by byte: most patterns fail within a few bytes, and a
    // pattern without `*` is decided here.
    let mut star = None;
    for (i, &p) in pat.iter().enumerate() {
        if p == b'*' {
            star = Some(i);
            break;
        }
        if path.get(i) != Some(&p) {
            return false;
        }
    }
    let Some(star) = star else {
        return !anchored || path.len() == pat.len();
    };
    let mut pos = star;
    let mut rest = &pat[star + 1..];
    loop {
        match find_byte(b'*', rest) {
            Some(next) => {
                let piece = &rest[..next];
                if !piece.is_empty() {
                    match find(&path[pos..], piece) {
                        Some(i) => pos += i + piece.len(),
                        None => return false,
                    }
                }
                rest = &rest[next + 1..];
            }
            None => {
                // The last piece: anywhere after `pos`, or at the very end when anchored.
                return if anchored {
                    path.len() >= pos + rest.len() && path.ends_with(rest)
                } else {
                    rest.is_empty() || find(&path[pos..], rest).is_some()
                };
            }
        }
    }
}

/// The first position of `needle` (not empty) in `hay`. Paths are mostly short: below
/// [`SHORT_HAYSTACK`] bytes, or when the path's length times the needle's is at most
/// [`SHORT_WORK`], each place where the needle's first byte occurs is compared in turn (at most
/// that many byte comparisons), which costs less than setting up a substring searcher; other
/// searches use `memchr::memmem`, linear whatever the input.
#[inline]
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if hay.len() >= SHORT_HAYSTACK && hay.len().saturating_mul(needle.len()) > SHORT_WORK {
        return memchr::memmem::find(hay, needle);
    }
    let last = hay.len().checked_sub(needle.len())?;
    let (&first, rest) = needle.split_first()?;
    let mut from = 0;
    while let Some(i) = find_byte(first, &hay[from..=last]) {
        let at = from + i;
        if hay[at + 1..at + needle.len()] == *rest {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// Paths shorter than this are searched by comparing at each candidate start ([`find`]).
const SHORT_HAYSTACK: usize = 64;

/// Byte comparisons up to which a longer path is also searched by comparing at each candidate
/// start ([`find`]): the comparisons rarely come near the bound, and building a `memmem`
/// searcher costs a few thousand instructions whatever the search.
const SHORT_WORK: usize = 8192;

/// What a normalised pattern requires of the paths it matches, or what a path holds, as two
/// sets folded into 128 bits each: its literal bytes (bit `b % 128` for each), and its pairs of
/// adjacent literal bytes (a hash of each pair to 7 bits; for a pattern, only pairs inside one
/// piece between `*`s). With [`ByteSets::present`] of a path, a pattern whose
/// [`ByteSets::required`] are not [`ByteSets::within`] them cannot match it: a cheap filter
/// when many patterns meet one path, which the pairs keep sharp when the patterns share one
/// alphabet (percent-encoded ones).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ByteSets {
    bytes: u128,
    pairs: u128,
}

impl ByteSets {
    /// What `pattern` (normalised) requires of any path it matches: `*` and a final `$`
    /// require nothing.
    pub fn required(pattern: &[u8]) -> ByteSets {
        let pattern = pattern.strip_suffix(b"$").unwrap_or(pattern);
        let mut sets = ByteSets::default();
        for piece in pattern.split(|&b| b == b'*') {
            sets.add(piece);
        }
        sets
    }

    /// What `path` (normalised) holds.
    pub fn present(path: &[u8]) -> ByteSets {
        let mut sets = ByteSets::default();
        sets.add(path);
        sets
    }

    /// Whether everything in `self` is in `present`.
    #[inline]
    pub fn within(self, present: ByteSets) -> bool {
        (self.bytes & !present.bytes) | (self.pairs & !present.pairs) == 0
    }

    fn add(&mut self, literal: &[u8]) {
        // One pass, with the 128-bit sets kept as halves of 64 bits: a shift of a `u128` by a
        // variable amount costs several instructions.
        let (mut bytes, mut pairs) = ([0u64; 2], [0u64; 2]);
        let mut prev: Option<u8> = None;
        for &b in literal {
            let m = b % 128;
            bytes[usize::from(m >> 6)] |= 1 << (m & 63);
            if let Some(p) = prev {
                let pair = (u32::from(p) << 8 | u32::from(b)).wrapping_mul(0x9E37_79B1) >> 25;
                pairs[(pair >> 6) as usize] |= 1 << (pair & 63);
            }
            prev = Some(b);
        }
        self.bytes |= u128::from(bytes[0]) | u128::from(bytes[1]) << 64;
        self.pairs |= u128::from(pairs[0]) | u128::from(pairs[1]) << 64;
    }
}

#[cfg(test)]
mod tests {
    use super::{ByteSets, Side, find, rfc_must_encode, rfc_normalize};

    #[test]
    fn rfc_normalisation_changes_what_it_must() {
        // Whether a byte string needs any change, by the rules the reading follows.
        let needs = |s: &[u8], side: Side| {
            s.iter().enumerate().any(|(i, &b)| {
                b == b'%'
                    || rfc_must_encode(b)
                    || match side {
                        Side::Url => b == b'*' || b == b'$',
                        Side::Pattern => b == b'$' && i + 1 != s.len(),
                    }
            })
        };
        let mut inputs: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
        for a in [b'/', b'$', b'*', b'%', b' ', b'a', 0x80] {
            for b in [b'/', b'$', b'*', b'%', b' ', b'a', 0x80] {
                inputs.push(vec![b'/', a, b]);
            }
        }
        inputs.push(Vec::new());
        for s in &inputs {
            for side in [Side::Url, Side::Pattern] {
                let borrowed = matches!(rfc_normalize(s, side), std::borrow::Cow::Borrowed(_));
                assert_eq!(borrowed, !needs(s, side), "{s:?} {side:?}");
            }
        }
    }

    /// The sets of `literal` bit by bit, as [`ByteSets`] defines them.
    fn by_definition(literal: &[u8]) -> ByteSets {
        let mut sets = ByteSets::default();
        for (i, &b) in literal.iter().enumerate() {
            sets.bytes |= 1u128 << (b % 128);
            if i > 0 {
                let pair =
                    (u32::from(literal[i - 1]) << 8 | u32::from(b)).wrapping_mul(0x9E37_79B1) >> 25;
                sets.pairs |= 1u128 << pair;
            }
        }
        sets
    }

    #[test]
    fn short_scans_find_what_memchr_finds() {
        for len in (0..80).chain([127, 128, 129, 200]) {
            for at in 0..=len {
                for (x, y) in [(b'*', b'$'), (0, 0xFF), (0x80, b'a'), (0x7F, 0x01)] {
                    // `x` at `at` (unless `at == len`), `y` two bytes later, filler between
                    // with bytes that differ from both by one bit.
                    let mut hay: Vec<u8> = (0..len)
                        .map(|i| (x ^ 1).wrapping_add(i as u8 % 3))
                        .collect();
                    hay.iter_mut().for_each(|b| {
                        if *b == x || *b == y {
                            *b ^= 0x40;
                        }
                    });
                    if at < len {
                        hay[at] = x;
                    }
                    if at + 2 < len {
                        hay[at + 2] = y;
                    }
                    assert_eq!(
                        super::find_byte(x, &hay),
                        memchr::memchr(x, &hay),
                        "{hay:?}"
                    );
                    assert_eq!(
                        super::find_byte(y, &hay),
                        memchr::memchr(y, &hay),
                        "{hay:?}"
                    );
                    assert_eq!(
                        super::find_byte2(y, x, &hay),
                        memchr::memchr2(y, x, &hay),
                        "{hay:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn any_high_or_finds_every_byte_it_looks_for() {
        for len in 0..20 {
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = b;
                    let expected = b >= 0x80 || b == b'%' || b == b'$';
                    assert_eq!(
                        super::any_high_or(&bytes, [b'%', b'$']),
                        expected,
                        "{bytes:?}"
                    );
                }
            }
            assert!(!super::any_high_or(&vec![0u8; len], [b'%']));
        }
    }

    #[test]
    fn byte_sets_hold_every_byte_and_pair() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for len in 0..200 {
            let literal: Vec<u8> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x as u8
                })
                .collect();
            assert_eq!(ByteSets::present(&literal), by_definition(&literal));
        }
        assert_eq!(
            ByteSets::required(b"/a*bc$"),
            ByteSets {
                bytes: by_definition(b"/abc").bytes,
                pairs: by_definition(b"/a").pairs | by_definition(b"bc").pairs,
            }
        );
    }

    /// Both ways [`find`] searches (comparing at each candidate start, or `memchr::memmem`)
    /// give the first position, on paths and needles either side of the bounds between them.
    #[test]
    fn find_gives_the_first_position() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        for _ in 0..20_000 {
            // A small alphabet, so that needles occur and nearly occur often.
            let hay: Vec<u8> = (0..next(400)).map(|_| b"ab/%"[next(4) as usize]).collect();
            let needle: Vec<u8> = (0..1 + next(40))
                .map(|_| b"ab/%"[next(4) as usize])
                .collect();
            assert_eq!(
                find(&hay, &needle),
                memchr::memmem::find(&hay, &needle),
                "{hay:?} {needle:?}"
            );
        }
    }
}
