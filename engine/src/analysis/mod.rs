//! Analysis: diagnostics and explanations, computed from the parsed file. No I/O, no HTML.
//!
//! [`analyze`] runs every check of the [`catalogue`] and explains every line. Each check lives in
//! one place with its documentation ([`CatalogueEntry`]), which becomes a page of its own in
//! the reports.

use crate::Reading;
use crate::RobotsTxt;

/// How serious a diagnostic is.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing.
    Info,
    /// Kept, but probably not what the author meant.
    Warning,
    /// A line or rule is dropped, or the file is misread.
    Error,
}

impl Severity {
    /// `error`, `warning` or `info`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// Which readings a diagnostic applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Readings {
    /// Both the Google and the RFC 9309 reading.
    Both,
    /// The Google reading only.
    Google,
    /// The RFC 9309 reading only.
    Rfc,
}

impl Readings {
    /// Whether the diagnostic applies in `reading`.
    pub fn includes(self, reading: Reading) -> bool {
        matches!(
            (self, reading),
            (Readings::Both, _)
                | (Readings::Google, Reading::Google)
                | (Readings::Rfc, Reading::Rfc9309)
        )
    }
}

/// Documentation of one diagnostic, kept next to its check.
#[derive(Clone, Copy, Debug)]
pub struct CatalogueEntry {
    /// Stable kebab-case name.
    pub name: &'static str,
    /// The severity of every diagnostic of this name.
    pub severity: Severity,
    /// One-line summary.
    pub summary: &'static str,
    /// What it means (Markdown).
    pub what: &'static str,
    /// Why it matters (Markdown).
    pub why: &'static str,
    /// An example robots.txt that triggers it (plain text).
    pub example: &'static str,
    /// How to fix it (Markdown).
    pub fix: &'static str,
    /// References: (label, URL).
    pub references: &'static [(&'static str, &'static str)],
}

/// What one line does, in plain words.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Explanation {
    /// 1-based line number.
    pub line: usize,
    /// One plain sentence.
    pub summary: String,
    /// Further sentences: examples, crawlers concerned, relations to other rules.
    pub details: Vec<String>,
    /// Details that a diagnostic of the same line restates, as (index into `details`, the
    /// diagnostic's name): a view that shows that diagnostic's message beside the explanation
    /// may leave the detail out. Not serialised.
    #[serde(skip)]
    pub restated: Vec<(usize, &'static str)>,
}

/// The analysis of one file.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Analysis {
    /// Diagnostics, ordered by position, then name.
    pub diagnostics: Vec<Diagnostic>,
    /// Explanations, ordered by line.
    pub explanations: Vec<Explanation>,
}

mod context;
mod diagnostic;
mod explain;
mod fields;
mod file;
mod fixes;
mod found;
mod groups;
mod readings;
mod rules;
mod sets;
mod sitemaps;
mod suppress;
mod text;

pub(crate) use context::Ctx;
pub use diagnostic::{Applicability, Diagnostic, Fix, FixEdit, Position};
pub(crate) use fixes::{named_agents, probe_paths, unnamed_agent};
pub(crate) use sets::{Buckets, UNBUCKETED_RULES};

/// Whether `bytes` (a file as received) look like UTF-16 text without a byte order mark: in
/// the first 512 bytes, NUL bytes sit on one parity only and make up at least a third of them.
/// Such a file is valid UTF-8, yet neither reading finds a record in it (the `utf16`
/// diagnostic).
pub fn looks_utf16_without_bom(bytes: &[u8]) -> bool {
    context::looks_utf16_without_bom(bytes)
}

/// The address of Google's robots.txt documentation ("How Google interprets the robots.txt
/// specification"); section anchors are appended where a section is meant.
pub const GOOGLE_DOC: &str =
    "https://developers.google.com/search/docs/crawling-indexing/robots/robots_txt";

