//! Page models and askama templates (`templates/report/*.html`).
//!
//! The data is prepared in Rust; the templates only lay it out. Every field that may hold text
//! from an input is an [`Html`] value, escaped by [`crate::html::escape`] when it was built, and
//! printed with `|safe`; all other fields are static labels or numbers.

use super::host::Context;
use crate::analysis::{Diagnostic, Readings};
use crate::fetch::{Assessment, Outcome};
use crate::html::Html;
use askama::Template;

/// Shared by every page: where the root is, the title, the footer.
pub struct Layout {
    /// Relative path from the page to the report's root (`""` or `"../"`).
    pub root: &'static str,
    /// The `<title>` text, escaped.
    pub title: Html,
    /// The report's time, RFC 3339.
    pub now: String,
    /// The reading of decisions and counts.
    pub reading: &'static str,
    /// The tool's version.
    pub version: &'static str,
    /// Link to the guide, relative to the page, if there is one.
    pub guide: Option<Html>,
    /// Whether the page loads `report.js`.
    pub script: bool,
    /// Whether the page loads `tester.js` (host pages, with the tester).
    pub tester: bool,
}

impl Layout {
    /// The layout of a page `root` away from the report's root.
    pub fn new(root: &'static str, ctx: &Context, title: &str) -> Layout {
        Layout {
            root,
            title: Html::text(title),
            now: super::sidecar::format_time(ctx.now),
            reading: ctx.reading.label(),
            version: env!("CARGO_PKG_VERSION"),
            guide: ctx
                .guide
                .as_ref()
                .map(|g| Html::text(&format!("{root}{g}"))),
            script: false,
            tester: false,
        }
    }
}

/// Renders a template; templates here have no fallible parts, so an error is a bug and yields
/// a page saying so rather than a panic.
pub fn render<T: Template>(t: &T) -> String {
    t.render().unwrap_or_else(|e| {
        format!(
            "<!DOCTYPE html><title>error</title><p>{}</p>",
            Html::text(&e.to_string())
        )
    })
}

/// A label and a value.
pub struct Fact {
    /// The label.
    pub label: &'static str,
    /// The value.
    pub value: Html,
}

/// The Fetch section of a host page.
pub struct FetchView {
    /// CSS class, the outcome's machine name.
    pub outcome_class: &'static str,
    /// The outcome's label.
    pub outcome_label: &'static str,
    /// `HTTP 503`, `network error: timeout`, …; `None` when nothing was recorded.
    pub status: Option<Html>,
    /// The URL first asked for.
    pub url: Option<Html>,
    /// The authority the rules bind.
    pub authority: Option<Html>,
    /// Redirect hops, the first [`super::host::MAX_LISTED_HOPS`].
    pub chain: Vec<Html>,
    /// How many more hops there are, when the chain is longer.
    pub chain_more: Option<Html>,
    /// Sentences on the outcome.
    pub explanation: Vec<Html>,
    /// Problems with the sidecar.
    pub problems: Vec<Html>,
    /// What a crawler does, RFC 9309.
    pub effect_rfc: &'static str,
    /// What a crawler does, Google.
    pub effect_google: &'static str,
    /// Cache age sentence.
    pub cache: Option<Html>,
    /// The recorded content type.
    pub content_type: Option<Html>,
    /// The recorded time of the attempt.
    pub fetched_at: Option<Html>,
    /// A host read from WARC files with several captures: one row per capture, oldest first.
    pub captures: Vec<CaptureRow>,
    /// Captures older than those listed.
    pub older_captures: usize,
}

impl FetchView {
    /// What was recorded of the answer beside its outcome, as HTML: the status, the time of
    /// the attempt and the content type, those recorded; `None` when none was.
    pub fn details(&self) -> Option<String> {
        let parts: Vec<String> = [
            self.status.as_ref().map(|s| s.to_string()),
            self.fetched_at
                .as_ref()
                .map(|t| format!("attempted at {t}")),
            self.content_type
                .as_ref()
                .map(|c| format!("content type <code>{c}</code>")),
        ]
        .into_iter()
        .flatten()
        .collect();
        (!parts.is_empty()).then(|| parts.join(", "))
    }
}

