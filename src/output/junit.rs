//! JUnit XML, as CI services (GitLab, Jenkins, Azure Pipelines, CircleCI) show test results:
//!
//! ```xml
//! <?xml version="1.0" encoding="UTF-8"?>
//! <testsuites name="robots-explorer lint">
//!   <testsuite name="robots.txt" tests="1" failures="1" errors="0">
//!     <testcase name="empty-disallow at 3:1" classname="robots.txt" file="robots.txt" line="3">
//!       <failure type="empty-disallow" message="warning: …">robots.txt:3:1: warning[empty-disallow] …</failure>
//!     </testcase>
//!   </testsuite>
//! </testsuites>
//! ```
//!
//! One test suite per file and one failing test case per diagnostic; a file without findings
//! is one passing case named `lint`, and a file that could not be read one case with an
//! `<error>`. The document is streamed file by file, so `<testsuites>` carries no totals (the
//! services that read it add them up). Text is escaped by [`crate::html::escape`], whose output
//! is also valid XML 1.0 (control characters become visible stand-ins).

use super::{LintedFile, Printer};
use crate::html::escape;
use std::io::{self, Write};

/// Prints a JUnit XML document.
#[derive(Clone, Copy, Debug, Default)]
pub struct JunitPrinter;

impl Printer for JunitPrinter {
    fn begin(&mut self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")?;
        writeln!(out, "<testsuites name=\"robots-explorer lint\">")
    }

    fn file(&mut self, f: &LintedFile, out: &mut dyn Write) -> io::Result<()> {
        let path = escape(&f.path);
        if let Some(e) = &f.error {
            writeln!(
                out,
                "  <testsuite name=\"{path}\" tests=\"1\" failures=\"0\" errors=\"1\">"
            )?;
            writeln!(
                out,
                "    <testcase name=\"read\" classname=\"{path}\" file=\"{path}\">"
            )?;
            writeln!(
                out,
                "      <error type=\"unreadable\" message=\"{}\"/>",
                escape(&format!("cannot be read: {e}"))
            )?;
            writeln!(out, "    </testcase>")?;
            return writeln!(out, "  </testsuite>");
        }
        let n = f.diagnostics.len();
        writeln!(
            out,
            "  <testsuite name=\"{path}\" tests=\"{}\" failures=\"{n}\" errors=\"0\">",
            n.max(1)
        )?;
        if n == 0 {
            writeln!(
                out,
                "    <testcase name=\"lint\" classname=\"{path}\" file=\"{path}\"/>"
            )?;
        }
        for d in &f.diagnostics {
            writeln!(
                out,
                "    <testcase name=\"{} at {}:{}\" classname=\"{path}\" file=\"{path}\" line=\"{}\">",
                d.name, d.line, d.column, d.line
            )?;
            let mut body = format!(
                "{}:{}:{}: {}[{}] {}",
                f.path,
                d.line,
                d.column,
                d.severity().as_str(),
                d.name,
                d.message
            );
            if let Some(fix) = &d.suggestion {
                body.push_str("\nfix: ");
                body.push_str(fix);
            }
            writeln!(
                out,
                "      <failure type=\"{}\" message=\"{}\">{}</failure>",
                d.name,
                escape(&format!("{}: {}", d.severity().as_str(), d.message)),
                escape(&body)
            )?;
            writeln!(out, "    </testcase>")?;
        }
        writeln!(out, "  </testsuite>")
    }

    fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "</testsuites>")
    }
}
