//! The robots.txt engine of robots-explorer: read, match and explain robots.txt files, in the
//! Google reading (what google/robotstxt, Googlebot's parser, does) and the strict RFC 9309
//! reading. Pure computation: no I/O, no HTML, no threads; it builds for
//! `wasm32-unknown-unknown`.
//!
//! The engine is a pipeline, one stage per module:
//!
//! 1. [`decode`]: raw bytes → decoded source (byte order mark, UTF-16, invalid UTF-8,
//!    the 512,000-byte parsing limit of RFC 9309 §2.5).
//! 2. [`syntax`]: source → a lossless tree of lines and nodes; every byte belongs to one node.
//! 3. [`fields`]: lines → records (user-agent, allow, disallow, sitemap, other), per [`Reading`].
//! 4. [`groups`]: records → groups of rules (RFC 9309 §2.1, §2.2.1).
//! 5. [`pattern`] and [`decide`]: rules + crawler + URL → a [`decide::Decision`] (RFC 9309 §2.2.2–§2.2.3);
//!    [`request`] turns a URL typed by a person into the request target a client sends.
//!
//! Beside the pipeline: [`analysis`] (diagnostics and explanations), [`compare`] (what a change
//! to a file does), [`crawlers`] (known
//! crawler profiles), [`fetch`] (what the HTTP exchange of a robots.txt fetch means,
//! RFC 9309 §2.3.1 and §2.4) and [`text`] (numbers and durations in words).
//!
//! ```
//! use robots_explorer_engine::{RobotsTxt, Reading};
//! let robots = RobotsTxt::parse(b"User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n");
//! let d = robots.decide(Reading::Google, "Googlebot", "/wp-admin/admin-ajax.php");
//! assert!(d.allowed);
//! assert_eq!(d.rule.unwrap().line, 3);
//! ```

#![warn(missing_docs)]

pub mod analysis;
pub mod compare;
pub mod crawlers;
pub mod decide;
pub mod decode;
pub mod fetch;
pub mod fields;
pub mod groups;
pub mod one_pass;
pub mod pattern;
pub mod request;
pub mod syntax;
pub mod text;

mod robots;

pub use decide::{Decision, Reason};
pub use one_pass::{decide_once, decide_url_once};
pub use robots::RobotsTxt;

/// Which reading of a robots.txt file to apply.
///
/// The two readings differ where Google's open-source parser (google/robotstxt, what
/// Googlebot runs) is more lenient than RFC 9309 or normalises URLs differently.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Reading {
    /// google/robotstxt: typo-tolerant keys, missing colons, token prefix of user-agent values,
    /// no percent-decoding, no special case for `/robots.txt`.
    Google,
    /// Strict RFC 9309: exact field names with a colon, exact product tokens,
    /// percent-encoding normalised as §2.2.2 describes, `/robots.txt` always allowed.
    #[serde(rename = "rfc")]
    Rfc9309,
}

impl Reading {
    /// Both readings, Google first.
    pub const ALL: [Reading; 2] = [Reading::Google, Reading::Rfc9309];

    /// Short machine name: `google` or `rfc`.
    pub fn as_str(self) -> &'static str {
        match self {
            Reading::Google => "google",
            Reading::Rfc9309 => "rfc",
        }
    }

    /// Human label: `Google` or `RFC 9309`.
    pub fn label(self) -> &'static str {
        match self {
            Reading::Google => "Google",
            Reading::Rfc9309 => "RFC 9309",
        }
    }
}

impl std::fmt::Display for Reading {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Reading {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "google" => Ok(Reading::Google),
            "rfc" | "rfc9309" | "rfc-9309" => Ok(Reading::Rfc9309),
            other => Err(format!(
                "unknown reading `{other}` (expected `google` or `rfc`)"
            )),
        }
    }
}
