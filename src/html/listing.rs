//! The file listing: a robots.txt file rendered as reports and the guide show it.
//!
//! [`listing`] returns one `<div class="rt-listing">` holding a `<table class="rt-table">` with
//! one row per line, `<tr id="{prefix}{n}">`, whose cells are, in order (the stylesheet
//! addresses them by position, to keep large listings small):
//!
//! | cell | content |
//! |---|---|
//! | `<th>` Line | the 1-based line number, a link to the row's own anchor |
//! | `<td>` Role | [`LineRole`] in the chosen reading, plus the other reading's role where it differs |
//! | `<td>` Group | the 1-based group number in the chosen reading (lines from a group's first user-agent line to its last record) |
//! | `<td>` Text | `<code>` with the line's nodes from the parser's own spans, each in its element (`<b>` key, `<var>` value, `<em>` comment, `<span>` with a class for the others: `t` text; see `node_tag`; white space and the separator are bare text) |
//! | `<td>` Notes | the line's explanations (`.rt-expl`) and diagnostics (`ul.rt-diags`, one `li.rt-error`/`.rt-warning`/`.rt-info` each, linking to their pages); left out when empty |
//!
//! Under a [`ListingOptions::line_budget`], runs of ordinary lines past it are compact rows
//! (`tr.rt-run`) holding the lines as plain text in an `<ol>`, one `<li id="{prefix}{n}">` each;
//! with [`ListingOptions::packed_runs`] those `<ol>` elements follow the table compressed, for the
//! page's script to put in place.
//!
//! Attribute values that need no quotes are written without (single classes; ids and line links
//! unless [`ListingOptions::quoted_ids`]), and optional end tags are left out, to keep large
//! listings small.
//! Row classes appear only where needed: `rt-role-ignored` and `rt-role-unknown` for lines no
//! reading acts on, `rt-has-error`/`rt-has-warning`/`rt-has-info` for lines with diagnostics,
//! `rt-cut` for the line the parsing limit cuts.
//! A byte order mark gets its own row before line 1 (id `{prefix}bom`), shown as a visible
//! node; it is not a line. Line terminators are shown as labels (`LF`, `CRLF`, `CR`) when
//! [`LineEnds`] says so: by default on every lone CR and, where a file mixes LF and CR LF, on the
//! lines whose terminator differs from the file's most common one (a note above the table says
//! which that is). Bytes past
//! the parsing limit (RFC 9309 §2.5; [`PARSING_LIMIT`] bytes) are one collapsed `<details>` row
//! (id `{prefix}ignored`) with their size, the number of lines and the number of rule lines
//! they hold; the line the limit cuts is marked.
//!
//! All text from the file is escaped with [`super::escape_code_into`]; invisible and control
//! characters are shown as visible stand-ins, long runs of them folded into one marker that
//! gives their code points and count (`.rt-fold`, `.rt-mix`), so that a binary body makes a
//! page as small as text does. The CSS classes are styled by
//! `templates/assets/site.css`.

use super::{escape_code_into, escape_into, escape_prose_into};
use crate::Reading;
use crate::analysis::{Analysis, Diagnostic, Explanation, Readings, Severity};
use crate::decode::{Encoding, PARSING_LIMIT};
use crate::fields::Field;
use crate::syntax::{LineEnd, NodeKind, Span};
use crate::text::{count, thousands};
use crate::{RobotsTxt, syntax};
use std::fmt::Write as _;

/// When to show line terminators as visible labels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LineEnds {
    /// Where it matters: every lone CR, and in a file that mixes terminators, those that differ
    /// from the most common one.
    #[default]
    Auto,
    /// On every line.
    Always,
    /// Never.
    Never,
}

/// Options of [`listing`].
#[derive(Clone, Debug)]
pub struct ListingOptions {
    /// Prefix of the anchor ids: line `n` gets `id="{id_prefix}{n}"`, the byte order mark row
    /// `{id_prefix}bom`, the ignored block `{id_prefix}ignored`. Use distinct prefixes for
    /// several listings on one page. Default `L`.
    pub id_prefix: String,
    /// Whether ids and line links are double-quoted, for pages whose ids a later step rewrites
    /// where they are quoted (the guide's print page). Default `false`: unquoted, as thousands
    /// of lines make the quotes a sizeable share of a page.
    pub quoted_ids: bool,
    /// Link target of a diagnostic, with `{name}` standing for the diagnostic name, e.g.
    /// `../diagnostics/{name}.html`; the reference of a linked diagnostic is then shown only when
    /// it is not the first of its catalogue entry, which the linked page gives. `None`:
    /// diagnostics are not links. Default `None`.
    pub diagnostic_href: Option<String>,
    /// Link target of a group number, with `{n}` standing for the 1-based group number, e.g.
    /// `#group-{n}`. `None`: group numbers are not links. Default `None`.
    pub group_href: Option<String>,
    /// The reading whose roles and group numbers are shown. Default [`Reading::Google`].
    pub reading: Reading,
    /// Also show the other reading's role where it differs. Default `true`.
    pub other_reading: bool,
    /// Show explanations. Default `true`.
    pub explanations: bool,
    /// Show diagnostics. Default `true`.
    pub diagnostics: bool,
    /// When to show line terminators. Default [`LineEnds::Auto`].
    pub line_ends: LineEnds,
    /// At most this many bytes of the region past the parsing limit are shown inside its
    /// collapsed block (the rest is counted, not shown). Default 16,384 bytes.
    pub ignored_preview_bytes: usize,
    /// Table caption (plain text, escaped). Default `None`: no caption element.
    pub caption: Option<String>,
    /// A link ending the caption, as (href, text), both plain text (escaped): where the
    /// listing's parts are explained. Default `None`.
    pub caption_link: Option<(String, String)>,
    /// Diagnostics of one name are shown in full on their first `repeat_limit` lines; on later
    /// lines only the severity and name are shown, pointing back to the first line. Default 3;
    /// `usize::MAX` shows every one in full.
    pub repeat_limit: usize,
    /// A sentence of an explanation's details that an earlier line already showed is not
    /// repeated (e.g. which crawlers a group applies to). Default `true`.
    pub dedupe_details: bool,
    /// A size budget for explanations, in bytes of HTML: once the explanations written reach it,
    /// later lines show only the first sentence of their explanation, and past twice the budget
    /// no explanation (diagnostics are always shown). A note marks the line where this starts.
    /// Keeps pages of very long files readable and small. Default `None`: no budget.
    pub explanation_budget: Option<usize>,
    /// Lines listed in full; past them, only lines with a diagnostic not yet shown
    /// [`ListingOptions::repeat_limit`] times, lines cut by the parsing limit and the lines of
    /// [`ListingOptions::keep_lines`] are, and each run of other lines
    /// becomes one compact row (`tr.rt-run`): an `<ol>` holding the lines' text, each line an
    /// element `<li id="{prefix}{n}">` without role, group,
    /// highlighting or explanation. Default `None`: every line in full.
    pub line_budget: Option<usize>,
    /// 1-based numbers of lines always listed in full under a [`ListingOptions::line_budget`]
    /// (e.g. the lines that decide something shown elsewhere on the page), sorted. Default empty.
    pub keep_lines: Vec<usize>,
    /// Compact runs are packed: each run's row (`tr.rt-run[data-run=k]`, `k` from 0) holds only
    /// a note with its line range, and the runs' `<ol>` elements, as they would be written
    /// unpacked, follow the table gzip-compressed and base64-encoded in one
    /// `<script type="application/gzip" class="rt-runs">`, separated by NUL characters, for the
    /// page's script to put in place (`assets/tester.js`). For long files on pages that load
    /// their scripts: the run text is most of such a listing, and compresses about fivefold.
    /// Default `false`.
    pub packed_runs: bool,
}

impl Default for ListingOptions {
    fn default() -> Self {
        ListingOptions {
            id_prefix: "L".to_string(),
            quoted_ids: false,
            diagnostic_href: None,
            group_href: None,
            reading: Reading::Google,
            other_reading: true,
            explanations: true,
            diagnostics: true,
            line_ends: LineEnds::Auto,
            ignored_preview_bytes: 16 * 1024,
            caption: None,
            caption_link: None,
            repeat_limit: 3,
            dedupe_details: true,
            explanation_budget: None,
            line_budget: None,
            keep_lines: Vec::new(),
            packed_runs: false,
        }
    }
}

