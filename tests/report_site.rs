//! The `report` command end to end: the demo fixtures, escaping, safe names, determinism,
//! bad input, exit statuses.

mod tools;

use robots_explorer::report::{self, Config, NoProgress};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use time::macros::datetime;

const NOW: time::OffsetDateTime = datetime!(2026-10-21 09:00 UTC);

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/hosts")
}

/// Every file below `dir`, relative path → bytes.
fn read_tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for e in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let e = e.unwrap();
        if e.file_type().is_file() {
            let rel = e
                .path()
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            out.insert(rel, std::fs::read(e.path()).unwrap());
        }
    }
    out
}

fn run(input: &Path, out: &Path) -> report::RunSummary {
    report::run(&Config::new(input, out, NOW), &NoProgress).expect("the run succeeds")
}

/// A walk that reads every `.txt` file (and sidecar) whatever its name: the tests of odd host
/// names use names that the default rule would not read as robots.txt files.
fn any_name() -> robots_explorer::select::WalkFilter {
    robots_explorer::select::WalkFilter::new(&["*.txt".into()], &[]).unwrap()
}

/// [`run`] with [`any_name`].
fn run_any_name(input: &Path, out: &Path) -> report::RunSummary {
    let mut c = Config::new(input, out, NOW);
    c.filter = any_name();
    report::run(&c, &NoProgress).expect("the run succeeds")
}

/// `summary.json`, with the hosts of `hosts.jsonl` (one object per line) as its `hosts`.
fn summary(out: &Path) -> serde_json::Value {
    let mut s: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(s["files"]["hosts_jsonl"], "hosts.jsonl");
    let hosts: Vec<serde_json::Value> = std::fs::read_to_string(out.join("hosts.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line of hosts.jsonl is a JSON object"))
        .collect();
    assert_eq!(s["totals"]["hosts"], hosts.len());
    s["hosts"] = serde_json::Value::Array(hosts);
    s
}

fn host<'a>(s: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    s["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["host"] == name)
        .unwrap_or_else(|| panic!("host {name} in summary.json"))
}

#[test]
fn demo_fixtures_give_a_page_per_host_and_the_documented_outcomes() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    let s = run(&fixtures(), &out);
    assert_eq!(s.totals.hosts, 19);
    let json = summary(&out);
    assert_eq!(json["schema"], "robots-explorer/report-summary/3");
    assert_eq!(json["generated_at"], "2026-10-21T09:00:00Z");
    for h in json["hosts"].as_array().unwrap() {
        let page = out.join(h["page"].as_str().unwrap());
        assert!(page.is_file(), "{page:?}");
    }
    assert!(out.join("index.html").is_file());
    assert!(out.join("diagnostics/index.html").is_file());
    assert!(out.join("assets/site.css").is_file());

    let expect = |name: &str, outcome: &str, rfc: &str, google: &str| {
        let h = host(&json, name);
        assert_eq!(h["outcome"], outcome, "{name}");
        assert_eq!(h["effect_rfc"], rfc, "{name}");
        assert_eq!(h["effect_google"], google, "{name}");
    };
    expect("shop.example", "successful", "follow-file", "follow-file");
    expect("not-found.example", "unavailable", "allow-all", "allow-all");
    expect(
        "rate-limited.example",
        "unavailable",
        "allow-all",
        "disallow-all",
    );
    expect(
        "outage.example",
        "unreachable",
        "disallow-all",
        "disallow-all",
    );
    expect(
        "timeout.example",
        "unreachable",
        "disallow-all",
        "disallow-all",
    );
    expect(
        "stale-cache.example",
        "unreachable",
        "follow-cached-copy",
        "disallow-all",
    );
    expect(
        "loop.example",
        "too-many-redirects",
        "allow-all",
        "allow-all",
    );
    expect("moved.example", "successful", "follow-file", "follow-file");

    // Cache ages at --now.
    assert_eq!(
        host(&json, "stale-cache.example")["cache_age_seconds"],
        25 * 3600
    );
    assert_eq!(host(&json, "shop.example")["cache_age_seconds"], 25 * 3600);
    assert!(host(&json, "outage.example")["cache_age_seconds"].is_null());

    // The outage blocks everything; the 404 blocks nothing.
    assert_eq!(host(&json, "outage.example")["blocks_everything"], true);
    assert_eq!(host(&json, "not-found.example")["blocks_everything"], false);
    // The group-continuation trap: `*` and badbot share one group with `Disallow: /`.
    assert_eq!(host(&json, "group-trap.example")["blocks_everything"], true);

    // The shop: allow overrides disallow for admin-ajax.php, decided by line 14.
    let shop = host(&json, "shop.example");
    let paths: Vec<&str> = shop["paths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    let j = paths
        .iter()
        .position(|p| *p == "/wp-admin/admin-ajax.php")
        .expect("derived path");
    let (verdicts, lines) = tools::decisions(shop, "Googlebot");
    assert_eq!(verdicts[j], true);
    assert_eq!(lines[j], 14);
    assert!(paths.contains(&"/x.pdf"), "{paths:?}");

    // Pages state the facts.
    let page =
        |name: &str| std::fs::read_to_string(out.join(format!("hosts/{name}.html"))).unwrap();
    let moved = page("moved.example");
    assert!(moved.contains("https://rules.moved-cdn.example/robots.txt"));
    // The scope is said once: the file came from elsewhere, its rules bind the first authority.
    assert!(
        moved.contains("but its rules apply to https://moved.example, the authority first asked")
    );
    assert!(!moved.contains("The rules bind <code>"));
    let lp = page("loop.example");
    assert_eq!(lp.matches("(visited before: a loop)").count(), 5);
    assert!(lp.contains("(beyond the five hops crawlers should follow)"));
    let stale = page("stale-cache.example");
    assert!(stale.contains("it is 25 hours old"));
    assert!(stale.contains("allows it only because the file is unreachable"));
    let huge = page("huge.example");
    assert_eq!(huge.matches("<details class=\"rt-ignored\">").count(), 1);
    assert!(huge.contains("cut by the parsing limit"));
    let bom = page("bom.example");
    assert!(bom.contains("id=\"Lbom\""));
    let mixed = page("mixed-eol.example");
    assert!(mixed.contains("rt-eol-crlf") && mixed.contains("rt-eol-cr\""));
    let typos = page("typos.example");
    assert!(typos.contains("RFC 9309: unknown field"));
    assert!(typos.contains("Lines read differently"));
    // Diagnostics reach the row, the listing and the diagnostic's page.
    let trap = host(&json, "group-trap.example");
    let gc = trap["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "group-continues-blocks-everything")
        .expect("group-continues-blocks-everything on the trap");
    assert_eq!(gc["line"], 4);
    assert!(
        page("group-trap.example").contains(
            "href=\"../diagnostics/group-continues-blocks-everything.html\">group-continues-blocks-everything</a>"
        )
    );
    let diag =
        std::fs::read_to_string(out.join("diagnostics/group-continues-blocks-everything.html"))
            .unwrap();
    assert!(diag.contains("<a href=\"../hosts/group-trap.example.html#L4\">line 4</a>"));
    for e in robots_explorer::analysis::catalogue() {
        assert!(
            out.join(format!("diagnostics/{}.html", e.name)).is_file(),
            "{}",
            e.name
        );
    }
    let csv = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert_eq!(csv.lines().count(), 20);
    assert!(csv.lines().next().unwrap().contains("root:GPTBot"));
    let sarif: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("results.sarif")).unwrap()).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    sarif_is_valid_and_consistent(&sarif, &json);
}

/// `results.sarif` validates against the vendored SARIF 2.1.0 schema; every result names a
/// rule by id and index, and its reference (said once on the rule) and line agree with the
/// host's diagnostic in `summary.json`.
fn sarif_is_valid_and_consistent(log: &serde_json::Value, json: &serde_json::Value) {
    tools::assert_valid_sarif(&tools::sarif_validator(), log);
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let results = run["results"].as_array().unwrap();
    assert!(!results.is_empty());
    for r in results {
        let rule = &rules[r["ruleIndex"].as_u64().unwrap() as usize];
        assert_eq!(rule["id"], r["ruleId"]);
        let region = &r["locations"][0]["physicalLocation"]["region"];
        let line = region["startLine"].as_u64().unwrap();
        // endLine is left out exactly when it equals startLine.
        assert_ne!(region["endLine"].as_u64(), Some(line));
        let reference = r["properties"]["reference"]
            .as_str()
            .or(rule["properties"]["reference"].as_str());
        let h = host(json, r["properties"]["host"].as_str().unwrap());
        assert!(
            h["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .any(|d| d["name"] == r["ruleId"]
                    && d["line"].as_u64() == Some(line)
                    && d["message"] == r["message"]["text"]
                    && d["reference"]
                        .as_str()
                        .or(rule["properties"]["reference"].as_str())
                        .filter(|s| !s.is_empty())
                        == reference),
            "{r}"
        );
    }
}

