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
            pattern: crate::text::lossy(&rule.pattern).into_owned(),
            derived: rule.derived,
        }
    }
}

/// Longest-match resolution (RFC 9309 §2.2.2; Google's "Order of precedence for rules"): of
/// the matching rules offered, the allow and the disallow with the longest pattern; the first
/// offered wins among equally long ones of a kind. Both the decision over a parsed
/// [`Policy`] and the one-pass decision ([`decide_once`]) resolve through it.
#[derive(Clone, Copy, Debug)]
pub struct Longest<T> {
    allow: Option<(usize, T)>,
    disallow: Option<(usize, T)>,
}

impl<T> Default for Longest<T> {
    fn default() -> Self {
        Longest {
            allow: None,
            disallow: None,
        }
    }
}

impl<T: Copy> Longest<T> {
    /// Offers a matching rule of `kind` whose normalised pattern is `priority` bytes long.
    #[inline]
    pub fn offer(&mut self, kind: RuleKind, priority: usize, rule: T) {
        let slot = match kind {
            RuleKind::Allow => &mut self.allow,
            RuleKind::Disallow => &mut self.disallow,
        };
        if slot.is_none_or(|(p, _)| priority > p) {
            *slot = Some((priority, rule));
        }
    }

    /// The deciding rule and why it decides: the longer of the best allow and the best
    /// disallow, the allow when they are equally long (`Reason::AllowOnTie`). `None` when
    /// nothing matched.
    pub fn winner(&self) -> Option<(Reason, T)> {
        match (self.allow, self.disallow) {
            (None, None) => None,
            (Some((_, a)), None) => Some((Reason::LongestMatch, a)),
            (None, Some((_, x))) => Some((Reason::LongestMatch, x)),
            (Some((pa, a)), Some((px, x))) => Some(if px > pa {
                (Reason::LongestMatch, x)
            } else if px == pa {
                (Reason::AllowOnTie, a)
            } else {
                (Reason::LongestMatch, a)
            }),
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
    /// The product token whose groups applied, when a crawler [`Profile`] fell back from its
    /// own token to another one (e.g. `Googlebot` for Googlebot-Image); `None` otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via_token: Option<String>,
    /// 1-based numbers of the first line of each applicable group.
    pub groups: Vec<usize>,
    /// The path (with parameters and query) as compared, after normalisation.
    pub path: String,
}

impl Decision {
    /// The decision for the normalised `path` once the groups are chosen: `token` is the index
    /// into `profile.tokens` whose groups apply (`None`: the `*` groups, or none), `groups` the
    /// 1-based first lines of the applicable groups, and `winner` the longest match and why it
    /// decides (asked only when rules are matched at all: not for `/robots.txt` in the RFC 9309
    /// reading, not without a group). The one place both the parsed and the one-pass decision
    /// are put together.
    pub(crate) fn conclude(
        reading: Reading,
        profile: &Profile,
        token: Option<usize>,
        groups: Vec<usize>,
        path: &[u8],
        winner: impl FnOnce() -> Option<(Reason, RuleRef)>,
    ) -> Decision {
        let verdict = Verdict::resolve(reading, path, !groups.is_empty(), || {
            winner().map(|(reason, rule)| (reason, rule.kind, rule))
        });
        Decision {
            reading,
            allowed: verdict.allowed,
            reason: verdict.reason,
            rule: verdict.rule,
            named_group: token.is_some(),
            via_token: token
                .filter(|&i| i > 0)
                .map(|i| profile.tokens[i].to_string()),
            groups,
            path: crate::text::lossy(path).into_owned(),
        }
    }
}

/// A decision without the request's details: whether the fetch is allowed, why, and the
/// deciding rule (`T`: a [`RuleRef`] in a [`Decision`], a borrowed [`Rule`] in
/// [`Policy::verdict_in`]). Every decision ends in [`Verdict::resolve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict<T> {
    /// Whether the crawler may fetch the path.
    pub allowed: bool,
    /// Why.
    pub reason: Reason,
    /// The deciding rule, when one matched.
    pub rule: Option<T>,
}

impl<T> Verdict<T> {
    /// How a request for the normalised `path` ends in `reading`: `/robots.txt` is always
    /// allowed in the RFC 9309 reading (§2.2.2); without an applicable group (`has_groups`
    /// false) everything is allowed; otherwise `winner` (asked only then) gives the longest
    /// match, why it decides and its kind, and without one the path is allowed.
    pub(crate) fn resolve(
        reading: Reading,
        path: &[u8],
        has_groups: bool,
        winner: impl FnOnce() -> Option<(Reason, RuleKind, T)>,
    ) -> Verdict<T> {
        let allowed_because = |reason| Verdict {
            allowed: true,
            reason,
            rule: None,
        };
        if reading == Reading::Rfc9309 && path == b"/robots.txt" {
            allowed_because(Reason::RobotsTxtAlwaysAllowed)
        } else if !has_groups {
            allowed_because(Reason::NoGroup)
        } else {
            match winner() {
                Some((reason, kind, rule)) => Verdict {
                    allowed: kind == RuleKind::Allow,
                    reason,
                    rule: Some(rule),
                },
                None => allowed_because(Reason::NoMatchingRule),
            }
        }
    }
}

/// Whether a rule with the normalised `pattern` matches the normalised `path` and so takes
/// part in longest-match resolution. Empty patterns never do, in both readings: that follows
/// Google, whose documentation ignores rules without a path and whose parser (google/robotstxt)
/// never lets one decide; RFC 9309 allows the empty value (§2.2) without saying what it
/// matches. Every decision (parsed, one-pass, fix checks) asks here.
#[inline]
pub fn pattern_decides(pattern: &[u8], path: &[u8]) -> bool {
    !pattern.is_empty() && matches(pattern, path)
}

/// How a crawler chooses its groups: its product tokens in order of precedence, and whether it
/// obeys the `*` group when no group names any of them.
///
/// RFC 9309 §2.2.1 describes one token per crawler. Operators document more: Google's
/// Googlebot-Image obeys the Googlebot group when no group names Googlebot-Image, and its
/// special-case crawlers such as AdsBot-Google ignore the `*` group. A plain product token is
/// the profile `tokens: [token], obeys_global: true`.
#[derive(Clone, Copy, Debug)]
pub struct Profile<'a> {
    /// Product tokens, most specific first: the groups naming the first token that any group
    /// names apply.
    pub tokens: &'a [&'a str],
    /// Whether the `*` groups apply when no group names any of the tokens.
    pub obeys_global: bool,
}

