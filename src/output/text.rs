//! The text format, as compilers print diagnostics:
//!
//! ```text
//! robots.txt:3:1: warning[empty-disallow]: `Disallow:` with no path does nothing here …
//!   |
//! 3 | Disallow:
//!   | ^^^^^^^^^
//!   = fix: fill in the intended path or delete the line
//! ```
//!
//! At most [`REPEATS_SHOWN`] findings of one name are shown in full per file; one more line
//! gives the lines of the rest.
//!
//! Colour is added only when asked for (the command line asks when writing to a terminal and
//! `NO_COLOR` is not set).

use super::{LintedFile, Printer, escape_control};
use crate::analysis::{Diagnostic, Severity};
use crate::text::{count, is_invisible};
use anstyle::{AnsiColor, Style};
use std::fmt::{self, Display};
use std::io::{self, Write};

/// Findings of one name shown in full per file; the others are summed up in one line that
/// gives their line numbers, so a file with hundreds of the same slip stays readable (the
/// counts on the summary line, `concise` and the machine formats keep every finding).
pub const REPEATS_SHOWN: usize = 3;

/// For the findings of one file, named `names` in the order printed: whether the text format
/// prints each one in full (the first [`REPEATS_SHOWN`] of each name) rather than only its line
/// number on the closing line of its name.
pub fn shown_in_full<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<bool> {
    let mut seen: Vec<(&str, usize)> = Vec::new();
    names
        .into_iter()
        .map(|name| {
            let i = match seen.iter().position(|r| r.0 == name) {
                Some(i) => i,
                None => {
                    seen.push((name, 0));
                    seen.len() - 1
                }
            };
            seen[i].1 += 1;
            seen[i].1 <= REPEATS_SHOWN
        })
        .collect()
}

/// The number of decimal digits of `n`: the width of a line number in the gutter.
fn decimal_digits(n: usize) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// Characters of a source line shown around the caret before the line is shortened.
const WINDOW: usize = 120;

/// Prints diagnostics for people, then a summary line.
#[derive(Clone, Copy, Debug, Default)]
pub struct TextPrinter {
    /// Whether to add ANSI colours.
    pub color: bool,
    /// One line per diagnostic (`path:line:column: severity[name] message`), without the
    /// source line and the fix: the `concise` format.
    pub concise: bool,
    files: usize,
    with: usize,
    unreadable: usize,
    errors: usize,
    warnings: usize,
    infos: usize,
    hidden: usize,
}

impl TextPrinter {
    /// A printer with no files seen yet.
    pub fn new(color: bool) -> Self {
        TextPrinter {
            color,
            ..TextPrinter::default()
        }
    }

    /// A printer of the `concise` format (one line per diagnostic).
    pub fn concise(color: bool) -> Self {
        TextPrinter {
            color,
            concise: true,
            ..TextPrinter::default()
        }
    }

    /// `inner` in `style` when colour is on, else as it is; written where it is printed
    /// instead of into a string of its own.
    fn painted<T: Display>(&self, style: Style, inner: T) -> Painted<T> {
        Painted {
            style: self.color.then_some(style),
            inner,
        }
    }
}

/// `inner` between the escape codes of `style`, or plain when there is no style.
struct Painted<T> {
    style: Option<Style>,
    inner: T,
}

impl<T: Display> Display for Painted<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.style {
            Some(style) => write!(
                f,
                "{}{}{}",
                style.render(),
                self.inner,
                style.render_reset()
            ),
            None => write!(f, "{}", self.inner),
        }
    }
}

/// An ASCII character written `.1` times: gutter padding and carets.
struct Repeat(u8, usize);

impl Display for Repeat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        debug_assert!(self.0.is_ascii());
        // Written a block at a time: one character at a time goes through the formatter's
        // machinery for each.
        let block = [self.0; 64];
        let block = std::str::from_utf8(&block).map_err(|_| fmt::Error)?;
        let mut left = self.1;
        while left > 0 {
            let n = left.min(block.len());
            f.write_str(&block[..n])?;
            left -= n;
        }
        Ok(())
    }
}

fn severity_style(s: Severity) -> Style {
    match s {
        Severity::Error => AnsiColor::Red.on_default().bold(),
        Severity::Warning => AnsiColor::Yellow.on_default().bold(),
        Severity::Info => AnsiColor::Cyan.on_default().bold(),
    }
}

