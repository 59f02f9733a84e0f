//! Memory used to lint hostile files, measured with a counting global allocator.
//!
//! This file holds a single test, so nothing else allocates while it measures. Each input is
//! 512,000 bytes (the parsing limit) of one line shape repeated: blank lines, lone CRs, colons
//! without a field, junk words, user-agent lines, rules, wildcard rules, one-rule groups. The
//! test lints each as `lint` does (diagnostics in both readings, fixes checked, no
//! explanations) and asserts that the peak of live heap bytes stays under 48 MiB, so that the
//! process stays under 64 MB with the binary itself.

use robots_explorer::RobotsTxt;

mod counting;
use counting::peak_during;

#[test]
fn linting_any_file_within_the_parsing_limit_stays_small() {
    const LIMIT: usize = 512_000;
    let shapes: &[(&str, &[u8])] = &[
        ("blank lines", b"\n"),
        ("lone CRs", b"\r"),
        ("colons without a field", b":\n"),
        ("junk words", b"x\n"),
        ("user-agent lines", b"User-agent: a\n"),
        ("rules", b"Disallow: /a\n"),
        ("wildcard rules", b"Disallow: /*a*b*\n"),
        ("one-rule groups", b"User-agent: a\nDisallow: /x\n"),
        (
            "invalid tokens",
            b"User-agent: 360Spider/1.0\nDisallow: /\n",
        ),
    ];
    for (what, unit) in shapes {
        let input: Vec<u8> = unit.repeat(LIMIT / unit.len());
        let (n, peak) = peak_during(|| {
            let robots = RobotsTxt::parse(&input);
            robots_explorer::analysis::diagnose(&robots).len()
        });
        eprintln!(
            "{what}: {} bytes, {n} diagnostics, peak {:.1} MiB",
            input.len(),
            peak as f64 / (1 << 20) as f64
        );
        assert!(
            peak < 48 << 20,
            "{what}: peak {peak} bytes while linting {} bytes",
            input.len()
        );
    }
}
