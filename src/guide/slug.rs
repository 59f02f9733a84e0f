//! Heading anchors: the slug of a heading's text (lower case; every run of characters that are
//! not ASCII letters or digits becomes one `-`; no `-` at either end), made unique per page.

use std::collections::BTreeSet;

/// The slug of `text`, e.g. `6. robots.txt was the wrong tool` → `6-robots-txt-was-the-wrong-tool`.
/// Empty text gives `section`.
pub fn slug(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut dash = false;
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            if dash && !out.is_empty() {
                out.push('-');
            }
            dash = false;
            out.push(c.to_ascii_lowercase());
        } else {
            dash = true;
        }
    }
    if out.is_empty() {
        out.push_str("section");
    }
    out
}

/// Hands out unique ids within one page: a second `x` becomes `x-1`, a third `x-2`.
#[derive(Clone, Debug, Default)]
pub struct Slugger {
    used: BTreeSet<String>,
}

impl Slugger {
    /// A slugger that treats `reserved` ids (used by the page template) as taken.
    pub fn with_reserved(reserved: &[&str]) -> Slugger {
        Slugger {
            used: reserved.iter().map(|s| s.to_string()).collect(),
        }
    }
    /// A unique id for `text`.
    pub fn unique(&mut self, text: &str) -> String {
        let base = slug(text);
        let mut id = base.clone();
        let mut n = 1;
        while self.used.contains(&id) {
            id = format!("{base}-{n}");
            n += 1;
        }
        self.used.insert(id.clone());
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs() {
        assert_eq!(
            slug("Line ends and the byte order mark"),
            "line-ends-and-the-byte-order-mark"
        );
        assert_eq!(
            slug("6. robots.txt was the wrong tool"),
            "6-robots-txt-was-the-wrong-tool"
        );
        assert_eq!(
            slug("Comments, and the # inside a path"),
            "comments-and-the-inside-a-path"
        );
        assert_eq!(slug("  --Café!  "), "caf");
        assert_eq!(slug("!!"), "section");
    }

    #[test]
    fn unique_ids() {
        let mut s = Slugger::with_reserved(&["terms"]);
        assert_eq!(s.unique("Terms"), "terms-1");
        assert_eq!(s.unique("A"), "a");
        assert_eq!(s.unique("a"), "a-1");
        assert_eq!(s.unique("a"), "a-2");
    }
}
