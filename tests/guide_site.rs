//! The built guide in real tools: headless Chromium loads the landing page and two chapters
//! from disk with no console message and runs the search, and the Nu HTML checker finds no
//! error in any page.
//!
//! Each test needs an outside tool and says so on stderr and passes when the tool is missing:
//! `chromium` (Debian package `chromium`) and `java` with the Nu checker's jar, found at
//! `$VNU_JAR` or `node_modules/vnu-jar/build/dist/vnu.jar` (npm package `vnu-jar`).

use robots_explorer::guide::{self, Links, Options};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The shipped guide, built once into a temporary directory.
fn site() -> &'static Path {
    static SITE: OnceLock<tempfile::TempDir> = OnceLock::new();
    SITE.get_or_init(|| {
        let opts = Options {
            content: root().join("content"),
            data: root().join("fixtures/guide"),
            links: Links::default(),
            extra_css: Vec::new(),
            // Diagnostic checks wait for the analysis; see tests/guide.rs.
            allow_pending: robots_explorer::analysis::catalogue().is_empty(),
        };
        let g = guide::build(&opts).unwrap_or_else(|f| {
            panic!(
                "{}",
                f.problems
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("\n")
            )
        });
        let dir = tempfile::tempdir().unwrap();
        guide::write_files(dir.path(), &g.files).unwrap();
        dir
    })
    .path()
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

/// Loads `page` in headless Chromium; returns (stderr log, DOM after scripts ran).
fn load(browser: &str, page: &Path) -> (String, String) {
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

/// Console messages in Chromium's log (`INFO:CONSOLE`): the guide's pages write none, so any
/// is an error (uncaught exceptions are logged this way too).
fn console_messages(log: &str) -> Vec<&str> {
    log.lines().filter(|l| l.contains(":CONSOLE")).collect()
}

#[test]
fn chromium_loads_the_landing_page_and_two_chapters_without_console_messages() {
    let Some(browser) = chromium() else {
        eprintln!("skipped: chromium is not installed");
        return;
    };
    for page in [
        "index.html",
        "05-successful-unavailable-unreachable.html",
        "07-matching.html",
    ] {
        let (log, dom) = load(browser, &site().join(page));
        assert!(
            console_messages(&log).is_empty(),
            "{page}: {:?}",
            console_messages(&log)
        );
        // guide.js ran and found the index from search-index.js: it shows the search form.
        assert!(
            dom.contains(r#"<form id="search" class="search" role="search">"#),
            "{page}: the search form is still hidden"
        );
        if page != "index.html" {
            assert!(dom.contains("<svg"), "{page} has its figure");
        }
    }
}

#[test]
fn search_works_from_disk() {
    let Some(browser) = chromium() else {
        eprintln!("skipped: chromium is not installed");
        return;
    };
    // A page beside the guide's pages that types a query into the real search box.
    let probe = site().join("search-probe.html");
    std::fs::write(
        &probe,
        r##"<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>probe</title>
<script src="search-index.js"></script></head><body>
<form id="search" hidden><input id="search-input"><ol id="search-results" hidden></ol></form>
<script src="guide.js"></script>
<script>
var input = document.getElementById("search-input");
input.value = "longest match";
input.dispatchEvent(new Event("input"));
var links = document.querySelectorAll("#search-results a");
document.title = "results:" + links.length + ":" + (links.length ? links[0].getAttribute("href") : "");
</script></body></html>"##,
    )
    .unwrap();
    let (log, dom) = load(browser, &probe);
    std::fs::remove_file(&probe).unwrap();
    assert!(
        console_messages(&log).is_empty(),
        "{:?}",
        console_messages(&log)
    );
    let title = dom
        .split("<title>")
        .nth(1)
        .and_then(|t| t.split("</title>").next())
        .unwrap_or_default()
        .to_string();
    let parts: Vec<&str> = title.splitn(3, ':').collect();
    assert_eq!(parts[0], "results", "{title}");
    let count: usize = parts[1].parse().unwrap();
    assert!(count >= 3, "{title}");
    assert!(parts[2].starts_with("07-matching.html"), "{title}");
}

fn vnu_jar() -> Option<PathBuf> {
    let candidates = [
        std::env::var_os("VNU_JAR").map(PathBuf::from),
        Some(root().join("node_modules/vnu-jar/build/dist/vnu.jar")),
    ];
    candidates.into_iter().flatten().find(|p| p.is_file())
}

#[test]
fn nu_html_checker_finds_no_errors() {
    let Some(jar) = vnu_jar() else {
        eprintln!("skipped: the Nu HTML checker (npm package vnu-jar) is not installed");
        return;
    };
    if Command::new("java").arg("-version").output().is_err() {
        eprintln!("skipped: java is not installed");
        return;
    }
    let mut pages: Vec<PathBuf> = std::fs::read_dir(site())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    pages.sort();
    assert!(pages.len() >= 14, "{pages:?}");
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