impl Printer for TextPrinter {
    fn fixes_shown(&self) -> super::FixesShown {
        if self.concise {
            super::FixesShown::None
        } else {
            super::FixesShown::FirstOfEachName
        }
    }

    fn lines_shown(&self) -> super::FixesShown {
        // The findings printed in full, with their source line.
        self.fixes_shown()
    }

    fn file(&mut self, f: &LintedFile, out: &mut dyn Write) -> io::Result<()> {
        let gutter_style = AnsiColor::Blue.on_default().bold();
        if let Some(e) = &f.error {
            self.unreadable += 1;
            let head = self.painted(severity_style(Severity::Error), "error[unreadable]");
            if self.concise {
                return writeln!(
                    out,
                    "{}:1:1: {head} {}",
                    self.painted(Style::new().bold(), &escape_control(&f.path)),
                    escape_control(&format!("cannot be read: {e}"))
                );
            }
            return writeln!(
                out,
                "{}: {head}: {}",
                self.painted(Style::new().bold(), &escape_control(&f.path)),
                self.painted(
                    Style::new().bold(),
                    &escape_control(&format!("cannot be read: {e}"))
                )
            );
        }
        self.files += 1;
        self.hidden += f.hidden;
        if !f.diagnostics.is_empty() {
            self.with += 1;
        }
        // Per name, in order of its first finding: the lines of those not printed in full.
        let full = shown_in_full(f.diagnostics.iter().map(|d| d.name));
        let mut repeats: Vec<(&str, Vec<usize>)> = Vec::new();
        for (d, &full) in f.diagnostics.iter().zip(&full) {
            match d.severity() {
                Severity::Error => self.errors += 1,
                Severity::Warning => self.warnings += 1,
                Severity::Info => self.infos += 1,
            }
            if !self.concise {
                if full {
                    if !repeats.iter().any(|r| r.0 == d.name) {
                        repeats.push((d.name, Vec::new()));
                    }
                } else {
                    if let Some(r) = repeats.iter_mut().find(|r| r.0 == d.name) {
                        r.1.push(d.line);
                    }
                    continue;
                }
            }
            let head = format_args!("{}[{}]", d.severity().as_str(), d.name);
            let at = format_args!("{}:{}:{}", escape_control(&f.path), d.line, d.column);
            if self.concise {
                writeln!(
                    out,
                    "{}: {} {}",
                    self.painted(Style::new().bold(), at),
                    self.painted(severity_style(d.severity()), head),
                    escape_control(&d.message)
                )?;
                continue;
            }
            writeln!(
                out,
                "{}: {}: {}",
                self.painted(Style::new().bold(), at),
                self.painted(severity_style(d.severity()), head),
                self.painted(Style::new().bold(), escape_control(&d.message))
            )?;
            if let Some(src) = f.lines.get(&d.line) {
                let pad = Repeat(b' ', decimal_digits(d.line));
                let (shown, caret_at, caret_len) = snippet(src, d);
                writeln!(out, "{pad} {}", self.painted(gutter_style, "|"))?;
                writeln!(
                    out,
                    "{} {shown}",
                    self.painted(gutter_style, format_args!("{} |", d.line))
                )?;
                writeln!(
                    out,
                    "{pad} {} {}{}",
                    self.painted(gutter_style, "|"),
                    Repeat(b' ', caret_at),
                    self.painted(severity_style(d.severity()), Repeat(b'^', caret_len.max(1)))
                )?;
                if let Some(fix) = &d.suggestion {
                    let label = fix_label(d);
                    let indent = Repeat(b' ', label.chars().count() + 1);
                    let mut lines = fix.lines();
                    if let Some(first) = lines.next() {
                        writeln!(
                            out,
                            "{pad} {} {}",
                            self.painted(gutter_style, &label),
                            escape_control(first)
                        )?;
                    }
                    for more in lines {
                        writeln!(out, "{pad} {indent}{}", escape_control(more))?;
                    }
                    if let Some(f) = d.fix.as_ref().filter(|f| f.effect != "changes no decision") {
                        writeln!(out, "{pad} {indent}({})", escape_control(&f.effect))?;
                    }
                }
            } else if let Some(fix) = &d.suggestion {
                writeln!(
                    out,
                    "  {} {}",
                    self.painted(gutter_style, &fix_label(d)),
                    fix.lines()
                        .map(escape_control)
                        .collect::<Vec<_>>()
                        .join("\n         ")
                )?;
            }
        }
        for (name, lines) in repeats.iter().filter(|r| !r.1.is_empty()) {
            let shown: Vec<String> = lines.iter().take(12).map(usize::to_string).collect();
            let more = if lines.len() > shown.len() {
                ", …"
            } else {
                ""
            };
            writeln!(
                out,
                "{}: {} like the {REPEATS_SHOWN} above, on {} {}{more} (`--format concise` \
lists every finding)",
                self.painted(Style::new().bold(), &escape_control(&f.path)),
                self.painted(
                    Style::new().bold(),
                    &format!("{} `{name}`", count(lines.len(), "more", "more"))
                ),
                if lines.len() == 1 { "line" } else { "lines" },
                shown.join(", "),
            )?;
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let summary = summary(self);
        writeln!(out, "{}", self.painted(Style::new().bold(), &summary))
    }
}

/// `= fix (safe):` or `= fix (unsafe):` for a checked fix, `= fix:` for advice in words.
fn fix_label(d: &Diagnostic) -> String {
    match &d.fix {
        Some(f) => format!("= fix ({}):", f.applicability.as_str()),
        None => "= fix:".to_string(),
    }
}

fn summary(p: &TextPrinter) -> String {
    let unread = if p.unreadable > 0 {
        format!(
            " {} could not be read.",
            count(p.unreadable, "input", "inputs")
        )
    } else {
        String::new()
    };
    let hidden = if p.hidden > 0 {
        format!(
            " {} below the severity shown (no action needed; `--min-severity info` lists them).",
            count(p.hidden, "finding", "findings")
        )
    } else {
        String::new()
    };
    if p.errors + p.warnings + p.infos == 0 {
        if p.files == 0 {
            return format!("No file was linted.{unread}");
        }
        return format!(
            "No problems found in {}.{hidden}{unread}",
            count(p.files, "file", "files")
        );
    }
    format!(
        "{}, {} and {} in {} of {}.{hidden}{unread}",
        count(p.errors, "error", "errors"),
        count(p.warnings, "warning", "warnings"),
        count(p.infos, "info", "infos"),
        crate::text::thousands(p.with),
        count(p.files, "file", "files")
    )
}

/// The source line as shown (tabs expanded, control and invisible characters spelt out, long
/// lines cut to a window around the diagnostic), with the caret's offset and length in
/// displayed characters.
fn snippet(src: &str, d: &Diagnostic) -> (String, usize, usize) {
    use std::fmt::Write as _;
    let start_col = d.column.saturating_sub(1);
    let end_col = if d.end_line == d.line {
        d.end_column.saturating_sub(1).max(start_col)
    } else {
        src.chars().count()
    };
    let chars: Vec<char> = src.chars().collect();
    // Cut long lines to a window that shows the start of the caret.
    let from = if chars.len() > WINDOW && start_col > WINDOW / 3 {
        (start_col - WINDOW / 3).min(chars.len())
    } else {
        0
    };
    let to = (from + WINDOW).min(chars.len());
    let mut shown = String::new();
    if from > 0 {
        shown.push('…');
    }
    let (mut caret_at, mut caret_len) = (shown.chars().count(), 0usize);
    for (i, &c) in chars.iter().enumerate().take(to).skip(from) {
        // Shown as it is, or (tabs, controls, invisible characters) as a stand-in of plain
        // ASCII; `w` is the width in characters of what was pushed.
        let w = if c == '\t' {
            shown.push_str("    ");
            4
        } else if c.is_control() || is_invisible(c) {
            let before = shown.len();
            let _ = write!(shown, "<U+{:04X}>", c as u32);
            shown.len() - before
        } else {
            shown.push(c);
            1
        };
        if i < start_col {
            caret_at += w;
        } else if i < end_col {
            caret_len += w;
        }
    }
    if to < chars.len() {
        shown.push('…');
    }
    (shown, caret_at, caret_len)
}
