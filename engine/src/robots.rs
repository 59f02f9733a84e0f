//! The parsed file: source, tree, and the meaning in each reading.

use crate::Reading;
use crate::decide::Decision;
use crate::decode::Source;
use crate::groups::Policy;
use crate::syntax::Tree;
use std::sync::OnceLock;

/// A parsed robots.txt file.
///
/// Holds the decoded [`Source`], the lossless [`Tree`], and, computed on first use, the
/// [`Policy`] (records, groups, sitemaps) of each [`Reading`].
#[derive(Debug)]
pub struct RobotsTxt {
    /// The decoded source; spans in the tree and policies index into `source.bytes`.
    pub source: Source,
    /// The lossless syntax tree.
    pub tree: Tree,
    google: OnceLock<Policy>,
    rfc: OnceLock<Policy>,
}

impl RobotsTxt {
    /// Parses bytes. Never fails and never panics; what cannot be understood is kept in the tree
    /// and reported by the analysis.
    pub fn parse(input: &[u8]) -> RobotsTxt {
        let mut source = Source::decode(input);
        let mut tree = Tree::parse(&source.bytes, source.bom_len);
        if source.is_utf16() {
            // Google's parser reads the raw bytes. They normally hold no field (a NUL follows
            // each ASCII letter), and the Google reading is then empty; a crafted file whose raw
            // bytes do spell fields is read raw in both readings, so that decisions stay
            // Googlebot's.
            let raw = Source::undecoded(input);
            let raw_tree = Tree::parse(&raw.bytes, raw.bom_len);
            let policy = Policy::build(&raw.bytes, &raw_tree, Reading::Google);
            if !policy.groups.is_empty() || !policy.sitemaps.is_empty() {
                source = Source {
                    utf16_kept_raw: true,
                    ..raw
                };
                tree = raw_tree;
            }
        }
        RobotsTxt {
            source,
            tree,
            google: OnceLock::new(),
            rfc: OnceLock::new(),
        }
    }

    /// Parses the first bytes of a longer input, read with a cap on memory (see
    /// [`crate::read`]). `total` is the whole input's size in bytes when known. Decisions are
    /// the same as for the whole input as long as `input` covers the parsing limit
    /// (512,000 bytes, RFC 9309 §2.5); what is counted past the limit becomes a lower bound.
    pub fn parse_prefix(input: &[u8], total: Option<u64>) -> RobotsTxt {
        let mut r = RobotsTxt::parse(input);
        r.source.extent = crate::decode::Extent::Prefix { total };
        r
    }

    /// The source bytes the tree spans index into.
    pub fn bytes(&self) -> &[u8] {
        &self.source.bytes
    }

    /// The file's meaning in `reading` (built on first use, then cached).
    pub fn policy(&self, reading: Reading) -> &Policy {
        let cell = match reading {
            Reading::Google => &self.google,
            Reading::Rfc9309 => &self.rfc,
        };
        cell.get_or_init(|| {
            if self.source.is_utf16() {
                if reading == Reading::Google {
                    return Policy::empty(reading);
                }
            } else if reading == Reading::Rfc9309
                && let Some(google) = self.google.get()
            {
                // The Google reading, already built, has read every line: its records give
                // most of this reading's.
                return Policy::build_rfc_given_google(&self.source.bytes, &self.tree, google);
            }
            Policy::build(&self.source.bytes, &self.tree, reading)
        })
    }

    /// Whether crawler `agent` may fetch `url` in `reading`; see [`Policy::decide`].
    pub fn decide(&self, reading: Reading, agent: &str, url: &str) -> Decision {
        self.policy(reading).decide(agent, url)
    }

    /// Whether a crawler with `profile` may fetch `url` in `reading`; see [`Policy::decide_as`].
    pub fn decide_as(
        &self,
        reading: Reading,
        profile: &crate::decide::Profile,
        url: &str,
    ) -> Decision {
        self.policy(reading).decide_as(profile, url)
    }

    /// Whether a crawler with `profile` may fetch the request target `target` (a path and
    /// query as sent on the request line) in `reading`; see [`Policy::decide_target_as`].
    pub fn decide_target_as(
        &self,
        reading: Reading,
        profile: &crate::decide::Profile,
        target: &str,
    ) -> Decision {
        self.policy(reading).decide_target_as(profile, target)
    }

    /// The text of a span of the source for display (lossy for bytes that are not UTF-8).
    pub fn text(&self, span: crate::syntax::Span) -> std::borrow::Cow<'_, str> {
        self.source.display(span.start, span.end)
    }
}
