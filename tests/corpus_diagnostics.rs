//! The analysis over every file of the real corpus (`../shared/corpus/files`): no panic, every
//! diagnostic well formed, and a snapshot of how often each diagnostic name is reported, so that
//! any change in behaviour shows in review.

use rayon::prelude::*;
use robots_explorer::RobotsTxt;
use robots_explorer::analysis::{Readings, Severity, analyze, catalogue, entry};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

mod shared;

#[derive(Default, Clone, Copy)]
struct Count {
    total: usize,
    files: usize,
    error: usize,
    warning: usize,
    info: usize,
    google_only: usize,
    rfc_only: usize,
}

#[test]
fn corpus_counts() {
    let Some(dir) = shared::dir("corpus/files", "corpus_counts") else {
        return;
    };
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut paths: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    paths.sort();
    assert!(paths.len() > 4000, "the corpus has {} files", paths.len());
    let started = std::time::Instant::now();
    let per_file: Vec<Result<BTreeMap<&'static str, Count>, String>> = paths
        .par_iter()
        .map(|p| {
            let bytes = std::fs::read(p).unwrap();
            let result = std::panic::catch_unwind(|| {
                let robots = RobotsTxt::parse(&bytes);
                let a = analyze(&robots);
                let mut counts: BTreeMap<&'static str, Count> = BTreeMap::new();
                for d in &a.diagnostics {
                    assert!(
                        d.span.start <= d.span.end && d.span.end <= robots.bytes().len(),
                        "span out of range: {d:?}"
                    );
                    assert!(d.line >= 1 && d.column >= 1);
                    assert!((d.end_line, d.end_column) >= (d.line, d.column), "{d:?}");
                    // One name, one severity: the catalogue entry's.
                    assert_eq!(
                        Some(d.severity()),
                        entry(d.name).map(|e| e.severity),
                        "`{}` emitted with another severity than its catalogue entry's: {d:?}",
                        d.name
                    );
                    let c = counts.entry(d.name).or_default();
                    c.total += 1;
                    match d.severity() {
                        Severity::Error => c.error += 1,
                        Severity::Warning => c.warning += 1,
                        Severity::Info => c.info += 1,
                    }
                    match d.readings {
                        Readings::Google => c.google_only += 1,
                        Readings::Rfc => c.rfc_only += 1,
                        Readings::Both => {}
                    }
                }
                for c in counts.values_mut() {
                    c.files = 1;
                }
                assert!(
                    a.explanations.windows(2).all(|w| w[0].line < w[1].line),
                    "explanations out of order"
                );
                counts
            });
            result.map_err(|_| format!("panic on {}", p.display()))
        })
        .collect();
    let elapsed = started.elapsed();
    let mut panics = Vec::new();
    let mut total: BTreeMap<&'static str, Count> = BTreeMap::new();
    for r in per_file {
        match r {
            Err(e) => panics.push(e),
            Ok(m) => {
                for (k, c) in m {
                    let t = total.entry(k).or_default();
                    t.total += c.total;
                    t.files += c.files;
                    t.error += c.error;
                    t.warning += c.warning;
                    t.info += c.info;
                    t.google_only += c.google_only;
                    t.rfc_only += c.rfc_only;
                }
            }
        }
    }
    assert!(panics.is_empty(), "{}", panics.join("\n"));
    eprintln!("analysed {} files in {elapsed:?}", paths.len());
    // In catalogue order, every name, so that a name that stops firing shows too.
    let mut s = format!(
        "{} files\nname: reported (files) | error warning info | google-only rfc-only\n",
        paths.len()
    );
    for e in catalogue() {
        let c = total.get(e.name).copied().unwrap_or_default();
        let _ = writeln!(
            s,
            "{}: {} ({}) | {} {} {} | {} {}",
            e.name, c.total, c.files, c.error, c.warning, c.info, c.google_only, c.rfc_only
        );
    }
    insta::assert_snapshot!("corpus-diagnostic-counts", s);
}
