//! The YAML sidecar beside a robots.txt file: how the file was fetched.
//!
//! A sidecar is `<name>.yaml` (or `.yml`) next to `<name>.txt`; it may also stand alone when
//! nothing was received. The tool never fetches anything: the sidecar is the only record of the
//! HTTP exchange. Example:
//!
//! ```yaml
//! url: https://shop.example/robots.txt     # the URL first asked for
//! status: 200                              # HTTP status of the final answer (absent with `error`)
//! fetched_at: 2026-10-20T08:00:00Z         # RFC 3339: when this attempt was made
//! content_type: text/plain; charset=utf-8  # optional
//! redirects:                               # optional: each hop, in order
//!   - status: 301
//!     location: https://www.shop.example/robots.txt
//! error: timeout                           # optional: timeout | dns | refused | tls | other text
//! cached:                                  # optional: the .txt is a copy kept from an earlier fetch
//!   fetched_at: 2026-10-19T08:00:00Z
//!   status: 200
//! ```
//!
//! Every field is optional. Unknown fields are kept and listed on the host page as ignored.
//! Reading the file is the application's part; this module parses its text.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// One redirect hop: the status of a redirecting answer and where it pointed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
pub struct Redirect {
    /// HTTP status of the redirecting answer (301, 302, 307, 308, …).
    #[serde(default)]
    pub status: Option<u16>,
    /// The `Location` it pointed to (absolute, or relative to the URL asked).
    #[serde(default)]
    pub location: Option<String>,
}

/// The earlier fetch a cached copy comes from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
pub struct Cached {
    /// When the copy was fetched (RFC 3339).
    #[serde(default)]
    pub fetched_at: Option<String>,
    /// The HTTP status it was fetched with.
    #[serde(default)]
    pub status: Option<u16>,
}

/// A sidecar, as written.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
pub struct Sidecar {
    /// The URL first asked for, e.g. `https://shop.example/robots.txt`.
    #[serde(default)]
    pub url: Option<String>,
    /// HTTP status of the final answer; absent when `error` is set.
    #[serde(default)]
    pub status: Option<u16>,
    /// When this attempt was made (RFC 3339, e.g. `2026-10-20T08:00:00Z`).
    #[serde(default)]
    pub fetched_at: Option<String>,
    /// The `Content-Type` of the final answer.
    #[serde(default)]
    pub content_type: Option<String>,
    /// Redirect hops, in order.
    #[serde(default)]
    pub redirects: Vec<Redirect>,
    /// Why no HTTP answer arrived: `timeout`, `dns`, `refused`, `tls` or other text.
    #[serde(default)]
    pub error: Option<String>,
    /// Present when the `.txt` file is a copy kept from an earlier successful fetch.
    #[serde(default)]
    pub cached: Option<Cached>,
    /// Fields this version does not know (ignored, listed on the host page).
    #[serde(flatten)]
    pub unknown: BTreeMap<String, serde_norway::Value>,
}

impl Sidecar {
    /// Parses sidecar YAML. An empty document is an empty sidecar.
    ///
    /// # Errors
    /// The YAML parser's message when the text is not a mapping of the fields above; a message
    /// naming the field when a status is outside 100–599; a message when the text nests or
    /// aliases more than [`check_yaml_shape`] allows (refused before the YAML parser runs).
    pub fn parse(text: &str) -> Result<Sidecar, String> {
        if text.trim().is_empty() {
            return Ok(Sidecar::default());
        }
        check_yaml_shape(text)?;
        let s: Sidecar = serde_norway::from_str(text).map_err(|e| e.to_string())?;
        s.check_statuses()?;
        Ok(s)
    }