/// What a line is, in one reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LineRole {
    /// A user-agent line (RFC 9309 §2.2.1).
    UserAgent,
    /// An allow rule inside a group (RFC 9309 §2.2.2).
    Allow,
    /// A disallow rule inside a group (RFC 9309 §2.2.2).
    Disallow,
    /// A sitemap line (RFC 9309 §2.2.4).
    Sitemap,
    /// A record of a non-standard field some crawlers read (e.g. `crawl-delay`).
    Other,
    /// A record whose field name this reading does not know (including, in the RFC 9309
    /// reading, misspellings and lines without a colon).
    Unknown,
    /// A comment and nothing else.
    Comment,
    /// Empty, or white space only.
    Blank,
    /// Read as nothing: text without a field shape, or a rule before the first user-agent line.
    Ignored,
}

impl LineRole {
    /// Human label, e.g. `user-agent`, `other record`.
    pub fn label(self) -> &'static str {
        match self {
            LineRole::UserAgent => "user-agent",
            LineRole::Allow => "allow",
            LineRole::Disallow => "disallow",
            LineRole::Sitemap => "sitemap",
            LineRole::Other => "other record",
            LineRole::Unknown => "unknown field",
            LineRole::Comment => "comment",
            LineRole::Blank => "blank",
            LineRole::Ignored => "ignored",
        }
    }
    /// CSS class of a row with this role, e.g. `rt-role-user-agent`.
    pub fn css_class(self) -> &'static str {
        match self {
            LineRole::UserAgent => "rt-role-user-agent",
            LineRole::Allow => "rt-role-allow",
            LineRole::Disallow => "rt-role-disallow",
            LineRole::Sitemap => "rt-role-sitemap",
            LineRole::Other => "rt-role-other",
            LineRole::Unknown => "rt-role-unknown",
            LineRole::Comment => "rt-role-comment",
            LineRole::Blank => "rt-role-blank",
            LineRole::Ignored => "rt-role-ignored",
        }
    }
}

/// The role of every line (index = 0-based line index) in `reading`.
pub fn line_roles(robots: &RobotsTxt, reading: Reading) -> Vec<LineRole> {
    let tree = &robots.tree;
    let mut roles: Vec<LineRole> = tree
        .lines
        .iter()
        .map(|l| {
            if l.is_blank() {
                LineRole::Blank
            } else if l.is_comment_only() {
                LineRole::Comment
            } else {
                LineRole::Ignored
            }
        })
        .collect();
    let policy = robots.policy(reading);
    for r in &policy.records {
        roles[r.line] = match r.field {
            Field::UserAgent => LineRole::UserAgent,
            Field::Allow => LineRole::Allow,
            Field::Disallow => LineRole::Disallow,
            Field::Sitemap => LineRole::Sitemap,
            Field::NonStandard(_) => LineRole::Other,
            Field::Unknown => LineRole::Unknown,
        };
    }
    for &l in &policy.rules_outside_groups {
        roles[l] = LineRole::Ignored;
    }
    roles
}

/// The 1-based group number of every line (index = 0-based line index) in `reading`: lines from
/// a group's first user-agent line to its last record belong to it, blank lines and comments
/// in between included.
pub fn line_groups(robots: &RobotsTxt, reading: Reading) -> Vec<Option<usize>> {
    let mut out = vec![None; robots.tree.lines.len()];
    for (i, g) in robots.policy(reading).groups.iter().enumerate() {
        for slot in &mut out[g.first_line..=g.last_line] {
            *slot = Some(i + 1);
        }
    }
    out
}

pub use crate::syntax::IgnoredRegion;

/// Summarises the region past the parsing limit ([`PARSING_LIMIT`] bytes, RFC 9309 §2.5), or
/// `None` when the file is within the limit: [`crate::syntax::Tree::ignored_region`].
pub fn ignored_region(robots: &RobotsTxt) -> Option<IgnoredRegion> {
    robots.tree.ignored_region(robots.bytes())
}

/// Renders `robots` as an HTML listing (see the module documentation for the markup).
pub fn listing(robots: &RobotsTxt, analysis: &Analysis, opts: &ListingOptions) -> String {
    let mut out = String::with_capacity(robots.bytes().len().min(PARSING_LIMIT) * 4 + 1024);
    listing_into(&mut out, robots, analysis, opts);
    out
}

fn severity_rank(s: Severity) -> u8 {
    match s {
        Severity::Info => 1,
        Severity::Warning => 2,
        Severity::Error => 3,
    }
}

fn readings_note(r: Readings) -> &'static str {
    match r {
        Readings::Both => "",
        Readings::Google => " (Google reading)",
        Readings::Rfc => " (RFC 9309 reading)",
    }
}

fn push_diagnostic(out: &mut String, d: &Diagnostic, opts: &ListingOptions) {
    let sev = d.severity().as_str();
    let _ = write!(out, "<li class=rt-{sev}><span class=rt-sev>{sev}</span> ");
    match &opts.diagnostic_href {
        Some(t) => {
            // The stylesheet finds the name as the item's first link (`.rt-diags li > a`).
            out.push_str("<a href=\"");
            escape_into(out, &t.replace("{name}", d.name));
            out.push_str("\">");
            escape_into(out, d.name);
            out.push_str("</a>");
        }
        None => {
            out.push_str("<span class=rt-diag-name>");
            escape_into(out, d.name);
            out.push_str("</span>");
        }
    }
    out.push_str(readings_note(d.readings));
    out.push_str(": ");
    escape_prose_into(out, &d.message);
    if let Some(s) = &d.suggestion {
        match &d.fix {
            Some(f) => {
                out.push_str(" <span class=rt-fix>Fix (");
                out.push_str(f.applicability.as_str());
                out.push_str("): ");
                escape_prose_into(out, s);
                if f.effect != "changes no decision" {
                    out.push_str(" (");
                    escape_prose_into(out, &f.effect);
                    out.push(')');
                }
                out.push_str("</span>");
            }
            None => {
                out.push_str(" <span class=rt-fix>Fix: ");
                escape_prose_into(out, s);
                out.push_str("</span>");
            }
        }
    }
    // A linked name leads to the diagnostic's page, which gives its usual reference: only
    // another one is said here.
    let usual = opts.diagnostic_href.is_some()
        && crate::analysis::entry(d.name).is_some_and(|e| e.reference_label() == d.reference);
    if !d.reference.is_empty() && !usual {
        out.push_str(" <span class=rt-ref>(");
        escape_into(out, d.reference);
        out.push_str(")</span>");
    }
}

/// What earlier lines already showed.
#[derive(Default)]
struct Shown<'a> {
    /// Diagnostic name → (occurrences so far, first line).
    diagnostics: rustc_hash::FxHashMap<&'a str, (usize, usize)>,
    /// Detail sentences already shown.
    details: rustc_hash::FxHashSet<&'a str>,
    /// Bytes of explanations written so far.
    explained: usize,
    /// 0: full explanations; 1: first sentences only; 2: none.
    level: u8,
    /// Shapes of the explanation sentences shown (see [`explanation_shape`]), by their 128-bit
    /// XXH3 hashes.
    shapes: rustc_hash::FxHashSet<u128>,
    /// Room for the shape of the sentence looked at.
    shape: String,
    /// Whether the note on left-out sentences was shown.
    same_noted: bool,
}

impl Shown<'_> {
    /// Whether the next occurrence of the diagnostic `name` is shown in full, with its message:
    /// the first `limit` are ([`ListingOptions::repeat_limit`]), later ones only by name.
    fn next_in_full(&self, name: &str, limit: usize) -> bool {
        self.diagnostics.get(name).map_or(0, |e| e.0) < limit
    }
}

/// A sentence of an explanation with each code span (`` `…` ``) replaced by `…`: sentences of
/// one shape say the same thing of different patterns ("Disallows every URL whose path starts
/// with `…`.").
#[cfg(test)]
fn explanation_shape(summary: &str) -> String {
    let mut shape = String::new();
    explanation_shape_into(summary, &mut shape);
    shape
}

/// [`explanation_shape`] into `shape`, which is cleared first.
fn explanation_shape_into(summary: &str, shape: &mut String) {
    shape.clear();
    // Backticks are ASCII, so splitting the bytes at them never cuts a character: the pieces
    // at odd places are inside code spans.
    for (i, piece) in summary.split('`').enumerate() {
        if i % 2 == 0 {
            shape.push_str(piece);
        } else {
            shape.push('…');
        }
    }
}