/// The groups that apply to a crawler (see [`Policy::select`]).
#[derive(Clone, Debug)]
pub struct Selection<'a> {
    /// The applicable groups, in file order.
    pub groups: Vec<&'a Group>,
    /// Index into [`Profile::tokens`] of the token whose groups apply; `None` when the `*`
    /// groups apply, or none.
    pub token: Option<usize>,
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
    /// Every rule of `groups` that matches `path` (already normalised), with its priority
    /// (empty patterns never match, see [`pattern_decides`]).
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
            .filter(|r| pattern_decides(&r.pattern, path))
            .map(|r| Match {
                rule: r,
                priority: r.pattern.len(),
            })
    }

    /// The groups that apply to a crawler with `profile`: those naming its first token that any
    /// group names (combined, RFC 9309 §2.2.1); else the `*` groups if it obeys them; else none.
    pub fn select<'a>(&'a self, profile: &Profile) -> Selection<'a> {
        for (i, token) in profile.tokens.iter().enumerate() {
            let named = self.groups_naming(token);
            if !named.is_empty() {
                return Selection {
                    groups: named.iter().map(|&g| &self.groups[g]).collect(),
                    token: Some(i),
                };
            }
        }
        let groups = if profile.obeys_global {
            self.groups_for_all()
        } else {
            Vec::new()
        };
        Selection {
            groups,
            token: None,
        }
    }

    /// Whether a crawler with `profile` may fetch the request target `target`: the `allowed`
    /// of [`Policy::decide_target_as`], without building the rest of the [`Decision`].
    pub fn allowed(&self, profile: &Profile, target: &str) -> bool {
        let path = normalize(target.as_bytes(), self.reading, Side::Url);
        self.allowed_before_and_after(&self.select(profile).groups, &path, usize::MAX, &[])
            .0
    }

    /// Whether a crawler whose applicable groups are `groups` (as [`Policy::select`] gives
    /// them) may fetch `path` (normalised, see [`normalize`]) before and after the rule on
    /// 0-based line `line` is replaced by `replacement` (zero or more rules, e.g. a rule and
    /// Google's derived `/dir/$` allow). For an edit of one rule line that keeps every group as
    /// it is (the group keeps a rule, no user-agent line changes), the second answer is what
    /// [`Policy::decide_target_as`] gives for the edited file, without building its policy;
    /// suggested fixes are checked this way. Both answers come from one pass over the rules
    /// ([`Policy::standing`]).
    pub fn allowed_before_and_after(
        &self,
        groups: &[&Group],
        path: &[u8],
        line: usize,
        replacement: &[Rule],
    ) -> (bool, bool) {
        let standing = self.standing(groups, path);
        let replacement = if holds_line(groups, line) {
            replacement
        } else {
            &[]
        };
        (
            standing.allowed(),
            standing.allowed_with(
                line,
                replacement
                    .iter()
                    .filter(|r| pattern_decides(&r.pattern, path)),
            ),
        )
    }

    /// How the rules of `groups` that match `path` (normalised) stand: per kind, the longest
    /// matching pattern and the longest on another line, so that the decision with one rule
    /// line replaced ([`Standing::allowed_with`]) needs no second pass over the rules.
    pub fn standing(&self, groups: &[&Group], path: &[u8]) -> Standing {
        Standing::of(
            groups.iter().flat_map(|g| g.rules.iter()),
            path,
            self.reading,
        )
    }

    /// Decides whether crawler `agent` (a product token, compared case-insensitively) may fetch
    /// `url` (an absolute URL, or a path starting with `/`, taken byte for byte as a client
    /// would send it; see [`crate::request`] for URLs typed by a person).
    pub fn decide(&self, agent: &str, url: &str) -> Decision {
        self.decide_as(
            &Profile {
                tokens: &[agent],
                obeys_global: true,
            },
            url,
        )
    }

    /// Decides whether a crawler with `profile` may fetch `url` (as in [`Policy::decide`]).
    pub fn decide_as(&self, profile: &Profile, url: &str) -> Decision {
        self.decide_target_as(profile, &path_params_query(url))
    }

    /// Decides whether a crawler with `profile` may fetch the request target `target`: the path
    /// and query a client sends on its request line (RFC 9112 §3.2.1, origin form), such as
    /// [`crate::request::request_target`] gives. Unlike [`Policy::decide_as`], which reads a
    /// URL the way google/robotstxt's `GetPathParamsQuery` does, nothing is extracted from it, so
    /// a target that starts with `//` (the path of `https://host//private`) stays a path instead
    /// of being read as an authority.
    pub fn decide_target_as(&self, profile: &Profile, target: &str) -> Decision {
        let path = normalize(target.as_bytes(), self.reading, Side::Url);
        let Selection { groups, token } = self.select(profile);
        let first_lines = groups.iter().map(|g| g.first_line + 1).collect();
        Decision::conclude(self.reading, profile, token, first_lines, &path, || {
            Self::longest(groups.iter().flat_map(|g| &g.rules), &path)
                .map(|(reason, rule)| (reason, RuleRef::of(rule, 1)))
        })
    }

    /// The verdict for the normalised `path` (see [`normalize`]) of a crawler whose applicable
    /// groups are `groups` (as [`Policy::select`] gives them): what [`Policy::decide_target_as`]
    /// decides, with the deciding rule borrowed and nothing else built. For asking many paths of
    /// one crawler (select once, normalise each path once).
    pub fn verdict_in<'a>(&self, groups: &[&'a Group], path: &[u8]) -> Verdict<&'a Rule> {
        Verdict::resolve(self.reading, path, !groups.is_empty(), || {
            Self::longest(groups.iter().flat_map(|g| &g.rules), path)
                .map(|(reason, rule)| (reason, rule.kind, rule))
        })
    }

    /// [`Policy::verdict_in`] for each of the normalised `paths`, in order. With many rules and
    /// paths the rules are bucketed by their literal prefixes first, so each path is matched
    /// only against the rules that may match it; the verdicts are the same.
    pub fn verdicts_in<'a, P: AsRef<[u8]>>(
        &self,
        groups: &[&'a Group],
        paths: &[P],
    ) -> Vec<Verdict<&'a Rule>> {
        let mut matcher = self.matcher(groups, paths.len() >= 2);
        paths.iter().map(|p| matcher.verdict(p.as_ref())).collect()
    }

    /// A [`PathMatcher`] for the crawler whose applicable groups are `groups`: it gives
    /// [`Policy::verdict_in`] one path at a time, so that many paths can be decided without
    /// holding them all. `many` says whether more than one path will be asked (only then are
    /// the rules bucketed).
    pub fn matcher<'a>(&self, groups: &[&'a Group], many: bool) -> PathMatcher<'a> {
        let rules: Vec<&'a Rule> = groups.iter().flat_map(|g| g.rules.iter()).collect();
        let buckets = (rules.len() > crate::analysis::UNBUCKETED_RULES && many).then(|| {
            crate::analysis::Buckets::new(
                rules.iter().enumerate().map(|(i, r)| (&r.pattern[..], i)),
            )
        });
        PathMatcher {
            reading: self.reading,
            any_group: !groups.is_empty(),
            rules,
            buckets,
            offered: Vec::new(),
        }
    }

    /// Longest-match resolution over those of `rules` (in the order given) that match the
    /// normalised `path`.
    fn longest<'a>(
        rules: impl IntoIterator<Item = &'a Rule>,
        path: &[u8],
    ) -> Option<(Reason, &'a Rule)> {
        let mut longest = Longest::default();
        for rule in rules {
            if pattern_decides(&rule.pattern, path) {
                longest.offer(rule.kind, rule.pattern.len(), rule);
            }
        }
        longest.winner()
    }
}

