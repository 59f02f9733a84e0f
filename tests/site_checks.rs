//! Checks of the whole demo site as `build` writes it (the README's main command): the Nu HTML
//! checker finds no errors on any page, and headless Chromium loads the audit index, host
//! pages, a diagnostic page and the guide with no console messages.
//!
//! Both need tools outside Rust (Chromium; Java with the npm package `vnu-jar`). Without them
//! the tests say so and pass, unless `ROBOTS_EXPLORER_REQUIRE_TOOLS` is set, as `.ci/run` does.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn missing(tool: &str) {
    if std::env::var_os("ROBOTS_EXPLORER_REQUIRE_TOOLS").is_some() {
        panic!("{tool} is required (ROBOTS_EXPLORER_REQUIRE_TOOLS is set) but not installed");
    }
    eprintln!("skipped: {tool} is not installed");
}

/// The demo site, built once by the binary into a temporary folder.
fn site() -> &'static Path {
    static SITE: OnceLock<tempfile::TempDir> = OnceLock::new();
    SITE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        let status = Command::new(env!("CARGO_BIN_EXE_robots-explorer"))
            .current_dir(root())
            .arg("build")
            .arg("--out")
            .arg(&out)
            .output()
            .expect("the binary runs");
        assert!(
            status.status.success(),
            "build failed: {}",
            String::from_utf8_lossy(&status.stderr)
        );
        dir
    })
    .path()
}

fn pages_in(dir: &Path) -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    pages.sort();
    pages
}

fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|c| {
            Command::new(c)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

#[test]
fn nu_html_checker_finds_no_errors_on_any_page() {
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
    let site = site().join("site");
    let mut pages = pages_in(&site);
    for sub in ["hosts", "diagnostics", "guide"] {
        pages.extend(pages_in(&site.join(sub)));
    }
    assert!(pages.len() > 19 + 36 + 13, "{} pages", pages.len());
    let out = Command::new("java")
        .arg("-jar")
        .arg(&jar)
        .args(["--errors-only", "--format", "text"])
        .args(&pages)
        .output()
        .expect("java runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn chromium_loads_audit_and_guide_pages_without_console_messages() {
    let Some(browser) = chromium() else {
        return missing("chromium");
    };
    let site = site().join("site");
    for page in [
        "index.html",
        "hosts/shop.example.html",
        "hosts/group-trap.example.html",
        "hosts/huge.example.html",
        "diagnostics/group-continues.html",
        "guide/index.html",
        "guide/04-groups.html",
    ] {
        let path = site.join(page);
        assert!(path.is_file(), "{page} was written");
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
            .arg(format!("file://{}", path.display()))
            .output()
            .expect("chromium runs");
        let log = String::from_utf8_lossy(&out.stderr);
        let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
        assert!(console.is_empty(), "{page}: {console:?}");
        let dom = String::from_utf8_lossy(&out.stdout);
        assert!(
            dom.contains("<main"),
            "{page}: no <main> in the loaded page"
        );
    }
}
