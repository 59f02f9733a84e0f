//! Printers for `lint` results: plain text (full or concise) for people, JSON, SARIF 2.1.0 for
//! code-scanning services, GitHub Actions workflow commands, JUnit XML, GitLab Code Quality, and
//! the counts of `--statistics`. They are peers behind one interface,
//! [`Printer`], and know nothing about how the diagnostics were found.

use crate::RobotsTxt;
use crate::analysis::{Diagnostic, Severity};
use std::collections::BTreeMap;
use std::io::{self, Write};

pub mod github;
pub mod gitlab;
pub mod json;
pub mod junit;
pub mod sarif;
pub mod statistics;
pub mod text;

/// Text for one field of line-oriented output (check's tab-separated lines, lint's text
/// format): tab, line feed and carriage return become `\t`, `\n` and `\r`, and every other
/// control character (C0, DEL, C1, and the line and paragraph separators U+2028 and U+2029)
/// becomes `\u{XX}`, so a file name, URL or agent can neither split a line nor send terminal
/// escape sequences. Other characters, backslashes included, are kept (paths on Windows), so
/// the JSON formats are the ones to parse when names may hold backslashes.
pub fn escape_control(s: &str) -> std::borrow::Cow<'_, str> {
    let special = |c: char| c.is_control() || c == '\u{2028}' || c == '\u{2029}';
    if !has_control(s) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if special(c) => {
                use std::fmt::Write as _;
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Whether `s` holds a character [`escape_control`] escapes, told from its UTF-8 bytes: a C0
/// control or DEL is one byte below 0x20 or 0x7F, a C1 control is C2 80–C2 9F, and U+2028 and
/// U+2029 are E2 80 A8 and E2 80 A9. Messages are mostly ASCII with a few typographic
/// characters (`…`, `–`), which this passes without decoding them.
fn has_control(s: &str) -> bool {
    let b = s.as_bytes();
    b.iter()
        .fold(false, |any, &x| any | (x < 0x20) | (x == 0x7F))
        || memchr::memchr2_iter(0xC2, 0xE2, b).any(|i| match b[i] {
            0xC2 => matches!(b.get(i + 1), Some(0x80..=0x9F)),
            _ => b.get(i + 1) == Some(&0x80) && matches!(b.get(i + 2), Some(0xA8 | 0xA9)),
        })
}

/// The diagnostics of one file, with the source lines they point at (for the text printer).
#[derive(Clone, Debug)]
pub struct LintedFile {
    /// The path as given on the command line (or found under a directory given there).
    pub path: String,
    /// The diagnostics to print, ordered by position.
    pub diagnostics: Vec<Diagnostic>,
    /// The text of each source line a diagnostic starts on (of those the printer shows lines
    /// for, see [`LintedFile::with_lines`]), by 1-based line number, decoded for display
    /// (UTF-8, or Windows-1252 where the bytes are not UTF-8), without the line terminator.
    pub lines: BTreeMap<usize, String>,
    /// The path as a URI reference that keeps every byte of the file name (see
    /// [`sarif::path_uri`]); `None` for standard input or when only the display form is known.
    pub uri: Option<String>,
    /// Why the file could not be read; it then has no diagnostics.
    pub error: Option<String>,
    /// Diagnostics found but not listed, being below the severity asked for (`lint
    /// --min-severity`).
    pub hidden: usize,
}

impl LintedFile {
    /// Collects what the printers need from a parsed file and its diagnostics, with the source
    /// line of every diagnostic.
    pub fn new(path: impl Into<String>, robots: &RobotsTxt, diagnostics: Vec<Diagnostic>) -> Self {
        LintedFile::with_lines(path, robots, diagnostics, FixesShown::All)
    }

    /// [`LintedFile::new`] keeping only the source lines of the diagnostics `shown` picks (those
    /// a printer shows lines for, [`Printer::lines_shown`]).
    pub fn with_lines(
        path: impl Into<String>,
        robots: &RobotsTxt,
        diagnostics: Vec<Diagnostic>,
        shown: FixesShown,
    ) -> Self {
        let mut lines = BTreeMap::new();
        let shown = shown.mask(diagnostics.iter().map(|d| d.name));
        for (d, _) in diagnostics.iter().zip(shown).filter(|(_, s)| *s) {
            if lines.contains_key(&d.line) {
                continue;
            }
            if let Some(l) = robots.tree.lines.get(d.line.wrapping_sub(1)) {
                lines.insert(d.line, robots.text(l.content()).into_owned());
            }
        }
        LintedFile {
            path: path.into(),
            diagnostics,
            lines,
            uri: None,
            error: None,
            hidden: 0,
        }
    }

    /// A file that could not be read (or walked), with the reason.
    pub fn unreadable(path: impl Into<String>, error: impl Into<String>) -> Self {
        LintedFile {
            path: path.into(),
            diagnostics: Vec::new(),
            lines: BTreeMap::new(),
            uri: None,
            error: Some(error.into()),
            hidden: 0,
        }
    }

    /// The most severe diagnostic's severity, if any.
    pub fn max_severity(&self) -> Option<Severity> {
        self.diagnostics.iter().map(|d| d.severity()).max()
    }
}

/// Output format of `lint` (also the `format` setting of `robots-explorer.toml`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// `path:line:column: severity[name]: message`, with the source line, a caret and the fix.
    Text,
    /// One line per diagnostic: `path:line:column: severity[name] message`.
    Concise,
    /// One JSON document: `{"files":[{"path":…,"diagnostics":[…]}]}`.
    Json,
    /// SARIF 2.1.0, for GitHub code scanning and other code-scanning services.
    Sarif,
    /// GitHub Actions workflow commands (`::error file=…,line=…::message`).
    Github,
    /// JUnit XML: a test suite per file, a failing test case per diagnostic.
    Junit,
    /// GitLab Code Quality JSON, with fingerprints stable across runs.
    Gitlab,
}