    /// Checks that every status is an HTTP status code (100–599, RFC 9110 §15).
    fn check_statuses(&self) -> Result<(), String> {
        let all =
            self.status
                .map(|st| ("status".to_string(), st))
                .into_iter()
                .chain(
                    self.redirects.iter().enumerate().filter_map(|(i, r)| {
                        r.status.map(|st| (format!("redirects[{i}].status"), st))
                    }),
                )
                .chain(
                    self.cached
                        .as_ref()
                        .and_then(|c| c.status)
                        .map(|st| ("cached.status".to_string(), st)),
                );
        for (field, st) in all {
            if !(100..=599).contains(&st) {
                return Err(format!(
                    "{field}: {st} is not an HTTP status code (100–599)"
                ));
            }
        }
        Ok(())
    }

    /// The names of fields this version does not know, sorted.
    pub fn unknown_fields(&self) -> Vec<&str> {
        self.unknown.keys().map(String::as_str).collect()
    }
}

/// Deepest nesting of YAML collections accepted in a sidecar (a real one nests three deep:
/// the mapping, `redirects`, a hop).
pub const MAX_YAML_DEPTH: usize = 32;

/// Most alias nodes (`*name`) accepted in a sidecar; a real one has none.
pub const MAX_YAML_ALIASES: usize = 64;

/// Refuses YAML whose shape would make the parser slow, in one linear pass over the text and
/// before any parsing: collections nested deeper than [`MAX_YAML_DEPTH`] (flow `[`/`{`, block
/// sequences and mappings by indentation, and compact `- - -` entries on one line), and more
/// than [`MAX_YAML_ALIASES`] aliases. The YAML parser's own cost grows with the square of the
/// nesting depth, so a 200 KB file of `[` would otherwise take minutes before failing.
///
/// The count is conservative: brackets inside plain scalars are counted as nesting, quoted
/// text and comments are skipped.
///
/// # Errors
/// A message saying what is too deep or too many, and where (1-based line).
pub fn check_yaml_shape(text: &str) -> Result<(), String> {
    let mut flow = 0usize;
    let mut aliases = 0usize;
    // Indentation columns of the open block collections.
    let mut indents: Vec<usize> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let lineno = i + 1;
        let bytes = line.as_bytes();
        let indent = bytes.iter().take_while(|&&b| b == b' ').count();
        let rest = &bytes[indent..];
        if flow == 0 && !rest.is_empty() && rest[0] != b'#' {
            while indents.last().is_some_and(|&top| top >= indent) {
                indents.pop();
            }
            indents.push(indent);
            // Compact block entries on one line: `- - - x`, `? - x`.
            let mut j = 0;
            let mut compact = 0usize;
            while j < rest.len()
                && matches!(rest[j], b'-' | b'?' | b':')
                && rest.get(j + 1).is_none_or(|&b| b == b' ')
            {
                compact += 1;
                j += 1;
                while rest.get(j) == Some(&b' ') {
                    j += 1;
                }
            }
            if indents.len() + compact > MAX_YAML_DEPTH {
                return Err(format!(
                    "line {lineno}: YAML nested more than {MAX_YAML_DEPTH} levels deep; \
                     refused before parsing"
                ));
            }
        }
        let mut quote: Option<u8> = None;
        let mut prev = b' ';
        for &b in rest {
            match quote {
                Some(q) => {
                    if b == q {
                        quote = None;
                    }
                }
                None => match b {
                    b'#' if prev == b' ' || prev == b'\t' => break,
                    b'\'' | b'"' if matches!(prev, b' ' | b'[' | b'{' | b',' | b':') => {
                        quote = Some(b)
                    }
                    b'[' | b'{' => {
                        flow += 1;
                        if flow + indents.len() > MAX_YAML_DEPTH {
                            return Err(format!(
                                "line {lineno}: YAML nested more than {MAX_YAML_DEPTH} levels \
                                 deep; refused before parsing"
                            ));
                        }
                    }
                    b']' | b'}' => flow = flow.saturating_sub(1),
                    b'*' if matches!(prev, b' ' | b'[' | b'{' | b',' | b':') => {
                        aliases += 1;
                        if aliases > MAX_YAML_ALIASES {
                            return Err(format!(
                                "line {lineno}: more than {MAX_YAML_ALIASES} YAML aliases; \
                                 refused before parsing"
                            ));
                        }
                    }
                    _ => {}
                },
            }
            prev = b;
        }
    }
    Ok(())
}

