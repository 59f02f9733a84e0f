//! The `build` subcommand: the demo audit site of `fixtures/hosts/` and the guide, in one
//! cross-linked site.
//!
//! Layout of the output directory: the audit site at the root (written by the report
//! pipeline), the guide in `guide/`. Diagnostic pages of the audit site link to the chapter
//! that explains them (the chapters' `diagnostics:` front matter); the chapters' `host:` and
//! `diagnostic:` links go to the audit site's pages.

use super::{EXIT_ERROR, EXIT_FINDINGS, EXIT_OK};
use crate::guide::{self, Links, Options};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Arguments of `build`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Directory of demo hosts: `<host>.txt` files and optional `<host>.yaml` sidecars.
    #[arg(long, default_value = "fixtures/hosts")]
    pub hosts: PathBuf,
    /// Directory of guide chapters.
    #[arg(long, default_value = "content")]
    pub content: PathBuf,
    /// Output directory; replaced as a whole once the build has succeeded.
    #[arg(long, default_value = "site")]
    pub out: PathBuf,
    /// Directory of the data generated figures are drawn from.
    #[arg(long, default_value = "fixtures/guide")]
    pub data: PathBuf,
    /// Temporary, for builds whose analysis has no diagnostics yet: see `guide --help`.
    #[arg(long)]
    pub allow_pending_diagnostics: bool,
}

/// The pages of the audit site the guide links to, as paths relative to the site root.
#[derive(Clone, Debug, Default)]
pub struct AuditSite {
    /// The home page.
    pub home: String,
    /// Demo host name → page.
    pub hosts: BTreeMap<String, String>,
    /// Diagnostic name → page.
    pub diagnostics: BTreeMap<String, String>,
    /// Stylesheets the guide should load too (for the shared listing classes).
    pub stylesheets: Vec<String>,
}

/// Writes the audit site of `hosts` into `dir` (the site root), with each diagnostic page
/// linking to `explained_by[name]` (a path relative to the site root).
///
/// # Errors
/// A message when the audit site cannot be written.
pub fn write_audit_site(
    hosts: &Path,
    dir: &Path,
    explained_by: &BTreeMap<String, String>,
) -> Result<AuditSite, String> {
    let _ = (hosts, dir, explained_by);
    Err(
        "the audit site cannot be built: the report pipeline (`crate::report`) is not part of \
         this build yet"
            .into(),
    )
}

/// Runs `build`; returns the exit status: 0, 1 when the guide's checks or links fail, 2 for
/// I/O errors or when the audit site cannot be built.
pub fn run(args: Args) -> u8 {
    let content = match guide::load::load(&args.content) {
        Ok(c) => c,
        Err(problems) => {
            for p in &problems {
                eprintln!("{p}");
            }
            return EXIT_FINDINGS;
        }
    };
    let explained: BTreeMap<String, String> = guide::explained_by(&content)
        .into_iter()
        .map(|(name, (page, _))| (name, format!("guide/{page}")))
        .collect();
    let staging = match guide::staging_dir(&args.out) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("robots-explorer build: {e}");
            return EXIT_ERROR;
        }
    };
    let audit = match write_audit_site(&args.hosts, staging.path(), &explained) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("robots-explorer build: {e}");
            return EXIT_ERROR;
        }
    };
    let up = |p: &String| format!("../{p}");
    let opts = Options {
        content: args.content.clone(),
        data: args.data,
        links: Links {
            hosts: Some(
                audit
                    .hosts
                    .iter()
                    .map(|(k, v)| (k.clone(), up(v)))
                    .collect(),
            ),
            diagnostics: Some(
                audit
                    .diagnostics
                    .iter()
                    .map(|(k, v)| (k.clone(), up(v)))
                    .collect(),
            ),
            audit_home: Some(up(&audit.home)),
        },
        extra_css: audit.stylesheets.iter().map(up).collect(),
        allow_pending: args.allow_pending_diagnostics,
    };
    let g = match guide::build_content(content, &opts) {
        Ok(g) => g,
        Err(f) => {
            super::guide::report_failure("build", &f, opts.allow_pending);
            return EXIT_FINDINGS;
        }
    };
    super::guide::warn_pending("build", &g);
    if let Err(e) = guide::write_files(&staging.path().join("guide"), &g.files) {
        eprintln!("robots-explorer build: {e}");
        return EXIT_ERROR;
    }
    let broken = guide::verify_html_links(staging.path());
    if !broken.is_empty() {
        for p in &broken {
            let rel = p.file.strip_prefix(staging.path()).unwrap_or(&p.file);
            eprintln!("{}: {}", args.out.join(rel).display(), p.message);
        }
        eprintln!(
            "robots-explorer build: {} broken link(s) in the produced site",
            broken.len()
        );
        return EXIT_FINDINGS;
    }
    if let Err(e) = guide::commit(staging, &args.out) {
        eprintln!("robots-explorer build: {e}");
        return EXIT_ERROR;
    }
    eprintln!(
        "robots-explorer build: audit site of {} hosts and the guide ({}) → {}",
        audit.hosts.len(),
        super::guide::summary(&g),
        args.out.display()
    );
    EXIT_OK
}
