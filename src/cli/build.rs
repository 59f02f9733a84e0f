//! The `build` subcommand: the demo audit site of `fixtures/hosts/` and the guide, in one
//! cross-linked site.
//!
//! Layout of the output folder: the audit site at the root (written by [`crate::report`]), the
//! guide in `guide/`. Each diagnostic page of the audit site links to the chapters that explain
//! it (the chapters' `diagnostics:` front matter); the chapters' `host:` and `diagnostic:` links
//! and the listings of their examples go to the audit site's pages. The whole folder is built
//! beside the output and moved into place only when everything, including the check of every
//! internal link and anchor, has succeeded.

use super::{EXIT_ERROR, EXIT_FINDINGS, EXIT_OK};
use crate::guide::{self, Links, Options};
use crate::report::{self, Config, NoProgress};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use time::OffsetDateTime;

/// Arguments of `build`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Directory of demo hosts: `<host>.txt` files and optional `<host>.yaml` sidecars.
    #[arg(long, default_value = "fixtures/hosts")]
    pub hosts: PathBuf,
    /// Directory of guide chapters.
    #[arg(long, default_value = "content")]
    pub content: PathBuf,
    /// Output folder; replaced as a whole once the build has succeeded.
    #[arg(long, default_value = "site")]
    pub out: PathBuf,
    /// Directory of the data the guide's generated figures are drawn from.
    #[arg(long, default_value = "fixtures/guide")]
    pub data: PathBuf,
    /// The time cache ages are computed at (RFC 3339). Default: `SOURCE_DATE_EPOCH` when set,
    /// else the latest `fetched_at` of the sidecars in `--hosts`, so the demo site does not
    /// depend on the clock.
    #[arg(long)]
    pub now: Option<String>,
}

/// The latest attempt time (`fetched_at`) recorded by the sidecars of `hosts`.
fn latest_attempt(hosts: &Path) -> Option<OffsetDateTime> {
    let found = report::discover::discover(
        hosts,
        &crate::select::WalkFilter::default(),
        &std::env::temp_dir(),
    )
    .ok()?;
    found
        .hosts
        .inputs()
        .filter_map(|h| h.ok()?.sidecar?.ok()?.fetched_at.clone())
        .filter_map(|t| report::sidecar::parse_time(&t).ok())
        .max()
}

/// The time the demo site is computed at: `--now`, else `SOURCE_DATE_EPOCH`, else the latest
/// sidecar attempt, else the clock.
fn demo_now(args: &Args) -> Result<OffsetDateTime, String> {
    if let Some(n) = &args.now {
        return report::sidecar::parse_time(n).map_err(|e| format!("--now: {e}"));
    }
    if std::env::var_os("SOURCE_DATE_EPOCH").is_some() {
        return report::default_now();
    }
    match latest_attempt(&args.hosts) {
        Some(t) => Ok(t),
        None => report::default_now(),
    }
}

/// Pages of the audit site, relative to the guide's folder (`guide/`).
fn audit_links(hosts: &Path) -> Result<Links, String> {
    let found = report::discover::discover(
        hosts,
        &crate::select::WalkFilter::default(),
        &std::env::temp_dir(),
    )
    .map_err(|e| format!("{}: {e}", hosts.display()))?;
    let input = hosts;
    let hosts = &found.hosts;
    let host_pages: BTreeMap<String, String> = (0..hosts.len())
        .map(|i| {
            Ok((
                hosts.host(i)?,
                format!("../hosts/{}.html", hosts.page_stem(i)?),
            ))
        })
        .collect::<std::io::Result<_>>()
        .map_err(|e| format!("{}: {e}", input.display()))?;
    let diagnostics: BTreeMap<String, String> = crate::analysis::catalogue()
        .iter()
        .map(|e| {
            (
                e.name.to_string(),
                format!("../diagnostics/{}.html", report::names::slug(e.name)),
            )
        })
        .collect();
    Ok(Links {
        hosts: Some(host_pages),
        diagnostics: Some(diagnostics),
        diagnostic_template: Some("../diagnostics/{name}.html".to_string()),
        audit_home: Some("../index.html".to_string()),
    })
}

/// Runs `build`; returns the exit status: 0; 1 when the guide's checks or links fail; 2 for
/// usage and I/O errors, or when the audit site cannot be written.
pub fn run(args: Args) -> u8 {
    let fail = |e: String| {
        crate::eprintln_lossy!("robots-explorer build: {e}");
        EXIT_ERROR
    };
    if let Err(e) = guide::check_replaceable(&args.out, report::MARKER) {
        return fail(e);
    }
    for (flag, dir) in [("--content", &args.content), ("--hosts", &args.hosts)] {
        if let Err(e) = super::guide::input_dir(flag, dir) {
            return fail(e);
        }
    }
    let now = match demo_now(&args) {
        Ok(n) => n,
        Err(e) => return fail(e),
    };
    let content = match guide::load::load(&args.content) {
        Ok(c) => c,
        Err(problems) => {
            for p in &problems {
                crate::eprintln_lossy!("{p}");
            }
            return EXIT_FINDINGS;
        }
    };
    let links = match audit_links(&args.hosts) {
        Ok(l) => l,
        Err(e) => return fail(e),
    };
    let opts = Options {
        content: args.content.clone(),
        data: args.data.clone(),
        links,
        extra_css: Vec::new(),
        allow_pending: false,
    };
    // The guide first: a failing check stops the build before anything is written.
    let g = match guide::build_content(content, &opts) {
        Ok(g) => g,
        Err(f) => {
            super::guide::report_failure("build", &f, opts.allow_pending);
            return EXIT_FINDINGS;
        }
    };
    super::guide::warn_pending("build", &g);

    let staging = match guide::staging_dir(&args.out) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let root = staging.path().join("site");
    let mut config = Config::new(&args.hosts, &root, now);
    config.guide = Some("guide/index.html".to_string());
    config.diagnostic_guide_links = guide::explained_by(&g.content)
        .into_iter()
        .map(|(name, chapters)| {
            let links = chapters
                .into_iter()
                .map(|(page, title)| (title, format!("guide/{page}")))
                .collect();
            (name, links)
        })
        .collect();
    let summary = match report::run(&config, &NoProgress) {
        Ok(s) => s,
        Err(e) => return fail(format!("the audit site: {e}")),
    };
    if let Err(e) = guide::write_files(&root.join("guide"), &g.files) {
        return fail(e);
    }
    let broken = guide::verify_html_links(&root);
    if !broken.is_empty() {
        for p in &broken {
            let rel = p.file.strip_prefix(&root).unwrap_or(&p.file);
            crate::eprintln_lossy!("{}: {}", args.out.join(rel).display(), p.message);
        }
        crate::eprintln_lossy!(
            "robots-explorer build: {} broken link(s) in the produced site",
            broken.len()
        );
        return EXIT_FINDINGS;
    }
    if let Err(e) = guide::replace_dir(&root, &args.out, report::MARKER) {
        return fail(e);
    }
    crate::eprintln_lossy!(
        "robots-explorer build: audit site of {} hosts at {}, and the guide: {} → {}",
        summary.totals.hosts,
        report::sidecar::format_time(now),
        super::guide::summary(&g),
        args.out.display()
    );
    EXIT_OK
}
