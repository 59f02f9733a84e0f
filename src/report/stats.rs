//! Statistics across hosts: `statistics.html` (SVG charts drawn here, each with its numbers in
//! a table beside it) and `statistics.json` (the same numbers).
//!
//! Counted per host as its row arrives ([`Stats::add`]), so memory does not grow with the
//! number of hosts, except for the product tokens named, of which at most [`MAX_TOKENS`]
//! distinct ones are counted (later new ones are counted together as "other").
//!
//! # `statistics.json`
//!
//! ```text
//! {
//!   "schema": "robots-explorer/report-statistics/1",
//!   "hosts": 4374, "reading": "google",
//!   "outcomes": [{"name": "successful", "hosts": 4300}, …],       // Outcome::ALL, then "unread"
//!   "sidecars_not_read": 0,                                       // counted as not-recorded
//!   "status_classes": [{"name": "2xx", "hosts": 4300}, …],       // 1xx … 5xx, "none"
//!   "sizes": [{"name": "1 KB to 10 KB", "min_bytes": 1000, "max_bytes": 9999, "hosts": 2000}, …],
//!   "user_agents": {"distinct": 3000, "counted": 3000, "top": [{"token": "*", "hosts": 4000}, …]},
//!   "ai_crawlers": [{"crawler": "GPTBot", "blocked": 1200, "partly": 40, "open": 3000, "unknown": 134}, …],
//!   "diagnostics": [{"name": "redundant-rule", "severity": "info", "hosts": 900, "occurrences": 41690}, …],
//!   "severities": {"error": 1, "warning": 2, "info": 3},         // diagnostics in the reading
//!   "readings": {"hosts_where_decisions_differ": 12, "hosts_with_google_only_findings": 3,
//!                "hosts_with_rfc_only_findings": 4}
//! }
//! ```
//!
//! `ai_crawlers` counts, per known AI crawler, hosts that block it from `/`, that let it fetch
//! `/` but disallow it some paths, that disallow it nothing, and whose fetch record does not
//! say (see [`super::summary::Access`]), with the fetch outcome applied.

use super::sink::Affected;
use super::summary::{Access, HostRow, Totals};
use crate::analysis::Readings;
use crate::html::Html;
use crate::text::thousands;
use serde_json::json;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Distinct product tokens counted; past it, tokens not met before are counted as "other".
pub const MAX_TOKENS: usize = 100_000;

/// Product tokens listed on the page and in the JSON.
pub const TOP_TOKENS: usize = 30;

/// Diagnostics listed on the page's chart (all are in the table and the JSON).
pub const TOP_DIAGNOSTICS: usize = 25;

/// File size classes: (label, smallest, largest) in bytes.
const SIZES: [(&str, u64, u64); 7] = [
    ("empty", 0, 0),
    ("under 1 KB", 1, 999),
    ("1 KB to 10 KB", 1_000, 9_999),
    ("10 KB to 100 KB", 10_000, 99_999),
    ("100 KB to 500 KiB", 100_000, 512_000),
    ("over 500 KiB (past Google's limit)", 512_001, u64::MAX),
    ("no file", u64::MAX, u64::MAX),
];

/// Counts across hosts (see the module documentation).
#[derive(Debug)]
pub struct Stats {
    hosts: usize,
    outcomes: Vec<usize>,
    status_classes: [usize; 6],
    sizes: [usize; SIZES.len()],
    tokens: rustc_hash::FxHashMap<String, usize>,
    other_tokens: usize,
    ai: Vec<(String, [usize; 4])>,
    differ: usize,
    google_only: usize,
    rfc_only: usize,
    /// Hosts whose sidecar could not be used (counted under their outcome, which is then
    /// `not-recorded`).
    sidecars_not_read: usize,
}

impl Stats {
    /// Empty counts for a run.
    pub fn new(_crawlers: &[String]) -> Stats {
        Stats {
            hosts: 0,
            outcomes: vec![0; crate::fetch::Outcome::ALL.len() + 1],
            status_classes: [0; 6],
            sizes: [0; SIZES.len()],
            tokens: Default::default(),
            other_tokens: 0,
            ai: crate::crawlers::known()
                .iter()
                .filter(|c| c.purpose.is_ai())
                .map(|c| (c.token.clone(), [0; 4]))
                .collect(),
            differ: 0,
            google_only: 0,
            rfc_only: 0,
            sidecars_not_read: 0,
        }
    }

