//! `robots-explorer diff`: every format (insta snapshots) on a hand-made pair of files that
//! shows every kind of change, on a pair of real corpus files, and on two small audits made by
//! `report`; the JSON's values; exit statuses.

mod shared;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn data() -> PathBuf {
    root().join("tests/data/diff")
}

/// Runs `robots-explorer ARGS` in `dir`.
fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_robots-explorer"))
        .current_dir(dir)
        .args(args)
        .env_remove("NO_COLOR")
        .output()
        .expect("the binary runs")
}

fn diff(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let o = run(dir, &[&["diff"][..], args].concat());
    (
        o.status.code(),
        String::from_utf8(o.stdout).expect("UTF-8 output"),
    )
}

const FORMATS: [&str; 4] = ["text", "json", "markdown", "github"];

#[test]
fn hand_made_pair_in_every_format() {
    for f in FORMATS {
        let (code, out) = diff(&data(), &["--format", f, "old.txt", "new.txt"]);
        // Googlebot (a search crawler) loses `/`: the default --fail-on is reached.
        assert_eq!(code, Some(1), "{f}");
        insta::assert_snapshot!(format!("diff-files-{f}"), out);
    }
}

#[test]
fn hand_made_pair_json_values() {
    let (_, out) = diff(&data(), &["--format", "json", "old.txt", "new.txt"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["schema"], "robots-explorer/diff/1");
    assert_eq!(v["kind"], "files");
    assert_eq!(v["fails"], true);
    let verdicts = v["verdicts"].as_array().unwrap();
    let root = verdicts
        .iter()
        .find(|c| c["paths"][0] == "/" && c["crawlers"][0] == "Googlebot")
        .expect("Googlebot on /");
    assert_eq!(root["readings"], "both");
    assert_eq!(root["google"]["old"]["allowed"], true);
    assert_eq!(root["google"]["new"]["allowed"], false);
    assert_eq!(root["google"]["new"]["rule"]["line"], 16);
    assert_eq!(root["google"]["new"]["text"], "Disallow: /");
    // Googlebot-Image falls back to the Googlebot group.
    let image = verdicts
        .iter()
        .find(|c| {
            c["paths"][0] == "/"
                && c["crawlers"]
                    .as_array()
                    .unwrap()
                    .contains(&"Googlebot-Image".into())
        })
        .unwrap();
    assert_eq!(image["google"]["new"]["via_token"], "Googlebot");
    // The misspelt `Disalow` is read by Google only.
    let search = verdicts
        .iter()
        .find(|c| {
            c["paths"][0] == "/search"
                && c["crawlers"]
                    .as_array()
                    .unwrap()
                    .contains(&"bingbot".into())
        })
        .unwrap();
    assert_eq!(search["readings"], "google");
    assert_eq!(search["rfc"]["new"]["allowed"], true);
    let rules = v["rules"].as_array().unwrap();
    let over = rules
        .iter()
        .find(|r| r["change"] == "overridden")
        .expect("an overridden rule");
    assert_eq!(over["pattern"], "/tmp/");
    assert_eq!(
        (over["old_line"].as_u64(), over["new_line"].as_u64()),
        (Some(4), Some(6))
    );
    assert!(
        rules
            .iter()
            .any(|r| r["change"] == "removed" && r["pattern"] == "/old-shop/")
    );
    let groups: Vec<(String, String)> = v["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["change"].as_str().unwrap().into(),
                g["user_agents"][0].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(
        groups,
        [
            ("removed", "OldBot"),
            ("added", "GPTBot"),
            ("added", "Googlebot")
        ]
        .map(|(a, b)| (a.to_string(), b.to_string()))
    );
    let diagnostics = v["diagnostics"].as_array().unwrap();
    assert!(
        diagnostics
            .iter()
            .any(|d| d["change"] == "fixed" && d["name"] == "duplicate-rule")
    );
    assert!(diagnostics.iter().any(|d| d["change"] == "introduced"
        && d["name"] == "google-only-spelling"
        && d["line"] == 10));
    let sitemaps: Vec<&str> = v["sitemaps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["url"].as_str().unwrap())
        .collect();
    assert_eq!(
        sitemaps,
        [
            "https://shop.example/sitemap-old.xml",
            "https://shop.example/sitemap.xml"
        ]
    );
    assert_eq!(
        v["search_crawlers_losing_access"][0]["crawler"],
        "Googlebot"
    );
}

#[test]
fn a_shifted_copy_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let old = std::fs::read(data().join("old.txt")).unwrap();
    let mut shifted = b"# moved down\n\n\n".to_vec();
    shifted.extend_from_slice(&old);
    std::fs::write(dir.path().join("a.txt"), &old).unwrap();
    std::fs::write(dir.path().join("b.txt"), &shifted).unwrap();
    let (code, out) = diff(
        dir.path(),
        &["--fail-on", "any", "--format", "json", "a.txt", "b.txt"],
    );
    assert_eq!(code, Some(0), "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for k in ["verdicts", "rules", "groups", "diagnostics", "sitemaps"] {
        assert_eq!(v[k].as_array().unwrap().len(), 0, "{k}");
    }
}

#[test]
fn exit_statuses() {
    let d = data();
    let code = |args: &[&str]| diff(&d, args).0;
    assert_eq!(code(&["--fail-on", "never", "old.txt", "new.txt"]), Some(0));
    assert_eq!(code(&["--fail-on", "any", "old.txt", "new.txt"]), Some(1));
    assert_eq!(code(&["--fail-on", "any", "old.txt", "old.txt"]), Some(0));
    // bingbot keeps `/`, loses `/cart/`.
    assert_eq!(
        code(&["--crawler", "bingbot", "old.txt", "new.txt"]),
        Some(0)
    );
    assert_eq!(
        code(&[
            "--crawler",
            "bingbot",
            "--fail-path",
            "/cart/",
            "old.txt",
            "new.txt"
        ]),
        Some(1)
    );
    assert_eq!(
        code(&["--crawler", "GPTBot", "old.txt", "new.txt"]),
        Some(1)
    );
    assert_eq!(
        code(&[
            "--agent",
            "oldbot",
            "--fail-path",
            "all",
            "old.txt",
            "new.txt"
        ]),
        Some(0)
    );
    assert_eq!(code(&["--agent", "GPTBot", "new.txt", "old.txt"]), Some(0));
    // Usage and I/O errors.
    assert_eq!(
        code(&["--crawler", "NoSuchBot", "old.txt", "new.txt"]),
        Some(2)
    );
    assert_eq!(code(&["old.txt", "missing.txt"]), Some(2));
    assert_eq!(
        code(&["old.txt", "audit-old"]),
        Some(2),
        "a directory without hosts.jsonl"
    );
    assert_eq!(
        code(&["--url", "http://[::1", "old.txt", "new.txt"]),
        Some(2)
    );
    assert_eq!(
        code(&["--urls", "missing.txt", "old.txt", "new.txt"]),
        Some(2)
    );
    assert_eq!(
        code(&["--fail-on", "sometimes", "old.txt", "new.txt"]),
        Some(2)
    );
    assert_eq!(code(&["-", "-"]), Some(2));
}

#[test]
fn urls_and_binary_input() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("urls.txt"),
        "\u{feff}# paths\n/shop/café\r\n\nhttps://shop.example/q?a=1\n",
    )
    .unwrap();
    let junk: Vec<u8> = (0..200_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::write(dir.path().join("junk.txt"), &junk).unwrap();
    std::fs::copy(data().join("new.txt"), dir.path().join("new.txt")).unwrap();
    let (code, out) = diff(
        dir.path(),
        &[
            "--urls",
            "urls.txt",
            "--format",
            "json",
            "--fail-on",
            "never",
            "junk.txt",
            "new.txt",
        ],
    );
    assert_eq!(code, Some(0));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let paths: Vec<&str> = v["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["paths"].as_array().unwrap())
        .map(|p| p.as_str().unwrap())
        .collect();
    assert!(paths.contains(&"/shop/caf%C3%A9"), "{paths:?}");
}

/// The real corpus pair: two versions of www.1stdibs.com/robots.txt from its repository's
/// history; the later one adds four GraphQL allow rules and three disallow rules.
const CORPUS_PAIR: [&str; 2] = ["41525a340c1f7003.txt", "8cd12cada99e6b39.txt"];

#[test]
fn corpus_pair_in_every_format() {
    let Some(files) = shared::dir("corpus/files", "corpus_pair_in_every_format") else {
        return;
    };
    for f in FORMATS {
        let (code, out) = diff(&files, &["--format", f, CORPUS_PAIR[0], CORPUS_PAIR[1]]);
        // Search crawlers lose paths, but not `/`.
        assert_eq!(code, Some(0), "{f}");
        insta::assert_snapshot!(format!("diff-corpus-{f}"), out);
    }
    let (code, _) = diff(
        &files,
        &[
            "--fail-path",
            "/buyer-base/",
            CORPUS_PAIR[0],
            CORPUS_PAIR[1],
        ],
    );
    assert_eq!(code, Some(1));
}

/// Runs `report` on the two audit fixtures into `old` and `new` under `dir`.
fn two_audits(dir: &Path) {
    for (input, out) in [("audit-old", "old"), ("audit-new", "new")] {
        let o = run(
            dir,
            &[
                "report",
                data().join(input).to_str().unwrap(),
                "--out",
                out,
                "--pages",
                "none",
                "--quiet",
                "--now",
                "2026-10-22T00:00:00Z",
            ],
        );
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn audits_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    two_audits(dir.path());
    for f in FORMATS {
        let (code, out) = diff(dir.path(), &["--format", f, "old", "new"]);
        // Googlebot is newly blocked from `/` on news.example.
        assert_eq!(code, Some(1), "{f}");
        insta::assert_snapshot!(format!("diff-audits-{f}"), out);
    }
    let (_, out) = diff(
        dir.path(),
        &["--format", "json", "old/hosts.jsonl", "new/hosts.jsonl"],
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["kind"], "audits");
    assert_eq!(v["added"], serde_json::json!(["added.example"]));
    assert_eq!(v["gone"], serde_json::json!(["gone.example"]));
    let news = v["changed"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["host"] == "news.example")
        .expect("news.example changed");
    let blocked: Vec<&str> = news["newly_blocked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    assert!(
        blocked.contains(&"Googlebot") && blocked.contains(&"GPTBot") && blocked.contains(&"CCBot")
    );
    let outage = v["changed"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["host"] == "outage.example")
        .expect("outage.example changed");
    assert_eq!(outage["outcome"]["old"], "successful");
    assert_eq!(outage["outcome"]["new"], "unreachable");
    let gpt = v["totals"]["ai_crawlers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["crawler"] == "GPTBot")
        .unwrap();
    assert_eq!(
        gpt["started_blocking"], 2,
        "news.example and outage.example"
    );
    assert_eq!(gpt["blocking_new"], 2);
    assert_eq!(
        diff(dir.path(), &["--fail-on", "never", "old", "new"]).0,
        Some(0)
    );
    assert_eq!(
        diff(dir.path(), &["--fail-on", "any", "old", "old"]).0,
        Some(0)
    );
    assert_eq!(diff(dir.path(), &["old", "new/hosts.jsonl"]).0, Some(1));
    std::fs::write(dir.path().join("bad.jsonl"), "{not json\n").unwrap();
    assert_eq!(diff(dir.path(), &["old", "bad.jsonl"]).0, Some(2));
}
