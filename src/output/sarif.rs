//! SARIF 2.1.0 (OASIS Static Analysis Results Interchange Format), as GitHub code scanning and
//! other services read it.
//!
//! One run; the tool's rules are the whole [`catalogue`](crate::analysis::catalogue()), with each
//! entry's summary, documentation and main reference; each diagnostic is a result pointing at a
//! region (1-based lines, columns counted in Unicode code points, `endColumn` just after the
//! end). [`Writer`] streams the log and serves `lint` and the audit report alike.

use super::{LintedFile, Printer};
use crate::analysis::{CatalogueEntry, Diagnostic, Severity, catalogue};
use serde_json::{Value, json};
use std::io::{self, Write};

/// The schema the document declares.
pub const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// Prints a SARIF log of `lint` results, file by file.
#[derive(Default)]
pub struct SarifPrinter(Option<Writer>);

impl Printer for SarifPrinter {
    fn begin(&mut self, out: &mut dyn Write) -> io::Result<()> {
        self.0 = Some(Writer::begin(out, &Options::default())?);
        Ok(())
    }
    fn file(&mut self, f: &LintedFile, out: &mut dyn Write) -> io::Result<()> {
        match &mut self.0 {
            Some(w) => w.file(out, f),
            None => Err(io::Error::other("SARIF printer used before begin")),
        }
    }
    fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        match self.0.take() {
            Some(w) => w.finish(out),
            None => Err(io::Error::other("SARIF printer used before begin")),
        }
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

/// One diagnostic as a SARIF result needs it, whatever produced it (`lint`, the audit report).
#[derive(Clone, Copy, Debug)]
pub struct Finding<'a> {
    /// The diagnostic's name (a rule id).
    pub name: &'a str,
    /// Its severity.
    pub severity: Severity,
    /// The message.
    pub message: &'a str,
    /// A suggested fix, appended to the message as `Fix: …`.
    pub suggestion: Option<&'a str>,
    /// The suggestion as a checked edit, given in the result's `properties.fix`.
    pub fix: Option<&'a crate::analysis::Fix>,
    /// 1-based start line and column (columns in Unicode code points).
    pub line: usize,
    /// See `line`.
    pub column: usize,
    /// 1-based end line and the column just after the end.
    pub end_line: usize,
    /// See `end_line`.
    pub end_column: usize,
    /// The readings it applies in.
    pub readings: crate::analysis::Readings,
    /// The reference it cites (said on the result only when it differs from the rule's).
    pub reference: &'a str,
}

impl<'a> From<&'a Diagnostic> for Finding<'a> {
    fn from(d: &'a Diagnostic) -> Self {
        Finding {
            name: d.name,
            severity: d.severity(),
            message: &d.message,
            suggestion: d.suggestion.as_deref(),
            fix: d.fix.as_ref(),
            line: d.line,
            column: d.column,
            end_line: d.end_line,
            end_column: d.end_column,
            readings: d.readings,
            reference: d.reference,
        }
    }
}

/// Settings of a SARIF log.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// A base URI id and its description (`originalUriBaseIds`); artifact URIs are then
    /// relative to it. Without one, relative URIs are relative to the working directory.
    pub uri_base: Option<(&'static str, &'static str)>,
    /// The run's `properties` (say, the reading), or null.
    pub properties: Value,
    /// Rule ids met outside the catalogue (listed after it, without documentation).
    pub extra_rules: Vec<String>,
}

