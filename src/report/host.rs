//! One host: read its file and sidecar, analyse, decide, and render its page.
//!
//! [`process`] does everything for one [`HostInput`] and returns the host's [`HostRow`] (the
//! small record the index, the diagnostic pages and the machine outputs need) and the page's
//! HTML. The parsed file is dropped when it returns, so memory does not grow with the number of
//! hosts.

use super::discover::HostInput;
use super::pages;
use super::summary::{Access, AiAccess, Counts, CrawlerDecisions, HostRow, RowDiagnostic};
use crate::analysis::{self, Analysis, Severity};
use crate::decide::{Profile, Reason, Verdict};
use crate::decode::PARSING_LIMIT;
use crate::fetch::{self, Assessment, Effect, Outcome};
use crate::groups::{Policy, ProductToken, Rule, RuleKind};
use crate::html::{self, Html, LineRole, line_roles};
use crate::pattern::{Side, normalize};
use crate::syntax::LineEnd;
use crate::text::{count, thousands};
use crate::{Reading, RobotsTxt};
use std::fmt::Write as _;
use time::OffsetDateTime;

/// Largest part of a file read, in bytes (the shared cap of [`crate::read`]).
pub use crate::read::MAX_READ;
/// At most this many paths are derived from a file's rules for the decision matrix.
pub const MAX_DERIVED_PATHS: usize = 15;
/// Bytes of explanations on a host page before they are shortened (see
/// [`html::ListingOptions::explanation_budget`]): the first rules in full, the next
/// as many in a sentence each, then diagnostics only, so that a page stays small however long
/// its file is. Every rule's explanation is one `robots-explorer check` or the guide away.
pub const EXPLANATION_BUDGET: usize = 4_000;
/// Lines of a host page's listing shown in full; past them only the lines that decide a verdict
/// of the matrix or carry a diagnostic not shown in full often enough are, the others as plain
/// text (see [`html::ListingOptions::line_budget`]).
pub const LINE_BUDGET: usize = 40;
/// Files longer than this many lines are listed folded (`<details>`, opened by a click or by
/// following a link to one of its lines).
pub const FOLD_LINES: usize = 300;
/// At most this many lines are linked per diagnostic name in a host page's list.
const MAX_LISTED_LINES: usize = 12;
/// At most this many rules are listed per product token in precedence order.
pub const MAX_EFFECTIVE_RULES: usize = 10;
/// Longest derived path kept, in characters.
const MAX_PATH_CHARS: usize = 120;
/// At most this many groups are rows of a host page's Groups table; a sentence counts the
/// others and gives their lines in the listing.
pub const MAX_GROUP_ROWS: usize = 200;
/// At most this many user-agent values are named per row of the Groups table, and product
/// tokens per token set of the effective rules; the others are counted.
pub const MAX_NAMED_AGENTS: usize = 30;
/// At most this many group numbers are linked per token set of the effective rules; the others
/// are counted.
pub const MAX_LINKED_GROUPS: usize = 30;
/// At most this many token sets are named in the effective rules: those with a heading of
/// their own first, then those listed with one ([`pages::EffectiveRules::also`]) in the room
/// left; the others are counted. Every rule is in the listing, every product token in
/// `hosts.jsonl`.
pub const MAX_TOKEN_SETS: usize = 200;
/// At most this many lines are listed in each line-by-line part of the Readings section (lines
/// read differently, user-agent lines read as different product tokens); the others are
/// counted, with the last one's line.
pub const MAX_READING_LINES: usize = 100;
/// Hops of a redirect chain listed on a host page; a sentence counts the others. Crawlers
/// follow five (RFC 9309 §2.3.1.2), so the first twenty show every chain that matters.
pub const MAX_LISTED_HOPS: usize = 20;

/// Lists each token set whose effective rules are those of an earlier set (the same rules, by
/// kind, pattern as written and as compared, in the same order; on lines of their own) with the
/// first such set ([`pages::EffectiveRules::also`]). `sets` pairs each set with that key.
fn fold_same_rules(sets: Vec<(pages::EffectiveRules, Vec<u8>)>) -> Vec<pages::EffectiveRules> {
    let mut out: Vec<pages::EffectiveRules> = Vec::with_capacity(sets.len());
    let mut first: std::collections::HashMap<Vec<u8>, usize> = std::collections::HashMap::new();
    for (e, key) in sets {
        if !e.rules.is_empty() {
            if let Some(&at) = first.get(&key) {
                let line = (e.rules.len() == 1).then(|| e.rules[0].line);
                out[at].also.push(pages::SameRule {
                    tokens: e.tokens,
                    groups: e.groups,
                    groups_more: e.groups_more,
                    line,
                });
                continue;
            }
            first.insert(key, out.len());
        }
        out.push(e);
    }
    out
}

/// Keeps at most [`MAX_TOKEN_SETS`] token sets of the effective rules: the first ones with a
/// heading of their own, then, with the room left, those listed with them, shared out so that
/// each heading keeps its whole list or an equal share (the others are counted in
/// [`pages::EffectiveRules::also_more`]). Also returns how many sets with a heading of their
/// own were left out, with those listed with them.
fn cap_token_sets(mut sets: Vec<pages::EffectiveRules>) -> (Vec<pages::EffectiveRules>, usize) {
    let left_out = sets
        .iter()
        .skip(MAX_TOKEN_SETS)
        .map(|e| 1 + e.also.len())
        .sum();
    sets.truncate(MAX_TOKEN_SETS);
    let mut room = MAX_TOKEN_SETS - sets.len();
    // Shortest lists first: each keeps its whole list or an equal share of the room left.
    let mut order: Vec<usize> = (0..sets.len()).collect();
    order.sort_by_key(|&i| sets[i].also.len());
    for (k, &i) in order.iter().enumerate() {
        let e = &mut sets[i];
        let keep = e.also.len().min(room / (order.len() - k));
        e.also_more = e.also.len() - keep;
        e.also.truncate(keep);
        room -= keep;
    }
    (sets, left_out)
}

/// The first [`MAX_NAMED_AGENTS`] of `names`, comma-separated, then how many others there are.
fn named_list(names: &[String]) -> String {
    let mut s = names
        .iter()
        .take(MAX_NAMED_AGENTS)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > MAX_NAMED_AGENTS {
        let _ = write!(s, " and {} more", thousands(names.len() - MAX_NAMED_AGENTS));
    }
    s
}

/// A crawler of the decision matrices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Agent {
    /// Product token, e.g. `GPTBot`.
    pub token: String,
    /// Display name.
    pub name: String,
    /// Operator, when known.
    pub operator: String,
    /// Purpose label, when known (e.g. `AI training`).
    pub purpose: String,
    /// Whether the purpose is an AI purpose.
    pub ai: bool,
    /// Product tokens in order of precedence: the crawler's own, then those it falls back to
    /// (see [`crate::crawlers::Crawler::tokens`]).
    pub tokens: Vec<String>,
    /// Whether the crawler obeys the `*` group.
    pub obeys_global: bool,
    /// How the crawler chooses its groups when that differs from a plain product token
    /// ([`crate::crawlers::Crawler::profile_note`]); empty otherwise.
    pub profile_note: String,
}

impl Agent {
    /// The groups of `policy` this crawler obeys ([`Policy::select`] with its tokens), and
    /// their key: the first lines of those groups, the same for crawlers that obey the same
    /// groups, whose decisions are then the same.
    fn groups<'p>(&self, policy: &'p Policy) -> (Vec<&'p crate::groups::Group>, Vec<usize>) {
        let tokens: Vec<&str> = self.tokens.iter().map(String::as_str).collect();
        let groups = policy
            .select(&Profile {
                tokens: &tokens,
                obeys_global: self.obeys_global,
            })
            .groups;
        let key = groups.iter().map(|g| g.first_line).collect();
        (groups, key)
    }

    /// The agent for `token`, with the known-crawler data when there is some.
    pub fn from_token(token: &str) -> Agent {
        match crate::crawlers::find(token) {
            Some(c) => Agent {
                tokens: c.tokens().into_iter().map(str::to_string).collect(),
                obeys_global: c.obeys_global,
                profile_note: c.profile_note().unwrap_or_default(),
                token: c.token.clone(),
                name: c.name.clone(),
                operator: c.operator.clone(),
                purpose: c.purpose.label().to_string(),
                ai: c.purpose.is_ai(),
            },
            None => Agent {
                tokens: vec![token.to_string()],
                obeys_global: true,
                profile_note: String::new(),
                token: token.to_string(),
                name: token.to_string(),
                operator: String::new(),
                purpose: String::new(),
                ai: false,
            },
        }
    }
}

