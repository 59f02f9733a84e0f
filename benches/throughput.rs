//! Throughput of parse-and-decide over the real corpus (`../shared/corpus/files`), single
//! threaded, with `texting_robots` and the `robotstxt` crate measured on the same inputs in the
//! same run; and the time to decide with a pattern of 100 `*` against a 16 KiB path.
//!
//! Run with `cargo bench --bench throughput`. Each iteration takes every corpus file, parses
//! it, and decides one URL for one crawler (the URLs taken in turn). After criterion's own
//! report, a table gives the median of seven interleaved rounds in MB/s (10^6 bytes per
//! second) and, per round, the ratio to each peer, so the figures can be compared at a glance. Environment: `ROBOTS_BENCH_QUICK=1` skips criterion and prints only
//! the table; `ROBOTS_BENCH_ONLY=text` keeps the parsers whose name contains `text` (and skips
//! the check for files the robotstxt crate panics on, unless it is kept), and
//! `ROBOTS_BENCH_PASSES=n` sets the number of rounds (for profiling).
//!
//! The `robotstxt` crate panics on a few real files; they are left out of the shared input
//! set so that all three parsers read exactly the same bytes. It also takes `&str`, so each
//! file is given to it as (lossy) UTF-8 prepared outside the timed loop.

use criterion::{BenchmarkId, Criterion, Throughput, black_box};
use robots_explorer::decide::Profile;
use robots_explorer::{Reading, RobotsTxt, decide_url_once};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The crawler every question is asked for.
const AGENT: &str = "Googlebot";
/// The URLs asked for every file.
const URLS: [&str; 4] = [
    "https://example.com/",
    "https://example.com/wp-admin/admin-ajax.php",
    "https://example.com/search?q=robots&page=2",
    "https://example.com/products/item-1234.html",
];

struct Corpus {
    bytes: Vec<Vec<u8>>,
    text: Vec<String>,
    total: usize,
    left_out: usize,
}

fn load() -> Corpus {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/files");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("corpus at {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut corpus = Corpus {
        bytes: Vec::new(),
        text: Vec::new(),
        total: 0,
        left_out: 0,
    };
    for p in paths {
        let bytes = std::fs::read(&p).unwrap();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let panics = selected("robotstxt")
            && std::panic::catch_unwind(|| {
                URLS.iter().all(|u| {
                    robotstxt::DefaultMatcher::default()
                        .one_agent_allowed_by_robots(&text, AGENT, u)
                })
            })
            .is_err();
        if panics {
            corpus.left_out += 1;
            continue;
        }
        corpus.total += bytes.len();
        corpus.bytes.push(bytes);
        corpus.text.push(text);
    }
    std::panic::set_hook(previous);
    corpus
}

fn only() -> Option<String> {
    std::env::var("ROBOTS_BENCH_ONLY").ok()
}

fn selected(name: &str) -> bool {
    only().is_none_or(|o| name.contains(&o))
}

/// The URL asked for file `i`: one decision per file, the URLs taken in turn.
fn url_for(i: usize) -> &'static str {
    URLS[i % URLS.len()]
}

/// The one-pass decision (what a crawler uses: parse and decide once, no tree).
fn ours(corpus: &Corpus, reading: Reading) -> usize {
    let profile = Profile {
        tokens: &[AGENT],
        obeys_global: true,
    };
    let mut allowed = 0;
    for (i, b) in corpus.bytes.iter().enumerate() {
        allowed += decide_url_once(black_box(b), reading, &profile, url_for(i)).allowed as usize;
    }
    allowed
}

/// The full parse (lossless tree, records, groups, policy), then the decision: what the
/// reports and the linter pay before they explain anything.
fn ours_parsed(corpus: &Corpus) -> usize {
    let mut allowed = 0;
    for (i, b) in corpus.bytes.iter().enumerate() {
        let robots = RobotsTxt::parse(black_box(b));
        allowed += robots.decide(Reading::Google, AGENT, url_for(i)).allowed as usize;
    }
    allowed
}

fn texting(corpus: &Corpus) -> usize {
    let mut allowed = 0;
    for (i, b) in corpus.bytes.iter().enumerate() {
        if let Ok(robot) = texting_robots::Robot::new(AGENT, black_box(b)) {
            allowed += robot.allowed(url_for(i)) as usize;
        }
    }
    allowed
}

