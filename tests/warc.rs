//! WARC input: `report`, `lint` and `check` over `.warc` and `.warc.gz` files written here by a
//! small writer (one gzip member per record), covering the answers a robots.txt fetch gets
//! (200, 404, 429, 503, no response), redirect chains across hosts of 1 to 6 hops, chunked and
//! gzip bodies, a truncated record, revisits, records that are not robots.txt captures, a
//! damaged gzip member, and several captures of one host.

use robots_explorer::report::{self, Config, NoProgress};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use time::macros::datetime;

const NOW: time::OffsetDateTime = datetime!(2024-03-02 00:00 UTC);

/// A WARC writer: records in order, each its own gzip member when `gz`.
struct Warc {
    out: Vec<u8>,
    gz: bool,
    n: usize,
}

impl Warc {
    fn new(gz: bool) -> Warc {
        Warc {
            out: Vec::new(),
            gz,
            n: 0,
        }
    }

    fn record(
        &mut self,
        kind: &str,
        url: &str,
        date: &str,
        extra: &[(&str, &str)],
        block: &[u8],
    ) -> String {
        self.n += 1;
        let id = format!("<urn:uuid:00000000-0000-0000-0000-{:012}>", self.n);
        let mut r = format!(
            "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Record-ID: {id}\r\nWARC-Date: {date}\r\n\
             WARC-Target-URI: {url}\r\n"
        );
        for (k, v) in extra {
            r.push_str(&format!("{k}: {v}\r\n"));
        }
        r.push_str(&format!(
            "Content-Type: application/http; msgtype={kind}\r\nContent-Length: {}\r\n\r\n",
            block.len()
        ));
        let mut bytes = r.into_bytes();
        bytes.extend_from_slice(block);
        bytes.extend_from_slice(b"\r\n\r\n");
        self.raw(&bytes);
        id
    }

    fn raw(&mut self, bytes: &[u8]) {
        if self.gz {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(bytes).unwrap();
            self.out.extend(e.finish().unwrap());
        } else {
            self.out.extend_from_slice(bytes);
        }
    }

    /// A request and its response.
    fn exchange(&mut self, url: &str, date: &str, answer: &[u8], extra: &[(&str, &str)]) {
        let req = self.record(
            "request",
            url,
            date,
            &[],
            b"GET /robots.txt HTTP/1.1\r\n\r\n",
        );
        let mut fields = vec![("WARC-Concurrent-To", req.as_str())];
        fields.extend_from_slice(extra);
        self.record("response", url, date, &fields, answer);
    }

    fn write(&self, path: &Path) {
        std::fs::write(path, &self.out).unwrap();
    }
}

fn answer(status: &str, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut a = format!("HTTP/1.1 {status}\r\n");
    for (k, v) in headers {
        a.push_str(&format!("{k}: {v}\r\n"));
    }
    a.push_str("\r\n");
    let mut a = a.into_bytes();
    a.extend_from_slice(body);
    a
}

fn gzip(b: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(b).unwrap();
    e.finish().unwrap()
}