/// What every host shares: options of the run.
#[derive(Clone, Debug)]
pub struct Context {
    /// Crawlers of the matrices.
    pub agents: Vec<Agent>,
    /// Paths from `--url`, in order (paths starting with `/`).
    pub urls: Vec<String>,
    /// The reading of decisions, counts and the index.
    pub reading: Reading,
    /// The report's time (for cache ages).
    pub now: OffsetDateTime,
    /// Link from the report's root to the guide, e.g. `guide/`, if there is one.
    pub guide: Option<String>,
    /// Which hosts get a page.
    pub pages: super::Pages,
    /// URLs to decide for each host (`--urls`).
    pub url_list: Option<std::sync::Arc<super::urls::UrlList>>,
    /// Whether pages may rely on their scripts (see [`super::Config::scripts`]).
    pub scripts: bool,
    /// The lowest severity `hosts.jsonl` and `results.sarif` list
    /// ([`super::Config::min_severity`]).
    pub min_severity: crate::analysis::Severity,
}

/// A path that the rule pattern `value` (as written) matches, for the decision matrix: `*`
/// becomes `x` (trailing ones are dropped), a final `$` is dropped, a missing leading `/` is
/// added, and an absolute URL is reduced to its path; then the path is encoded as a client
/// sends it ([`crate::request::request_target`]: `/café` becomes `/caf%C3%A9`). `None` for empty
/// patterns, `/`, and paths with controls or spaces.
pub fn sample_path(value: &str) -> Option<String> {
    let mut p = value.trim().to_string();
    if p.contains("://")
        && let Ok(u) = url::Url::parse(&p)
    {
        p = match u.query() {
            Some(q) => format!("{}?{q}", u.path()),
            None => u.path().to_string(),
        };
    }
    if p.ends_with('$') {
        p.pop();
    }
    while p.ends_with('*') {
        p.pop();
    }
    let p = p.replace('*', "x");
    let p = if p.starts_with('/') {
        p
    } else {
        format!("/{p}")
    };
    if p == "/" || p.chars().any(char::is_control) || p.contains(' ') {
        return None;
    }
    let p = crate::request::request_target(&p).ok()?;
    if p == "/" {
        return None;
    }
    // Cut to at most MAX_PATH_CHARS characters, never inside a `%XX` escape.
    let mut end = p.len();
    if let Some((i, _)) = p.char_indices().nth(MAX_PATH_CHARS) {
        end = i;
        if let Some(pct) = p[end.saturating_sub(2)..end].find('%') {
            end = end - 2 + pct;
        }
    }
    Some(p[..end].to_string())
}

/// Paths for the matrix: `/`, the `--url` paths, then up to [`MAX_DERIVED_PATHS`] derived from
/// the rules of `policy` (allow rules and the disallow rules they override first, then rules with
/// wildcards, then the rest), shown in file order; without duplicates.
fn matrix_paths(
    robots: Option<&RobotsTxt>,
    policy: Option<&Policy>,
    urls: &[String],
) -> Vec<String> {
    let mut paths = vec!["/".to_string()];
    for u in urls {
        if !paths.contains(u) {
            paths.push(u.clone());
        }
    }
    if let (Some(robots), Some(policy)) = (robots, policy) {
        let rules: Vec<&crate::groups::Rule> = policy
            .groups
            .iter()
            .flat_map(|g| g.rules.iter())
            .filter(|r| !r.derived && !r.pattern.is_empty())
            .collect();
        // Most telling first: allow rules with the disallow rules they override, then rules
        // with `*` or `$`, then the rest; each tier in file order. Taken lazily: the tiers are
        // walked only until enough paths are picked.
        let mut by_line: Vec<&crate::groups::Rule> = rules;
        by_line.sort_by_key(|r| r.line);
        // The disallow rule an allow rule overrides: the longest whose pattern starts the
        // allow's, the last in file order of equal ones; looked up by each prefix of the
        // allow's pattern, longest first.
        let mut disallows: rustc_hash::FxHashMap<&[u8], &crate::groups::Rule> = Default::default();
        for d in by_line.iter().filter(|d| d.kind == RuleKind::Disallow) {
            disallows.insert(&d.pattern, d);
        }
        let allows_and_overridden = by_line
            .iter()
            .filter(|r| r.kind == RuleKind::Allow)
            .flat_map(|a| {
                let overridden = (1..=a.pattern.len())
                    .rev()
                    .find_map(|n| disallows.get(&a.pattern[..n]));
                std::iter::once(a).chain(overridden)
            });
        let wildcards = by_line
            .iter()
            .filter(|r| r.pattern.contains(&b'*') || r.pattern.ends_with(b"$"));
        let chosen = allows_and_overridden.chain(wildcards).chain(by_line.iter());
        let mut picked: Vec<(usize, String)> = Vec::new();
        for r in chosen {
            if picked.len() >= MAX_DERIVED_PATHS {
                break;
            }
            if let Some(p) = sample_path(&robots.text(r.value))
                && !paths.contains(&p)
                && !picked.iter().any(|(_, q)| *q == p)
            {
                picked.push((r.line, p));
            }
        }
        picked.sort();
        paths.extend(picked.into_iter().map(|(_, p)| p));
    }
    paths
}

/// One matrix cell.
#[derive(Clone, Debug)]
pub struct Cell {
    /// Allowed, disallowed, or unknown (`None`).
    pub allowed: Option<bool>,
    /// The deciding line (1-based), when a rule decided.
    pub line: Option<usize>,
    /// Machine reason (`longest-match`, …, or `fetch-outcome`).
    pub reason: &'static str,
}

fn reason_str(r: Reason) -> &'static str {
    match r {
        Reason::LongestMatch => "longest-match",
        Reason::AllowOnTie => "allow-on-tie",
        Reason::NoMatchingRule => "no-matching-rule",
        Reason::NoGroup => "no-group",
        Reason::RobotsTxtAlwaysAllowed => "robots-txt-always-allowed",
    }
}

/// The cell of a verdict ([`crate::groups::Policy::verdict_in`]).
fn cell_of(v: Verdict<&Rule>) -> Cell {
    Cell {
        allowed: Some(v.allowed),
        line: v.rule.map(|r| r.line + 1),
        reason: reason_str(v.reason),
    }
}

/// The file whose rules decide, or the cell every path gets when the fetch outcome decides
/// without them (or leaves the verdict unknown).
fn deciding_file(effect: Effect, robots: Option<&RobotsTxt>) -> Result<&RobotsTxt, Cell> {
    let (allowed, reason) = match (effect, robots) {
        (e, Some(r)) if e.uses_rules() => return Ok(r),
        (Effect::AllowAll, _) => (Some(true), "fetch-outcome"),
        (Effect::DisallowAll, _) => (Some(false), "fetch-outcome"),
        // An unknown outcome gives unknown verdicts, even when a file is at hand: the record does
        // not say whether a crawler would follow it.
        _ => (None, "unknown"),
    };
    Err(Cell {
        allowed,
        line: None,
        reason,
    })
}

/// The decision of a crawler with `profile` for the request target `path` in `reading`, with
/// the fetch outcome's effect applied.
fn decide_cell(
    robots: Option<&RobotsTxt>,
    effect: Effect,
    reading: Reading,
    profile: &Profile,
    path: &str,
) -> Cell {
    match deciding_file(effect, robots) {
        Ok(r) => {
            let policy = r.policy(reading);
            let path = normalize(path.as_bytes(), reading, Side::Url);
            cell_of(policy.verdict_in(&policy.select(profile).groups, &path))
        }
        Err(cell) => cell,
    }
}

/// Rows of decisions already computed, by reading and applicable groups, and the matrix's
/// paths normalised per reading.
#[derive(Default)]
struct DecisionMemo {
    rows: std::collections::HashMap<(Reading, Vec<usize>), Vec<Cell>>,
    normalized: [Option<Vec<Vec<u8>>>; 2],
}

impl DecisionMemo {
    /// The decisions of `agent` (with its profile) for every path, with the fetch outcome's
    /// effect applied.
    fn row(
        &mut self,
        robots: Option<&RobotsTxt>,
        effect: Effect,
        reading: Reading,
        agent: &Agent,
        paths: &[String],
    ) -> Vec<Cell> {
        let r = match deciding_file(effect, robots) {
            Ok(r) => r,
            Err(cell) => return vec![cell; paths.len()],
        };
        let policy = r.policy(reading);
        let (groups, first_lines) = agent.groups(policy);
        let key = (reading, first_lines);
        let slot = usize::from(reading != Reading::ALL[0]);
        let normalized = self.normalized[slot].get_or_insert_with(|| {
            paths
                .iter()
                .map(|p| normalize(p.as_bytes(), reading, Side::Url).into_owned())
                .collect()
        });
        self.rows
            .entry(key)
            .or_insert_with(|| {
                policy
                    .verdicts_in(&groups, normalized)
                    .into_iter()
                    .map(cell_of)
                    .collect()
            })
            .clone()
    }
}

