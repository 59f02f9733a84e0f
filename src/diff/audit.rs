//! Two audits compared: the `hosts.jsonl` of two `report` runs (see [`crate::report::summary`]
//! for its fields), host by host.
//!
//! For each host: added or gone; its fetch outcome or effect changed; per crawler of the
//! reports' decision matrices, the paths both reports decided whose verdict changed (newly
//! blocked or freed on `/` named apart); per known AI crawler, its access (`blocked`,
//! `partly`, `open`, `unknown`) when it changed. Totals: hosts added, gone and changed; per AI
//! crawler, how many hosts started and stopped blocking it from `/`; per matrix crawler, on
//! how many hosts it was newly blocked from or freed on `/`.
//!
//! # JSON
//!
//! ```text
//! {
//!   "schema": "robots-explorer/diff/1", "kind": "audits", "old": "old/hosts.jsonl",
//!   "new": "new/hosts.jsonl", "fails": false,
//!   "added": ["new.example"], "gone": ["old.example"],
//!   "changed": [{"host": "shop.example", "line": 12,          // its line in the new hosts.jsonl
//!                "outcome": {"old": "successful", "new": "unavailable"} | null,
//!                "effect": {"old": "follow-file", "new": "allow-all"} | null,
//!                "newly_blocked": ["GPTBot"], "freed": [],    // from "/"
//!                "verdicts": [{"crawler": "Googlebot", "path": "/cart/", "old": true, "new": false}],
//!                "ai_access": [{"crawler": "GPTBot", "old": "open", "new": "blocked"}]}],
//!   "totals": {"old_hosts": 19, "new_hosts": 20, "added": 1, "gone": 0, "changed": 3,
//!              "ai_crawlers": [{"crawler": "GPTBot", "started_blocking": 2, "stopped_blocking": 0,
//!                               "blocking_old": 4, "blocking_new": 6}],
//!              "crawlers": [{"crawler": "Googlebot", "newly_blocked": 0, "freed": 1}]}
//! }
//! ```
//!
//! Verdicts are `true` (allowed), `false` (disallowed) or `null` (unknown, e.g. the fetch
//! outcome says nothing).

use super::{FailRule, Format, Target, md_code, md_text};
use crate::cli::diff::FailOn;
use crate::output::escape_control;
use crate::output::github::{escape_data, escape_property};
use crate::report::summary::Access;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};
use std::path::Path;

/// A line of `hosts.jsonl` longer than this (bytes) is refused: far beyond any host row the
/// report writes (at most a thousand diagnostics per name are listed).
pub const MAX_LINE: usize = 64 * 1024 * 1024;

/// What a comparison keeps of one host row.
#[derive(Clone, Debug, Deserialize)]
pub struct Host {
    /// Host name.
    pub host: String,
    /// Fetch outcome.
    pub outcome: String,
    /// What the outcome means for crawling, in the report's reading.
    #[serde(default)]
    pub effect: Option<String>,
    /// The matrix paths.
    #[serde(default)]
    pub paths: Vec<String>,
    /// Per matrix crawler, the verdict on each path (rows written with crawlers that decide
    /// alike in one entry are read back one crawler at a time; so are rows of earlier versions,
    /// one entry per crawler).
    #[serde(default, deserialize_with = "decisions")]
    pub decisions: Vec<Decisions>,
    /// Per known AI crawler, its access (an object from product token to access, or, in rows of
    /// earlier versions, a list of `{"crawler", "access"}`).
    #[serde(default, deserialize_with = "ai_crawlers")]
    pub ai_crawlers: Vec<AiCrawler>,
    /// 1-based line of the row in its file.
    #[serde(skip)]
    pub line: usize,
}

/// One crawler's row of a host's decision matrix.
#[derive(Clone, Debug, Deserialize)]
pub struct Decisions {
    /// Product token.
    pub crawler: String,
    /// Per path: allowed (`None`: unknown).
    pub allowed: Vec<Option<bool>>,
}

/// An entry of `decisions` as written: shared by crawlers that decide alike, or (earlier
/// versions) one crawler's.
#[derive(Deserialize)]
#[serde(untagged)]
enum DecisionsEntry {
    Shared {
        crawlers: Vec<String>,
        verdicts: String,
    },
    One {
        crawler: String,
        allowed: Vec<Option<bool>>,
    },
}

