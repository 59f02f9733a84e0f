//! The `explain` subcommand: a diagnostic's documentation in the terminal, from the same
//! catalogue entry the report's diagnostic pages are made of ([`crate::analysis::catalogue`]).
//! The Markdown of the entry is printed as it is written, which reads well as plain text.

use super::{EXIT_ERROR, EXIT_OK};
use crate::analysis::{CatalogueEntry, catalogue, closest_name, entry};
use std::io::Write;

/// Arguments of `explain`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The diagnostic's name, e.g. `redundant-rule`. Without it, every name is listed with its
    /// severity and summary.
    pub name: Option<String>,
}

/// The documentation of `e` as `explain` prints it: name and severity, summary, then what it
/// means, why it matters, an example, how to fix it and the references, under headings.
pub fn render(e: &CatalogueEntry) -> String {
    let mut s = format!("{} ({})\n\n{}\n", e.name, e.severity.as_str(), e.summary);
    for (heading, body) in [
        ("What it means", e.what),
        ("Why it matters", e.why),
        ("How to fix it", e.fix),
    ] {
        s.push_str(&format!("\n{heading}\n\n{}\n", body.trim_end()));
        if heading == "Why it matters" {
            s.push_str("\nExample\n\n");
            for line in e.example.lines() {
                s.push_str(&format!("    {line}\n"));
            }
        }
    }
    s.push_str("\nReferences\n\n");
    for (label, url) in e.references {
        s.push_str(&format!("  - {label}: {url}\n"));
    }
    s
}

/// Runs `explain`; returns 0, or 2 for a name that is not in the catalogue (with the closest
/// name, when one is close) or output that cannot be written.
pub fn run(args: Args) -> u8 {
    let text = match &args.name {
        None => {
            let width = catalogue().iter().map(|e| e.name.len()).max().unwrap_or(0);
            catalogue()
                .iter()
                .map(|e| {
                    format!(
                        "{:<width$}  {:<7}  {}\n",
                        e.name,
                        e.severity.as_str(),
                        e.summary
                    )
                })
                .collect()
        }
        Some(name) => match entry(name.trim()) {
            Some(e) => render(e),
            None => {
                let hint = closest_name(name.trim())
                    .map(|c| format!("; did you mean `{c}`?"))
                    .unwrap_or_default();
                crate::eprintln_lossy!(
                    "robots-explorer explain: `{}` is not a diagnostic name{hint} \
(`robots-explorer explain` lists them)",
                    crate::output::escape_control(name)
                );
                return EXIT_ERROR;
            }
        },
    };
    let mut out = std::io::stdout().lock();
    if out
        .write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .is_err()
    {
        return EXIT_ERROR;
    }
    EXIT_OK
}
