//! The pages' tester in headless Chromium: the engine compiled to WebAssembly answers in the
//! page exactly what `robots-explorer check` answers on the same file, and edit mode follows
//! the edited file (verdicts as `check` gives them for it, diagnostics as `lint` lists them).
//!
//! Needs Chromium, `node` and the npm package `playwright-core` (installed by `.ci/run`);
//! without them the tests say so and pass, unless `ROBOTS_EXPLORER_REQUIRE_TOOLS` is set.

mod tools;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use tools::{drive_pages, missing, playwright};

/// Files that exercise what a tester must get right: `$` and `*`, byte order marks, UTF-16,
/// percent-encoding and non-ASCII paths, Google-only spellings, the parsing limit, folded runs of
/// control characters.
fn files() -> Vec<(&'static str, Vec<u8>)> {
    let mut limit = b"User-agent: *\nDisallow: /before\n".to_vec();
    while limit.len() < 512_000 - 40 {
        limit.extend_from_slice(b"# filler to reach the parsing limit.......\n");
    }
    limit.extend_from_slice(
        b"Disallow: /straddles-the-limit-and-is-cut-somewhere\nDisallow: /after\n",
    );
    let utf16 = |text: &str, le: bool| {
        let mut v = if le {
            vec![0xFF, 0xFE]
        } else {
            vec![0xFE, 0xFF]
        };
        for u in text.encode_utf16() {
            v.extend_from_slice(&if le { u.to_le_bytes() } else { u.to_be_bytes() });
        }
        v
    };
    vec![
        (
            "wildcards.example",
            b"User-agent: *\nDisallow: /*.pdf$\nDisallow: /private*\nAllow: /private/open$\nDisallow: /a*b*c\nAllow: /*?lang=\nDisallow: /search\nAllow: /search/help\n\nUser-agent: Googlebot\nDisallow: /g/\nAllow: /g/index.html\n".to_vec(),
        ),
        (
            "bom.example",
            b"\xEF\xBB\xBFUser-agent: *\nDisallow: /bom\n\nUser-agent: FooBot\nDisallow: /\nAllow: /$\n".to_vec(),
        ),
        (
            "utf16le.example",
            utf16("User-agent: *\r\nDisallow: /wide\r\n", true),
        ),
        (
            "utf16be.example",
            utf16("User-agent: *\nDisallow: /big-endian\n", false),
        ),
        (
            "encoding.example",
            "User-agent: *\nDisallow: /café\nDisallow: /%7Euser/\nAllow: /~user/public\nDisallow: /a%2Fb\nDisallow: /über*\n".as_bytes().to_vec(),
        ),
        (
            "spelling.example",
            b"User-agent: Googlebot-News\nDissallow: /news-draft\nUser agent: FooBot\nDisallow /nocolon\n\nuser-agent: foobot\nDisallow: /foo-only\n\nUser-agent: *\nDisallow: /robots.txt\nDisallow: /all\n".to_vec(),
        ),
        ("limit.example", limit),
        (
            // Runs of control and invisible characters, folded in the listing: the tester
            // reads them back from their markers.
            "controls.example",
            format!(
                "User-agent: *\nDisallow: /priv\0\0\0\0\0ate\nDisallow: /se{}arch\n\
                 Allow: /all\t\t\t\t\t\nDisallow: /a{}\n# {}\n",
                "\x01\x02".repeat(6),
                "\u{200B}".repeat(40),
                "\x7F\x1B".repeat(30)
            )
            .into_bytes(),
        ),
        (
            "cr.example",
            b"User-agent: *\rDisallow: /cr-only\rAllow: /cr-only/open\r".to_vec(),
        ),
        (
            "crlf.example",
            b"User-agent: *\r\nDisallow: /crlf\r\nDisallow: /crlf\r\n".to_vec(),
        ),
    ]
}

/// The questions: paths and absolute URLs, with query strings, encodings and edge cases.
const URLS: &[&str] = &[
    "/",
    "/file.pdf",
    "/file.pdf?x=1",
    "/private",
    "/private/open",
    "/private/open/more",
    "/a-b-c",
    "/axbxc/d",
    "/search?q=1",
    "/search/help",
    "/page?lang=de",
    "/g/",
    "/g/index.html",
    "/bom",
    "/wide",
    "/big-endian",
    "/café",
    "/caf%C3%A9",
    "/~user/x",
    "/%7euser/public",
    "/a%2Fb",
    "/a/b",
    "/über/x",
    "/news-draft",
    "/nocolon",
    "/foo-only",
    "/robots.txt",
    "/all",
    "/before",
    "/after",
    "https://example.com/private/x",
    "HTTPS://EXAMPLE.COM/./private/../search",
];

/// Who asks: a known crawler (with its profile) and two plain product tokens.
const WHO: &[(&str, &str)] = &[("Googlebot", ""), ("", "FooBot"), ("Googlebot-Image", "")];

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_robots-explorer"))
}