/// Whether a rule of `groups` stands on 0-based line `line`: only then does replacing that line
/// bring its replacement rules into these groups.
pub fn holds_line(groups: &[&Group], line: usize) -> bool {
    groups
        .iter()
        .any(|g| g.rules.iter().any(|r| r.line == line))
}

/// The two longest matching patterns of one rule kind that stand on different lines: the
/// best, and the best once the best one's line is taken away. One line can stand for two rules
/// of a kind (an allow and Google's derived `/dir/$` allow); they count as one, the longer.
#[derive(Clone, Copy, Debug, Default)]
struct Runners {
    /// Priority (pattern length in bytes) and 0-based line of the longest match.
    first: Option<(usize, usize)>,
    /// The same for the longest match on another line.
    second: Option<(usize, usize)>,
}

impl Runners {
    fn offer(&mut self, priority: usize, line: usize) {
        match self.first {
            None => self.first = Some((priority, line)),
            Some((p, l)) if l == line => {
                if priority > p {
                    self.first = Some((priority, line));
                }
            }
            Some((p, _)) if priority > p => {
                self.second = self.first;
                self.first = Some((priority, line));
            }
            Some(_) => {
                if self.second.is_none_or(|(q, _)| priority > q) {
                    self.second = Some((priority, line));
                }
            }
        }
    }