/// Tags and attributes the report writes itself. Anything else in a page came from input.
const TAGS: &[&str] = &[
    "!doctype", "html", "head", "meta", "title", "link", "body", "a", "header", "div", "nav", "ul",
    "ol", "li", "main", "section", "h1", "h2", "h3", "h4", "p", "table", "caption", "thead",
    "tbody", "tfoot", "tr", "th", "td", "span", "code", "pre", "details", "summary", "strong",
    "em", "br", "label", "input", "select", "option", "script", "footer", "figure", "svg", "rect",
    "text", "i", "noscript", "form", "textarea", "button", "b", "var",
];
const ATTRS: &[&str] = &[
    "lang",
    "charset",
    "name",
    "content",
    "rel",
    "href",
    "class",
    "id",
    "scope",
    "colspan",
    "title",
    "hidden",
    "type",
    "placeholder",
    "src",
    "aria-labelledby",
    "aria-label",
    "aria-live",
    "data-outcome",
    "data-errors",
    "data-blocks",
    "data-type",
    "data-sort",
    "data-reading",
    "data-files",
    "data-root",
    "data-key",
    "data-ranks",
    "value",
    "aria-current",
    "role",
    "viewbox",
    "preserveaspectratio",
    "x",
    "y",
    "width",
    "height",
    "text-anchor",
    "data-tester",
    "data-file",
    "data-listing",
    "data-playground",
    "data-total",
    "data-lines",
    "data-eol",
    "data-last-eol",
    "data-bom",
    "data-size",
    "data-runs",
    "data-edit",
    "style",
    "for",
    "selected",
    "size",
    "spellcheck",
    "rows",
    "cols",
    "download",
    "start",
    "data-start-reading",
    "data-urls",
    "data-note",
];

/// Scans `html` and returns every problem: unknown tags or attributes, event handlers,
/// `javascript:` links, scripts other than the report's own.
fn markup_problems(html: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let mut i = 0;
    while let Some(off) = html[i..].find('<') {
        let start = i + off;
        let end = match html[start..].find('>') {
            Some(e) => start + e,
            None => {
                problems.push(format!("unclosed tag at {start}"));
                break;
            }
        };
        let tag = &html[start + 1..end];
        i = end + 1;
        let closing = tag.starts_with('/');
        let tag = tag.trim_start_matches('/');
        let name_len = tag.find(|c: char| c.is_whitespace()).unwrap_or(tag.len());
        let name = tag[..name_len].to_ascii_lowercase();
        if !TAGS.contains(&name.as_str()) {
            problems.push(format!("tag <{name}> near {start}"));
            continue;
        }
        if name == "!doctype" || closing {
            continue;
        }
        // Attributes: name="value" pairs (values never hold `"` unescaped).
        let mut rest = &tag[name_len..];
        loop {
            rest = rest.trim_start();
            if rest.is_empty() {
                break;
            }
            let n = rest
                .find(|c: char| c == '=' || c.is_whitespace())
                .unwrap_or(rest.len());
            let attr = rest[..n].to_ascii_lowercase();
            if !ATTRS.contains(&attr.as_str()) {
                problems.push(format!("attribute {attr} in <{name}> near {start}"));
            }
            rest = &rest[n..];
            if let Some(r) = rest.strip_prefix("=\"") {
                let close = r.find('"').unwrap_or(r.len());
                let value = &r[..close];
                if (attr == "href" || attr == "src")
                    && value.trim().to_ascii_lowercase().starts_with("javascript:")
                {
                    problems.push(format!("{attr}={value} near {start}"));
                }
                if name == "script"
                    && attr == "src"
                    && !value.ends_with("assets/report.js")
                    && !value.ends_with("assets/tester.js")
                {
                    problems.push(format!("script {value}"));
                }
                rest = &r[(close + 1).min(r.len())..];
            } else if let Some(r) = rest.strip_prefix('=') {
                // Unquoted values are the tool's own tokens (ids, classes, `#L7`): letters,
                // digits and `#-_./` only; anything else could come from the input.
                let n = r.find(|c: char| c.is_whitespace()).unwrap_or(r.len());
                let value = &r[..n];
                if value.is_empty()
                    || !value
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "#-_./".contains(c))
                {
                    problems.push(format!("unquoted attribute {attr}={value} near {start}"));
                    break;
                }
                rest = &r[n..];
            }
        }
        if name == "script" && !tag.contains("src=") {
            // The one inline script is the tester's data block: the file's bytes in base64.
            let body = html[end + 1..].split("</script>").next().unwrap_or("");
            let data_block = tag.contains("type=\"application/octet-stream\"")
                && body
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(&b));
            if !data_block {
                problems.push(format!("inline script near {start}"));
            }
        }
    }
    problems
}

#[test]
fn nothing_from_input_becomes_markup() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    let evil_name = "\"><script>alert(1)<img src=x onerror=alert(2)>.txt";
    std::fs::write(
        input.join(evil_name),
        "User-agent: <script>alert(\"ua\")</script>\n\
         Disallow: /\"><img src=x onerror=alert('p')>\n\
         Allow: /a'b\"c<d>&e\n\
         # <iframe src=\"javascript:alert(1)\"></iframe> & </table>\n\
         <b onmouseover=alert(3)>text line</b>\n\
         Sitemap: javascript:alert(1)\n\
         Crawl-delay: \u{0}\u{7}\u{85}\u{202E}x\n",
    )
    .unwrap();
    std::fs::write(
        input.join("side.example.txt"),
        "User-agent: *\nDisallow: /x\n",
    )
    .unwrap();
    std::fs::write(
        input.join("side.example.yaml"),
        "url: \"https://side.example/robots.txt?<script>alert(1)</script>\"\n\
         status: 200\n\
         fetched_at: \"<b>not a time</b>\"\n\
         content_type: 'text/html\"><script>alert(4)</script>'\n\
         redirects:\n  - status: 301\n    location: \"javascript:alert(5)//<svg onload=alert(6)>\"\n\
         error: \"\"\n\
         \"<i onclick=x>\": 1\n",
    )
    .unwrap();
    std::fs::write(input.join("broken.yaml"), "status: [<script>\n").unwrap();
    let out = tmp.path().join("site");
    let mut config = Config::new(&input, &out, NOW);
    config.filter = any_name();
    config.urls = vec!["/<script>alert(7)</script>".into(), "/\"quoted'".into()];
    config.agents = vec!["<b>bot</b>".into(), "Googlebot".into()];
    report::run(&config, &NoProgress).unwrap();

    let files = read_tree(&out);
    let mut pages = 0;
    for (rel, bytes) in &files {
        if !rel.ends_with(".html") {
            continue;
        }
        pages += 1;
        let html = String::from_utf8(bytes.clone()).unwrap();
        let problems = markup_problems(&html);
        assert!(problems.is_empty(), "{rel}: {problems:?}");
        for forbidden in ['\u{0}', '\u{7}', '\u{85}'] {
            assert!(!html.contains(forbidden), "{rel} holds {forbidden:?}");
        }
    }
    assert!(pages >= 5, "{pages} pages");
    // The content is there, escaped.
    let index = String::from_utf8(files["index.html"].clone()).unwrap();
    assert!(index.contains("&quot;&gt;&lt;script&gt;alert(1)&lt;img src=x onerror=alert(2)&gt;"));
    let evil_page = files
        .iter()
        .find(|(k, v)| {
            k.starts_with("hosts/")
                && String::from_utf8_lossy(v).contains("onerror=alert(&#39;p&#39;)")
        })
        .map(|(k, _)| k.clone())
        .expect("the evil host's page");
    assert!(
        evil_page.starts_with("hosts/script-alert-1-img-src-x-onerror-alert-2-"),
        "{evil_page}"
    );
    let side = String::from_utf8(files["hosts/side.example.html"].clone()).unwrap();
    assert!(side.contains("text/html&quot;&gt;&lt;script&gt;alert(4)&lt;/script&gt;"));
    assert!(
        side.contains("&lt;i onclick=x&gt;"),
        "unknown sidecar field listed, escaped"
    );
    let json = summary(&out);
    assert!(host(&json, "broken")["sidecar_error"].is_string());
}

