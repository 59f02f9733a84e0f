//! The report's outputs across hosts: `hosts.jsonl`, `hosts.parquet`, `statistics.json`, the
//! paginated index and its data files, SARIF within GitHub's limits, and `--pages`.

mod tools;

use robots_explorer::analysis::Severity;
use robots_explorer::report::{self, Config, NoProgress, Pages};
use std::collections::BTreeMap;
use std::path::Path;
use time::macros::datetime;

const NOW: time::OffsetDateTime = datetime!(2026-10-21 09:00 UTC);

fn fixtures() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/hosts")
}

fn jsonl(out: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(out.join("hosts.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn json(out: &Path, name: &str) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(out.join(name)).unwrap()).unwrap()
}

/// Every row of `hosts.parquet`, read back with the `parquet` crate's row reader, as
/// column name → value text ("null" for nulls).
fn parquet_rows(path: &Path) -> Vec<BTreeMap<String, String>> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let reader = SerializedFileReader::new(std::fs::File::open(path).unwrap()).unwrap();
    reader
        .get_row_iter(None)
        .unwrap()
        .map(|row| {
            row.unwrap()
                .get_column_iter()
                .map(|(name, field)| (name.clone(), field.to_string()))
                .collect()
        })
        .collect()
}

#[test]
fn hosts_jsonl_and_parquet_hold_every_host_alike() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    let s = report::run(&Config::new(fixtures(), &out, NOW), &NoProgress).unwrap();
    let hosts = jsonl(&out);
    assert_eq!(hosts.len(), s.totals.hosts);
    let rows = parquet_rows(&out.join("hosts.parquet"));
    assert_eq!(rows.len(), hosts.len());
    let summary = json(&out, "summary.json");
    let crawlers: Vec<String> = summary["crawlers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    for (h, r) in hosts.iter().zip(&rows) {
        // Strings are quoted in the row reader's text.
        assert_eq!(r["host"], format!("{:?}", h["host"].as_str().unwrap()));
        assert_eq!(
            r["outcome"],
            format!("{:?}", h["outcome"].as_str().unwrap())
        );
        assert_eq!(r["errors"], h["counts"]["error"].to_string());
        assert_eq!(r["rules"], h["rules"].to_string());
        assert_eq!(r["blocks_everything"], h["blocks_everything"].to_string());
        let status = if h["status"].is_null() {
            "null".to_string()
        } else {
            h["status"].to_string()
        };
        assert_eq!(r["status"], status);
        for c in &crawlers {
            let root = &tools::decisions(h, c).0[0];
            let expect = if root.is_null() {
                "null".to_string()
            } else {
                root.to_string()
            };
            assert_eq!(r[&format!("root:{c}")], expect, "{} {c}", h["host"]);
        }
        for (crawler, access) in h["ai_crawlers"].as_object().unwrap() {
            let name = format!("ai:{crawler}");
            assert_eq!(r[&name], format!("{:?}", access.as_str().unwrap()));
        }
    }
    // The summary points to the tables and no longer holds the hosts.
    assert_eq!(summary["files"]["hosts_parquet"], "hosts.parquet");
    assert!(summary.get("hosts").is_none());
}

