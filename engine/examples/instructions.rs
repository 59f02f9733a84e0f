//! One pass of parse-and-decide over a folder of robots.txt files, for counting instructions
//! with callgrind (deterministic, unlike timings on a shared machine):
//!
//! ```text
//! cargo build --release -p robots-explorer-engine --example instructions
//! valgrind --tool=callgrind --toggle-collect='instructions::pass*' --cache-sim=yes \
//!     target/release/examples/instructions ../shared/corpus/files [one-pass|one-pass-rfc|parsed]
//! ```
//!
//! Only `pass` is counted (reading the files is not): the collected total divided by the number
//! of files printed is the instructions per file. Each file gets one decision for Googlebot (in
//! the Google reading unless `one-pass-rfc`), the URLs taken in turn, as in the throughput
//! benchmark; `parsed` builds the tree and the policy first, as the reports do.

use robots_explorer_engine::decide::Profile;
use robots_explorer_engine::{Reading, RobotsTxt, decide_url_once};
use std::hint::black_box;

const URLS: [&str; 4] = [
    "https://example.com/",
    "https://example.com/wp-admin/admin-ajax.php",
    "https://example.com/search?q=robots&page=2",
    "https://example.com/products/item-1234.html",
];

#[inline(never)]
fn pass_one_pass(files: &[Vec<u8>], reading: Reading) -> usize {
    let profile = Profile {
        tokens: &["Googlebot"],
        obeys_global: true,
    };
    files
        .iter()
        .enumerate()
        .filter(|(i, b)| decide_url_once(black_box(b), reading, &profile, URLS[i % 4]).allowed)
        .count()
}

#[inline(never)]
fn pass_parsed(files: &[Vec<u8>]) -> usize {
    files
        .iter()
        .enumerate()
        .filter(|(i, b)| {
            RobotsTxt::parse(black_box(b))
                .decide(Reading::Google, "Googlebot", URLS[i % 4])
                .allowed
        })
        .count()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args
        .next()
        .unwrap_or_else(|| "../shared/corpus/files".into());
    let mode = args.next().unwrap_or_else(|| "one-pass".into());
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    paths.sort();
    let files: Vec<Vec<u8>> = paths.iter().filter_map(|p| std::fs::read(p).ok()).collect();
    let bytes: usize = files.iter().map(Vec::len).sum();
    let allowed = match mode.as_str() {
        "parsed" => pass_parsed(&files),
        "one-pass-rfc" => pass_one_pass(&files, Reading::Rfc9309),
        _ => pass_one_pass(&files, Reading::Google),
    };
    println!(
        "{mode}: {} files, {bytes} bytes, {allowed} allowed",
        files.len()
    );
}