/// The crawl every test reads (see the module documentation).
fn crawl(gz: bool) -> Warc {
    let mut w = Warc::new(gz);
    w.record(
        "warcinfo",
        "",
        "2024-01-01T00:00:00Z",
        &[],
        b"software: test\r\n",
    );
    let ok = b"User-agent: *\nDisallow: /private/\n";
    w.exchange(
        "https://ok.example/robots.txt",
        "2024-03-01T00:00:00Z",
        &answer("200 OK", &[("Content-Type", "text/plain")], ok),
        &[("WARC-Payload-Digest", "sha1:OKOKOK")],
    );
    // Not robots.txt captures: a page, its request and a metadata record.
    w.exchange(
        "https://ok.example/index.html",
        "2024-03-01T00:00:01Z",
        &answer("200 OK", &[], b"<html></html>"),
        &[],
    );
    w.record(
        "metadata",
        "https://ok.example/robots.txt",
        "2024-03-01T00:00:00Z",
        &[],
        b"x: y\r\n",
    );
    w.exchange(
        "https://gone.example/robots.txt",
        "2024-03-01T00:00:00Z",
        &answer(
            "404 Not Found",
            &[("Content-Type", "text/html")],
            b"<html>missing</html>",
        ),
        &[],
    );
    w.exchange(
        "https://slow.example/robots.txt",
        "2024-03-01T00:00:00Z",
        &answer("429 Too Many Requests", &[], b""),
        &[],
    );
    w.exchange(
        "https://down.example/robots.txt",
        "2024-03-01T00:00:00Z",
        &answer("503 Service Unavailable", &[], b""),
        &[],
    );
    // A request that nothing answers.
    w.record(
        "request",
        "https://timeout.example/robots.txt",
        "2024-03-01T00:00:00Z",
        &[],
        b"GET /robots.txt HTTP/1.1\r\n\r\n",
    );
    // Chains of 1 to 6 redirects, each hop to another host; the end answers 200.
    for n in 1..=6 {
        for k in 0..n {
            let from = if k == 0 {
                format!("h{n}.example")
            } else {
                format!("h{n}-{k}.example")
            };
            let to = format!("https://h{n}-{}.example/robots.txt", k + 1);
            w.exchange(
                &format!("https://{from}/robots.txt"),
                "2024-03-01T00:00:00Z",
                &answer("301 Moved Permanently", &[("Location", &to)], b""),
                &[],
            );
        }
        w.exchange(
            &format!("https://h{n}-{n}.example/robots.txt"),
            "2024-03-01T00:00:00Z",
            &answer(
                "200 OK",
                &[],
                format!("User-agent: *\nDisallow: /n{n}/\n").as_bytes(),
            ),
            &[],
        );
    }
    // Encodings: chunked, gzip, and both.
    w.exchange(
        "https://chunked.example/robots.txt",
        "2024-03-01T00:00:00Z",
        &answer(
            "200 OK",
            &[("Transfer-Encoding", "chunked")],
            b"d\r\nUser-agent: *\r\n10\r\n\nDisallow: /chu\r\n4\r\nnked\r\n0\r\n\r\n",
        ),
        &[],
    );
    w.exchange(
        "https://gzip.example/robots.txt",
        "2024-03-01T00:00:00Z",
        &answer(
            "200 OK",
            &[("Content-Encoding", "gzip")],
            &gzip(b"User-agent: *\nDisallow: /zipped/\n"),
        ),
        &[],
    );
    // A damaged gzip member between two sound ones: its CRC and data do not match.
    if gz {
        let mut bad =
            gzip(b"WARC/1.1\r\nWARC-Type: response\r\nContent-Length: 4\r\n\r\nabcd\r\n\r\n");
        let n = bad.len();
        bad[n - 8] ^= 0x55;
        // The deflate data itself, from its first block header on: nothing of it decodes.
        for b in &mut bad[10..16] {
            *b ^= 0xff;
        }
        w.out.extend(bad);
    }
    // A record cut by the crawler (WARC-Truncated), still read as far as it goes.
    w.exchange(
        "https://trunc.example/robots.txt",
        "2024-03-01T00:00:00Z",
        &answer(
            "200 OK",
            &[],
            b"User-agent: *\nDisallow: /kept/\nDisallow: /cu",
        ),
        &[("WARC-Truncated", "length")],
    );
    // A revisit of an earlier capture, and one whose payload is not in the file.
    w.exchange(
        "https://rev.example/robots.txt",
        "2024-02-01T00:00:00Z",
        &answer("200 OK", &[], b"User-agent: *\nDisallow: /same/\n"),
        &[("WARC-Payload-Digest", "sha1:SAME")],
    );
    w.record(
        "revisit",
        "https://rev.example/robots.txt",
        "2024-03-01T00:00:00Z",
        &[
            ("WARC-Payload-Digest", "sha1:SAME"),
            (
                "WARC-Refers-To-Target-URI",
                "https://rev.example/robots.txt",
            ),
            ("WARC-Refers-To-Date", "2024-02-01T00:00:00Z"),
            (
                "WARC-Profile",
                "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest",
            ),
        ],
        &answer("200 OK", &[], b""),
    );
    w.record(
        "revisit",
        "https://lost.example/robots.txt",
        "2024-03-01T00:00:00Z",
        &[("WARC-Payload-Digest", "sha1:ELSEWHERE")],
        &answer("200 OK", &[], b""),
    );
    // Three captures of one host, written out of date order: the latest (March) decides.
    w.exchange(
        "https://multi.example/robots.txt",
        "2024-03-01T00:00:00Z",
        &answer(
            "200 OK",
            &[],
            b"User-agent: *\nDisallow: /new/\nDisallow: /kept/\n",
        ),
        &[("WARC-Payload-Digest", "sha1:MARCH")],
    );
    w.exchange(
        "https://multi.example/robots.txt",
        "2024-01-01T00:00:00Z",
        &answer(
            "200 OK",
            &[],
            b"User-agent: *\nDisallow: /old/\nDisallow: /kept/\n",
        ),
        &[("WARC-Payload-Digest", "sha1:JANUARY")],
    );
    w.exchange(
        "https://multi.example/robots.txt",
        "2024-02-01T00:00:00Z",
        &answer("503 Service Unavailable", &[], b""),
        &[],
    );
    w
}