#[test]
fn statistics_add_up_to_the_hosts() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    // Every diagnostic listed, so that the rows can count them again.
    let mut config = Config::new(fixtures(), &out, NOW);
    config.min_severity = Severity::Info;
    report::run(&config, &NoProgress).unwrap();
    let hosts = jsonl(&out);
    let st = json(&out, "statistics.json");
    let n = hosts.len() as u64;
    assert_eq!(st["hosts"], n);
    let sum = |key: &str| -> u64 {
        st[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["hosts"].as_u64().unwrap())
            .sum()
    };
    assert_eq!(sum("outcomes"), n);
    assert_eq!(sum("status_classes"), n);
    assert_eq!(sum("sizes"), n);
    for a in st["ai_crawlers"].as_array().unwrap() {
        let total: u64 = ["blocked", "partly", "open", "unknown"]
            .iter()
            .map(|k| a[k].as_u64().unwrap())
            .sum();
        assert_eq!(total, n, "{a}");
        // The same count from the rows.
        let token = a["crawler"].as_str().unwrap();
        let blocked = hosts
            .iter()
            .filter(|h| h["ai_crawlers"][token] == "blocked")
            .count() as u64;
        assert_eq!(a["blocked"].as_u64().unwrap(), blocked, "{token}");
    }
    // Diagnostics by hosts, counted again from the rows.
    for d in st["diagnostics"].as_array().unwrap() {
        let name = d["name"].as_str().unwrap();
        let with = hosts
            .iter()
            .filter(|h| {
                h["diagnostics"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|x| x["name"] == name)
            })
            .count() as u64;
        assert_eq!(d["hosts"].as_u64().unwrap(), with, "{name}");
    }
    let star = st["user_agents"]["top"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["token"] == "*")
        .expect("the * group is among the most named");
    let with_star = hosts
        .iter()
        .filter(|h| {
            h["user_agents"]
                .as_array()
                .unwrap()
                .iter()
                .any(|t| t == "*")
        })
        .count() as u64;
    assert_eq!(star["hosts"].as_u64().unwrap(), with_star);
    let page = std::fs::read_to_string(out.join("statistics.html")).unwrap();
    assert!(page.contains("<svg class=\"chart\""));
    assert!(page.contains("Known AI crawlers"));
}

/// `n` hosts `host-0000.example.txt`…: every fifth blocks everything, every seventh has an
/// error (a rule before any group), the rest are clean.
fn many_hosts(dir: &Path, n: usize) {
    std::fs::create_dir_all(dir).unwrap();
    for i in 0..n {
        let body = if i % 5 == 0 {
            "User-agent: *\nDisallow: /\n".to_string()
        } else if i % 7 == 0 {
            "Disallow: /x\nUser-agent: *\nAllow: /\n".to_string()
        } else {
            format!("User-agent: *\nDisallow: /private-{i}/\n")
        };
        std::fs::write(dir.join(format!("host-{i:04}.example.txt")), body).unwrap();
    }
}

#[test]
fn the_index_is_paged_problems_first_and_its_data_covers_every_host() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    let n = 2 * report::sink::PAGE_ROWS + 17;
    many_hosts(&input, n);
    let out = tmp.path().join("site");
    report::run(&Config::new(&input, &out, NOW), &NoProgress).unwrap();
    let pages: Vec<String> = std::iter::once(out.join("index.html"))
        .chain((2..=3).map(|k| out.join(format!("index/{k}.html"))))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    assert!(!out.join("index/4.html").exists());
    // Every host once, in problem order: blocked hosts, then hosts with errors, then the rest.
    let mut listed = Vec::new();
    for page in &pages {
        for part in page.split("<th scope=\"row\">").skip(1) {
            if let Some(name) = part.split('<').nth(1).and_then(|a| a.split('>').nth(1)) {
                if name.starts_with("host-") {
                    listed.push(name.to_string());
                }
            }
        }
    }
    assert_eq!(listed.len(), n);
    let mut sorted = listed.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), n, "no host twice");
    let rank = |name: &str| {
        let i: usize = name[5..9].parse().unwrap();
        if i % 5 == 0 {
            0
        } else if i % 7 == 0 {
            1
        } else {
            2
        }
    };
    assert!(
        listed.windows(2).all(|w| rank(&w[0]) <= rank(&w[1])),
        "problems first"
    );
    assert!(pages[1].contains("Hosts 251 to 500 of 517"));
    assert!(pages[2].contains("href=\"../index.html\""));
    // The data file names every host, in host order.
    let data = std::fs::read_to_string(out.join("assets/hosts-0.js")).unwrap();
    let body = data
        .strip_prefix("robotsExplorerHosts.push(JSON.parse(")
        .and_then(|d| d.trim_end().strip_suffix("));"))
        .unwrap();
    // A JSON string literal holding the JSON text.
    let text: String = serde_json::from_str(body).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let names: Vec<&str> = v["host"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap())
        .collect();
    assert_eq!(names.len(), n);
    assert!(names.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(v["rank"].as_str().unwrap().len(), n);
    assert_eq!(
        v["numbers"].as_array().unwrap().len(),
        9 * n,
        "bytes, six counts and two URL counts per host"
    );
}