impl CatalogueEntry {
    /// The label of the entry's main reference (its first one), which its diagnostics cite
    /// unless they say otherwise; empty when it has none.
    pub fn reference_label(&self) -> &'static str {
        self.references.first().map_or("", |r| r.0)
    }

    /// The address of the entry's main reference (its first one).
    pub fn reference_url(&self) -> Option<&'static str> {
        self.references.first().map(|r| r.1)
    }
}

/// The catalogue of diagnostics, in a stable order: file, fields, groups, rules, sitemaps,
/// readings, suppression comments. Each area's entries live next to their checks in `analysis/<area>.rs`.
pub fn catalogue() -> &'static [CatalogueEntry] {
    static CELL: std::sync::OnceLock<Vec<CatalogueEntry>> = std::sync::OnceLock::new();
    CELL.get_or_init(|| {
        [
            file::ENTRIES,
            fields::ENTRIES,
            groups::ENTRIES,
            rules::ENTRIES,
            sitemaps::ENTRIES,
            readings::ENTRIES,
            suppress::ENTRIES,
        ]
        .concat()
    })
}

/// The catalogue entry named `name`.
pub fn entry(name: &str) -> Option<&'static CatalogueEntry> {
    catalogue().iter().find(|e| e.name == name)
}

/// The marker of a suppression comment (`# robots-explorer: ignore[name, …]`); see
/// [`analyze`].
pub use suppress::MARKER as SUPPRESSION_MARKER;

/// The candidate closest to `word` by edit distance (Levenshtein, ignoring ASCII case), when it
/// is close enough to be a likely misspelling: at most a third of the word's length apart, and
/// never more than 3 edits. For "did you mean" hints.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let w = word.to_ascii_lowercase();
    let limit = (w.chars().count() / 3).clamp(1, 3);
    candidates
        .into_iter()
        .map(|c| (strsim::levenshtein(&w, &c.to_ascii_lowercase()), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// The catalogue name closest to `word` (see [`closest`]).
pub fn closest_name(word: &str) -> Option<&'static str> {
    closest(word, catalogue().iter().map(|e| e.name))
}

/// Runs every check and explains every line.
///
/// Diagnostics found in both readings are reported once with [`Readings::Both`]; those found in
/// one reading only carry that reading. Findings named by a suppression comment
/// (`# robots-explorer: ignore[name]`, at the end of their line or on a line of its own before
/// it) are left out, and a suppression that leaves nothing out is an `unused-suppression`
/// finding. Never panics, whatever the input.
pub fn analyze(robots: &RobotsTxt) -> Analysis {
    analyze_when(robots, |_| Explain::Every)
}

/// Which lines [`analyze_when`] explains.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Explain {
    /// None: [`Analysis::explanations`] is empty.
    Nothing,
    /// Every line, as [`analyze`] does.
    Every,
    /// The 0-based lines whose entry is `true`; lines past the end are not explained. A line's
    /// explanation does not depend on which others are explained.
    Lines(Vec<bool>),
}

/// [`analyze`] for callers that need the explanations of a file only for some diagnostics or
/// some lines (a report that writes a page only for hosts with problems, and shows
/// explanations only on the rows it lists in full): runs every check, then explains the lines
/// `explain` chooses for the diagnostics found. The diagnostics are those of [`analyze`]
/// either way, and each explanation is the one [`analyze`] gives its line.
pub fn analyze_when(
    robots: &RobotsTxt,
    explain: impl FnOnce(&[Diagnostic]) -> Explain,
) -> Analysis {
    let cx = Ctx::new(robots);
    let (diagnostics, facts) = run_checks(robots, &cx);
    let explanations = match explain(&diagnostics) {
        Explain::Nothing => Vec::new(),
        Explain::Every => explain::explain(&cx, &facts, &|_| true),
        Explain::Lines(lines) => {
            explain::explain(&cx, &facts, &|i| lines.get(i).copied().unwrap_or(false))
        }
    };
    Analysis {
        diagnostics,
        explanations,
    }
}

