//! Printing what `diff` found: two robots.txt files ([`crate::compare::FileDiff`]) here, two
//! audits in [`audit`]. Four formats: text for people, JSON (stable, documented in the README),
//! Markdown for `$GITHUB_STEP_SUMMARY` or a pull-request comment, and GitHub workflow commands
//! that annotate the new file's lines.
//!
//! # JSON for two files
//!
//! ```text
//! {
//!   "schema": "robots-explorer/diff/1", "kind": "files", "old": "a.txt", "new": "b.txt",
//!   "fails": false,                          // --fail-on was reached
//!   "search_crawlers_losing_access": [{"crawler": "Googlebot", "paths": ["/"]}],
//!   "crawlers": ["Googlebot", …, "*"],      // asked about; `*`: one no group names
//!   "paths": 41, "paths_left_out": 0,        // compared; drawn from patterns but not compared
//!   "verdicts": [{"paths": ["/", "/x"], "crawlers": ["Googlebot", …], "readings": "both",
//!                 "google": {"old": VERDICT, "new": VERDICT}, "rfc": {"old": …, "new": …}}],
//!   "rules": [{"readings": "both", "change": "added" | "removed" | "overridden",
//!              "old_line": 3 | null, "new_line": 4 | null, "user_agents": ["*"],
//!              "kind": "disallow", "pattern": "/x", "decided": 6}],   // decided: overridden only
//!   "groups": [{"readings": …, "change": "added" | "removed", "line": 7,
//!               "user_agents": ["GPTBot"], "rules": 1}],
//!   "diagnostics": [{"readings": …, "change": "introduced" | "fixed", "line": 3, "column": 1,
//!                    "name": "empty-disallow", "severity": "warning", "message": "…"}],
//!   "sitemaps": [{"readings": …, "change": "added" | "removed", "line": 9, "url": "…"}]
//! }
//! VERDICT = {"allowed": false, "reason": "longest-match",
//!            "rule": {"line": 3, "kind": "disallow", "pattern": "/"} | null,
//!            "text": "Disallow: /" | null, "via_token": "Googlebot"}   // via_token: when set
//! ```
//!
//! Lines are 1-based: `old_line` and a removed or fixed item's `line` are in the old file,
//! the others in the new one. `readings` is `both`, `google` or `rfc`: where the change is
//! found (for a verdict, where the verdict changes; both readings' answers are always given).

use crate::Reading;
use crate::analysis::{Readings, Severity};
use crate::cli::diff::FailOn;
use crate::compare::{Asked, Change, FileDiff, Verdict, VerdictChange};
use crate::output::escape_control;
use crate::output::github::{escape_data, escape_property};
use std::io::{self, Write};

pub mod audit;

/// Output format of `diff`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// For people: each kind of change under its heading.
    Text,
    /// One JSON document (schema `robots-explorer/diff/1`).
    Json,
    /// GitHub-flavoured Markdown: a headline, a table of changed verdicts, collapsible details.
    Markdown,
    /// GitHub Actions workflow commands annotating the new file's lines.
    Github,
}

/// The schema id of the JSON output.
pub const SCHEMA: &str = "robots-explorer/diff/1";

/// The two inputs, as named on the command line.
#[derive(Clone, Copy, Debug)]
pub struct Target<'a> {
    /// The old version.
    pub old: &'a str,
    /// The new version.
    pub new: &'a str,
}

/// When a comparison fails the run (`--fail-on`): the crawlers watched (by name: product
/// token), the paths watched (request targets; `None`: every path).
#[derive(Clone, Debug)]
pub struct FailRule {
    on: FailOn,
    watched: Vec<String>,
    paths: Option<Vec<String>>,
}

impl FailRule {
    /// A rule failing on `on`; `watched` crawlers (empty: every known search crawler), `paths`
    /// (`None`: all).
    pub fn new(on: FailOn, watched: Vec<String>, paths: Option<Vec<String>>) -> FailRule {
        FailRule { on, watched, paths }
    }

    /// Whether the crawler named `name` is watched.
    pub fn watches(&self, name: &str) -> bool {
        if self.watched.is_empty() {
            is_search(name)
        } else {
            self.watched.iter().any(|w| w.eq_ignore_ascii_case(name))
        }
    }