/// Writes `e` into `out`, leaving out what `shown` says was already said, and the details that
/// a diagnostic named in `in_full` (shown with its message on the same row) restates.
fn push_explanation<'a>(
    out: &mut String,
    e: &'a Explanation,
    in_full: &[&str],
    shown: &mut Shown<'a>,
    opts: &ListingOptions,
) {
    let start = out.len();
    // Under a budget, a sentence that says of this line's pattern what an earlier line's said
    // of its own (same shape, see [`explanation_shape`]) is left out: the line's role and text
    // say it, and the first line of that kind says it in full. The first line where this
    // happens says so.
    let compact = opts.explanation_budget.is_some();
    let fresh = |shown: &mut Shown<'a>, text: &str| {
        if !compact {
            return true;
        }
        explanation_shape_into(text, &mut shown.shape);
        let hash = twox_hash::XxHash3_128::oneshot(shown.shape.as_bytes());
        shown.shapes.insert(hash)
    };
    let summary = fresh(shown, &e.summary);
    let mut dropped = !summary;
    let mut details = Vec::new();
    for (i, d) in e.details.iter().enumerate() {
        let restated = e
            .restated
            .iter()
            .any(|(at, name)| *at == i && in_full.contains(name));
        if restated || shown.level > 0 || (opts.dedupe_details && !shown.details.insert(d.as_str()))
        {
            continue;
        }
        if fresh(shown, d) {
            details.push(d);
        } else {
            dropped = true;
        }
    }
    if !summary && details.is_empty() {
        push_same_note(out, shown, dropped);
        shown.explained += out.len() - start;
        return;
    }
    out.push_str("<div class=rt-expl>");
    if summary {
        out.push_str("<p>");
        escape_prose_into(out, &e.summary);
        out.push_str("</p>");
    }
    if !details.is_empty() {
        out.push_str("<ul>");
        for d in details {
            out.push_str("<li>");
            escape_prose_into(out, d);
        }
        out.push_str("</ul>");
    }
    push_same_note(out, shown, dropped);
    out.push_str("</div>");
    shown.explained += out.len() - start;
}

/// The note on the first line whose explanation leaves out what earlier lines said.
fn push_same_note(out: &mut String, shown: &mut Shown<'_>, dropped: bool) {
    if dropped && !shown.same_noted {
        shown.same_noted = true;
        out.push_str(
            "<p class=rt-budget>From here on, what an earlier line's explanation said of its \
             pattern is not said again.</p>",
        );
    }
}

fn push_notes<'a>(
    out: &mut String,
    expl: &[&'a Explanation],
    diags: &[&'a Diagnostic],
    opts: &ListingOptions,
    shown: &mut Shown<'a>,
) {
    if let Some(budget) = opts.explanation_budget
        && !expl.is_empty()
    {
        let level = if shown.explained >= 2 * budget {
            2
        } else if shown.explained >= budget {
            1
        } else {
            0
        };
        if level > shown.level {
            shown.level = level;
            out.push_str(if level == 1 {
                "<p class=rt-budget>From here on, explanations show their first sentence only, to keep the page small.</p>"
            } else {
                "<p class=rt-budget>From here on, explanations are left out, to keep the page small; diagnostics are still shown.</p>"
            });
        }
    }
    if shown.level < 2 {
        // The diagnostics this row shows with their message (see below).
        let in_full: Vec<&str> = diags
            .iter()
            .filter(|d| shown.next_in_full(d.name, opts.repeat_limit))
            .map(|d| d.name)
            .collect();
        for e in expl {
            push_explanation(out, e, &in_full, shown, opts);
        }
    }
    if !diags.is_empty() {
        out.push_str("<ul class=rt-diags>");
        for d in diags {
            let full = shown.next_in_full(d.name, opts.repeat_limit);
            let entry = shown.diagnostics.entry(d.name).or_insert((0, d.line));
            entry.0 += 1;
            if full {
                push_diagnostic(out, d, opts);
            } else {
                let sev = d.severity().as_str();
                let q = quote(opts);
                let _ = write!(
                    out,
                    "<li class=rt-{sev}>{sev}: {}{}, as on <a href={q}#{}{}{q}>line {}</a>",
                    Escaped(d.name),
                    readings_note(d.readings),
                    Escaped(&opts.id_prefix),
                    entry.1,
                    entry.1
                );
            }
        }
        out.push_str("</ul>");
    }
}

fn bom_bytes_label(robots: &RobotsTxt, span: Span) -> String {
    match robots.source.encoding {
        Encoding::Utf16Le => "FF FE (UTF-16 LE)".to_string(),
        Encoding::Utf16Be => "FE FF (UTF-16 BE)".to_string(),
        _ => robots.bytes()[span.range()]
            .iter()
            .map(|b| format!("{b:02X}"))
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// Renders `robots` into `out` (see [`listing`]).
pub fn listing_into(
    out: &mut String,
    robots: &RobotsTxt,
    analysis: &Analysis,
    opts: &ListingOptions,
) {
    listing_chunks(robots, analysis, opts, &mut |chunk| out.push_str(chunk));
}

/// Size in bytes at which [`listing_chunks`] hands its buffer on.
const CHUNK: usize = 64 * 1024;

/// Renders `robots` (see [`listing`]) in pieces of about 64 KiB, each passed to `sink`, so that
/// a large listing can be written out without being held whole in memory.
pub fn listing_chunks(
    robots: &RobotsTxt,
    analysis: &Analysis,
    opts: &ListingOptions,
    sink: &mut dyn FnMut(&str),
) {
    let mut buf = String::with_capacity(CHUNK + 4096);
    listing_impl(&mut buf, robots, analysis, opts, sink);
    if !buf.is_empty() {
        sink(&buf);
    }
}

fn listing_impl(
    out: &mut String,
    robots: &RobotsTxt,
    analysis: &Analysis,
    opts: &ListingOptions,
    sink: &mut dyn FnMut(&str),
) {
    let mut shown = Shown::default();
    let tree = &robots.tree;
    let ignored = ignored_region(robots);
    let notes = Notes::sort(
        &analysis.diagnostics,
        &analysis.explanations,
        opts,
        tree.lines.len(),
        ignored,
    );
    let ends = Terminators::count(tree, opts.line_ends);

    out.push_str("<div class=rt-listing>");
    if !notes.file.is_empty() {
        out.push_str("<div class=\"rt-file-notes\">");
        push_notes(out, &[], &notes.file, opts, &mut shown);
        out.push_str("</div>");
    }
    if tree.lines.is_empty() && tree.bom.is_none() && ignored.is_none() {
        out.push_str("<p class=\"rt-empty\">The file is empty (0 bytes).</p></div>");
        return;
    }
    if opts.line_ends == LineEnds::Auto && ends.mixed {
        push_mixed_ends_note(out, &ends);
    }
    push_table_head(out, opts);
    if let Some(bom) = tree.bom {
        push_bom_row(out, robots, bom, &opts.id_prefix);
    }
    let rows = LineRows::new(robots, opts, ignored, &notes, &ends);
    let full = full_rows(tree, opts, &notes);
    let mut runs = Runs::new(opts.packed_runs);
    let mut run_start = None;
    for (i, &full) in full.iter().enumerate() {
        let diags = &notes.by_line[i];
        if !full {
            for d in diags {
                if let Some(e) = shown.diagnostics.get_mut(d.name) {
                    e.0 += 1;
                }
            }
            run_start.get_or_insert(i);
        } else {
            if let Some(start) = run_start.take() {
                runs.push(out, (start, i), |o| {
                    push_run(o, robots, (start, i), &notes, &ends, opts);
                });
            }
            rows.push_row(out, i, &mut shown);
        }
        if out.len() >= CHUNK {
            sink(out);
            out.clear();
        }
    }
    if let Some(start) = run_start {
        let end = tree.lines.len();
        runs.push(out, (start, end), |o| {
            push_run(o, robots, (start, end), &notes, &ends, opts);
        });
    }
    if let Some(r) = ignored {
        push_ignored_row(out, robots, &r, &notes.ignored, opts, &mut shown);
    }
    out.push_str("</tbody></table>");
    runs.finish(out);
    out.push_str("</div>");
}

/// Whether the 0-based line `i` is past [`ListingOptions::line_budget`] and neither cut by the
/// parsing limit nor one of [`ListingOptions::keep_lines`]: it joins a compact run unless it
/// carries a diagnostic not yet shown often enough.
fn past_budget(tree: &syntax::Tree, opts: &ListingOptions, i: usize) -> bool {
    i >= opts.line_budget.unwrap_or(usize::MAX)
        && !tree.lines[i].cut_by_limit()
        && opts.keep_lines.binary_search(&(i + 1)).is_err()
}

/// The 0-based lines a listing of `robots` under `opts` writes as full rows, and so with their
/// explanations, given the file's `diagnostics`: for explaining only the lines a listing
/// shows. The listing decides its rows by the same function ([`full_rows`]).
pub fn full_row_lines(
    robots: &RobotsTxt,
    diagnostics: &[Diagnostic],
    opts: &ListingOptions,
) -> Vec<bool> {
    let tree = &robots.tree;
    let notes = Notes::sort(
        diagnostics,
        &[],
        opts,
        tree.lines.len(),
        ignored_region(robots),
    );
    full_rows(tree, opts, &notes)
}

/// For each 0-based line, whether the listing writes it as a full row: every line within
/// [`ListingOptions::line_budget`], cut by the parsing limit or kept
/// ([`ListingOptions::keep_lines`]), and past the budget every line with a diagnostic not yet
/// shown [`ListingOptions::repeat_limit`] times; the others join compact runs, which name
/// their diagnostics. The count of a name grows with each line carrying it, in a full row or
/// a run, after the file's own notes above the table.
fn full_rows(tree: &syntax::Tree, opts: &ListingOptions, notes: &Notes) -> Vec<bool> {
    let mut counts: rustc_hash::FxHashMap<&str, usize> = rustc_hash::FxHashMap::default();
    for d in &notes.file {
        *counts.entry(d.name).or_insert(0) += 1;
    }
    (0..tree.lines.len())
        .map(|i| {
            let diags = &notes.by_line[i];
            let repeats = diags
                .iter()
                .all(|d| counts.get(d.name).is_some_and(|&c| c >= opts.repeat_limit));
            for d in diags {
                *counts.entry(d.name).or_insert(0) += 1;
            }
            !(past_budget(tree, opts, i) && repeats)
        })
        .collect()
}

/// Opening of the element holding packed runs (see [`ListingOptions::packed_runs`]).
const PACKED_OPEN: &str = "<script type=application/gzip class=rt-runs>";

/// The runs packed into `page` (see [`ListingOptions::packed_runs`]), unpacked: the `<ol>` of
/// each run, in page order, as the page's script puts them in place. For checks that read a
/// page as a browser shows it (its ids, its links). A block that does not decode gives nothing.
pub fn unpacked_runs(page: &str) -> Vec<String> {
    use base64::Engine as _;
    let mut runs = Vec::new();
    let mut rest = page;
    while let Some(a) = rest.find(PACKED_OPEN) {
        rest = &rest[a + PACKED_OPEN.len()..];
        let Some(b) = rest.find("</script>") else {
            break;
        };
        let mut text = String::new();
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(&rest[..b])
            .ok()
            .filter(|gz| {
                std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&gz[..]), &mut text)
                    .is_ok()
            });
        if decoded.is_some() {
            runs.extend(text.split('\0').map(str::to_string));
        }
        rest = &rest[b..];
    }
    runs
}

/// Bytes of packed runs' HTML gathered before they go to the compressor (see [`Runs::push`]).
const PACK_BATCH: usize = 32 * 1024;

/// Where the compact runs of a listing go: into the table, or packed (see
/// [`ListingOptions::packed_runs`]) into a gzip stream written after it.
struct Runs {
    /// The packed runs' HTML, compressed as it is written; `None`: runs go into the table.
    packed: Option<flate2::write::GzEncoder<Vec<u8>>>,
    /// Runs written so far.
    count: usize,
    /// The HTML of the runs not yet compressed, separated by NUL characters (fewer than
    /// [`PACK_BATCH`] bytes between calls).
    scratch: String,
}

impl Runs {
    fn new(packed: bool) -> Runs {
        Runs {
            // The fastest level: runs compress well at any level, and pages of long files are
            // written by the thousand.
            packed: packed
                .then(|| flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast())),
            count: 0,
            scratch: String::new(),
        }
    }

    /// Writes the run of the 0-based lines `start..end`: its row, and its lines (which
    /// `lines` writes, see [`push_run`]) in the row or into the packed stream.
    fn push(
        &mut self,
        out: &mut String,
        (start, end): (usize, usize),
        lines: impl Fn(&mut String),
    ) {
        let Some(gz) = &mut self.packed else {
            out.push_str("<tr class=rt-run><td colspan=5>");
            lines(out);
            return;
        };
        let range = if end - start == 1 {
            format!("Line {}", thousands(end))
        } else {
            format!("Lines {}\u{2013}{}", thousands(start + 1), thousands(end))
        };
        let _ = write!(
            out,
            "<tr class=rt-run data-run={}><td colspan=5><p class=rt-packed>{range}: shown by the \
             page's script.</p>",
            self.count,
        );
        if self.count > 0 {
            self.scratch.push('\0');
        }
        lines(&mut self.scratch);
        // The compressor is fed in pieces of at least PACK_BATCH bytes: each write makes it
        // clear its whole output buffer, which for runs of a few lines cost more than the
        // compression itself.
        if self.scratch.len() >= PACK_BATCH {
            // Writing into a Vec cannot fail.
            let _ = std::io::Write::write_all(gz, self.scratch.as_bytes());
            self.scratch.clear();
        }
        self.count += 1;
    }

    /// Writes the packed runs after the table, when there are any.
    fn finish(self, out: &mut String) {
        use base64::Engine as _;
        let Some(mut gz) = self.packed else { return };
        if self.count == 0 {
            return;
        }
        let _ = std::io::Write::write_all(&mut gz, self.scratch.as_bytes());
        let Ok(bytes) = gz.finish() else { return };
        out.push_str(PACKED_OPEN);
        base64::engine::general_purpose::STANDARD.encode_string(&bytes, out);
        out.push_str("</script>");
    }
}

