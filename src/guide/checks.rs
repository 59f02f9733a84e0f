//! ```` ```robots-check ```` blocks: expectations about the closest preceding ```` ```robots ````
//! block, evaluated with the engine at build time.
//!
//! A block is YAML: one mapping or a list of mappings. Each mapping is one *check*:
//!
//! - a decision: `agent` (a product token), `url` (absolute, or a path starting with `/`) and
//!   `google` and/or `rfc`, each `allowed` or `disallowed`;
//! - `diagnostic: NAME`, optionally with `line: N`: the analysis must report that diagnostic
//!   (on that 1-based line), in either reading;
//! - `no-diagnostic: NAME`: the analysis must not report it.
//!
//! Decisions come from [`RobotsTxt::decide`]; diagnostics from [`crate::analysis::analyze`]. A
//! check whose diagnostic is not in [`crate::analysis::catalogue`] fails, except while the
//! catalogue is empty (the analysis is not part of this build yet): then it is *pending*,
//! which fails the build too unless the caller explicitly allows pending checks.

use crate::analysis::Analysis;
use crate::{Reading, RobotsTxt};

/// An expected verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The crawler may fetch the URL.
    Allowed,
    /// The crawler may not fetch the URL.
    Disallowed,
}

impl Verdict {
    /// `allowed` or `disallowed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Allowed => "allowed",
            Verdict::Disallowed => "disallowed",
        }
    }
    fn of(allowed: bool) -> Verdict {
        if allowed {
            Verdict::Allowed
        } else {
            Verdict::Disallowed
        }
    }
}

/// One mapping of a robots-check block, as written.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    agent: Option<String>,
    url: Option<String>,
    google: Option<Verdict>,
    rfc: Option<Verdict>,
    diagnostic: Option<String>,
    line: Option<usize>,
    #[serde(rename = "no-diagnostic")]
    no_diagnostic: Option<String>,
}

/// What one check expects.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Expectation {
    /// Verdicts for a crawler and a URL, in one or both readings.
    Decision {
        /// The crawler's product token.
        agent: String,
        /// The URL.
        url: String,
        /// Expected verdict in the Google reading.
        google: Option<Verdict>,
        /// Expected verdict in the RFC 9309 reading.
        rfc: Option<Verdict>,
    },
    /// The diagnostic is reported (on `line`, if given).
    Diagnostic {
        /// Diagnostic name.
        name: String,
        /// 1-based line.
        line: Option<usize>,
    },
    /// The diagnostic is not reported.
    NoDiagnostic {
        /// Diagnostic name.
        name: String,
    },
}

impl Expectation {
    /// A short description for messages, e.g. `Googlebot /x: Google disallowed, RFC 9309 allowed`.
    pub fn describe(&self) -> String {
        match self {
            Expectation::Decision {
                agent,
                url,
                google,
                rfc,
            } => {
                let mut parts = Vec::new();
                if let Some(g) = google {
                    parts.push(format!("{} in the Google reading", g.as_str()));
                }
                if let Some(r) = rfc {
                    parts.push(format!("{} in the RFC 9309 reading", r.as_str()));
                }
                format!("{agent} {url}: {}", parts.join(", "))
            }
            Expectation::Diagnostic { name, line: None } => format!("diagnostic {name}"),
            Expectation::Diagnostic {
                name,
                line: Some(l),
            } => format!("diagnostic {name} on line {l}"),
            Expectation::NoDiagnostic { name } => format!("no diagnostic {name}"),
        }
    }
}

/// Parses a robots-check block.
///
/// # Errors
/// A message naming the item (1-based) that is not a valid check.
pub fn parse(yaml: &str) -> Result<Vec<Expectation>, String> {
    crate::report::sidecar::check_yaml_shape(yaml)?;
    let value: serde_norway::Value =
        serde_norway::from_str(yaml).map_err(|e| format!("not YAML: {e}"))?;
    let items = match value {
        serde_norway::Value::Sequence(items) => items,
        v @ serde_norway::Value::Mapping(_) => vec![v],
        _ => return Err("expected a mapping or a list of mappings".into()),
    };
    if items.is_empty() {
        return Err("the block holds no check".into());
    }
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| from_value(item).map_err(|e| format!("item {}: {e}", i + 1)))
        .collect()
}

/// One check from its YAML mapping (the form of one item of a block).
///
/// # Errors
/// A message saying what is missing or contradictory.
pub fn from_value(item: serde_norway::Value) -> Result<Expectation, String> {
    let raw: Raw = serde_norway::from_value(item).map_err(|e| e.to_string())?;
    expectation(raw)
}