/// URLs decided a chunk at a time by [`url_verdicts`]: each request target is normalised once
/// per chunk and matched by every distinct row of crawlers.
const URL_CHUNK: usize = 4096;

/// The verdicts of every crawler of `agents` on the URLs of `--urls` that belong to `host`,
/// with the fetch outcome's effect applied: crawlers whose applicable groups are the same share
/// one row, and each target is normalised once.
fn url_verdicts(
    list: &std::sync::Arc<super::urls::UrlList>,
    host: &str,
    robots: Option<&RobotsTxt>,
    effect: Effect,
    reading: Reading,
    agents: &[Agent],
) -> super::urls::HostUrls {
    use super::urls::{HostUrls, PackedCell};
    let ids = list.for_host(host);
    if ids.is_empty() {
        return HostUrls::default();
    }
    let r = match deciding_file(effect, robots) {
        Ok(r) => r,
        Err(cell) => {
            let row = vec![PackedCell::new(cell.allowed, cell.line); ids.len()];
            return HostUrls::new(list, host, vec![0; agents.len()], vec![row]);
        }
    };
    let policy = r.policy(reading);
    let mut keys: Vec<Vec<usize>> = Vec::new();
    let mut matchers = Vec::new();
    let of_crawler: Vec<u32> = agents
        .iter()
        .map(|agent| {
            let (groups, key) = agent.groups(policy);
            let k = keys.iter().position(|k| *k == key).unwrap_or_else(|| {
                keys.push(key);
                matchers.push(policy.matcher(&groups, ids.len() >= 2));
                keys.len() - 1
            });
            u32::try_from(k).unwrap_or(u32::MAX)
        })
        .collect();
    let mut rows: Vec<Vec<PackedCell>> = vec![Vec::with_capacity(ids.len()); matchers.len()];
    for chunk in ids.chunks(URL_CHUNK) {
        let paths: Vec<_> = chunk
            .iter()
            .map(|&i| normalize(list.get(i).target.as_bytes(), reading, Side::Url))
            .collect();
        for (m, row) in matchers.iter_mut().zip(&mut rows) {
            row.extend(paths.iter().map(|p| {
                let c = cell_of(m.verdict(p));
                PackedCell::new(c.allowed, c.line)
            }));
        }
    }
    HostUrls::new(list, host, of_crawler, rows)
}

/// Everything computed for one host, with the page in memory (see [`process_into`] to write it
/// out as it is rendered).
pub struct Processed {
    /// The index row.
    pub row: HostRow,
    /// The page's HTML.
    pub page: String,
}

fn severity_counts(diagnostics: &[analysis::Diagnostic], reading: Reading) -> Counts {
    let mut c = Counts::default();
    for d in diagnostics {
        if !d.readings.includes(reading) {
            continue;
        }
        match d.severity() {
            Severity::Error => c.error += 1,
            Severity::Warning => c.warning += 1,
            Severity::Info => c.info += 1,
        }
    }
    c
}

/// Line-end counts: (LF, CRLF, CR).
fn line_end_counts(robots: &RobotsTxt) -> (usize, usize, usize) {
    let mut c = (0, 0, 0);
    for l in &robots.tree.lines {
        match l.terminator() {
            LineEnd::Lf => c.0 += 1,
            LineEnd::CrLf => c.1 += 1,
            LineEnd::Cr => c.2 += 1,
            LineEnd::None => {}
        }
    }
    c
}

fn line_ends_text(c: (usize, usize, usize)) -> String {
    let parts: Vec<String> = [("LF", c.0), ("CRLF", c.1), ("CR", c.2)]
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(l, n)| format!("{l} ×{}", thousands(*n)))
        .collect();
    match parts.len() {
        0 => "none (a single line without a terminator)".into(),
        1 => parts[0].clone(),
        _ => format!("mixed: {}", parts.join(", ")),
    }
}

/// Processes one host and returns its row and page. Never panics on bad input: read errors
/// become the row's `read_error`.
pub fn process(input: &HostInput, ctx: &Context) -> Processed {
    let mut page = Vec::new();
    let row = process_into(input, ctx, &mut page).expect("writing to memory does not fail");
    Processed {
        row,
        page: String::from_utf8(page).expect("pages are UTF-8"),
    }
}