/// Lines of a compact run per `<ol>` at most: a longer run is several lists, each of class
/// `rt-chunk` with the height of its lines as its intrinsic size, which the stylesheet renders
/// only near the view (`content-visibility: auto`). A run of 200,000 lines then opens in
/// milliseconds instead of seconds of layout.
const RUN_CHUNK: usize = 1_000;

/// The content of one compact row holding the 0-based lines `start..end` of a long listing
/// (see [`ListingOptions::line_budget`]): an `<ol start>` numbering them ([`RUN_CHUNK`] lines
/// each at most), one `<li id>` per line (end tags implied) holding its text, the stylesheet
/// keeping its white space; after a line's text, an `<i class="rt-{severity}">` names each of
/// its diagnostics (shown in full on earlier lines).
fn push_run(
    out: &mut String,
    robots: &RobotsTxt,
    (start, end): (usize, usize),
    notes: &Notes<'_>,
    ends: &Terminators,
    opts: &ListingOptions,
) {
    let p = Escaped(&opts.id_prefix);
    let q = quote(opts);
    // The opening of every line's item up to its number, written once: runs hold most lines
    // of long files, and formatting each item's id costs more than copying it.
    let open = format!("<li id={q}{p}");
    let mut number = itoa::Buffer::new();
    let chunked = end - start > RUN_CHUNK;
    for (i, line) in robots.tree.lines[start..end].iter().enumerate() {
        if i % RUN_CHUNK == 0 {
            if i > 0 {
                out.push_str("</ol>");
            }
            if chunked {
                let n = RUN_CHUNK.min(end - start - i);
                let _ = write!(
                    out,
                    "<ol start={} class=rt-chunk style=\"contain-intrinsic-size:auto {}.{}em\">",
                    start + i + 1,
                    n * 12 / 10,
                    n * 12 % 10
                );
            } else {
                let _ = write!(out, "<ol start={}>", start + 1);
            }
        }
        out.push_str(&open);
        out.push_str(number.format(line.number()));
        out.push_str(q);
        out.push('>');
        escape_code_into(out, &robots.text(line.content()));
        if ends.labelled(line.terminator()) {
            push_eol_label(out, line.terminator());
        }
        for d in &notes.by_line[line.number() - 1] {
            out.push_str("<i class=rt-");
            out.push_str(d.severity().as_str());
            out.push('>');
            super::escape_into(out, d.name);
            out.push_str("</i>");
        }
    }
    out.push_str("</ol>");
}

/// How the listing spells the file out exactly, when it does: see [`exact_text`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExactText {
    /// Number of lines.
    pub lines: usize,
    /// The terminator of the lines whose terminator is not labelled: `lf` or `crlf`.
    pub eol: &'static str,
    /// Whether the last line has a terminator.
    pub last_eol: bool,
    /// Whether the file starts with a UTF-8 byte order mark (not part of any line).
    pub bom: bool,
    /// How many of the file's first bytes the listing spells out: its size, or, when the file
    /// runs past the parsing limit, the bytes before the region past it.
    pub bytes: usize,
}

