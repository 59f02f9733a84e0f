//! The JSON format:
//!
//! ```json
//! {"files":[{"path":"robots.txt","diagnostics":[{"name":"empty-disallow","severity":"warning",
//!   "line":3,"column":1,"end_line":3,"end_column":10,"message":"…","suggestion":"…",
//!   "reference":"RFC 9309 §2.2.2"}]}]}
//! ```
//!
//! One file per line inside `files`. A file that could not be read has an `error` field and no
//! diagnostics. Lines are 1-based; columns are 1-based and count characters (Unicode scalar values);
//! `end_column` is the column just after the last character concerned. `suggestion` is `null`
//! when there is none. Files without diagnostics are listed with an empty array.

use super::{LintedFile, Printer};
use crate::analysis::Severity;
use serde::Serialize;
use std::io::{self, Write};

/// Prints one JSON document, file by file.
#[derive(Clone, Copy, Debug, Default)]
pub struct JsonPrinter {
    files: usize,
}

/// The document.
#[derive(Serialize)]
pub struct Document<'a> {
    /// One entry per file, in input order.
    pub files: Vec<FileEntry<'a>>,
}

/// One file.
#[derive(Serialize)]
pub struct FileEntry<'a> {
    /// The path as given.
    pub path: &'a str,
    /// Why the file could not be read (it then has no diagnostics); left out otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'a str>,
    /// Its diagnostics, ordered by position.
    pub diagnostics: Vec<DiagnosticEntry<'a>>,
    /// How many diagnostics were found below the severity asked for and left out (`lint
    /// --min-severity`); left out when none were.
    #[serde(skip_serializing_if = "is_zero")]
    pub hidden: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// One diagnostic.
#[derive(Serialize)]
pub struct DiagnosticEntry<'a> {
    /// Stable kebab-case name, e.g. `empty-disallow`.
    pub name: &'a str,
    /// `error`, `warning` or `info`.
    pub severity: Severity,
    /// 1-based line where it starts.
    pub line: usize,
    /// 1-based column (characters) where it starts.
    pub column: usize,
    /// 1-based line where it ends.
    pub end_line: usize,
    /// 1-based column (characters) just after its end.
    pub end_column: usize,
    /// What is wrong, quoting the line concerned.
    pub message: &'a str,
    /// A suggested fix, or `null`.
    pub suggestion: Option<&'a str>,
    /// The suggestion as a checked edit (`{"edit":{"kind":"replace","text":…},
    /// "applicability":"safe"|"unsafe","effect":…}`), or `null`.
    pub fix: Option<&'a crate::analysis::Fix>,
    /// RFC 9309 section or Google documentation it rests on.
    pub reference: &'a str,
}

/// The JSON document for `files`.
pub fn document(files: &[LintedFile]) -> Document<'_> {
    Document {
        files: files.iter().map(entry).collect(),
    }
}

/// The entry of one file.
pub fn entry(f: &LintedFile) -> FileEntry<'_> {
    FileEntry {
        path: &f.path,
        error: f.error.as_deref(),
        diagnostics: f
            .diagnostics
            .iter()
            .map(|d| DiagnosticEntry {
                name: d.name,
                severity: d.severity(),
                line: d.line,
                column: d.column,
                end_line: d.end_line,
                end_column: d.end_column,
                message: &d.message,
                suggestion: d.suggestion.as_deref(),
                fix: d.fix.as_ref(),
                reference: d.reference,
            })
            .collect(),
        hidden: f.hidden,
    }
}

impl Printer for JsonPrinter {
    fn begin(&mut self, out: &mut dyn Write) -> io::Result<()> {
        write!(out, "{{\n  \"files\": [")
    }
    fn file(&mut self, f: &LintedFile, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(if self.files == 0 {
            b"\n    "
        } else {
            b",\n    "
        })?;
        self.files += 1;
        serde_json::to_writer(&mut *out, &entry(f)).map_err(io::Error::other)
    }
    fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.files > 0 {
            out.write_all(b"\n  ")?;
        }
        writeln!(out, "]\n}}")
    }
}
