//! Self-check questions at the end of a chapter, answered by the engine at build time.
//!
//! A chapter's front matter lists `questions`. Each one holds a small robots.txt file, the
//! question in words, a `check` in the form of one item of a ```` ```robots-check ```` block
//! (a decision with its expected verdicts, or a diagnostic that must or must not be reported;
//! see [`super::checks`]), and the author's `explanation`. The build evaluates every check with
//! the engine and fails when the engine disagrees, so an answer printed in the guide is the
//! answer the tool gives. The page shows the question and the file; the answer (the engine's
//! verdicts with the deciding line, then the explanation) is folded in a `<details>` element,
//! which needs no JavaScript, with a link that opens the file in the playground.

use super::checks::{self, Checked, Expectation, Outcome, Verdict};
use crate::html::escape;
use crate::{Reading, RobotsTxt};
use std::fmt::Write as _;

/// One question as the front matter writes it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    /// The question, one sentence.
    pub question: String,
    /// The robots.txt file it is about.
    pub robots: String,
    /// What the engine must say: one robots-check item, checked for form when the front matter
    /// is read.
    #[serde(deserialize_with = "check")]
    pub check: Expectation,
    /// Why, in the author's words (shown after the engine's answer).
    pub explanation: String,
}

/// Reads a `check` as one item of a robots-check block.
fn check<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Expectation, D::Error> {
    let value = <serde_norway::Value as serde::Deserialize>::deserialize(d)?;
    checks::from_value(value).map_err(serde::de::Error::custom)
}

/// The questions of one chapter, rendered, with the problems found while answering them.
#[derive(Clone, Debug, Default)]
pub struct Answered {
    /// The section's HTML (empty when there are no questions).
    pub html: String,
    /// Problems as (question number from 1, message); the build fails on any.
    pub problems: Vec<(usize, String)>,
    /// Number of questions whose check passed.
    pub passed: usize,
}

/// Answers and renders a chapter's questions. `diagnostic_href` gives a diagnostic's page, when
/// the site has one.
pub fn answer(
    questions: &[Question],
    diagnostic_href: &dyn Fn(&str) -> Option<String>,
) -> Answered {
    let mut out = Answered::default();
    if questions.is_empty() {
        return out;
    }
    let mut items = String::new();
    for (i, q) in questions.iter().enumerate() {
        let n = i + 1;
        if q.question.trim().is_empty() || q.explanation.trim().is_empty() {
            out.problems
                .push((n, "`question` and `explanation` must not be empty".into()));
            continue;
        }
        let expectation = q.check.clone();
        let robots = RobotsTxt::parse(q.robots.as_bytes());
        let analysis = crate::analysis::analyze(&robots);
        let checked = checks::evaluate(&robots, &analysis, std::slice::from_ref(&expectation))
            .pop()
            .expect("one check, one result");
        match &checked.outcome {
            Outcome::Pass => out.passed += 1,
            Outcome::Fail { message } | Outcome::Pending { message } => {
                out.problems.push((n, message.clone()));
                continue;
            }
        }
        let urls: Vec<&str> = match &expectation {
            Expectation::Decision { url, .. } => vec![url.as_str()],
            _ => Vec::new(),
        };
        let agent = match &expectation {
            Expectation::Decision { agent, .. } => Some(agent.as_str()),
            _ => None,
        };
        let try_it = crate::html::tester::playground_href(&q.robots, &urls, agent);
        let file = super::highlight::highlight(&q.robots, "robots-txt")
            .unwrap_or_else(|| escape(&q.robots).into_owned());
        let _ = write!(
            items,
            "<li class=\"question\">\n<p class=\"question-text\">{}</p>\n\
             <pre class=\"code\" data-lang=\"robots-txt\"><code>{file}</code></pre>\n\
             <details class=\"answer\"><summary>Answer</summary>\n<p class=\"engine-answer\">{}</p>\n\
             <p>{}</p>\n<p class=\"try-it\"><a href=\"{}\">Try it</a> in the playground.</p>\n\
             </details>\n</li>\n",
            inline_code(q.question.trim()),
            engine_answer(&checked, diagnostic_href),
            inline_code(q.explanation.trim()),
            escape(&try_it),
        );
    }
    if !items.is_empty() {
        out.html = format!(
            "<section class=\"self-check\" aria-labelledby=\"check-yourself\">\n\
             <h2 id=\"check-yourself\">Check yourself</h2>\n\
             <p class=\"hint\">Every answer below is what robots-explorer's engine decides for \
             the file shown; the guide is not built when it disagrees with the answer written \
             here.</p>\n<ol class=\"questions\">\n{items}</ol>\n</section>\n"
        );
    }
    out
}

/// Escapes `text` for HTML, with each pair of backticks around a span made a `<code>` element
/// (an unpaired backtick stays as it is).
fn inline_code(text: &str) -> String {
    let parts: Vec<&str> = text.split('`').collect();
    let mut out = String::with_capacity(text.len() + 16);
    for (i, part) in parts.iter().enumerate() {
        let paired = i % 2 == 1 && i + 1 < parts.len();
        let last_unpaired = i % 2 == 1 && i + 1 == parts.len();
        if paired {
            let _ = write!(out, "<code>{}</code>", escape(part));
        } else {
            if last_unpaired {
                out.push('`');
            }
            out.push_str(&escape(part));
        }
    }
    out
}

/// The engine's answer in words: the verdict per reading with its reason, or the diagnostic.
fn engine_answer(c: &Checked, diagnostic_href: &dyn Fn(&str) -> Option<String>) -> String {
    let name_html = |name: &str| match diagnostic_href(name) {
        Some(h) => format!(
            "<a href=\"{}\"><code>{}</code></a>",
            escape(&h),
            escape(name)
        ),
        None => format!("<code>{}</code>", escape(name)),
    };
    match &c.expectation {
        Expectation::Decision { .. } => {
            let verdict = |v: Verdict| match v {
                Verdict::Allowed => "<strong class=\"v-allowed\">Allowed</strong>",
                Verdict::Disallowed => "<strong class=\"v-disallowed\">Disallowed</strong>",
            };
            let google = c.said.iter().find(|s| s.reading == Reading::Google);
            let rfc = c.said.iter().find(|s| s.reading == Reading::Rfc9309);
            match (google, rfc) {
                (Some(g), Some(r)) if g.verdict == r.verdict && g.why == r.why => format!(
                    "{} in both readings: {}.",
                    verdict(g.verdict),
                    inline_code(&g.why)
                ),
                _ => c
                    .said
                    .iter()
                    .map(|s| {
                        format!(
                            "{} in the {} reading: {}.",
                            verdict(s.verdict),
                            s.reading.label(),
                            inline_code(&s.why)
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
            }
        }
        Expectation::Diagnostic { name, .. } => format!(
            "robots-explorer reports {}{}.",
            name_html(name),
            match c.found_lines.first() {
                Some(l) => format!(" on line {l}"),
                None => String::new(),
            }
        ),
        Expectation::NoDiagnostic { name } => {
            format!("robots-explorer does not report {}.", name_html(name))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::inline_code;

    #[test]
    fn backticks_make_code_and_the_rest_is_escaped() {
        assert_eq!(
            inline_code("line 3 `Allow: /a<b>` decided & `$` ends"),
            "line 3 <code>Allow: /a&lt;b&gt;</code> decided &amp; <code>$</code> ends"
        );
        assert_eq!(inline_code("a ` alone"), "a ` alone");
    }
}