/// Whether a listing with the default [`LineEnds::Auto`] spells the file out byte for byte: a
/// UTF-8 file (with or without a byte order mark); past the parsing limit, the bytes before the
/// region past it (when the limit falls between two characters), which are its lines. Each line's
/// text is then the text of its element (the `<code>` of a full row, the `<li>` of a compact
/// run), where a stand-in (`.rt-ctl`) stands for the code point its title gives (a tab's is
/// followed by the tab itself), a folded one (`.rt-fold`, `.rt-mix`) for the characters its
/// `data-runs` spells out (see [`super::escape_code_into`]), the mark where the parsing limit
/// cuts a line (`.rt-cut-here`) for nothing, and a terminator label (`.rt-eol-lf`, `-crlf`, `-cr`) gives
/// the line's terminator; unlabelled lines end in [`ExactText::eol`]. A page can then take the
/// file from its listing instead of embedding it a second time.
pub fn exact_text(robots: &RobotsTxt) -> Option<ExactText> {
    let tree = &robots.tree;
    let bom = match (robots.source.encoding, tree.bom) {
        (Encoding::Utf8, None) => false,
        (Encoding::Utf8Bom, Some(b)) if b.len() == 3 => true,
        _ => return None,
    };
    let spelled = match tree.ignored {
        None if robots.source.is_prefix() => return None,
        None => robots.bytes().len(),
        Some(r) => {
            let b = robots.bytes();
            // The lines end where the region starts; a character split there is not theirs.
            if b.get(r.start).is_some_and(|&c| (c & 0xC0) == 0x80) {
                return None;
            }
            r.start
        }
    };
    if tree.lines.is_empty() {
        return None;
    }
    let ends = Terminators::count(tree, LineEnds::Auto);
    let last = tree.lines[tree.lines.len() - 1].terminator();
    Some(ExactText {
        lines: tree.lines.len(),
        eol: match ends.common {
            LineEnd::CrLf => "crlf",
            _ => "lf",
        },
        last_eol: last != LineEnd::None,
        bom,
        bytes: spelled,
    })
}

/// The notes of a listing, sorted by where they are shown.
struct Notes<'a> {
    /// Diagnostics by 0-based line.
    by_line: Vec<Vec<&'a Diagnostic>>,
    /// Diagnostics that fit no line, shown above the table.
    file: Vec<&'a Diagnostic>,
    /// Diagnostics about the region past the parsing limit.
    ignored: Vec<&'a Diagnostic>,
    /// Explanations by 0-based line.
    explanations: Vec<Vec<&'a Explanation>>,
}

impl<'a> Notes<'a> {
    /// Sorts the `diagnostics` and `explanations` (of one file's analysis) that `opts` shows.
    fn sort(
        diagnostics: &'a [Diagnostic],
        explanations: &'a [Explanation],
        opts: &ListingOptions,
        n_lines: usize,
        ignored: Option<IgnoredRegion>,
    ) -> Notes<'a> {
        let mut notes = Notes {
            by_line: vec![Vec::new(); n_lines],
            file: Vec::new(),
            ignored: Vec::new(),
            explanations: vec![Vec::new(); n_lines],
        };
        if opts.diagnostics {
            for d in diagnostics {
                if ignored.is_some_and(|r| d.span.start >= r.span.start && !d.span.is_empty()) {
                    notes.ignored.push(d);
                } else if d.line >= 1 && d.line <= n_lines {
                    notes.by_line[d.line - 1].push(d);
                } else {
                    notes.file.push(d);
                }
            }
        }
        if opts.explanations {
            for e in explanations {
                if e.line >= 1 && e.line <= n_lines {
                    notes.explanations[e.line - 1].push(e);
                }
            }
        }
        notes
    }
}

/// The line terminators of a file, counted, and which of them get a label: all (Always), none
/// (Never), or (Auto) every lone CR and, in a file that mixes LF and CR LF, the ones that differ
/// from the most common.
struct Terminators {
    lf: usize,
    crlf: usize,
    cr: usize,
    /// The most common of LF and CR LF.
    common: LineEnd,
    /// More than one kind occurs.
    mixed: bool,
    shown: LineEnds,
}

impl Terminators {
    fn count(tree: &syntax::Tree, shown: LineEnds) -> Terminators {
        let (mut lf, mut crlf, mut cr) = (0usize, 0usize, 0usize);
        for l in &tree.lines {
            match l.terminator() {
                LineEnd::Lf => lf += 1,
                LineEnd::CrLf => crlf += 1,
                LineEnd::Cr => cr += 1,
                LineEnd::None => {}
            }
        }
        Terminators {
            lf,
            crlf,
            cr,
            common: if crlf > lf {
                LineEnd::CrLf
            } else {
                LineEnd::Lf
            },
            mixed: [lf, crlf, cr].iter().filter(|&&n| n > 0).count() > 1,
            shown,
        }
    }

    /// Whether a line ending in `t` shows its terminator.
    fn labelled(&self, t: LineEnd) -> bool {
        match self.shown {
            LineEnds::Always => t != LineEnd::None,
            LineEnds::Never => false,
            LineEnds::Auto => {
                t == LineEnd::Cr || (self.mixed && t != LineEnd::None && t != self.common)
            }
        }
    }
}

/// The note above a listing whose file mixes line terminators.
fn push_mixed_ends_note(out: &mut String, ends: &Terminators) {
    let _ = write!(
        out,
        "<p class=\"rt-eol-note\">This file mixes line terminators ({}). Lines ending in {} are not labelled; the others show theirs.</p>",
        [("LF", ends.lf), ("CRLF", ends.crlf), ("CR", ends.cr)]
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(l, n)| format!("{l} \u{d7}{}", thousands(*n)))
            .collect::<Vec<_>>()
            .join(", "),
        ends.common.label()
    );
}

/// The table's start: caption and column headings.
fn push_table_head(out: &mut String, opts: &ListingOptions) {
    out.push_str("<table class=rt-table>");
    if let Some(c) = &opts.caption {
        out.push_str("<caption>");
        escape_into(out, c);
        if let Some((href, text)) = &opts.caption_link {
            out.push_str(": <a href=\"");
            escape_into(out, href);
            out.push_str("\">");
            escape_into(out, text);
            out.push_str("</a>");
        }
        out.push_str("</caption>");
    }
    let _ = write!(
        out,
        "<thead><tr><th scope=col>Line<th scope=col>Role ({})<th scope=col>Group<th scope=col>Text\
         <th scope=col>Notes</thead><tbody>",
        opts.reading.label()
    );
}

/// The row of the byte order mark, before line 1.
fn push_bom_row(out: &mut String, robots: &RobotsTxt, bom: Span, prefix: &str) {
    let _ = write!(
        out,
        "<tr id=\"{p}bom\" class=\"rt-role-bom\"><th><a href=\"#{p}bom\">BOM</a></th>\
         <td>byte order mark</td><td></td><td><code>\
         <span class=\"rt-bom\" title=\"byte order mark: ",
        p = Escaped(prefix)
    );
    out.push_str(&bom_bytes_label(robots, bom));
    out.push_str("\">BOM</span></code></td><td><p>Not a line: ");
    out.push_str(match robots.source.encoding {
        Encoding::Utf16Le | Encoding::Utf16Be => {
            "it marks the file as UTF-16. Google's parser reads the raw bytes, finds no field and ignores the whole file; the RFC 9309 reading is shown after conversion to UTF-8."
        }
        _ if bom.len() < 3 => {
            "an incomplete byte order mark, skipped by Google's parser; RFC 9309 does not mention it."
        }
        _ => {
            "Google documents that it ignores a UTF-8 byte order mark; RFC 9309 does not mention it."
        }
    });
    out.push_str("</p></td></tr>");
}

/// What the row of each line is written from.
struct LineRows<'r> {
    robots: &'r RobotsTxt,
    opts: &'r ListingOptions,
    ignored: Option<IgnoredRegion>,
    notes: &'r Notes<'r>,
    ends: &'r Terminators,
    /// The role of each line in the reading shown.
    roles: Vec<LineRole>,
    /// The other reading, and the role of each line in it when the listing shows it.
    other: (Reading, Option<Vec<LineRole>>),
    /// The 1-based group of each line.
    groups: Vec<Option<usize>>,
}