#[test]
fn page_names_are_safe_and_unique() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    for d in ["a", "b", "c/CON", "d"] {
        std::fs::create_dir_all(input.join(d)).unwrap();
    }
    std::fs::write(input.join("a/Shop.example.txt"), "User-agent: *\n").unwrap();
    std::fs::write(input.join("b/shop.example.txt"), "User-agent: *\n").unwrap();
    std::fs::write(input.join("shop.EXAMPLE.txt"), "User-agent: *\n").unwrap();
    std::fs::write(input.join("c/CON/robots.txt"), "User-agent: *\n").unwrap();
    std::fs::write(input.join("d/%2e%2e.txt"), "User-agent: *\n").unwrap();
    std::fs::write(
        input.join("d/traversal.yaml"),
        "url: \"https://..%2F..%2Fetc/robots.txt\"\nstatus: 404\n",
    )
    .unwrap();
    std::fs::write(
        input.join("d/slash.yaml"),
        "url: \"https://a.example/../../x/robots.txt\"\nstatus: 404\n",
    )
    .unwrap();
    let out = tmp.path().join("site");
    run_any_name(&input, &out);
    // Nothing was written outside the output folder.
    let mut beside: Vec<String> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    beside.sort();
    assert_eq!(beside, vec!["in", "site"]);
    let json = summary(&out);
    let pages: Vec<String> = json["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["page"].as_str().unwrap().to_string())
        .collect();
    // Three spellings of shop.example are one host (the others are skipped as duplicates).
    assert_eq!(pages.len(), 5);
    assert_eq!(
        pages
            .iter()
            .filter(|p| p.starts_with("hosts/shop.example"))
            .count(),
        1
    );
    let mut lower = std::collections::BTreeSet::new();
    for p in &pages {
        let stem = p
            .strip_prefix("hosts/")
            .and_then(|s| s.strip_suffix(".html"))
            .unwrap();
        assert!(
            stem.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "-._".contains(c)),
            "{p}"
        );
        assert!(!stem.starts_with('.') && !stem.contains(".."), "{p}");
        assert!(lower.insert(stem.to_ascii_lowercase()), "clash: {p}");
        assert!(out.join(p).is_file());
    }
    let con = pages.iter().find(|p| p.starts_with("hosts/con")).unwrap();
    assert_ne!(con, "hosts/con.html", "reserved device name");
}

#[test]
fn the_same_input_and_time_give_identical_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let b = tmp.path().join("b");
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let four = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    one.install(|| run(&fixtures(), &a));
    four.install(|| run(&fixtures(), &b));
    let (ta, tb) = (read_tree(&a), read_tree(&b));
    assert_eq!(ta.keys().collect::<Vec<_>>(), tb.keys().collect::<Vec<_>>());
    for (k, v) in &ta {
        assert!(v == &tb[k], "{k} differs");
    }
    // A different time changes the cache ages, and only the pages that show times.
    let c = tmp.path().join("c");
    report::run(
        &Config::new(fixtures(), &c, datetime!(2026-10-20 09:00 UTC)),
        &NoProgress,
    )
    .unwrap();
    let json = summary(&c);
    assert_eq!(host(&json, "shop.example")["cache_age_seconds"], 3600);
}

#[test]
fn bad_files_are_rows_not_failures() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    let mut binary = Vec::new();
    for i in 0..4096u32 {
        binary.push((i.wrapping_mul(2_654_435_761) >> 13) as u8);
    }
    std::fs::write(input.join("binary.example.txt"), &binary).unwrap();
    std::fs::write(input.join("empty.example.txt"), b"").unwrap();
    // Larger than the part that is read (16 MiB).
    let mut huge = b"User-agent: *\n".to_vec();
    while huge.len() < 17 * 1024 * 1024 {
        huge.extend_from_slice(b"Disallow: /some/long/path/that/repeats/\n");
    }
    std::fs::write(input.join("huge.example.txt"), &huge).unwrap();
    std::fs::write(
        input.join("nul.example.txt"),
        b"User-agent: *\0\nDisallow: /\0x\n",
    )
    .unwrap();
    std::fs::write(input.join("badside.example.yaml"), "- not\n- a mapping\n").unwrap();
    let out = tmp.path().join("site");
    let s = run(&input, &out);
    assert_eq!(s.totals.hosts, 5);
    let json = summary(&out);
    assert_eq!(host(&json, "huge.example")["bytes"], huge.len());
    assert_eq!(host(&json, "empty.example")["lines"], 0);
    assert!(host(&json, "badside.example")["sidecar_error"].is_string());
    let huge_page = std::fs::read_to_string(out.join("hosts/huge.example.html")).unwrap();
    assert!(huge_page.contains("only the first 16,777,216 bytes were read"));
    let empty_page = std::fs::read_to_string(out.join("hosts/empty.example.html")).unwrap();
    assert!(empty_page.contains("The file is empty (0 bytes)."));
}

#[test]
fn utf16_files_say_how_each_reading_reads_them() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    let text = "User-agent: *\nDisallow: /private\n";
    let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
    let mut bom_le = vec![0xFF, 0xFE];
    bom_le.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    std::fs::write(input.join("bare.example.txt"), &be).unwrap();
    std::fs::write(input.join("marked.example.txt"), &bom_le).unwrap();
    let out = tmp.path().join("site");
    run(&input, &out);
    let page =
        |name: &str| std::fs::read_to_string(out.join(format!("hosts/{name}.html"))).unwrap();
    // Without a byte order mark the bytes are valid UTF-8, but not text either reading finds
    // records in; Google cuts each line at its first NUL.
    let bare = page("bare.example");
    assert!(bare.contains("UTF-16 without a byte order mark, read as its raw bytes"));
    assert!(bare.contains("Google cuts a line at a NUL byte"));
    assert!(!bare.contains("comes before any user-agent line"));
    // With one, the RFC 9309 reading reads the transcoded text and Google's finds nothing.
    let marked = page("marked.example");
    assert!(marked.contains("UTF-16 LE (transcoded)"));
    assert!(marked.contains("yes, UTF-16&#39;s 2 bytes"));
    assert!(
        marked.contains(
            "parser reads the raw bytes of a UTF-16 file, where a NUL byte ends every line"
        )
    );
    assert!(!marked.contains("comes before any user-agent line"));
}

#[test]
fn an_unreadable_file_is_a_row_with_its_error() {
    // Processing a host whose file vanished after discovery (what any read error looks like).
    let tmp = tempfile::tempdir().unwrap();
    let input = robots_explorer::report::discover::HostInput {
        host: "gone.example".into(),
        file: Some(tmp.path().join("gone.example.txt")),
        file_rel: Some("gone.example.txt".into()),
        file_uri_if_other: None,
        sidecar_path: None,
        sidecar_rel: None,
        sidecar_uri_if_other: None,
        sidecar: None,
        page_stem_if_other: None,
        captures: None,
    };
    let ctx = robots_explorer::report::host::Context {
        agents: vec![robots_explorer::report::host::Agent::from_token(
            "Googlebot",
        )],
        urls: vec![],
        reading: robots_explorer::Reading::Google,
        now: NOW,
        guide: None,
        pages: robots_explorer::report::Pages::All,
        url_list: None,
        scripts: true,
        min_severity: robots_explorer::analysis::Severity::Warning,
    };
    let p = robots_explorer::report::host::process(&input, &ctx);
    assert!(
        p.row
            .read_error
            .as_deref()
            .unwrap()
            .contains("No such file")
    );
    assert!(p.page.contains("Read error"));
}

#[test]
fn the_output_folder_is_replaced_whole_and_only_when_it_is_ours() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    run(&fixtures(), &out);
    // A page the earlier run wrote and the next one does not is removed with the old site.
    let manifest = std::fs::read_to_string(out.join(report::MARKER)).unwrap();
    assert!(
        manifest
            .lines()
            .any(|l| l == "file hosts/shop.example.html")
    );
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    std::fs::copy(
        fixtures().join("bom.example.txt"),
        input.join("bom.example.txt"),
    )
    .unwrap();
    run(&input, &out);
    assert!(
        !out.join("hosts/shop.example.html").exists(),
        "the old site is replaced, not merged"
    );
    assert!(out.join("hosts/bom.example.html").is_file());
    // A folder that holds other things is not replaced.
    let other = tmp.path().join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("precious.txt"), "keep").unwrap();
    let err = report::run(&Config::new(fixtures(), &other, NOW), &NoProgress).unwrap_err();
    assert!(matches!(err, report::ReportError::Output(_)), "{err}");
    assert!(other.join("precious.txt").is_file());
    // No temporary folder is left behind.
    let names: Vec<String> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names.iter().all(|n| !n.starts_with(".robots-explorer")),
        "{names:?}"
    );
}