fn run_report(input: &Path) -> (tempfile::TempDir, BTreeMap<String, Value>, Value) {
    let out_dir = tempfile::tempdir().unwrap();
    let out = out_dir.path().join("site");
    report::run(&Config::new(input, &out, NOW), &NoProgress).unwrap();
    let rows: BTreeMap<String, Value> = std::fs::read_to_string(out.join("hosts.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (v["host"].as_str().unwrap().to_string(), v)
        })
        .collect();
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    (out_dir, rows, summary)
}

fn bin(args: &[&str], dir: &Path) -> (String, String, i32) {
    let o = Command::new(env!("CARGO_BIN_EXE_robots-explorer"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        o.status.code().unwrap_or(-1),
    )
}

#[test]
fn report_reads_every_kind_of_capture() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("crawl");
    std::fs::create_dir(&input).unwrap();
    crawl(true).write(&input.join("crawl.warc.gz"));
    // A plain robots.txt file beside the WARC file is still a host.
    std::fs::write(input.join("plain.example.txt"), "User-agent: *\nAllow: /\n").unwrap();
    let (out, rows, summary) = run_report(&input);
    let site = out.path().join("site");

    let hosts: Vec<&str> = rows.keys().map(String::as_str).collect();
    assert_eq!(
        hosts,
        vec![
            "chunked.example",
            "down.example",
            "gone.example",
            "gzip.example",
            "h1.example",
            "h2.example",
            "h3.example",
            "h4.example",
            "h5.example",
            "h6.example",
            "lost.example",
            "multi.example",
            "ok.example",
            "plain.example",
            "rev.example",
            "slow.example",
            "timeout.example",
            "trunc.example",
        ],
        "redirect targets are part of their chain, not hosts of their own"
    );
    let field = |h: &str, f: &str| rows[h][f].clone();
    let outcome = |h: &str| field(h, "outcome").as_str().unwrap().to_string();

    assert_eq!(outcome("ok.example"), "successful");
    assert_eq!(field("ok.example", "status"), 200);
    assert_eq!(field("ok.example", "bytes"), 34);
    assert_eq!(field("ok.example", "effect"), "follow-file");
    assert_eq!(field("ok.example", "cache_age_seconds"), 86_400);
    assert_eq!(
        field("ok.example", "file"),
        "crawl.warc.gz#https://ok.example/robots.txt@2024-03-01T00:00:00Z"
    );
    assert_eq!(field("ok.example", "file_uri"), "crawl.warc.gz");
    assert_eq!(field("ok.example", "sidecar"), Value::Null);

    assert_eq!(outcome("gone.example"), "unavailable");
    assert_eq!(field("gone.example", "status"), 404);
    assert_eq!(field("gone.example", "effect"), "allow-all");
    assert_eq!(
        field("gone.example", "bytes"),
        Value::Null,
        "a 404 page is not a robots.txt"
    );
    assert_eq!(outcome("slow.example"), "unavailable");
    assert_eq!(field("slow.example", "status"), 429);
    assert_eq!(field("slow.example", "effect_google"), "disallow-all");
    assert_eq!(outcome("down.example"), "unreachable");
    assert_eq!(field("down.example", "effect"), "disallow-all");
    assert_eq!(outcome("timeout.example"), "unreachable");
    assert_eq!(
        field("timeout.example", "fetch_error"),
        "no response recorded"
    );
    assert_eq!(field("timeout.example", "status"), Value::Null);

    // 1 to 5 hops are followed; the sixth exceeds RFC 9309 §2.3.1.2's bound.
    for n in 1..=5 {
        let h = format!("h{n}.example");
        assert_eq!(outcome(&h), "successful", "{h}");
        assert_eq!(field(&h, "status"), 200);
        assert_eq!(field(&h, "user_agents"), serde_json::json!(["*"]));
        let page = std::fs::read_to_string(site.join(format!("hosts/{h}.html"))).unwrap();
        let hops = page.matches("301 → https://").count();
        assert_eq!(hops, n, "{h}: one line per hop in the chain");
        assert!(
            page.contains(&format!("/n{n}/")),
            "{h}: the final file's rules"
        );
    }
    assert_eq!(outcome("h6.example"), "too-many-redirects");
    assert_eq!(field("h6.example", "effect"), "allow-all");

    assert_eq!(outcome("chunked.example"), "successful");
    assert_eq!(field("chunked.example", "bytes"), 33);
    assert_eq!(outcome("gzip.example"), "successful");
    assert_eq!(field("gzip.example", "bytes"), 33);

    assert_eq!(outcome("trunc.example"), "successful");
    let trunc = std::fs::read_to_string(site.join("hosts/trunc.example.html")).unwrap();
    assert!(
        trunc.contains("WARC-Truncated: length"),
        "the truncation is noted"
    );

    assert_eq!(
        outcome("rev.example"),
        "successful",
        "the revisit's payload is the earlier one"
    );
    assert_eq!(field("rev.example", "bytes"), 31);
    let caps = field("rev.example", "captures");
    assert_eq!(caps.as_array().unwrap().len(), 2);
    assert_eq!(caps[0]["digest"], "sha1:SAME");
    assert_eq!(caps[1]["digest"], "sha1:SAME");
    assert_eq!(
        outcome("lost.example"),
        "incomplete",
        "the revisited payload is elsewhere"
    );
    let lost = std::fs::read_to_string(site.join("hosts/lost.example.html")).unwrap();
    assert!(lost.contains("not in this WARC file"));

    // Several captures: the latest by WARC-Date decides; the page shows the timeline and the
    // rules added and removed.
    assert_eq!(outcome("multi.example"), "successful");
    assert_eq!(
        field("multi.example", "file"),
        "crawl.warc.gz#https://multi.example/robots.txt@2024-03-01T00:00:00Z"
    );
    let caps = field("multi.example", "captures");
    let dates: Vec<&str> = caps
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["date"].as_str().unwrap())
        .collect();
    assert_eq!(
        dates,
        vec![
            "2024-01-01T00:00:00Z",
            "2024-02-01T00:00:00Z",
            "2024-03-01T00:00:00Z"
        ]
    );
    let statuses: Vec<&Value> = caps
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["status"])
        .collect();
    assert_eq!(statuses, vec![200, 503, 200]);
    assert_eq!(caps[0]["bytes"], 47);
    assert_eq!(caps[1]["bytes"], Value::Null);
    let multi = std::fs::read_to_string(site.join("hosts/multi.example.html")).unwrap();
    assert!(multi.contains("<ins>+ *: disallow /new/</ins>"), "{multi}");
    assert!(multi.contains("<del>− *: disallow /old/</del>"));
    assert!(
        !multi.contains("+ *: disallow /kept/"),
        "unchanged rules are not listed"
    );
    assert!(multi.contains("sha1:JANUARY") && multi.contains("sha1:MARCH"));

    assert_eq!(outcome("plain.example"), "not-recorded");

    // The counts: 2 records of the page, 1 warcinfo, 1 metadata are not robots.txt captures;
    // the damaged member is a skipped entry with its offset, and the rest is still read.
    let w = &summary["warc"];
    assert_eq!(w["files"], 1);
    assert_eq!(w["skipped_records"], 4);
    assert_eq!(w["corrupt"], 1);
    let skipped = summary["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    let path = skipped[0]["path"].as_str().unwrap();
    assert!(path.starts_with("crawl.warc.gz@"), "{path}");
    let offset: usize = path["crawl.warc.gz@".len()..].parse().unwrap();
    assert!(offset > 0);
    assert!(
        skipped[0]["reason"]
            .as_str()
            .unwrap()
            .contains("damaged WARC record")
    );
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("WARC records that are not robots.txt captures (skipped)"));
}

