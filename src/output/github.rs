//! GitHub Actions workflow commands, one per diagnostic:
//!
//! ```text
//! ::warning file=robots.txt,line=3,col=1,endLine=3,endColumn=10,title=empty-disallow::message
//! ```
//!
//! GitHub shows them as annotations on the pull request. Severity `info` becomes `notice`.
//! Values are escaped as the runner expects: `%`, CR and LF everywhere, and also `:` and `,` in
//! properties.

use super::{LintedFile, Printer};
use crate::analysis::Severity;
use std::io::{self, Write};

/// Prints workflow commands.
#[derive(Clone, Copy, Debug, Default)]
pub struct GithubPrinter;

/// Escapes a command's message.
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value (`file=…`, `title=…`).
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

impl Printer for GithubPrinter {
    fn file(&mut self, f: &LintedFile, out: &mut dyn Write) -> io::Result<()> {
        if let Some(e) = &f.error {
            writeln!(
                out,
                "::error file={},title=unreadable::{}",
                escape_property(&f.path),
                escape_data(&format!("cannot be read: {e}"))
            )?;
        }
        for d in &f.diagnostics {
            let command = match d.severity() {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "notice",
            };
            let mut message = d.message.clone();
            if let Some(fix) = &d.suggestion {
                match &d.fix {
                    Some(f) => message.push_str(&format!(
                        "\nFix ({}, {}): ",
                        f.applicability.as_str(),
                        f.effect
                    )),
                    None => message.push_str("\nFix: "),
                }
                message.push_str(fix);
            }
            writeln!(
                out,
                "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}",
                escape_property(&f.path),
                d.line,
                d.column,
                d.end_line,
                d.end_column,
                escape_property(d.name),
                escape_data(&message)
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(escape_data("50% off\r\nnow"), "50%25 off%0D%0Anow");
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
    }
}