/// A SARIF 2.1.0 log written as it goes: [`Writer::begin`] writes the tool and its rules,
/// each [`Writer::result`] one result, and [`Writer::finish`] the notifications (inputs that
/// could not be read) and the closing brackets. Memory does not grow with the number of results.
/// The one SARIF writer of the tool: `lint --format sarif` and the report's `results.sarif`.
/// The output is passed to each call; give a buffered one.
pub struct Writer {
    /// Rule id → (index, the rule's reference label).
    rules: std::collections::HashMap<String, (usize, Option<&'static str>)>,
    base_id: Option<&'static str>,
    results: usize,
    notes: Vec<Value>,
    /// Notifications at level `warning` or `note`, which leave the run successful.
    warnings: Vec<Value>,
}

impl Writer {
    /// Writes the start of the log: schema, tool, rules (the whole catalogue, then
    /// `options.extra_rules`), and opens the results.
    ///
    /// # Errors
    /// Errors of `out`.
    pub fn begin(out: &mut dyn Write, options: &Options) -> io::Result<Writer> {
        let cat = catalogue();
        let mut rules: Vec<Value> = cat.iter().map(rule).collect();
        let mut index = std::collections::HashMap::new();
        for (i, e) in cat.iter().enumerate() {
            index.insert(
                e.name.to_string(),
                (i, e.references.first().map(|(label, _)| *label)),
            );
        }
        for extra in &options.extra_rules {
            if !index.contains_key(extra) {
                index.insert(extra.clone(), (rules.len(), None));
                rules.push(json!({ "id": extra, "name": pascal(extra) }));
            }
        }
        let mut run = json!({
            "tool": { "driver": {
                "name": "robots-explorer",
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://www.rfc-editor.org/rfc/rfc9309.html",
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
        });
        if let Some((id, description)) = options.uri_base {
            run["originalUriBaseIds"] = json!({ id: { "description": { "text": description } } });
        }
        if !options.properties.is_null() {
            run["properties"] = options.properties.clone();
        }
        // The run object without its closing brace, then the results array.
        let head = serde_json::to_string(&run).map_err(io::Error::other)?;
        write!(
            out,
            "{{\"$schema\":{},\"version\":\"2.1.0\",\"runs\":[{},\"results\":[",
            serde_json::to_string(SCHEMA).map_err(io::Error::other)?,
            &head[..head.len() - 1]
        )?;
        Ok(Writer {
            rules: index,
            base_id: options.uri_base.map(|(id, _)| id),
            results: 0,
            notes: Vec::new(),
            warnings: Vec::new(),
        })
    }

    /// Writes one result at `uri` (an artifact URI, see [`artifact_uri`]); `host` goes into the
    /// result's properties when given.
    ///
    /// # Errors
    /// Errors of the output.
    pub fn result(
        &mut self,
        out: &mut dyn Write,
        uri: &str,
        host: Option<&str>,
        d: &Finding,
    ) -> io::Result<()> {
        let rule = self.rules.get(d.name).copied();
        let result = result_value(uri, host, d, self.base_id, rule);
        let line = serde_json::to_vec(&result).map_err(io::Error::other)?;
        self.raw_result(out, &line)
    }

    /// Writes one result already serialised by [`result_value`] (compact JSON, as given).
    ///
    /// # Errors
    /// Errors of the output.
    pub fn raw_result(&mut self, out: &mut dyn Write, json: &[u8]) -> io::Result<()> {
        if self.results > 0 {
            out.write_all(b",")?;
        }
        self.results += 1;
        out.write_all(json)
    }

    /// Writes the results of one linted file; an unreadable one becomes a notification.
    ///
    /// # Errors
    /// Errors of the output.
    pub fn file(&mut self, out: &mut dyn Write, f: &LintedFile) -> io::Result<()> {
        let uri = f.uri.clone().unwrap_or_else(|| artifact_uri(&f.path));
        if let Some(e) = &f.error {
            self.notification(Some(&uri), &format!("{}: {e}", f.path));
        }
        for d in &f.diagnostics {
            self.result(out, &uri, None, &Finding::from(d))?;
        }
        Ok(())
    }

    /// Records an error of the run (an input that could not be read) as a tool execution
    /// notification, written by [`Writer::finish`].
    pub fn notification(&mut self, uri: Option<&str>, message: &str) {
        let mut n = json!({ "level": "error", "message": { "text": message } });
        if let Some(u) = uri {
            let mut artifact = json!({ "uri": u });
            if let Some(id) = self.base_id {
                artifact["uriBaseId"] = json!(id);
            }
            n["locations"] = json!([{ "physicalLocation": { "artifactLocation": artifact } }]);
        }
        self.notes.push(n);
    }

    /// Records a warning about the run itself (say, results left out) as a tool execution
    /// notification, written by [`Writer::finish`].
    pub fn warning_notification(&mut self, message: &str) {
        self.warnings
            .push(json!({ "level": "warning", "message": { "text": message } }));
    }

    /// Records a note about the run itself (say, a severity left out by design) as a tool
    /// execution notification at level `note`, written by [`Writer::finish`]; the run still
    /// counts as successful.
    pub fn note_notification(&mut self, message: &str) {
        self.warnings
            .push(json!({ "level": "note", "message": { "text": message } }));
    }

    /// Closes the results and writes the invocation with its notifications.
    ///
    /// # Errors
    /// Errors of the output.
    pub fn finish(self, out: &mut dyn Write) -> io::Result<()> {
        let success = self.notes.is_empty();
        let mut notes = self.notes;
        notes.extend(self.warnings);
        let invocation = json!([{
            "executionSuccessful": success,
            "toolExecutionNotifications": notes,
        }]);
        write!(out, "],\"invocations\":")?;
        serde_json::to_writer(&mut *out, &invocation).map_err(io::Error::other)?;
        out.write_all(b"}]}\n")?;
        out.flush()
    }
}

/// The rule index of a catalogued diagnostic in a log [`Writer::begin`] wrote (the catalogue's
/// order), and the label of the rule's reference.
pub fn catalogue_rule(name: &str) -> Option<(usize, Option<&'static str>)> {
    let cat = catalogue();
    let i = cat.iter().position(|e| e.name == name)?;
    Some((i, cat[i].references.first().map(|(label, _)| *label)))
}

/// The SARIF result object of finding `d` at `uri` (relative to the base id `base_id`, when
/// given): rule id and, with `rule` (its index and reference label, see [`catalogue_rule`]),
/// its index; level, message with the suggested fix, region, and properties (`readings`,
/// `host` when given, the fix, and the reference when it differs from the rule's).
/// Serialises with every object's members in byte order of their names, as a
/// [`serde_json::Value`] would, so that logs read the same however a result was written.
pub fn result_value<'a>(
    uri: &'a str,
    host: Option<&'a str>,
    d: &Finding<'a>,
    base_id: Option<&'a str>,
    rule: Option<(usize, Option<&'static str>)>,
) -> SarifResult<'a> {
    let index = rule.map(|(i, _)| i);
    let rule_ref = rule.and_then(|(_, r)| r);
    let mut text = d.message.to_string();
    if let Some(fix) = d.suggestion {
        match d.fix {
            Some(f) => text.push_str(&format!("\nFix ({}): ", f.applicability.as_str())),
            None => text.push_str("\nFix: "),
        }
        text.push_str(fix);
    }
    let start_line = d.line.max(1);
    let end_line = d.end_line.max(start_line);
    let region = Region {
        end_column: if end_line == start_line {
            d.end_column.max(d.column).max(1)
        } else {
            d.end_column.max(1)
        },
        end_line: (end_line != start_line).then_some(end_line),
        start_column: d.column.max(1),
        start_line,
    };
    SarifResult {
        level: level(d.severity),
        locations: [Location {
            physical_location: PhysicalLocation {
                artifact_location: ArtifactLocation {
                    uri,
                    uri_base_id: base_id,
                },
                region,
            },
        }],
        message: Message { text },
        properties: Properties {
            fix: d
                .fix
                .map(|f| serde_json::to_value(f).expect("a fix serialises")),
            host,
            readings: d.readings,
            reference: (!d.reference.is_empty() && rule_ref != Some(d.reference))
                .then_some(d.reference),
        },
        rule_id: d.name,
        rule_index: index,
    }
}

/// A SARIF result object ([`result_value`]); members in byte order of their names.
#[derive(serde::Serialize)]
pub struct SarifResult<'a> {
    level: &'static str,
    locations: [Location<'a>; 1],
    message: Message,
    properties: Properties<'a>,
    #[serde(rename = "ruleId")]
    rule_id: &'a str,
    #[serde(rename = "ruleIndex", skip_serializing_if = "Option::is_none")]
    rule_index: Option<usize>,
}

#[derive(serde::Serialize)]
struct Location<'a> {
    #[serde(rename = "physicalLocation")]
    physical_location: PhysicalLocation<'a>,
}

#[derive(serde::Serialize)]
struct PhysicalLocation<'a> {
    #[serde(rename = "artifactLocation")]
    artifact_location: ArtifactLocation<'a>,
    region: Region,
}