#[test]
fn check_and_lint_read_each_successful_capture() {
    let dir = tempfile::tempdir().unwrap();
    crawl(true).write(&dir.path().join("crawl.warc.gz"));
    let (out, _, code) = bin(
        &[
            "check",
            "--agent",
            "Googlebot",
            "--url",
            "/private/x",
            "--url",
            "/zipped/y",
            "crawl.warc.gz",
        ],
        dir.path(),
    );
    assert_eq!(code, 2, "the damaged member is an error of the run");
    let line = |name: &str, url: &str| {
        out.lines()
            .find(|l| {
                l.starts_with(&format!("crawl.warc.gz#https://{name}/robots.txt@"))
                    && l.contains(&format!("\t{url}\t"))
            })
            .unwrap_or_else(|| panic!("{name} {url} in {out}"))
            .to_string()
    };
    assert!(line("ok.example", "/private/x").contains("\tDISALLOWED\t"));
    assert!(line("ok.example", "/zipped/y").contains("\tALLOWED\t"));
    assert!(line("gzip.example", "/zipped/y").contains("\tDISALLOWED\t"));
    assert!(line("h3-3.example", "/private/x").contains("\tALLOWED\t"));
    // The revisit is read from the payload it refers to.
    let rev: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("rev.example") && l.contains("/private/x"))
        .collect();
    assert_eq!(rev.len(), 2, "{out}");
    // Unsuccessful answers are not robots.txt files: no row.
    assert!(!out.contains("gone.example") && !out.contains("down.example"));
    assert!(!out.contains("timeout.example") && !out.contains("lost.example"));

    let (json, err, code) = bin(&["lint", "--format", "json", "."], dir.path());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("crawl.warc.gz@"), "{err}");
    let v: Value = serde_json::from_str(&json).unwrap();
    let files = v["files"].as_array().unwrap();
    let names: Vec<&str> = files.iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert!(
        names.contains(&"./crawl.warc.gz#https://multi.example/robots.txt@2024-01-01T00:00:00Z"),
        "{names:?}"
    );
    let trunc = files
        .iter()
        .find(|f| f["path"].as_str().unwrap().contains("trunc.example"))
        .unwrap();
    assert_eq!(trunc["error"], Value::Null);
}

