//! Checks of the whole demo site as `build` writes it (the README's main command): the Nu HTML
//! checker finds no errors on any page, and headless Chromium loads the audit index, host
//! pages, a diagnostic page and the guide with no console messages.
//!
//! Both need tools outside Rust (Chromium; Java with the npm package `vnu-jar`). Without them
//! the tests say so and pass, unless `ROBOTS_EXPLORER_REQUIRE_TOOLS` is set, as `.ci/run` does.

mod tools;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use tools::{chromium, console_messages, load, missing, root};

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

#[test]
fn nu_html_checker_finds_no_errors_on_any_page() {
    let site = site().join("site");
    let mut pages = pages_in(&site);
    for sub in ["hosts", "diagnostics", "guide"] {
        pages.extend(pages_in(&site.join(sub)));
    }
    assert!(pages.len() > 19 + 36 + 13, "{} pages", pages.len());
    tools::assert_valid_html(&pages);
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
        let (log, dom) = load(browser, &path);
        let console = console_messages(&log);
        assert!(console.is_empty(), "{page}: {console:?}");
        assert!(
            dom.contains("<main"),
            "{page}: no <main> in the loaded page"
        );
    }
}
