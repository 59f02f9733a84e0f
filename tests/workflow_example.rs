//! The example GitHub Actions workflow (`examples/github-actions.yml`) is valid YAML with the
//! structure GitHub expects, and every `robots-explorer` command it runs is one our command
//! line accepts (the same clap definition the binary parses).

use clap::Parser;
use robots_explorer::cli::{Cli, Command};
use serde_norway::Value;

fn workflow() -> (String, Value) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/github-actions.yml");
    let text = std::fs::read_to_string(path).unwrap();
    let v: Value = serde_norway::from_str(&text).unwrap();
    (text, v)
}

/// Splits a shell command line into words: quotes group, the shell's operators end the command.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut started = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                started = true;
            }
            (None, c) if c.is_whitespace() => {
                if started || !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            (None, c) => word.push(c),
        }
    }
    if started || !word.is_empty() {
        out.push(word);
    }
    let end = out
        .iter()
        .position(|w| matches!(w.as_str(), ">" | ">>" | "|" | "&&" | "||" | ";"))
        .unwrap_or(out.len());
    out.truncate(end);
    out
}

#[test]
fn the_workflow_has_jobs_steps_and_the_artifacts() {
    let (text, v) = workflow();
    assert_eq!(v["name"].as_str(), Some("robots.txt"));
    assert!(v["on"]["pull_request"].is_mapping(), "{:?}", v["on"]);
    assert_eq!(v["permissions"]["security-events"].as_str(), Some("write"));
    let jobs = v["jobs"].as_mapping().unwrap();
    assert_eq!(jobs.len(), 1);
    let job = &v["jobs"]["robots-txt"];
    assert_eq!(job["runs-on"].as_str(), Some("ubuntu-latest"));
    let steps = job["steps"].as_sequence().unwrap();
    let uses: Vec<&str> = steps.iter().filter_map(|s| s["uses"].as_str()).collect();
    for action in [
        "actions/checkout@v4",
        "github/codeql-action/upload-sarif@v3",
        "actions/upload-artifact@v4",
    ] {
        assert!(uses.contains(&action), "{action} not in {uses:?}");
    }
    // What the lint step writes is what the upload step reads; the same for the report.
    let upload = steps
        .iter()
        .find(|s| s["uses"].as_str() == Some("github/codeql-action/upload-sarif@v3"))
        .unwrap();
    let sarif = upload["with"]["sarif_file"].as_str().unwrap();
    let artifact = steps
        .iter()
        .find(|s| s["uses"].as_str() == Some("actions/upload-artifact@v4"))
        .unwrap();
    let html = artifact["with"]["path"].as_str().unwrap();
    let runs: Vec<&str> = steps.iter().filter_map(|s| s["run"].as_str()).collect();
    assert!(
        runs.iter()
            .any(|r| r.contains(&format!("--output-file {sarif}")))
    );
    assert!(
        runs.iter()
            .any(|r| r.contains(&format!("--single-file {html}")))
    );
    assert!(runs.iter().any(|r| r.contains("cargo install")), "{runs:?}");
    // The diff step compares the base branch's file with the new one into the summary.
    let diff = runs
        .iter()
        .find(|r| r.contains("robots-explorer diff"))
        .expect("a diff step");
    assert!(diff.contains("git show \"origin/${{ github.base_ref }}:public/robots.txt\""));
    assert!(diff.contains(">> \"$GITHUB_STEP_SUMMARY\""));
    assert!(text.contains("- name: What the change does"));
}

#[test]
fn every_command_of_the_workflow_is_accepted_by_our_command_line() {
    let (_, v) = workflow();
    let mut seen = Vec::new();
    for step in v["jobs"]["robots-txt"]["steps"].as_sequence().unwrap() {
        let Some(run) = step["run"].as_str() else {
            continue;
        };
        for line in run.lines() {
            let w = words(line);
            if w.first().map(String::as_str) != Some("robots-explorer") {
                continue;
            }
            let cli =
                Cli::try_parse_from(&w).unwrap_or_else(|e| panic!("`{line}` is not accepted: {e}"));
            seen.push(match cli.command {
                Command::Lint(a) => format!("lint {:?}", a.format),
                Command::Check(a) => format!("check exit-code={}", a.exit_code),
                Command::Report(a) => format!("report single={}", a.single_file.is_some()),
                Command::Diff(a) => format!("diff {:?}", a.format),
                other => format!("{other:?}"),
            });
        }
    }
    assert_eq!(
        seen,
        [
            "lint Some(Sarif)",
            "lint Some(Github)",
            "check exit-code=true",
            "report single=true",
            "diff Markdown"
        ]
    );
}

#[test]
fn shell_words() {
    assert_eq!(
        words("robots-explorer lint --format \"a b\" x >> \"$F\""),
        ["robots-explorer", "lint", "--format", "a b", "x"]
    );
    assert_eq!(words("a '' b"), ["a", "", "b"]);
}