impl<'r> LineRows<'r> {
    fn new(
        robots: &'r RobotsTxt,
        opts: &'r ListingOptions,
        ignored: Option<IgnoredRegion>,
        notes: &'r Notes<'r>,
        ends: &'r Terminators,
    ) -> LineRows<'r> {
        let other = match opts.reading {
            Reading::Google => Reading::Rfc9309,
            Reading::Rfc9309 => Reading::Google,
        };
        LineRows {
            robots,
            opts,
            ignored,
            notes,
            ends,
            roles: line_roles(robots, opts.reading),
            other: (other, opts.other_reading.then(|| line_roles(robots, other))),
            groups: line_groups(robots, opts.reading),
        }
    }

    /// Writes the row of the 0-based line `i`.
    fn push_row(&self, out: &mut String, i: usize, shown: &mut Shown<'r>) {
        let line = &self.robots.tree.lines[i];
        let role = self.roles[i];
        let prefix = &self.opts.id_prefix;
        let max_sev = self.notes.by_line[i]
            .iter()
            .map(|d| severity_rank(d.severity()))
            .max()
            .unwrap_or(0);
        let n = line.number();
        // Row classes only where the stylesheet needs them, to keep large listings small.
        let classes = [
            matches!(role, LineRole::Ignored | LineRole::Unknown).then(|| role.css_class()),
            match max_sev {
                3 => Some("rt-has-error"),
                2 => Some("rt-has-warning"),
                1 => Some("rt-has-info"),
                _ => None,
            },
            line.cut_by_limit().then_some("rt-cut"),
        ];
        // Rows leave out the end tags HTML lets a parser imply (`</th>`, `</td>`, `</tr>`, and
        // `</li>` in the notes): on files of thousands of lines they are a sizeable share of
        // the page.
        let q = quote(self.opts);
        let _ = write!(out, "<tr id={q}{p}{n}{q}", p = Escaped(prefix));
        // One class needs no quotes; more do.
        let many = classes.iter().flatten().count() > 1;
        for (k, c) in classes.iter().flatten().enumerate() {
            out.push_str(match (k, many) {
                (0, true) => " class=\"",
                (0, false) => " class=",
                _ => " ",
            });
            out.push_str(c);
        }
        if many {
            out.push('"');
        }
        let _ = write!(
            out,
            "><th><a href={q}#{p}{n}{q}>{n}</a><td>{}",
            role.label(),
            p = Escaped(prefix),
        );
        if let (other, Some(o)) = &self.other
            && o[i] != role
        {
            let _ = write!(
                out,
                " <span class=rt-other>{}: {}</span>",
                other.label(),
                o[i].label()
            );
        }
        if line.cut_by_limit() {
            out.push_str(" <span class=\"rt-cut-mark\">cut by the parsing limit</span>");
        }
        out.push_str("<td>");
        if let Some(g) = self.groups[i] {
            self.push_group(out, g);
        }
        out.push_str("<td><code>");
        push_nodes(
            out,
            self.robots,
            self.robots.tree.line_nodes(line),
            self.ends.labelled(line.terminator()),
        );
        if line.cut_by_limit() {
            out.push_str("<span class=\"rt-cut-here\" title=\"parsing limit\">\u{2702}</span>");
        }
        out.push_str("</code>");
        self.push_line_notes(out, i, shown);
    }

    /// The group number, linked when the options give a link.
    fn push_group(&self, out: &mut String, g: usize) {
        match &self.opts.group_href {
            Some(t) => {
                out.push_str("<a href=\"");
                escape_into(out, &t.replace("{n}", &g.to_string()));
                let _ = write!(out, "\">{g}</a>");
            }
            None => {
                let _ = write!(out, "{g}");
            }
        }
    }

    /// The notes cell of the 0-based line `i`, when it has notes.
    fn push_line_notes(&self, out: &mut String, i: usize, shown: &mut Shown<'r>) {
        let cut = self.robots.tree.lines[i].cut_by_limit();
        let (expl, diags) = (&self.notes.explanations[i], &self.notes.by_line[i]);
        if !cut && expl.is_empty() && diags.is_empty() {
            return;
        }
        out.push_str("<td>");
        if cut && let Some(r) = self.ignored {
            let _ = write!(
                out,
                "<p class=\"rt-cut-note\">The parsing limit ({} bytes) falls inside this line; its last {} bytes are in the ignored block.</p>",
                thousands(PARSING_LIMIT),
                thousands(r.cut_tail_bytes)
            );
        }
        push_notes(out, expl, diags, self.opts, shown);
    }
}

/// The row of the region past the parsing limit: its summary, its diagnostics and the start of
/// its text.
fn push_ignored_row<'a>(
    out: &mut String,
    robots: &RobotsTxt,
    r: &IgnoredRegion,
    diags: &[&'a Diagnostic],
    opts: &ListingOptions,
    shown: &mut Shown<'a>,
) {
    // Only the start of a longer input was read: the counts cover the part read.
    let partial = robots.source.is_prefix();
    let _ = write!(
        out,
        "<tr id=\"{p}ignored\" class=\"rt-role-ignored-region\"><th><a href=\"#{p}ignored\">\u{2026}</a></th>\
         <td>past the limit</td><td></td><td colspan=\"2\">\
         <details class=\"rt-ignored\"><summary>{}{} bytes past the parsing limit of {} bytes: {}{}, {} lost</summary>",
        if partial { "at least " } else { "" },
        thousands(r.bytes),
        thousands(PARSING_LIMIT),
        if partial { "at least " } else { "" },
        count(r.lines, "line", "lines"),
        count(r.rules, "rule", "rules"),
        p = Escaped(&opts.id_prefix),
    );
    if !diags.is_empty() {
        push_notes(out, &[], diags, opts, shown);
    }
    let end = (r.span.start + opts.ignored_preview_bytes).min(r.span.end);
    // Do not split a UTF-8 sequence: back off to a character boundary.
    let mut end_c = end;
    let b = robots.bytes();
    while end_c > r.span.start && end_c < r.span.end && (b[end_c] & 0xC0) == 0x80 {
        end_c -= 1;
    }
    out.push_str("<pre class=\"rt-ignored-text\"><code>");
    escape_code_lines(out, &robots.text(Span::new(r.span.start, end_c)));
    out.push_str("</code></pre>");
    if end_c < r.span.end {
        let _ = write!(
            out,
            "<p>The first {} bytes are shown; {} more are not.</p>",
            thousands(end_c - r.span.start),
            thousands(r.span.end - end_c)
        );
    }
    out.push_str("</details></td></tr>");
}

/// Escapes multi-line text for a `<pre>`: like [`escape_code_into`], with CR LF and lone CR
/// written as LF so that the block keeps its line structure.
fn escape_code_lines(out: &mut String, text: &str) {
    for (i, piece) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let piece = piece.strip_suffix('\r').unwrap_or(piece);
        for (j, p) in piece.split('\r').enumerate() {
            if j > 0 {
                out.push('\n');
            }
            escape_code_into(out, p);
        }
    }
}

fn push_nodes(out: &mut String, robots: &RobotsTxt, nodes: &[syntax::Node], show_ends: bool) {
    for node in nodes {
        match node.kind {
            NodeKind::LineEnd => {
                let t = match node.span().len() {
                    0 => LineEnd::None,
                    2 => LineEnd::CrLf,
                    _ if robots.bytes()[node.span().start] == b'\r' => LineEnd::Cr,
                    _ => LineEnd::Lf,
                };
                if show_ends && t != LineEnd::None {
                    push_eol_label(out, t);
                }
            }
            // White space and the separator (a colon on almost every line) are bare text.
            NodeKind::Whitespace | NodeKind::Separator => {
                escape_code_into(out, &robots.text(node.span()));
            }
            kind => match node_tag(kind) {
                NodeTag::Element(tag) => {
                    let _ = write!(out, "<{tag}>");
                    escape_code_into(out, &robots.text(node.span()));
                    let _ = write!(out, "</{tag}>");
                }
                NodeTag::Span(class) => {
                    let _ = write!(out, "<span class={class}>");
                    escape_code_into(out, &robots.text(node.span()));
                    out.push_str("</span>");
                }
            },
        }
    }
}