    /// The longest priority among rules not on `line`.
    fn without(&self, line: usize) -> Option<usize> {
        match self.first {
            Some((_, l)) if l == line => self.second.map(|(p, _)| p),
            first => first.map(|(p, _)| p),
        }
    }
}

/// What the matching rules of a crawler's groups decide for one path, before and after one
/// rule line is replaced (see [`Policy::standing`]). A few dozen bytes: suggested-fix checks
/// keep one per crawler selection and probe path.
#[derive(Clone, Copy, Debug, Default)]
pub struct Standing {
    allow: Runners,
    disallow: Runners,
    /// RFC 9309 §2.2.2: the path is `/robots.txt`, always allowed in that reading.
    robots_txt: bool,
}

impl Standing {
    /// The standing of `path` (normalised for `reading`) among `rules`: those of a crawler's
    /// groups, or any subset that leaves out only rules that cannot match it.
    pub fn of<'r>(
        rules: impl IntoIterator<Item = &'r Rule>,
        path: &[u8],
        reading: Reading,
    ) -> Standing {
        let mut s = Standing {
            robots_txt: reading == Reading::Rfc9309 && path == b"/robots.txt",
            ..Standing::default()
        };
        if s.robots_txt {
            return s;
        }
        for r in rules {
            if pattern_decides(&r.pattern, path) {
                s.runners_mut(r.kind).offer(r.pattern.len(), r.line);
            }
        }
        s
    }

    fn runners_mut(&mut self, kind: RuleKind) -> &mut Runners {
        match kind {
            RuleKind::Allow => &mut self.allow,
            RuleKind::Disallow => &mut self.disallow,
        }
    }

    /// Whether the path is allowed: longest match, allow on a tie, allowed when nothing
    /// matches ([`Longest::winner`]).
    pub fn allowed(&self) -> bool {
        self.allowed_with(usize::MAX, [])
    }

    /// Whether the path this standing is for is allowed once the rules on 0-based line `line`
    /// are replaced by replacement rules (which must belong to the groups the standing was
    /// built from; see [`holds_line`]), of which `matching` are those that match the path
    /// ([`pattern_decides`]): the others cannot decide it.
    pub fn allowed_with<'r>(
        &self,
        line: usize,
        matching: impl IntoIterator<Item = &'r Rule>,
    ) -> bool {
        if self.robots_txt {
            return true;
        }
        let mut longest = Longest::default();
        for kind in [RuleKind::Allow, RuleKind::Disallow] {
            let runners = match kind {
                RuleKind::Allow => self.allow,
                RuleKind::Disallow => self.disallow,
            };
            if let Some(p) = runners.without(line) {
                longest.offer(kind, p, kind);
            }
        }
        for r in matching {
            longest.offer(r.kind, r.pattern.len(), r.kind);
        }
        longest.winner().is_none_or(|(_, k)| k == RuleKind::Allow)
    }
}

