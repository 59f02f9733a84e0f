//! Every check of `lint` over a folder of robots.txt files on one thread, timed per file: the
//! total, then the thirty slowest files with their size and number of diagnostics. For finding
//! where lint time goes (with `perf record`), not a benchmark:
//!
//! ```text
//! cargo build --release -p robots-explorer-engine --example diagnose
//! target/release/examples/diagnose ../shared/corpus/files
//! ```

use robots_explorer_engine::RobotsTxt;
use std::time::Instant;
fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: diagnose FOLDER");
        std::process::exit(2);
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut times = Vec::new();
    let t0 = Instant::now();
    for p in &files {
        let b = std::fs::read(p).unwrap();
        let t = Instant::now();
        let r = RobotsTxt::parse(&b);
        let d = robots_explorer_engine::analysis::diagnose(&r);
        times.push((
            t.elapsed().as_secs_f64() * 1e3,
            b.len(),
            d.len(),
            p.file_name().unwrap().to_string_lossy().into_owned(),
        ));
    }
    let total: f64 = times.iter().map(|t| t.0).sum();
    eprintln!(
        "total {:.1} ms wall {:.1}",
        total,
        t0.elapsed().as_secs_f64() * 1e3
    );
    times.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());
    let mut cum = 0.0;
    for (i, t) in times
        .iter()
        .take(
            std::env::var("DIAG_TOP")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(30),
        )
        .enumerate()
    {
        cum += t.0;
        println!(
            "{i:3} {:8.2} ms cum {:6.1}% {:8} B {:6} diags {}",
            t.0,
            cum / total * 100.0,
            t.1,
            t.2,
            t.3
        );
    }
}