#[test]
fn a_plain_warc_file_is_the_input_itself() {
    let dir = tempfile::tempdir().unwrap();
    let path: PathBuf = dir.path().join("one.warc");
    crawl(false).write(&path);
    let (_out, rows, summary) = run_report(&path);
    assert_eq!(rows.len(), 17);
    assert_eq!(rows["ok.example"]["outcome"], "successful");
    assert_eq!(rows["h6.example"]["outcome"], "too-many-redirects");
    assert_eq!(
        rows["ok.example"]["file"],
        "one.warc#https://ok.example/robots.txt@2024-03-01T00:00:00Z"
    );
    assert_eq!(summary["warc"]["corrupt"], 0);
    let (out, _, code) = bin(
        &[
            "check",
            "--agent",
            "Googlebot",
            "--url",
            "/new/",
            "one.warc",
        ],
        dir.path(),
    );
    assert_eq!(code, 0);
    let multi: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("multi.example"))
        .collect();
    assert_eq!(multi.len(), 2);
    assert!(
        multi
            .iter()
            .any(|l| l.contains("@2024-03-01") && l.contains("DISALLOWED"))
    );
    assert!(
        multi
            .iter()
            .any(|l| l.contains("@2024-01-01") && l.contains("\tALLOWED"))
    );
}