fn robotstxt_crate(corpus: &Corpus) -> usize {
    let mut allowed = 0;
    for (i, t) in corpus.text.iter().enumerate() {
        allowed += robotstxt::DefaultMatcher::default().one_agent_allowed_by_robots(
            black_box(t),
            AGENT,
            url_for(i),
        ) as usize;
    }
    allowed
}

type Runner = fn(&Corpus) -> usize;

const RUNNERS: [(&str, Runner); 5] = [
    ("robots-explorer, one pass (Google reading)", |c| {
        ours(c, Reading::Google)
    }),
    ("robots-explorer, one pass (RFC 9309 reading)", |c| {
        ours(c, Reading::Rfc9309)
    }),
    (
        "robots-explorer, tree and policy (Google reading)",
        ours_parsed,
    ),
    ("texting_robots 0.2", texting),
    ("robotstxt 0.3", robotstxt_crate),
];
/// Indices into [`RUNNERS`] of the two peers the ratios are taken against.
const TEXTING: usize = 3;
const ROBOTSTXT: usize = 4;

/// A robots.txt with one disallow of 100 `*` and a 16 KiB path it does not match, so that
/// every piece has to be searched for.
fn many_stars() -> (RobotsTxt, String) {
    let mut pattern = String::from("/");
    for _ in 0..99 {
        pattern.push_str("a*");
    }
    pattern.push_str("*b");
    assert_eq!(pattern.matches('*').count(), 100);
    let body = format!("User-agent: *\nDisallow: {pattern}\n");
    let path = format!("/{}", "a".repeat(16 * 1024 - 1));
    (RobotsTxt::parse(body.as_bytes()), path)
}

/// A product token made of letters only (digits would make it invalid in both readings).
fn letters(mut i: usize) -> String {
    let mut s = String::new();
    loop {
        s.push((b'a' + (i % 26) as u8) as char);
        i /= 26;
        if i == 0 {
            return s;
        }
    }
}