/// Parses an RFC 3339 timestamp.
///
/// # Errors
/// The parser's message.
pub fn parse_time(s: &str) -> Result<OffsetDateTime, String> {
    OffsetDateTime::parse(s.trim(), &Rfc3339).map_err(|e| format!("`{s}` is not RFC 3339: {e}"))
}

/// Formats a time as RFC 3339 in UTC, e.g. `2026-10-20T08:00:00Z`.
pub fn format_time(t: OffsetDateTime) -> String {
    t.to_offset(time::UtcOffset::UTC)
        .format(&Rfc3339)
        .unwrap_or_else(|_| t.unix_timestamp().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_field() {
        let s = Sidecar::parse(
            "url: https://a.example/robots.txt\nstatus: 503\nfetched_at: 2026-10-21T09:00:00Z\n\
             redirects:\n  - status: 301\n    location: https://b.example/robots.txt\n\
             cached:\n  fetched_at: 2026-10-20T08:00:00Z\n  status: 200\nextra: 1\n",
        )
        .unwrap();
        assert_eq!(s.url.as_deref(), Some("https://a.example/robots.txt"));
        assert_eq!(s.status, Some(503));
        assert_eq!(s.redirects.len(), 1);
        assert_eq!(s.redirects[0].status, Some(301));
        assert_eq!(s.cached.as_ref().unwrap().status, Some(200));
        assert_eq!(s.unknown_fields(), vec!["extra"]);
        let t = parse_time(s.fetched_at.as_deref().unwrap()).unwrap();
        assert_eq!(format_time(t), "2026-10-21T09:00:00Z");
    }

    #[test]
    fn bad_yaml_is_an_error_not_a_panic() {
        assert!(Sidecar::parse("status: [").is_err());
        assert!(Sidecar::parse("- a\n- b\n").is_err());
        assert!(Sidecar::parse("status: two hundred").is_err());
        assert_eq!(Sidecar::parse("").unwrap(), Sidecar::default());
        for bad in [
            "status: 700",
            "status: 99",
            "redirects:\n  - status: 0\n",
            "cached:\n  status: 1000\n",
        ] {
            let e = Sidecar::parse(bad).unwrap_err();
            assert!(e.contains("not an HTTP status code"), "{bad}: {e}");
        }
        assert!(Sidecar::parse("status: 599\nredirects:\n  - status: 100\n").is_ok());
    }

    #[test]
    fn over_deep_or_aliased_yaml_is_refused_before_parsing() {
        let flow = "[".repeat(200_000);
        let e = Sidecar::parse(&flow).unwrap_err();
        assert!(e.contains("nested more than 32"), "{e}");
        let braces = format!("a: {}", "{b: ".repeat(50_000));
        assert!(Sidecar::parse(&braces).unwrap_err().contains("nested"));
        let compact = format!("x:\n  {}y\n", "- ".repeat(100_000));
        assert!(Sidecar::parse(&compact).unwrap_err().contains("nested"));
        let mut indented = String::new();
        for i in 0..200 {
            indented.push_str(&" ".repeat(i));
            indented.push_str("k:\n");
        }
        assert!(Sidecar::parse(&indented).unwrap_err().contains("line 33"));
        let mut laughs = String::from("a: &a [x, x]\n");
        for i in 0..100 {
            laughs.push_str(&format!("k{i}: [*a, *a]\n"));
        }
        assert!(Sidecar::parse(&laughs).unwrap_err().contains("aliases"));
        // Brackets and stars in quoted text and comments are not structure.
        let fine = "url: \"https://a.example/[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[robots.txt\"\n\
                    # [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[ *a *b *c\n\
                    redirects:\n  - status: 301\n    location: https://b.example/robots.txt\n";
        assert!(Sidecar::parse(fine).is_ok(), "{:?}", Sidecar::parse(fine));
    }
}
