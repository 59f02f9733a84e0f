//! Memory used to lint hostile files, measured with a counting global allocator.
//!
//! This file holds a single test, so nothing else allocates while it measures. Each input is
//! 512,000 bytes (the parsing limit) of one line shape repeated: blank lines, lone CRs, colons
//! without a field, junk words, user-agent lines, rules, wildcard rules, one-rule groups. The
//! test lints each as `lint` does (diagnostics in both readings, fixes checked, no
//! explanations) and asserts that the peak of live heap bytes stays under 48 MiB, so that the
//! process stays under 64 MB with the binary itself.

use robots_explorer::RobotsTxt;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                let grow = new_size - layout.size();
                let now = LIVE.fetch_add(grow, Ordering::Relaxed) + grow;
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Peak heap bytes above the starting level while `f` runs (what `f` keeps alive counts).
fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let out = f();
    (out, PEAK.load(Ordering::Relaxed) - base)
}

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