/// Processes one host, writing its page to `out` as it is rendered (a large listing is never
/// held whole in memory), and returns its row.
///
/// # Errors
/// Only errors of `out`; problems with the input become the row's `read_error`.
pub fn process_into(
    input: &HostInput,
    ctx: &Context,
    out: &mut dyn std::io::Write,
) -> std::io::Result<HostRow> {
    let mut read_error = None;
    let mut size = None;
    let mut truncated = false;
    let mut embedded = None;
    // A host from WARC files: its captures are read again here (see `crate::warc::fetch`).
    let mut fetched = input
        .captures
        .as_deref()
        .map(|c| crate::warc::fetch(c, ctx.reading));
    let read = match &mut fetched {
        Some(f) => f.body.take().map(|b| b.map_err(|e| e.to_string())),
        None => input
            .file
            .as_deref()
            .map(|p| crate::read::read_path(p).map_err(|e| e.to_string())),
    };
    let robots = read.and_then(|r| match r {
        Ok(b) => {
            size = b.size;
            truncated = b.truncated;
            let robots = b.parse();
            embedded = Some(crate::html::tester::embed_for_listing(
                &robots, &b.bytes, b.size,
            ));
            Some(robots)
        }
        Err(e) => {
            read_error = Some(e);
            None
        }
    });
    let (sidecar, sidecar_error) = match (&fetched, &input.sidecar) {
        (Some(f), _) => (Some(&f.sidecar), None),
        (None, None) => (None, None),
        (None, Some(Ok(s))) => (Some(&**s), None),
        (None, Some(Err(e))) => (None, Some(e.clone())),
    };
    let mut assessment = fetch::assess(sidecar, robots.is_some(), ctx.now);
    if let Some(f) = &fetched {
        assessment.problems.extend(f.notes.iter().cloned());
    }
    if let Some(e) = &sidecar_error {
        // There is a sidecar, though not one the report can use: say so instead of "no sidecar".
        assessment.explanation = vec![format!(
            "The sidecar could not be read ({e}), so how this file was fetched is not known; the \
             report reads the file as if it had been served with a 2xx status (RFC 9309 §2.3.1.1)."
        )];
    }
    let reading = ctx.reading;
    let effect = assessment.effect(reading);
    let generic = decide_cell(
        robots.as_ref(),
        effect,
        reading,
        &Profile {
            tokens: &["*"],
            obeys_global: true,
        },
        "/",
    );
    let blocks_everything = generic.allowed == Some(false);
    let policy = robots.as_ref().map(|r| r.policy(reading));
    let paths = matrix_paths(robots.as_ref(), policy, &ctx.urls);

    // Decisions in both readings. A decision depends only on the groups that apply and the
    // path, so crawlers that share their groups share their row of decisions.
    let other = other_reading(reading);
    let mut memo = DecisionMemo::default();
    let mut decisions = Vec::with_capacity(ctx.agents.len());
    let mut other_cells = Vec::with_capacity(ctx.agents.len());
    for a in &ctx.agents {
        decisions.push(memo.row(robots.as_ref(), effect, reading, a, &paths));
        other_cells.push(memo.row(robots.as_ref(), assessment.effect(other), other, a, &paths));
    }
    // Lines are explained only for a page that is written, and only those its listing may
    // show in full; the listing's options are worked out once, here, and lent to the page.
    let unread = read_error.is_some() || sidecar_error.is_some();
    let mut listing_opts = None;
    let analysis = robots.as_ref().map_or_else(Analysis::default, |r| {
        analysis::analyze_when(r, |diagnostics| {
            let counts = severity_counts(diagnostics, reading);
            let rank = super::sink::rank_of(unread, assessment.outcome, blocks_everything, counts);
            if !ctx.pages.wants(rank) {
                return analysis::Explain::Nothing;
            }
            let opts = listing_options(ctx, r, deciding_lines(&decisions, &other_cells));
            let lines = html::full_row_lines(r, diagnostics, &opts);
            listing_opts = Some(opts);
            analysis::Explain::Lines(lines)
        })
    });
    // The URLs of `--urls` for this host: every crawler, in the reading.
    let asked = ctx
        .url_list
        .as_ref()
        .map(|l| {
            url_verdicts(
                l,
                &input.host,
                robots.as_ref(),
                effect,
                reading,
                &ctx.agents,
            )
        })
        .unwrap_or_default();
    let counts = severity_counts(&analysis.diagnostics, reading);
    let readings_differ = assessment.effect_rfc != assessment.effect_google
        || decisions
            .iter()
            .zip(&other_cells)
            .any(|(a, b)| a.iter().zip(b).any(|(x, y)| x.allowed != y.allowed));
    // Crawlers whose groups are the same (most fall back to the `*` groups) have the same access.
    let mut ai_memo = Vec::new();
    let row = HostRow {
        host: input.host.clone(),
        page: Some(format!("hosts/{}.html", input.page_stem())),
        file: input.file_rel.clone(),
        sidecar: input.sidecar_rel.clone(),
        file_uri: input.file_uri().map(str::to_string),
        sidecar_uri: input.sidecar_uri().map(str::to_string),
        read_error: read_error.clone(),
        sidecar_error: sidecar_error.clone(),
        outcome: assessment.outcome,
        status: assessment.status,
        fetch_error: assessment.error.clone(),
        effect: effect.as_str(),
        effect_rfc: assessment.effect_rfc.as_str(),
        effect_google: assessment.effect_google.as_str(),
        cache_age_seconds: assessment.cache.map(|c| c.seconds),
        bytes: size,
        encoding: robots.as_ref().map(|r| r.source.encoding.label()),
        lines: robots.as_ref().map_or(0, |r| r.tree.lines.len()),
        groups: policy.map_or(0, |p| p.groups.len()),
        rules: policy.map_or(0, |p| {
            p.groups
                .iter()
                .flat_map(|g| &g.rules)
                .filter(|r| !r.derived)
                .count()
        }),
        sitemaps: policy.map_or(0, |p| p.sitemaps.len()),
        counts,
        blocks_everything,
        user_agents: policy.map(named_tokens).unwrap_or_default(),
        ai_crawlers: crate::crawlers::known()
            .iter()
            .filter(|c| c.purpose.is_ai())
            .map(|c| AiAccess {
                crawler: c.token.clone(),
                access: ai_access(robots.as_ref(), effect, reading, c, &mut ai_memo),
            })
            .collect(),
        readings_differ,
        urls: asked,
        paths: paths.clone(),
        decisions: ctx
            .agents
            .iter()
            .zip(&decisions)
            .map(|(a, cells)| CrawlerDecisions {
                crawler: a.token.clone(),
                allowed: cells.iter().map(|c| c.allowed).collect(),
                lines: cells.iter().map(|c| c.line).collect(),
            })
            .collect(),
        diagnostics: analysis
            .diagnostics
            .iter()
            .map(|d| RowDiagnostic {
                name: d.name.to_string(),
                severity: d.severity(),
                line: d.line,
                column: d.column,
                end_line: d.end_line,
                end_column: d.end_column,
                readings: d.readings,
                message: d.message.clone(),
                reference: d.reference.to_string(),
            })
            .collect(),
        captures: fetched
            .as_ref()
            .map(|f| f.timeline.clone())
            .unwrap_or_default(),
    };

    let view = HostView {
        input,
        ctx,
        robots: robots.as_ref(),
        analysis: &analysis,
        assessment: &assessment,
        paths: &paths,
        decisions: &decisions,
        other_cells: &other_cells,
        listing_opts: listing_opts.as_ref(),
        row: &row,
        truncated,
        read_error: read_error.as_deref(),
        embedded,
        sidecar,
        older_captures: fetched.as_ref().map_or(0, |f| f.older),
    };
    if !ctx.pages.wants(super::sink::rank(&row)) {
        // No page: the row says so, and nothing is written to `out`.
        let mut row = row;
        row.page = None;
        return Ok(row);
    }
    view.render(out)?;
    Ok(row)
}