/// The lowest severity of finding that makes a run (`lint` or `report`) exit with status 1
/// (also the `fail-on` setting of `robots-explorer.toml`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FailOn {
    /// Errors only.
    Error,
    /// Warnings and errors.
    Warning,
    /// Any diagnostic.
    Info,
    /// Never fail because of findings.
    Never,
}

impl FailOn {
    /// The lowest severity that fails the run, if any.
    pub fn threshold(self) -> Option<Severity> {
        match self {
            FailOn::Error => Some(Severity::Error),
            FailOn::Warning => Some(Severity::Warning),
            FailOn::Info => Some(Severity::Info),
            FailOn::Never => None,
        }
    }

    /// Whether a run with this many errors, warnings and infos fails.
    pub fn fails(self, errors: usize, warnings: usize, infos: usize) -> bool {
        match self.threshold() {
            None => false,
            Some(Severity::Error) => errors > 0,
            Some(Severity::Warning) => errors + warnings > 0,
            Some(Severity::Info) => errors + warnings + infos > 0,
        }
    }
}

/// Which findings of a file a printer shows something for: their fixes, so that `lint` checks
/// only those ([`crate::analysis::diagnose_when`]; checking fixes is most of the work on files
/// with many findings), or their source lines, so that only those are kept
/// ([`LintedFile::with_lines`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixesShown {
    /// Every finding's.
    All,
    /// None (counts, one-line listings).
    None,
    /// The first [`text::REPEATS_SHOWN`] findings of each name in a file, which the text format
    /// prints in full ([`text::shown_in_full`]).
    FirstOfEachName,
}

impl FixesShown {
    /// For the findings of one file, named `names` in the order printed: whether each one's fix
    /// is shown.
    pub fn mask<'a>(self, names: impl IntoIterator<Item = &'a str>) -> Vec<bool> {
        match self {
            FixesShown::All => names.into_iter().map(|_| true).collect(),
            FixesShown::None => names.into_iter().map(|_| false).collect(),
            FixesShown::FirstOfEachName => text::shown_in_full(names),
        }
    }
}