#[test]
fn exit_statuses() {
    let bin = env!("CARGO_BIN_EXE_robots-explorer");
    let tmp = tempfile::tempdir().unwrap();
    let status = |args: &[&str]| std::process::Command::new(bin).args(args).output().unwrap();
    let out = tmp.path().join("site");
    let o = status(&[
        "report",
        fixtures().to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--now",
        "2026-10-21T09:00:00Z",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let line = String::from_utf8(o.stdout).unwrap();
    assert!(line.starts_with("report: 19 hosts"), "{line}");
    assert_eq!(line.lines().count(), 1);
    let quiet = status(&[
        "report",
        fixtures().to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--now",
        "2026-10-21T09:00:00Z",
        "--quiet",
    ]);
    assert_eq!(quiet.status.code(), Some(0));
    assert!(quiet.stdout.is_empty() && quiet.stderr.is_empty());
    let missing = status(&[
        "report",
        "/nonexistent/input",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(missing.status.code(), Some(2));
    let bad_now = status(&["report", fixtures().to_str().unwrap(), "--now", "yesterday"]);
    assert_eq!(bad_now.status.code(), Some(2));
    let file_out = tmp.path().join("file");
    std::fs::write(&file_out, "x").unwrap();
    let o = status(&[
        "report",
        fixtures().to_str().unwrap(),
        "--out",
        file_out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
}

#[cfg(target_os = "linux")]
#[test]
fn stale_temporary_folders_of_ours_are_swept_and_nothing_else() {
    let tmp = tempfile::tempdir().unwrap();
    let parent = tmp.path();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let mut dead = std::process::Command::new("true").spawn().unwrap();
    let dead_pid = dead.id();
    dead.wait().unwrap();
    let mut live = std::process::Command::new("sleep")
        .arg("60")
        .spawn()
        .unwrap();
    let make = |name: &str, marker: Option<String>| {
        let d = parent.join(name);
        std::fs::create_dir_all(d.join("hosts")).unwrap();
        std::fs::write(d.join("hosts/a.html"), "x").unwrap();
        if let Some(m) = marker {
            std::fs::write(d.join(report::RUN_MARKER), m).unwrap();
        }
        d
    };
    let dead_run = make(
        ".robots-explorer-tmp-dead",
        Some(format!("pid {dead_pid}\nstarted {now}\n")),
    );
    let live_run = make(
        ".robots-explorer-tmp-live",
        Some(format!("pid {}\nstarted {now}\n", live.id())),
    );
    let old_run = make(
        ".robots-explorer-tmp-old",
        Some(format!("pid {}\nstarted {}\n", live.id(), now - 7200)),
    );
    let unmarked = make(".robots-explorer-tmp-unmarked", None);
    let not_ours = make(
        "robots-explorer-tmp-lookalike",
        Some(format!("pid {dead_pid}\nstarted 0\n")),
    );
    let old_site = make(".robots-explorer-old-x", None);
    std::fs::write(old_site.join(report::MARKER), "").unwrap();

    run(&fixtures(), &parent.join("site"));
    live.kill().unwrap();
    live.wait().unwrap();
    assert!(!dead_run.exists(), "its process is gone");
    assert!(!old_run.exists(), "older than the limit");
    assert!(!old_site.exists(), "an earlier site left aside");
    assert!(live_run.exists(), "a run in progress is left alone");
    assert!(unmarked.exists(), "no marker: not known to be ours");
    assert!(not_ours.exists(), "not our prefix");
    assert!(parent.join("site/index.html").is_file());
    assert!(!parent.join("site").join(report::RUN_MARKER).exists());
}

#[cfg(unix)]
#[test]
fn a_terminated_run_removes_its_temporary_folder() {
    let bin = env!("CARGO_BIN_EXE_robots-explorer");
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    let mut body = String::from("User-agent: *\n");
    for i in 0..3000 {
        body.push_str(&format!("Disallow: /p{i}/*.x$\nAllow: /p{i}/ok\n"));
    }
    for i in 0..400 {
        std::fs::write(input.join(format!("h{i}.example.txt")), &body).unwrap();
    }
    let out = tmp.path().join("site");
    let mut child = std::process::Command::new(bin)
        .args(["report", input.to_str().unwrap(), "--quiet", "--out"])
        .arg(&out)
        .spawn()
        .unwrap();
    let temp_exists = || {
        std::fs::read_dir(tmp.path()).unwrap().any(|e| {
            e.unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with(".robots-explorer-tmp-")
        })
    };
    let started = std::time::Instant::now();
    while !temp_exists() && started.elapsed().as_secs() < 30 {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(temp_exists(), "the run made its temporary folder");
    std::thread::sleep(std::time::Duration::from_millis(100));
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    if !out.exists() {
        assert_eq!(status.code(), Some(143));
    }
    assert!(!temp_exists(), "no temporary folder is left");
}

#[test]
fn files_the_user_added_to_an_earlier_site_are_never_deleted() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    run(&fixtures(), &out);
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    std::fs::create_dir(out.join("drafts")).unwrap();
    std::fs::write(out.join("hosts/extra.html"), "mine too").unwrap();
    let err = report::run(&Config::new(fixtures(), &out, NOW), &NoProgress).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, report::ReportError::Output(_)), "{msg}");
    for name in [
        "notes.txt",
        "drafts",
        "hosts/extra.html",
        "3 entries",
        "another --out",
    ] {
        assert!(msg.contains(name), "{name} in: {msg}");
    }
    assert_eq!(
        std::fs::read_to_string(out.join("notes.txt")).unwrap(),
        "mine"
    );
    // At most five are named.
    for i in 0..7 {
        std::fs::write(out.join(format!("n{i}.txt")), "x").unwrap();
    }
    let msg = report::run(&Config::new(fixtures(), &out, NOW), &NoProgress)
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains("10 entries") && msg.contains("and 5 more"),
        "{msg}"
    );
    // Through the command line: exit status 2, the file kept.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_robots-explorer"))
        .args(["report", fixtures().to_str().unwrap(), "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("drafts"));
    assert!(out.join("notes.txt").is_file());
    // Once they are gone, the site is replaced as before.
    for e in ["notes.txt", "hosts/extra.html"] {
        std::fs::remove_file(out.join(e)).unwrap();
    }
    std::fs::remove_dir(out.join("drafts")).unwrap();
    for i in 0..7 {
        std::fs::remove_file(out.join(format!("n{i}.txt"))).unwrap();
    }
    run(&fixtures(), &out);
}

#[test]
fn a_file_behind_more_than_five_redirects_is_not_followed() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    for (name, hops) in [
        ("six.example", 6),
        ("hundred.example", 100),
        ("five.example", 5),
    ] {
        std::fs::write(
            input.join(format!("{name}.txt")),
            "User-agent: *\nDisallow: /\n",
        )
        .unwrap();
        let mut y = format!(
            "url: https://{name}/robots.txt\nstatus: 200\nfetched_at: 2026-10-21T08:00:00Z\nredirects:\n"
        );
        for i in 0..hops {
            y.push_str(&format!(
                "  - {{status: 302, location: /hop{i}/robots.txt}}\n"
            ));
        }
        std::fs::write(input.join(format!("{name}.yaml")), y).unwrap();
    }
    let out = tmp.path().join("site");
    for reading in [
        robots_explorer::Reading::Google,
        robots_explorer::Reading::Rfc9309,
    ] {
        let mut c = Config::new(&input, &out, NOW);
        c.reading = reading;
        report::run(&c, &NoProgress).unwrap();
        let json = summary(&out);
        for name in ["six.example", "hundred.example"] {
            let h = host(&json, name);
            assert_eq!(h["outcome"], "too-many-redirects", "{name}");
            assert_eq!(h["effect_google"], "allow-all", "{name}");
            assert_eq!(h["effect_rfc"], "allow-all", "{name}");
            assert_eq!(h["blocks_everything"], false, "{name}");
            assert_eq!(tools::decisions(h, "Googlebot").0[0], true, "{name}");
        }
        let five = host(&json, "five.example");
        assert_eq!(five["outcome"], "successful");
        assert_eq!(tools::decisions(five, "Googlebot").0[0], false);
        let page = std::fs::read_to_string(out.join("hosts/six.example.html")).unwrap();
        assert!(page.contains("redirected 6 times, more than five"));
        // A long chain lists its first hops and counts the others.
        use robots_explorer::report::host::MAX_LISTED_HOPS;
        assert_eq!(MAX_LISTED_HOPS, 20);
        let page = std::fs::read_to_string(out.join("hosts/hundred.example.html")).unwrap();
        let chain = &page[page.find("<ol class=\"chain\">").unwrap()..];
        let chain = &chain[..chain.find("</ol>").unwrap()];
        assert_eq!(chain.matches("/robots.txt").count(), 1 + MAX_LISTED_HOPS);
        assert!(chain.contains("/hop19/robots.txt"), "{chain}");
        assert!(!chain.contains("/hop20/"), "{chain}");
        assert!(
            chain.contains(
                "<li class=\"more\">… and 80 more hops, 100 in all, as the sidecar lists them</li>"
            ),
            "{chain}"
        );
    }
}

#[test]
fn broken_sidecars_are_errors_named_on_stderr() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    std::fs::write(input.join("ok.example.txt"), "User-agent: *\nAllow: /\n").unwrap();
    let broken: [(&str, Vec<u8>); 4] = [
        ("malformed.example.yaml", b"status: [200\n".to_vec()),
        (
            "types.example.yaml",
            b"status: two hundred\nredirects: 5\n".to_vec(),
        ),
        (
            "latin1.example.yaml",
            b"url: https://caf\xe9.example/robots.txt\n".to_vec(),
        ),
        ("big.example.yaml", {
            let mut v = b"status: 200\n".to_vec();
            v.resize(1024 * 1024 + 10, b'#');
            v
        }),
    ];
    for (name, bytes) in &broken {
        std::fs::write(input.join(name), bytes).unwrap();
    }
    let out = tmp.path().join("site");
    let s = run(&input, &out);
    assert_eq!(s.totals.unread, 4);
    let named: Vec<&str> = s.unreadable.iter().map(|(p, _)| p.as_str()).collect();
    for (name, _) in &broken {
        assert!(named.contains(name), "{name} in {named:?}");
    }
    let json = summary(&out);
    assert_eq!(json["totals"]["unread"], 4);
    assert!(host(&json, "types.example")["sidecar_error"].is_string());
    let bin = env!("CARGO_BIN_EXE_robots-explorer");
    let cmd = |extra: &[&str]| {
        std::process::Command::new(bin)
            .args(["report", input.to_str().unwrap(), "--out"])
            .arg(&out)
            .args(extra)
            .output()
            .unwrap()
    };
    let o = cmd(&["--fail-on", "error"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    for (name, _) in &broken {
        assert!(err.contains(name), "{name} on stderr: {err}");
    }
    assert!(
        err.contains("not UTF-8") && err.contains("bytes; at most"),
        "{err}"
    );
    // --quiet silences the progress bar and the summary line, not the errors.
    let o = cmd(&["--quiet"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    for (name, _) in &broken {
        assert!(err.contains(name), "{name} on stderr with --quiet: {err}");
    }
}

#[test]
fn an_input_without_hosts_is_an_error_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir_all(input.join(".hidden")).unwrap();
    std::fs::write(input.join("notes.md"), "not a host").unwrap();
    std::fs::write(input.join(".hidden/a.example.txt"), "User-agent: *\n").unwrap();
    let out = tmp.path().join("site");
    let err = report::run(&Config::new(&input, &out, NOW), &NoProgress).unwrap_err();
    assert!(matches!(err, report::ReportError::Input(_)), "{err}");
    assert!(err.to_string().contains("holds no hosts"), "{err}");
    assert!(!out.exists());
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_robots-explorer"))
        .args(["report", input.to_str().unwrap(), "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("holds no hosts"));
    assert!(o.stdout.is_empty());
}

#[test]
fn agents_that_look_like_paths_must_be_files_and_odd_tokens_are_warned_about() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    let cmd = |agents: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_robots-explorer"))
            .args([
                "report",
                fixtures().to_str().unwrap(),
                "--quiet",
                "--agents",
                agents,
                "--out",
            ])
            .arg(&out)
            .output()
            .unwrap()
    };
    for bad in [
        "/no/such/agents.txt",
        tmp.path().to_str().unwrap(),
        "GPTBot,,CCBot",
    ] {
        let o = cmd(bad);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(!String::from_utf8_lossy(&o.stderr).is_empty());
        assert!(!out.exists(), "{bad}");
    }
    let o = cmd("MJ12bot,GPTBot");
    assert_eq!(o.status.code(), Some(0));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("`MJ12bot` is not a product token"), "{err}");
    assert!(!err.contains("`GPTBot`"), "{err}");
    assert_eq!(
        summary(&out)["crawlers"],
        serde_json::json!(["MJ12bot", "GPTBot"])
    );
}

#[test]
fn odd_sidecars_get_warnings_and_names_from_their_files() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    let w = |name: &str, text: &str| std::fs::write(input.join(name), text).unwrap();
    w("future.example.txt", "User-agent: *\nDisallow: /x\n");
    w(
        "future.example.yaml",
        "url: https://future.example/robots.txt\nstatus: 200\nfetched_at: 2026-10-23T09:00:00Z\n",
    );
    w(
        "ftp-host.yaml",
        "url: ftp://elsewhere.example/robots.txt\nstatus: 404\n",
    );
    w(
        "deep.yaml",
        "url: https://deep.example/a/robots.txt\nstatus: 404\n",
    );
    w(
        "both.yaml",
        "url: https://both.example/robots.txt\nstatus: 404\nerror: dns\n",
    );
    w(
        "bodiless.yaml",
        "url: https://bodiless.example/robots.txt\nstatus: 200\n",
    );
    w("weird.yaml", "status: 999\n");
    let out = tmp.path().join("site");
    let s = run_any_name(&input, &out);
    let json = summary(&out);
    let future = host(&json, "future.example");
    assert!(future["cache_age_seconds"].is_null());
    let page = std::fs::read_to_string(out.join("hosts/future.example.html")).unwrap();
    assert!(page.contains("is in the future"), "future note on the page");
    // Not http(s): the host name comes from the file name.
    assert_eq!(host(&json, "ftp-host")["outcome"], "unavailable");
    let page = std::fs::read_to_string(out.join(host(&json, "ftp-host")["page"].as_str().unwrap()))
        .unwrap();
    assert!(page.contains("not an http or https URL"));
    let page = std::fs::read_to_string(out.join("hosts/deep.example.html")).unwrap();
    assert!(page.contains("not <code>/robots.txt</code>") || page.contains("not `/robots.txt`"));
    assert_eq!(host(&json, "both.example")["outcome"], "unreachable");
    let page = std::fs::read_to_string(out.join("hosts/both.example.html")).unwrap();
    assert!(page.contains("The error was used"));
    let bodiless = host(&json, "bodiless.example");
    assert_eq!(bodiless["outcome"], "incomplete");
    assert_eq!(bodiless["effect"], "unknown");
    assert!(
        host(&json, "weird")["sidecar_error"]
            .as_str()
            .unwrap()
            .contains("999 is not an HTTP status code")
    );
    assert_eq!(s.totals.unread, 1);
}

#[cfg(unix)] // tab and carriage return in file names
#[test]
fn csv_cells_never_start_a_formula() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    let names = [
        "=HYPERLINK(1)",
        "+1+cmd",
        "-2+3",
        "@SUM(A1)",
        "\tTAB",
        "\rCR",
        "plain.example",
    ];
    for n in names {
        std::fs::write(input.join(format!("{n}.txt")), "User-agent: *\nDisallow:\n").unwrap();
    }
    // A sidecar error text from the input, and an odd crawler token in a header.
    std::fs::write(input.join("=err.yaml"), "status: [").unwrap();
    let out = tmp.path().join("site");
    let mut c = Config::new(&input, &out, NOW);
    c.filter = any_name();
    c.agents = vec!["=Bot".into(), "GPTBot".into()];
    report::run(&c, &NoProgress).unwrap();
    let mut r = csv::Reader::from_path(out.join("summary.csv")).unwrap();
    let header = r.headers().unwrap().clone();
    assert!(header.iter().any(|h| h == "root:=Bot"), "{header:?}");
    let mut hosts = Vec::new();
    for rec in r.records() {
        let rec = rec.unwrap();
        for cell in rec.iter() {
            assert!(
                !cell.starts_with(['=', '+', '-', '@', '\t', '\r']),
                "{cell:?} in {rec:?}"
            );
        }
        hosts.push(rec[0].to_string());
    }
    for n in names {
        // Host names are case-insensitive and shown in lower case.
        let n = n.to_lowercase();
        let want = if n == "plain.example" {
            n.to_string()
        } else {
            format!("'{n}")
        };
        assert!(hosts.contains(&want), "{want:?} in {hosts:?}");
    }
    assert!(hosts.contains(&"'=err".to_string()));
}

#[test]
fn one_host_from_several_files_is_reported_as_a_duplicate() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir_all(input.join("a")).unwrap();
    std::fs::create_dir_all(input.join("b/Dup.example")).unwrap();
    std::fs::write(input.join("a/dup.example.txt"), "User-agent: *\n").unwrap();
    std::fs::write(input.join("b/Dup.example/robots.txt"), "User-agent: *\n").unwrap();
    std::fs::write(
        input.join("c.yaml"),
        "url: https://dup.example/robots.txt\nstatus: 404\n",
    )
    .unwrap();
    std::fs::write(input.join("single.example.txt"), "User-agent: *\n").unwrap();
    let out = tmp.path().join("site");
    let s = run_any_name(&input, &out);
    // Host names are case-insensitive: one host, the first input in path order; the others are
    // skipped as duplicates, and the run fails with --fail-on error.
    assert_eq!(s.totals.hosts, 2, "dup.example once, single.example");
    assert_eq!(s.duplicates.len(), 1);
    assert_eq!(s.duplicates[0].host, "dup.example");
    assert_eq!(
        s.duplicates[0].inputs,
        ["a/dup.example.txt", "b/Dup.example/robots.txt", "c.yaml"]
    );
    assert_eq!(s.skipped, 2);
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(index.contains("host name given by several files"));
    let summary = summary(&out);
    let hosts: Vec<&str> = summary["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["host"].as_str().unwrap())
        .collect();
    assert_eq!(hosts, ["dup.example", "single.example"]);
    let skipped: Vec<&str> = summary["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["path"].as_str().unwrap())
        .collect();
    assert_eq!(skipped, ["b/Dup.example/robots.txt", "c.yaml"]);
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_robots-explorer"))
        .args([
            "report",
            input.to_str().unwrap(),
            "--include",
            "*.txt",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("3 files give the host") && err.contains("a/dup.example.txt"),
        "{err}"
    );
    assert!(!err.contains("single.example"));
}

#[test]
fn counts_agree_in_number_and_the_star_column_says_what_it_means() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    // One host, one error (a rule before any group), one warning at most.
    std::fs::write(
        input.join("one.example.txt"),
        "Disallow: /x\nUser-agent: *\nDisallow: /\n",
    )
    .unwrap();
    std::fs::create_dir(input.join("skip.txt")).unwrap();
    let out = tmp.path().join("site");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_robots-explorer"))
        .args(["report", input.to_str().unwrap(), "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let line = String::from_utf8(o.stdout).unwrap();
    assert!(line.starts_with("report: 1 host;"), "{line}");
    let words: Vec<&str> = line
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    for pair in words.windows(2) {
        let plural = ["hosts", "errors", "warnings", "entries", "files"];
        assert!(
            !(pair[0] == "1" && plural.contains(&pair[1])),
            "{pair:?} in {line}"
        );
    }
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(index.contains(r#"<span class="value">1</span> <span class="label">host</span>"#));
    assert!(!index.contains("Blocks all"));
    assert!(index.contains("<code>*</code> blocked from <code>/</code></th>"));
    assert!(index.contains(r#"title="Yes when a crawler that no group names"#));
    assert!(index.contains("host where * is blocked from /"));
    let js = std::fs::read_to_string(out.join("assets/report.js")).unwrap();
    assert!(js.contains(r#"view.host.length === 1 ? " host" : " hosts""#));
    assert!(index.contains("Host 1 of 1, problems first"));
}

/// The matrix applies each known crawler's profile (fallback tokens, whether it obeys `*`), and
/// sample paths made from patterns are encoded as a client sends them.
#[test]
fn matrix_applies_crawler_profiles_and_encodes_sample_paths() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    std::fs::write(
        input.join("profiles.example.txt"),
        "User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /café\n",
    )
    .unwrap();
    let out = tmp.path().join("site");
    let mut config = Config::new(&input, &out, NOW);
    config.agents = ["Googlebot-Image", "AdsBot-Google", "Applebot", "bingbot"]
        .map(String::from)
        .to_vec();
    report::run(&config, &NoProgress).expect("the run succeeds");
    let json = summary(&out);
    let h = host(&json, "profiles.example");
    let paths: Vec<&str> = h["paths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert_eq!(paths, ["/", "/caf%C3%A9"]);
    let allowed = |crawler: &str| serde_json::Value::Array(tools::decisions(h, crawler).0);
    // Googlebot-Image and Applebot follow the Googlebot group; AdsBot-Google ignores `*`;
    // bingbot has neither a group nor a fallback group here, so `*` applies.
    assert_eq!(allowed("Googlebot-Image"), serde_json::json!([true, false]));
    assert_eq!(allowed("Applebot"), serde_json::json!([true, false]));
    assert_eq!(allowed("AdsBot-Google"), serde_json::json!([true, true]));
    assert_eq!(allowed("bingbot"), serde_json::json!([false, false]));
}

#[test]
fn an_unknown_outcome_gives_unknown_verdicts_everywhere() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    std::fs::write(input.join("x.example.txt"), "User-agent: *\nDisallow: /a\n").unwrap();
    // An empty sidecar records neither a status nor an error: the outcome is not known.
    std::fs::write(input.join("x.example.yaml"), "").unwrap();
    let out = tmp.path().join("site");
    run(&input, &out);
    let s = summary(&out);
    let h = host(&s, "x.example");
    assert_eq!(h["effect"], "unknown");
    for d in h["decisions"].as_array().unwrap() {
        assert!(
            d["verdicts"].as_str().unwrap().chars().all(|v| v == '?'),
            "{d}"
        );
    }
    assert_eq!(h["blocks_everything"], false);
    let csv = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    let row = csv.lines().nth(1).unwrap();
    assert!(!row.contains("allowed"), "{row}");
    let page = std::fs::read_to_string(out.join("hosts/x.example.html")).unwrap();
    assert!(page.contains("every verdict is unknown"));
}

#[test]
fn report_sarif_uris_are_encoded_like_lint_ones_and_names_are_kept_losslessly() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    std::fs::write(
        input.join("a b#c?d%20e.txt"),
        "User-agent: *\nDisallow: /\n",
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let name = std::ffi::OsStr::from_bytes(b"caf\xe9.txt");
        std::fs::write(input.join(name), "User-agent: *\nDisallow: /\n").unwrap();
    }
    let out = tmp.path().join("site");
    run_any_name(&input, &out);
    let log: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("results.sarif")).unwrap()).unwrap();
    let mut uris: Vec<&str> = log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
        })
        .collect();
    uris.dedup();
    assert!(uris.contains(&"a%20b%23c%3Fd%2520e.txt"), "{uris:?}");
    #[cfg(unix)]
    {
        assert!(uris.contains(&"caf%E9.txt"), "{uris:?}");
        let s = summary(&out);
        let h = s["hosts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["file_uri"] == "caf%E9.txt")
            .expect("the lossless name is in summary.json");
        assert_eq!(h["file"], "caf\u{FFFD}.txt");
        let csv = std::fs::read_to_string(out.join("summary.csv")).unwrap();
        assert!(csv.contains(",caf%E9.txt"), "{csv}");
    }
}

#[cfg(unix)]
#[test]
fn a_symlinked_out_is_refused_as_a_symlink() {
    let tmp = tempfile::tempdir().unwrap();
    let real = tmp.path().join("real");
    std::fs::create_dir(&real).unwrap();
    let link = tmp.path().join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let e = match report::run(&Config::new(fixtures(), &link, NOW), &NoProgress) {
        Ok(_) => panic!("a symlinked --out is refused"),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("is a symbolic link"), "{e}");
}

#[test]
fn the_index_lists_frequent_diagnostics_errors_first() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    run(&fixtures(), &out);
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    let start = index
        .find("<h2 id=\"frequent\">")
        .expect("a list of frequent diagnostics");
    let list = &index[start..start + index[start..].find("</ol>").unwrap()];
    let rank = |s: &str| match s {
        "error" => 0,
        "warning" => 1,
        "info" => 2,
        other => panic!("severity {other}"),
    };
    let mut items: Vec<(usize, usize)> = Vec::new();
    for li in list.split("<li>").skip(1) {
        let sev = li.split("class=\"sev-").nth(1).unwrap();
        let sev = &sev[..sev.find('"').unwrap()];
        let hosts = li.split("</span>: ").nth(1).unwrap();
        let hosts: usize = hosts.split(' ').next().unwrap().parse().unwrap();
        items.push((rank(sev), hosts));
    }
    assert!(items.len() >= 3, "{items:?}");
    assert!(
        items
            .windows(2)
            .all(|w| w[0].0 < w[1].0 || (w[0].0 == w[1].0 && w[0].1 >= w[1].1)),
        "not errors first, then by count: {items:?}"
    );
    // The demo hosts have errors, warnings and infos among the most frequent.
    assert_eq!(items[0].0, 0, "{items:?}");
}

#[test]
fn a_host_without_a_file_still_lists_the_decisions_that_differ_between_readings() {
    // A 429 with no file: the RFC reading allows everything (4xx), the Google reading, by this
    // report's assumption, disallows everything; the Readings section must not say they agree.
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("site");
    run(&fixtures(), &out);
    let page = std::fs::read_to_string(out.join("hosts/rate-limited.example.html")).unwrap();
    assert!(
        !page.contains("readings agree on every line and every decision"),
        "the Readings section contradicts the matrix"
    );
    assert!(page.contains("Decisions that differ"));
    assert!(page.contains("The readings treat the fetch outcome differently"));
}

#[test]
fn a_single_file_holds_every_host_and_refers_to_nothing_beside_it() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("audit.html");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_robots-explorer"))
        .args(["report", fixtures().to_str().unwrap(), "--quiet", "--now"])
        .arg("2026-10-21T09:00:00Z")
        .arg("--single-file")
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let html = std::fs::read_to_string(&file).unwrap();
    // Nothing is loaded or linked from beside the file: no `src` at all, and every `href` is a
    // fragment of this document or a web address.
    // Text from the files is escaped, so every `<` starts a tag of ours.
    for tag in html.split('<').skip(1) {
        let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
        assert!(!tag.contains(" src="), "a src attribute: <{tag}>");
        assert!(!tag.starts_with("link "), "a link element: <{tag}>");
    }
    // Attribute values, quoted or not (unquoted ones end at white space or the tag's end).
    let values = |attr: &str| -> Vec<String> {
        let key = format!(" {attr}=");
        let mut v = Vec::new();
        for tag in html.split('<').skip(1) {
            let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
            for part in tag.split(key.as_str()).skip(1) {
                v.push(match part.strip_prefix('"') {
                    Some(q) => q[..q.find('"').unwrap()].to_string(),
                    None => part[..part.find(' ').unwrap_or(part.len())].to_string(),
                });
            }
        }
        v
    };
    let mut ids = std::collections::HashSet::new();
    for id in values("id") {
        assert!(ids.insert(id.clone()), "the id {id} is given twice");
    }
    for v in values("href") {
        assert!(
            v.starts_with('#') || v.starts_with("https://") || v.starts_with("http://"),
            "a reference to a file: {v}"
        );
        if let Some(id) = v.strip_prefix('#') {
            assert!(ids.contains(id), "a link to a missing section: {v}");
        }
    }
    // The data files are not beside a single file: neither the index nor the menu lists them.
    assert!(!html.contains("id=\"data\"") && !html.contains(">Data files<"));
    // Without scripts, long listings are written out, not packed (huge.example is folded).
    assert!(html.contains("<details class=\"fold\">"));
    assert!(!html.contains("rt-runs") && !html.contains("data-run"));
    // The styles are inline; every host of the demo has its section, with its file's lines.
    assert!(html.contains("<style>") && html.contains(".site-header"));
    let hosts: Vec<String> = std::fs::read_dir(fixtures())
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            name.strip_suffix(".yaml").map(str::to_string)
        })
        .collect();
    assert!(hosts.len() > 10);
    for h in &hosts {
        assert!(
            html.contains(&format!("<h1>{h}"))
                || html.contains(&format!("{h}</h1>"))
                || html.contains(&format!(">{h}<")),
            "host {h}"
        );
    }
    let sections = html.matches("class=\"single-page\"").count();
    assert!(
        sections >= hosts.len(),
        "{sections} sections for {} hosts",
        hosts.len()
    );
    assert!(
        html.contains("Disallow: /wp-admin/"),
        "the shop's file is listed"
    );
    // Above the limit the run is refused before anything is written.
    let input = tmp.path().join("many");
    std::fs::create_dir(&input).unwrap();
    for i in 0..=report::single::MAX_HOSTS {
        std::fs::write(input.join(format!("h{i}.example.txt")), "User-agent: *\n").unwrap();
    }
    let big = tmp.path().join("big.html");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_robots-explorer"))
        .args(["report", input.to_str().unwrap(), "--single-file"])
        .arg(&big)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("51 hosts") && err.contains("--out"), "{err}");
    assert!(!big.exists());
    // Inside the input, the page could replace the files it is made from: refused, and the
    // input is left as it was.
    let small = tmp.path().join("small");
    std::fs::create_dir(&small).unwrap();
    let file = small.join("a.example.txt");
    std::fs::write(&file, "User-agent: *\nDisallow: /x\n").unwrap();
    for target in [file.clone(), small.join("report.html")] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_robots-explorer"))
            .args(["report", small.to_str().unwrap(), "-q", "--single-file"])
            .arg(&target)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{target:?}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("inside the input"));
    }
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "User-agent: *\nDisallow: /x\n"
    );
    assert!(!small.join("report.html").exists());
}