/// Reads `decisions`, one [`Decisions`] per crawler.
fn decisions<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Decisions>, D::Error> {
    let mut v = Vec::new();
    for e in Vec::<DecisionsEntry>::deserialize(d)? {
        match e {
            DecisionsEntry::One { crawler, allowed } => v.push(Decisions { crawler, allowed }),
            DecisionsEntry::Shared { crawlers, verdicts } => {
                let allowed: Vec<Option<bool>> = verdicts
                    .chars()
                    .map(|c| crate::report::summary::shared_decisions::verdict(c).flatten())
                    .collect();
                v.extend(crawlers.into_iter().map(|crawler| Decisions {
                    crawler,
                    allowed: allowed.clone(),
                }));
            }
        }
    }
    Ok(v)
}

/// `ai_crawlers` as written: an object from product token to access, or (earlier versions) a
/// list of entries.
#[derive(Deserialize)]
#[serde(untagged)]
enum AiCrawlers {
    Map(
        #[serde(deserialize_with = "crate::report::summary::ai_map::deserialize")]
        Vec<crate::report::summary::AiAccess>,
    ),
    List(Vec<AiCrawler>),
}

/// Reads `ai_crawlers`, one [`AiCrawler`] per crawler.
fn ai_crawlers<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<AiCrawler>, D::Error> {
    Ok(match AiCrawlers::deserialize(d)? {
        AiCrawlers::List(v) => v,
        AiCrawlers::Map(m) => m
            .into_iter()
            .map(|a| AiCrawler {
                crawler: a.crawler,
                access: a.access.as_str().to_string(),
            })
            .collect(),
    })
}

/// One AI crawler's access to a host.
#[derive(Clone, Debug, Deserialize)]
pub struct AiCrawler {
    /// Product token.
    pub crawler: String,
    /// `blocked`, `partly`, `open` or `unknown`.
    pub access: String,
}

impl Host {
    fn verdict(&self, crawler: &str, path: &str) -> Option<Option<bool>> {
        let j = self.paths.iter().position(|p| p == path)?;
        let row = self
            .decisions
            .iter()
            .find(|d| d.crawler.eq_ignore_ascii_case(crawler))?;
        row.allowed.get(j).copied()
    }

    fn access(&self, crawler: &str) -> Option<Access> {
        let a = self
            .ai_crawlers
            .iter()
            .find(|a| a.crawler.eq_ignore_ascii_case(crawler))?;
        Access::ALL.into_iter().find(|x| x.as_str() == a.access)
    }
}

/// The hosts of one audit, by name.
#[derive(Clone, Debug, Default)]
pub struct Audit {
    /// Hosts by name.
    pub hosts: BTreeMap<String, Host>,
}

impl Audit {
    /// Reads a `hosts.jsonl` file, one row at a time.
    ///
    /// # Errors
    /// A message naming the file (and line) when it cannot be read, a line is not a host row
    /// or is longer than [`MAX_LINE`].
    pub fn read(path: &Path) -> Result<Audit, String> {
        let fail = |e: io::Error| {
            format!(
                "{}: {}",
                path.display(),
                crate::cli::inputs::describe_io(&e)
            )
        };
        let f = std::fs::File::open(path).map_err(fail)?;
        let mut r = io::BufReader::new(f);
        let mut audit = Audit::default();
        let mut buf = Vec::new();
        let mut n = 0;
        loop {
            buf.clear();
            let got = io::Read::take(&mut r, MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut buf)
                .map_err(fail)?;
            if got == 0 {
                break;
            }
            n += 1;
            if buf.len() > MAX_LINE {
                return Err(format!(
                    "{} line {n}: longer than {} MiB",
                    path.display(),
                    MAX_LINE >> 20
                ));
            }
            if buf.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let mut h: Host = serde_json::from_slice(&buf).map_err(|e| {
                format!(
                    "{} line {n}: not a host row of a report's hosts.jsonl ({e})",
                    path.display()
                )
            })?;
            h.line = n;
            audit.hosts.insert(h.host.to_ascii_lowercase(), h);
        }
        Ok(audit)
    }
}

/// Old and new values.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Pair<T> {
    /// In the old audit.
    pub old: T,
    /// In the new audit.
    pub new: T,
}

/// A verdict that changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HostVerdict {
    /// Product token.
    pub crawler: String,
    /// The path.
    pub path: String,
    /// Allowed before (`None`: unknown).
    pub old: Option<bool>,
    /// Allowed now.
    pub new: Option<bool>,
}

/// An AI crawler whose access changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AccessChange {
    /// Product token.
    pub crawler: String,
    /// Before.
    pub old: Access,
    /// Now.
    pub new: Access,
}

