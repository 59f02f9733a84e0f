//! Fuzz target: parse any bytes, build both readings, decide, and analyse.
//!
//! The input is `[n][agent: n bytes][m][url: m bytes][robots.txt body]`; missing parts are
//! empty. Besides "no panic", it checks the lossless round trip: the nodes written back give
//! the source, and the source is the input unless the input was UTF-16.
//!
//! Run with `cargo fuzz run parse_decide` in this directory (needs a nightly toolchain).

#![no_main]

use libfuzzer_sys::fuzz_target;
use robots_explorer::decode::Encoding;
use robots_explorer::{Reading, RobotsTxt, analysis};

/// Splits off a length-prefixed piece.
fn piece(data: &[u8]) -> (&[u8], &[u8]) {
    match data.split_first() {
        Some((&n, rest)) => rest.split_at((n as usize).min(rest.len())),
        None => (&[], &[]),
    }
}

fuzz_target!(|data: &[u8]| {
    let (agent, rest) = piece(data);
    let (url, body) = piece(rest);
    let agent = String::from_utf8_lossy(agent);
    let url = String::from_utf8_lossy(url);

    let robots = RobotsTxt::parse(body);
    assert_eq!(robots.tree.write_back(robots.bytes()), robots.bytes());
    if !matches!(
        robots.source.encoding,
        Encoding::Utf16Le | Encoding::Utf16Be
    ) {
        assert_eq!(robots.bytes(), body);
    }
    for reading in Reading::ALL {
        let _ = robots.policy(reading);
        let d = robots.decide(reading, &agent, &url);
        if let Some(rule) = &d.rule {
            assert!(rule.line >= 1 && rule.line <= robots.tree.lines.len());
        }
    }
    let _ = analysis::analyze(&robots);
});