#[test]
fn report_reads_robots_files_by_name_and_globs() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("repo");
    for (p, body) in [
        ("public/robots.txt", "User-agent: *\nDisallow: /a\n"),
        ("public/humans.txt", "/* TEAM */"),
        ("requirements.txt", "serde==1"),
        ("config.yaml", "key: value"),
        ("sites/shop.example.txt", "User-agent: *\n"),
        (
            "sites/shop.example.yaml",
            "url: https://shop.example/robots.txt\nstatus: 200\n",
        ),
        (
            "sites/staging.example.robots.txt",
            "User-agent: *\nDisallow: /\n",
        ),
    ] {
        let path = input.join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, body).unwrap();
    }
    let out = tmp.path().join("site");
    run(&input, &out);
    let s = summary(&out);
    let mut names: Vec<&str> = s["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["host"].as_str().unwrap())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["public", "shop.example", "staging.example"]);
    let mut c = Config::new(&input, &out, NOW);
    c.filter = robots_explorer::select::WalkFilter::new(&[], &["public".into()]).unwrap();
    report::run(&c, &NoProgress).unwrap();
    assert_eq!(summary(&out)["totals"]["hosts"], 2);
}

/// Token sets with the same rules (kinds and patterns, in order, each on its own lines) are
/// listed once in the table of effective rules, the others named with it; a set that differs
/// only past the rules shown keeps a heading of its own.
#[test]
fn token_sets_with_the_same_rules_are_listed_once() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    let block = |agent: &str, last: &str| {
        let mut s = format!("User-agent: {agent}\n");
        for i in 0..12 {
            s.push_str(&format!("Disallow: /private-{i:02}/\n"));
        }
        s.push_str(&format!("Disallow: {last}\n\n"));
        s
    };
    let text = [
        block("*", "/x"),
        block("Baiduspider", "/x"),
        block("Bingbot", "/x"),
        block("YandexBot", "/y"),
    ]
    .concat();
    std::fs::write(input.join("same.example.txt"), text).unwrap();
    let out = tmp.path().join("site");
    run(&input, &out);
    let page = std::fs::read_to_string(out.join("hosts/same.example.html")).unwrap();
    let table = &page[page.find("<h3 id=\"effective\">").unwrap()..];
    let table = &table[..table.find("</table>").unwrap()];
    assert_eq!(table.matches("<tr class=eff-set>").count(), 2, "{table}");
    assert!(
        table.contains(
            "The same 13 rules, on lines of their own, for 2 more token sets (groups): \
             Baiduspider (<a href=#group-2>2</a>), Bingbot (<a href=#group-3>3</a>)."
        ),
        "{table}"
    );
    assert!(
        table.contains("scope=rowgroup>YandexBot <span class=small>(group <a href=#group-4>4</a>)"),
        "{table}"
    );
}

