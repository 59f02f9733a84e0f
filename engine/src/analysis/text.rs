//! Small helpers for writing messages: quoting file content safely, plurals, lists.

/// The longest quotation, in characters, before it is shortened with `…`.
const MAX_QUOTE: usize = 80;

/// Quotes file content for a message: wrapped in backticks, shortened to 80 characters,
/// control and invisible characters shown as `<U+XXXX>` so that nothing is hidden.
pub(crate) fn quote(s: &str) -> String {
    let shown = visible(s, MAX_QUOTE);
    let mut quoted = String::with_capacity(shown.len() + 2);
    quoted.push('`');
    quoted.push_str(&shown);
    quoted.push('`');
    quoted
}

pub(crate) use crate::text::visible;

/// The Unicode name of an invisible character, for messages.
pub(crate) fn invisible_name(c: char) -> &'static str {
    match c {
        '\u{00A0}' => "NO-BREAK SPACE",
        '\u{00AD}' => "SOFT HYPHEN",
        '\u{180E}' => "MONGOLIAN VOWEL SEPARATOR",
        '\u{200B}' => "ZERO WIDTH SPACE",
        '\u{200C}' => "ZERO WIDTH NON-JOINER",
        '\u{200D}' => "ZERO WIDTH JOINER",
        '\u{200E}' => "LEFT-TO-RIGHT MARK",
        '\u{200F}' => "RIGHT-TO-LEFT MARK",
        '\u{202A}'..='\u{202E}' => "a bidirectional formatting character",
        '\u{2060}' => "WORD JOINER",
        '\u{2061}'..='\u{2064}' => "an invisible operator",
        '\u{2066}'..='\u{2069}' => "a bidirectional isolate",
        '\u{3000}' => "IDEOGRAPHIC SPACE",
        '\u{FEFF}' => "ZERO WIDTH NO-BREAK SPACE (a byte order mark)",
        _ => "an invisible character",
    }
}

pub(crate) use crate::text::{count, is_invisible, thousands, thousands_u64};

/// `a`, `a and b`, `a, b and c`.
pub(crate) fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [a] => a.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The names `shown`, out of `total` names: `a, b and c` when they are all, else
/// `a, b, c and 12 more`.
pub(crate) fn names_and_more(shown: &[String], total: usize) -> String {
    if total > shown.len() {
        format!(
            "{} and {} more",
            shown.join(", "),
            thousands(total - shown.len())
        )
    } else {
        and_list(shown)
    }
}

/// `line 4` or `lines 4–9` (1-based line numbers).
pub(crate) fn line_range(first: usize, last: usize) -> String {
    if first == last {
        format!("line {first}")
    } else {
        format!("lines {first}–{last}")
    }
}

/// Lines as a short list: `lines 3, 7 and 9`, or `lines 3, 7, 9 and 12 more`.
pub(crate) fn lines_list(lines: &[usize]) -> String {
    lines_list_of(&lines[..lines.len().min(5)], lines.len())
}

/// [`lines_list`] of a list of `total` lines of which `first` holds the first ones (all of them
/// when there are at most 5, else at least 3).
pub(crate) fn lines_list_of(first: &[usize], total: usize) -> String {
    match first {
        [] => String::new(),
        [one] if total == 1 => format!("line {one}"),
        _ if total <= 5 => format!(
            "lines {}",
            and_list(&first.iter().map(|l| l.to_string()).collect::<Vec<_>>())
        ),
        _ => format!(
            "lines {} and {} others",
            first[..3.min(first.len())]
                .iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            crate::text::thousands(total - 3)
        ),
    }
}

/// Damerau–Levenshtein distance (optimal string alignment) between two short strings, byte by
/// byte, or `None` when it exceeds `max`.
pub(crate) fn edit_distance(a: &[u8], b: &[u8], max: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > max || a.len() > 64 || b.len() > 64 {
        return None;
    }
    // One character a byte, so that a byte outside ASCII counts as one edit per byte.
    let chars = |s: &[u8]| s.iter().map(|&b| char::from(b)).collect::<String>();
    let d = strsim::osa_distance(&chars(a), &chars(b));
    (d <= max).then_some(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_shows_hidden_characters_and_shortens() {
        assert_eq!(quote("a\u{200B}b"), "`a<U+200B>b`");
        assert_eq!(quote("a`b"), "`a'b`");
        let long = "x".repeat(100);
        assert_eq!(quote(&long).chars().count(), 80 + 3);
    }

    #[test]
    fn lists() {
        assert_eq!(
            and_list(&["a".into(), "b".into(), "c".into()]),
            "a, b and c"
        );
        assert_eq!(
            lines_list(&[1, 2, 3, 4, 5, 6]),
            "lines 1, 2, 3 and 3 others"
        );
    }

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance(b"disalow", b"disallow", 2), Some(1));
        assert_eq!(edit_distance(b"clawl-delay", b"crawl-delay", 2), Some(1));
        assert_eq!(edit_distance(b"user-agnet", b"user-agent", 2), Some(1));
        assert_eq!(edit_distance(b"host", b"disallow", 2), None);
    }
}