/// The product tokens the groups of `policy` name, lower-cased, sorted, each once.
fn named_tokens(policy: &Policy) -> Vec<String> {
    let mut out: Vec<String> = policy
        .groups
        .iter()
        .flat_map(|g| &g.user_agents)
        .filter_map(|u| match &u.token {
            ProductToken::Name(n) => Some(n.to_ascii_lowercase()),
            ProductToken::Any => Some("*".to_string()),
            ProductToken::Invalid => None,
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// How far the host shuts out crawler `c` (see [`AiAccess`]), with the fetch outcome's effect
/// applied. `memo` keeps the answers for the selections (the applicable groups' first lines)
/// already asked about, for one host and reading.
fn ai_access(
    robots: Option<&RobotsTxt>,
    effect: Effect,
    reading: Reading,
    c: &crate::crawlers::Crawler,
    memo: &mut Vec<(Vec<usize>, Access)>,
) -> Access {
    let r = match deciding_file(effect, robots) {
        Ok(r) => r,
        Err(cell) => {
            return match cell.allowed {
                None => Access::Unknown,
                Some(false) => Access::Blocked,
                Some(true) => Access::Open,
            };
        }
    };
    let tokens = c.tokens();
    let profile = c.profile(&tokens);
    let policy = r.policy(reading);
    let groups = policy.select(&profile).groups;
    let key: Vec<usize> = groups.iter().map(|g| g.first_line).collect();
    if let Some((_, access)) = memo.iter().find(|(k, _)| *k == key) {
        return *access;
    }
    let access = if !policy.verdict_in(&groups, b"/").allowed {
        Access::Blocked
    } else if groups
        .iter()
        .flat_map(|g| &g.rules)
        .any(|r| r.kind == RuleKind::Disallow && !r.pattern.is_empty())
    {
        Access::Partly
    } else {
        Access::Open
    };
    memo.push((key, access));
    access
}

/// A verdict as a cell of a decision table: class, words, and the link to what decides it
/// (the deciding line, or the fetch section when the outcome decides).
fn matrix_cell(c: &Cell) -> pages::MatrixCell {
    let (class, text) = match c.allowed {
        Some(true) => ("c-y", "allowed"),
        Some(false) => ("c-n", "disallowed"),
        None => ("", "unknown"),
    };
    let href = match (c.line, c.reason) {
        (Some(l), _) => Some(format!("#L{l}")),
        (None, "fetch-outcome") => Some("#fetch".to_string()),
        _ => None,
    };
    pages::MatrixCell {
        class,
        text,
        href,
        differs: None,
    }
}

/// The reading that is not `r`.
pub fn other_reading(r: Reading) -> Reading {
    match r {
        Reading::Google => Reading::Rfc9309,
        Reading::Rfc9309 => Reading::Google,
    }
}

/// The Groups table, the groups left out of it, the effective rules per token set, and the
/// token sets left out of those ([`HostView::groups_view`]).
type GroupsView = (
    Vec<pages::GroupRow>,
    Option<pages::MoreGroups>,
    Vec<pages::EffectiveRules>,
    usize,
);

/// Inputs of a host page.
struct HostView<'a> {
    input: &'a HostInput,
    ctx: &'a Context,
    robots: Option<&'a RobotsTxt>,
    analysis: &'a Analysis,
    assessment: &'a Assessment,
    paths: &'a [String],
    decisions: &'a [Vec<Cell>],
    other_cells: &'a [Vec<Cell>],
    /// How the listing is written ([`listing_options`]); set whenever the page is.
    listing_opts: Option<&'a html::ListingOptions>,
    row: &'a HostRow,
    truncated: bool,
    read_error: Option<&'a str>,
    /// The file as the page embeds it for the tester.
    embedded: Option<crate::html::tester::Embedded>,
    /// The fetch record: the sidecar, or the one read from WARC captures.
    sidecar: Option<&'a fetch::sidecar::Sidecar>,
    /// Captures older than the timeline shows.
    older_captures: usize,
}

fn t(s: &str) -> Html {
    Html::text(s)
}

/// The lines that decide a verdict of the decision matrix, in either reading: 1-based, sorted,
/// each once.
fn deciding_lines(decisions: &[Vec<Cell>], other_cells: &[Vec<Cell>]) -> Vec<usize> {
    let mut lines: Vec<usize> = decisions
        .iter()
        .chain(other_cells)
        .flatten()
        .filter_map(|c| c.line)
        .collect();
    lines.sort_unstable();
    lines.dedup();
    lines
}

/// How a host page lists `robots`: the lines in `keep_lines` (the deciding lines) in full past
/// [`LINE_BUDGET`], explanations within [`EXPLANATION_BUDGET`], folded and packed past
/// [`FOLD_LINES`] when the pages have their scripts.
fn listing_options(
    ctx: &Context,
    robots: &RobotsTxt,
    keep_lines: Vec<usize>,
) -> html::ListingOptions {
    html::ListingOptions {
        id_prefix: "L".into(),
        diagnostic_href: Some("../diagnostics/{name}.html".into()),
        reading: ctx.reading,
        caption: Some(format!(
            "The file, line by line, with roles and groups in the {} reading, tokens and \
             explanations",
            ctx.reading.label()
        )),
        caption_link: Some((
            "../reading.html#file".into(),
            "how to read the listing".into(),
        )),
        explanation_budget: Some(EXPLANATION_BUDGET),
        line_budget: Some(LINE_BUDGET),
        keep_lines,
        packed_runs: robots.tree.lines.len() > FOLD_LINES && ctx.scripts,
        ..html::ListingOptions::default()
    }
}

impl HostView<'_> {
    fn render(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let reading = self.ctx.reading;
        let facts = self.facts();
        let fetch = self.fetch_view();
        let listing = self
            .robots
            .zip(self.listing_opts)
            .map(|(r, opts)| pages::LazyListing {
                robots: r,
                analysis: self.analysis,
                opts,
                folded: r.tree.lines.len() > FOLD_LINES,
            });
        let file_note = self.file_note();
        let (groups, groups_more, effective, effective_more) = self.groups_view();
        let matrix = self.matrix_view();
        let readings = self.readings_view();
        let diagnostics = self.diagnostics_view();
        let (urls, urls_more) = self.url_view();
        let tester = self.embedded.clone().filter(|_| self.robots.is_some()).map(|file| {
            let total = file.total;
            let mut view = crate::html::tester::TesterView::new(
                "../",
                Some(file),
                reading,
                &["/".to_string()],
            );
            let mut notes = Vec::new();
            if let Some(total) = total {
                notes.push(format!(
                    "The file is {} bytes: the editor holds its first {} (what crawlers read), and the edited file holds only those.",
                    crate::text::thousands_u64(total),
                    thousands(crate::html::tester::EMBED_PREFIX),
                ));
            }
            if self.robots.is_some_and(|r| {
                !matches!(
                    r.source.encoding,
                    crate::decode::Encoding::Utf8 | crate::decode::Encoding::Utf8Bom
                )
            }) {
                notes.push("The file is not UTF-8: the editor shows it as the engine decodes it, and the edited file is saved as UTF-8.".to_string());
            }
            view.edit_note = (!notes.is_empty()).then(|| t(&notes.join(" ")));
            view
        });
        let mut layout = pages::Layout::new(
            "../",
            self.ctx,
            &format!("{} · robots.txt", self.input.host),
        );
        layout.tester = tester.is_some();
        let page = pages::HostPage {
            layout,
            tester,
            host: t(&self.input.host),
            reading_label: reading.label(),
            facts,
            fetch,
            semantics: pages::semantics_rows(Some(self.assessment))
                .into_iter()
                .filter(|r| r.current)
                .collect(),
            listing,
            file_note,
            groups,
            groups_more,
            effective,
            effective_more: if effective_more > 0 {
                thousands(effective_more)
            } else {
                String::new()
            },
            matrix,
            readings,
            diagnostics,
            urls,
            urls_more,
            agents: self.ctx.agents.iter().map(|a| t(&a.token)).collect(),
            glance: self.glance(),
            counts: self.row.counts,
        };
        askama::Template::write_into(&page, out)
    }

    /// Whether the crawlers of the matrix may fetch `/`: one cell per verdict, with its tokens.
    fn glance(&self) -> Vec<(pages::Mini, Vec<Html>)> {
        let mut cells: Vec<(Option<bool>, pages::Mini, Vec<Html>)> = Vec::new();
        for (a, row) in self.ctx.agents.iter().zip(self.decisions) {
            let allowed = row.first().and_then(|c| c.allowed);
            match cells.iter_mut().find(|c| c.0 == allowed) {
                Some(c) => c.2.push(t(&a.token)),
                None => {
                    let mut mini = pages::Mini::of(allowed);
                    mini.word = match allowed {
                        Some(true) => "may fetch /",
                        Some(false) => "may not fetch /",
                        None => "unknown",
                    };
                    cells.push((allowed, mini, vec![t(&a.token)]));
                }
            }
        }
        cells
            .into_iter()
            .map(|(_, m, tokens)| (m, tokens))
            .collect()
    }

    /// The lines that decide a verdict of the decision matrix, in either reading, sorted: the
    /// listing shows them in full however long the file.
    fn facts(&self) -> Vec<pages::Fact> {
        let mut f = Vec::new();
        let mut push = |label: &'static str, value: Html| f.push(pages::Fact { label, value });
        // What a scope means is said once, on the shared page.
        let scope = match &self.assessment.authority {
            Some(a) => format!("{} only", html::escape(a)),
            None => format!(
                "{} only (scheme and port not recorded)",
                html::escape(&self.input.host)
            ),
        };
        push(
            "Scope",
            Html(format!(
                "{scope}: <a href=../reading.html#scope>the rules bind one authority</a>"
            )),
        );
        if let Some(p) = &self.input.file_rel {
            push("File", Html(format!("<code>{}</code>", html::escape(p))));
        }
        if let Some(p) = &self.input.sidecar_rel {
            push("Sidecar", Html(format!("<code>{}</code>", html::escape(p))));
        }
        if let Some(e) = self.read_error {
            push("Read error", t(e));
        }
        if let Some(r) = self.robots {
            let size = self.row.bytes.unwrap_or(r.source.input_len as u64);
            let mut s = format!("{} bytes", thousands(size as usize));
            if let Some(ig) = html::ignored_region(r) {
                let _ = write!(
                    s,
                    " ({} bytes past the parsing limit of {} bytes are ignored)",
                    thousands(ig.bytes),
                    thousands(PARSING_LIMIT)
                );
            }
            if self.truncated {
                let _ = write!(
                    s,
                    "; only the first {} bytes were read",
                    thousands(MAX_READ as usize)
                );
            }
            push("Size", t(&s));
            if r.source.bom_len == 0 && analysis::looks_utf16_without_bom(&r.source.bytes) {
                push(
                    "Encoding",
                    t(
                        "UTF-16 without a byte order mark, read as its raw bytes: every other byte \
                       is NUL, so no record is found (see the utf16 diagnostic)",
                    ),
                );
            } else {
                push("Encoding", t(r.source.encoding.label()));
            }
            let bom = if r.source.misencoded_bom {
                "a byte order mark re-encoded as text (ï»¿): crawlers read it as part of the first line".to_string()
            } else if r.source.is_utf16() {
                "yes, UTF-16's 2 bytes, shown as its own node before line 1".to_string()
            } else if let Some(b) = r.tree.bom {
                format!(
                    "yes, {} bytes, shown as its own node before line 1",
                    b.len()
                )
            } else {
                "none".to_string()
            };
            push("Byte order mark", t(&bom));
            push("Line endings", t(&line_ends_text(line_end_counts(r))));
            push("Lines", t(&thousands(r.tree.lines.len())));
            let counts = |reading: Reading| {
                let p = r.policy(reading);
                let rules = p
                    .groups
                    .iter()
                    .flat_map(|g| &g.rules)
                    .filter(|r| !r.derived)
                    .count();
                (p.groups.len(), rules, p.sitemaps.len())
            };
            let (g, ru, sm) = counts(self.ctx.reading);
            let (og, oru, osm) = counts(other_reading(self.ctx.reading));
            let other = other_reading(self.ctx.reading).label();
            let with_other = |n: usize, o: usize| {
                if n == o {
                    thousands(n)
                } else {
                    format!("{} ({other}: {})", thousands(n), thousands(o))
                }
            };
            push("Groups", t(&with_other(g, og)));
            push("Rules", t(&with_other(ru, oru)));
            push("Sitemaps", t(&with_other(sm, osm)));
        }
        f
    }

    fn fetch_view(&self) -> pages::FetchView {
        let a = self.assessment;
        let chain: Vec<Html> = a
            .hops
            .iter()
            .take(MAX_LISTED_HOPS)
            .enumerate()
            .map(|(i, h)| {
                let mut s = String::new();
                match h.status {
                    Some(st) => {
                        let _ = write!(s, "{st} → ");
                    }
                    None => s.push_str("→ "),
                }
                s.push_str(&h.location);
                if h.repeats {
                    s.push_str(" (visited before: a loop)");
                }
                if i + 1 > fetch::REDIRECT_HOPS {
                    s.push_str(" (beyond the five hops crawlers should follow)");
                }
                t(&s)
            })
            .collect();
        let chain_more = (a.hops.len() > MAX_LISTED_HOPS).then(|| {
            t(&format!(
                "… and {} more hops, {} in all, as the sidecar lists them",
                thousands(a.hops.len() - MAX_LISTED_HOPS),
                thousands(a.hops.len())
            ))
        });
        // Nothing recorded: the outcome's label says so already.
        let status = match (a.status, &a.error) {
            (_, Some(e)) => Some(format!("network error: {e}")),
            (Some(s), None) => Some(format!("HTTP {s}")),
            (None, None) => None,
        };
        pages::FetchView {
            outcome_class: a.outcome.as_str(),
            outcome_label: a.outcome.label(),
            status: status.as_deref().map(t),
            url: a.url.as_deref().map(t),
            // The scope of a file that was served, unless the explanation says it already.
            authority: a
                .authority
                .as_deref()
                .filter(|_| a.outcome == fetch::Outcome::Successful && !a.served_elsewhere())
                .map(t),
            chain,
            chain_more,
            explanation: a.explanation.iter().map(|s| Html::prose(s)).collect(),
            problems: a.problems.iter().map(|s| Html::prose(s)).collect(),
            effect_rfc: a.effect_rfc.phrase(),
            effect_google: a.effect_google.phrase(),
            cache: a
                .cache
                .as_ref()
                .map(|c| Html::prose(&fetch::cache_sentence(c, self.ctx.now, a.outcome))),
            content_type: self.sidecar.and_then(|s| s.content_type.as_deref()).map(t),
            fetched_at: self.sidecar.and_then(|s| s.fetched_at.as_deref()).map(t),
            captures: self.timeline_view(),
            older_captures: self.older_captures,
        }
    }

    /// The timeline of a host's WARC captures: one row per capture, with the rules added and
    /// removed since the one before.
    fn timeline_view(&self) -> Vec<pages::CaptureRow> {
        let n = self.row.captures.len();
        self.row
            .captures
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let status = match (c.status, c.redirects) {
                    (None, _) => crate::warc::NO_RESPONSE.to_string(),
                    (Some(s), 0) => s.to_string(),
                    (Some(s), r) => format!("{s} after {}", count(r, "redirect", "redirects")),
                };
                let mut changes: Vec<Html> = c
                    .added
                    .iter()
                    .map(|l| Html(format!("<ins>+ {}</ins>", html::escape(l))))
                    .chain(
                        c.removed
                            .iter()
                            .map(|l| Html(format!("<del>− {}</del>", html::escape(l)))),
                    )
                    .collect();
                if c.more_changes > 0 {
                    changes.push(t(&format!("and {} more", thousands(c.more_changes))));
                }
                pages::CaptureRow {
                    date: t(&c.date),
                    status: t(&status),
                    bytes: c.bytes.map_or_else(String::new, |b| thousands(b as usize)),
                    digest: c.digest.as_deref().map(t),
                    changes,
                    latest: i + 1 == n,
                }
            })
            .collect()
    }

    fn file_note(&self) -> Option<Html> {
        let a = self.assessment;
        if self.robots.is_none() {
            return Some(t(match (self.read_error, a.outcome) {
                (Some(_), _) => "The file could not be read; see the error above.",
                (None, Outcome::Successful) => {
                    "The answer was successful, but no body was kept, so there is nothing to show."
                }
                _ => "Nothing was received for this host: there is no file to show.",
            }));
        }
        match a.effect(self.ctx.reading) {
            Effect::FollowCachedCopy if a.confirms_cached_copy() => Some(t(
                "This is the cached copy from an earlier successful fetch; the latest attempt's 304 (Not Modified) confirmed that it is still current.",
            )),
            Effect::FollowCachedCopy => Some(t(
                "This is the cached copy from an earlier successful fetch; the latest attempt got no file.",
            )),
            Effect::AllowAll | Effect::DisallowAll if a.outcome != Outcome::NotRecorded => {
                Some(t(&format!(
                    "With this fetch outcome a crawler {} in the {} reading; the file's own rules are shown for reference.",
                    a.effect(self.ctx.reading).phrase(),
                    self.ctx.reading.label()
                )))
            }
            _ if a.outcome == Outcome::Unreachable => Some(t(
                "This is a cached copy from an earlier fetch; the latest attempt could not reach the file.",
            )),
            _ => None,
        }
    }

    /// The Groups table (the first [`MAX_GROUP_ROWS`] groups, and those left out) and the
    /// effective rules per token set (the first [`MAX_TOKEN_SETS`] sets, and how many were left
    /// out).
    fn groups_view(&self) -> GroupsView {
        let Some(r) = self.robots else {
            return (Vec::new(), None, Vec::new(), 0);
        };
        let policy = r.policy(self.ctx.reading);
        let groups = policy
            .groups
            .iter()
            .take(MAX_GROUP_ROWS)
            .enumerate()
            .map(|(i, g)| {
                let mut agents = String::new();
                for (j, ua) in g.user_agents.iter().take(MAX_NAMED_AGENTS).enumerate() {
                    if j > 0 {
                        agents.push_str(", ");
                    }
                    let shown = r.text(ua.value);
                    let _ = write!(agents, "<a href=#L{}><code>", ua.line + 1);
                    html::escape_code_into(
                        &mut agents,
                        if shown.is_empty() { "(empty)" } else { &shown },
                    );
                    agents.push_str("</code></a>");
                    match &ua.token {
                        ProductToken::Invalid => {
                            agents.push_str(" <span class=\"small\">(selects no crawler)</span>")
                        }
                        ProductToken::Name(n) if n.as_bytes() != &r.bytes()[ua.value.range()] => {
                            agents.push_str(" <span class=\"small\">(read as <code>");
                            html::escape_into(&mut agents, n);
                            agents.push_str("</code>)</span>");
                        }
                        _ => {}
                    }
                }
                if g.user_agents.len() > MAX_NAMED_AGENTS {
                    let _ = write!(
                        agents,
                        ", <span class=\"small\">and {} more</span>",
                        thousands(g.user_agents.len() - MAX_NAMED_AGENTS)
                    );
                }
                pages::GroupRow {
                    n: i + 1,
                    first_line: g.first_line + 1,
                    last_line: g.last_line + 1,
                    agents: Html(agents),
                    rules: g.rules.iter().filter(|x| !x.derived).count(),
                    others: g.others.len(),
                }
            })
            .collect();
        let groups_more = policy
            .groups
            .get(MAX_GROUP_ROWS..)
            .filter(|rest| !rest.is_empty())
            .map(|rest| pages::MoreGroups {
                count: rest.len(),
                first_line: rest[0].first_line + 1,
                last_line: rest.iter().map(|g| g.last_line).max().unwrap_or(0) + 1,
            });
        // A group's link: its row of the table, or its first line when it has no row.
        let group_link = |i: usize| {
            if i < MAX_GROUP_ROWS {
                (i + 1, format!("group-{}", i + 1))
            } else {
                (i + 1, format!("L{}", policy.groups[i].first_line + 1))
            }
        };

        // Product tokens, `*` first, then names in file order; tokens sharing the same groups
        // are shown together.
        let mut tokens: Vec<(String, Vec<usize>)> = Vec::new();
        let global: Vec<usize> = policy
            .groups
            .iter()
            .enumerate()
            .filter(|(_, g)| g.is_global())
            .map(|(i, _)| i)
            .collect();
        let mut seen = std::collections::BTreeSet::new();
        for g in &policy.groups {
            for ua in &g.user_agents {
                if let ProductToken::Name(n) = &ua.token
                    && seen.insert(n.to_ascii_lowercase())
                {
                    // The groups `Policy::groups_for` gives, by their numbers.
                    let named = policy.groups_naming(n);
                    let idx = if named.is_empty() {
                        policy.global_groups()
                    } else {
                        named
                    };
                    tokens.push((n.clone(), idx.to_vec()));
                }
            }
        }
        let mut sets: Vec<(Vec<String>, Vec<usize>)> = Vec::new();
        if !global.is_empty() {
            sets.push((vec!["*".into()], global));
        }
        // The set of each list of groups named (not the `*` set), by its place in `sets`.
        let mut set_of: rustc_hash::FxHashMap<Vec<usize>, usize> = Default::default();
        for (n, idx) in tokens {
            match set_of.get(&idx) {
                Some(&k) => sets[k].0.push(n),
                None => {
                    set_of.insert(idx.clone(), sets.len());
                    sets.push((vec![n], idx));
                }
            }
        }
        let effective = sets
            .into_iter()
            .map(|(names, idx)| {
                // Precedence: longest pattern first; on equal length allow before disallow;
                // then file order. Empty patterns match nothing and come last. Sorted by one
                // number per rule ([`precedence_key`]), stably.
                let mut keyed: Vec<(u64, &crate::groups::Rule)> = idx
                    .iter()
                    .flat_map(|&i| &policy.groups[i].rules)
                    .map(|rule| (precedence_key(rule), rule))
                    .collect();
                keyed.sort_by_key(|&(k, _)| k);
                let rules: Vec<&crate::groups::Rule> = keyed.into_iter().map(|(_, r)| r).collect();
                let mut key = Vec::new();
                for rule in &rules {
                    key.push(u8::from(rule.kind == RuleKind::Allow) | u8::from(rule.derived) << 1);
                    for part in [r.text(rule.value).as_bytes(), &rule.pattern] {
                        key.extend_from_slice(&part.len().to_le_bytes());
                        key.extend_from_slice(part);
                    }
                }
                let more = rules.len().saturating_sub(MAX_EFFECTIVE_RULES);
                let rows = rules
                    .iter()
                    .take(MAX_EFFECTIVE_RULES)
                    .map(|rule| {
                        let written = r.text(rule.value);
                        let matched = String::from_utf8_lossy(&rule.pattern);
                        let mut note = String::new();
                        if rule.derived {
                            note.push_str("derived by Google from an /index.htm… allow rule");
                        } else if rule.pattern.is_empty() {
                            note.push_str("empty: matches nothing");
                        } else if matched != written {
                            let _ = write!(note, "compared as {matched}");
                        }
                        pages::RuleRow {
                            kind: rule.kind.as_str(),
                            pattern: t(if rule.derived { &matched } else { &written }),
                            line: rule.line + 1,
                            priority: rule.pattern.len(),
                            note: t(&note),
                        }
                    })
                    .collect();
                let label = if names[0] == "*" {
                    "* (every crawler without a group of its own)".to_string()
                } else {
                    named_list(&names)
                };
                let set = pages::EffectiveRules {
                    tokens: t(&label),
                    groups: idx
                        .iter()
                        .take(MAX_LINKED_GROUPS)
                        .map(|&i| group_link(i))
                        .collect(),
                    groups_more: idx.len().saturating_sub(MAX_LINKED_GROUPS),
                    rules: rows,
                    more,
                    also: Vec::new(),
                    also_more: 0,
                };
                (set, key)
            })
            .collect();
        let (effective, effective_more) = cap_token_sets(fold_same_rules(effective));
        (groups, groups_more, effective, effective_more)
    }

    /// The URLs of `--urls` on this host, at most [`super::urls::MAX_ON_PAGE`], one row each:
    /// every crawler's verdict, as in the matrix. Also the number left out.
    fn url_view(&self) -> (Vec<pages::UrlRow>, String) {
        let urls = &self.row.urls;
        let rows = (0..urls.len().min(super::urls::MAX_ON_PAGE))
            .map(|j| pages::UrlRow {
                url: t(urls.url(j).url),
                cells: (0..urls.crawlers())
                    .map(|i| {
                        let c = urls.cell(j, i);
                        let line = c.line();
                        matrix_cell(&Cell {
                            allowed: c.allowed(),
                            line,
                            reason: if line.is_none()
                                && matches!(
                                    self.assessment.effect(self.ctx.reading),
                                    Effect::AllowAll | Effect::DisallowAll
                                ) {
                                "fetch-outcome"
                            } else {
                                ""
                            },
                        })
                    })
                    .collect(),
            })
            .collect();
        let more = urls.len().saturating_sub(super::urls::MAX_ON_PAGE);
        (
            rows,
            if more > 0 {
                thousands(more)
            } else {
                String::new()
            },
        )
    }

    fn matrix_view(&self) -> pages::MatrixView {
        let reading = self.ctx.reading;
        let other = other_reading(reading);
        let effect = self.assessment.effect(reading);
        // Crawlers that decide every path alike, in both readings, share a row.
        let mut rows: Vec<pages::MatrixRow> = Vec::new();
        let mut keys: Vec<(&[Cell], &[Cell])> = Vec::new();
        for (i, a) in self.ctx.agents.iter().enumerate() {
            let crawler = pages::MatrixCrawler {
                token: t(&a.token),
                purpose: t(&a.purpose),
                profile: t(&a.profile_note),
            };
            let key = (self.decisions[i].as_slice(), self.other_cells[i].as_slice());
            let same = |k: &(&[Cell], &[Cell])| {
                let eq = |x: &[Cell], y: &[Cell]| {
                    x.len() == y.len()
                        && x.iter().zip(y).all(|(c, d)| {
                            c.allowed == d.allowed && c.line == d.line && c.reason == d.reason
                        })
                };
                eq(k.0, key.0) && eq(k.1, key.1)
            };
            if let Some(j) = keys.iter().position(same) {
                rows[j].crawlers.push(crawler);
                continue;
            }
            let cells = self.decisions[i]
                .iter()
                .zip(&self.other_cells[i])
                .map(|(c, o)| {
                    let mut cell = matrix_cell(c);
                    cell.differs = (o.allowed != c.allowed).then(|| match o.allowed {
                        Some(true) => format!("{}: allowed", other.label()),
                        Some(false) => format!("{}: disallowed", other.label()),
                        None => format!("{}: unknown", other.label()),
                    });
                    cell
                })
                .collect();
            keys.push(key);
            rows.push(pages::MatrixRow {
                crawlers: vec![crawler],
                cells,
            });
        }
        let note = match effect {
            Effect::AllowAll | Effect::DisallowAll => Some(format!(
                "The fetch outcome decides every cell: a crawler {}.",
                effect.phrase()
            )),
            Effect::FollowCachedCopy => {
                Some("The cells follow the cached copy of the file.".to_string())
            }
            Effect::Unknown if self.robots.is_some() => Some(
                "The fetch record does not say whether a crawler would follow this file, so every \
                 verdict is unknown; the lines and effective rules above show what the file says."
                    .to_string(),
            ),
            Effect::Unknown => Some(
                "Without a file and a complete fetch record, every verdict is unknown.".to_string(),
            ),
            _ => None,
        };
        pages::MatrixView {
            paths: self.paths.iter().map(|p| t(p)).collect(),
            rows,
            note: note.map(|n| t(&n)),
        }
    }

    /// The matrix cells whose verdicts differ between the readings, with why.
    fn differing_decisions(&self, v: &mut pages::ReadingsView) {
        let t = |s: &str| Html::text(s);
        let reading = self.ctx.reading;
        for (i, a) in self.ctx.agents.iter().enumerate() {
            for (j, p) in self.paths.iter().enumerate() {
                let (c, o) = (&self.decisions[i][j], &self.other_cells[i][j]);
                if c.allowed == o.allowed {
                    continue;
                }
                let (gc, fc) = match reading {
                    Reading::Google => (c, o),
                    Reading::Rfc9309 => (o, c),
                };
                let why = if fc.reason == "robots-txt-always-allowed" {
                    "RFC 9309 always allows /robots.txt itself.".to_string()
                } else if gc.reason == "fetch-outcome" || fc.reason == "fetch-outcome" {
                    "The readings treat the fetch outcome differently (see Fetch).".to_string()
                } else if gc.line != fc.line {
                    "Different rules decide: a line is read differently, the crawler falls into different groups, or the pattern and path are normalised differently (percent-encoding).".to_string()
                } else {
                    "The same line decides in both readings, but the path is normalised differently.".to_string()
                };
                let show = |x: &Cell| {
                    let verdict = match x.allowed {
                        Some(true) => "allowed",
                        Some(false) => "disallowed",
                        None => "unknown",
                    };
                    match x.line {
                        Some(l) => Html(format!("{verdict} (<a href=\"#L{l}\">line {l}</a>)")),
                        None => t(verdict),
                    }
                };
                v.decisions.push(pages::ReadingDecision {
                    crawler: t(&a.token),
                    path: t(p),
                    google: show(gc),
                    rfc: show(fc),
                    why: t(&why),
                });
            }
        }
    }

    fn readings_view(&self) -> pages::ReadingsView {
        let mut v = pages::ReadingsView::default();
        let Some(r) = self.robots else {
            // Without a file the readings can still differ, through the fetch outcome.
            self.differing_decisions(&mut v);
            return v;
        };
        let g = r.policy(Reading::Google);
        let f = r.policy(Reading::Rfc9309);
        let gr = line_roles(r, Reading::Google);
        let fr = line_roles(r, Reading::Rfc9309);
        for (i, line) in r.tree.lines.iter().enumerate() {
            if gr[i] == fr[i] {
                continue;
            }
            if v.lines.len() == MAX_READING_LINES {
                count_more(&mut v.lines_more, line.number());
                continue;
            }
            let why = match (g.record_at(i), f.record_at(i)) {
                (Some(rg), _) if rg.separator == crate::syntax::SeparatorKind::Whitespace => {
                    "Google accepts a key and a value separated by white space when the colon is missing; RFC 9309 requires the colon.".to_string()
                }
                (Some(rg), _) if rg.spelling == crate::fields::Spelling::Variant => format!(
                    "Google accepts `{}` as a misspelling of `{}`; RFC 9309 knows only the exact field names.",
                    r.text(rg.key),
                    rg.field.name()
                ),
                (Some(rg), _) if rg.spelling == crate::fields::Spelling::Prefix => format!(
                    "Google reads a key that starts with `{}` as that field (here `{}`); RFC 9309 compares the whole name.",
                    rg.field.name(),
                    r.text(rg.key)
                ),
                _ if r.source.is_utf16() && gr[i] == LineRole::Ignored => {
                    "Google's parser reads the raw bytes of a UTF-16 file, where a NUL byte ends every line, so it finds no field; the RFC 9309 reading reads the file transcoded to UTF-8.".to_string()
                }
                _ if (gr[i] == LineRole::Ignored && g.rules_outside_groups.contains(&i))
                    || (fr[i] == LineRole::Ignored && f.rules_outside_groups.contains(&i)) => {
                    "In one reading this rule comes before any user-agent line, so it belongs to no group and is ignored.".to_string()
                }
                _ => "The readings split this line differently (Google cuts a line at a NUL byte or after 16,663 bytes).".to_string(),
            };
            v.lines.push(pages::ReadingLine {
                line: line.number(),
                google: gr[i].label(),
                rfc: fr[i].label(),
                why: Html::prose(&why),
            });
        }
        // User-agent lines read as different product tokens.
        for (gg, fg) in [(g, f)] {
            let tok = |p: &Policy| {
                let mut m = std::collections::BTreeMap::new();
                for grp in &p.groups {
                    for ua in &grp.user_agents {
                        m.insert(ua.line, ua.token.clone());
                    }
                }
                m
            };
            let (tg, tf) = (tok(gg), tok(fg));
            for (line, a) in &tg {
                let Some(b) = tf.get(line) else { continue };
                if a == b {
                    continue;
                }
                if v.tokens.len() == MAX_READING_LINES {
                    count_more(&mut v.tokens_more, line + 1);
                    continue;
                }
                let show = |x: &ProductToken| match x {
                    ProductToken::Any => "`*`, every crawler".to_string(),
                    ProductToken::Name(n) => format!("`{n}`"),
                    ProductToken::Invalid => "no crawler".to_string(),
                };
                v.tokens.push(pages::ReadingLine {
                    line: line + 1,
                    google: "",
                    rfc: "",
                    why: Html::prose(&format!(
                        "`{}`: Google reads {}, RFC 9309 {}.",
                        r.text(r.tree.lines[*line].parts().value.unwrap_or_default()),
                        show(a),
                        show(b)
                    )),
                });
            }
        }
        self.differing_decisions(&mut v);
        v.diagnostics = diagnostic_groups(
            self.analysis
                .diagnostics
                .iter()
                .filter(|d| d.readings != analysis::Readings::Both),
            r.tree.lines.len(),
            true,
        );
        v
    }

    /// Diagnostics grouped by name, in order of first occurrence, with the first few lines.
    fn diagnostics_view(&self) -> Vec<pages::DiagGroup> {
        let lines = self.robots.map_or(0, |r| r.tree.lines.len());
        diagnostic_groups(self.analysis.diagnostics.iter(), lines, false)
    }
}