/// A letters-only product token for `i` (`bota`, `botb`, …, `botaa`, …): the two readings read
/// it alike.
fn letters_token(i: usize) -> String {
    let mut s = String::new();
    let mut n = i + 1;
    while n > 0 {
        n -= 1;
        s.insert(0, char::from(b'a' + (n % 26) as u8));
        n /= 26;
    }
    format!("bot{s}")
}

/// Hostile files keep their host pages small: every section that grows with the groups,
/// user-agent lines, token sets or lines read differently lists the first ones and says how
/// many more there are and where they are.
#[test]
fn host_pages_of_hostile_files_stay_small_and_say_what_they_leave_out() {
    use robots_explorer::report::host::{
        MAX_GROUP_ROWS, MAX_LINKED_GROUPS, MAX_NAMED_AGENTS, MAX_READING_LINES, MAX_TOKEN_SETS,
    };
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    // 20,000 groups of one rule each (777,780 bytes: the parsing limit keeps 13,356 groups, the
    // last one cut before its rule). Google reads every `botN` as `bot`.
    let many_groups: String = (0..20_000)
        .map(|i| format!("User-agent: bot{i}\nDisallow: /p{i}\n\n"))
        .collect();
    std::fs::write(input.join("many-groups.example.txt"), &many_groups).unwrap();
    // 1,000 token sets with rules of their own.
    let many_sets: String = (0..1_000)
        .map(|i| format!("User-agent: {}\nDisallow: /p{i}\n\n", letters_token(i)))
        .collect();
    std::fs::write(input.join("many-sets.example.txt"), many_sets).unwrap();
    // 1,000 token sets with the same rule.
    let same_rule: String = (0..1_000)
        .map(|i| format!("User-agent: {}\nDisallow: /x\n\n", letters_token(i)))
        .collect();
    std::fs::write(input.join("same-rule.example.txt"), same_rule).unwrap();
    // One group of 1,000 user-agent lines.
    let mut one_group: String = (0..1_000)
        .map(|i| format!("User-agent: {}\n", letters_token(i)))
        .collect();
    one_group.push_str("Disallow: /x\n");
    std::fs::write(input.join("one-group.example.txt"), one_group).unwrap();
    // 1,000 rules without a colon: Google reads them, RFC 9309 does not.
    let mut no_colons = "User-agent: *\n".to_string();
    for i in 0..1_000 {
        no_colons.push_str(&format!("Disallow /p{i}\n"));
    }
    std::fs::write(input.join("no-colons.example.txt"), no_colons).unwrap();
    let out = tmp.path().join("site");
    run(&input, &out);
    let json = summary(&out);
    let page = |host: &str| {
        let html = std::fs::read_to_string(out.join(format!("hosts/{host}.html"))).unwrap();
        // The listing of a file at the parsing limit is most of such a page (about 260 KB);
        // the Groups table alone of the first file would be 2.6 MB.
        assert!(html.len() < 400 * 1024, "{host}: {} bytes", html.len());
        html
    };
    let section = |html: &str, start: &str, end: &str| {
        let s = &html[html.find(start).unwrap_or_else(|| panic!("{start}"))..];
        s[..s.find(end).unwrap_or_else(|| panic!("{end}"))].to_string()
    };

    let html = page("many-groups.example");
    assert_eq!(host(&json, "many-groups.example")["groups"], 13_356);
    let groups = section(&html, "<table class=\"data grp\">", "</table>");
    assert_eq!(groups.matches("<tr id=group-").count(), MAX_GROUP_ROWS);
    assert_eq!(MAX_GROUP_ROWS, 200);
    assert!(
        groups.contains(
            "… and 13,156 more groups, on lines <a href=#L601>601</a>–<a href=#L40066>40066</a> \
             of the listing above."
        ),
        "{groups}"
    );
    // Google's one token `bot` combines every group: the first are linked, the others counted.
    let effective = section(&html, "<h3 id=\"effective\">", "</table>");
    assert_eq!(MAX_LINKED_GROUPS, 30);
    assert!(
        effective.contains(
            "scope=rowgroup>bot <span class=small>(groups <a href=#group-1>1</a>, <a href=#group-2>2</a>,"
        ),
        "{effective}"
    );
    assert!(
        effective.contains(", <a href=#group-30>30</a> and 13,326 more)</span>"),
        "{effective}"
    );
    let tokens = section(
        &html,
        "<h3>User-agent lines read as different",
        "</section>",
    );
    assert_eq!(tokens.matches("<li>").count(), MAX_READING_LINES);
    assert!(
        tokens.contains(
            "… and 13,256 more user-agent lines read as different product tokens, up to line \
             <a href=#L40066>40066</a> of the listing above."
        ),
        "{tokens}"
    );

    // Token sets with rules of their own: the first have headings, the others are counted.
    let html = page("many-sets.example");
    let effective = section(&html, "<h3 id=\"effective\">", "</table>");
    assert_eq!(
        effective.matches("<tr class=eff-set>").count(),
        MAX_TOKEN_SETS
    );
    assert_eq!(MAX_TOKEN_SETS, 200);
    assert!(
        effective.contains(
            "… and 800 more token sets; every rule is in the listing above, and \
             <a href=../hosts.jsonl>hosts.jsonl</a> names every product token."
        ),
        "{effective}"
    );
    // Groups left out of the table are linked to their first line.
    assert!(
        effective
            .contains("scope=rowgroup>botgr <span class=small>(group <a href=#group-200>200</a>)")
    );
    assert!(!effective.contains("#group-201"));
    let groups = section(&html, "<table class=\"data grp\">", "</table>");
    assert!(
        groups.contains(
            "… and 800 more groups, on lines <a href=#L601>601</a>–<a href=#L2999>2999</a>"
        ),
        "{groups}"
    );
    assert_eq!(
        host(&json, "many-sets.example")["user_agents"]
            .as_array()
            .unwrap()
            .len(),
        1_000
    );

    // Token sets with the same rule: listed with the first, within the room left.
    let html = page("same-rule.example");
    let effective = section(&html, "<h3 id=\"effective\">", "</table>");
    assert_eq!(effective.matches("<tr class=eff-set>").count(), 1);
    assert!(
        effective.contains(
            "The same one rule for 999 more token sets (group: line): botb (<a href=#group-2>2</a>: \
             <a href=#L5>5</a>),"
        ),
        "{effective}"
    );
    assert_eq!(
        effective.matches("), bot").count() + 1,
        MAX_TOKEN_SETS - 1,
        "{effective}"
    );
    assert!(effective.contains(", and 800 more.\n"), "{effective}");

    // One group of many user-agent lines: its row and its token set name the first.
    let html = page("one-group.example");
    let groups = section(&html, "<table class=\"data grp\">", "</table>");
    assert_eq!(MAX_NAMED_AGENTS, 30);
    assert!(
        groups.contains(
            "<a href=#L30><code>botad</code></a>, <span class=\"small\">and 970 more</span>"
        ),
        "{groups}"
    );
    assert_eq!(groups.matches("<code>").count(), MAX_NAMED_AGENTS);
    let effective = section(&html, "<h3 id=\"effective\">", "</table>");
    assert!(
        effective.contains("scope=rowgroup>bota, botb, "),
        "{effective}"
    );
    assert!(
        effective.contains(", botad and 970 more <span class=small>(group <a href=#group-1>1</a>)"),
        "{effective}"
    );

    // Lines read differently: the first are rows, the others counted.
    let html = page("no-colons.example");
    let lines = section(&html, "<h3>Lines read differently", "</table>");
    assert_eq!(
        lines.matches("<tr><th scope=\"row\">").count(),
        MAX_READING_LINES
    );
    assert!(
        lines.contains(
            "… and 900 more lines read differently, up to line <a href=#L1001>1001</a> of the \
             listing above."
        ),
        "{lines}"
    );
}