/// One capture of a host's timeline.
pub struct CaptureRow {
    /// `WARC-Date` of the capture (RFC 3339).
    pub date: Html,
    /// The final status (`200`, `200 after 1 redirect`, `no response recorded`).
    pub status: Html,
    /// Bytes of the body, empty when none was read.
    pub bytes: String,
    /// The payload digest.
    pub digest: Option<Html>,
    /// Rule lines added (`<ins>`) and removed (`<del>`) since the capture before.
    pub changes: Vec<Html>,
    /// Whether this capture decides the host's row.
    pub latest: bool,
}

/// One row of the table of fetch results.
pub struct SemRow {
    /// `2xx`, `3xx`, …
    pub answer: &'static str,
    /// Fragment id on the shared page (`fetch.html`).
    pub id: &'static str,
    /// RFC 9309 section.
    pub section: &'static str,
    /// What RFC 9309 says.
    pub rfc: &'static str,
    /// What Google documents.
    pub google: &'static str,
    /// Whether this host's answer falls in this row.
    pub current: bool,
}

/// The table of fetch results (RFC 9309 §2.3.1, §2.4, and Google's documentation), with the
/// rows that apply to the answer `a` marked (the shared page `fetch.html` lists every row; a
/// host page, those that apply).
pub fn semantics_rows(a: Option<&Assessment>) -> Vec<SemRow> {
    let st = a.and_then(|a| a.status).unwrap_or(0);
    let is = |f: &dyn Fn(&Assessment) -> bool| a.is_some_and(f);
    vec![
        SemRow {
            answer: "2xx",
            id: "answer-2xx",
            section: "2.3.1.1",
            rfc: "Successful: the crawler must follow the rules it can parse.",
            google: "Reads the file as served.",
            current: is(&|a| a.outcome == Outcome::Successful && !a.not_modified()),
        },
        SemRow {
            answer: "3xx",
            id: "answer-3xx",
            section: "2.3.1.2",
            rfc: "Follow at least five consecutive redirects, to other hosts too; the rules found then apply to the authority first asked. After more than five, the file may be treated as unavailable.",
            google: "Follows at least five hops, then treats the file as a 404. Redirects made with HTML, JavaScript or meta refresh are not followed.",
            current: is(&|a| !a.hops.is_empty() || ((300..400).contains(&st) && !a.not_modified())),
        },
        SemRow {
            answer: "304",
            id: "answer-304",
            section: "2.4",
            rfc: "Not named. A 304 (Not Modified) is not a redirect: it answers a conditional request and says the copy the crawler holds is still current. §2.4 lets crawlers use standard HTTP cache control (RFC 9111), under which that cached copy stays in use; this report counts its cache age from the 304. Without a recorded copy, the rules in force are unknown.",
            google: "Not named: Google fetches robots.txt with a non-conditional GET, so it is not answered 304. This report assumes such a request would get the file the 304 confirms, the cached copy.",
            current: is(&|a| a.not_modified()),
        },
        SemRow {
            answer: "4xx",
            id: "answer-4xx",
            section: "2.3.1.3",
            rfc: "Unavailable: the crawler may fetch anything.",
            google: "As if there were no robots.txt, for every 4xx status except 429. Google advises against 401 and 403 for limiting the crawl rate.",
            current: is(&|a| (400..500).contains(&st) && a.error.is_none()),
        },
        SemRow {
            answer: "5xx, network errors",
            id: "answer-5xx",
            section: "2.3.1.4",
            rfc: "Unreachable: assume complete disallow. After a long time (30 days, say), the file may be treated as unavailable, or a cached copy kept in use.",
            google: "Stops crawling for 12 hours and retries; then uses the last good copy for up to 30 days, or, with none, assumes no restrictions. Network errors are handled this way too. Google's page leaves 429 out of its 4xx rule without saying what it does instead; this report treats it as a server error.",
            current: is(&|a| a.outcome == Outcome::Unreachable || st == 429),
        },
        SemRow {
            answer: "cached copy",
            id: "cached-copy",
            section: "2.4",
            rfc: "Should not use a cached copy for more than 24 hours, unless the file is unreachable.",
            google: "Generally caches for up to 24 hours; may cache longer when refreshing is not possible, and may lengthen or shorten the lifetime after Cache-Control max-age.",
            current: is(&|a| a.cache.is_some()),
        },
    ]
}

