//! Outside tools the site tests drive: headless Chromium and the Nu HTML checker.
//!
//! Each test that needs one says so on stderr and passes when it is missing, unless
//! `ROBOTS_EXPLORER_REQUIRE_TOOLS` is set (as `.ci/run` does), in which case it fails.
//! Chromium is the Debian package `chromium`; the Nu checker is `java` with the jar of the npm
//! package `vnu-jar`, found at `$VNU_JAR` or `node_modules/vnu-jar/build/dist/vnu.jar`.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A tool is missing: skip, or fail when `ROBOTS_EXPLORER_REQUIRE_TOOLS` is set.
pub fn missing(tool: &str) {
    if std::env::var_os("ROBOTS_EXPLORER_REQUIRE_TOOLS").is_some() {
        panic!("{tool} is required (ROBOTS_EXPLORER_REQUIRE_TOOLS is set) but not installed");
    }
    // Past the harness's capture, so that the skip is seen.
    use std::io::Write as _;
    let _ = writeln!(
        std::io::stderr(),
        "*** SKIPPED: {tool} is not installed ***"
    );
}

/// The Chromium binary on the PATH, if any.
pub fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|c| {
            Command::new(c)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

/// Loads `page` from disk in headless Chromium with a fresh profile; returns (stderr log, DOM
/// after scripts ran).
pub fn load(browser: &str, page: &Path) -> (String, String) {
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=3000",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    (
        String::from_utf8_lossy(&out.stderr).into_owned(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Console messages in Chromium's log (`INFO:CONSOLE`): the pages write none, so any is an
/// error (uncaught exceptions are logged this way too).
pub fn console_messages(log: &str) -> Vec<&str> {
    log.lines().filter(|l| l.contains(":CONSOLE")).collect()
}

/// Runs the Nu HTML checker on `pages` and asserts it reports no error; skips (see
/// [`missing`]) when java or the jar is not installed.
pub fn assert_valid_html(pages: &[PathBuf]) {
    let jar = [
        std::env::var_os("VNU_JAR").map(PathBuf::from),
        Some(root().join("node_modules/vnu-jar/build/dist/vnu.jar")),
    ]
    .into_iter()
    .flatten()
    .find(|p| p.is_file());
    let Some(jar) = jar else {
        return missing("the Nu HTML checker (npm package vnu-jar)");
    };
    if Command::new("java").arg("-version").output().is_err() {
        return missing("java");
    }
    let out = Command::new("java")
        .arg("-jar")
        .arg(&jar)
        .args(["--errors-only", "--format", "text"])
        .args(pages)
        .output()
        .expect("java runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A validator for the SARIF 2.1.0 schema vendored in `tests/data/` (formats checked too).
pub fn sarif_validator() -> jsonschema::Validator {
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("tests/data/sarif-schema-2.1.0.json")).unwrap(),
    )
    .unwrap();
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the schema compiles")
}

/// Asserts that `log` validates against the SARIF 2.1.0 schema, listing every error if not.
pub fn assert_valid_sarif(validator: &jsonschema::Validator, log: &serde_json::Value) {
    let errors: Vec<String> = validator
        .iter_errors(log)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect();
    assert!(
        errors.is_empty(),
        "SARIF does not validate:\n{}",
        errors.join("\n")
    );
}

/// `node` with the npm package `playwright-core` (in the repository's `node_modules`, as
/// `.ci/run` installs it), for tests that drive pages; `None` when either is missing.
pub fn playwright() -> Option<PathBuf> {
    let modules = root().join("node_modules").join("playwright-core");
    let node = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    (node && modules.is_dir() && chromium().is_some()).then(|| root().join("node_modules"))
}

/// Runs the page driver `tests/browser/<script>` with `args` under `node` (`modules` is what
/// [`playwright`] gives) and reads the JSON it prints; fails the test when it fails.
pub fn drive_pages(modules: &Path, script: &str, args: &[&std::ffi::OsStr]) -> serde_json::Value {
    let out = Command::new("node")
        .arg(root().join("tests/browser").join(script))
        .args(args)
        .env("NODE_PATH", modules)
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "the driver failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the driver prints JSON")
}

/// Crawler `crawler`'s decisions in a `hosts.jsonl` row, whose crawlers that decide alike share
/// an entry: per path, the verdict (`true`, `false`, `null` for unknown) and the deciding line.
pub fn decisions(
    row: &serde_json::Value,
    crawler: &str,
) -> (Vec<serde_json::Value>, Vec<serde_json::Value>) {
    let entry = row["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| {
            d["crawlers"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c == crawler)
        })
        .unwrap_or_else(|| panic!("{crawler} in {row}"));
    let verdicts = entry["verdicts"]
        .as_str()
        .unwrap()
        .chars()
        .map(|c| match c {
            'y' => serde_json::Value::Bool(true),
            'n' => serde_json::Value::Bool(false),
            '?' => serde_json::Value::Null,
            c => panic!("verdict {c:?} in {row}"),
        })
        .collect();
    (verdicts, entry["lines"].as_array().unwrap().clone())
}
