//! Suppression comments: `# robots-explorer: ignore[name, name2]` removes the named findings
//! from one line, and a suppression that removes nothing is itself a finding.
//!
//! At the end of a line, the comment applies to that line:
//!
//! ```text
//! Disallow: /tmp/  # robots-explorer: ignore[redundant-rule]
//! ```
//!
//! On a line of its own, it applies to itself (for findings about the whole file, placed on
//! line 1) and to the next line that is neither blank nor only a comment, so several such
//! comments may stand above one line. A finding belongs to the line it starts on. The names
//! are those of the [`super::catalogue`]; `unused-suppression` itself cannot be suppressed.

use super::context::Ctx;
use super::text::quote;
use super::{CatalogueEntry, Diagnostic, Readings, Severity, closest_name, entry};
use crate::syntax::Span;

/// The marker that starts a suppression inside a comment.
pub const MARKER: &str = "robots-explorer:";

/// The suppression entries.
pub(super) const ENTRIES: &[CatalogueEntry] = &[UNUSED_SUPPRESSION];

const UNUSED_SUPPRESSION: CatalogueEntry = CatalogueEntry {
    name: "unused-suppression",
    severity: Severity::Warning,
    summary: "A `# robots-explorer: ignore[…]` comment suppresses nothing.",
    what: "A comment of the form `# robots-explorer: ignore[name]` hides the findings of that \
name on its line (or, on a line of its own, on the next line with content). This one names a \
diagnostic that is not reported on that line, names no known diagnostic at all, or is not \
written as `ignore[name, …]`.",
    why: "A suppression that matches nothing is usually a typo in the name, a comment left behind \
after the line was fixed, or one that drifted onto the wrong line when lines were moved. It \
then hides nothing today, but may hide a real problem later, and a misspelt one fails to hide \
the finding it was written for.",
    example: "User-agent: *\nDisallow: /private/  # robots-explorer: ignore[redundant-rule]\n",
    fix: "Delete the name (or the whole comment) when the finding is gone; correct the name when \
it is misspelt (the message suggests the closest one); move the comment to the line the \
finding is on.",
    references: &[(
        "RFC 9309 §2.2",
        "https://www.rfc-editor.org/rfc/rfc9309.html#section-2.2",
    )],
};

/// One name inside a suppression comment.
struct Named {
    /// The name as written.
    name: String,
    /// Where it is written.
    span: Span,
    /// Whether it removed a finding.
    used: bool,
}

/// One suppression comment.
struct Suppression {
    /// 1-based lines it applies to.
    lines: [usize; 2],
    /// The names in its brackets; empty when it is malformed.
    names: Vec<Named>,
    /// The span of the marker up to the end of the comment, for a malformed comment.
    span: Span,
    /// Whether the comment is malformed (no `ignore[…]` after the marker).
    malformed: bool,
}

/// A searcher for [`MARKER`], built once: every file is searched for it.
fn marker() -> &'static memchr::memmem::Finder<'static> {
    static FINDER: std::sync::OnceLock<memchr::memmem::Finder<'static>> =
        std::sync::OnceLock::new();
    FINDER.get_or_init(|| memchr::memmem::Finder::new(MARKER))
}

/// Removes the findings that suppression comments name, and adds an `unused-suppression`
/// finding for each name that removed nothing (and for each malformed comment). Files without
/// the marker are left as they are, after one search of their bytes.
pub(super) fn apply(cx: &Ctx, diagnostics: &mut Vec<Diagnostic>) {
    if marker().find(cx.bytes).is_none() {
        return;
    }
    let mut found = collect(cx);
    if found.is_empty() {
        return;
    }
    diagnostics.retain(|d| {
        if d.name == UNUSED_SUPPRESSION.name {
            return true;
        }
        let mut removed = false;
        for s in &mut found {
            if !s.lines.contains(&d.line) {
                continue;
            }
            for n in &mut s.names {
                if n.name == d.name {
                    n.used = true;
                    removed = true;
                }
            }
        }
        !removed
    });
    for s in &found {
        if s.malformed {
            diagnostics.push(cx.diag(
                &UNUSED_SUPPRESSION,
                s.span,
                Readings::Both,
                format!(
                    "{} is not a suppression this tool reads: write `{MARKER} ignore[name, …]`",
                    quote(&cx.text(s.span))
                ),
            ));
        }
        for n in s
            .names
            .iter()
            .filter(|n| !n.used && n.name != UNUSED_SUPPRESSION.name)
        {
            let known = entry(&n.name).is_some();
            let message = if !known {
                match closest_name(&n.name) {
                    Some(close) => format!(
                        "{} is not a diagnostic name, so it suppresses nothing; did you mean \
`{close}`?",
                        quote(&n.name)
                    ),
                    None => format!(
                        "{} is not a diagnostic name, so it suppresses nothing",
                        quote(&n.name)
                    ),
                }
            } else {
                format!(
                    "`ignore[{}]` suppresses nothing: {} has no `{}` finding",
                    n.name,
                    if s.lines[0] == s.lines[1] {
                        format!("line {}", s.lines[0])
                    } else {
                        format!("neither line {} nor line {}", s.lines[0], s.lines[1])
                    },
                    n.name
                )
            };
            let d = cx
                .diag(&UNUSED_SUPPRESSION, n.span, Readings::Both, message)
                .with_suggestion(if known {
                    "delete the name, or the comment if it names nothing else"
                } else {
                    "correct the name, or delete it"
                });
            diagnostics.push(d);
        }
    }
    diagnostics.sort_by(|a, b| (a.span.start, a.name).cmp(&(b.span.start, b.name)));
}

/// The suppression comments of the file.
fn collect(cx: &Ctx) -> Vec<Suppression> {
    let lines = &cx.tree.lines;
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let Some(c) = l.parts().comment else {
            continue;
        };
        let raw = cx.raw(c);
        let Some(at) = marker().find(raw) else {
            continue;
        };
        let own = l.number();
        let target = if l.is_comment_only() {
            lines[i + 1..]
                .iter()
                .find(|n| !n.is_blank() && !n.is_comment_only())
                .map_or(own, |n| n.number())
        } else {
            own
        };
        let start = c.start + at;
        let rest = &raw[at + MARKER.len()..];
        let (names, malformed) = parse_names(rest, start + MARKER.len());
        out.push(Suppression {
            lines: [own, target],
            names,
            span: Span::new(start, c.end),
            malformed,
        });
    }
    out
}

/// Parses ` ignore[a, b]` (the bytes after the marker, starting at offset `base`): the names
/// with their spans, and whether the text is malformed.
fn parse_names(rest: &[u8], base: usize) -> (Vec<Named>, bool) {
    let lead = rest
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    let Some(after) = rest[lead..].strip_prefix(b"ignore[") else {
        return (Vec::new(), true);
    };
    let Some(close) = memchr::memchr(b']', after) else {
        return (Vec::new(), true);
    };
    let open = base + lead + "ignore[".len();
    let mut names = Vec::new();
    let mut from = 0;
    for piece in after[..close].split(|&b| b == b',') {
        let l = piece.iter().take_while(|b| b.is_ascii_whitespace()).count();
        let r = piece
            .iter()
            .rev()
            .take_while(|b| b.is_ascii_whitespace())
            .count();
        if l + r < piece.len() {
            let word = &piece[l..piece.len() - r];
            let s = open + from + l;
            names.push(Named {
                span: Span::new(s, s + word.len()),
                name: crate::text::lossy(word).into_owned(),
                used: false,
            });
        }
        from += piece.len() + 1;
    }
    let empty = names.is_empty();
    (names, empty)
}
