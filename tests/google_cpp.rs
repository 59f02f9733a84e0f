//! The Google reading against the answers of google/robotstxt's C++ matcher (`robots.cc`, what
//! Googlebot runs) to 154,721 questions over every file of the real corpus
//! (`../shared/conformance/google-cpp-corpus.jsonl`, `../shared/corpus/files`).
//!
//! The C++ matcher was run on each file's first 512,000 bytes; the Google reading applies the
//! same parsing limit itself, so files are given whole. Every answer must agree, and the
//! one-pass decision ([`robots_explorer::decide_url_once`]) must equal the parsed one in every
//! field, in both readings.
//!
//! The data lives beside the checkout, not in it. Without it the test says loudly that it was
//! skipped; with `ROBOTS_EXPLORER_REQUIRE_SHARED` set (as CI sets it) a missing folder fails it.

use robots_explorer::decide::Profile;
use robots_explorer::{Reading, RobotsTxt, decide_url_once};
mod shared;

#[derive(serde::Deserialize)]
struct FileCases {
    file: String,
    questions: Vec<(String, String, bool, usize)>,
}

#[test]
fn google_reading_agrees_with_robots_cc_on_the_corpus() {
    let test = "google_reading_agrees_with_robots_cc_on_the_corpus";
    let (Some(conformance), Some(files)) = (
        shared::dir("conformance", test),
        shared::dir("corpus/files", test),
    ) else {
        return;
    };
    let answers = conformance.join("google-cpp-corpus.jsonl");
    let text =
        std::fs::read_to_string(&answers).unwrap_or_else(|e| panic!("{}: {e}", answers.display()));
    let mut questions = 0usize;
    let mut wrong = Vec::new();
    let mut one_pass_differs = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let fc: FileCases = serde_json::from_str(line).expect("a JSON line of the answers");
        let path = files.join(&fc.file);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let robots = RobotsTxt::parse(&bytes);
        for (agent, url, allowed, line) in &fc.questions {
            questions += 1;
            let d = robots.decide(Reading::Google, agent, url);
            // The one-pass decision gives the same answer, in every field, in both readings.
            let profile = Profile {
                tokens: &[agent.as_str()],
                obeys_global: true,
            };
            for reading in Reading::ALL {
                let once = decide_url_once(&bytes, reading, &profile, url);
                let parsed = robots.decide(reading, agent, url);
                if once != parsed {
                    one_pass_differs.push(format!(
                        "{} {agent} {url} ({reading}): one pass {once:?}, parsed {parsed:?}",
                        fc.file
                    ));
                }
            }
            if d.allowed != *allowed {
                wrong.push(format!(
                    "{} {agent} {url}: C++ {} (line {line}), ours {} ({:?}, {:?})",
                    fc.file,
                    if *allowed { "allowed" } else { "disallowed" },
                    if d.allowed { "allowed" } else { "disallowed" },
                    d.reason,
                    d.rule.map(|r| r.line)
                ));
            }
        }
    }
    eprintln!("{questions} questions, {} disagreements", wrong.len());
    assert!(
        one_pass_differs.is_empty(),
        "{} one-pass decisions differ from the parsed ones, e.g.:\n{}",
        one_pass_differs.len(),
        one_pass_differs[..one_pass_differs.len().min(20)].join("\n")
    );
    assert!(questions > 150_000, "only {questions} questions read");
    assert!(
        wrong.is_empty(),
        "{} of {questions} answers differ from robots.cc, e.g.:\n{}",
        wrong.len(),
        wrong
            .iter()
            .take(400)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