/// The shared page of fetch results (`fetch.html`).
#[derive(Template)]
#[template(path = "report/fetch.html")]
pub struct FetchPage {
    /// Layout.
    pub layout: Layout,
    /// Every row.
    pub rows: Vec<SemRow>,
}

/// The shared page that says once what the parts of every host page show (`reading.html`).
#[derive(Template)]
#[template(path = "report/reading.html")]
pub struct ReadingPage {
    /// Layout.
    pub layout: Layout,
    /// The crawlers of the decision matrices, with their purposes.
    pub crawlers: Vec<MatrixCrawler>,
}

/// One group of the file.
pub struct GroupRow {
    /// 1-based group number.
    pub n: usize,
    /// First line (1-based).
    pub first_line: usize,
    /// Last record line (1-based).
    pub last_line: usize,
    /// The user-agent values, linked to their lines.
    pub agents: Html,
    /// Number of rules.
    pub rules: usize,
    /// Number of other records.
    pub others: usize,
}

/// Groups of a host page's table left out (past [`super::host::MAX_GROUP_ROWS`]).
pub struct MoreGroups {
    /// How many.
    pub count: usize,
    /// The first line of the first one left out (1-based).
    pub first_line: usize,
    /// The last line of the last one left out (1-based).
    pub last_line: usize,
}

impl MoreGroups {
    /// [`MoreGroups::count`] with thousands separators.
    pub fn count_label(&self) -> String {
        crate::text::thousands(self.count)
    }
}

/// The effective rules of one or more product tokens.
pub struct EffectiveRules {
    /// The tokens (comma-separated, the first [`super::host::MAX_NAMED_AGENTS`]), or `*`.
    pub tokens: Html,
    /// The 1-based numbers of the groups combined, each with its anchor on the page (its row
    /// of the Groups table, or its first line when the table leaves it out); the first
    /// [`super::host::MAX_LINKED_GROUPS`].
    pub groups: Vec<(usize, String)>,
    /// How many more groups are combined.
    pub groups_more: usize,
    /// The rules in precedence order (the first ones).
    pub rules: Vec<RuleRow>,
    /// How many more rules there are.
    pub more: usize,
    /// Later token sets whose effective rules are this set's rules, the same kinds and patterns
    /// in the same order on lines of their own: listed with it instead of each under a heading
    /// of its own (files that repeat one group for many crawlers, or that have hundreds of
    /// groups each shutting one crawler out). The first ones, within
    /// [`super::host::MAX_TOKEN_SETS`].
    pub also: Vec<SameRule>,
    /// How many more token sets have this set's rules.
    pub also_more: usize,
}

impl EffectiveRules {
    /// The number of token sets with this set's rules, listed or not, with thousands separators.
    pub fn also_label(&self) -> String {
        crate::text::thousands(self.also.len() + self.also_more)
    }

    /// [`EffectiveRules::also_more`] with thousands separators.
    pub fn also_more_label(&self) -> String {
        crate::text::thousands(self.also_more)
    }

    /// [`EffectiveRules::groups_more`] with thousands separators.
    pub fn groups_more_label(&self) -> String {
        crate::text::thousands(self.groups_more)
    }
}

/// A token set listed with an earlier one of the same rules ([`EffectiveRules::also`]).
pub struct SameRule {
    /// The tokens (comma-separated, the first [`super::host::MAX_NAMED_AGENTS`]).
    pub tokens: Html,
    /// The 1-based numbers of the groups combined, each with its anchor on the page (its row
    /// of the Groups table, or its first line when the table leaves it out); the first
    /// [`super::host::MAX_LINKED_GROUPS`].
    pub groups: Vec<(usize, String)>,
    /// How many more groups are combined.
    pub groups_more: usize,
    /// The 1-based line of the rule, when the set has one rule.
    pub line: Option<usize>,
}