#[test]
fn pages_problems_and_none_leave_out_host_pages_but_not_hosts() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    many_hosts(&input, 40);
    for (pages, with_page) in [(Pages::Problems, 8 + 4), (Pages::None, 0)] {
        let out = tmp.path().join(format!("site-{pages:?}"));
        let mut config = Config::new(&input, &out, NOW);
        config.pages = pages;
        report::run(&config, &NoProgress).unwrap();
        let hosts = jsonl(&out);
        assert_eq!(hosts.len(), 40);
        let paged: Vec<&serde_json::Value> =
            hosts.iter().filter(|h| !h["page"].is_null()).collect();
        // Blocked (i % 5 == 0: 8 hosts) and erroneous (i % 7 == 0 but not % 5: 7, 14, 21, 28).
        assert_eq!(paged.len(), with_page, "{pages:?}");
        let files = std::fs::read_dir(out.join("hosts")).unwrap().count();
        assert_eq!(files, with_page);
        for h in &paged {
            assert!(out.join(h["page"].as_str().unwrap()).is_file());
        }
        let index = std::fs::read_to_string(out.join("index.html")).unwrap();
        for h in hosts.iter().filter(|h| h["page"].is_null()) {
            let name = h["host"].as_str().unwrap();
            assert!(
                index.contains(&format!("<th scope=\"row\">{name}")),
                "{name}"
            );
            assert!(!index.contains(&format!("hosts/{name}.html")), "{name}");
        }
    }
}

#[test]
fn sarif_stays_within_githubs_limits_errors_first() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir_all(&input).unwrap();
    // 30 hosts with one error, 1,000 warnings (page directives) and 1,000 infos (duplicate
    // rules) each.
    let mut body = String::from("Disallow: /before-any-group\nUser-agent: *\n");
    for _ in 0..1_000 {
        body.push_str("Disallow: /same\nNoindex: /page\n");
    }
    for i in 0..30 {
        std::fs::write(input.join(format!("h{i:02}.example.txt")), &body).unwrap();
    }
    let out = tmp.path().join("site");
    report::run(&Config::new(&input, &out, NOW), &NoProgress).unwrap();
    let log = json(&out, "results.sarif");
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), report::sink::SARIF_MAX_RESULTS);
    let levels: Vec<&str> = results
        .iter()
        .map(|r| r["level"].as_str().unwrap())
        .collect();
    let order = |l: &str| ["error", "warning"].iter().position(|x| *x == l);
    assert!(levels.iter().all(|l| order(l).is_some()), "infos stay out");
    assert!(levels.windows(2).all(|w| order(w[0]) <= order(w[1])));
    assert_eq!(levels.iter().filter(|l| **l == "error").count(), 30);
    let notes = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
        .as_array()
        .unwrap();
    let noted = |level: &str, text: &str| {
        notes
            .iter()
            .any(|n| n["level"] == level && n["message"]["text"].as_str().unwrap().contains(text))
    };
    assert!(noted("warning", "not in this log"), "{notes:?}");
    assert!(
        noted("note", "29,970 diagnostics below warning left out"),
        "{notes:?}"
    );
    // Infos left out by design, and results capped, are no failure of the run.
    assert_eq!(
        log["runs"][0]["invocations"][0]["executionSuccessful"],
        true
    );
    let summary = json(&out, "summary.json");
    assert_eq!(summary["sarif"]["results"], report::sink::SARIF_MAX_RESULTS);
    assert_eq!(summary["sarif"]["below_min_severity"], 29_970);
    let all: usize = jsonl(&out)
        .iter()
        .map(|h| h["diagnostics"].as_array().unwrap().len())
        .sum();
    assert!(summary["sarif"]["omitted"].as_u64().unwrap() > 0);
    assert!(all > report::sink::SARIF_MAX_RESULTS);
    // Gzipped, the log is well within 10 MB.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, &std::fs::read(out.join("results.sarif")).unwrap()).unwrap();
    assert!(gz.finish().unwrap().len() < 10_000_000);
}

