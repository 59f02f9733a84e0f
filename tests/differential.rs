//! Differential test against two other Rust parsers, over every file of the real corpus
//! (`../shared/corpus/files`).
//!
//! - The Google reading is compared with the `robotstxt` crate (a port of google/robotstxt).
//! - The RFC 9309 reading is compared with `texting_robots` (a lenient RFC-style parser).
//!
//! Crawler × URL pairs come from each file's own rules: the product tokens its user-agent lines
//! name, plus a made-up token that only `*` groups apply to; URLs built from every allow and
//! disallow pattern (the literal part before the first `*` or `$`, the pattern with `*` filled
//! in, the same with text appended after it, and `/`).
//!
//! Every disagreement must fall into a category listed in
//! `tests/data/differential-categories.tsv` (name, compared crate, reason). Each category is a
//! rewrite of the question in this file that takes its cause away (rewriting one side's input,
//! or re-deciding with the other crate's matching rule); a disagreement counts as explained
//! only when the rewrite, or two of them in a row, makes the two answers agree. The test fails on a disagreement that
//! no category explains, on a category without a row in the file or a row without a category,
//! and on a category that explains nothing (so the list stays honest).
//!
//! The `robotstxt` crate panics on a few real files; those files are counted and skipped for
//! that comparison, as are files `texting_robots` refuses to parse.

use robots_explorer::decode::{Encoding, PARSING_LIMIT};
use robots_explorer::fields::Field;
use robots_explorer::groups::{Policy, ProductToken, Rule, RuleKind};
use robots_explorer::pattern::{Side, matches, normalize, path_params_query};
use robots_explorer::{Reading, RobotsTxt};
use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

/// A crawler token that no real file names, so only `*` groups apply to it.
const MADE_UP_AGENT: &str = "ExplorerProbeBot";
/// Text put where a pattern has `*`.
const FILL: &str = "x7";
/// At most this many named crawlers per file (plus the made-up one).
const MAX_AGENTS: usize = 4;
/// At most this many URLs per file.
const MAX_URLS: usize = 24;
/// The `robotstxt` crate parses the whole file for every question; keep the bytes it parses per
/// file near this budget (but ask at least `MIN_PAIRS` questions).
const PAIR_BYTE_BUDGET: usize = 250_000;
const MIN_PAIRS: usize = 6;

// ---------------------------------------------------------------------------------------------
// Running the other crates.

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

/// Installs a panic hook that stays silent while another crate's code runs under
/// [`quietly`], and reports every other panic as usual.
fn install_quiet_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) {
                previous(info);
            }
        }));
    });
}

fn quietly<T>(f: impl FnOnce() -> T) -> Option<T> {
    QUIET.with(|q| q.set(true));
    let out = catch_unwind(AssertUnwindSafe(f)).ok();
    QUIET.with(|q| q.set(false));
    out
}

/// The `robotstxt` crate's answer, or `None` when it panics.
fn google_crate(body: &str, agent: &str, url: &str) -> Option<bool> {
    quietly(|| robotstxt::DefaultMatcher::default().one_agent_allowed_by_robots(body, agent, url))
}

/// `texting_robots`' parse for one crawler, or `None` when it refuses the file or panics.
fn texting(body: &[u8], agent: &str) -> Option<texting_robots::Robot> {
    quietly(|| texting_robots::Robot::new(agent, body).ok()).flatten()
}

fn texting_allowed(body: &[u8], agent: &str, url: &str) -> Option<bool> {
    let robot = texting(body, agent)?;
    quietly(|| robot.allowed(url))
}

// ---------------------------------------------------------------------------------------------
// Questions derived from a file.

fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphabetic() || b == b'-' || b == b'_')
}

/// Picks at most `n` items spread evenly over `items` (all of them when there are few).
fn spread<T: Clone>(items: &[T], n: usize) -> Vec<T> {
    if items.len() <= n {
        return items.to_vec();
    }
    (0..n).map(|i| items[i * items.len() / n].clone()).collect()
}