/// How the listing marks a node: an element of its own, or a `<span>` with a class.
enum NodeTag {
    /// `<tag>…</tag>`.
    Element(&'static str),
    /// `<span class=…>…</span>`.
    Span(&'static str),
}

/// How a node is marked in the listing. The kinds most lines have get short elements: `<b>` a
/// key, `<var>` a value, `<em>` a comment; the others a `<span>` with a one-letter class (`t`
/// text no record holds) or [`NodeKind::css_class`]. The stylesheet styles them as the
/// highlighter's `rt-key`, `rt-value`, …; listings of thousands of lines carry several per line.
/// White space and separators are written bare (see `push_nodes`).
fn node_tag(kind: NodeKind) -> NodeTag {
    match kind {
        NodeKind::Key => NodeTag::Element("b"),
        NodeKind::Value => NodeTag::Element("var"),
        NodeKind::Comment => NodeTag::Element("em"),
        NodeKind::Text => NodeTag::Span("t"),
        k => NodeTag::Span(k.css_class()),
    }
}

/// The quote of the ids and line links of a listing: none, or `"` with
/// [`ListingOptions::quoted_ids`] (the id prefix is then escaped as any value).
fn quote(opts: &ListingOptions) -> &'static str {
    if opts.quoted_ids { "\"" } else { "" }
}

/// The visible label of a line terminator.
fn push_eol_label(out: &mut String, t: LineEnd) {
    let _ = write!(
        out,
        "<span class=\"rt-eol rt-eol-{}\">{}</span>",
        t.label().to_ascii_lowercase(),
        t.label()
    );
}

/// Writes a string escaped (for `format!` arguments).
struct Escaped<'a>(&'a str);

