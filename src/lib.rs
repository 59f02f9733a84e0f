//! robots-explorer, the application: the command line (`check`, `lint`, `report`, `guide`,
//! `build`), audit reports of many hosts, the guide, and their HTML, JSON, SARIF and CSV
//! output.
//!
//! Everything that reads, matches and explains robots.txt is the engine crate,
//! [`robots_explorer_engine`]; its modules are re-exported here under the same names, so
//! that the application and its tests name them as `robots_explorer::decode` and so on.
//!
//! ```
//! use robots_explorer::{RobotsTxt, Reading};
//! let robots = RobotsTxt::parse(b"User-agent: *\nDisallow: /wp-admin/\n");
//! assert!(!robots.decide(Reading::Google, "Googlebot", "/wp-admin/").allowed);
//! ```

/// Like `eprintln!`, but a standard error that cannot be written (a closed pipe, a full disk)
/// is ignored instead of panicking: a message that cannot be shown must not stop the run.
#[macro_export]
macro_rules! eprintln_lossy {
    ($($arg:tt)*) => {{
        use ::std::io::Write as _;
        let _ = ::std::writeln!(::std::io::stderr(), $($arg)*);
    }};
}

/// Like `println!`, but a standard output that cannot be written (a closed pipe) is ignored
/// instead of panicking; commands whose output is their result check their writes instead.
#[macro_export]
macro_rules! println_lossy {
    ($($arg:tt)*) => {{
        use ::std::io::Write as _;
        let _ = ::std::writeln!(::std::io::stdout(), $($arg)*);
    }};
}

pub mod allocator;
pub mod cli;
pub mod diff;
pub mod guide;
pub mod html;
pub mod output;
pub mod read;
pub mod report;
pub mod select;
pub mod warc;

// The engine's modules, under the paths the application uses.
pub use robots_explorer_engine::{
    Decision, Reading, Reason, RobotsTxt, analysis, compare, crawlers, decide, decide_once,
    decide_url_once, decode, fetch, fields, groups, one_pass, pattern, request, syntax, text,
};