#[derive(serde::Serialize)]
struct ArtifactLocation<'a> {
    uri: &'a str,
    #[serde(rename = "uriBaseId", skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'a str>,
}

#[derive(serde::Serialize)]
struct Region {
    #[serde(rename = "endColumn")]
    end_column: usize,
    #[serde(rename = "endLine", skip_serializing_if = "Option::is_none")]
    end_line: Option<usize>,
    #[serde(rename = "startColumn")]
    start_column: usize,
    #[serde(rename = "startLine")]
    start_line: usize,
}

#[derive(serde::Serialize)]
struct Message {
    text: String,
}

#[derive(serde::Serialize)]
struct Properties<'a> {
    /// The fix as a JSON value, so that its members come in byte order too.
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    host: Option<&'a str>,
    readings: crate::analysis::Readings,
    #[serde(skip_serializing_if = "Option::is_none")]
    reference: Option<&'a str>,
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
    // The reference its results cite, said once here (a result repeats it only if it differs).
    if let Some((label, _)) = e.references.first() {
        v["properties"]["reference"] = json!(label);
    }
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

/// The characters kept as they are in artifact URIs (RFC 3986 unreserved, and `/`).
const URI_KEEP: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'/')
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// A URI reference for a path given as raw bytes (the file name as the file system has it, which
/// need not be UTF-8): every other byte percent-encoded, `\\` read as `/`, so the path can be
/// found again exactly. Relative paths stay relative; a leading `./` is dropped.
pub fn path_uri(path: &std::path::Path) -> String {
    #[cfg(unix)]
    let bytes: std::borrow::Cow<'_, [u8]> = {
        use std::os::unix::ffi::OsStrExt as _;
        std::borrow::Cow::Borrowed(path.as_os_str().as_bytes())
    };
    #[cfg(not(unix))]
    let bytes: std::borrow::Cow<'_, [u8]> =
        std::borrow::Cow::Owned(path.to_string_lossy().replace('\\', "/").into_bytes());
    let bytes = bytes.strip_prefix(b"./").unwrap_or(&bytes);
    let encoded = percent_encoding::percent_encode(bytes, URI_KEEP).to_string();
    if path.is_absolute() {
        format!("file://{encoded}")
    } else {
        encoded
    }
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
    percent_encoding::utf8_percent_encode(unified, URI_KEEP).to_string()
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
