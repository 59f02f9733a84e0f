//! Links from chapters to the glossary.
//!
//! The glossary's terms are the second-level headings of `glossary.md`; each one's anchor is
//! the id its heading gets on the glossary page (the same [`Slugger`] over the same headings,
//! so the two cannot disagree, and the link checker verifies every link made here). In a
//! chapter, the first occurrence of each term in running text becomes a link to its entry:
//! matched without regard to ASCII case, as a whole word (the characters on either side are
//! not letters, digits, `-` or `_`), and never inside headings, links, code or code blocks.
//! Only the singular form as the heading writes it is matched: plurals such as "allows" or
//! "redirects" are as often verbs as nouns, and a later singular use gets the link instead.

use super::load::{Content, Kind};
use super::render::RESERVED_IDS;
use super::slug::Slugger;
use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd};

/// One term of the glossary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    /// The term as its heading writes it (`Longest match`).
    pub term: String,
    /// The heading's id on the glossary page (`longest-match`).
    pub anchor: String,
}

/// The glossary's terms, longest first (so that `Redirect chain` is found before `Redirect`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Glossary {
    terms: Vec<Term>,
}

/// Where a term occurs in a text: byte offsets `start..end` and the term's index in
/// [`Glossary::terms`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Occurrence {
    /// Byte offset of the first byte.
    pub start: usize,
    /// Byte offset after the last byte.
    pub end: usize,
    /// Index into [`Glossary::terms`].
    pub term: usize,
}

impl Glossary {
    /// The terms of the content's glossary page; empty when there is none.
    pub fn of(content: &Content) -> Glossary {
        content
            .pages
            .iter()
            .find(|p| p.kind == Kind::Glossary)
            .map_or_else(Glossary::default, |p| Glossary::parse(&p.body))
    }

    /// The terms of a glossary page's Markdown body: its `##` headings, each with the id the
    /// page gives it.
    pub fn parse(body: &str) -> Glossary {
        let mut slugger = Slugger::with_reserved(RESERVED_IDS);
        let mut terms = Vec::new();
        let mut open: Option<(HeadingLevel, String)> = None;
        for event in Parser::new(body) {
            match event {
                Event::Start(Tag::Heading { level, .. }) => open = Some((level, String::new())),
                Event::Text(t) | Event::Code(t) => {
                    if let Some((_, text)) = &mut open {
                        text.push_str(&t);
                    }
                }
                Event::End(TagEnd::Heading(_)) => {
                    if let Some((level, text)) = open.take() {
                        let anchor = slugger.unique(&text);
                        if level == HeadingLevel::H2 && !text.trim().is_empty() {
                            terms.push(Term {
                                term: text.trim().to_string(),
                                anchor,
                            });
                        }
                    }
                }
                _ => {}
            }
        }
        terms.sort_by(|a, b| b.term.len().cmp(&a.term.len()).then(a.term.cmp(&b.term)));
        Glossary { terms }
    }

    /// The terms, longest first.
    pub fn terms(&self) -> &[Term] {
        &self.terms
    }

    /// The entry named `term` (ignoring ASCII case).
    pub fn get(&self, term: &str) -> Option<&Term> {
        self.terms
            .iter()
            .find(|t| t.term.eq_ignore_ascii_case(term.trim()))
    }

    /// The first occurrence in `text` of a term whose flag in `done` is false (`done` has one
    /// flag per term; missing flags count as false). At one position the longest term wins.
    pub fn find(&self, text: &str, done: &[bool]) -> Option<Occurrence> {
        let bytes = text.as_bytes();
        let mut best: Option<Occurrence> = None;
        for (i, t) in self.terms.iter().enumerate() {
            if done.get(i).copied().unwrap_or(false) {
                continue;
            }
            let needle = t.term.as_bytes();
            let limit = best.map_or(bytes.len(), |b| b.start + 1);
            let mut from = 0;
            while from + needle.len() <= bytes.len() && from < limit {
                let Some(pos) = bytes[from..]
                    .windows(needle.len())
                    .position(|w| w.eq_ignore_ascii_case(needle))
                else {
                    break;
                };
                let start = from + pos;
                let end = start + needle.len();
                if start >= limit {
                    break;
                }
                let before = start.checked_sub(1).map(|i| bytes[i]);
                let after = bytes.get(end).copied();
                if !before.is_some_and(is_word) && !after.is_some_and(is_word) {
                    // Terms are sorted longest first, so an earlier find at the same start
                    // is at least as long.
                    if best.is_none_or(|b| start < b.start) {
                        best = Some(Occurrence {
                            start,
                            end,
                            term: i,
                        });
                    }
                    break;
                }
                from = start + 1;
            }
        }
        best
    }
}

/// The changes page (`changes.md`), when the content has one.
pub fn changes_page(content: &Content) -> Option<&super::load::Source> {
    content.pages.iter().find(|p| p.kind == Kind::Changes)
}

/// The id of the changes page's `## YYYY-MM-DD` entry for `date`, when the page has one.
pub fn changes_entry(content: &Content, date: &str) -> Option<String> {
    let page = changes_page(content)?;
    Glossary::parse(&page.body)
        .get(date)
        .map(|t| t.anchor.clone())
}

/// Bytes that continue a word: a term next to one is part of a longer word.
fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b >= 0x80
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glossary() -> Glossary {
        Glossary::parse(
            "Intro.\n\n## Redirect\n\nA.\n\n## Redirect chain\n\nB.\n\n## Rule\n\nC.\n\n### Not a term\n\n## Group\n\nD.\n\n## Terms\n\nE.\n",
        )
    }

    #[test]
    fn terms_are_the_second_level_headings_with_their_page_ids() {
        let g = glossary();
        let names: Vec<&str> = g.terms().iter().map(|t| t.term.as_str()).collect();
        assert_eq!(
            names,
            ["Redirect chain", "Redirect", "Group", "Terms", "Rule"]
        );
        assert_eq!(g.get("redirect chain").unwrap().anchor, "redirect-chain");
        // `terms` is an id of the page template, so the heading takes the next one.
        assert_eq!(g.get("Terms").unwrap().anchor, "terms-1");
    }

    #[test]
    fn finds_whole_words_longest_first_and_skips_done_terms() {
        let g = glossary();
        let text = "Rules, a groups and a rule-set; then a Redirect chain and a rule.";
        let o = g.find(text, &[]).unwrap();
        assert_eq!(&text[o.start..o.end], "Redirect chain");
        let mut done = vec![false; g.terms().len()];
        done[o.term] = true;
        // Once the longer term has its link, the shorter one starting there is found.
        let o = g.find(text, &done).unwrap();
        assert_eq!(&text[o.start..o.end], "Redirect");
        done[o.term] = true;
        // `Rules`, `groups` and `rule-set` are other words; the last `rule` is the term.
        let o = g.find(text, &done).unwrap();
        assert_eq!(&text[o.start..o.end], "rule");
        assert_eq!(o.start, text.len() - 5);
        assert_eq!(g.find("nothing here: groupie, café", &[]), None);
    }
}