fn expectation(raw: Raw) -> Result<Expectation, String> {
    let decision =
        raw.agent.is_some() || raw.url.is_some() || raw.google.is_some() || raw.rfc.is_some();
    let kinds = usize::from(decision)
        + usize::from(raw.diagnostic.is_some())
        + usize::from(raw.no_diagnostic.is_some());
    if kinds != 1 {
        return Err(
            "give either agent/url/google/rfc, or `diagnostic` (with optional `line`), or \
             `no-diagnostic`"
                .into(),
        );
    }
    if raw.line.is_some() && raw.diagnostic.is_none() {
        return Err("`line` goes with `diagnostic`".into());
    }
    if let Some(name) = raw.diagnostic {
        return Ok(Expectation::Diagnostic {
            name,
            line: raw.line,
        });
    }
    if let Some(name) = raw.no_diagnostic {
        return Ok(Expectation::NoDiagnostic { name });
    }
    let agent = raw.agent.ok_or("`agent` is missing")?;
    let url = raw.url.ok_or("`url` is missing")?;
    if raw.google.is_none() && raw.rfc.is_none() {
        return Err("give `google`, `rfc` or both".into());
    }
    if !(url.starts_with('/') || url::Url::parse(&url).is_ok_and(|u| u.has_host())) {
        return Err(format!(
            "`{url}` is neither an absolute URL nor a path starting with `/`"
        ));
    }
    Ok(Expectation::Decision {
        agent,
        url,
        google: raw.google,
        rfc: raw.rfc,
    })
}

/// What the engine said for one reading of a decision check.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Said {
    /// The reading.
    pub reading: Reading,
    /// The engine's verdict.
    pub verdict: Verdict,
    /// The expected verdict, if the check names this reading.
    pub expected: Option<Verdict>,
    /// Why, in words: the deciding line and rule, or the reason there is none.
    pub why: String,
    /// 1-based number of the deciding line, if a rule decided.
    pub line: Option<usize>,
}

/// The result of one check.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum Outcome {
    /// The engine agrees.
    Pass,
    /// The engine disagrees; the message says what it said and why.
    Fail {
        /// What the engine said and why.
        message: String,
    },
    /// Cannot be evaluated in this build (the analysis catalogue is empty).
    Pending {
        /// Why.
        message: String,
    },
}

/// One evaluated check.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Checked {
    /// What was expected.
    pub expectation: Expectation,
    /// For decisions: what the engine said in each reading the check names.
    pub said: Vec<Said>,
    /// For diagnostics: the matching reports (line numbers), if any.
    pub found_lines: Vec<usize>,
    /// The result.
    pub outcome: Outcome,
}

fn why(d: &crate::Decision, robots: &RobotsTxt) -> String {
    match &d.rule {
        Some(r) => {
            let line_text = robots
                .tree
                .lines
                .get(r.line - 1)
                .map(|l| robots.text(l.content()).trim().to_string())
                .unwrap_or_default();
            let derived = if r.derived {
                format!(" (Google's derived `{}`)", r.pattern)
            } else {
                String::new()
            };
            format!(
                "line {} `{}` decided{}: {}",
                r.line,
                line_text,
                derived,
                d.reason.phrase()
            )
        }
        None => d.reason.phrase().to_string(),
    }
}