/// Verdicts of one crawler's applicable groups for normalised paths, one at a time (see
/// [`Policy::matcher`]): the rules are gathered (and bucketed) once, then each path is matched
/// only against the rules that may match it.
pub struct PathMatcher<'a> {
    reading: Reading,
    any_group: bool,
    rules: Vec<&'a Rule>,
    buckets: Option<crate::analysis::Buckets<'a, usize>>,
    /// Room for the rules that may match one path, reused from one path to the next.
    offered: Vec<usize>,
}

impl<'a> PathMatcher<'a> {
    /// The verdict for the normalised `path`: what [`Policy::verdict_in`] gives.
    pub fn verdict(&mut self, path: &[u8]) -> Verdict<&'a Rule> {
        let (rules, buckets, offered) = (&self.rules, &self.buckets, &mut self.offered);
        Verdict::resolve(self.reading, path, self.any_group, || {
            let longest = match buckets {
                None => Policy::longest(rules.iter().copied(), path),
                Some(buckets) => {
                    // Offered in the order of the rules, as a pass over all of them would, so
                    // that the first of equally long matches of a kind still wins.
                    offered.clear();
                    buckets.candidates_into(path, &Default::default(), offered);
                    offered.sort_unstable();
                    Policy::longest(offered.iter().map(|&i| rules[i]), path)
                }
            };
            longest.map(|(reason, rule)| (reason, rule.kind, rule))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RobotsTxt;
    use proptest::prelude::*;

    /// Patterns and paths from a small alphabet, so that rules overlap, tie and share
    /// literal prefixes often.
    fn piece() -> impl Strategy<Value = String> {
        proptest::string::string_regex("[/ab*$]{0,6}").expect("a valid expression")
    }

    proptest! {
        #[test]
        fn bucketed_verdicts_are_the_verdicts(
            rules in proptest::collection::vec((any::<bool>(), piece()), 0..40),
            paths in proptest::collection::vec(piece(), 0..12),
        ) {
            let mut file = String::from("User-agent: *\n");
            for (allow, pattern) in &rules {
                file.push_str(if *allow { "Allow: /" } else { "Disallow: /" });
                file.push_str(pattern);
                file.push('\n');
            }
            let robots = RobotsTxt::parse(file.as_bytes());
            for reading in Reading::ALL {
                let policy = robots.policy(reading);
                let profile = Profile { tokens: &["bot"], obeys_global: true };
                let groups = policy.select(&profile).groups;
                let normalized: Vec<Vec<u8>> = paths
                    .iter()
                    .map(|p| normalize(format!("/{p}").as_bytes(), reading, Side::Url).into_owned())
                    .collect();
                let one_by_one: Vec<_> =
                    normalized.iter().map(|p| policy.verdict_in(&groups, p)).collect();
                prop_assert_eq!(policy.verdicts_in(&groups, &normalized), one_by_one);
            }
        }
    }

    #[test]
    fn verdicts_name_the_first_of_equally_long_rules() {
        let mut file = String::from("User-agent: *\n");
        for i in 0..20 {
            file.push_str(&format!("Disallow: /p{}\n", i % 10));
        }
        let robots = RobotsTxt::parse(file.as_bytes());
        let policy = robots.policy(Reading::Google);
        let groups = policy
            .select(&Profile {
                tokens: &["bot"],
                obeys_global: true,
            })
            .groups;
        let v = policy.verdicts_in(&groups, &[&b"/p3/x"[..], b"/q"]);
        assert_eq!(v[0].rule.map(|r| r.line), Some(4));
        assert!(!v[0].allowed);
        assert_eq!((v[1].allowed, v[1].reason), (true, Reason::NoMatchingRule));
    }
}
