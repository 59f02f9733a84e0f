//! Host pages at a phone's width (390 px) in headless Chromium: long values from the input —
//! user-agent lines read as different product tokens, paths, URLs, content types, error texts —
//! wrap or scroll inside their tables instead of widening the page.
//!
//! Needs Chromium, `node` and the npm package `playwright-core` (installed by `.ci/run`);
//! without them the test says so and passes, unless `ROBOTS_EXPLORER_REQUIRE_TOOLS` is set.

mod tools;

use std::process::Command;
use tools::{drive_pages, missing, playwright};

#[test]
fn host_pages_with_long_values_fit_a_phone() {
    let Some(modules) = playwright() else {
        missing("playwright-core (npm) with node and chromium");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::create_dir(&input).unwrap();
    let long = "x".repeat(300);
    // User-agent values the readings read as different tokens, rules each reading reads
    // differently, and long patterns (the decision matrix's and the readings' paths).
    let file = format!(
        "User-agent: Baiduspider/2.0;+http://www.baidu.com/search/spider.html/{long}\n\
         Disallow: /{long}\n\
         Allow: /{long}/*.pdf$\n\
         Dissallow: /typo/{long}\n\
         Disallow /nocolon/{long}\n\
         \n\
         User-agent: *\n\
         Disallow: /%7E{long}\n\
         Sitemap: https://long.example/{long}.xml\n"
    );
    for host in ["long.example", "unreachable.example"] {
        std::fs::write(input.join(format!("{host}.txt")), &file).unwrap();
    }
    std::fs::write(
        input.join("long.example.yaml"),
        format!(
            "url: https://long.example/robots.txt?{long}\nstatus: 200\n\
             fetched_at: 2026-10-20T08:00:00Z\ncontent_type: text/plain;charset=utf-8;{long}\n\
             redirects:\n  - status: 301\n    location: https://www.long.example/{long}/robots.txt\n"
        ),
    )
    .unwrap();
    std::fs::write(
        input.join("unreachable.example.yaml"),
        format!(
            "url: https://unreachable.example/robots.txt\nerror: other-{long}\n\
             fetched_at: 2026-10-20T08:00:00Z\ncached:\n  fetched_at: 2026-10-19T08:00:00Z\n  status: 200\n"
        ),
    )
    .unwrap();
    let mut pages = Vec::new();
    for reading in ["google", "rfc"] {
        let site = dir.path().join(format!("site-{reading}"));
        let status = Command::new(env!("CARGO_BIN_EXE_robots-explorer"))
            .args(["report", "-q", "--now", "2026-10-21T09:00:00Z", "--reading"])
            .arg(reading)
            .arg("--url")
            .arg(format!("/{long}?q={long}"))
            .arg("-o")
            .arg(&site)
            .arg(&input)
            .status()
            .unwrap();
        assert!(status.code().is_some_and(|c| c <= 1), "report: {status}");
        for host in ["long.example", "unreachable.example"] {
            pages.push(site.join(format!("hosts/{host}.html")).into_os_string());
        }
    }
    let mut args = vec![std::ffi::OsString::from("390")];
    args.extend(pages);
    let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    let got = drive_pages(&modules, "width.js", &args);
    let got = got.as_array().unwrap();
    assert_eq!(got.len(), 4);
    for p in got {
        assert_eq!(p["scroll"], p["client"], "{p}");
        assert!(p["wide"].as_array().unwrap().is_empty(), "{p}");
    }
}