/// Counts one more line left out of a list of the Readings section, at 1-based `line` (lines
/// come in file order, so the last one counted is the last).
fn count_more(more: &mut Option<pages::MoreLines>, line: usize) {
    let m = more.get_or_insert(pages::MoreLines {
        count: 0,
        last_line: line,
    });
    m.count += 1;
    m.last_line = line;
}

/// `diagnostics` grouped by name (and readings, with `by_readings`), in order of first
/// occurrence, each with its count and its first [`MAX_LISTED_LINES`] lines (of a file of
/// `lines` lines).
fn diagnostic_groups<'a>(
    diagnostics: impl Iterator<Item = &'a analysis::Diagnostic>,
    lines: usize,
    by_readings: bool,
) -> Vec<pages::DiagGroup> {
    let mut groups: Vec<pages::DiagGroup> = Vec::new();
    let mut at: std::collections::HashMap<(&str, analysis::Readings), usize> =
        std::collections::HashMap::new();
    for d in diagnostics {
        let key = (
            d.name,
            if by_readings {
                d.readings
            } else {
                analysis::Readings::Both
            },
        );
        match at.get(&key) {
            Some(&i) => {
                let g = &mut groups[i];
                g.count += 1;
                if g.lines.len() < MAX_LISTED_LINES {
                    g.lines.push((d.line, pages::line_anchor(d.line, lines)));
                }
            }
            None => {
                at.insert(key, groups.len());
                groups.push(pages::DiagGroup {
                    first: pages::DiagRow::of(d, lines),
                    count: 1,
                    lines: vec![(d.line, pages::line_anchor(d.line, lines))],
                });
            }
        }
    }
    groups
}