/// The diagnostics of [`analyze`] without the explanations of every line, for callers that
/// only list findings (`lint`): the same findings, at a fraction of the memory for long files.
pub fn diagnose(robots: &RobotsTxt) -> Vec<Diagnostic> {
    diagnose_when(robots, |found| vec![true; found.len()])
}

/// [`diagnose`] for callers that show the fixes of only some findings (a text listing that
/// prints a few findings of each name in full): runs every check, then checks the fix of the
/// findings whose entry in the vector `fixes` returns is `true` (the vector has one entry per
/// finding, in the order given; missing entries read as `false`). Those findings are exactly
/// as [`diagnose`] gives them. The others keep the suggestion their check wrote and have no
/// [`Diagnostic::fix`]: checking a fix is most of the cost of a file with many findings.
pub fn diagnose_when(
    robots: &RobotsTxt,
    fixes: impl FnOnce(&[Diagnostic]) -> Vec<bool>,
) -> Vec<Diagnostic> {
    let cx = Ctx::new(robots);
    let mut diagnostics = find(&cx).0;
    let chosen = fixes(&diagnostics);
    fixes::attach(robots, &mut diagnostics, |i| {
        chosen.get(i).copied().unwrap_or(false)
    });
    diagnostics
}

/// Every finding of `robots`, with checked fixes, and the facts the explanations use.
fn run_checks<'a>(robots: &RobotsTxt, cx: &Ctx<'a>) -> (Vec<Diagnostic>, rules::Facts<'a>) {
    let (mut diagnostics, facts) = find(cx);
    fixes::attach(robots, &mut diagnostics, |_| true);
    (diagnostics, facts)
}

/// Every finding of the file of `cx`, merged across readings and with suppressions applied,
/// with the suggestions the checks wrote (no fix checked yet), and the facts the explanations
/// use.
fn find<'a>(cx: &Ctx<'a>) -> (Vec<Diagnostic>, rules::Facts<'a>) {
    let mut found = found::Found::default();
    file::check(cx, &mut found);
    fields::check(cx, &mut found);
    groups::check(cx, &mut found);
    let facts = rules::check(cx, &mut found);
    sitemaps::check(cx, &mut found);
    readings::check(cx, &mut found);
    let mut diagnostics = merge_readings(found.into_vec());
    // A sitemap line that is not read at all (`sitemap-line-not-read`) has no URL to judge: the
    // value Google cuts from it is not worth a second finding.
    let unread: Vec<usize> = diagnostics
        .iter()
        .filter(|d| d.name == "sitemap-line-not-read")
        .map(|d| d.line)
        .collect();
    if !unread.is_empty() {
        diagnostics.retain(|d| {
            !(matches!(d.name, "sitemap-not-absolute" | "full-url-pattern")
                && unread.contains(&d.line))
        });
    }
    suppress::apply(cx, &mut diagnostics);
    (diagnostics, facts)
}

/// Joins findings that are identical in both readings into one with [`Readings::Both`], and
/// orders them by position, then name.
fn merge_readings(mut found: Vec<Diagnostic>) -> Vec<Diagnostic> {
    found.sort_by(|a, b| {
        (a.span.start, a.name, a.span.end, &a.message).cmp(&(
            b.span.start,
            b.name,
            b.span.end,
            &b.message,
        ))
    });
    // In place: a second vector of every diagnostic would double the peak for files with
    // tens of thousands of them.
    found.dedup_by(|d, prev| {
        if prev.name == d.name && prev.span == d.span && prev.message == d.message {
            if prev.readings != d.readings {
                prev.readings = Readings::Both;
            }
            if prev.suggestion.is_none() {
                prev.suggestion = d.suggestion.take();
            }
            true
        } else {
            false
        }
    });
    found.shrink_to_fit();
    found
}