    /// Counts one host.
    pub fn add(&mut self, r: &HostRow) {
        self.hosts += 1;
        let outcome = if r.read_error.is_some() {
            "unread"
        } else {
            r.outcome.as_str()
        };
        self.outcomes[super::sink::outcome_code(outcome)] += 1;
        let class = match r.status {
            Some(s @ 100..=599) => usize::from(s / 100) - 1,
            _ => 5,
        };
        self.status_classes[class] += 1;
        let size = match r.bytes {
            None => SIZES.len() - 1,
            Some(b) => SIZES[..SIZES.len() - 1]
                .iter()
                .position(|&(_, lo, hi)| lo <= b && b <= hi)
                .unwrap_or(SIZES.len() - 2),
        };
        self.sizes[size] += 1;
        for t in &r.user_agents {
            if let Some(n) = self.tokens.get_mut(t) {
                *n += 1;
            } else if self.tokens.len() < MAX_TOKENS {
                self.tokens.insert(t.clone(), 1);
            } else {
                self.other_tokens += 1;
            }
        }
        for (slot, a) in self.ai.iter_mut().zip(&r.ai_crawlers) {
            let i = Access::ALL.iter().position(|x| *x == a.access).unwrap_or(3);
            slot.1[i] += 1;
        }
        self.differ += usize::from(r.readings_differ);
        self.sidecars_not_read += usize::from(r.sidecar_error.is_some());
        let only = |x: Readings| r.diagnostics.iter().any(|d| d.readings == x);
        self.google_only += usize::from(only(Readings::Google));
        self.rfc_only += usize::from(only(Readings::Rfc));
    }