#[test]
fn one_gzip_stream_for_the_whole_file_is_read_too() {
    let dir = tempfile::tempdir().unwrap();
    let plain = crawl(false).out;
    let path = dir.path().join("stream.warc.gz");
    std::fs::write(&path, gzip(&plain)).unwrap();
    let (_out, rows, _) = run_report(&path);
    assert_eq!(rows.len(), 17);
    assert_eq!(rows["chunked.example"]["bytes"], 33);
    assert_eq!(
        rows["multi.example"]["captures"].as_array().unwrap().len(),
        3
    );
}

#[test]
fn a_not_modified_revisit_takes_the_response_it_refers_to_as_the_cached_copy() {
    let dir = tempfile::tempdir().unwrap();
    let mut w = Warc::new(false);
    let rules = b"User-agent: *\nDisallow: /private/\n";
    // A 200, then a 304 revisit (WARC 1.1 profile) that names it by URL and date.
    w.exchange(
        "https://nm.example/robots.txt",
        "2024-02-01T00:00:00Z",
        &answer("200 OK", &[("Content-Type", "text/plain")], rules),
        &[],
    );
    w.record(
        "revisit",
        "https://nm.example/robots.txt",
        "2024-03-01T00:00:00Z",
        &[
            (
                "WARC-Profile",
                "http://netpreserve.org/warc/1.1/revisit/server-not-modified",
            ),
            ("WARC-Refers-To-Target-URI", "https://nm.example/robots.txt"),
            ("WARC-Refers-To-Date", "2024-02-01T00:00:00Z"),
        ],
        &answer("304 Not Modified", &[("ETag", "\"x\"")], b""),
    );
    // The WARC 1.0 profile, with no HTTP block at all, found by payload digest.
    w.exchange(
        "https://nm10.example/robots.txt",
        "2024-02-01T00:00:00Z",
        &answer("200 OK", &[], rules),
        &[("WARC-Payload-Digest", "sha1:NM10")],
    );
    w.record(
        "revisit",
        "https://nm10.example/robots.txt",
        "2024-03-01T00:00:00Z",
        &[
            (
                "WARC-Profile",
                "http://netpreserve.org/warc/1.0/revisit/server-not-modified",
            ),
            ("WARC-Payload-Digest", "sha1:NM10"),
        ],
        b"",
    );
    // A 304 whose earlier response is not in the file.
    w.record(
        "revisit",
        "https://nmlost.example/robots.txt",
        "2024-03-01T00:00:00Z",
        &[
            (
                "WARC-Profile",
                "http://netpreserve.org/warc/1.1/revisit/server-not-modified",
            ),
            (
                "WARC-Refers-To-Target-URI",
                "https://nmlost.example/robots.txt",
            ),
            ("WARC-Refers-To-Date", "2024-01-01T00:00:00Z"),
        ],
        &answer("304 Not Modified", &[], b""),
    );
    let input = dir.path().join("nm.warc");
    w.write(&input);
    let (out, rows, _) = run_report(&input);
    let site = out.path().join("site");

    for h in ["nm.example", "nm10.example"] {
        let row = &rows[h];
        assert_eq!(row["outcome"], "successful", "{h}");
        assert_eq!(row["status"], 304, "{h}: the answer recorded");
        assert_eq!(row["effect_rfc"], "follow-cached-copy", "{h}");
        assert_eq!(row["effect_google"], "follow-cached-copy", "{h}");
        assert_eq!(row["bytes"], 34, "{h}: the earlier response's payload");
        assert_eq!(
            row["cache_age_seconds"], 86_400,
            "{h}: counted from the 304, which confirmed the copy"
        );
        // The copy's rules decide: `/` allowed, `/private/` disallowed.
        assert_eq!(row["paths"][0], "/", "{h}");
        let private = row["paths"]
            .as_array()
            .unwrap()
            .iter()
            .position(|p| p == "/private/")
            .unwrap();
        for d in row["decisions"].as_array().unwrap() {
            let v = d["verdicts"].as_str().unwrap().as_bytes();
            assert_eq!((v[0], v[private]), (b'y', b'n'), "{h}: {d}");
        }
        let caps = row["captures"].as_array().unwrap();
        let statuses: Vec<&Value> = caps.iter().map(|c| &c["status"]).collect();
        assert_eq!(statuses, vec![200, 304], "{h}");
        assert_eq!(caps[1]["bytes"], 34, "{h}");
        let page = std::fs::read_to_string(site.join(format!("hosts/{h}.html"))).unwrap();
        assert!(
            page.contains("The server answered 304 (Not Modified): the copy the crawler already holds is still current, so the file in force is the cached copy (the file shown below, fetched at 2024-02-01T00:00:00Z)."),
            "{h}"
        );
        assert!(!page.contains("ends with a redirect"), "{h}");
    }

    let lost = &rows["nmlost.example"];
    assert_eq!(lost["outcome"], "incomplete");
    assert_eq!(lost["status"], 304);
    assert_eq!(lost["effect_rfc"], "unknown");
    assert_eq!(lost["effect_google"], "unknown");
    let page = std::fs::read_to_string(site.join("hosts/nmlost.example.html")).unwrap();
    assert!(page.contains("the record keeps no cached copy for it to confirm"));
    assert!(page.contains("not in this WARC file"));
    assert!(!page.contains("ends with a redirect"));
}