impl SameRule {
    /// [`SameRule::groups_more`] with thousands separators.
    pub fn groups_more_label(&self) -> String {
        crate::text::thousands(self.groups_more)
    }
}

/// One rule in an effective list.
pub struct RuleRow {
    /// `allow` or `disallow`.
    pub kind: &'static str,
    /// The pattern as written.
    pub pattern: Html,
    /// 1-based line.
    pub line: usize,
    /// Priority: the length of the pattern as compared, in bytes.
    pub priority: usize,
    /// A remark (normalised form, derived, empty).
    pub note: Html,
}

/// The decision matrix.
pub struct MatrixView {
    /// Column headers.
    pub paths: Vec<Html>,
    /// Rows, one per crawler.
    pub rows: Vec<MatrixRow>,
    /// A note above the table.
    pub note: Option<Html>,
}

/// The decisions of the crawlers that decide every path alike, in both readings.
pub struct MatrixRow {
    /// The crawlers, in the matrix's order.
    pub crawlers: Vec<MatrixCrawler>,
    /// Cells, one per path.
    pub cells: Vec<MatrixCell>,
}

/// A crawler of a decision row.
pub struct MatrixCrawler {
    /// Product token.
    pub token: Html,
    /// Purpose.
    pub purpose: Html,
    /// How the crawler chooses its groups, when it differs from a plain product token (empty
    /// otherwise), e.g. "Obeys the Googlebot group when no group names Googlebot-Image."
    pub profile: Html,
}

/// One decision.
pub struct MatrixCell {
    /// `c-y` (allowed), `c-n` (disallowed) or empty.
    pub class: &'static str,
    /// `allowed`, `disallowed` or `unknown`.
    pub text: &'static str,
    /// Link to the deciding line or to the fetch section.
    pub href: Option<String>,
    /// The other reading's verdict where it differs.
    pub differs: Option<String>,
}

/// A line the readings read differently.
pub struct ReadingLine {
    /// 1-based line.
    pub line: usize,
    /// Role in the Google reading.
    pub google: &'static str,
    /// Role in the RFC 9309 reading.
    pub rfc: &'static str,
    /// Why.
    pub why: Html,
}

/// A decision the readings make differently.
pub struct ReadingDecision {
    /// Product token.
    pub crawler: Html,
    /// Path.
    pub path: Html,
    /// Google's verdict (with line link).
    pub google: Html,
    /// RFC 9309's verdict (with line link).
    pub rfc: Html,
    /// Why.
    pub why: Html,
}

/// Lines of a list of the Readings section left out (past
/// [`super::host::MAX_READING_LINES`]).
pub struct MoreLines {
    /// How many.
    pub count: usize,
    /// The 1-based line of the last one.
    pub last_line: usize,
}

impl MoreLines {
    /// [`MoreLines::count`] with thousands separators.
    pub fn count_label(&self) -> String {
        crate::text::thousands(self.count)
    }
}

/// The Readings section.
#[derive(Default)]
pub struct ReadingsView {
    /// Lines read as different things (the first ones).
    pub lines: Vec<ReadingLine>,
    /// Lines read as different things left out.
    pub lines_more: Option<MoreLines>,
    /// User-agent lines read as different product tokens (the first ones).
    pub tokens: Vec<ReadingLine>,
    /// User-agent lines read as different product tokens left out.
    pub tokens_more: Option<MoreLines>,
    /// Decisions that differ.
    pub decisions: Vec<ReadingDecision>,
    /// Diagnostics of one reading only, grouped by name and reading.
    pub diagnostics: Vec<DiagGroup>,
}

impl ReadingsView {
    /// Whether the readings agree on everything shown.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
            && self.tokens.is_empty()
            && self.decisions.is_empty()
            && self.diagnostics.is_empty()
    }
}

/// A diagnostic in a list.
pub struct DiagRow {
    /// `error`, `warning`, `info`.
    pub severity: &'static str,
    /// The name.
    pub name: Html,
    /// Link to its page (relative to a host page).
    pub href: Html,
    /// 1-based line.
    pub line: usize,
    /// Anchor of the line in the listing (`L12`, or `Lignored` past the parsing limit).
    pub anchor: String,
    /// `both readings`, `Google reading only`, `RFC 9309 reading only`.
    pub readings: &'static str,
}