/// The product tokens the file's user-agent lines name, in either reading.
fn agents(robots: &RobotsTxt) -> Vec<String> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for reading in Reading::ALL {
        for g in &robots.policy(reading).groups {
            for ua in &g.user_agents {
                if let ProductToken::Name(n) = &ua.token
                    && is_token(n)
                    && seen.insert(n.to_ascii_lowercase())
                {
                    out.push(n.clone());
                }
            }
        }
    }
    let mut agents = spread(&out, MAX_AGENTS);
    agents.push(MADE_UP_AGENT.to_string());
    agents
}

/// URL paths built from the file's allow and disallow patterns.
fn urls(robots: &RobotsTxt) -> Vec<String> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    let mut add = |mut u: String| {
        u.retain(|c| c != '#' && c != '\r' && c != '\n');
        if !u.starts_with('/') {
            u.insert(0, '/');
        }
        // A leading `//` would start an authority (a network-path reference), not a path.
        while u.starts_with("//") {
            u.remove(0);
        }
        if seen.insert(u.clone()) {
            out.push(u);
        }
    };
    add("/".to_string());
    for reading in Reading::ALL {
        for rec in &robots.policy(reading).records {
            if !rec.field.is_rule() {
                continue;
            }
            let value = String::from_utf8_lossy(&robots.bytes()[rec.value.range()]).into_owned();
            if value.is_empty() {
                continue;
            }
            let literal: String = value
                .chars()
                .take_while(|&c| c != '*' && c != '$')
                .collect();
            let filled = value.replace('*', FILL);
            let unanchored = filled.strip_suffix('$').unwrap_or(&filled).to_string();
            // As a crawler might send it: escapes decoded, and non-ASCII characters encoded.
            let decoded = percent_encoding::percent_decode_str(&unanchored)
                .decode_utf8_lossy()
                .into_owned();
            let encoded =
                percent_encoding::utf8_percent_encode(&unanchored, percent_encoding::CONTROLS)
                    .to_string();
            add(literal);
            add(unanchored.clone());
            add(format!("{unanchored}/{FILL}"));
            add(decoded);
            add(encoded);
        }
    }
    let first = out.remove(0);
    let mut urls = spread(&out, MAX_URLS - 1);
    urls.insert(0, first);
    urls
}

fn pairs(agents: &[String], urls: &[String], body_len: usize) -> Vec<(String, String)> {
    let all: Vec<(String, String)> = agents
        .iter()
        .flat_map(|a| urls.iter().map(move |u| (a.clone(), u.clone())))
        .collect();
    let budget = (PAIR_BYTE_BUDGET / body_len.max(1)).max(MIN_PAIRS);
    spread(&all, budget)
}

// ---------------------------------------------------------------------------------------------
// A question, and rewriting it to take one cause of disagreement away.

/// Who answers the question on the other side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Other {
    /// The `robotstxt` crate, compared with the Google reading.
    Robotstxt,
    /// `texting_robots`, compared with the RFC 9309 reading.
    Texting,
}

impl Other {
    fn reading(self) -> Reading {
        match self {
            Other::Robotstxt => Reading::Google,
            Other::Texting => Reading::Rfc9309,
        }
    }
}

/// What one side reads.
#[derive(Clone, Debug)]
struct Input {
    body: Vec<u8>,
    url: String,
}

/// How our side decides when a category replaces part of our reading by the other parser's.
#[derive(Clone, Copy, Debug, Default)]
struct Borrowed {
    /// Match with the `robotstxt` crate's wildcard matching.
    crate_wildcards: bool,
    /// Encode patterns and URL as texting_robots does instead of RFC 9309 §2.2.2.
    texting_encoding: bool,
    /// Treat every `$` as an end anchor, as texting_robots' regular expressions do.
    texting_dollars: bool,
}

/// One question, as each side sees it.
#[derive(Clone, Debug)]
struct Case {
    other: Other,
    agent: String,
    ours: Input,
    borrowed: Borrowed,
    theirs: Input,
}

