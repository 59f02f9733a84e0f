//! SARIF 2.1.0 (OASIS Static Analysis Results Interchange Format), as GitHub code scanning and
//! other services read it.
//!
//! One run; the tool's rules are the whole [`catalogue`](crate::analysis::catalogue()), with each
//! entry's summary, documentation and main reference; each diagnostic is a result pointing at a
//! region (1-based lines, columns counted in Unicode code points, `endColumn` just after the
//! end). [`document`] is public so that other outputs (the audit report) can reuse it.

use super::{LintedFile, Printer};
use crate::analysis::{CatalogueEntry, Diagnostic, Severity, catalogue};
use serde_json::{Value, json};
use std::io::{self, Write};

/// The schema the document declares.
pub const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// Prints a SARIF log.
#[derive(Clone, Copy, Debug, Default)]
pub struct SarifPrinter;

impl Printer for SarifPrinter {
    fn print(&self, files: &[LintedFile], out: &mut dyn Write) -> io::Result<()> {
        let pairs: Vec<(&str, &[Diagnostic])> = files
            .iter()
            .map(|f| (f.path.as_str(), f.diagnostics.as_slice()))
            .collect();
        serde_json::to_writer_pretty(&mut *out, &document(&pairs)).map_err(io::Error::other)?;
        writeln!(out)
    }
}

/// The SARIF level of a severity: `error`, `warning` or `note`.
pub fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// The SARIF log for `files`: (path, diagnostics) pairs, paths as they should appear in the
/// log (relative paths are kept relative, with `/` separators; absolute ones become `file:`
/// URIs).
pub fn document(files: &[(&str, &[Diagnostic])]) -> Value {
    let cat = catalogue();
    let rules: Vec<Value> = cat.iter().map(rule).collect();
    let mut results = Vec::new();
    for (path, diagnostics) in files {
        let uri = artifact_uri(path);
        for d in *diagnostics {
            let index = cat.iter().position(|e| e.name == d.name);
            let mut text = d.message.clone();
            if let Some(fix) = &d.suggestion {
                text.push_str("\nFix: ");
                text.push_str(fix);
            }
            let mut result = json!({
                "ruleId": d.name,
                "level": level(d.severity()),
                "message": { "text": text },
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": { "uri": uri },
                        "region": {
                            "startLine": d.line,
                            "startColumn": d.column,
                            "endLine": d.end_line,
                            "endColumn": d.end_column.max(if d.end_line == d.line { d.column } else { 1 }),
                        }
                    }
                }],
                "properties": {
                    "readings": d.readings,
                    "reference": d.reference,
                }
            });
            if let Some(i) = index {
                result["ruleIndex"] = json!(i);
            }
            results.push(result);
        }
    }
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "robots-explorer",
                    "semanticVersion": env!("CARGO_PKG_VERSION"),
                    "informationUri": "https://www.rfc-editor.org/rfc/rfc9309.html",
                    "rules": rules,
                }
            },
            "columnKind": "unicodeCodePoints",
            "results": results,
        }]
    })
}

fn rule(e: &CatalogueEntry) -> Value {
    let refs: Vec<String> = e
        .references
        .iter()
        .map(|(label, url)| format!("- [{label}]({url})"))
        .collect();
    let markdown = format!(
        "## What it means\n\n{}\n\n## Why it matters\n\n{}\n\n## Example\n\n```\n{}\n```\n\n## How to fix it\n\n{}\n\n## References\n\n{}\n",
        e.what,
        e.why,
        e.example.trim_end(),
        e.fix,
        refs.join("\n")
    );
    let mut v = json!({
        "id": e.name,
        "name": pascal(e.name),
        "shortDescription": { "text": e.summary },
        "fullDescription": { "text": e.what },
        "help": { "text": e.fix, "markdown": markdown },
        "defaultConfiguration": { "level": level(e.severity) },
        "properties": { "tags": ["robots.txt"] },
    });
    if let Some(url) = e.reference_url() {
        v["helpUri"] = json!(url);
    }
    v
}

/// `empty-disallow` → `EmptyDisallow`.
fn pascal(name: &str) -> String {
    name.split('-')
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

/// A URI reference for a path: relative paths percent-encoded with `/` separators, absolute
/// paths as `file:` URIs.
pub fn artifact_uri(path: &str) -> String {
    let p = std::path::Path::new(path);
    if p.is_absolute()
        && let Ok(u) = url::Url::from_file_path(p)
    {
        return u.to_string();
    }
    let unified = path.replace('\\', "/");
    let unified = unified.strip_prefix("./").unwrap_or(&unified);
    const KEEP: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
        .remove(b'/')
        .remove(b'-')
        .remove(b'.')
        .remove(b'_')
        .remove(b'~');
    percent_encoding::utf8_percent_encode(unified, KEEP).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_uris() {
        assert_eq!(pascal("empty-disallow"), "EmptyDisallow");
        assert_eq!(artifact_uri("./a b/robots.txt"), "a%20b/robots.txt");
        assert_eq!(artifact_uri("hosts/x.example.txt"), "hosts/x.example.txt");
        assert_eq!(artifact_uri("/tmp/r.txt"), "file:///tmp/r.txt");
    }
}
