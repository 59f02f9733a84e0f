//! The report's index in headless Chromium: with its data split over several files, a search
//! typed as soon as the page loads ends with the matches of every host, and a sort by bytes
//! orders the whole report, not one page of it.
//!
//! Needs Chromium, `node` and the npm package `playwright-core` (installed by `.ci/run`);
//! without them the test says so and passes, unless `ROBOTS_EXPLORER_REQUIRE_TOOLS` is set.

mod tools;

use serde_json::Value;
use std::process::Command;
use tools::{drive_pages, missing, playwright};

/// Hosts of the report: more than one data file's worth (10,000 hosts each).
const HOSTS: usize = 10_500;

/// Host `i`'s file: its size grows with `i % 97`, so the largest files are known.
fn file(i: usize) -> String {
    let mut s = String::from("User-agent: *\n");
    for k in 0..i % 97 {
        s.push_str(&format!("Disallow: /p{k}/\n"));
    }
    s
}

#[test]
fn search_and_sort_cover_every_data_file() {
    let Some(modules) = playwright() else {
        missing("playwright-core (npm) with node and chromium");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    for i in 0..HOSTS {
        let folder = input.join(format!("{}", i / 1000));
        if i % 1000 == 0 {
            std::fs::create_dir_all(&folder).unwrap();
        }
        std::fs::write(folder.join(format!("h{i:05}.example.txt")), file(i)).unwrap();
    }
    let site = dir.path().join("site");
    let status = Command::new(env!("CARGO_BIN_EXE_robots-explorer"))
        .args([
            "report",
            "-q",
            "--pages",
            "none",
            "--now",
            "2026-10-21T09:00:00Z",
            "-o",
        ])
        .arg(&site)
        .arg(&input)
        .status()
        .unwrap();
    assert!(status.code().is_some_and(|c| c <= 1), "report: {status}");
    let r = drive_pages(
        &modules,
        "index.js",
        &[site.as_os_str(), "77.example".as_ref()],
    );
    assert_eq!(r["errors"], Value::Array(vec![]), "{r}");
    assert_eq!(r["files"], 2, "{r}");
    assert_eq!(r["loaded"], 2, "{r}");
    assert_eq!(r["ready"], true, "{r}");
    // Hosts whose number ends in 77, in every data file.
    let matches = (0..HOSTS)
        .filter(|i| format!("h{i:05}.example").contains("77.example"))
        .count();
    assert_eq!(matches, 105);
    assert_eq!(
        r["shown_after_search"],
        format!("{matches} of 10,500 hosts match"),
        "{r}"
    );
    let rows = r["search_rows"].as_array().unwrap();
    assert_eq!(rows.len(), matches);
    assert!(
        rows.iter()
            .all(|row| row[0].as_str().unwrap().contains("77.example"))
    );
    // The largest files, over the whole report: every host with i % 97 == 96.
    let largest = file(96).len();
    assert_eq!(
        r["shown_after_sort"], "10,500 of 10,500 hosts match; showing 1 to 250",
        "{r}"
    );
    let sorted = r["sort_rows"].as_array().unwrap();
    assert_eq!(sorted.len(), 250);
    let bytes: Vec<usize> = sorted
        .iter()
        .map(|row| row[1].as_str().unwrap().replace(',', "").parse().unwrap())
        .collect();
    let with_largest = (0..HOSTS).filter(|i| i % 97 == 96).count();
    assert_eq!(with_largest, 108);
    assert!(
        bytes[..with_largest].iter().all(|&b| b == largest),
        "{bytes:?}"
    );
    assert!(bytes[with_largest] < largest, "{bytes:?}");
    assert!(bytes.windows(2).all(|w| w[0] >= w[1]), "{bytes:?}");
}