    /// Whether `path` is watched.
    pub fn watches_path(&self, path: &str) -> bool {
        self.paths
            .as_ref()
            .is_none_or(|p| p.iter().any(|x| x == path))
    }

    /// Whether the comparison of two files fails the run.
    pub fn fails(&self, diff: &FileDiff) -> bool {
        match self.on {
            FailOn::Never => false,
            FailOn::Any => !diff.verdicts.is_empty(),
            FailOn::Access => diff.verdicts.iter().any(|v| {
                v.paths.iter().any(|p| self.watches_path(p))
                    && (v.google.loses_access() || v.rfc.loses_access())
                    && v.crawlers.iter().any(|c| self.watches(c))
            }),
        }
    }
}

/// Whether `name` is the product token of a known search crawler.
pub fn is_search(name: &str) -> bool {
    crate::crawlers::find(name).is_some_and(|c| c.purpose == crate::crawlers::Purpose::Search)
}

/// The known search crawlers that lose access to some path, in either reading, with the paths.
pub fn search_losses(diff: &FileDiff) -> Vec<Loss> {
    let mut out: Vec<Loss> = Vec::new();
    for v in &diff.verdicts {
        if !(v.google.loses_access() || v.rfc.loses_access()) {
            continue;
        }
        for c in v.crawlers.iter().filter(|c| is_search(c)) {
            match out.iter_mut().find(|l| &l.crawler == c) {
                Some(l) => l.paths.extend(v.paths.iter().cloned()),
                None => out.push(Loss {
                    crawler: c.clone(),
                    paths: v.paths.clone(),
                }),
            }
        }
    }
    out
}

/// Losses of crawlers that lose the same paths, joined: (crawlers, paths).
fn joined(losses: &[Loss]) -> Vec<(Vec<&str>, &[String])> {
    let mut out: Vec<(Vec<&str>, &[String])> = Vec::new();
    for l in losses {
        match out.iter_mut().find(|(_, p)| *p == l.paths.as_slice()) {
            Some((c, _)) => c.push(&l.crawler),
            None => out.push((vec![&l.crawler], &l.paths)),
        }
    }
    out
}

/// A crawler that may no longer fetch some paths.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Loss {
    /// Its name (product token).
    pub crawler: String,
    /// The paths it loses, in the order compared.
    pub paths: Vec<String>,
}

#[derive(serde::Serialize)]
struct FilesDoc<'a> {
    schema: &'static str,
    kind: &'static str,
    old: &'a str,
    new: &'a str,
    fails: bool,
    search_crawlers_losing_access: Vec<Loss>,
    #[serde(flatten)]
    diff: &'a FileDiff,
}

/// Writes the comparison of two files in `format`; `fails` says whether `--fail-on` was reached.
///
/// # Errors
/// Errors of `out`.
pub fn write_files(
    out: &mut dyn Write,
    format: Format,
    t: &Target,
    diff: &FileDiff,
    asked: &[Asked],
    fails: bool,
) -> io::Result<()> {
    match format {
        Format::Json => {
            let doc = FilesDoc {
                schema: SCHEMA,
                kind: "files",
                old: t.old,
                new: t.new,
                fails,
                search_crawlers_losing_access: search_losses(diff),
                diff,
            };
            serde_json::to_writer(&mut *out, &doc)?;
            writeln!(out)
        }
        Format::Text => text(out, t, diff, asked),
        Format::Markdown => markdown(out, t, diff),
        Format::Github => github(out, t, diff),
    }
}

/// `ALLOWED` or `DISALLOWED`.
fn word(allowed: bool) -> &'static str {
    if allowed { "ALLOWED" } else { "DISALLOWED" }
}

/// Why a verdict came out so, in words: `line 3 \`Disallow: /\` (longest match)`.
fn why(v: &Verdict, code: fn(&str) -> String) -> String {
    let mut s = match (&v.rule, &v.text) {
        (Some(r), Some(t)) => format!(
            "line {} {}{}, {}",
            r.line,
            code(t),
            if r.derived { " [derived]" } else { "" },
            v.reason.phrase()
        ),
        _ => v.reason.phrase().to_string(),
    };
    if let Some(t) = &v.via_token {
        s.push_str(&format!(", by the {t} group"));
    }
    s
}