/// A printer of lint results, fed file by file so that memory does not grow with the number of
/// files: [`Printer::begin`], then [`Printer::file`] for each file in order, then
/// [`Printer::finish`]. Every method fails only when writing to `out` fails.
pub trait Printer {
    /// Writes what comes before the first file.
    ///
    /// # Errors
    /// Errors of `out`.
    fn begin(&mut self, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }
    /// Which findings' fixes [`Printer::file`] shows; the others need not be checked.
    fn fixes_shown(&self) -> FixesShown {
        FixesShown::All
    }
    /// Which findings' source lines ([`LintedFile::lines`]) [`Printer::file`] shows; the others
    /// need not be kept.
    fn lines_shown(&self) -> FixesShown {
        FixesShown::None
    }
    /// Writes one file's results (or that it could not be read).
    ///
    /// # Errors
    /// Errors of `out`.
    fn file(&mut self, f: &LintedFile, out: &mut dyn Write) -> io::Result<()>;
    /// Writes what comes after the last file.
    ///
    /// # Errors
    /// Errors of `out`.
    fn finish(&mut self, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }
    /// Writes the results of all `files`, in the order given.
    ///
    /// # Errors
    /// Errors of `out`.
    fn print(&mut self, files: &[LintedFile], out: &mut dyn Write) -> io::Result<()> {
        self.begin(out)?;
        for f in files {
            self.file(f, out)?;
        }
        self.finish(out)
    }
}

/// The printer for `format`; `color` applies to the text formats only.
pub fn printer(format: Format, color: bool) -> Box<dyn Printer> {
    match format {
        Format::Text => Box::new(text::TextPrinter::new(color)),
        Format::Concise => Box::new(text::TextPrinter::concise(color)),
        Format::Junit => Box::new(junit::JunitPrinter),
        Format::Gitlab => Box::new(gitlab::GitlabPrinter::default()),
        Format::Json => Box::new(json::JsonPrinter::default()),
        Format::Sarif => Box::new(sarif::SarifPrinter::default()),
        Format::Github => Box::new(github::GithubPrinter),
    }
}

#[cfg(test)]
mod escape_tests {
    use super::escape_control;

    #[test]
    fn control_characters_are_spelt_out() {
        assert_eq!(escape_control("plain/path.txt"), "plain/path.txt");
        assert_eq!(escape_control("a\tb\nc\rd"), "a\\tb\\nc\\rd");
        assert_eq!(
            escape_control("\u{1b}[31m\u{7f}\u{85}"),
            "\\u{1b}[31m\\u{7f}\\u{85}"
        );
        assert_eq!(escape_control("x\u{2028}y"), "x\\u{2028}y");
        assert_eq!(escape_control("C:\\dir\\é"), "C:\\dir\\é");
        assert_eq!(escape_control("a\u{7f}"), "a\\u{7f}");
        // Printable text is lent back as it is.
        for kept in [" ~ all printable ASCII ~ ", "café", ""] {
            assert!(matches!(escape_control(kept), std::borrow::Cow::Borrowed(s) if s == kept));
        }
    }
    #[test]
    fn controls_are_told_from_the_bytes_as_from_the_characters() {
        let special = |c: char| c.is_control() || c == '\u{2028}' || c == '\u{2029}';
        let chars = (0u32..0x300)
            .chain(0x2000..0x2070)
            .chain([0xFEFF, 0x1F600, 0x10FFFF])
            .filter_map(char::from_u32);
        for c in chars {
            for s in [c.to_string(), format!("ab{c}"), format!("…{c}–x")] {
                assert_eq!(super::has_control(&s), s.chars().any(special), "{s:?}");
            }
        }
        assert_eq!(
            super::escape_control("a\u{85}b\u{2028}"),
            "a\\u{85}b\\u{2028}"
        );
        assert_eq!(super::escape_control("plain … text"), "plain … text");
    }
}