/// The place of `rule` in a table of effective rules, as one number ordering as (empty pattern
/// last, longer pattern first, allow before disallow, earlier line first) does. Pattern lengths
/// and line numbers are clamped at 2³¹ − 1, beyond any file read.
fn precedence_key(rule: &crate::groups::Rule) -> u64 {
    let len = rule.pattern.len().min((1 << 31) - 1) as u64;
    let line = rule.line.min((1 << 31) - 1) as u64;
    u64::from(rule.pattern.is_empty()) << 63
        | ((1 << 31) - 1 - len) << 32
        | u64::from(rule.kind != RuleKind::Allow) << 31
        | line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precedence_keys_order_as_the_rule_precedence() {
        let r = robots_explorer_engine::RobotsTxt::parse(
            b"User-agent: *\nDisallow: /ab\nAllow: /ab\nDisallow:\nAllow: /abc\nDisallow: /a\n\
              Allow: /cd\n",
        );
        let rules = &r.policy(Reading::Google).groups[0].rules;
        let tuple = |x: &crate::groups::Rule| {
            (
                x.pattern.is_empty(),
                std::cmp::Reverse(x.pattern.len()),
                x.kind != RuleKind::Allow,
                x.line,
            )
        };
        let mut by_key: Vec<&crate::groups::Rule> = rules.iter().collect();
        by_key.sort_by_key(|x| precedence_key(x));
        let mut by_tuple: Vec<&crate::groups::Rule> = rules.iter().collect();
        by_tuple.sort_by_key(|x| tuple(x));
        let lines = |v: &[&crate::groups::Rule]| v.iter().map(|x| x.line).collect::<Vec<_>>();
        assert_eq!(lines(&by_key), lines(&by_tuple));
        // `/abc` first; at three bytes the allows (in file order) before `Disallow: /ab`; the
        // empty pattern last.
        assert_eq!(lines(&by_key), [4, 2, 6, 1, 5, 3]);
    }

    #[test]
    fn sample_paths_match_their_patterns() {
        assert_eq!(sample_path("/cart/").as_deref(), Some("/cart/"));
        assert_eq!(sample_path("/*.pdf$").as_deref(), Some("/x.pdf"));
        assert_eq!(sample_path("/*?sort=").as_deref(), Some("/x?sort="));
        assert_eq!(sample_path("/private*").as_deref(), Some("/private"));
        assert_eq!(sample_path("*.gif").as_deref(), Some("/x.gif"));
        assert_eq!(
            sample_path("https://a.example/b?c=1").as_deref(),
            Some("/b?c=1")
        );
        assert_eq!(sample_path("/"), None);
        assert_eq!(sample_path(""), None);
        // Each sample is matched by its pattern (Google reading).
        for pat in ["/cart/", "/*.pdf$", "/*?sort=", "/private*", "/a*b*c"] {
            let p = sample_path(pat).unwrap();
            let robots = RobotsTxt::parse(format!("User-agent: *\nDisallow: {pat}\n").as_bytes());
            assert!(
                !robots.decide(Reading::Google, "x", &p).allowed,
                "{pat} vs {p}"
            );
        }
    }
}