impl std::fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&super::escape(self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(bytes: &[u8]) -> String {
        let robots = RobotsTxt::parse(bytes);
        listing(&robots, &Analysis::default(), &ListingOptions::default())
    }

    #[test]
    fn explanation_shapes_hide_code_spans() {
        assert_eq!(
            explanation_shape("Disallows every URL whose path starts with `/a/`."),
            "Disallows every URL whose path starts with ….",
        );
        assert_eq!(explanation_shape("`é` or ``, then `x"), "… or …, then …");
        assert_eq!(explanation_shape("no code — ü"), "no code — ü");
        assert_eq!(
            explanation_shape("Matches `/a` and `/b`."),
            explanation_shape("Matches `/c/d` and `/e`.")
        );
    }

    #[test]
    fn lines_are_numbered_with_roles_and_groups() {
        let html =
            render(b"# hi\nUser-agent: *\nDisallow: /a\n\nAllow: /b\nSitemap: https://x/s.xml\n");
        assert!(html.contains("<tr id=L1><th><a href=#L1>1</a><td>comment<td>"));
        assert!(html.contains("<tr id=L2><th><a href=#L2>2</a><td>user-agent<td>1<td>"));
        assert!(html.contains("<b>Disallow</b>: <var>/a</var>"));
        // The blank line inside the group belongs to it.
        assert!(html.contains("<tr id=L4><th><a href=#L4>4</a><td>blank<td>1<td><code></code><tr"));
        assert!(html.contains("<td>sitemap<td>"));
        assert!(!html.contains("rt-eol"), "uniform LF: no labels");
    }

    #[test]
    fn bom_is_its_own_node_and_not_a_line() {
        let html = render(b"\xEF\xBB\xBFUser-agent: *\nDisallow: /p/\n");
        assert!(html.contains("id=\"Lbom\""));
        assert!(
            html.contains("<span class=\"rt-bom\" title=\"byte order mark: EF BB BF\">BOM</span>")
        );
        assert!(html.contains("<a href=#L1>1</a><td>user-agent<td>"));
    }

    #[test]
    fn mixed_line_ends_are_labelled() {
        let html = render(b"User-agent: *\r\nDisallow: /a\nAllow: /b\r\nAllow: /c\r");
        assert!(html.contains("<span class=\"rt-eol rt-eol-lf\">LF</span>"));
        assert!(html.contains("<span class=\"rt-eol rt-eol-cr\">CR</span>"));
        assert!(
            !html.contains("rt-eol-crlf"),
            "the most common terminator is not labelled"
        );
        assert!(html.contains("mixes line terminators (LF \u{d7}1, CRLF \u{d7}2, CR \u{d7}1)"));
        let cr_only = render(b"User-agent: *\rDisallow: /a\r");
        assert_eq!(cr_only.matches("rt-eol-cr\"").count(), 2);
    }

    #[test]
    fn other_reading_role_is_shown_where_it_differs() {
        let html = render(b"User-agent: *\nDissallow: /x\n");
        assert!(html.contains("<td>disallow <span class=rt-other>RFC 9309: unknown field</span>"));
    }

    #[test]
    fn content_is_escaped() {
        let html = render(
            b"User-agent: <script>alert('x')</script>\nDisallow: /\"><img src=x>\n# </table>&\0\n",
        );
        assert!(!html.contains("<script"));
        assert!(!html.contains("<img"));
        assert!(!html.contains("</table>&"));
        assert!(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"));
        assert!(html.contains("title=\"U+0000\">\u{2400}</span>"));
    }

    #[test]
    fn bytes_past_the_limit_are_one_block_with_lost_rules() {
        let mut f = b"User-agent: *\n".to_vec();
        while f.len() < PARSING_LIMIT - 100 {
            f.extend_from_slice(b"Disallow: /aaaaaaaaaaaaaaaa/\n");
        }
        // A comment that ends 10 bytes before the limit, so the next line straddles it.
        let pad = PARSING_LIMIT - 10 - f.len() - 2;
        f.extend_from_slice(b"#");
        f.extend(std::iter::repeat_n(b'x', pad));
        f.extend_from_slice(b"\n");
        assert_eq!(f.len(), PARSING_LIMIT - 10);
        f.extend_from_slice(b"Disallow: /cut-here/\nDisallow: /lost-1/\nAllow: /lost-2\n# c\n");
        let robots = RobotsTxt::parse(&f);
        let r = ignored_region(&robots).expect("over the limit");
        assert_eq!(r.bytes, f.len() - PARSING_LIMIT);
        assert_eq!(r.lines, 3);
        assert_eq!(r.rules, 2);
        let cut = robots.tree.lines.last().unwrap();
        assert!(cut.cut_by_limit());
        assert_eq!(r.cut_line, Some(cut.number()));
        assert_eq!(r.cut_tail_bytes, "Disallow: /cut-here/".len() - 10);
        let html = listing(&robots, &Analysis::default(), &ListingOptions::default());
        assert!(html.contains("rt-cut"));
        assert_eq!(html.matches("<details class=\"rt-ignored\">").count(), 1);
        assert!(html.contains("3 lines, 2 rules lost"));
    }

    #[test]
    fn diagnostics_link_with_the_template() {
        let robots = RobotsTxt::parse(b"User-agent: *\nDisallow:\n");
        let analysis = Analysis {
            diagnostics: vec![Diagnostic::new(
                crate::analysis::entry("empty-disallow-only").unwrap(),
                crate::analysis::Position {
                    span: Span::new(14, 23),
                    line: 2,
                    column: 1,
                    end_line: 2,
                    end_column: 10,
                },
                Readings::Both,
                "`Disallow:` with <no> value",
            )],
            explanations: vec![Explanation {
                line: 1,
                summary: "Starts a group for every crawler.".into(),
                details: vec![],
                restated: Vec::new(),
            }],
        };
        let opts = ListingOptions {
            id_prefix: "ex1-".into(),
            diagnostic_href: Some("../diagnostics/{name}.html".into()),
            ..ListingOptions::default()
        };
        let html = listing(&robots, &analysis, &opts);
        assert!(html.contains("id=ex1-2 class=rt-has-info"));
        let quoted = ListingOptions {
            quoted_ids: true,
            ..opts.clone()
        };
        let html_q = listing(&robots, &analysis, &quoted);
        assert!(html_q.contains("<tr id=\"ex1-2\" class=rt-has-info><th><a href=\"#ex1-2\">2</a>"));
        assert!(html.contains("<a href=\"../diagnostics/empty-disallow-only.html\">empty-disallow-only</a>: <code>Disallow:</code> with &lt;no&gt; value"));
        assert!(html.contains("<p>Starts a group for every crawler.</p>"));
    }

    proptest::proptest! {
        #[test]
        fn escaped_text_holds_no_markup(s in "\\PC*|[<>&\"'\\x00-\\x1f\\x7f-\\u{9f}a-z ]*") {
            let e = crate::html::escape(&s);
            proptest::prop_assert!(!e.contains(['<', '>', '"', '\'']));
            proptest::prop_assert!(!e.chars().any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\x0C')));
            for (i, _) in e.match_indices('&') {
                let rest = &e[i..];
                proptest::prop_assert!(
                    ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"].iter().any(|r| rest.starts_with(r))
                );
            }
            let mut code = String::new();
            crate::html::escape_code_into(&mut code, &s);
            let text_only: String = code.split('<').enumerate().map(|(i, p)| if i == 0 { p } else { p.split_once('>').map_or("", |x| x.1) }).collect();
            proptest::prop_assert!(!text_only.contains(['"', '\'']));
        }
    }

    /// A file of one `User-agent: *` group followed by `body(i)` for each `i` below `n`.
    fn one_group(n: usize, body: impl Fn(usize) -> String) -> RobotsTxt {
        let mut text = String::from("User-agent: *\n");
        for i in 0..n {
            text.push_str(&body(i));
        }
        RobotsTxt::parse(text.as_bytes())
    }

    #[test]
    fn full_row_lines_are_the_full_rows() {
        // Repeated diagnostics past the budget (some rows in full, then in runs), a kept line.
        let robots = one_group(80, |i| format!("Disallow: /p{}\nNoindex: /q\n", i % 7));
        let analysis = crate::analysis::analyze(&robots);
        let opts = ListingOptions {
            line_budget: Some(10),
            keep_lines: vec![100],
            ..ListingOptions::default()
        };
        let html = listing(&robots, &analysis, &opts);
        let mask = full_row_lines(&robots, &analysis.diagnostics, &opts);
        let full: Vec<usize> = (1..=robots.tree.lines.len())
            .filter(|n| {
                html.contains(&format!("<tr id=L{n}>")) || html.contains(&format!("<tr id=L{n} "))
            })
            .collect();
        assert!(
            full.contains(&100) && full.contains(&16) && full.len() < 100,
            "{full:?}"
        );
        let masked: Vec<usize> = (1..=mask.len()).filter(|n| mask[n - 1]).collect();
        assert_eq!(masked, full);
        // Explaining only those lines gives the same listing.
        let only = crate::analysis::analyze_when(&robots, |d| {
            crate::analysis::Explain::Lines(full_row_lines(&robots, d, &opts))
        });
        assert!(only.explanations.len() < analysis.explanations.len());
        assert_eq!(listing(&robots, &only, &opts), html);
    }

    #[test]
    fn packed_runs_unpack_to_the_runs_of_the_plain_listing() {
        // Two runs: the lines past the budget, split by a line kept in full.
        let robots = one_group(60, |i| format!("Disallow: /p{i}/<&>\n"));
        let analysis = crate::analysis::analyze(&robots);
        let plain = ListingOptions {
            line_budget: Some(10),
            keep_lines: vec![30],
            ..ListingOptions::default()
        };
        let packed = ListingOptions {
            packed_runs: true,
            ..plain.clone()
        };
        let (plain, packed) = (
            listing(&robots, &analysis, &plain),
            listing(&robots, &analysis, &packed),
        );
        let (a, b) = (
            packed.find(PACKED_OPEN).unwrap(),
            packed.rfind("</script>").unwrap(),
        );
        let runs = unpacked_runs(&packed);
        assert_eq!(runs.len(), 2);
        // Each placeholder row, its note replaced by its run, gives the plain listing's row.
        let mut unpacked = packed[..a].to_string();
        for (k, run) in runs.iter().enumerate() {
            let row = format!("<tr class=rt-run data-run={k}><td colspan=5>");
            let at = unpacked.find(&row).unwrap() + row.len();
            let end = at + unpacked[at..].find("</p>").unwrap() + "</p>".len();
            assert!(unpacked[at..end].starts_with("<p class=rt-packed>Line"));
            unpacked.replace_range(at..end, run);
            unpacked = unpacked.replace(&row, "<tr class=rt-run><td colspan=5>");
        }
        unpacked.push_str(&packed[b + "</script>".len()..]);
        assert_eq!(unpacked, plain);
        assert!(plain.contains("<li id=L12>Disallow: /p10/&lt;&amp;&gt;"));
    }

    /// A run longer than [`RUN_CHUNK`] lines is lists of at most that many, numbered on, each
    /// sized by its lines; a shorter one is one plain list.
    #[test]
    fn long_runs_come_in_chunks_of_a_thousand_lines() {
        let robots = one_group(2_600, |i| format!("# comment {i}\n"));
        let analysis = crate::analysis::analyze(&robots);
        let opts = ListingOptions {
            line_budget: Some(10),
            ..ListingOptions::default()
        };
        let html = listing(&robots, &analysis, &opts);
        let lists: Vec<&str> = html
            .match_indices("<ol ")
            .map(|(i, _)| &html[i..i + 80])
            .collect();
        assert_eq!(lists.len(), 3, "{lists:?}");
        // The run holds lines 11 to 2,601 (the group's user-agent line is line 1).
        assert!(lists[0].starts_with(
            "<ol start=11 class=rt-chunk style=\"contain-intrinsic-size:auto 1200.0em\">"
        ));
        assert!(lists[1].starts_with(
            "<ol start=1011 class=rt-chunk style=\"contain-intrinsic-size:auto 1200.0em\">"
        ));
        assert!(lists[2].starts_with(
            "<ol start=2011 class=rt-chunk style=\"contain-intrinsic-size:auto 709.2em\">"
        ));
        assert_eq!(html.matches("</ol>").count(), 3);
        assert!(html.contains("<li id=L1010># comment 1008</ol><ol start=1011 "));
        assert!(html.contains("em\"><li id=L1011># comment 1009<li id=L1012>"));
        let short = one_group(200, |i| format!("# comment {i}\n"));
        let html = listing(&short, &crate::analysis::analyze(&short), &opts);
        assert_eq!(html.matches("<ol start=11>").count(), 1);
        assert!(!html.contains("rt-chunk"));
    }

    #[test]
    fn an_explanation_budget_shortens_and_then_drops_explanations() {
        let robots = one_group(40, |i| format!("Disallow: /p{i}/\n"));
        let analysis = Analysis {
            diagnostics: vec![],
            explanations: (1..=41)
                .map(|l| Explanation {
                    line: l,
                    summary: format!("Summary of line {l}."),
                    details: vec![format!("Detail of line {l}.")],
                    restated: Vec::new(),
                })
                .collect(),
        };
        let opts = ListingOptions {
            explanation_budget: Some(1000),
            ..ListingOptions::default()
        };
        let html = listing(&robots, &analysis, &opts);
        assert!(html.contains("<li>Detail of line 1.<"));
        assert!(!html.contains("<li>Detail of line 30.<"));
        assert_eq!(html.matches("class=rt-budget").count(), 2);
        assert!(html.contains("Summary of line 12."));
        assert!(!html.contains("Summary of line 41."));
        let full = listing(&robots, &analysis, &ListingOptions::default());
        assert!(full.contains("<li>Detail of line 41.<"));
    }

    /// The explanation's "Redundant:" and "Duplicate:" sentences are left out where the row
    /// shows the diagnostic that says the same with its message, and kept where it does not.
    #[test]
    fn relations_a_shown_diagnostic_restates_are_said_once() {
        let robots = RobotsTxt::parse(
            b"User-agent: *\nDisallow: /a/b\nDisallow: /a\nDisallow: /c\nDisallow: /c\n",
        );
        let analysis = crate::analysis::analyze(&robots);
        let e2 = analysis.explanations.iter().find(|e| e.line == 2).unwrap();
        assert!(
            e2.details.iter().any(|d| d.starts_with("Redundant: ")),
            "{e2:?}"
        );
        assert_eq!(e2.restated.len(), 1);
        let shown = listing(&robots, &analysis, &ListingOptions::default());
        assert!(shown.contains("<code>Disallow: /a/b</code> can never change a decision"));
        assert!(!shown.contains("<li>Redundant: "), "{shown}");
        assert!(!shown.contains("<li>Duplicate: "), "{shown}");
        // Diagnostics shown only by name past the repeat limit: the sentences stay.
        let compact = ListingOptions {
            repeat_limit: 0,
            ..ListingOptions::default()
        };
        let html = listing(&robots, &analysis, &compact);
        assert!(html.contains("<li>Redundant: "), "{html}");
        assert!(html.contains("<li>Duplicate: "), "{html}");
        // Without diagnostics, the explanation says it.
        let plain = ListingOptions {
            diagnostics: false,
            ..ListingOptions::default()
        };
        assert!(listing(&robots, &analysis, &plain).contains("<li>Redundant: "));
    }
}