impl DiagRow {
    /// A row for `d` in a file of `lines` lines.
    pub fn of(d: &Diagnostic, lines: usize) -> DiagRow {
        DiagRow {
            severity: d.severity().as_str(),
            name: Html::text(d.name),
            href: Html::text(&format!("../diagnostics/{}.html", d.name)),
            line: d.line,
            anchor: line_anchor(d.line, lines),
            readings: readings_label(d.readings),
        }
    }
}

/// The listing anchor of 1-based line `line` in a file of `lines` lines: its row, the region
/// past the parsing limit for a line beyond the last, or the file's section for an empty file
/// (whose listing has no rows).
pub fn line_anchor(line: usize, lines: usize) -> String {
    if lines == 0 {
        "file".to_string()
    } else if line == 0 || line > lines {
        "Lignored".to_string()
    } else {
        format!("L{line}")
    }
}

/// All diagnostics of one name on a host page.
pub struct DiagGroup {
    /// The first occurrence.
    pub first: DiagRow,
    /// Occurrences.
    pub count: usize,
    /// (line, anchor) of the first occurrences.
    pub lines: Vec<(usize, String)>,
}

/// Human label of [`Readings`].
pub fn readings_label(r: Readings) -> &'static str {
    match r {
        Readings::Both => "both readings",
        Readings::Google => "Google reading only",
        Readings::Rfc => "RFC 9309 reading only",
    }
}

/// A listing rendered only when the page is written, in pieces (see
/// [`crate::html::listing_chunks`]).
pub struct LazyListing<'a> {
    /// The file.
    pub robots: &'a crate::RobotsTxt,
    /// Its analysis.
    pub analysis: &'a crate::analysis::Analysis,
    /// Listing options.
    pub opts: &'a crate::html::ListingOptions,
    /// Whether the listing is shown folded (a long file).
    pub folded: bool,
}

impl std::fmt::Display for LazyListing<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut result = Ok(());
        crate::html::listing_chunks(self.robots, self.analysis, self.opts, &mut |chunk| {
            if result.is_ok() {
                result = f.write_str(chunk);
            }
        });
        result
    }
}

impl askama::filters::HtmlSafe for LazyListing<'_> {}

impl LazyListing<'_> {
    /// The file's number of lines, with thousands separators.
    pub fn lines_label(&self) -> String {
        crate::text::thousands(self.robots.tree.lines.len())
    }
}

/// A host page.
#[derive(Template)]
#[template(path = "report/host.html")]
pub struct HostPage<'a> {
    /// Layout.
    pub layout: Layout,
    /// Host name.
    pub host: Html,
    /// Label of the reading.
    pub reading_label: &'static str,
    /// Overview facts.
    pub facts: Vec<Fact>,
    /// Fetch section.
    pub fetch: FetchView,
    /// The rows of the fetch results table that apply to this host.
    pub semantics: Vec<SemRow>,
    /// The listing, when there is a file.
    pub listing: Option<LazyListing<'a>>,
    /// A note above the listing.
    pub file_note: Option<Html>,
    /// The groups (the first [`super::host::MAX_GROUP_ROWS`]).
    pub groups: Vec<GroupRow>,
    /// The groups left out of the table.
    pub groups_more: Option<MoreGroups>,
    /// Effective rules per product token (the first [`super::host::MAX_TOKEN_SETS`] sets).
    pub effective: Vec<EffectiveRules>,
    /// Token sets left out of the effective rules (with a heading of their own or listed
    /// with one), formatted; empty when none.
    pub effective_more: String,
    /// Decision matrix.
    pub matrix: MatrixView,
    /// Readings section.
    pub readings: ReadingsView,
    /// All diagnostics, by name.
    pub diagnostics: Vec<DiagGroup>,
    /// The URLs of `--urls` on this host (the first [`super::urls::MAX_ON_PAGE`]).
    pub urls: Vec<UrlRow>,
    /// URLs of `--urls` on this host left off the page, formatted; empty when none.
    pub urls_more: String,
    /// Crawler tokens of the matrix, in order.
    pub agents: Vec<Html>,
    /// At a glance: whether the crawlers of the matrix may fetch `/`, one cell per verdict with
    /// the tokens that have it, in the matrix's order.
    pub glance: Vec<(Mini, Vec<Html>)>,
    /// At a glance: diagnostics of the reading, by severity.
    pub counts: super::summary::Counts,
    /// The tester, when the host has a file.
    pub tester: Option<crate::html::tester::TesterView>,
}