fn plain(s: &str) -> String {
    format!("`{}`", escape_control(s))
}

/// A note on the readings a change is found in (nothing when both).
fn readings_note(r: Readings) -> &'static str {
    match r {
        Readings::Both => "",
        Readings::Google => " [Google reading only]",
        Readings::Rfc => " [RFC 9309 reading only]",
    }
}

/// The first `max` names, then how many more.
fn some_names(names: &[String], max: usize, esc: fn(&str) -> String) -> String {
    let shown: Vec<String> = names.iter().take(max).map(|n| esc(n)).collect();
    if names.len() > max {
        format!("{} and {} more", shown.join(", "), names.len() - max)
    } else {
        shown.join(", ")
    }
}

fn esc_text(s: &str) -> String {
    escape_control(s).into_owned()
}

fn text(out: &mut dyn Write, t: &Target, d: &FileDiff, asked: &[Asked]) -> io::Result<()> {
    writeln!(
        out,
        "{} → {}: {} crawlers × {} paths compared in both readings{}",
        escape_control(t.old),
        escape_control(t.new),
        asked.len(),
        d.paths,
        if d.paths_left_out > 0 {
            format!(
                " ({} more paths drawn from the patterns left out)",
                d.paths_left_out
            )
        } else {
            String::new()
        }
    )?;
    if d.is_empty() {
        return writeln!(out, "No change in meaning.");
    }
    let losses = search_losses(d);
    if losses.is_empty() {
        writeln!(out, "No search crawler loses access.")?;
    } else {
        for (who, paths) in joined(&losses) {
            writeln!(
                out,
                "Search crawlers losing access: {} to {}",
                escape_control(&who.join(", ")),
                some_names(paths, 5, esc_text)
            )?;
        }
    }
    if !d.verdicts.is_empty() {
        writeln!(out, "\nVerdicts that change ({}):", d.verdicts.len())?;
        for v in &d.verdicts {
            writeln!(
                out,
                "  {}{}\n    for {}",
                some_names(&v.paths, 8, esc_text),
                readings_note(v.readings),
                some_names(&v.crawlers, 8, esc_text),
            )?;
            for (label, tr) in transitions(v) {
                writeln!(
                    out,
                    "    {label}{} ({}) → {} ({}){}",
                    word(tr.old.allowed),
                    why(&tr.old, plain),
                    word(tr.new.allowed),
                    why(&tr.new, plain),
                    if tr.changes() { "" } else { ", unchanged" }
                )?;
            }
        }
    }
    if !d.rules.is_empty() {
        writeln!(out, "\nRules:")?;
        for r in &d.rules {
            let c = &r.change;
            let at = match (c.old_line, c.new_line) {
                (Some(o), Some(n)) => format!("old line {o}, new line {n}"),
                (Some(o), None) => format!("old line {o}"),
                (None, Some(n)) => format!("new line {n}"),
                (None, None) => String::new(),
            };
            let extra = c.decided.map_or(String::new(), |n| {
                format!("; decided {n} answers before, none of them now")
            });
            writeln!(
                out,
                "  {} {:<10} {at}: {}: {} in the group of {}{extra}{}",
                sign(c.change),
                c.change.as_str(),
                c.kind.as_str(),
                plain(&c.pattern),
                agents(&c.user_agents, plain),
                readings_note(r.readings)
            )?;
        }
    }
    if !d.groups.is_empty() {
        writeln!(out, "\nGroups:")?;
        for g in &d.groups {
            let c = &g.change;
            writeln!(
                out,
                "  {} {:<10} {} line {}: {} ({}){}",
                sign(c.change),
                c.change.as_str(),
                side(c.change),
                c.line,
                agents(&c.user_agents, plain),
                crate::text::count(c.rules, "rule", "rules"),
                readings_note(g.readings)
            )?;
        }
    }
    if !d.diagnostics.is_empty() {
        writeln!(out, "\nDiagnostics:")?;
        for x in &d.diagnostics {
            let c = &x.change;
            let file = if c.change == Change::Fixed {
                t.old
            } else {
                t.new
            };
            writeln!(
                out,
                "  {} {:<10} {}:{}:{}: {}[{}]: {}{}",
                sign(c.change),
                c.change.as_str(),
                escape_control(file),
                c.line,
                c.column,
                c.severity.as_str(),
                c.name,
                escape_control(&c.message),
                readings_note(x.readings)
            )?;
        }
    }
    if !d.sitemaps.is_empty() {
        writeln!(out, "\nSitemaps:")?;
        for s in &d.sitemaps {
            let c = &s.change;
            writeln!(
                out,
                "  {} {:<10} {} line {}: {}{}",
                sign(c.change),
                c.change.as_str(),
                side(c.change),
                c.line,
                escape_control(&c.url),
                readings_note(s.readings)
            )?;
        }
    }
    Ok(())
}

