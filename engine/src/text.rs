//! Number and duration formatting shared by the engine's messages and the pages built on it:
//! `512,000`, `1 rule` / `2 rules`, `3 days 2 hours`, and which characters are invisible.

/// A number with `,` between thousands: `512,000`.
pub fn thousands(n: usize) -> String {
    thousands_u64(n as u64)
}

/// [`thousands`] for sizes in `u64` (inputs larger than memory).
pub fn thousands_u64(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The room a [`sentence_of`] starts with, in bytes: the median diagnostic message over the
/// corpus is 169 bytes long and nine in ten are at most 323.
const SENTENCE_ROOM: usize = 256;

/// `format_args` written into a string that starts with room for most sentences (a
/// diagnostic's message, a suggestion); [`sentence!`] calls it. `format!` starts from about twice
/// its literal text and grows by doubling: linting the corpus with every diagnostic made
/// about 370,000 such reallocations, each copying the text so far.
pub(crate) fn sentence_of(args: std::fmt::Arguments<'_>) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(SENTENCE_ROOM);
    s.write_fmt(args)
        .expect("writing into a String never fails");
    s
}

/// `format!` for sentences: the same arguments, written by [`sentence_of`].
macro_rules! sentence {
    ($($arg:tt)*) => {
        $crate::text::sentence_of(format_args!($($arg)*))
    };
}
pub(crate) use sentence;

/// A count with its noun in the right number, the count with thousands separators:
/// `1 rule`, `2 rules`, `1,200 rules`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), noun(n, one, many))
}

/// `one` when `n` is 1, else `many`: the noun that agrees with a count.
pub fn noun<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// Characters that take no room or look like a plain space but are not one: what diagnostics
/// and quotations of file content point out.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00A0}'
            | '\u{00AD}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{3000}'
            | '\u{FEFF}'
    )
}

/// How [`duration`] names its units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Units {
    /// `40 minutes`, `25 hours`, `3 days 2 hours`.
    Words,
    /// `40 min`, `25 h`, `3 d 2 h`, for figures and other tight places.
    Short,
}

/// A duration, by its sign-less length in seconds, in at most two units: seconds under a
/// minute, minutes under an hour, hours (and minutes) under 72 hours, days (and hours) beyond.
pub fn duration(seconds: i64, units: Units) -> String {
    let s = seconds.unsigned_abs();
    let part = |n: u64, unit: usize| {
        const WORDS: [(&str, &str); 4] = [
            ("second", "seconds"),
            ("minute", "minutes"),
            ("hour", "hours"),
            ("day", "days"),
        ];
        const SHORT: [&str; 4] = ["s", "min", "h", "d"];
        match units {
            Units::Words => {
                let (one, many) = WORDS[unit];
                format!("{n} {}", if n == 1 { one } else { many })
            }
            Units::Short => format!("{n} {}", SHORT[unit]),
        }
    };
    let two = |big: u64, big_unit: usize, small: u64| {
        if small == 0 {
            part(big, big_unit)
        } else {
            format!("{} {}", part(big, big_unit), part(small, big_unit - 1))
        }
    };
    if s < 60 {
        part(s, 0)
    } else if s < 3600 {
        part(s / 60, 1)
    } else if s < 72 * 3600 {
        two(s / 3600, 2, (s % 3600) / 60)
    } else {
        two(s / 86400, 3, (s % 86400) / 3600)
    }
}

/// Bytes as text, invalid UTF-8 replaced by U+FFFD, as `String::from_utf8_lossy` gives it:
/// checked as UTF-8 first, which reads ASCII several bytes at a time, where the lossy decoder
/// goes byte by byte even when there is nothing to replace.
pub(crate) fn lossy(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// Text from a file made visible: control and invisible characters ([`is_invisible`]) as
/// `<U+XXXX>`, backticks as `'` (so it can be quoted in Markdown), cut to `max` characters
/// with a final `…`. Borrows `s` when it is short printable ASCII without backticks, as most
/// names and patterns are.
pub fn visible(s: &str, max: usize) -> std::borrow::Cow<'_, str> {
    if s.len() <= max && s.bytes().all(|b| (0x20..0x7F).contains(&b) && b != b'`') {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len().min(max * 2) + 2);
    // Characters written so far; runs of printable ASCII (one byte, one character) are copied
    // whole, the other characters one at a time.
    let mut n = 0;
    let mut rest = s;
    while !rest.is_empty() {
        if n == max {
            out.push('…');
            break;
        }
        let run = rest
            .bytes()
            .take(max - n)
            .take_while(|&b| (0x20..0x7F).contains(&b) && b != b'`')
            .count();
        if run > 0 {
            out.push_str(&rest[..run]);
            rest = &rest[run..];
            n += run;
            continue;
        }
        let Some(c) = rest.chars().next() else { break };
        if c == '`' {
            out.push('\'');
        } else if c.is_control() || is_invisible(c) {
            use std::fmt::Write;
            let _ = write!(out, "<U+{:04X}>", c as u32);
        } else {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
        n += 1;
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(512_000), "512,000");
        assert_eq!(thousands(3_718_003), "3,718,003");
        assert_eq!(count(1, "rule", "rules"), "1 rule");
        assert_eq!(count(0, "rule", "rules"), "0 rules");
        assert_eq!(count(1200, "rule", "rules"), "1,200 rules");
    }

    #[test]
    fn visible_text() {
        // What `visible` must give, one character at a time.
        fn expected(s: &str, max: usize) -> String {
            let mut out = String::new();
            for (n, c) in s.chars().enumerate() {
                if n == max {
                    out.push('…');
                    break;
                }
                match c {
                    '`' => out.push('\''),
                    c if c.is_control() || is_invisible(c) => {
                        out.push_str(&format!("<U+{:04X}>", c as u32))
                    }
                    c => out.push(c),
                }
            }
            out
        }
        let samples = [
            "",
            "/plain/path",
            "/a`b`c",
            "tab\there",
            "zero\u{200B}width",
            "ümlaut/päth",
            "\u{FEFF}/bom",
            "/x\u{7F}y\u{0}z",
            "`",
            "0123456789",
        ];
        for s in samples {
            for max in [0, 1, 3, 5, 9, 10, 11, 40] {
                assert_eq!(visible(s, max), expected(s, max), "{s:?} cut at {max}");
            }
        }
        assert_eq!(visible("0123456789", 4), "0123…");
        assert_eq!(visible("a\u{200B}`", 10), "a<U+200B>'");
    }

    #[test]
    fn durations() {
        assert_eq!(duration(59, Units::Words), "59 seconds");
        assert_eq!(duration(60, Units::Words), "1 minute");
        assert_eq!(duration(3600, Units::Words), "1 hour");
        assert_eq!(duration(25 * 3600, Units::Words), "25 hours");
        assert_eq!(duration(-25 * 3600 - 60, Units::Words), "25 hours 1 minute");
        assert_eq!(duration(90 * 3600, Units::Words), "3 days 18 hours");
        assert_eq!(duration(23 * 3600, Units::Short), "23 h");
        assert_eq!(duration(23 * 3600 + 30 * 60, Units::Short), "23 h 30 min");
        assert_eq!(duration(96 * 3600, Units::Short), "4 d");
    }
}