/// Runs the driver over `tasks`; its results, one per task.
fn drive(modules: &Path, tasks: &Value, dir: &Path) -> Vec<Value> {
    let file = dir.join("tasks.json");
    std::fs::write(&file, tasks.to_string()).unwrap();
    match drive_pages(modules, "tester.js", &[file.as_os_str()]) {
        Value::Array(results) => results,
        other => panic!("the driver printed {other}, not a list"),
    }
}

/// `check --format json` for one file, one asker, one reading: per URL, (verdict, reason,
/// deciding line) as the tester shows them.
fn check(
    file: &Path,
    crawler: &str,
    agent: &str,
    reading: &str,
) -> Vec<(String, String, Option<u64>)> {
    let mut cmd = bin();
    cmd.arg("check")
        .arg("--format")
        .arg("json")
        .arg("--reading")
        .arg(reading);
    if crawler.is_empty() {
        cmd.arg("--agent").arg(agent);
    } else {
        cmd.arg("--crawler").arg(crawler);
    }
    for u in URLS {
        cmd.arg("--url").arg(u);
    }
    let out = cmd.arg(file).output().unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            match v["allowed"].as_bool() {
                None => ("error".into(), String::new(), None),
                Some(a) => (
                    if a { "allowed" } else { "disallowed" }.to_string(),
                    v["reason"].as_str().unwrap().to_string(),
                    v["rule"]["line"].as_u64(),
                ),
            }
        })
        .collect()
}

fn report(inputs: &Path, out: &Path) {
    let status = bin()
        .arg("report")
        .arg(inputs)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
}

fn setup() -> Option<(PathBuf, tempfile::TempDir)> {
    let Some(modules) = playwright() else {
        missing("playwright-core (npm) with node and chromium");
        return None;
    };
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in");
    std::fs::create_dir(&inputs).unwrap();
    for (host, bytes) in files() {
        std::fs::write(inputs.join(format!("{host}.txt")), bytes).unwrap();
    }
    report(&inputs, &dir.path().join("site"));
    Some((modules, dir))
}

#[test]
fn the_tester_answers_as_check_does() {
    let Some((modules, dir)) = setup() else {
        return;
    };
    let mut tasks = Vec::new();
    for (host, _) in files() {
        for (i, (crawler, agent)) in WHO.iter().enumerate() {
            tasks.push(serde_json::json!({
                "page": dir.path().join("site/hosts").join(format!("{host}.html")),
                "host": host,
                "crawler": crawler,
                "agent": agent,
                "reading": if i % 2 == 0 { "google" } else { "rfc" },
                "urls": URLS,
            }));
        }
    }
    let results = drive(&modules, &Value::Array(tasks.clone()), dir.path());
    let mut asked = 0;
    for (task, result) in tasks.iter().zip(&results) {
        let host = task["host"].as_str().unwrap();
        let file = dir.path().join("in").join(format!("{host}.txt"));
        let (crawler, agent) = (
            task["crawler"].as_str().unwrap(),
            task["agent"].as_str().unwrap(),
        );
        assert!(
            result["errors"].as_array().unwrap().is_empty(),
            "{host}: {}",
            result["errors"]
        );
        let rows = result["rows"].as_array().unwrap();
        assert_eq!(rows.len(), URLS.len(), "{host}");
        for reading in ["google", "rfc"] {
            let expected = check(&file, crawler, agent, reading);
            for ((row, want), url) in rows.iter().zip(&expected).zip(URLS) {
                let got = (
                    row[reading].as_str().unwrap().to_string(),
                    row[format!("{reading}_reason")]
                        .as_str()
                        .unwrap_or("")
                        .to_string(),
                    row[format!("{reading}_line")].as_u64(),
                );
                let want = if want.0 == "error" {
                    ("error".to_string(), String::new(), None)
                } else {
                    want.clone()
                };
                assert_eq!(&got, &want, "{host}, {crawler}{agent}, {reading}, {url}");
                asked += 1;
            }
        }
        // The deciding line of the first answer is highlighted in the listing when followed.
        if rows
            .iter()
            .any(|r| r[task["reading"].as_str().unwrap().to_string() + "_line"].is_u64())
        {
            assert!(result["highlighted"].is_u64(), "{host}: {result}");
        }
    }
    assert!(asked >= 200, "{asked} questions");
}

#[test]
fn links_into_the_packed_runs_of_a_long_listing_lead_to_their_line() {
    let Some((modules, dir)) = setup() else {
        return;
    };
    // limit.example's listing is folded, and its compact runs are packed.
    let page = dir.path().join("site/hosts/limit.example.html");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("class=rt-runs>"));
    assert!(!html.contains("<li id=L5000>"));
    let got = drive_pages(
        &modules,
        "listing.js",
        &[page.as_os_str(), std::ffi::OsStr::new("5000")],
    );
    assert!(got["errors"].as_array().unwrap().is_empty(), "{got}");
    assert_eq!(got["target"], "L5000", "{got}");
    assert_eq!(got["tag"], "LI", "{got}");
    assert_eq!(
        got["text"], "# filler to reach the parsing limit.......",
        "{got}"
    );
    assert_eq!(got["open"], true, "{got}");
    assert_eq!(got["in_view"], true, "{got}");
    assert_eq!(got["packed"], 0, "{got}");
    assert!(got["before_toggle"].as_u64().unwrap() > 0, "{got}");
}