impl Case {
    fn our_answer(&self) -> bool {
        let reading = self.other.reading();
        let robots = RobotsTxt::parse(&self.ours.body);
        let b = self.borrowed;
        if !(b.crate_wildcards || b.texting_encoding || b.texting_dollars) {
            return robots.decide(reading, &self.agent, &self.ours.url).allowed;
        }
        let path = if b.texting_encoding {
            texting_encode(self.ours.url.as_bytes())
        } else {
            normalize(
                path_params_query(&self.ours.url).as_bytes(),
                reading,
                Side::Url,
            )
            .into_owned()
        };
        if reading == Reading::Rfc9309 && path == b"/robots.txt" {
            return true;
        }
        let pattern = |rule: &Rule| -> Option<Vec<u8>> {
            let raw = &robots.bytes()[rule.value.range()];
            if rule.derived || !b.texting_encoding && !b.texting_dollars {
                return Some(rule.pattern.to_vec());
            }
            if b.texting_encoding {
                return Some(texting_encode(raw));
            }
            // texting_robots compiles the pattern before any `$` could be escaped.
            Some(
                String::from_utf8_lossy(&rule.pattern)
                    .replace("%24", "$")
                    .into_bytes(),
            )
        };
        let is_match = |pat: &[u8], path: &[u8]| {
            if b.crate_wildcards {
                crate_match(pat, path)
            } else if b.texting_dollars {
                texting_dollar_match(pat, path)
            } else {
                matches(pat, path)
            }
        };
        redecide(
            robots.policy(reading),
            &self.agent,
            &path,
            pattern,
            is_match,
        )
    }

    fn their_answer(&self) -> Option<bool> {
        match self.other {
            Other::Robotstxt => google_crate(
                &String::from_utf8_lossy(&self.theirs.body),
                &self.agent,
                &self.theirs.url,
            ),
            Other::Texting => texting_allowed(&self.theirs.body, &self.agent, &self.theirs.url),
        }
    }

    fn agrees(&self) -> bool {
        self.their_answer() == Some(self.our_answer())
    }
}

/// The `robotstxt` crate's pattern matching on its own.
fn crate_match(pattern: &[u8], path: &[u8]) -> bool {
    use robotstxt::matcher::{LongestMatchRobotsMatchStrategy, RobotsMatchStrategy};
    let pattern = String::from_utf8_lossy(pattern);
    let path = String::from_utf8_lossy(path);
    LongestMatchRobotsMatchStrategy::matches(&path, &pattern)
}

/// A slow, obviously correct matcher: `*` matches any bytes, a final `$` anchors the end, every
/// other byte matches itself; the pattern is anchored at the start of the path.
fn reference_match(pattern: &[u8], path: &[u8]) -> bool {
    let (pattern, anchored) = match pattern.split_last() {
        Some((b'$', rest)) => (rest, true),
        _ => (pattern, false),
    };
    // reachable[j]: the pattern read so far can end at path[..j].
    let mut reachable = vec![false; path.len() + 1];
    reachable[0] = true;
    for &p in pattern {
        let mut next = vec![false; path.len() + 1];
        let mut seen = false;
        for j in 0..=path.len() {
            if p == b'*' {
                seen |= reachable[j];
                next[j] = seen;
            } else if j > 0 {
                next[j] = reachable[j - 1] && path[j - 1] == p;
            }
        }
        reachable = next;
    }
    if anchored {
        reachable[path.len()]
    } else {
        reachable.iter().any(|&r| r)
    }
}