/// By default `hosts.jsonl` and `results.sarif` list errors and warnings, as `lint` does;
/// infos are counted all the same, and `--min-severity info` lists them too.
#[test]
fn hosts_jsonl_lists_the_minimum_severity_and_higher_and_counts_all() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |name: &str, min: Severity| {
        let out = tmp.path().join(name);
        let mut config = Config::new(fixtures(), &out, NOW);
        config.min_severity = min;
        report::run(&config, &NoProgress).unwrap();
        out
    };
    let default = run("default", Config::new(fixtures(), "x", NOW).min_severity);
    let every = run("every", Severity::Info);
    let errors = run("errors", Severity::Error);
    let (d, e, x) = (jsonl(&default), jsonl(&every), jsonl(&errors));
    assert_eq!(d.len(), e.len());
    let names = |h: &serde_json::Value, keep: &[&str]| -> Vec<String> {
        h["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| keep.contains(&x["severity"].as_str().unwrap()))
            .map(|x| format!("{}:{}", x["name"], x["line"]))
            .collect()
    };
    let mut infos_left_out = 0;
    for ((d, e), x) in d.iter().zip(&e).zip(&x) {
        assert_eq!(d["counts"], e["counts"], "{}", d["host"]);
        assert_eq!(x["counts"], e["counts"], "{}", d["host"]);
        let all = ["error", "warning", "info"];
        assert_eq!(
            names(d, &all),
            names(e, &["error", "warning"]),
            "{}",
            d["host"]
        );
        assert_eq!(names(x, &all), names(e, &["error"]), "{}", d["host"]);
        infos_left_out += names(e, &["info"]).len();
    }
    assert!(
        infos_left_out > 10,
        "the fixtures have infos: {infos_left_out}"
    );
    let summary = json(&default, "summary.json");
    assert_eq!(summary["min_severity"], "warning");
    assert!(summary["totals"]["info"].as_u64().unwrap() > 0);
    // Infos of the reading: counted, not in the log.
    assert_eq!(
        summary["sarif"]["below_min_severity"],
        summary["totals"]["info"]
    );
    let every_summary = json(&every, "summary.json");
    assert_eq!(every_summary["min_severity"], "info");
    assert_eq!(every_summary["sarif"]["below_min_severity"], 0);
    let log = json(&every, "results.sarif");
    let levels: Vec<&str> = log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["level"].as_str().unwrap())
        .collect();
    assert!(
        levels.contains(&"note"),
        "infos are SARIF notes with --min-severity info"
    );
    // The index says what the data files list.
    let index = |dir: &Path| std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(index(&default).contains("one by one, errors and warnings (of both readings)"));
    assert!(index(&every).contains("one by one, every diagnostic (of both readings)"));
    assert!(index(&errors).contains("SARIF 2.1.0 for code scanning: errors"));
    // The host pages show every diagnostic either way.
    assert_eq!(
        std::fs::read_to_string(default.join("hosts/group-trap.example.html")).unwrap(),
        std::fs::read_to_string(every.join("hosts/group-trap.example.html")).unwrap()
    );
}