/// `lint --format json --min-severity info` of `file` in `reading`: (name, line) pairs, sorted.
fn lint(file: &Path, reading: &str) -> Vec<(String, u64)> {
    let out = bin()
        .args([
            "lint",
            "--format",
            "json",
            "--min-severity",
            "info",
            "--reading",
            reading,
        ])
        .arg(file)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    names_and_lines(&v["files"][0]["diagnostics"])
}

/// `[{"name", "line"}, …]` as sorted (name, line) pairs.
fn names_and_lines(list: &Value) -> Vec<(String, u64)> {
    let mut d: Vec<(String, u64)> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["name"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
            )
        })
        .collect();
    d.sort();
    d
}

#[test]
fn edit_mode_follows_the_edited_file() {
    let Some((modules, dir)) = setup() else {
        return;
    };
    let edits = [
        (
            "wildcards.example",
            "User-agent: *\nDisallow: /\nAllow: /search/help\nDissallow: /x\n",
            "google",
        ),
        (
            "spelling.example",
            "User-agent: Googlebot\nDisallow: /private\n\nUser-agent: *\nAllow: /\nDisallow:\n",
            "rfc",
        ),
        (
            "utf16le.example",
            "User-agent: *\nDisallow: /wide\nDisallow: /new\nSitemap: /relative.xml\n",
            "google",
        ),
    ];
    let tasks: Vec<Value> = edits
        .iter()
        .map(|(host, text, reading)| {
            serde_json::json!({
                "page": dir.path().join("site/hosts").join(format!("{host}.html")),
                "crawler": "Googlebot",
                "reading": reading,
                "urls": URLS,
                "edit": text,
            })
        })
        .collect();
    let results = drive(&modules, &Value::Array(tasks), dir.path());
    for ((host, text, reading), result) in edits.iter().zip(&results) {
        assert!(
            result["errors"].as_array().unwrap().is_empty(),
            "{host}: {}",
            result["errors"]
        );
        let edited = dir.path().join(format!("{host}-edited.txt"));
        std::fs::write(&edited, text).unwrap();
        let expected = check(&edited, "Googlebot", "", reading);
        let original = check(
            &dir.path().join("in").join(format!("{host}.txt")),
            "Googlebot",
            "",
            reading,
        );
        let rows = result["rows"].as_array().unwrap();
        for ((row, want), url) in rows.iter().zip(&expected).zip(URLS) {
            assert_eq!(row[*reading].as_str().unwrap(), want.0, "{host}, {url}");
            assert_eq!(
                row[format!("{reading}_line")].as_u64(),
                want.2,
                "{host}, {url}"
            );
        }
        // Verdict changes against the original are listed (first, apart from answers that only
        // changed their deciding line).
        let changed = expected
            .iter()
            .zip(&original)
            .filter(|(a, b)| a.0 != "error" && a.0 != b.0)
            .count();
        assert_eq!(
            result["changes"].as_u64().unwrap() as usize,
            changed,
            "{host}"
        );
        assert!(changed > 0, "{host}: the edit changes verdicts");
        // Diagnostics of the edited file, as lint lists them in the reading.
        let got = names_and_lines(&result["diagnostics"]);
        assert_eq!(got, lint(&edited, reading), "{host}");
    }
}

/// Edit mode on a file as it is changes nothing: a text area ends its lines in LF, and the
/// file's own terminators (CR only, CRLF) come back, so no diagnostic is new or fixed.
#[test]
fn edit_mode_without_an_edit_changes_nothing() {
    let Some((modules, dir)) = setup() else {
        return;
    };
    let hosts = ["cr.example", "crlf.example", "wildcards.example"];
    let tasks: Vec<Value> = hosts
        .iter()
        .map(|host| {
            serde_json::json!({
                "page": dir.path().join("site/hosts").join(format!("{host}.html")),
                "crawler": "Googlebot",
                "reading": "google",
                "urls": URLS,
                "keep": true,
            })
        })
        .collect();
    let results = drive(&modules, &Value::Array(tasks), dir.path());
    for (host, result) in hosts.iter().zip(&results) {
        assert!(
            result["errors"].as_array().unwrap().is_empty(),
            "{host}: {}",
            result["errors"]
        );
        assert_eq!(result["all_changes"], 0, "{host}: {result}");
        let file = dir.path().join("in").join(format!("{host}.txt"));
        let got = names_and_lines(&result["diagnostics"]);
        assert_eq!(got, lint(&file, "google"), "{host}");
        assert!(
            !got.is_empty() || *host == "wildcards.example",
            "{host}: {got:?}"
        );
    }
}
