//! The `guide` subcommand: build the teaching site from Markdown chapters.

use super::{EXIT_ERROR, EXIT_FINDINGS, EXIT_OK};
use crate::guide::{self, Failure, Guide, Options};
use std::path::PathBuf;

/// Arguments of `guide`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Directory of chapters (`NN-slug.md`), `glossary.md` and `index.md`.
    #[arg(long, default_value = "content")]
    pub content: PathBuf,
    /// Output directory; replaced as a whole once the build has succeeded.
    #[arg(long, default_value = "site/guide")]
    pub out: PathBuf,
    /// Directory of the data generated figures are drawn from (`outcomes.yaml`,
    /// `redirect-chain.yaml`, `cache.yaml`).
    #[arg(long, default_value = "fixtures/guide")]
    pub data: PathBuf,
    /// Print the result of every robots-check, one line each.
    #[arg(long)]
    pub list_checks: bool,
}

/// The hint printed when an input directory of `guide` or `build` cannot be read.
pub const LAYOUT_HINT: &str = "hint: run from the root of the robots-explorer repository, which \
holds `content/` (the guide's chapters), `fixtures/hosts/` (the demo hosts) and `fixtures/guide/` \
(the data of generated figures), or give their places with --content, --hosts and --data";

/// Checks that the input directory `dir`, given with the option `flag` (e.g. `--content`), is
/// a directory that can be listed.
///
/// # Errors
/// A message naming the flag, the path and the I/O error (or that it is not a directory),
/// followed by [`LAYOUT_HINT`] on a second line. Callers exit with status 2.
pub fn input_dir(flag: &str, dir: &std::path::Path) -> Result<(), String> {
    let problem = match std::fs::metadata(dir) {
        Err(e) => Some(e.to_string()),
        Ok(m) if !m.is_dir() => Some("not a directory".to_string()),
        Ok(_) => std::fs::read_dir(dir).err().map(|e| e.to_string()),
    };
    match problem {
        None => Ok(()),
        Some(p) => Err(format!(
            "{flag} {}: cannot read the directory: {p}\n{LAYOUT_HINT}",
            dir.display()
        )),
    }
}

/// Prints problems and pending items of a failed build to stderr.
pub fn report_failure(command: &str, f: &Failure, allow_pending: bool) {
    for p in &f.problems {
        crate::eprintln_lossy!("{p}");
    }
    if !allow_pending {
        for p in &f.pending {
            crate::eprintln_lossy!("{p}");
        }
        if let Some(first) = f.unverified.first() {
            crate::eprintln_lossy!(
                "{first} (and {} more diagnostic names in links and front matter)",
                f.unverified.len() - 1
            );
        }
    }
    let mut parts = vec![format!("{} problem(s)", f.problems.len())];
    if !allow_pending && (!f.pending.is_empty() || !f.unverified.is_empty()) {
        parts.push(format!(
            "{} pending check(s) and {} diagnostic name(s) that this build's analysis cannot \
             verify",
            f.pending.len(),
            f.unverified.len()
        ));
    }
    crate::eprintln_lossy!(
        "robots-explorer {command}: the guide did not build: {}",
        parts.join(", ")
    );
}

/// Prints a warning about what a build with `--allow-pending-diagnostics` did not verify.
pub fn warn_pending(command: &str, g: &Guide) {
    if g.pending.is_empty() && g.unverified.is_empty() {
        return;
    }
    for p in &g.pending {
        crate::eprintln_lossy!("{p}");
    }
    crate::eprintln_lossy!(
        "robots-explorer {command}: WARNING: {} diagnostic check(s) and {} diagnostic name(s) \
         were NOT verified (this build's analysis has no diagnostics)",
        g.pending.len(),
        g.unverified.len()
    );
}

/// Prints one line per check: `PASS`, `FAIL` or `PENDING`, file, line, expectation.
pub fn list_checks(checks: &[(String, guide::render::CheckRecord)]) {
    for (name, c) in checks {
        {
            let (status, detail) = match &c.checked.outcome {
                guide::checks::Outcome::Pass => ("PASS", String::new()),
                guide::checks::Outcome::Fail { message } => ("FAIL", format!(" — {message}")),
                guide::checks::Outcome::Pending { message } => ("PENDING", format!(" — {message}")),
            };
            crate::println_lossy!(
                "{status}\t{}:{}\t{}{detail}",
                name,
                c.line,
                c.checked.expectation.describe()
            );
        }
    }
}

/// One line of counts.
pub fn summary(g: &Guide) -> String {
    let s = &g.stats;
    format!(
        "{} pages ({} chapters), {} checks passed of {} ({} decisions, {} diagnostics{}), {} \
         robots.txt examples, {} figures, {} self-check questions, {} internal links",
        s.pages,
        s.chapters,
        s.passed,
        s.checks,
        s.decision_checks,
        s.diagnostic_checks,
        if s.pending > 0 {
            format!("; {} PENDING", s.pending)
        } else {
            String::new()
        },
        s.robots_blocks,
        s.figures,
        s.questions,
        s.links
    )
}

/// Runs `guide`; returns the exit status: 0, 1 when a check, link or figure fails, 2 for I/O
/// errors.
pub fn run(args: Args) -> u8 {
    if let Err(e) = input_dir("--content", &args.content) {
        crate::eprintln_lossy!("robots-explorer guide: {e}");
        return EXIT_ERROR;
    }
    let opts = Options {
        content: args.content,
        data: args.data,
        links: guide::Links::default(),
        extra_css: Vec::new(),
        allow_pending: false,
    };
    if let Err(e) = guide::check_replaceable(&args.out, guide::GUIDE_MARKER) {
        crate::eprintln_lossy!("robots-explorer guide: {e}");
        return EXIT_ERROR;
    }
    let built = guide::build(&opts);
    let g = match built {
        Ok(g) => g,
        Err(f) => {
            if args.list_checks {
                list_checks(&f.checks);
            }
            report_failure("guide", &f, opts.allow_pending);
            return EXIT_FINDINGS;
        }
    };
    if args.list_checks {
        list_checks(&g.checks());
    }
    warn_pending("guide", &g);
    let staging = match guide::staging_dir(&args.out) {
        Ok(s) => s,
        Err(e) => {
            crate::eprintln_lossy!("robots-explorer guide: {e}");
            return EXIT_ERROR;
        }
    };
    if let Err(e) = guide::write_files(staging.path(), &g.files) {
        crate::eprintln_lossy!("robots-explorer guide: {e}");
        return EXIT_ERROR;
    }
    let broken = guide::verify_html_links(staging.path());
    if !broken.is_empty() {
        for p in &broken {
            let rel = p.file.strip_prefix(staging.path()).unwrap_or(&p.file);
            crate::eprintln_lossy!("{}: {}", args.out.join(rel).display(), p.message);
        }
        crate::eprintln_lossy!(
            "robots-explorer guide: {} broken link(s) in the produced pages",
            broken.len()
        );
        return EXIT_FINDINGS;
    }
    if let Err(e) = guide::commit(staging, &args.out) {
        crate::eprintln_lossy!("robots-explorer guide: {e}");
        return EXIT_ERROR;
    }
    crate::eprintln_lossy!(
        "robots-explorer guide: {} → {}",
        summary(&g),
        args.out.display()
    );
    EXIT_OK
}
