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
    /// The suggestion as an edit that was checked by deciding the edited file again (see
    /// [`Fix`]); `None` when the suggestion is advice in words, or could not be checked.
    pub fix: Option<Fix>,
    /// Reference: RFC 9309 section or Google documentation, e.g. `RFC 9309 §2.2.2`.
    pub reference: &'static str,
}

/// A machine-applicable fix. Before it is offered, the edited file is parsed and decided again,
/// in both readings, for every crawler either version names and for one no group names, over
/// paths drawn from both versions' patterns; a fix that would change a decision it does not
/// claim to change, or block `/` for a crawler that could fetch it, is never offered.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Fix {
    /// What to do with the diagnostic's line.
    pub edit: FixEdit,
    /// `safe`: no decision changes, so it can be applied without review; `unsafe`: decisions
    /// change as `effect` says, so a person should confirm it is what was meant.
    pub applicability: Applicability,
    /// What the fix changes, in words ("changes no decision", or the decisions that change).
    pub effect: String,
}

/// The edit of a [`Fix`], on the diagnostic's line (its `line`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", content = "text", rename_all = "kebab-case")]
pub enum FixEdit {
    /// Replace the line's content (its line end is kept) with this text.
    Replace(String),
    /// Delete the line.
    Delete,
    /// Insert these lines after it (separated by `\n`; each gets the file's line end).
    InsertAfter(String),
}

/// Whether a [`Fix`] may be applied without review, as in ruff: `safe` fixes keep every
/// decision, `unsafe` ones change some.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// Changes no decision.
    Safe,
    /// Changes decisions; review it.
    Unsafe,
}

impl Applicability {
    /// `safe` or `unsafe`.
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
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
            fix: None,
            reference: entry.reference_label(),
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