    fn top_tokens(&self) -> Vec<(&str, usize)> {
        let mut v: Vec<(&str, usize)> = self.tokens.iter().map(|(t, n)| (t.as_str(), *n)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        v.truncate(TOP_TOKENS);
        v
    }

    /// Diagnostics by prevalence: errors first, then warnings, then infos, most hosts first.
    fn diagnostics(
        affected: &BTreeMap<String, Affected>,
    ) -> Vec<(&str, &'static str, usize, usize)> {
        let mut v: Vec<(&str, crate::analysis::Severity, usize, usize)> = affected
            .iter()
            .map(|(n, a)| {
                (
                    n.as_str(),
                    a.severity.unwrap_or(crate::analysis::Severity::Info),
                    a.hosts,
                    a.occurrences,
                )
            })
            .collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.cmp(&a.2)).then(a.0.cmp(b.0)));
        v.into_iter()
            .map(|(n, s, h, o)| (n, s.as_str(), h, o))
            .collect()
    }

    /// `statistics.json` (see the module documentation).
    pub fn json(
        &self,
        totals: &Totals,
        affected: &BTreeMap<String, Affected>,
        reading: crate::Reading,
    ) -> serde_json::Value {
        let named = |names: &[&str], counts: &[usize]| -> Vec<serde_json::Value> {
            names
                .iter()
                .zip(counts)
                .map(|(n, c)| json!({ "name": n, "hosts": c }))
                .collect()
        };
        json!({
            "schema": "robots-explorer/report-statistics/1",
            "hosts": self.hosts,
            "reading": reading.as_str(),
            "outcomes": named(
                &super::sink::outcomes().iter().map(|(n, _)| *n).collect::<Vec<_>>(),
                &self.outcomes
            ),
            "sidecars_not_read": self.sidecars_not_read,
            "status_classes": named(&["1xx", "2xx", "3xx", "4xx", "5xx", "none"], &self.status_classes),
            "sizes": SIZES.iter().zip(&self.sizes).map(|(&(label, lo, hi), n)| {
                if label == "no file" {
                    json!({ "name": label, "hosts": n })
                } else {
                    json!({ "name": label, "min_bytes": lo, "max_bytes": (hi != u64::MAX).then_some(hi), "hosts": n })
                }
            }).collect::<Vec<_>>(),
            "user_agents": {
                "distinct": self.tokens.len() + usize::from(self.other_tokens > 0),
                "counted": self.tokens.len(),
                "other_hosts": self.other_tokens,
                "top": self.top_tokens().iter().map(|(t, n)| json!({ "token": t, "hosts": n })).collect::<Vec<_>>(),
            },
            "ai_crawlers": self.ai.iter().map(|(t, c)| json!({
                "crawler": t, "blocked": c[0], "partly": c[1], "open": c[2], "unknown": c[3],
            })).collect::<Vec<_>>(),
            "diagnostics": Self::diagnostics(affected).iter().map(|(n, s, h, o)| json!({
                "name": n, "severity": s, "hosts": h, "occurrences": o,
            })).collect::<Vec<_>>(),
            "severities": { "error": totals.error, "warning": totals.warning, "info": totals.info },
            "readings": {
                "hosts_where_decisions_differ": self.differ,
                "hosts_with_google_only_findings": self.google_only,
                "hosts_with_rfc_only_findings": self.rfc_only,
            },
        })
    }

    /// The sections of `statistics.html`, each a chart and its table.
    pub fn sections(&self, totals: &Totals, affected: &BTreeMap<String, Affected>) -> Vec<Section> {
        let hosts = self.hosts.max(1);
        let share = |n: usize| format!("{:.1} %", n as f64 * 100.0 / hosts as f64);
        let simple = |id: &'static str, title: &str, note: &str, rows: Vec<(String, usize)>| {
            let chart = bar_chart(title, &rows, hosts);
            Section {
                id,
                title: Html::text(title),
                note: Html::text(note),
                chart: Html(chart),
                head: vec![Html::text("What"), Html::text("Hosts"), Html::text("Share")],
                rows: rows
                    .iter()
                    .map(|(l, n)| {
                        vec![
                            Html::text(l),
                            Html::text(&thousands(*n)),
                            Html::text(&share(*n)),
                        ]
                    })
                    .collect(),
            }
        };
        let mut out = vec![
            simple(
                "outcomes",
                "Fetch outcomes",
                &format!(
                    "How each host's robots.txt fetch ended (RFC 9309 §2.3.1), from the sidecars. \
                     {} could not be read; those hosts count as not recorded.",
                    crate::text::count(self.sidecars_not_read, "sidecar", "sidecars")
                ),
                super::sink::outcomes()
                    .iter()
                    .zip(&self.outcomes)
                    .map(|((_, label), c)| (label.to_string(), *c))
                    .collect(),
            ),
            simple(
                "status",
                "HTTP status classes",
                "The final status of each fetch; none when no status was recorded (a network error, or no sidecar).",
                ["1xx", "2xx", "3xx", "4xx", "5xx", "none"]
                    .iter()
                    .zip(&self.status_classes)
                    .map(|(n, c)| (n.to_string(), *c))
                    .collect(),
            ),
            simple(
                "sizes",
                "File sizes",
                "Bytes of each robots.txt file; Google reads the first 500 KiB.",
                SIZES
                    .iter()
                    .zip(&self.sizes)
                    .map(|((l, _, _), c)| (l.to_string(), *c))
                    .collect(),
            ),
            simple(
                "user-agents",
                "User-agents most often named",
                "Hosts whose file has a group naming each product token (lower-cased; * is the group for every crawler).",
                self.top_tokens()
                    .iter()
                    .map(|(t, n)| (t.to_string(), *n))
                    .collect(),
            ),
        ];
        // AI crawlers: one stacked bar each.
        let ai_rows: Vec<(String, [usize; 4])> =
            self.ai.iter().map(|(t, c)| (t.clone(), *c)).collect();
        out.push(Section {
            id: "ai-crawlers",
            title: Html::text("Known AI crawlers: who is shut out"),
            note: Html::text(
                "Per crawler, hosts that block it from / (the whole site), that let it fetch / but disallow it some paths, that disallow it nothing, and whose fetch record does not say; with the fetch outcome applied.",
            ),
            chart: Html(stacked_chart(&ai_rows, hosts)),
            head: ["Crawler", "Blocked from /", "Partly", "Not blocked", "Unknown", "Blocked share"]
                .iter()
                .map(|h| Html::text(h))
                .collect(),
            rows: ai_rows
                .iter()
                .map(|(t, c)| {
                    let mut row = vec![Html::text(t)];
                    row.extend(c.iter().map(|n| Html::text(&thousands(*n))));
                    row.push(Html::text(&share(c[0])));
                    row
                })
                .collect(),
        });
        let diags = Self::diagnostics(affected);
        let chart_rows: Vec<(String, usize)> = diags
            .iter()
            .take(TOP_DIAGNOSTICS)
            .map(|(n, s, h, _)| (format!("{n} ({s})"), *h))
            .collect();
        out.push(Section {
            id: "diagnostics",
            title: Html::text("Diagnostics by severity and prevalence"),
            note: Html::text(&format!(
                "Hosts with each diagnostic (either reading), errors first. In the report's reading: {} errors, {} warnings, {} infos in all.",
                thousands(totals.error),
                thousands(totals.warning),
                thousands(totals.info)
            )),
            chart: Html(bar_chart("Diagnostics by hosts", &chart_rows, hosts)),
            head: ["Diagnostic", "Severity", "Hosts", "Occurrences", "Share of hosts"]
                .iter()
                .map(|h| Html::text(h))
                .collect(),
            rows: diags
                .iter()
                .map(|(n, s, h, o)| {
                    vec![
                        Html(format!(
                            "<a href=\"diagnostics/{}.html\">{}</a>",
                            Html::text(&super::names::slug(n)).0,
                            Html::text(n).0
                        )),
                        Html(format!("<span class=\"sev-{s}\">{s}</span>")),
                        Html::text(&thousands(*h)),
                        Html::text(&thousands(*o)),
                        Html::text(&share(*h)),
                    ]
                })
                .collect(),
        });
        out.push(simple(
            "readings",
            "Where the two readings differ",
            "Hosts where Google's reading and RFC 9309 decide differently for a crawler and path of the matrix (or treat the fetch outcome differently), and hosts with findings of one reading only.",
            vec![
                ("decisions differ".to_string(), self.differ),
                ("findings of Google's reading only".to_string(), self.google_only),
                ("findings of RFC 9309 only".to_string(), self.rfc_only),
            ],
        ));
        out
    }
}

