//! `robots-explorer lint`: the four output formats (insta snapshots), SARIF validated against the
//! official 2.1.0 schema, GitHub escaping, colour, readings and exit statuses.

mod tools;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `robots-explorer lint ARGS` from the crate root, without colour unless asked for.
fn lint(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_robots-explorer"));
    cmd.current_dir(root())
        .arg("lint")
        .args(args)
        .env_remove("CLICOLOR_FORCE")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 output")
}

/// A few fixtures that between them show errors, warnings, infos, suggestions and a clean file.
const FILES: &[&str] = &[
    "fixtures/diagnostics/group-continues.txt",
    "fixtures/diagnostics/missing-colon.txt",
    "fixtures/diagnostics/invisible-character.txt",
    "fixtures/hosts/shop.example.txt",
];

#[test]
fn text_format() {
    let o = lint(FILES, &[]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "errors reach the default --fail-on"
    );
    let out = stdout(&o);
    assert!(!out.contains('\u{1b}'), "no colour when not on a terminal");
    assert!(out.contains(
        "fixtures/diagnostics/missing-colon.txt:2:1: warning[missing-colon]: `Disallow /tmp/` has no colon"
    ));
    insta::assert_snapshot!("lint-text", out);
}

#[test]
fn json_format() {
    let o = lint(&[&["--format", "json"][..], FILES].concat(), &[]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let v: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    let files = v["files"].as_array().expect("files");
    assert_eq!(files.len(), FILES.len());
    for (f, path) in files.iter().zip(FILES) {
        assert_eq!(f["path"], *path);
        for d in f["diagnostics"].as_array().unwrap() {
            let mut keys: Vec<&str> = d.as_object().unwrap().keys().map(String::as_str).collect();
            keys.sort_unstable();
            assert_eq!(
                keys,
                vec![
                    "column",
                    "end_column",
                    "end_line",
                    "fix",
                    "line",
                    "message",
                    "name",
                    "reference",
                    "severity",
                    "suggestion"
                ]
            );
        }
    }
    // The printed order is the documented one.
    let first = out.find("\"name\"").unwrap();
    let order: Vec<usize> = [
        "\"name\"",
        "\"severity\"",
        "\"line\"",
        "\"column\"",
        "\"end_line\"",
        "\"end_column\"",
        "\"message\"",
        "\"suggestion\"",
        "\"reference\"",
    ]
    .iter()
    .map(|k| first + out[first..].find(k).unwrap())
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    insta::assert_snapshot!("lint-json", out);
}

#[test]
fn sarif_format_validates_against_the_official_schema() {
    let o = lint(&[&["--format", "sarif"][..], FILES].concat(), &[]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let log: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    let validator = tools::sarif_validator();
    tools::assert_valid_sarif(&validator, &log);
    // Every result points at a rule of the driver, by id and index.
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let results = run["results"].as_array().unwrap();
    assert!(!results.is_empty());
    for r in results {
        let i = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[i]["id"], r["ruleId"]);
        assert!(["error", "warning", "note"].contains(&r["level"].as_str().unwrap()));
    }
    // The schema check is real: a broken log fails it.
    let mut broken = log.clone();
    broken["runs"][0]["results"][0]["level"] = serde_json::json!("fatal");
    assert!(!validator.is_valid(&broken));
    // The log is compact; the snapshot shows it indented.
    insta::assert_snapshot!("lint-sarif", serde_json::to_string_pretty(&log).unwrap());
}

#[test]
fn sarif_writer_is_shared_and_valid_for_any_input() {
    // The writer the report also uses, fed with odd paths, an unreadable input and a file
    // without diagnostics.
    use robots_explorer::output::{LintedFile, Printer, sarif::SarifPrinter};
    let robots = robots_explorer::RobotsTxt::parse(b"Disallow: /x\n");
    let a = robots_explorer::analysis::analyze(&robots);
    let files = [
        LintedFile::new("hosts/a b,c:d.txt", &robots, a.diagnostics),
        LintedFile::new("/abs/path/robots.txt", &robots, Vec::new()),
        LintedFile::unreadable("gone.txt", "No such file or directory"),
    ];
    let mut bytes = Vec::new();
    SarifPrinter::default().print(&files, &mut bytes).unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    let notes = &doc["runs"][0]["invocations"][0]["toolExecutionNotifications"];
    assert_eq!(notes.as_array().unwrap().len(), 1);
    assert_eq!(
        notes[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "gone.txt"
    );
    tools::assert_valid_sarif(&tools::sarif_validator(), &doc);
    let uri = doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
        ["uri"]
        .as_str()
        .unwrap();
    assert_eq!(uri, "hosts/a%20b%2Cc%3Ad.txt");
}

#[test]
fn github_format() {
    let o = lint(&[&["--format", "github"][..], FILES].concat(), &[]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    for line in out.lines() {
        assert!(
            line.starts_with("::error file=")
                || line.starts_with("::warning file=")
                || line.starts_with("::notice file="),
            "{line}"
        );
        // One command per line: messages never carry a raw line break.
        assert!(!line.contains('\r'));
    }
    insta::assert_snapshot!("lint-github", out);
}

#[test]
fn github_format_escapes_properties_and_data() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("odd,name:100%.txt");
    std::fs::write(&path, b"User-agent: *\nDisallow: /100%\n").unwrap();
    // A lone `%` is reported in the RFC 9309 reading only (Google matches it literally).
    let o = lint(
        &[
            "--format",
            "github",
            "--reading",
            "rfc",
            path.to_str().unwrap(),
        ],
        &[],
    );
    let out = stdout(&o);
    let line = out
        .lines()
        .find(|l| l.contains("title=invalid-percent-encoding"))
        .expect("the diagnostic is printed");
    assert!(line.contains("odd%2Cname%3A100%25.txt,line=2,"), "{line}");
    // In the message, `%` is escaped and the fix follows an escaped line break.
    assert!(line.contains("/100%25"), "{line}");
    assert!(line.contains("%0AFix: "), "{line}");
    assert!(!line.contains("%0D"));
}

#[test]
fn colour_only_when_asked_for_and_never_with_no_color() {
    let file = ["fixtures/diagnostics/blocks-everything.txt"];
    let forced = stdout(&lint(&file, &[("CLICOLOR_FORCE", "1")]));
    assert!(forced.contains("\u{1b}["), "colour when forced");
    let denied = stdout(&lint(&file, &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]));
    assert!(!denied.contains('\u{1b}'), "NO_COLOR wins");
    let plain = stdout(&lint(&file, &[]));
    assert_eq!(plain, denied);
}

#[test]
fn exit_statuses() {
    // Only infos and warnings: below the default threshold.
    let warn = "fixtures/diagnostics/blocks-everything.txt";
    assert_eq!(lint(&[warn], &[]).status.code(), Some(0));
    assert_eq!(
        lint(&["--fail-on", "warning", warn], &[]).status.code(),
        Some(1)
    );
    let info = "fixtures/diagnostics/utf8-bom.txt";
    assert_eq!(
        lint(&["--fail-on", "warning", info], &[]).status.code(),
        Some(0)
    );
    // Infos are not shown by default, and what is not shown fails nothing.
    assert_eq!(
        lint(&["--fail-on", "info", info], &[]).status.code(),
        Some(0)
    );
    assert_eq!(
        lint(&["--fail-on", "info", "--min-severity", "info", info], &[])
            .status
            .code(),
        Some(1)
    );
    let err = "fixtures/diagnostics/full-url-pattern.txt";
    assert_eq!(lint(&[err], &[]).status.code(), Some(1));
    assert_eq!(
        lint(&["--fail-on", "never", err], &[]).status.code(),
        Some(0)
    );
    // A missing file is an I/O error: status 2, and the other files are still linted.
    let o = lint(&["no/such/robots.txt", err], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no/such/robots.txt"));
    assert!(stdout(&o).contains("full-url-pattern"));
    // Usage errors.
    assert_eq!(lint(&["--format", "xml", err], &[]).status.code(), Some(2));
    assert_eq!(lint(&[], &[]).status.code(), Some(2));
}

#[test]
fn directories_are_walked_in_a_stable_order() {
    let o = lint(
        &[
            "--format",
            "json",
            "--fail-on",
            "never",
            "fixtures/diagnostics",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let paths: Vec<String> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_string())
        .collect();
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(paths, sorted);
    let on_disk = std::fs::read_dir(root().join("fixtures/diagnostics"))
        .unwrap()
        .filter(|e| {
            Path::new(&e.as_ref().unwrap().file_name())
                .extension()
                .is_some_and(|x| x == "txt")
        })
        .count();
    assert_eq!(paths.len(), on_disk);
}

#[test]
fn reading_selects_the_diagnostics_that_apply() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("robots.txt");
    // `Dissallow` is a rule for Google only, so its redundancy exists only in that reading.
    std::fs::write(&path, b"User-agent: *\nDisallow: /\nDissallow: /tmp/\n").unwrap();
    let p = path.to_str().unwrap();
    let all = ["--format", "json", "--min-severity", "info"];
    let google = stdout(&lint(
        &[&all[..], &["--reading", "google", p]].concat(),
        &[],
    ));
    let rfc = stdout(&lint(&[&all[..], &["--reading", "rfc", p]].concat(), &[]));
    assert!(google.contains("redundant-rule"));
    assert!(!rfc.contains("redundant-rule"));
    // Findings about the line itself hold in both.
    assert!(google.contains("google-only-spelling") && rfc.contains("google-only-spelling"));
}
