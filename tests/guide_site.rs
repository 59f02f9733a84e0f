//! The built guide in real tools: headless Chromium loads the landing page and two chapters
//! from disk with no console message and runs the search, and the Nu HTML checker finds no
//! error in any page.
//!
//! Each test needs an outside tool and says so on stderr and passes when the tool is missing:
//! `chromium` (Debian package `chromium`) and `java` with the Nu checker's jar, found at
//! `$VNU_JAR` or `node_modules/vnu-jar/build/dist/vnu.jar` (npm package `vnu-jar`).

mod tools;

use robots_explorer::guide::{self, Links, Options};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use tools::{chromium, console_messages, load, missing, root};

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

#[test]
fn chromium_loads_the_landing_page_and_two_chapters_without_console_messages() {
    let Some(browser) = chromium() else {
        return missing("chromium");
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
        return missing("chromium");
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

#[test]
fn nu_html_checker_finds_no_errors() {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(site())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    pages.sort();
    assert!(pages.len() >= 14, "{pages:?}");
    tools::assert_valid_html(&pages);
}