/// Re-decides with our groups for `agent` but another normalisation and matching rule.
/// `pattern` gives a rule's pattern as the other parser compares it (`None`: the rule is
/// dropped); priorities are the lengths of those patterns, and allow wins ties.
fn redecide(
    policy: &Policy,
    agent: &str,
    path: &[u8],
    pattern: impl Fn(&Rule) -> Option<Vec<u8>>,
    is_match: impl Fn(&[u8], &[u8]) -> bool,
) -> bool {
    let (groups, _) = policy.groups_for(agent);
    let (mut allow, mut disallow) = (-1i64, -1i64);
    for rule in groups.iter().flat_map(|g| g.rules.iter()) {
        let Some(p) = pattern(rule) else { continue };
        if p.is_empty() || !is_match(&p, path) {
            continue;
        }
        let slot = match rule.kind {
            RuleKind::Allow => &mut allow,
            RuleKind::Disallow => &mut disallow,
        };
        *slot = (*slot).max(p.len() as i64);
    }
    disallow <= allow
}

/// Replaces the first byte of the chosen lines' content by `#`, so that they become comments
/// and nothing else moves.
fn comment_out(body: &[u8], pick: impl Fn(&RobotsTxt, usize) -> bool) -> Option<Vec<u8>> {
    let robots = RobotsTxt::parse(body);
    let mut out = body.to_vec();
    let mut changed = false;
    for (i, line) in robots.tree.lines.iter().enumerate() {
        let c = line.content();
        if c.start < c.end && pick(&robots, i) {
            out[c.start] = b'#';
            changed = true;
        }
    }
    changed.then_some(out)
}

/// How texting_robots reads line `i` of `robots`.
fn texting_field(robots: &RobotsTxt, i: usize) -> Option<(TrField, Vec<u8>)> {
    texting_line(&robots.bytes()[robots.tree.lines[i].content().range()])
}

/// Non-ASCII characters that Rust's `str::trim` (used by both crates) removes.
fn unicode_only_space(c: char) -> bool {
    c.is_whitespace() && !c.is_ascii()
}