/// One section of the statistics page.
pub struct Section {
    /// Fragment id.
    pub id: &'static str,
    /// Heading.
    pub title: Html,
    /// What is counted.
    pub note: Html,
    /// The chart (inline SVG).
    pub chart: Html,
    /// Table header cells.
    pub head: Vec<Html>,
    /// Table rows.
    pub rows: Vec<Vec<Html>>,
}

/// Width of a chart's bar area, in SVG user units.
const BAR_AREA: f64 = 420.0;
/// Width kept for labels left of the bars.
const LABEL_AREA: f64 = 250.0;
/// Height of one bar row.
const ROW: f64 = 22.0;

/// A horizontal bar chart of `rows` (label, hosts) scaled to `total` hosts, with each value
/// written after its bar.
fn bar_chart(title: &str, rows: &[(String, usize)], total: usize) -> String {
    let height = ROW * rows.len().max(1) as f64 + 8.0;
    let width = LABEL_AREA + BAR_AREA + 90.0;
    let mut svg = format!(
        "<svg class=\"chart\" viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"{}\" \
         preserveAspectRatio=\"xMinYMin meet\">",
        Html::text(title).0
    );
    for (i, (label, n)) in rows.iter().enumerate() {
        let y = 4.0 + ROW * i as f64;
        let w = BAR_AREA * *n as f64 / total.max(1) as f64;
        let _ = write!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" class=\"chart-label\">{}</text>\
             <rect x=\"{LABEL_AREA}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"{:.1}\" class=\"chart-bar\"></rect>\
             <text x=\"{:.1}\" y=\"{:.1}\" class=\"chart-value\">{}</text>",
            LABEL_AREA - 6.0,
            y + ROW * 0.65,
            Html::text(&crate::text::visible(label, 40)).0,
            y + 3.0,
            ROW - 6.0,
            LABEL_AREA + w + 4.0,
            y + ROW * 0.65,
            thousands(*n)
        );
    }
    svg.push_str("</svg>");
    svg
}

/// Stacked bars, one per crawler: blocked, partly, open, unknown, scaled to `total` hosts.
fn stacked_chart(rows: &[(String, [usize; 4])], total: usize) -> String {
    let height = ROW * rows.len().max(1) as f64 + 30.0;
    let width = LABEL_AREA + BAR_AREA + 20.0;
    let mut svg = format!(
        "<svg class=\"chart\" viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"Known AI crawlers: hosts that block them\" \
         preserveAspectRatio=\"xMinYMin meet\">"
    );
    for (i, (label, c)) in rows.iter().enumerate() {
        let y = 4.0 + ROW * i as f64;
        let _ = write!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" class=\"chart-label\">{}</text>",
            LABEL_AREA - 6.0,
            y + ROW * 0.65,
            Html::text(label).0
        );
        let mut x = LABEL_AREA;
        for (k, n) in c.iter().enumerate() {
            let w = BAR_AREA * *n as f64 / total.max(1) as f64;
            let _ = write!(
                svg,
                "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"{:.1}\" class=\"chart-{}\"><title>{}: {} {}</title></rect>",
                y + 3.0,
                ROW - 6.0,
                Access::ALL[k].as_str(),
                Html::text(label).0,
                thousands(*n),
                Access::ALL[k].label()
            );
            x += w;
        }
    }
    // The key.
    let y = 8.0 + ROW * rows.len() as f64;
    let mut x = LABEL_AREA;
    for a in Access::ALL {
        let _ = write!(
            svg,
            "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"12\" height=\"12\" class=\"chart-{}\"></rect>\
             <text x=\"{:.1}\" y=\"{:.1}\" class=\"chart-value\">{}</text>",
            a.as_str(),
            x + 16.0,
            y + 10.5,
            a.label()
        );
        x += 110.0;
    }
    svg.push_str("</svg>");
    svg
}