/// `+`, `-` or `~`.
fn sign(c: Change) -> char {
    match c {
        Change::Added | Change::Introduced => '+',
        Change::Removed | Change::Fixed => '-',
        Change::Overridden => '~',
    }
}

/// Which file a change's line is in.
fn side(c: Change) -> &'static str {
    match c {
        Change::Removed | Change::Fixed => "old",
        _ => "new",
    }
}

/// `User-agent` values as a list: `*`, or `` `a`, `b` ``.
fn agents(names: &[String], code: fn(&str) -> String) -> String {
    names.iter().map(|n| code(n)).collect::<Vec<_>>().join(", ")
}

/// The transitions to show for a change: one when both readings answer alike, else each
/// reading's, labelled.
fn transitions(v: &VerdictChange) -> Vec<(&'static str, &crate::compare::Transition)> {
    if v.google == v.rfc {
        vec![("", &v.google)]
    } else {
        vec![("Google:   ", &v.google), ("RFC 9309: ", &v.rfc)]
    }
}

/// Text for Markdown outside code: characters Markdown or HTML would read are escaped.
pub fn md_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in escape_control(s).chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '#' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '&' => out.push_str("&amp;"),
            c => out.push(c),
        }
    }
    out
}

/// One of our messages in Markdown: its `code spans` are kept, `|` is escaped for a table
/// cell, and `<` and `&` outside code spans are written as entities.
pub fn md_message(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_code = false;
    for c in escape_control(s).chars() {
        match c {
            '`' => {
                in_code = !in_code;
                out.push(c);
            }
            '|' => out.push_str("\\|"),
            '<' if !in_code => out.push_str("&lt;"),
            '&' if !in_code => out.push_str("&amp;"),
            c => out.push(c),
        }
    }
    out
}

/// A Markdown code span holding `s` as it is (for a table cell: `|` is escaped, which GitHub
/// reads inside code spans in tables).
pub fn md_code(s: &str) -> String {
    let s = escape_control(s).replace('|', "\\|");
    if s.is_empty() {
        return "` `".to_string();
    }
    let mut longest = 0;
    let mut run = 0;
    for c in s.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

fn md_verdict(v: &Verdict) -> String {
    format!(
        "{} {}: {}",
        if v.allowed { "✅" } else { "⛔" },
        if v.allowed { "allowed" } else { "disallowed" },
        why(v, md_code)
    )
}

fn reading_label(r: Readings) -> &'static str {
    match r {
        Readings::Both => "both",
        Readings::Google => "Google only",
        Readings::Rfc => "RFC 9309 only",
    }
}

fn count(d: &[crate::compare::InReadings<impl HasChange>], c: Change) -> usize {
    d.iter().filter(|x| x.change.change() == c).count()
}

trait HasChange {
    fn change(&self) -> Change;
}
impl HasChange for crate::compare::RuleChange {
    fn change(&self) -> Change {
        self.change
    }
}
impl HasChange for crate::compare::GroupChange {
    fn change(&self) -> Change {
        self.change
    }
}
impl HasChange for crate::compare::DiagnosticChange {
    fn change(&self) -> Change {
        self.change
    }
}
impl HasChange for crate::compare::SitemapChange {
    fn change(&self) -> Change {
        self.change
    }
}