/// One URL of `--urls` on a host page: each crawler's verdict.
pub struct UrlRow {
    /// The URL.
    pub url: Html,
    /// One cell per crawler.
    pub cells: Vec<MatrixCell>,
}

/// A number shown on the index.
#[derive(Clone)]
pub struct Card {
    /// The number, formatted.
    pub value: String,
    /// What it counts.
    pub label: &'static str,
}

/// One cell of the index's compact matrix.
pub struct Mini {
    /// `y`, `n` or `u`.
    pub class: &'static str,
    /// `✓`, `✗` or `–`.
    pub glyph: &'static str,
    /// `allowed`, `disallowed`, `unknown`.
    pub word: &'static str,
}

impl Mini {
    /// The cell of a verdict: allowed, disallowed, or unknown (`None`).
    pub fn of(allowed: Option<bool>) -> Mini {
        match allowed {
            Some(true) => Mini {
                class: "y",
                glyph: "\u{2713}",
                word: "allowed",
            },
            Some(false) => Mini {
                class: "n",
                glyph: "\u{2717}",
                word: "disallowed",
            },
            None => Mini {
                class: "u",
                glyph: "\u{2013}",
                word: "unknown",
            },
        }
    }
}

/// One row of the index.
pub struct IndexRow {
    /// Host name.
    pub host: Html,
    /// Link to its page, when it has one.
    pub href: Option<Html>,
    /// The input path, shown under the host.
    pub path: Option<Html>,
    /// A read error.
    pub error: Option<Html>,
    /// The robots.txt file could not be read: counts are unknown, shown as `—`, not 0.
    pub unread: bool,
    /// Outcome machine name.
    pub outcome: Html,
    /// Outcome label.
    pub outcome_label: &'static str,
    /// Size in bytes, formatted (empty without a file).
    pub bytes: String,
    /// Groups.
    pub groups: usize,
    /// Rules.
    pub rules: usize,
    /// Sitemaps.
    pub sitemaps: usize,
    /// Errors.
    pub errors: usize,
    /// Warnings.
    pub warnings: usize,
    /// Info.
    pub infos: usize,
    /// Whether a crawler without a group of its own may not fetch `/`.
    pub blocks: bool,
    /// Its worst problem, in words (see [`super::sink::rank`]).
    pub problem: &'static str,
    /// URLs of `--urls` on the host, formatted; empty when none.
    pub urls_given: String,
    /// Those some crawler of the matrix may not fetch, formatted; empty when none.
    pub urls_blocked: String,
    /// Who may fetch `/`.
    pub access: Vec<Mini>,
}

/// A link of the index's pager; `number` `None` stands for a gap (`…`).
pub struct PageLink {
    /// The page's number.
    pub number: Option<usize>,
    /// Its address.
    pub href: Html,
    /// Whether it is the page shown.
    pub current: bool,
}

