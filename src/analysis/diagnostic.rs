//! [`Diagnostic`]: one finding, made from its catalogue entry.
//!
//! The severity is not a field anyone can set: it is copied from the [`CatalogueEntry`] the
//! diagnostic is made from, so a name always comes with one severity. A finding that deserves
//! another severity is another finding, with a catalogue entry of its own.

use super::{CatalogueEntry, Readings, Severity, entry};
use crate::syntax::Span;

/// One finding about a file.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostic {
    /// Stable kebab-case name, e.g. `empty-disallow`; the key into the [`super::catalogue`].
    pub name: &'static str,
    /// How serious it is: always its catalogue entry's severity (see [`Diagnostic::severity`]).
    severity: Severity,
    /// A specific message that quotes the field or pattern concerned.
    pub message: String,
    /// The bytes concerned (offsets into [`crate::RobotsTxt::bytes`]).
    pub span: Span,
    /// 1-based line of `span.start`.
    pub line: usize,
    /// 1-based column (characters) of `span.start`.
    pub column: usize,
    /// 1-based line of `span.end`.
    pub end_line: usize,
    /// 1-based column (characters) of `span.end`.
    pub end_column: usize,
    /// The readings it applies to.
    pub readings: Readings,
    /// A suggested fix, in words or as a replacement line.
    pub suggestion: Option<String>,
    /// Reference: RFC 9309 section or Google documentation, e.g. `RFC 9309 §2.2.2`.
    pub reference: &'static str,
}

/// Where a diagnostic sits: its span and the 1-based line and column of both ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// The bytes concerned.
    pub span: Span,
    /// 1-based line of `span.start`.
    pub line: usize,
    /// 1-based column (characters) of `span.start`.
    pub column: usize,
    /// 1-based line of `span.end`.
    pub end_line: usize,
    /// 1-based column (characters) of `span.end`.
    pub end_column: usize,
}

impl Diagnostic {
    /// A diagnostic of `entry`: its name, severity and main reference come from the entry.
    pub fn new(
        entry: &CatalogueEntry,
        at: Position,
        readings: Readings,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            name: entry.name,
            severity: entry.severity,
            message: message.into(),
            span: at.span,
            line: at.line,
            column: at.column,
            end_line: at.end_line,
            end_column: at.end_column,
            readings,
            suggestion: None,
            reference: entry.references.first().map_or("", |r| r.0),
        }
    }

    /// How serious it is: the severity of its catalogue entry.
    pub fn severity(&self) -> Severity {
        self.severity
    }

    /// Sets the suggested fix.
    pub fn with_suggestion(mut self, suggestion: impl Into<String>) -> Diagnostic {
        self.suggestion = Some(suggestion.into());
        self
    }

    /// The address of the diagnostic's main reference (the first reference of its catalogue
    /// entry), if the name is in the catalogue.
    pub fn reference_url(&self) -> Option<&'static str> {
        entry(self.name).and_then(|e| e.references.first().map(|r| r.1))
    }
}