/// Counts of changes as words: `2 added, 1 removed`.
fn tally(d: &[crate::compare::InReadings<impl HasChange>], kinds: &[Change]) -> String {
    kinds
        .iter()
        .map(|&k| (k, count(d, k)))
        .filter(|&(_, n)| n > 0)
        .map(|(k, n)| format!("{n} {}", k.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether any crawler, in either reading, loses access anywhere.
fn any_loss(d: &FileDiff) -> bool {
    d.verdicts
        .iter()
        .any(|v| v.google.loses_access() || v.rfc.loses_access())
}

fn markdown(out: &mut dyn Write, t: &Target, d: &FileDiff) -> io::Result<()> {
    writeln!(
        out,
        "### robots.txt: {} → {}\n",
        md_code(t.old),
        md_code(t.new)
    )?;
    let losses = search_losses(d);
    if losses.is_empty() {
        writeln!(out, "**✅ No search crawler loses access.**")?;
    } else {
        let who: Vec<String> = joined(&losses)
            .into_iter()
            .map(|(who, paths)| {
                format!(
                    "{} ({})",
                    md_text(&who.join(", ")),
                    some_names(paths, 5, md_code)
                )
            })
            .collect();
        writeln!(
            out,
            "**⚠️ Search crawlers lose access:** {}",
            who.join("; ")
        )?;
    }
    writeln!(out)?;
    if d.is_empty() {
        writeln!(
            out,
            "No change in meaning: {} crawlers × {} paths compared in both readings.",
            d.crawlers.len(),
            d.paths
        )?;
        return Ok(());
    }
    let paths = d
        .verdicts
        .iter()
        .flat_map(|v| &v.paths)
        .collect::<std::collections::HashSet<_>>()
        .len();
    let verdicts = format!(
        "{} on {}",
        crate::text::count(d.verdicts.len(), "verdict change", "verdict changes"),
        crate::text::count(paths, "path", "paths")
    );
    let parts = [
        (d.verdicts.len(), verdicts.as_str()),
        (d.rules.len(), "rule changes"),
        (d.groups.len(), "group changes"),
        (d.diagnostics.len(), "diagnostic changes"),
        (d.sitemaps.len(), "sitemap changes"),
    ];
    let parts: Vec<String> = parts
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, w)| {
            if w.starts_with(|c: char| c.is_ascii_digit()) {
                w.to_string()
            } else {
                format!("{n} {w}")
            }
        })
        .collect();
    writeln!(
        out,
        "{} ({} crawlers × {} paths compared in the Google and RFC 9309 readings{}).\n",
        parts.join(", "),
        d.crawlers.len(),
        d.paths,
        if d.paths_left_out > 0 {
            format!("; {} more paths left out", d.paths_left_out)
        } else {
            String::new()
        }
    )?;
    if !d.verdicts.is_empty() {
        if !any_loss(d) {
            writeln!(out, "No crawler loses access; some gain it.\n")?;
        }
        writeln!(out, "| Path | Crawlers | Readings | Old | New |")?;
        writeln!(out, "| --- | --- | --- | --- | --- |")?;
        for v in &d.verdicts {
            for (label, tr) in transitions(v) {
                let readings = match label {
                    "" => reading_label(v.readings).to_string(),
                    l if tr.changes() => l.trim().trim_end_matches(':').to_string(),
                    l => format!("{} (unchanged)", l.trim().trim_end_matches(':')),
                };
                writeln!(
                    out,
                    "| {} | {} | {readings} | {} | {} |",
                    some_names(&v.paths, 6, md_code),
                    some_names(&v.crawlers, 6, md_text),
                    md_verdict(&tr.old),
                    md_verdict(&tr.new)
                )?;
            }
        }
        writeln!(out)?;
        // Each long list of crawlers once, with the paths it is the list of.
        let mut long: Vec<(&[String], Vec<&str>)> = Vec::new();
        for v in d.verdicts.iter().filter(|v| v.crawlers.len() > 6) {
            match long.iter_mut().find(|(c, _)| *c == v.crawlers.as_slice()) {
                Some((_, p)) => p.extend(v.paths.iter().map(String::as_str)),
                None => long.push((&v.crawlers, v.paths.iter().map(String::as_str).collect())),
            }
        }
        if !long.is_empty() {
            writeln!(
                out,
                "<details><summary>Every crawler of each change</summary>\n"
            )?;
            for (crawlers, paths) in long {
                let paths: Vec<String> = paths.iter().map(|p| md_code(p)).collect();
                writeln!(
                    out,
                    "- {} ({}): {}\n",
                    paths.join(", "),
                    crawlers.len(),
                    some_names(crawlers, usize::MAX, md_text)
                )?;
            }
            writeln!(out, "</details>\n")?;
        }
    }
    if !d.rules.is_empty() {
        writeln!(
            out,
            "<details><summary>Rules: {}</summary>\n",
            tally(
                &d.rules,
                &[Change::Added, Change::Removed, Change::Overridden]
            )
        )?;
        writeln!(
            out,
            "| Change | Old line | New line | Group | Rule | Readings |"
        )?;
        writeln!(out, "| --- | --- | --- | --- | --- | --- |")?;
        for r in &d.rules {
            let c = &r.change;
            let line = |l: Option<usize>| l.map_or("–".to_string(), |l| l.to_string());
            let what = match c.decided {
                Some(n) => format!("overridden (decided {n} answers, now none of them)"),
                None => c.change.as_str().to_string(),
            };
            writeln!(
                out,
                "| {what} | {} | {} | {} | {} | {} |",
                line(c.old_line),
                line(c.new_line),
                agents(&c.user_agents, md_code),
                md_code(&format!("{}: {}", c.kind.as_str(), c.pattern)),
                reading_label(r.readings)
            )?;
        }
        writeln!(out, "\n</details>\n")?;
    }
    if !d.groups.is_empty() {
        writeln!(
            out,
            "<details><summary>Groups: {}</summary>\n",
            tally(&d.groups, &[Change::Added, Change::Removed])
        )?;
        writeln!(out, "| Change | Line | User-agents | Rules | Readings |")?;
        writeln!(out, "| --- | --- | --- | --- | --- |")?;
        for g in &d.groups {
            let c = &g.change;
            writeln!(
                out,
                "| {} | {} {} | {} | {} | {} |",
                c.change.as_str(),
                side(c.change),
                c.line,
                agents(&c.user_agents, md_code),
                c.rules,
                reading_label(g.readings)
            )?;
        }
        writeln!(out, "\n</details>\n")?;
    }
    if !d.diagnostics.is_empty() {
        writeln!(
            out,
            "<details><summary>Diagnostics: {}</summary>\n",
            tally(&d.diagnostics, &[Change::Introduced, Change::Fixed])
        )?;
        writeln!(out, "| Change | Line | Diagnostic | Message | Readings |")?;
        writeln!(out, "| --- | --- | --- | --- | --- |")?;
        for x in &d.diagnostics {
            let c = &x.change;
            writeln!(
                out,
                "| {} | {} {} | {} `{}` | {} | {} |",
                c.change.as_str(),
                side(c.change),
                c.line,
                c.severity.as_str(),
                c.name,
                md_message(&c.message),
                reading_label(x.readings)
            )?;
        }
        writeln!(out, "\n</details>\n")?;
    }
    if !d.sitemaps.is_empty() {
        writeln!(
            out,
            "<details><summary>Sitemaps: {}</summary>\n",
            tally(&d.sitemaps, &[Change::Added, Change::Removed])
        )?;
        for s in &d.sitemaps {
            let c = &s.change;
            writeln!(
                out,
                "- {} ({} line {}): {}{}",
                c.change.as_str(),
                side(c.change),
                c.line,
                md_code(&c.url),
                readings_note(s.readings)
            )?;
        }
        writeln!(out, "\n</details>\n")?;
    }
    Ok(())
}

/// One workflow command: `level` is `error`, `warning` or `notice`; `line` on the new file,
/// or none for a note on the file as a whole.
fn command(
    out: &mut dyn Write,
    level: &str,
    file: &str,
    line: Option<usize>,
    title: &str,
    message: &str,
) -> io::Result<()> {
    let at = line.map_or(String::new(), |l| format!(",line={l}"));
    writeln!(
        out,
        "::{level} file={}{at},title={}::{}",
        escape_property(file),
        escape_property(title),
        escape_data(message)
    )
}

fn github(out: &mut dyn Write, t: &Target, d: &FileDiff) -> io::Result<()> {
    let reading_words = |r: Readings| match r {
        Readings::Both => "in both readings",
        Readings::Google => "in the Google reading",
        Readings::Rfc => "in the RFC 9309 reading",
    };
    for v in &d.verdicts {
        // The reading in which the verdict changes; the Google one when both.
        let r = if v.readings == Readings::Rfc {
            Reading::Rfc9309
        } else {
            Reading::Google
        };
        let tr = v.in_reading(r);
        let (level, title, verb) = if tr.loses_access() {
            ("warning", "access lost", "may no longer fetch")
        } else {
            ("notice", "access gained", "may now fetch")
        };
        let message = format!(
            "{} {verb} {} {}: now {}; before: {} (old file)",
            some_names(&v.crawlers, 10, esc_text),
            some_names(&v.paths, 10, esc_text),
            reading_words(v.readings),
            why(&tr.new, plain),
            why(&tr.old, plain),
        );
        let line = tr.new.rule.as_ref().map(|r| r.line);
        command(
            out,
            level,
            t.new,
            line,
            &format!("robots.txt diff: {title}"),
            &message,
        )?;
    }
    for r in &d.rules {
        let c = &r.change;
        let message = format!(
            "rule {}: {}: {} in the group of {}{}{}",
            c.change.as_str(),
            c.kind.as_str(),
            c.pattern,
            c.user_agents.join(", "),
            c.decided.map_or(String::new(), |n| format!(
                " (decided {n} answers before, none of them now)"
            )),
            readings_note(r.readings)
        );
        let line = if c.change == Change::Removed {
            None
        } else {
            c.new_line
        };
        command(
            out,
            "notice",
            t.new,
            line,
            "robots.txt diff: rule",
            &message,
        )?;
    }
    for g in &d.groups {
        let c = &g.change;
        let message = format!(
            "group {} for {} ({}){}",
            c.change.as_str(),
            c.user_agents.join(", "),
            crate::text::count(c.rules, "rule", "rules"),
            readings_note(g.readings)
        );
        let line = (c.change == Change::Added).then_some(c.line);
        command(
            out,
            "notice",
            t.new,
            line,
            "robots.txt diff: group",
            &message,
        )?;
    }
    for x in &d.diagnostics {
        let c = &x.change;
        if c.change == Change::Fixed {
            let message = format!(
                "fixed: {} ({}){}",
                c.message,
                c.name,
                readings_note(x.readings)
            );
            command(
                out,
                "notice",
                t.new,
                None,
                "robots.txt diff: fixed",
                &message,
            )?;
            continue;
        }
        let level = match c.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        let message = format!("new finding: {}{}", c.message, readings_note(x.readings));
        command(out, level, t.new, Some(c.line), c.name, &message)?;
    }
    for s in &d.sitemaps {
        let c = &s.change;
        let message = format!(
            "sitemap {}: {}{}",
            c.change.as_str(),
            c.url,
            readings_note(s.readings)
        );
        let line = (c.change == Change::Added).then_some(c.line);
        command(
            out,
            "notice",
            t.new,
            line,
            "robots.txt diff: sitemap",
            &message,
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_escaping() {
        assert_eq!(
            md_text("a|b <i>_x_ & `y`"),
            "a\\|b \\<i\\>\\_x\\_ &amp; \\`y\\`"
        );
        assert_eq!(md_code("/a|b"), "`/a\\|b`");
        assert_eq!(md_code("`x``"), "``` `x`` ```");
        assert_eq!(md_code(""), "` `");
        assert_eq!(md_message("`<a>` and <b> | c"), "`<a>` and &lt;b> \\| c");
    }
}