#[test]
fn url_lists_are_decided_per_host_and_listed_in_urls_csv() {
    let tmp = tempfile::tempdir().unwrap();
    let list = "# from a sitemap\nhttps://shop.example/\nhttps://SHOP.example/cart/checkout?x=1\n\
                https://shop.example/search?q=shoes\nhttps://outage.example/anything\n\
                https://nowhere.example/x\nnot a url\n";
    let out = tmp.path().join("site");
    let mut config = Config::new(fixtures(), &out, NOW);
    config.url_list = Some(std::sync::Arc::new(report::urls::UrlList::parse(
        list.as_bytes(),
    )));
    let s = report::run(&config, &NoProgress).unwrap();
    let u = s.urls.unwrap();
    assert_eq!((u.given, u.unassigned, u.invalid), (4, 1, 1));
    let hosts = jsonl(&out);
    let shop = hosts.iter().find(|h| h["host"] == "shop.example").unwrap();
    let shop_urls = shop["urls"].as_array().unwrap();
    assert_eq!(shop_urls.len(), 3);
    // The verdicts are the engine's own decisions for the file (the fetch was successful).
    assert_eq!(shop["outcome"], "successful");
    let robots = robots_explorer::RobotsTxt::parse(
        &std::fs::read(fixtures().join("shop.example.txt")).unwrap(),
    );
    let crawlers = json(&out, "summary.json")["crawlers"].clone();
    for v in shop_urls {
        for (i, c) in crawlers.as_array().unwrap().iter().enumerate() {
            let c = c.as_str().unwrap();
            let known = robots_explorer::crawlers::find(c).unwrap();
            let tokens = known.tokens();
            let d = robots
                .policy(robots_explorer::Reading::Google)
                .decide_target_as(&known.profile(&tokens), v["target"].as_str().unwrap());
            assert_eq!(v["allowed"][i], d.allowed, "{c} {}", v["url"]);
            assert_eq!(
                v["lines"][i].as_u64(),
                d.rule.as_ref().map(|r| r.line as u64),
                "{c} {}",
                v["url"]
            );
        }
    }
    // An unreachable host: every URL disallowed by the outcome, no line.
    let outage = hosts
        .iter()
        .find(|h| h["host"] == "outage.example")
        .unwrap();
    assert!(
        outage["urls"][0]["allowed"]
            .as_array()
            .unwrap()
            .iter()
            .all(|a| a == false)
    );
    let csv = std::fs::read_to_string(out.join("urls.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "url,host,crawler,verdict,line,target");
    // One row per URL and crawler, then the URLs not decided.
    assert_eq!(lines.len(), 1 + 4 * crawlers.as_array().unwrap().len() + 2);
    assert!(csv.contains("https://nowhere.example/x,nowhere.example,,host not in the report,,/x"));
    assert!(csv.contains("not a url,,,not an absolute http or https URL with a host,,"));
    let page = std::fs::read_to_string(out.join("hosts/shop.example.html")).unwrap();
    assert!(page.contains("id=\"urls\""));
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(index.contains("URLs blocked"));
}

/// A list with URLs of several hosts (one with a port, one of another scheme than its host's,
/// one in another case, one repeated), hosts not in the report, lines that are no URL or not
/// UTF-8, a byte order mark and CR and CRLF line ends: `urls.csv`, the URLs of each host in
/// `hosts.jsonl` and the counts are exactly those recorded in `tests/data/url-list` (written
/// when each URL was still held as strings of its own).
#[test]
fn url_list_outputs_stay_as_recorded() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/url-list");
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    let mut config = Config::new(fixtures(), &out, NOW);
    let list = report::urls::UrlList::read(&data.join("list.txt")).unwrap();
    config.url_list = Some(std::sync::Arc::new(list));
    let s = report::run(&config, &NoProgress).unwrap();
    let u = s.urls.unwrap();
    assert_eq!((u.given, u.blocked, u.unassigned, u.invalid), (11, 8, 6, 5));
    assert_eq!(
        std::fs::read_to_string(out.join("urls.csv")).unwrap(),
        std::fs::read_to_string(data.join("urls.csv")).unwrap()
    );
    let recorded: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(data.join("host-urls.json")).unwrap())
            .unwrap();
    let mut seen = 0;
    for h in jsonl(&out) {
        let host = h["host"].as_str().unwrap();
        match recorded.get(host) {
            Some(urls) => {
                assert_eq!(&h["urls"], urls, "{host}");
                seen += 1;
            }
            None => assert!(h.get("urls").is_none(), "{host}"),
        }
    }
    assert_eq!(seen, recorded.len());
    // The summary counts the same.
    let summary = json(&out, "summary.json");
    assert_eq!(
        summary["urls"],
        serde_json::json!({"given": 11, "blocked": 8, "unassigned": 6, "invalid": 5})
    );
}
