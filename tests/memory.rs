//! Memory used to parse a large file, measured with a counting global allocator.
//!
//! This file holds a single test, so nothing else allocates while it measures. It parses a
//! 4 MB file built from real rules, builds both readings and decides one URL, and reports
//! the peak of live heap bytes during that work. The bound is a small multiple of the input:
//! only the first 512,000 bytes (the parsing limit) become lines, and the rest is one node.

use robots_explorer::decode::PARSING_LIMIT;
use robots_explorer::{Reading, RobotsTxt};

mod counting;
use counting::peak_during;

/// A file of `size` bytes made of rule-heavy groups, like large real files.
fn big_file(size: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(size + 64);
    let mut i = 0;
    while out.len() < size {
        if i % 50 == 0 {
            out.extend_from_slice(format!("\nUser-agent: {}\n", token(i / 50)).as_bytes());
        }
        out.extend_from_slice(format!("Disallow: /section-{i}/*/page-{i}.html$\n").as_bytes());
        out.extend_from_slice(format!("Allow: /section-{i}/public/ # open\n").as_bytes());
        i += 1;
    }
    out.truncate(size);
    out
}

/// A product token (letters only) for group `n`: `bot-a`, `bot-b`, …, `bot-ba`, ….
fn token(mut n: usize) -> String {
    let mut letters = Vec::new();
    loop {
        letters.push(b'a' + (n % 26) as u8);
        n /= 26;
        if n == 0 {
            break;
        }
    }
    letters.reverse();
    format!("bot-{}", String::from_utf8(letters).unwrap())
}

/// A 4 MB file parses (source and lossless tree) and answers a decision in the Google
/// reading within twice its size; the one-pass decision needs almost nothing beyond the input.
fn a_4_mb_file_parses_and_decides_within_twice_its_size() {
    let size = 4_000_000;
    let input = big_file(size);
    let (_, parse) = peak_during(|| RobotsTxt::parse(&input));
    let (_, one_reading) = peak_during(|| {
        let robots = RobotsTxt::parse(&input);
        robots
            .decide(Reading::Google, &token(1), "/section-51/x/page-51.html")
            .allowed
    });
    let (_, one_pass) = peak_during(|| {
        robots_explorer::decide_url_once(
            &input,
            Reading::Google,
            &robots_explorer::decide::Profile {
                tokens: &[&token(1)],
                obeys_global: true,
            },
            "/section-51/x/page-51.html",
        )
        .allowed
    });
    eprintln!(
        "{size} bytes: parse peak {parse} ({:.2} x), parse and decide in the Google reading \
         {one_reading} ({:.2} x), one-pass decision {one_pass} bytes",
        parse as f64 / size as f64,
        one_reading as f64 / size as f64
    );
    assert!(parse <= 2 * size, "parse peak {parse}");
    assert!(
        one_reading <= 2 * size,
        "parse and decide peak {one_reading}"
    );
    assert!(one_pass <= 64 * 1024, "one-pass peak {one_pass}");
}

#[test]
fn parse_memory_is_a_small_multiple_of_the_input() {
    // One test, measuring in turn: tests of one binary run in parallel and share the counter.
    a_4_mb_file_parses_and_decides_within_twice_its_size();
    for size in [4_000_000, PARSING_LIMIT] {
        let input = big_file(size);
        let ((robots, allowed), peak) = peak_during(|| {
            let robots = RobotsTxt::parse(&input);
            let _ = robots.policy(Reading::Google);
            let _ = robots.policy(Reading::Rfc9309);
            let allowed = robots.decide(Reading::Google, &token(1), "/section-51/x/page-51.html");
            (robots, allowed.allowed)
        });
        assert!(!allowed);
        let parsed = size.min(PARSING_LIMIT);
        let ratio = peak as f64 / size as f64;
        eprintln!(
            "{size} bytes ({} lines parsed): peak {peak} bytes = {ratio:.2} x input, {:.1} x the parsed part",
            robots.tree.lines.len(),
            (peak - size) as f64 / parsed as f64,
        );
        // The source copy, plus the tree and two policies for at most 512,000 bytes.
        assert!(
            peak <= size + 40 * parsed,
            "peak {peak} bytes for {size} bytes of input"
        );
        if size >= 8 * PARSING_LIMIT {
            assert!(ratio < 4.0, "{ratio:.2} x input");
        }
    }
}