/// robots.txt captures of a.example to e.example, one response record each, the third's
/// `Content-Length` off by `delta`: the file's bytes and where each record starts.
fn five_hosts(delta: i64) -> (Vec<u8>, Vec<u64>) {
    let mut out = Vec::new();
    let mut starts = Vec::new();
    for (i, host) in ["a", "b", "c", "d", "e"].into_iter().enumerate() {
        let block = answer(
            "200 OK",
            &[("Content-Type", "text/plain")],
            format!("User-agent: *\nDisallow: /{host}/\n").as_bytes(),
        );
        let len = block.len() as i64 + if i == 2 { delta } else { 0 };
        starts.push(out.len() as u64);
        out.extend(
            format!(
                "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{i}>\r\n\
                 WARC-Date: 2024-03-01T00:00:00Z\r\nWARC-Target-URI: https://{host}.example/robots.txt\r\n\
                 Content-Type: application/http; msgtype=response\r\nContent-Length: {len}\r\n\r\n"
            )
            .bytes(),
        );
        out.extend(block);
        out.extend_from_slice(b"\r\n\r\n");
    }
    (out, starts)
}

#[test]
fn a_wrong_content_length_loses_only_its_record_plain_or_one_gzip_stream() {
    // (Content-Length off by, the bytes found where the next record should start)
    let cases = [
        (-7, r"w: /c/\n\r\n\r\nWARC/1.1\r\nWAR"),
        (9, r"1.1\r\nWARC-Type: response"),
    ];
    for (delta, found) in cases {
        for gz in [false, true] {
            let dir = tempfile::tempdir().unwrap();
            let (plain, starts) = five_hosts(delta);
            let name = if gz { "five.warc.gz" } else { "five.warc" };
            let bytes = if gz { gzip(&plain) } else { plain };
            std::fs::write(dir.path().join(name), bytes).unwrap();
            let (out, err, code) = bin(&["report", name, "--out", "site"], dir.path());
            let case = format!("{name}, {delta}: {out}{err}");
            assert_eq!(code, 0, "{case}");

            let site = dir.path().join("site");
            let hosts: Vec<String> = std::fs::read_to_string(site.join("hosts.jsonl"))
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str::<Value>(l).unwrap()["host"].to_string())
                .collect();
            assert_eq!(
                hosts,
                [
                    "\"a.example\"",
                    "\"b.example\"",
                    "\"d.example\"",
                    "\"e.example\""
                ],
                "{case}"
            );
            // The damaged record, by its offset (in a gzip stream, the member's and the
            // record's in its decompressed bytes), and where reading resumed.
            let at = |i: usize| {
                if gz {
                    format!("0+{}", starts[i])
                } else {
                    starts[i].to_string()
                }
            };
            // Each record's block (HTTP header and robots.txt) is 73 bytes.
            let len = 73 + delta;
            let reason = format!(
                "damaged WARC record: https://c.example/robots.txt: Content-Length {len} does not \
                 end the record: its block is followed by `{found}` where two CRLFs and the next \
                 record's version line (WARC/1.0, WARC/1.1) should be; reading resumes at the \
                 next record, at offset {}",
                at(3)
            );
            let summary: Value =
                serde_json::from_str(&std::fs::read_to_string(site.join("summary.json")).unwrap())
                    .unwrap();
            assert_eq!(
                summary["skipped"],
                serde_json::json!([{"path": format!("{name}@{}", at(2)), "reason": reason}]),
                "{case}"
            );
            assert_eq!(summary["warc"]["records"], 4, "{case}");
            assert_eq!(summary["warc"]["captures"], 4, "{case}");
            assert_eq!(summary["warc"]["corrupt"], 1, "{case}");
            assert!(
                err.contains(&format!(
                    "robots-explorer report: 1 entry skipped: {name}@{} ({reason})",
                    at(2)
                )),
                "{case}"
            );
            // `check` names the damaged record the same way and still reads the others.
            let (out, _, code) = bin(
                &["check", "--agent", "Googlebot", "--url", "/d/", name],
                dir.path(),
            );
            assert_eq!(code, 2, "{case}");
            let rows: Vec<&str> = out.lines().collect();
            assert!(
                rows[0].starts_with(&format!("{name}@{}\t/d/\tGooglebot\tERROR\t", at(2))),
                "{case}"
            );
            for (row, host, verdict) in [
                (1, "a", "ALLOWED"),
                (2, "b", "ALLOWED"),
                (3, "d", "DISALLOWED"),
                (4, "e", "ALLOWED"),
            ] {
                assert!(
                    rows[row].starts_with(&format!(
                        "{name}#https://{host}.example/robots.txt@2024-03-01T00:00:00Z\t/d/\t\
                         Googlebot\t{verdict}\t"
                    )),
                    "{host}: {case}"
                );
            }
            assert_eq!(rows.len(), 5, "{case}");
            assert!(!out.contains("#https://c.example"), "{case}");
        }
    }
}

