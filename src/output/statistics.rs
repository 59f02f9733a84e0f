//! `lint --statistics`: how many findings of each name were shown, most frequent first, as
//! `ruff --statistics` prints them:
//!
//! ```text
//!   1234  warning  empty-disallow        `Disallow:` with no path does nothing …
//!     56  error    rule-before-group     A rule stands before any user-agent line.
//! 1,290 findings in 812 of 4,374 files (41,690 more below the severity shown).
//! ```
//!
//! Ties are in catalogue order; the summary is the catalogue entry's. With `--format json` the
//! counts are one JSON document: `{"files":…,"files_with_findings":…,"unreadable":…,"hidden":…,
//! "counts":[{"name":…,"severity":…,"count":…}]}`.

use super::{LintedFile, Printer};
use crate::analysis::{Severity, catalogue, entry};
use crate::text::count;
use std::io::{self, Write};

/// Counts findings per name and prints the table at the end.
#[derive(Clone, Debug, Default)]
pub struct StatisticsPrinter {
    /// Print JSON instead of the table.
    pub json: bool,
    counts: std::collections::HashMap<&'static str, usize>,
    files: usize,
    with: usize,
    unreadable: usize,
    hidden: usize,
}

/// One row of the statistics.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Row {
    /// The diagnostic's name.
    pub name: &'static str,
    /// Its severity.
    pub severity: Severity,
    /// How many findings of this name were shown.
    pub count: usize,
}

impl StatisticsPrinter {
    /// A printer with nothing counted yet; `json` prints JSON instead of the table.
    pub fn new(json: bool) -> Self {
        StatisticsPrinter {
            json,
            ..StatisticsPrinter::default()
        }
    }

    /// The rows so far: most frequent first, ties in catalogue order.
    pub fn rows(&self) -> Vec<Row> {
        let mut rows: Vec<(usize, Row)> = catalogue()
            .iter()
            .enumerate()
            .filter_map(|(i, e)| {
                self.counts.get(e.name).map(|&count| {
                    (
                        i,
                        Row {
                            name: e.name,
                            severity: e.severity,
                            count,
                        },
                    )
                })
            })
            .collect();
        rows.sort_by(|a, b| b.1.count.cmp(&a.1.count).then(a.0.cmp(&b.0)));
        rows.into_iter().map(|(_, r)| r).collect()
    }
}

impl Printer for StatisticsPrinter {
    fn fixes_shown(&self) -> super::FixesShown {
        super::FixesShown::None
    }

    fn file(&mut self, f: &LintedFile, _out: &mut dyn Write) -> io::Result<()> {
        if f.error.is_some() {
            self.unreadable += 1;
            return Ok(());
        }
        self.files += 1;
        self.hidden += f.hidden;
        if !f.diagnostics.is_empty() {
            self.with += 1;
        }
        for d in &f.diagnostics {
            *self.counts.entry(d.name).or_insert(0) += 1;
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let rows = self.rows();
        if self.json {
            let doc = serde_json::json!({
                "files": self.files,
                "files_with_findings": self.with,
                "unreadable": self.unreadable,
                "hidden": self.hidden,
                "counts": rows,
            });
            serde_json::to_writer_pretty(&mut *out, &doc).map_err(io::Error::other)?;
            return writeln!(out);
        }
        let width = rows
            .iter()
            .map(|r| r.count.to_string().len())
            .max()
            .unwrap_or(1);
        let name_width = rows.iter().map(|r| r.name.len()).max().unwrap_or(0);
        for r in &rows {
            let summary = entry(r.name).map_or("", |e| e.summary);
            writeln!(
                out,
                "{:>width$}  {:<7}  {:<name_width$}  {summary}",
                r.count,
                r.severity.as_str(),
                r.name
            )?;
        }
        let total: usize = rows.iter().map(|r| r.count).sum();
        let mut line = format!(
            "{} in {} of {}.",
            count(total, "finding", "findings"),
            self.with,
            count(self.files, "file", "files")
        );
        if self.hidden > 0 {
            line.push_str(&format!(
                " {} below the severity shown.",
                count(self.hidden, "more finding", "more findings")
            ));
        }
        if self.unreadable > 0 {
            line.push_str(&format!(
                " {} could not be read.",
                count(self.unreadable, "input", "inputs")
            ));
        }
        writeln!(out, "{line}")
    }
}
