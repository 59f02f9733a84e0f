//! `robots-explorer lint`: the output formats (insta snapshots), SARIF validated against the
//! official 2.1.0 schema, GitHub escaping, colour, readings and exit statuses; `--select`,
//! `--ignore`, the configuration file, suppression comments, `--statistics`, `--output-file`
//! and `explain`.

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
            // The fixtures are named after their diagnostic, not like robots.txt files.
            "--include",
            "*.txt",
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

/// The diagnostics of `FILES` as the JSON format lists them: (path, name, severity, line).
fn json_findings(args: &[&str]) -> Vec<(String, String, String, u64)> {
    let o = lint(&[&["--format", "json"][..], args].concat(), &[]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let mut out = Vec::new();
    for f in v["files"].as_array().unwrap() {
        for d in f["diagnostics"].as_array().unwrap() {
            out.push((
                f["path"].as_str().unwrap().to_string(),
                d["name"].as_str().unwrap().to_string(),
                d["severity"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
            ));
        }
    }
    out
}

#[test]
fn concise_format() {
    let o = lint(&[&["--format", "concise"][..], FILES].concat(), &[]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let findings = json_findings(FILES);
    let lines: Vec<&str> = out.lines().collect();
    // One line per finding, then the summary line of the text format.
    assert_eq!(lines.len(), findings.len() + 1, "{out}");
    for ((path, name, severity, line), l) in findings.iter().zip(&lines) {
        assert!(
            l.starts_with(&format!("{path}:{line}:"))
                && l.contains(&format!(": {severity}[{name}] ")),
            "{l}"
        );
    }
    assert!(lines.last().unwrap().contains(" in 4 of 4 files."), "{out}");
    insta::assert_snapshot!("lint-concise", out);
}

#[test]
fn junit_format() {
    let o = lint(&[&["--format", "junit"][..], FILES].concat(), &[]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let findings = json_findings(FILES);
    assert!(out.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites"));
    assert!(out.trim_end().ends_with("</testsuites>"));
    assert_eq!(out.matches("<testsuite ").count(), FILES.len());
    assert_eq!(out.matches("</testsuite>").count(), FILES.len());
    assert_eq!(out.matches("<failure ").count(), findings.len());
    for (_, name, _, line) in &findings {
        assert!(out.contains(&format!("name=\"{name} at {line}:")), "{name}");
    }
    // Nothing from the files escapes into markup: only our own tags start with `<`.
    for tag in out.split('<').skip(1) {
        let name: String = tag
            .chars()
            .take_while(|c| c.is_ascii_alphabetic() || *c == '/' || *c == '?')
            .collect();
        assert!(
            [
                "?xml",
                "testsuites",
                "/testsuites",
                "testsuite",
                "/testsuite",
                "testcase",
                "/testcase",
                "failure",
                "/failure",
                "error"
            ]
            .contains(&name.as_str()),
            "unexpected tag <{name}"
        );
    }
    // A clean file is one passing test case.
    let dir = tempfile::tempdir().unwrap();
    let clean = dir.path().join("robots.txt");
    std::fs::write(&clean, "User-agent: *\nDisallow: /private/\n").unwrap();
    let c = stdout(&lint(&["--format", "junit", clean.to_str().unwrap()], &[]));
    assert!(c.contains("tests=\"1\" failures=\"0\" errors=\"0\""), "{c}");
    assert!(c.contains("<testcase name=\"lint\" classname="), "{c}");
    insta::assert_snapshot!("lint-junit", out);
}

#[test]
fn gitlab_format() {
    let o = lint(&[&["--format", "gitlab"][..], FILES].concat(), &[]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let v: serde_json::Value = serde_json::from_str(&out).expect("a JSON array");
    let issues = v.as_array().unwrap();
    let findings = json_findings(FILES);
    assert_eq!(issues.len(), findings.len());
    let mut fingerprints = std::collections::BTreeSet::new();
    for (i, (path, name, severity, line)) in issues.iter().zip(&findings) {
        assert_eq!(i["check_name"], name.as_str());
        assert_eq!(i["location"]["path"], path.as_str());
        assert_eq!(i["location"]["lines"]["begin"], *line);
        let expected = match severity.as_str() {
            "error" => "major",
            "warning" => "minor",
            _ => "info",
        };
        assert_eq!(i["severity"], expected);
        assert!(!i["description"].as_str().unwrap().is_empty());
        assert!(fingerprints.insert(i["fingerprint"].as_str().unwrap().to_string()));
    }
    // Fingerprints do not change when lines are added above a finding.
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("robots.txt");
    std::fs::write(&a, "User-agent: *\nDisallow: /a\nDisallow: /a\n").unwrap();
    let first = stdout(&lint(
        &[
            "--format",
            "gitlab",
            "--min-severity",
            "info",
            a.to_str().unwrap(),
        ],
        &[],
    ));
    std::fs::write(
        &a,
        "# a comment\n\nUser-agent: *\nDisallow: /a\nDisallow: /a\n",
    )
    .unwrap();
    let second = stdout(&lint(
        &[
            "--format",
            "gitlab",
            "--min-severity",
            "info",
            a.to_str().unwrap(),
        ],
        &[],
    ));
    let prints = |s: &str| -> Vec<String> {
        let v: serde_json::Value = serde_json::from_str(s).unwrap();
        v.as_array()
            .unwrap()
            .iter()
            .filter(|i| i["check_name"] == "duplicate-rule")
            .map(|i| i["fingerprint"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(prints(&first).len(), 1);
    assert_eq!(prints(&first), prints(&second));
    insta::assert_snapshot!("lint-gitlab", serde_json::to_string_pretty(&v).unwrap());
}

#[test]
fn select_and_ignore_by_name_and_severity() {
    let all = json_findings(&[&["--min-severity", "info"][..], FILES].concat());
    let names = |v: &[(String, String, String, u64)]| -> Vec<String> {
        v.iter().map(|f| f.1.clone()).collect()
    };
    // By severity.
    let errors = json_findings(&[&["--select", "error"][..], FILES].concat());
    assert!(!errors.is_empty());
    assert_eq!(
        errors,
        all.iter()
            .filter(|f| f.2 == "error")
            .cloned()
            .collect::<Vec<_>>()
    );
    // By name: a selected info is shown without --min-severity.
    let info_name = all
        .iter()
        .find(|f| f.2 == "info")
        .expect("an info among the fixtures")
        .1
        .clone();
    let one = json_findings(&[&["--select", info_name.as_str()][..], FILES].concat());
    assert!(!one.is_empty());
    assert!(one.iter().all(|f| f.1 == info_name), "{one:?}");
    assert_eq!(one.len(), all.iter().filter(|f| f.1 == info_name).count());
    // Comma-separated, and ignore wins over select.
    let sel = format!("error,{info_name}");
    let both =
        json_findings(&[&["--select", sel.as_str(), "--ignore", "error"][..], FILES].concat());
    assert_eq!(names(&both), names(&one));
    // Ignoring a name removes exactly its findings.
    let first = all[0].1.clone();
    let rest = json_findings(
        &[
            &["--min-severity", "info", "--ignore", first.as_str()][..],
            FILES,
        ]
        .concat(),
    );
    assert_eq!(
        rest,
        all.iter()
            .filter(|f| f.1 != first)
            .cloned()
            .collect::<Vec<_>>()
    );
    // What is not selected fails nothing.
    let o = lint(&[&["--select", "info"][..], FILES].concat(), &[]);
    assert_eq!(o.status.code(), Some(0));
    // An unknown name is a usage error with a hint.
    let o = lint(&["--select", "redundnt-rule", FILES[0]], &[]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("`redundnt-rule` is not a diagnostic name")
            && err.contains("did you mean `redundant-rule`?"),
        "{err}"
    );
    let o = lint(&["--ignore", "warnings", FILES[0]], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("did you mean `warning`?"));
    assert!(o.stdout.is_empty());
}

/// Runs `robots-explorer ARGS` in `dir`.
fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_robots-explorer"))
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

#[test]
fn configuration_file_is_found_upward_and_applies_per_path() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path();
    std::fs::create_dir_all(repo.join("site/staging")).unwrap();
    std::fs::create_dir_all(repo.join("site/prod")).unwrap();
    let blocked = "User-agent: *\nDisallow: /\nDisallow: /\n";
    std::fs::write(repo.join("site/staging/robots.txt"), blocked).unwrap();
    std::fs::write(repo.join("site/prod/robots.txt"), blocked).unwrap();
    std::fs::write(repo.join("site/humans.txt"), "not a robots.txt file").unwrap();
    std::fs::write(
        repo.join("robots-explorer.toml"),
        "format = \"concise\"\nmin-severity = \"info\"\nfail-on = \"never\"\n\
         [per-path-ignores]\n\"site/staging/*\" = [\"blocks-everything\", \"info\"]\n",
    )
    .unwrap();
    // From a folder below the file, which is found upward.
    let o = run_in(&repo.join("site"), &["lint", "."]);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8_lossy(&o.stdout);
    let prod: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("./prod/robots.txt:"))
        .collect();
    let staging: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("./staging/robots.txt:"))
        .collect();
    assert!(
        prod.iter().any(|l| l.contains("[blocks-everything]")),
        "{out}"
    );
    assert!(
        prod.iter().any(|l| l.contains("info[duplicate-rule]")),
        "{out}"
    );
    assert!(
        !staging
            .iter()
            .any(|l| l.contains("[blocks-everything]") || l.contains("info[")),
        "{out}"
    );
    assert!(
        !out.contains("humans.txt"),
        "only robots.txt files are walked: {out}"
    );
    // Flags win over the file; --no-config and --config.
    let o = run_in(
        &repo.join("site"),
        &["lint", "--format", "json", "--fail-on", "error", "."],
    );
    assert!(serde_json::from_slice::<serde_json::Value>(&o.stdout).is_ok());
    let o = run_in(
        &repo.join("site"),
        &["lint", "--no-config", "--fail-on", "never", "staging"],
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("warning[blocks-everything]:"));
    let other = repo.join("other.toml");
    std::fs::write(&other, "ignore = [\"warning\"]\nfail-on = \"never\"\n").unwrap();
    let o = run_in(
        &repo.join("site"),
        &["lint", "--config", other.to_str().unwrap(), "staging"],
    );
    assert!(!String::from_utf8_lossy(&o.stdout).contains("blocks-everything"));
    // A bad file is a usage error naming the file and the key.
    std::fs::write(&other, "min-severty = \"info\"\n").unwrap();
    let o = run_in(
        &repo.join("site"),
        &["lint", "--config", other.to_str().unwrap(), "staging"],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("other.toml") && err.contains("min-severty"),
        "{err}"
    );
    std::fs::write(&other, "select = [\"no-such-thing\"]\n").unwrap();
    let o = run_in(
        &repo.join("site"),
        &["lint", "--config", other.to_str().unwrap(), "staging"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("select: `no-such-thing`"));
}

#[test]
fn suppression_comments() {
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path().join("robots.txt");
    std::fs::write(
        &p,
        "User-agent: *\nDisallow: /\nDisallow: /  # robots-explorer: ignore[duplicate-rule]\n\
         # robots-explorer: ignore[redundant-rule, duplicate-rule]\nDisallow: /a\n",
    )
    .unwrap();
    let f = json_findings(&["--min-severity", "info", p.to_str().unwrap()]);
    let at = |line: u64| -> Vec<&str> {
        f.iter()
            .filter(|x| x.3 == line)
            .map(|x| x.1.as_str())
            .collect()
    };
    // Line 3's duplicate is suppressed; line 5 is redundant (suppressed), but no duplicate, so
    // that name in the comment on line 4 suppresses nothing.
    assert!(!at(3).contains(&"duplicate-rule"), "{f:?}");
    assert!(!at(5).contains(&"redundant-rule"), "{f:?}");
    assert_eq!(at(4), ["unused-suppression"], "{f:?}");
    // Without the comments, the findings are there.
    std::fs::write(
        &p,
        "User-agent: *\nDisallow: /\nDisallow: /\n\nDisallow: /a\n",
    )
    .unwrap();
    let f = json_findings(&["--min-severity", "info", p.to_str().unwrap()]);
    assert!(
        f.iter().any(|x| x.1 == "duplicate-rule" && x.3 == 3),
        "{f:?}"
    );
    assert!(
        f.iter().any(|x| x.1 == "redundant-rule" && x.3 == 5),
        "{f:?}"
    );
    // The fixture: a misspelt name gets a hint.
    let o = lint(
        &[
            "--format",
            "concise",
            "fixtures/diagnostics/unused-suppression.txt",
        ],
        &[],
    );
    let out = stdout(&o);
    assert!(out.contains("did you mean `empty-disallow`?"), "{out}");
}

#[test]
fn statistics_count_what_is_listed() {
    let o = lint(
        &[&["--statistics", "--min-severity", "info"][..], FILES].concat(),
        &[],
    );
    assert_eq!(o.status.code(), Some(1), "--fail-on still applies");
    let out = stdout(&o);
    let all = json_findings(&[&["--min-severity", "info"][..], FILES].concat());
    let mut expected: std::collections::BTreeMap<String, usize> = Default::default();
    for f in &all {
        *expected.entry(f.1.clone()).or_default() += 1;
    }
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), expected.len() + 1, "{out}");
    let mut last = usize::MAX;
    for l in &lines[..expected.len()] {
        let mut w = l.split_whitespace();
        let n: usize = w.next().unwrap().parse().unwrap();
        let _severity = w.next().unwrap();
        let name = w.next().unwrap();
        assert_eq!(expected.get(name), Some(&n), "{l}");
        assert!(n <= last, "sorted by count: {out}");
        last = n;
    }
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with(&format!("{} findings in", all.len())),
        "{out}"
    );
    let o = lint(
        &[&["--statistics", "--format", "json"][..], FILES].concat(),
        &[],
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["files"], FILES.len());
    assert!(v["counts"][0]["count"].as_u64().unwrap() >= 1);
    insta::assert_snapshot!("lint-statistics", out);
}

#[test]
fn output_file_holds_what_stdout_would() {
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path().join("out.sarif");
    let o = lint(
        &[
            &["--format", "sarif", "--output-file", p.to_str().unwrap()][..],
            FILES,
        ]
        .concat(),
        &[],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    let direct = lint(&[&["--format", "sarif"][..], FILES].concat(), &[]);
    assert_eq!(std::fs::read(&p).unwrap(), direct.stdout);
    let o = lint(&["--output-file", "/no/such/dir/out.txt", FILES[0]], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("/no/such/dir/out.txt"));
}

#[test]
fn an_output_file_that_is_an_input_is_refused_and_left_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("site");
    std::fs::create_dir(&dir).unwrap();
    let input = dir.join("robots.txt");
    let body = std::fs::read(root().join(FILES[1])).unwrap();
    std::fs::write(&input, &body).unwrap();
    // Named directly, through another spelling of the same path, and found by a walk.
    let other = dir.join("..").join("site").join("robots.txt");
    for (out, arg) in [(&input, &input), (&other, &input), (&input, &dir)] {
        let o = lint(
            &[
                "--no-config",
                "--output-file",
                out.to_str().unwrap(),
                arg.to_str().unwrap(),
            ],
            &[],
        );
        assert_eq!(o.status.code(), Some(2), "{out:?} {arg:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("one of the files to lint"), "{err}");
        assert_eq!(
            std::fs::read(&input).unwrap(),
            body,
            "the input is untouched"
        );
    }
    // Beside the inputs is fine.
    let beside = dir.join("findings.txt");
    let o = lint(
        &[
            "--no-config",
            "--output-file",
            beside.to_str().unwrap(),
            dir.to_str().unwrap(),
        ],
        &[],
    );
    assert_ne!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        std::fs::read_to_string(&beside)
            .unwrap()
            .contains("missing-colon")
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_said_and_fails_the_run() {
    for sub in ["lint", "check"] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_robots-explorer"));
        cmd.current_dir(root()).arg(sub);
        if sub == "check" {
            cmd.args(["--agent", "Googlebot", "--url", "/"]);
        }
        let o = cmd
            .arg(FILES[3])
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{sub}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("cannot write the output"), "{sub}: {err}");
    }
}

#[test]
fn explain_prints_the_catalogue_entry() {
    let run = |args: &[&str]| run_in(&root(), args);
    let e = robots_explorer::analysis::entry("redundant-rule").unwrap();
    let o = run(&["explain", "redundant-rule"]);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.starts_with("redundant-rule (info)\n\n"), "{out}");
    for part in [e.summary, e.what, e.why, e.fix] {
        assert!(out.contains(part.trim_end()), "{part}");
    }
    for line in e.example.lines() {
        assert!(out.contains(&format!("    {line}")));
    }
    assert!(out.contains(e.references[0].1));
    let o = run(&["explain"]);
    let list = String::from_utf8(o.stdout).unwrap();
    assert_eq!(
        list.lines().count(),
        robots_explorer::analysis::catalogue().len()
    );
    let o = run(&["explain", "redundant-rul"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("did you mean `redundant-rule`?"));
}

#[test]
fn text_shows_a_few_of_each_name_and_the_lines_of_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("robots.txt");
    let body: String = std::iter::once("User-agent: *\n".to_string())
        .chain((0..6).map(|_| "Noindex: /a\n".to_string()))
        .collect();
    std::fs::write(&p, body).unwrap();
    let f = p.to_str().unwrap();
    let all = json_findings(&[f]);
    let lines: Vec<u64> = all
        .iter()
        .filter(|x| x.1 == "page-directive")
        .map(|x| x.3)
        .collect();
    assert_eq!(lines, [2, 3, 4, 5, 6, 7]);
    let out = stdout(&lint(&[f], &[]));
    assert_eq!(out.matches("[page-directive]: ").count(), 3, "{out}");
    assert!(
        out.contains("3 more `page-directive` like the 3 above, on lines 5, 6, 7 (`--format concise` lists every finding)"),
        "{out}"
    );
    assert!(
        out.contains("0 errors, 6 warnings"),
        "the summary counts them all: {out}"
    );
    let concise = stdout(&lint(&["--format", "concise", f], &[]));
    assert_eq!(concise.matches("[page-directive] ").count(), 6, "{concise}");
}