/// A host in both audits that changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HostChange {
    /// Host name.
    pub host: String,
    /// Its 1-based line in the new `hosts.jsonl`.
    pub line: usize,
    /// The fetch outcome, when it changed.
    pub outcome: Option<Pair<String>>,
    /// The effect, when it changed.
    pub effect: Option<Pair<Option<String>>>,
    /// Crawlers that may no longer fetch `/` (matrix crawlers allowed before, disallowed now;
    /// AI crawlers now `blocked` that were not).
    pub newly_blocked: Vec<String>,
    /// Crawlers that may fetch `/` again.
    pub freed: Vec<String>,
    /// Every verdict of the matrices that changed, on paths both reports decided.
    pub verdicts: Vec<HostVerdict>,
    /// AI crawlers whose access changed.
    pub ai_access: Vec<AccessChange>,
}

/// Totals for one AI crawler.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct AiTotal {
    /// Product token.
    pub crawler: String,
    /// Hosts in both audits that block it from `/` now and did not.
    pub started_blocking: usize,
    /// Hosts in both audits that blocked it and no longer do.
    pub stopped_blocking: usize,
    /// Hosts of the old audit that block it.
    pub blocking_old: usize,
    /// Hosts of the new audit that block it.
    pub blocking_new: usize,
}

/// Totals for one matrix crawler.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CrawlerTotal {
    /// Product token.
    pub crawler: String,
    /// Hosts where it may no longer fetch `/`.
    pub newly_blocked: usize,
    /// Hosts where it may fetch `/` again.
    pub freed: usize,
}

/// Totals of a comparison.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Totals {
    /// Hosts of the old audit.
    pub old_hosts: usize,
    /// Hosts of the new audit.
    pub new_hosts: usize,
    /// Hosts only in the new audit.
    pub added: usize,
    /// Hosts only in the old audit.
    pub gone: usize,
    /// Hosts in both that changed.
    pub changed: usize,
    /// Per known AI crawler (those either audit lists), in the order of `crawlers.yaml`.
    pub ai_crawlers: Vec<AiTotal>,
    /// Per matrix crawler of either audit.
    pub crawlers: Vec<CrawlerTotal>,
}

/// The comparison of two audits.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct AuditDiff {
    /// Hosts only in the new audit.
    pub added: Vec<String>,
    /// Hosts only in the old audit.
    pub gone: Vec<String>,
    /// Hosts in both that changed, by name.
    pub changed: Vec<HostChange>,
    /// Totals.
    pub totals: Totals,
}

