//! GitLab Code Quality: a JSON array of issues, as GitLab shows them in merge requests
//! (`artifacts: reports: codequality`):
//!
//! ```json
//! [{"description":"…","check_name":"empty-disallow","fingerprint":"3f0c…","severity":"minor",
//!   "location":{"path":"robots.txt","lines":{"begin":3}}}]
//! ```
//!
//! Severities: `error` is `major`, `warning` `minor`, `info` `info`; a file that could not be
//! read is one `major` issue named `unreadable`. The fingerprint identifies an issue across
//! runs, so GitLab can tell new findings from fixed ones: it hashes the path, the diagnostic's
//! name, the text of its line (trimmed) and how many issues with the same three came before it
//! in the file, but not the line number, so that lines added above a finding do not make it
//! new. The hash is 64-bit FNV-1a ([`crate::report::names::fnv1a`]), written as 16 hex digits.

use super::{LintedFile, Printer};
use crate::analysis::Severity;
use crate::report::names::fnv1a;
use serde::Serialize;
use std::collections::HashMap;
use std::io::{self, Write};

/// Prints a Code Quality report, file by file.
#[derive(Clone, Copy, Debug, Default)]
pub struct GitlabPrinter {
    issues: usize,
}

/// One issue of the report.
#[derive(Serialize)]
struct Issue<'a> {
    description: String,
    check_name: &'a str,
    fingerprint: String,
    severity: &'static str,
    location: Location<'a>,
}

#[derive(Serialize)]
struct Location<'a> {
    path: &'a str,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: usize,
}

/// The Code Quality severity of a diagnostic severity.
pub fn severity(s: Severity) -> &'static str {
    match s {
        Severity::Error => "major",
        Severity::Warning => "minor",
        Severity::Info => "info",
    }
}

/// The fingerprint of the `nth` (0-based) issue named `name` on a line reading `line` in
/// `path`: see the module documentation.
pub fn fingerprint(path: &str, name: &str, line: &str, nth: usize) -> String {
    let mut key = Vec::with_capacity(path.len() + name.len() + line.len() + 24);
    for part in [path.as_bytes(), name.as_bytes(), line.trim().as_bytes()] {
        key.extend_from_slice(part);
        key.push(0);
    }
    key.extend_from_slice(nth.to_string().as_bytes());
    format!("{:016x}", fnv1a(&key))
}

impl GitlabPrinter {
    fn write(&mut self, issue: &Issue, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(if self.issues == 0 { b"\n  " } else { b",\n  " })?;
        self.issues += 1;
        serde_json::to_writer(&mut *out, issue).map_err(io::Error::other)
    }
}

impl Printer for GitlabPrinter {
    fn begin(&mut self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(b"[")
    }

    fn lines_shown(&self) -> super::FixesShown {
        // Every finding's fingerprint holds its source line.
        super::FixesShown::All
    }

    fn file(&mut self, f: &LintedFile, out: &mut dyn Write) -> io::Result<()> {
        if let Some(e) = &f.error {
            let issue = Issue {
                description: format!("cannot be read: {e}"),
                check_name: "unreadable",
                fingerprint: fingerprint(&f.path, "unreadable", "", 0),
                severity: "major",
                location: Location {
                    path: &f.path,
                    lines: Lines { begin: 1 },
                },
            };
            return self.write(&issue, out);
        }
        let mut seen: HashMap<(&str, &str), usize> = HashMap::new();
        for d in &f.diagnostics {
            let line = f.lines.get(&d.line).map_or("", String::as_str);
            let nth = seen.entry((d.name, line)).or_insert(0);
            let mut description = d.message.clone();
            if let Some(fix) = &d.suggestion {
                description.push_str(" Fix: ");
                description.push_str(fix);
            }
            let issue = Issue {
                description,
                check_name: d.name,
                fingerprint: fingerprint(&f.path, d.name, line, *nth),
                severity: severity(d.severity()),
                location: Location {
                    path: &f.path,
                    lines: Lines { begin: d.line },
                },
            };
            *nth += 1;
            self.write(&issue, out)?;
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(if self.issues == 0 { b"]\n" } else { b"\n]\n" })
    }
}

#[cfg(test)]
mod tests {
    use super::fingerprint;

    #[test]
    fn fingerprints_ignore_the_line_number_and_indentation() {
        let a = fingerprint("robots.txt", "duplicate-rule", "Disallow: /a", 0);
        assert_eq!(
            a,
            fingerprint("robots.txt", "duplicate-rule", "  Disallow: /a ", 0)
        );
        assert_ne!(
            a,
            fingerprint("robots.txt", "duplicate-rule", "Disallow: /a", 1)
        );
        assert_ne!(
            a,
            fingerprint("other.txt", "duplicate-rule", "Disallow: /a", 0)
        );
        assert_eq!(a.len(), 16);
    }
}
