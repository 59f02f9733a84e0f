//! Conformance cases from public robots.txt test suites (vendored in `tests/data/conformance`).
//!
//! Every google/robotstxt and google/robotstxt-spec-test case must pass in the Google reading.
//! texting_robots and protego cases must pass too, except those listed in
//! `tests/data/deliberate-differences.tsv` (id, reading, reason): a listed case that starts to
//! pass, or an unlisted case that fails, fails the test.

use robots_explorer::{Reading, RobotsTxt};
use std::collections::BTreeMap;
use std::path::PathBuf;

fn shared() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/conformance")
}

#[derive(serde::Deserialize)]
struct Case {
    id: String,
    agent: String,
    url: String,
    expected: String,
    #[serde(default)]
    robots: Option<String>,
    #[serde(default)]
    robots_b64: Option<String>,
}

fn body(robots: &Option<String>, b64: &Option<String>) -> Vec<u8> {
    match (robots, b64) {
        (Some(s), _) => s.as_bytes().to_vec(),
        (None, Some(b)) => base64_decode(b),
        _ => Vec::new(),
    }
}

fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => (c - b'A') as u32,
            b'a'..=b'z' => (c - b'a' + 26) as u32,
            b'0'..=b'9' => (c - b'0' + 52) as u32,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        })
    };
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in s.bytes().filter_map(val) {
        acc = (acc << 6) | c;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

/// The reading a case is checked in: Google for Google's suites, RFC 9309 for the others.
fn reading_for(id: &str) -> Reading {
    if id.starts_with("google-") {
        Reading::Google
    } else {
        Reading::Rfc9309
    }
}

fn load_differences() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/deliberate-differences.tsv"),
    )
    .unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut it = l.splitn(2, '\t');
            (
                it.next().unwrap().to_string(),
                it.next().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn allow_cases() {
    let text =
        std::fs::read_to_string(shared().join("allow-cases.jsonl")).expect("conformance cases");
    let differences = load_differences();
    let mut failures = Vec::new();
    let mut now_passing = Vec::new();
    let mut counts: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for line in text.lines() {
        let case: Case = serde_json::from_str(line).unwrap();
        let reading = reading_for(&case.id);
        let robots = RobotsTxt::parse(&body(&case.robots, &case.robots_b64));
        let d = robots.decide(reading, &case.agent, &case.url);
        let got = if d.allowed { "allowed" } else { "disallowed" };
        let ok = got == case.expected;
        let prefix = case.id.split(':').next().unwrap().to_string();
        let e = counts.entry(prefix).or_default();
        e.0 += 1;
        if ok {
            e.1 += 1;
        }
        match (ok, differences.contains_key(&case.id)) {
            (true, true) => now_passing.push(case.id.clone()),
            (false, false) => failures.push(format!(
                "{} [{}] agent={:?} url={:?} expected {} got {} ({:?}, rule {:?})\n{:?}",
                case.id,
                reading,
                case.agent,
                case.url,
                case.expected,
                got,
                d.reason,
                d.rule,
                String::from_utf8_lossy(&body(&case.robots, &case.robots_b64))
            )),
            _ => {}
        }
    }
    for (k, (n, p)) in &counts {
        eprintln!("{k}: {p}/{n} pass");
    }
    assert!(
        failures.is_empty(),
        "{} unexpected failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(
        now_passing.is_empty(),
        "listed as different but now pass: {now_passing:?}"
    );
}

#[derive(serde::Deserialize)]
struct Other {
    id: String,
    kind: String,
    #[serde(default)]
    robots: Option<String>,
    #[serde(default)]
    robots_b64: Option<String>,
    expected: serde_json::Value,
    #[serde(default)]
    unordered: bool,
}

#[test]
fn sitemap_cases() {
    let text = std::fs::read_to_string(shared().join("other-cases.jsonl")).unwrap();
    let mut n = 0;
    for line in text.lines() {
        let case: Other = serde_json::from_str(line).unwrap();
        if case.kind != "sitemaps" {
            continue;
        }
        n += 1;
        let robots = RobotsTxt::parse(&body(&case.robots, &case.robots_b64));
        // Sitemaps are an "other record" (RFC 9309 §2.2.4); the suites expect Google's lenient
        // key reading (`site-map`, `Sitemaps`), which is the default reading.
        let p = robots.policy(Reading::Google);
        let mut got: Vec<String> = p
            .sitemaps
            .iter()
            .map(|s| robots.text(s.url).into_owned())
            .collect();
        let mut want: Vec<String> = serde_json::from_value(case.expected.clone()).unwrap();
        if case.unordered {
            got.sort();
            want.sort();
        }
        assert_eq!(got, want, "{}", case.id);
    }
    assert!(n > 0);
}