/// Compares two audits host by host.
pub fn compare(old: &Audit, new: &Audit) -> AuditDiff {
    let mut d = AuditDiff::default();
    let mut ai: Vec<AiTotal> = crate::crawlers::known()
        .iter()
        .filter(|c| c.purpose.is_ai())
        .map(|c| AiTotal {
            crawler: c.token.clone(),
            ..AiTotal::default()
        })
        .collect();
    let mut crawlers: Vec<CrawlerTotal> = Vec::new();
    for (audit, old_side) in [(old, true), (new, false)] {
        for h in audit.hosts.values() {
            for t in &mut ai {
                if h.access(&t.crawler) == Some(Access::Blocked) {
                    if old_side {
                        t.blocking_old += 1;
                    } else {
                        t.blocking_new += 1;
                    }
                }
            }
            for row in &h.decisions {
                if !crawlers
                    .iter()
                    .any(|c| c.crawler.eq_ignore_ascii_case(&row.crawler))
                {
                    crawlers.push(CrawlerTotal {
                        crawler: row.crawler.clone(),
                        ..CrawlerTotal::default()
                    });
                }
            }
        }
    }
    d.added = new
        .hosts
        .iter()
        .filter(|(k, _)| !old.hosts.contains_key(*k))
        .map(|(_, h)| h.host.clone())
        .collect();
    d.gone = old
        .hosts
        .iter()
        .filter(|(k, _)| !new.hosts.contains_key(*k))
        .map(|(_, h)| h.host.clone())
        .collect();
    for (k, n) in &new.hosts {
        let Some(o) = old.hosts.get(k) else { continue };
        let mut c = HostChange {
            host: n.host.clone(),
            line: n.line,
            outcome: (o.outcome != n.outcome).then(|| Pair {
                old: o.outcome.clone(),
                new: n.outcome.clone(),
            }),
            effect: (o.effect != n.effect).then(|| Pair {
                old: o.effect.clone(),
                new: n.effect.clone(),
            }),
            newly_blocked: Vec::new(),
            freed: Vec::new(),
            verdicts: Vec::new(),
            ai_access: Vec::new(),
        };
        for row in &n.decisions {
            for path in &n.paths {
                let (Some(a), Some(b)) =
                    (o.verdict(&row.crawler, path), n.verdict(&row.crawler, path))
                else {
                    continue;
                };
                if a == b {
                    continue;
                }
                c.verdicts.push(HostVerdict {
                    crawler: row.crawler.clone(),
                    path: path.clone(),
                    old: a,
                    new: b,
                });
                if path == "/" {
                    let total = crawlers
                        .iter_mut()
                        .find(|t| t.crawler.eq_ignore_ascii_case(&row.crawler));
                    match (a, b) {
                        (Some(true), Some(false)) => {
                            c.newly_blocked.push(row.crawler.clone());
                            if let Some(t) = total {
                                t.newly_blocked += 1;
                            }
                        }
                        (Some(false), Some(true)) => {
                            c.freed.push(row.crawler.clone());
                            if let Some(t) = total {
                                t.freed += 1;
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        for t in &mut ai {
            let (Some(a), Some(b)) = (o.access(&t.crawler), n.access(&t.crawler)) else {
                continue;
            };
            if a == b {
                continue;
            }
            c.ai_access.push(AccessChange {
                crawler: t.crawler.clone(),
                old: a,
                new: b,
            });
            let has = |v: &Vec<String>| v.iter().any(|x| x.eq_ignore_ascii_case(&t.crawler));
            if b == Access::Blocked {
                t.started_blocking += 1;
                if a != Access::Unknown && !has(&c.newly_blocked) {
                    c.newly_blocked.push(t.crawler.clone());
                }
            } else if a == Access::Blocked {
                t.stopped_blocking += 1;
                if b != Access::Unknown && !has(&c.freed) {
                    c.freed.push(t.crawler.clone());
                }
            }
        }
        if c.outcome.is_some()
            || c.effect.is_some()
            || !c.verdicts.is_empty()
            || !c.ai_access.is_empty()
        {
            d.changed.push(c);
        }
    }
    ai.retain(|t| {
        old.hosts
            .values()
            .chain(new.hosts.values())
            .any(|h| h.access(&t.crawler).is_some())
    });
    d.totals = Totals {
        old_hosts: old.hosts.len(),
        new_hosts: new.hosts.len(),
        added: d.added.len(),
        gone: d.gone.len(),
        changed: d.changed.len(),
        ai_crawlers: ai,
        crawlers,
    };
    d
}

impl FailRule {
    /// Whether the comparison of two audits fails the run: `access` when a watched crawler
    /// may no longer fetch a watched path on some host (allowed before, disallowed now), `any`
    /// on any verdict change.
    pub fn fails_audit(&self, d: &AuditDiff) -> bool {
        match self.on {
            FailOn::Never => false,
            FailOn::Any => d
                .changed
                .iter()
                .any(|c| !c.verdicts.is_empty() || !c.ai_access.is_empty()),
            FailOn::Access => d.changed.iter().any(|c| {
                c.verdicts.iter().any(|v| {
                    v.old == Some(true)
                        && v.new == Some(false)
                        && self.watches(&v.crawler)
                        && self.watches_path(&v.path)
                })
            }),
        }
    }
}

#[derive(Serialize)]
struct AuditDoc<'a> {
    schema: &'static str,
    kind: &'static str,
    old: &'a str,
    new: &'a str,
    fails: bool,
    #[serde(flatten)]
    diff: &'a AuditDiff,
}

fn verdict_word(v: Option<bool>) -> &'static str {
    match v {
        Some(true) => "allowed",
        Some(false) => "disallowed",
        None => "unknown",
    }
}

/// Search crawlers newly blocked from `/`, per host.
fn search_blocked(d: &AuditDiff) -> Vec<(&str, Vec<&str>)> {
    d.changed
        .iter()
        .filter_map(|c| {
            let who: Vec<&str> = c
                .newly_blocked
                .iter()
                .filter(|x| super::is_search(x))
                .map(String::as_str)
                .collect();
            (!who.is_empty()).then_some((c.host.as_str(), who))
        })
        .collect()
}

/// Writes the comparison of two audits in `format`; `fails` says whether `--fail-on` was
/// reached.
///
/// # Errors
/// Errors of `out`.
pub fn write(
    out: &mut dyn Write,
    format: Format,
    t: &Target,
    d: &AuditDiff,
    fails: bool,
) -> io::Result<()> {
    match format {
        Format::Json => {
            let doc = AuditDoc {
                schema: super::SCHEMA,
                kind: "audits",
                old: t.old,
                new: t.new,
                fails,
                diff: d,
            };
            serde_json::to_writer(&mut *out, &doc)?;
            writeln!(out)
        }
        Format::Text => text(out, t, d),
        Format::Markdown => markdown(out, t, d),
        Format::Github => github(out, t, d),
    }
}

fn e(s: &str) -> std::borrow::Cow<'_, str> {
    escape_control(s)
}

fn text(out: &mut dyn Write, t: &Target, d: &AuditDiff) -> io::Result<()> {
    let n = &d.totals;
    writeln!(
        out,
        "{} → {}: {} → {} hosts; {} added, {} gone, {} changed",
        e(t.old),
        e(t.new),
        n.old_hosts,
        n.new_hosts,
        n.added,
        n.gone,
        n.changed
    )?;
    let blocked = search_blocked(d);
    if blocked.is_empty() {
        writeln!(
            out,
            "No search crawler is newly blocked from / on any host."
        )?;
    } else {
        for (host, who) in &blocked {
            writeln!(
                out,
                "Search crawlers newly blocked from / on {}: {}",
                e(host),
                who.join(", ")
            )?;
        }
    }
    for (label, hosts) in [("Added", &d.added), ("Gone", &d.gone)] {
        if !hosts.is_empty() {
            writeln!(out, "\n{label}:")?;
            for h in hosts {
                writeln!(out, "  {}", e(h))?;
            }
        }
    }
    if !d.changed.is_empty() {
        writeln!(out, "\nChanged:")?;
    }
    for c in &d.changed {
        writeln!(out, "  {}", e(&c.host))?;
        if let Some(p) = &c.outcome {
            writeln!(out, "    outcome: {} → {}", e(&p.old), e(&p.new))?;
        }
        if let Some(p) = &c.effect {
            writeln!(
                out,
                "    effect: {} → {}",
                p.old.as_deref().unwrap_or("none"),
                p.new.as_deref().unwrap_or("none")
            )?;
        }
        if !c.newly_blocked.is_empty() {
            writeln!(
                out,
                "    newly blocked from /: {}",
                e(&c.newly_blocked.join(", "))
            )?;
        }
        if !c.freed.is_empty() {
            writeln!(out, "    freed on /: {}", e(&c.freed.join(", ")))?;
        }
        for v in &c.verdicts {
            writeln!(
                out,
                "    {} {}: {} → {}",
                e(&v.crawler),
                e(&v.path),
                verdict_word(v.old),
                verdict_word(v.new)
            )?;
        }
        for a in &c.ai_access {
            writeln!(
                out,
                "    {}: {} → {}",
                e(&a.crawler),
                a.old.label(),
                a.new.label()
            )?;
        }
    }
    let moved: Vec<&AiTotal> = n
        .ai_crawlers
        .iter()
        .filter(|a| a.started_blocking + a.stopped_blocking > 0)
        .collect();
    if !moved.is_empty() {
        writeln!(
            out,
            "\nAI crawlers (hosts that started / stopped blocking them from /):"
        )?;
        for a in moved {
            writeln!(
                out,
                "  {}: +{} −{} (hosts blocking: {} → {})",
                a.crawler, a.started_blocking, a.stopped_blocking, a.blocking_old, a.blocking_new
            )?;
        }
    }
    Ok(())
}

fn markdown(out: &mut dyn Write, t: &Target, d: &AuditDiff) -> io::Result<()> {
    let n = &d.totals;
    writeln!(out, "### Audit: {} → {}\n", md_code(t.old), md_code(t.new))?;
    let blocked = search_blocked(d);
    if blocked.is_empty() {
        writeln!(
            out,
            "**✅ No search crawler is newly blocked from `/` on any host.**\n"
        )?;
    } else {
        let list: Vec<String> = blocked
            .iter()
            .map(|(h, who)| format!("{} ({})", md_code(h), md_text(&who.join(", "))))
            .collect();
        writeln!(
            out,
            "**⚠️ Search crawlers newly blocked from `/`:** {}\n",
            list.join("; ")
        )?;
    }
    writeln!(
        out,
        "{} → {} hosts: {} added, {} gone, {} changed.\n",
        n.old_hosts, n.new_hosts, n.added, n.gone, n.changed
    )?;
    if !d.changed.is_empty() {
        writeln!(
            out,
            "| Host | Outcome | Newly blocked from `/` | Freed on `/` | Verdicts changed |"
        )?;
        writeln!(out, "| --- | --- | --- | --- | --- |")?;
        for c in &d.changed {
            let outcome = match &c.outcome {
                Some(p) => format!("{} → {}", md_text(&p.old), md_text(&p.new)),
                None => "–".to_string(),
            };
            let list = |v: &[String]| {
                if v.is_empty() {
                    "–".to_string()
                } else {
                    md_text(&v.join(", "))
                }
            };
            writeln!(
                out,
                "| {} | {outcome} | {} | {} | {} |",
                md_code(&c.host),
                list(&c.newly_blocked),
                list(&c.freed),
                c.verdicts.len()
            )?;
        }
        writeln!(out)?;
        writeln!(out, "<details><summary>Every change per host</summary>\n")?;
        for c in &d.changed {
            writeln!(out, "- {}", md_code(&c.host))?;
            if let Some(p) = &c.effect {
                writeln!(
                    out,
                    "  - effect: {} → {}",
                    p.old.as_deref().unwrap_or("none"),
                    p.new.as_deref().unwrap_or("none")
                )?;
            }
            for v in &c.verdicts {
                writeln!(
                    out,
                    "  - {} on {}: {} → {}",
                    md_text(&v.crawler),
                    md_code(&v.path),
                    verdict_word(v.old),
                    verdict_word(v.new)
                )?;
            }
            for a in &c.ai_access {
                writeln!(
                    out,
                    "  - {}: {} → {}",
                    md_text(&a.crawler),
                    a.old.label(),
                    a.new.label()
                )?;
            }
        }
        writeln!(out, "\n</details>\n")?;
    }
    for (label, hosts) in [("Hosts added", &d.added), ("Hosts gone", &d.gone)] {
        if !hosts.is_empty() {
            writeln!(
                out,
                "<details><summary>{label}: {}</summary>\n",
                hosts.len()
            )?;
            for h in hosts {
                writeln!(out, "- {}", md_code(h))?;
            }
            writeln!(out, "\n</details>\n")?;
        }
    }
    if !n.ai_crawlers.is_empty() {
        writeln!(
            out,
            "<details><summary>AI crawlers: hosts blocking them from `/`</summary>\n"
        )?;
        writeln!(
            out,
            "| Crawler | Started blocking | Stopped blocking | Blocking before | Blocking now |"
        )?;
        writeln!(out, "| --- | ---: | ---: | ---: | ---: |")?;
        for a in &n.ai_crawlers {
            writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                md_text(&a.crawler),
                a.started_blocking,
                a.stopped_blocking,
                a.blocking_old,
                a.blocking_new
            )?;
        }
        writeln!(out, "\n</details>\n")?;
    }
    Ok(())
}

fn github(out: &mut dyn Write, t: &Target, d: &AuditDiff) -> io::Result<()> {
    for c in &d.changed {
        let mut parts = Vec::new();
        if let Some(p) = &c.outcome {
            parts.push(format!("outcome {} → {}", p.old, p.new));
        }
        if !c.newly_blocked.is_empty() {
            parts.push(format!(
                "newly blocked from /: {}",
                c.newly_blocked.join(", ")
            ));
        }
        if !c.freed.is_empty() {
            parts.push(format!("freed on /: {}", c.freed.join(", ")));
        }
        let others = c.verdicts.iter().filter(|v| v.path != "/").count();
        if others > 0 {
            parts.push(format!("{others} other verdicts changed"));
        }
        if parts.is_empty() {
            parts.push("AI crawler access changed".to_string());
        }
        let level = if c.newly_blocked.iter().any(|x| super::is_search(x)) {
            "warning"
        } else {
            "notice"
        };
        writeln!(
            out,
            "::{level} file={},line={},title={}::{}",
            escape_property(t.new),
            c.line,
            escape_property(&format!("audit diff: {}", c.host)),
            escape_data(&format!("{}: {}", c.host, parts.join("; ")))
        )?;
    }
    let n = &d.totals;
    writeln!(
        out,
        "::notice file={},title={}::{}",
        escape_property(t.new),
        escape_property("audit diff"),
        escape_data(&format!(
            "{} → {} hosts: {} added, {} gone, {} changed",
            n.old_hosts, n.new_hosts, n.added, n.gone, n.changed
        ))
    )
}
