//! Stage 5: decisions (RFC 9309 §2.2.2; Google's documentation, "Order of precedence for rules").
//!
//! For a crawler's product token and a URL, the applicable groups are chosen
//! ([`Policy::groups_for`]), then among their rules that match the URL's path the one with the
//! longest pattern (in bytes, after normalisation) wins; when an allow and a disallow rule are
//! equally long, the allow wins. Empty patterns match nothing. With no applicable group or no
//! matching rule, the URL is allowed. In the RFC 9309 reading `/robots.txt` is always allowed.

use crate::Reading;
use crate::groups::{Group, Policy, Rule, RuleKind};
use crate::pattern::{Side, matches, normalize, path_params_query};

/// Why a decision came out the way it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// The deciding rule has the longest matching pattern.
    LongestMatch,
    /// An allow and a disallow rule matched with equally long patterns; the allow wins.
    AllowOnTie,
    /// The applicable groups have no rule matching the URL.
    NoMatchingRule,
    /// No group names the crawler and there is no `*` group.
    NoGroup,
    /// RFC 9309 §2.2.2: `/robots.txt` is always allowed.
    RobotsTxtAlwaysAllowed,
}

impl Reason {
    /// A short phrase, e.g. `longest match`.
    pub fn phrase(self) -> &'static str {
        match self {
            Reason::LongestMatch => "longest match",
            Reason::AllowOnTie => "allow wins a tie",
            Reason::NoMatchingRule => "no matching rule",
            Reason::NoGroup => "no group for this crawler",
            Reason::RobotsTxtAlwaysAllowed => "/robots.txt is always allowed",
        }
    }
}

/// The rule that decided.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RuleRef {
    /// 1-based line number.
    pub line: usize,
    /// Allow or disallow.
    pub kind: RuleKind,
    /// The pattern as matched (normalised; shown lossily when not UTF-8).
    pub pattern: String,
    /// Google's derived `/dir/$` allow for an `/dir/index.htm…` allow rule.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub derived: bool,
}

impl RuleRef {
    fn of(rule: &Rule, line_numbers_base: usize) -> RuleRef {
        RuleRef {
            line: rule.line + line_numbers_base,
            kind: rule.kind,
            pattern: String::from_utf8_lossy(&rule.pattern).into_owned(),
            derived: rule.derived,
        }
    }
}

/// The outcome of asking whether a crawler may fetch a URL.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Decision {
    /// The reading used.
    pub reading: Reading,
    /// Whether the crawler may fetch the URL.
    pub allowed: bool,
    /// Why.
    pub reason: Reason,
    /// The deciding rule, when one matched.
    pub rule: Option<RuleRef>,
    /// Whether a group names the crawler (otherwise the `*` groups applied, if any).
    pub named_group: bool,
    /// 1-based numbers of the first line of each applicable group.
    pub groups: Vec<usize>,
    /// The path (with parameters and query) as compared, after normalisation.
    pub path: String,
}

/// A matching rule and its priority (pattern length in bytes).
#[derive(Clone, Copy, Debug)]
pub struct Match<'a> {
    /// The rule.
    pub rule: &'a Rule,
    /// Its priority: the length of its normalised pattern in bytes.
    pub priority: usize,
}

impl Policy {
    /// Every rule of `groups` that matches `path` (already normalised), with its priority.
    /// Empty patterns never match, in both readings: that follows Google, whose documentation
    /// ignores rules without a path and whose parser (google/robotstxt) never lets one decide.
    /// RFC 9309 allows the empty value (§2.2) without saying what it matches.
    pub fn matching_rules<'a>(groups: &[&'a Group], path: &[u8]) -> Vec<Match<'a>> {
        Self::matching(groups, path).collect()
    }

    fn matching<'a, 'g>(
        groups: &'g [&'a Group],
        path: &'g [u8],
    ) -> impl Iterator<Item = Match<'a>> + 'g {
        groups
            .iter()
            .flat_map(|g| g.rules.iter())
            .filter(|r| !r.pattern.is_empty() && matches(&r.pattern, path))
            .map(|r| Match {
                rule: r,
                priority: r.pattern.len(),
            })
    }

    /// Decides whether crawler `agent` (a product token, compared case-insensitively) may fetch
    /// `url` (an absolute URL, or a path starting with `/`).
    pub fn decide(&self, agent: &str, url: &str) -> Decision {
        let raw_path = path_params_query(url);
        let path = normalize(raw_path.as_bytes(), self.reading, Side::Url);
        let (groups, named_group) = self.groups_for(agent);
        let mut d = Decision {
            reading: self.reading,
            allowed: true,
            reason: Reason::NoMatchingRule,
            rule: None,
            named_group,
            groups: groups.iter().map(|g| g.first_line + 1).collect(),
            path: String::from_utf8_lossy(&path).into_owned(),
        };
        if self.reading == Reading::Rfc9309 && &*path == b"/robots.txt" {
            d.reason = Reason::RobotsTxtAlwaysAllowed;
            return d;
        }
        if groups.is_empty() {
            d.reason = Reason::NoGroup;
            return d;
        }
        let mut best_allow: Option<Match> = None;
        let mut best_disallow: Option<Match> = None;
        for m in Self::matching(&groups, &path) {
            let slot = match m.rule.kind {
                RuleKind::Allow => &mut best_allow,
                RuleKind::Disallow => &mut best_disallow,
            };
            if slot.is_none_or(|b| m.priority > b.priority) {
                *slot = Some(m);
            }
        }
        match (best_allow, best_disallow) {
            (None, None) => {}
            (Some(a), None) => {
                d.reason = Reason::LongestMatch;
                d.rule = Some(RuleRef::of(a.rule, 1));
            }
            (None, Some(x)) => {
                d.allowed = false;
                d.reason = Reason::LongestMatch;
                d.rule = Some(RuleRef::of(x.rule, 1));
            }
            (Some(a), Some(x)) => {
                if x.priority > a.priority {
                    d.allowed = false;
                    d.reason = Reason::LongestMatch;
                    d.rule = Some(RuleRef::of(x.rule, 1));
                } else {
                    d.reason = if x.priority == a.priority {
                        Reason::AllowOnTie
                    } else {
                        Reason::LongestMatch
                    };
                    d.rule = Some(RuleRef::of(a.rule, 1));
                }
            }
        }
        d
    }
}