#[test]
fn a_length_past_the_end_of_the_file_is_an_error_of_that_record_only() {
    for gz in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let (plain, starts) = five_hosts(0);
        // The third claims a terabyte: it would swallow the rest of the file.
        let text = String::from_utf8(plain).unwrap();
        let third = &text[starts[2] as usize..starts[3] as usize];
        let huge = third.replace(
            "Content-Length: 73\r\n",
            "Content-Length: 1000000000000\r\n",
        );
        assert_ne!(huge, third);
        let plain = text.replace(third, &huge).into_bytes();
        let shift = (huge.len() - third.len()) as u64;
        let name = if gz { "cut.warc.gz" } else { "cut.warc" };
        std::fs::write(
            dir.path().join(name),
            if gz { gzip(&plain) } else { plain.clone() },
        )
        .unwrap();
        let (_out, rows, summary) = run_report(&dir.path().join(name));
        let hosts: Vec<&str> = rows.keys().map(String::as_str).collect();
        assert_eq!(hosts, ["a.example", "b.example", "d.example", "e.example"]);
        let at = |n: u64| if gz { format!("0+{n}") } else { n.to_string() };
        let header = huge.find("\r\n\r\n").unwrap() as u64 + 4;
        let follow = plain.len() as u64 - starts[2] - header;
        assert_eq!(
            summary["skipped"],
            serde_json::json!([{
                "path": format!("{name}@{}", at(starts[2])),
                "reason": format!(
                    "damaged WARC record: https://c.example/robots.txt: Content-Length \
                     1000000000000 runs past the end of the file: only {follow} bytes follow the \
                     record's header; reading resumes at the next record, at offset {}",
                    at(starts[3] + shift)
                ).replace("end of the file", if gz { "end of the gzip member" } else { "end of the file" }),
            }])
        );
    }
}