/// One page of the index: the first also has the totals.
#[derive(Template)]
#[template(path = "report/index.html")]
pub struct IndexPage {
    /// Layout.
    pub layout: Layout,
    /// Whether this is the first page (`index.html`).
    pub first: bool,
    /// Totals.
    pub cards: Vec<Card>,
    /// Hosts by outcome.
    pub outcomes: Vec<Card>,
    /// Crawler tokens of the matrix.
    pub agents: Vec<Html>,
    /// Per crawler: hosts that let it fetch `/`, formatted.
    pub agent_totals: Vec<String>,
    /// Rows of this page.
    pub rows: Vec<IndexRow>,
    /// Most frequent diagnostics: (name, hosts, severity).
    pub top: Vec<(Html, usize, &'static str)>,
    /// Entries not read.
    pub skipped: Vec<(Html, Html)>,
    /// Reading label.
    pub reading_label: &'static str,
    /// This page's number (1-based).
    pub number: usize,
    /// Pages in all.
    pub pages: usize,
    /// The 1-based numbers of the first and last rows shown, formatted.
    pub first_row: String,
    /// See `first_row`.
    pub last_row: String,
    /// Hosts in all, formatted.
    pub hosts: String,
    /// The previous and next pages.
    pub prev: Option<Html>,
    /// See `prev`.
    pub next: Option<Html>,
    /// The pager's links.
    pub pager: Vec<PageLink>,
    /// Files of the index's data (`assets/hosts-<n>.js`).
    pub data_files: usize,
    /// Words for each problem rank.
    pub rank_labels: Vec<Html>,
    /// Whether the run has a URL list (`--urls`): the index then counts its URLs per host.
    pub has_urls: bool,
    /// What `hosts.jsonl` and `results.sarif` list ([`super::listed_severities`]).
    pub listed: &'static str,
    /// (machine name, label) of each outcome, `unread` last, in the data's code order.
    pub outcome_names: Vec<(&'static str, &'static str)>,
}

/// The statistics page.
#[derive(Template)]
#[template(path = "report/statistics.html")]
pub struct StatisticsPage {
    /// Layout.
    pub layout: Layout,
    /// Hosts counted, formatted.
    pub hosts: String,
    /// Sections, each a chart and its table.
    pub sections: Vec<super::stats::Section>,
}

/// A host affected by a diagnostic.
pub struct Affected {
    /// Host name.
    pub host: Html,
    /// Link to its page, when it has one.
    pub href: Option<Html>,
    /// (line, link) of each occurrence, at most a few.
    pub lines: Vec<(usize, Option<Html>)>,
    /// Occurrences in total.
    pub count: usize,
}

/// A diagnostic page.
#[derive(Template)]
#[template(path = "report/diagnostic.html")]
pub struct DiagnosticPage {
    /// Layout.
    pub layout: Layout,
    /// Name.
    pub name: Html,
    /// Default severity.
    pub severity: &'static str,
    /// One-line summary.
    pub summary: Html,
    /// What it means (rendered Markdown).
    pub what: Html,
    /// Why it matters (rendered Markdown).
    pub why: Html,
    /// The example, as a listing.
    pub example: Option<Html>,
    /// How to fix it (rendered Markdown).
    pub fix: Html,
    /// References: (label, URL).
    pub references: Vec<(Html, Html)>,
    /// Guide chapters that explain it: (title, link).
    pub guide: Vec<(Html, Html)>,
    /// Hosts affected: the first [`super::sink::MAX_AFFECTED`].
    pub hosts: Vec<Affected>,
    /// Hosts affected in all.
    pub hosts_total: usize,
    /// Whether `hosts.jsonl` lists its occurrences (it is of the report's minimum severity or
    /// higher); otherwise the rows count them.
    pub in_jsonl: bool,
    /// Occurrences in total.
    pub occurrences: usize,
    /// Whether the catalogue documents this name.
    pub documented: bool,
}

/// One entry of the diagnostics index.
pub struct DiagEntry {
    /// Name.
    pub name: Html,
    /// Link.
    pub href: Html,
    /// Severity.
    pub severity: &'static str,
    /// Summary.
    pub summary: Html,
    /// Hosts affected.
    pub hosts: usize,
    /// Occurrences.
    pub occurrences: usize,
}

/// The diagnostics index.
#[derive(Template)]
#[template(path = "report/diagnostics.html")]
pub struct DiagnosticsIndex {
    /// Layout.
    pub layout: Layout,
    /// Entries.
    pub entries: Vec<DiagEntry>,
}

/// Renders catalogue Markdown to HTML. Raw HTML in the Markdown is shown as text, not
/// passed through.
pub fn markdown(text: &str) -> Html {
    use pulldown_cmark::{Event, Options, Parser, html};
    let parser =
        Parser::new_ext(text, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH).map(|e| {
            match e {
                Event::Html(s) | Event::InlineHtml(s) => Event::Text(s),
                other => other,
            }
        });
    let mut out = String::new();
    html::push_html(&mut out, parser);
    Html(out)
}