fn replace_unicode_space(s: &str) -> String {
    s.chars()
        .map(|c| {
            if unicode_only_space(c) {
                "_".repeat(c.len_utf8())
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The bytes at the start of `body` that the `robotstxt` crate skips as a byte order mark: it
/// compares *characters* with the bytes EF BB BF, so it skips `ï»¿` (U+00EF U+00BB U+00BF) but
/// not a real byte order mark (U+FEFF).
fn crate_skipped_prefix(body: &str) -> usize {
    let mut n = 0;
    for (i, c) in body.chars().take(3).enumerate() {
        if c as u32 == [0xEF, 0xBB, 0xBF][i] {
            n += c.len_utf8();
        } else {
            break;
        }
    }
    n
}

// --- texting_robots' line grammar, as far as the categories need it ---

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TrField {
    UserAgent,
    Allow,
    Disallow,
    Sitemap,
    CrawlDelay,
}

/// How texting_robots reads one line: one of its keys (after optional spaces), then optional
/// spaces and a colon, or at least one space; the value runs to `#` and is trimmed. Crawl-delay
/// lines count only with a number it accepts. `None` for a line it keeps as raw text.
fn texting_line(content: &[u8]) -> Option<(TrField, Vec<u8>)> {
    let is_sp = |b: &u8| *b == b' ' || *b == b'\t';
    let start = content
        .iter()
        .position(|b| !is_sp(b))
        .unwrap_or(content.len());
    let s = &content[start..];
    let keys: &[(&str, TrField)] = &[
        ("user-agent", TrField::UserAgent),
        ("user agent", TrField::UserAgent),
        ("useragent", TrField::UserAgent),
        ("allow", TrField::Allow),
        ("disallow", TrField::Disallow),
        ("dissallow", TrField::Disallow),
        ("dissalow", TrField::Disallow),
        ("disalow", TrField::Disallow),
        ("diasllow", TrField::Disallow),
        ("disallaw", TrField::Disallow),
        ("sitemap", TrField::Sitemap),
        ("site-map", TrField::Sitemap),
        ("site map", TrField::Sitemap),
        ("crawl-delay", TrField::CrawlDelay),
        ("crawl delay", TrField::CrawlDelay),
        ("crawldelay", TrField::CrawlDelay),
    ];
    for (key, field) in keys {
        if s.len() < key.len() || !s[..key.len()].eq_ignore_ascii_case(key.as_bytes()) {
            continue;
        }
        let rest = &s[key.len()..];
        let sp = rest.iter().take_while(|b| is_sp(b)).count();
        let value = if rest.get(sp) == Some(&b':') {
            &rest[sp + 1..]
        } else if sp > 0 {
            &rest[sp..]
        } else {
            continue;
        };
        let value = &value[..value.iter().position(|&b| b == b'#').unwrap_or(value.len())];
        let value = String::from_utf8_lossy(value).trim().as_bytes().to_vec();
        if *field == TrField::CrawlDelay
            && !std::str::from_utf8(&value)
                .ok()
                .and_then(|v| v.parse::<f32>().ok())
                .is_some_and(|d| d >= 0.0)
        {
            return None;
        }
        return Some((*field, value));
    }
    None
}

/// texting_robots' percent-encoding of patterns and relative URLs: controls, space, `"`, `<`,
/// `>`, `` ` `` and non-ASCII bytes are encoded; existing escapes are left as they are.
fn texting_encode(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    for &b in s {
        if !(0x20..0x7F).contains(&b) || matches!(b, b' ' | b'"' | b'<' | b'>' | b'`') {
            out.extend_from_slice(format!("%{b:02X}").as_bytes());
        } else {
            out.push(b);
        }
    }
    out
}

/// texting_robots turns a pattern with `$` into a regular expression in which every `$` is an
/// end anchor: a `$` followed by anything but more `$` can never match.
fn texting_dollar_match(pattern: &[u8], path: &[u8]) -> bool {
    match pattern.iter().position(|&b| b == b'$') {
        None => matches(pattern, path),
        Some(i) if pattern[i..].iter().all(|&b| b == b'$') => {
            let mut p = pattern[..i].to_vec();
            p.push(b'$');
            matches(&p, path)
        }
        Some(_) => false,
    }
}

// ---------------------------------------------------------------------------------------------
// Categories: each rewrites a question to take its cause away (`None`: it does not apply).

type Rewrite = fn(&Case) -> Option<Case>;

/// Categories for the Google reading against the `robotstxt` crate.
const GOOGLE_CATEGORIES: &[(&str, Rewrite)] = &[
    ("robotstxt-byte-order-mark", |c| {
        let mut c = c.clone();
        if c.theirs.body.starts_with(b"\xEF\xBB\xBF") {
            // The crate keeps a real byte order mark as part of the first key: give it the
            // text without one, which is what Google reads.
            c.theirs.body.drain(..3);
            return Some(c);
        }
        // The crate skips `ï»¿`, which Google keeps: read what the crate reads.
        let n = crate_skipped_prefix(&String::from_utf8_lossy(&c.theirs.body));
        (n > 0).then(|| {
            c.ours.body.drain(..n);
            c
        })
    }),
    ("robotstxt-no-parsing-limit", |c| {
        let mut c = c.clone();
        (c.theirs.body.len() > PARSING_LIMIT).then(|| {
            c.theirs.body.truncate(PARSING_LIMIT);
            c
        })
    }),
    ("robotstxt-other-records-end-group", |c| {
        let body = comment_out(&c.theirs.body, |r, i| {
            r.policy(Reading::Google).record_at(i).is_some_and(|rec| {
                !matches!(rec.field, Field::UserAgent | Field::Allow | Field::Disallow)
            })
        })?;
        let mut c = c.clone();
        c.theirs.body = body;
        Some(c)
    }),
    ("robotstxt-wildcard-matching", |c| {
        // Applies when, for a rule of the groups that apply, the crate's matching differs from
        // a plain reference matcher while ours agrees with it.
        let robots = RobotsTxt::parse(&c.ours.body);
        let policy = robots.policy(Reading::Google);
        let path = path_params_query(&c.ours.url);
        let (groups, _) = policy.groups_for(&c.agent);
        let mut crate_differs = false;
        for rule in groups.iter().flat_map(|g| g.rules.iter()) {
            let reference = reference_match(&rule.pattern, path.as_bytes());
            if matches(&rule.pattern, path.as_bytes()) != reference {
                return None;
            }
            crate_differs |= crate_match(&rule.pattern, path.as_bytes()) != reference;
        }
        crate_differs.then(|| {
            let mut c = c.clone();
            c.borrowed.crate_wildcards = true;
            c
        })
    }),
    ("robotstxt-unicode-white-space", unicode_white_space),
];

fn unicode_white_space(c: &Case) -> Option<Case> {
    let body = String::from_utf8_lossy(&c.theirs.body);
    if !body.chars().any(unicode_only_space) && !c.theirs.url.chars().any(unicode_only_space) {
        return None;
    }
    let mut c = c.clone();
    let body = replace_unicode_space(&body).into_bytes();
    let url = replace_unicode_space(&c.theirs.url);
    c.ours = Input {
        body: body.clone(),
        url: url.clone(),
    };
    c.theirs = Input { body, url };
    Some(c)
}

/// Categories for the RFC 9309 reading against texting_robots.
const RFC_CATEGORIES: &[(&str, Rewrite)] = &[
    ("texting-utf16-not-decoded", |c| {
        let robots = RobotsTxt::parse(&c.theirs.body);
        if !matches!(
            robots.source.encoding,
            Encoding::Utf16Le | Encoding::Utf16Be
        ) {
            return None;
        }
        let mut c = c.clone();
        c.theirs.body = robots.bytes()[robots.source.bom_len..].to_vec();
        Some(c)
    }),
    ("texting-no-parsing-limit", |c| {
        let mut c = c.clone();
        (c.theirs.body.len() > PARSING_LIMIT).then(|| {
            c.theirs.body.truncate(PARSING_LIMIT);
            c
        })
    }),
    ("texting-rules-without-user-agent", |c| {
        // With no user-agent line at all, texting_robots applies every rule to every crawler;
        // read the file as if it started with `User-agent: *`.
        let robots = RobotsTxt::parse(&c.theirs.body);
        let any_agent = (0..robots.tree.lines.len())
            .any(|i| matches!(texting_field(&robots, i), Some((TrField::UserAgent, _))));
        if any_agent {
            return None;
        }
        let mut c = c.clone();
        let bom = RobotsTxt::parse(&c.ours.body).source.bom_len;
        c.ours
            .body
            .splice(bom..bom, b"User-agent: *\n".iter().copied());
        Some(c)
    }),
    ("texting-crawl-delay-ends-user-agents", |c| {
        let body = comment_out(&c.theirs.body, |r, i| {
            matches!(texting_field(r, i), Some((TrField::CrawlDelay, _)))
        })?;
        let mut c = c.clone();
        c.theirs.body = body;
        Some(c)
    }),
    ("texting-lenient-field-names", |c| {
        // Misspelt keys (`User agent`, `Dissallow`, …) and a space in place of the colon.
        let body = comment_out(&c.theirs.body, |r, i| {
            let rfc = r.policy(Reading::Rfc9309).record_at(i).map(|r| r.field);
            match texting_field(r, i) {
                Some((TrField::UserAgent, _)) => rfc != Some(Field::UserAgent),
                Some((TrField::Allow, _)) => rfc != Some(Field::Allow),
                Some((TrField::Disallow, _)) => rfc != Some(Field::Disallow),
                _ => false,
            }
        })?;
        let mut c = c.clone();
        c.theirs.body = body;
        Some(c)
    }),
    ("texting-percent-encoding", |c| {
        // Applies when texting_robots' encoding of the URL or of a rule differs from ours.
        let robots = RobotsTxt::parse(&c.ours.body);
        let path = path_params_query(&c.ours.url);
        let ours_url = normalize(path.as_bytes(), Reading::Rfc9309, Side::Url);
        let differs = texting_encode(c.ours.url.as_bytes()) != *ours_url
            || robots.policy(Reading::Rfc9309).groups.iter().any(|g| {
                g.rules
                    .iter()
                    .any(|r| texting_encode(&robots.bytes()[r.value.range()]) != *r.pattern)
            });
        if !differs {
            return None;
        }
        let mut c = c.clone();
        c.borrowed.texting_encoding = true;
        Some(c)
    }),
    ("texting-dollar-inside-pattern", |c| {
        let robots = RobotsTxt::parse(&c.ours.body);
        let inside = robots.policy(Reading::Rfc9309).groups.iter().any(|g| {
            g.rules.iter().any(|r| {
                let v = &robots.bytes()[r.value.range()];
                v.split_last().is_some_and(|(_, init)| init.contains(&b'$'))
            })
        });
        if !inside {
            return None;
        }
        let mut c = c.clone();
        c.borrowed.texting_dollars = true;
        Some(c)
    }),
    ("texting-unicode-white-space", unicode_white_space),
];

/// The categories that explain a disagreement: one category whose rewrite makes both sides
/// agree, or else two applied one after the other. Names are joined with ` + `.
fn explain(case: &Case, categories: &[(&'static str, Rewrite)]) -> Option<String> {
    let mut once = Vec::new();
    for (name, rewrite) in categories {
        if let Some(c) = rewrite(case) {
            if c.agrees() {
                return Some(name.to_string());
            }
            once.push((*name, c));
        }
    }
    for (first, c) in &once {
        for (name, rewrite) in categories {
            if name != first
                && let Some(c2) = rewrite(c)
                && c2.agrees()
            {
                return Some(format!("{first} + {name}"));
            }
        }
    }
    None
}

// ---------------------------------------------------------------------------------------------
// The test.

mod shared;

fn corpus_files() -> Option<Vec<PathBuf>> {
    let dir = shared::dir(
        "corpus/files",
        "differential_against_robotstxt_and_texting_robots",
    )?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("corpus at {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    Some(files)
}

fn load_categories() -> BTreeMap<String, (String, String)> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/differential-categories.tsv");
    let text = std::fs::read_to_string(path).expect("tests/data/differential-categories.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.splitn(3, '\t').collect();
            assert_eq!(f.len(), 3, "name<TAB>crate<TAB>reason: {l}");
            (f[0].to_string(), (f[1].to_string(), f[2].to_string()))
        })
        .collect()
}

#[derive(Default)]
struct Tally {
    questions: usize,
    differences: BTreeMap<String, usize>,
    examples: BTreeMap<String, String>,
    unexplained: Vec<String>,
}

impl Tally {
    fn record(
        &mut self,
        file: &str,
        case: &Case,
        ours: bool,
        categories: &[(&'static str, Rewrite)],
    ) {
        let what = format!(
            "{file}: agent={} url={:?} ours={ours} theirs={}",
            case.agent, case.ours.url, !ours
        );
        match explain(case, categories) {
            Some(name) => {
                *self.differences.entry(name.clone()).or_default() += 1;
                self.examples.entry(name).or_insert(what);
            }
            None => self.unexplained.push(what),
        }
    }
}

#[test]
fn differential_against_robotstxt_and_texting_robots() {
    install_quiet_hook();
    let listed = load_categories();
    let Some(files) = corpus_files() else {
        return;
    };
    assert!(files.len() > 4000, "corpus has {} files", files.len());

    let mut google = Tally::default();
    let mut rfc = Tally::default();
    let (mut crate_panics, mut texting_refusals, mut lossy_inputs) = (0, 0, 0);

    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(path).unwrap();
        let robots = RobotsTxt::parse(&bytes);
        let agents = agents(&robots);
        let urls = urls(&robots);
        let pairs = pairs(&agents, &urls, bytes.len());
        let question = |other, body: &[u8], agent: &str, url: &str| Case {
            other,
            agent: agent.to_string(),
            ours: Input {
                body: body.to_vec(),
                url: url.to_string(),
            },
            borrowed: Borrowed::default(),
            theirs: Input {
                body: body.to_vec(),
                url: url.to_string(),
            },
        };

        // Google reading against `robotstxt`, which takes `&str`: UTF-16 is given as the text
        // we decoded, other bytes that are not UTF-8 lossily, and we read the same text.
        let text = match robots.source.encoding {
            Encoding::Utf16Le | Encoding::Utf16Be => {
                String::from_utf8_lossy(&robots.bytes()[3..]).into_owned()
            }
            _ => String::from_utf8_lossy(&bytes).into_owned(),
        };
        if text.as_bytes() != bytes.as_slice() {
            lossy_inputs += 1;
        }
        let google_robots = RobotsTxt::parse(text.as_bytes());
        if google_crate(&text, MADE_UP_AGENT, "/").is_none() {
            crate_panics += 1;
        } else {
            for (agent, url) in &pairs {
                let Some(theirs) = google_crate(&text, agent, url) else {
                    continue;
                };
                google.questions += 1;
                let ours = google_robots.decide(Reading::Google, agent, url).allowed;
                if ours != theirs {
                    let case = question(Other::Robotstxt, text.as_bytes(), agent, url);
                    google.record(&name, &case, ours, GOOGLE_CATEGORIES);
                }
            }
        }

        // RFC 9309 reading against texting_robots, on the raw bytes.
        let asked: BTreeSet<(&str, &str)> = pairs
            .iter()
            .map(|(a, u)| (a.as_str(), u.as_str()))
            .collect();
        for agent in &agents {
            let Some(robot) = texting(&bytes, agent) else {
                texting_refusals += 1;
                break;
            };
            for url in &urls {
                if !asked.contains(&(agent.as_str(), url.as_str())) {
                    continue;
                }
                let Some(theirs) = quietly(|| robot.allowed(url)) else {
                    continue;
                };
                rfc.questions += 1;
                let ours = robots.decide(Reading::Rfc9309, agent, url).allowed;
                if ours != theirs {
                    let case = question(Other::Texting, &bytes, agent, url);
                    rfc.record(&name, &case, ours, RFC_CATEGORIES);
                }
            }
        }
    }

    eprintln!(
        "{} files; {lossy_inputs} read lossily or transcoded for robotstxt; robotstxt panicked \
         on {crate_panics}; texting_robots refused {texting_refusals}",
        files.len(),
    );
    for (label, tally) in [
        ("Google reading vs robotstxt", &google),
        ("RFC 9309 reading vs texting_robots", &rfc),
    ] {
        let total: usize = tally.differences.values().sum::<usize>() + tally.unexplained.len();
        eprintln!(
            "{label}: {} questions, {total} differences",
            tally.questions
        );
        for (name, n) in &tally.differences {
            eprintln!("  {name}: {n} (e.g. {})", tally.examples[name]);
        }
    }

    let in_code: BTreeSet<&str> = GOOGLE_CATEGORIES
        .iter()
        .chain(RFC_CATEGORIES)
        .map(|(n, _)| *n)
        .collect();
    let in_file: BTreeSet<&str> = listed.keys().map(String::as_str).collect();
    assert_eq!(
        in_code, in_file,
        "categories in code and in differential-categories.tsv differ"
    );
    let used: BTreeSet<&str> = google
        .differences
        .keys()
        .chain(rfc.differences.keys())
        .flat_map(|k| k.split(" + "))
        .collect();
    let unused: Vec<&&str> = in_code.iter().filter(|n| !used.contains(**n)).collect();
    let unexplained: Vec<&String> = google.unexplained.iter().chain(&rfc.unexplained).collect();
    assert!(
        unexplained.is_empty(),
        "{} differences in no category (Google: {}, RFC: {}); first ones:\n{}",
        unexplained.len(),
        google.unexplained.len(),
        rfc.unexplained.len(),
        unexplained
            .iter()
            .take(40)
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        unused.is_empty(),
        "categories that explain nothing: {unused:?}"
    );
    assert!(google.questions > 50_000 && rfc.questions > 50_000);
}