/// Files that once made the analysis slow: 15,000 groups of one token each (group selection per
/// token), 30,000 copies of one rule (rule relations within one literal prefix); and the worst
/// shapes for combined rule sets and lookups, each under the parsing limit: one group naming
/// 7,000 tokens over 7,000 rules while each token also has a group of its own (7,000 different
/// combinations of the same 7,000 rules), lists of 40 tokens sliding along 1,500 groups, 8,000
/// identical rule pairs seen by 3,000 combinations, 500 pairs of rules whose literal prefixes all
/// extend one another, long patterns of 20 `*`, one token named by 25,000 groups, 30,000
/// `User-agent: *` lines; and line shapes that once cost hundreds of MB: 512,000 blank lines or
/// lone CRs, 256,000 colons or junk words (one finding each), 18,000 one-rule groups.
fn hard_files() -> Vec<(&'static str, Vec<u8>)> {
    let limit = robots_explorer::decode::PARSING_LIMIT;
    let cut = |s: String| {
        let mut b = s.into_bytes();
        b.truncate(limit);
        b
    };
    let groups: String = (0..15_000)
        .map(|i| format!("User-agent: bot{i}x\nDisallow: /x/{i}\n"))
        .collect();
    let copies = format!("User-agent: *\n{}", "Disallow: /same/path\n".repeat(30_000));
    let mut overlap: String = (0..7_000)
        .map(|i| format!("User-agent: b{}\n", letters(i)))
        .collect();
    overlap.extend((0..7_000).map(|i| format!("Disallow: /p{i}/\n")));
    overlap.extend((0..7_000).map(|i| format!("\nUser-agent: b{}\nDisallow: /q\n", letters(i))));
    let sliding: String = (0..1_500)
        .map(|i| {
            let uas: String = (i..i + 40)
                .map(|j| format!("User-agent: t{}\n", letters(j)))
                .collect();
            format!("{uas}Disallow: /d{i}/\nAllow: /d{i}/x\n\n")
        })
        .collect();
    let mut identical: String = (0..3_000)
        .map(|i| format!("User-agent: c{}\n", letters(i)))
        .collect();
    identical.push_str("User-agent: *\n");
    identical.push_str(&"Disallow: /same\nAllow: /same\n".repeat(8_000));
    identical.extend((0..3_000).map(|i| format!("\nUser-agent: c{}\nDisallow: /\n", letters(i))));
    let lengths: String = std::iter::once("User-agent: *\n".to_string())
        .chain((1..500).map(|k| {
            let a = "a".repeat(k);
            format!("Disallow: /{a}\nAllow: /{a}$\n")
        }))
        .collect();
    let stars: String = std::iter::once("User-agent: *\n".to_string())
        .chain((1..700).map(|k| format!("Disallow: /{}{}\n", "a".repeat(k), "*b".repeat(20))))
        .collect();
    let one_token: String = (0..25_000)
        .map(|i| format!("User-agent: a\nAllow: /x{i}\n"))
        .collect();
    let star_lines = format!(
        "{}Disallow: /x\n{}",
        "User-agent: *\n".repeat(30_000),
        (0..5_000)
            .map(|i| format!("User-agent: *\nDisallow: /y{i}\n"))
            .collect::<String>()
    );
    vec![
        ("15,000 groups", groups.into_bytes()),
        ("30,000 identical rules", copies.into_bytes()),
        ("7,000 overlapping combinations", cut(overlap)),
        ("sliding lists of 40 tokens", cut(sliding)),
        ("identical rules in 3,000 combinations", cut(identical)),
        ("nested literal prefixes", cut(lengths)),
        ("patterns of 20 stars", cut(stars)),
        ("one token in 25,000 groups", cut(one_token)),
        ("30,000 user-agent * lines", cut(star_lines)),
        ("512,000 blank lines", b"\n".repeat(limit)),
        ("512,000 lone CRs", b"\r".repeat(limit)),
        ("256,000 colons without a field", b":\n".repeat(limit / 2)),
        ("256,000 junk words", b"x\n".repeat(limit / 2)),
        (
            "18,000 one-rule groups",
            b"User-agent: a\nDisallow: /x\n".repeat(limit / 27),
        ),
    ]
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn table(corpus: &Corpus) {
    let mb = corpus.total as f64 / 1e6;
    let rounds: usize = std::env::var("ROBOTS_BENCH_PASSES")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(7);
    println!(
        "\n{} files, {:.1} MB ({} left out: the robotstxt crate panics on them); parse and one \
         decision per file for {AGENT}, single thread, median of {rounds} rounds (each round \
         runs every parser once, starting with a different one)",
        corpus.bytes.len(),
        mb,
        corpus.left_out,
    );
    // times[r][p]: seconds of parser p in round r; parsers run interleaved, rotated per round.
    let n = RUNNERS.len();
    let mut times = vec![vec![f64::NAN; n]; rounds];
    for (r, round) in times.iter_mut().enumerate() {
        for k in 0..n {
            let p = (r + k) % n;
            let (name, run) = RUNNERS[p];
            if !selected(name) {
                continue;
            }
            let t = Instant::now();
            black_box(run(corpus));
            round[p] = t.elapsed().as_secs_f64();
        }
    }
    let ratio = |p: usize, peer: usize| median(times.iter().map(|t| t[peer] / t[p]).collect());
    println!("| parser | MB/s | × robotstxt 0.3 | × texting_robots 0.2 |");
    println!("|---|---:|---:|---:|");
    for (p, (name, _)) in RUNNERS.iter().enumerate() {
        if !selected(name) {
            continue;
        }
        let rate = mb / median(times.iter().map(|t| t[p]).collect());
        println!(
            "| {name} | {rate:.1} | {:.2} | {:.2} |",
            ratio(p, ROBOTSTXT),
            ratio(p, TEXTING)
        );
    }
    whole_process();
    let (robots, path) = many_stars();
    let n = 200;
    let t = Instant::now();
    for _ in 0..n {
        black_box(robots.decide(Reading::Google, AGENT, black_box(&path)));
    }
    let per = t.elapsed() / n;
    let d = robots.decide(Reading::Google, AGENT, &path);
    println!(
        "100 `*` against a 16 KiB path: {:.1} µs per decision (allowed: {})",
        per.as_secs_f64() * 1e6,
        d.allowed
    );
    for (name, bytes) in hard_files() {
        let t = Instant::now();
        let robots = RobotsTxt::parse(&bytes);
        let a = black_box(robots_explorer::analysis::analyze(&robots));
        println!(
            "parse and analyse {name} ({} bytes): {:.0} ms, {} diagnostics",
            bytes.len(),
            t.elapsed().as_secs_f64() * 1e3,
            a.diagnostics.len()
        );
    }
}

/// The in-process loop of [`whole_process`]: list and sort the files of `dir`, read each and
/// decide `url` for [`AGENT`], on one thread. Run in a child process of the benchmark itself
/// (`ROBOTS_BENCH_LOOP_DIR`), so that both sides pay the same process start.
fn in_process_loop(dir: &std::path::Path, url: &str) -> usize {
    let profile = Profile {
        tokens: &[AGENT],
        obeys_global: true,
    };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    paths
        .iter()
        .filter(|p| {
            let b = std::fs::read(p).unwrap();
            decide_url_once(black_box(&b), Reading::Google, &profile, url).allowed
        })
        .count()
}

/// The whole `check` process on one thread (start, walk, read, decide, print) against the
/// same work in process ([`in_process_loop`], in a child process too), interleaved, median of
/// 15 runs each: what the command adds to the engine.
fn whole_process() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/files");
    let exe = env!("CARGO_BIN_EXE_robots-explorer");
    let url = "/search/help?q=1";
    let me = std::env::current_exe().expect("the benchmark's own path");
    let time = |c: &mut std::process::Command| {
        let t = Instant::now();
        let status = c
            .stdout(std::process::Stdio::null())
            .status()
            .expect("runs");
        assert!(status.success() || status.code() == Some(1), "{status}");
        t.elapsed().as_secs_f64()
    };
    let (mut process, mut in_process) = (Vec::new(), Vec::new());
    for _ in 0..15 {
        process.push(time(
            std::process::Command::new(exe)
                .args(["check", "--agent", AGENT, "--url", url])
                .arg(&dir)
                .env("RAYON_NUM_THREADS", "1"),
        ));
        in_process.push(time(
            std::process::Command::new(&me).env("ROBOTS_BENCH_LOOP_DIR", &dir),
        ));
    }
    // `lint` of the whole corpus, every diagnostic in both readings, on one thread (its wall
    // time is its CPU time): as text, which checks the fixes of the findings it prints in
    // full, and as JSON, which checks every fix. Interleaved.
    let (mut lint, mut lint_json) = (Vec::new(), Vec::new());
    for _ in 0..5 {
        for (format, times) in [("text", &mut lint), ("json", &mut lint_json)] {
            times.push(time(
                std::process::Command::new(exe)
                    .args(["lint", "--min-severity", "info", "--format", format])
                    .arg(&dir)
                    .env("RAYON_NUM_THREADS", "1"),
            ));
        }
    }
    println!(
        "`RAYON_NUM_THREADS=1 robots-explorer lint --min-severity info` over the corpus: {:.2} s \
         (`--format json`, every fix checked: {:.2} s)",
        median(lint),
        median(lint_json)
    );
    let (p, l) = (median(process), median(in_process));
    println!(
        "`RAYON_NUM_THREADS=1 robots-explorer check --agent {AGENT} --url {url}` over the corpus: \
         {:.1} ms; a process that reads and decides the same files in a plain loop: {:.1} ms \
         ({:.2}x)",
        p * 1e3,
        l * 1e3,
        p / l
    );
}

fn main() {
    if let Some(dir) = std::env::var_os("ROBOTS_BENCH_LOOP_DIR") {
        black_box(in_process_loop(
            std::path::Path::new(&dir),
            "/search/help?q=1",
        ));
        return;
    }
    let corpus = load();
    if std::env::var_os("ROBOTS_BENCH_QUICK").is_none() {
        let mut c = Criterion::default()
            .sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(5))
            .configure_from_args();
        {
            let mut g = c.benchmark_group("corpus parse and decide");
            g.throughput(Throughput::Bytes(corpus.total as u64));
            for (name, run) in RUNNERS {
                g.bench_with_input(BenchmarkId::from_parameter(name), &corpus, |b, c| {
                    b.iter(|| run(c))
                });
            }
            g.finish();
        }
        let (robots, path) = many_stars();
        c.bench_function("100 stars against a 16 KiB path", |b| {
            b.iter(|| robots.decide(Reading::Google, AGENT, black_box(&path)))
        });
        for (name, bytes) in hard_files() {
            c.bench_function(&format!("parse and analyse {name}"), |b| {
                b.iter(|| robots_explorer::analysis::analyze(&RobotsTxt::parse(black_box(&bytes))))
            });
        }
        c.final_summary();
    }
    table(&corpus);
}