/// Evaluates expectations against a parsed block and its analysis.
pub fn evaluate(
    robots: &RobotsTxt,
    analysis: &Analysis,
    expectations: &[Expectation],
) -> Vec<Checked> {
    let catalogue_empty = crate::analysis::catalogue().is_empty();
    expectations
        .iter()
        .map(|e| match e {
            Expectation::Decision {
                agent,
                url,
                google,
                rfc,
            } => {
                let mut said = Vec::new();
                let mut wrong = Vec::new();
                for (reading, expected) in [(Reading::Google, google), (Reading::Rfc9309, rfc)] {
                    let d = robots.decide(reading, agent, url);
                    let verdict = Verdict::of(d.allowed);
                    let s = Said {
                        reading,
                        verdict,
                        expected: *expected,
                        why: why(&d, robots),
                        line: d.rule.as_ref().map(|r| r.line),
                    };
                    if expected.is_some_and(|x| x != verdict) {
                        wrong.push(format!(
                            "in the {} reading the engine says {} ({})",
                            reading.label(),
                            verdict.as_str(),
                            s.why
                        ));
                    }
                    if expected.is_some() {
                        said.push(s);
                    }
                }
                let outcome = if wrong.is_empty() {
                    Outcome::Pass
                } else {
                    Outcome::Fail {
                        message: wrong.join("; "),
                    }
                };
                Checked {
                    expectation: e.clone(),
                    said,
                    found_lines: Vec::new(),
                    outcome,
                }
            }
            Expectation::Diagnostic { name, .. } | Expectation::NoDiagnostic { name }
                if catalogue_empty =>
            {
                Checked {
                    expectation: e.clone(),
                    said: Vec::new(),
                    found_lines: Vec::new(),
                    outcome: Outcome::Pending {
                        message: format!(
                            "cannot check `{name}`: this build's analysis has no diagnostics \
                             (its catalogue is empty)"
                        ),
                    },
                }
            }
            Expectation::Diagnostic { name, line } => {
                let found = diagnostic_lines(analysis, name);
                let outcome = if let Some(unknown) = unknown_diagnostic(name) {
                    unknown
                } else if found.is_empty() || line.is_some_and(|l| !found.contains(&l)) {
                    Outcome::Fail {
                        message: format!(
                            "the engine {}; it reported: {}",
                            if found.is_empty() {
                                format!("did not report `{name}`")
                            } else {
                                format!("reported `{name}` on line(s) {}", join_lines(&found))
                            },
                            reported(analysis)
                        ),
                    }
                } else {
                    Outcome::Pass
                };
                Checked {
                    expectation: e.clone(),
                    said: Vec::new(),
                    found_lines: found,
                    outcome,
                }
            }
            Expectation::NoDiagnostic { name } => {
                let found = diagnostic_lines(analysis, name);
                let outcome = if let Some(unknown) = unknown_diagnostic(name) {
                    unknown
                } else if found.is_empty() {
                    Outcome::Pass
                } else {
                    let messages: Vec<String> = analysis
                        .diagnostics
                        .iter()
                        .filter(|d| d.name == name)
                        .map(|d| format!("line {}: {}", d.line, d.message))
                        .collect();
                    Outcome::Fail {
                        message: format!("the engine reported `{name}`: {}", messages.join("; ")),
                    }
                };
                Checked {
                    expectation: e.clone(),
                    said: Vec::new(),
                    found_lines: found,
                    outcome,
                }
            }
        })
        .collect()
}

/// The lines on which the analysis reported the diagnostic `name`.
fn diagnostic_lines(analysis: &Analysis, name: &str) -> Vec<usize> {
    analysis
        .diagnostics
        .iter()
        .filter(|d| d.name == name)
        .map(|d| d.line)
        .collect()
}

/// A failure when `name` is not in the analysis's catalogue.
fn unknown_diagnostic(name: &str) -> Option<Outcome> {
    crate::analysis::entry(name)
        .is_none()
        .then(|| Outcome::Fail {
            message: format!("`{name}` is not a diagnostic the analysis knows"),
        })
}

fn join_lines(lines: &[usize]) -> String {
    lines
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn reported(analysis: &Analysis) -> String {
    if analysis.diagnostics.is_empty() {
        return "nothing".into();
    }
    analysis
        .diagnostics
        .iter()
        .map(|d| format!("{} (line {})", d.name, d.line))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_shapes() {
        let one = parse("agent: Googlebot\nurl: /x\ngoogle: allowed\n").unwrap();
        assert_eq!(one.len(), 1);
        let many = parse(
            "- agent: a\n  url: /\n  rfc: disallowed\n- diagnostic: empty-disallow\n  line: 3\n- no-diagnostic: utf8-bom\n",
        )
        .unwrap();
        assert_eq!(
            many[1],
            Expectation::Diagnostic {
                name: "empty-disallow".into(),
                line: Some(3)
            }
        );
        assert_eq!(
            many[2],
            Expectation::NoDiagnostic {
                name: "utf8-bom".into()
            }
        );
    }

    #[test]
    fn rejects_malformed_checks() {
        for bad in [
            "agent: a\nurl: /\n",
            "agent: a\ngoogle: allowed\n",
            "agent: a\nurl: /\ngoogle: maybe\n",
            "agent: a\nurl: x\ngoogle: allowed\n",
            "diagnostic: x\nagent: a\n",
            "no-diagnostic: x\nline: 2\n",
            "crawler: a\n",
            "[]",
            "42",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        let e = parse("- agent: a\n  url: /\n  google: allowed\n- agent: b\n").unwrap_err();
        assert!(e.starts_with("item 2:"), "{e}");
    }

    #[test]
    fn decision_failure_names_the_deciding_line() {
        let robots = RobotsTxt::parse(b"User-agent: *\nDisallow: /a\nAllow: /a/b\n");
        let checks =
            parse("agent: Googlebot\nurl: /a/b/c\ngoogle: disallowed\nrfc: allowed\n").unwrap();
        let out = evaluate(&robots, &Analysis::default(), &checks);
        let Outcome::Fail { message } = &out[0].outcome else {
            panic!("{out:?}")
        };
        assert_eq!(
            message,
            "in the Google reading the engine says allowed (line 3 `Allow: /a/b` decided: longest match)"
        );
        assert_eq!(out[0].said.len(), 2);
        assert_eq!(out[0].said[1].line, Some(3));
    }
}