/// Binary bodies give host pages as small as text does: a run of one control or invisible
/// character is one marker giving its code point and count, a long sequence of several such
/// characters one marker spelling it out run by run, and long lines of printable bytes or many
/// lines of one control character stay within a few megabytes.
#[test]
fn host_pages_of_binary_bodies_fold_runs_of_control_characters() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).unwrap();
    // 16 MiB of NUL bytes (as a capture of a zeroed or gzip-bomb body): 512,000 of them read.
    std::fs::write(input.join("zeros.example.txt"), vec![0u8; 16 << 20]).unwrap();
    // NUL and U+0001 alternating: every character a run of its own.
    std::fs::write(
        input.join("alternating.example.txt"),
        b"\0\x01".repeat(1 << 19),
    )
    .unwrap();
    // Zero-width spaces and tabs around a rule.
    let mut hidden = b"User-agent: *\nDisallow: /a".to_vec();
    hidden.extend("\u{200B}".repeat(100_000).as_bytes());
    hidden.extend(b"\t".repeat(100_000));
    hidden.extend(b"b\n");
    std::fs::write(input.join("hidden.example.txt"), hidden).unwrap();
    // One line of 16 MiB of printable bytes; 1,000,000 lines of U+0001.
    std::fs::write(input.join("one-line.example.txt"), vec![b'a'; 16 << 20]).unwrap();
    std::fs::write(
        input.join("soh-lines.example.txt"),
        b"\x01\n".repeat(1_000_000),
    )
    .unwrap();
    let out = tmp.path().join("site");
    run(&input, &out);
    let page = |host: &str, limit: usize| {
        let html = std::fs::read_to_string(out.join(format!("hosts/{host}.html"))).unwrap();
        assert!(html.len() < limit, "{host}: {} bytes", html.len());
        html
    };

    // 24 MB before folding: 528,384 markers of one NUL each.
    let html = page("zeros.example", 64 * 1024);
    let line = "<span class=\"rt-ctl rt-fold\" title=\"U+0000 \u{d7}512,000\" \
                data-runs=\"0*512000\">\u{2400} \u{d7}512,000</span>";
    assert!(
        markup_problems(&html).is_empty(),
        "{:?}",
        markup_problems(&html)
    );
    assert!(html.contains(line), "the line's run is one marker");
    // The start of the region past the parsing limit is one more.
    assert!(html.contains(
        "<span class=\"rt-ctl rt-fold\" title=\"U+0000 \u{d7}16,384\" \
         data-runs=\"0*16384\">\u{2400} \u{d7}16,384</span>"
    ));
    assert_eq!(html.matches("class=\"rt-ctl").count(), 2);
    // The tester still reads the file from the listing: nothing else embeds it.
    assert!(
        html.contains("data-size=\"512000\""),
        "the listing spells the file out"
    );

    // 24 MB before folding; now a few bytes per character in the one marker of each sequence.
    let html = page("alternating.example", 1536 * 1024);
    let mix = "<span class=\"rt-ctl rt-mix\" title=\"512,000 control or invisible characters in \
               512,000 runs: U+0000 \u{d7}256,000, U+0001 \u{d7}256,000\" data-runs=\"0 1 0 1 ";
    assert!(html.contains(mix));
    assert!(html.contains("\u{2400}\u{2401}\u{2400}\u{2026} \u{d7}512,000</span>"));
    assert_eq!(html.matches("class=\"rt-ctl").count(), 2);

    // 12 MB before folding. The fix suggested for the rule quotes it without the zero-width
    // spaces: its 100,000 tabs are most of the page.
    let html = page("hidden.example", 256 * 1024);
    assert!(html.contains(
        "/a<span class=\"rt-ctl rt-fold\" title=\"U+200B \u{d7}100,000\" data-runs=\"200B*100000\">\
         \u{2423} \u{d7}100,000</span><span class=\"rt-ctl rt-fold\" title=\"U+0009 \u{d7}100,000\" \
         data-runs=\"9*100000\">\u{2192} \u{d7}100,000</span>b"
    ));

    page("one-line.example", 1024 * 1024);
    page("soh-lines.example", 3 * 1024 * 1024);
}
