//! Combined rule sets and an index over them.
//!
//! A crawler obeys the rules of every group that names it, combined (RFC 9309 §2.2.1), or
//! else those of every `*` group. So relations between rules (duplicate, conflict, redundant,
//! overridden) only make sense within the rules one crawler sees together: a *combined set*.
//! Each distinct product token in the file (and `*`) gives one; tokens that see the same groups
//! share one set.
//!
//! Comparing every pair of rules would be quadratic in files with thousands of rules, so the
//! [`SetIndex`] only compares rules whose *literal prefixes* (the pattern up to its first `*` or
//! final `$`) can overlap: two patterns can match a common path only if one literal prefix starts
//! with the other. Lookups go through a hash map by prefix and a sorted list, and stop at a cap;
//! callers treat a capped answer as "unknown" and stay silent.

use crate::groups::{Group, Policy, ProductToken, Rule, RuleKind};
use rustc_hash::FxHashMap as HashMap;

/// How many candidate rules a lookup examines before giving up.
pub(crate) const LOOKUP_CAP: usize = 512;

/// The rules one crawler sees together.
#[derive(Clone, Debug)]
pub(crate) struct CombinedSet {
    /// Indices of the groups, in file order.
    pub groups: Vec<usize>,
    /// The tokens that select exactly these groups, as first written (`*` for the global set).
    pub tokens: Vec<String>,
    /// Whether this is the set of crawlers without a group of their own (`*`).
    pub global: bool,
}

/// A rule's address: group index and rule index within the group.
pub(crate) type RuleId = (usize, usize);

/// The combined sets of a policy, in order of first appearance.
pub(crate) fn combined_sets(policy: &Policy) -> Vec<CombinedSet> {
    // token key (lower-case, `*` for any) → (display, groups)
    let mut by_token: Vec<(String, String, Vec<usize>)> = Vec::new();
    let mut where_: HashMap<String, usize> = HashMap::default();
    for (gi, g) in policy.groups.iter().enumerate() {
        for ua in &g.user_agents {
            let (key, display) = match &ua.token {
                ProductToken::Any => ("*".to_string(), "*".to_string()),
                ProductToken::Name(n) => (n.to_ascii_lowercase(), n.clone()),
                ProductToken::Invalid => continue,
            };
            let i = *where_.entry(key.clone()).or_insert_with(|| {
                by_token.push((key, display, Vec::new()));
                by_token.len() - 1
            });
            let groups = &mut by_token[i].2;
            if groups.last() != Some(&gi) {
                groups.push(gi);
            }
        }
    }
    let mut sets: Vec<CombinedSet> = Vec::new();
    let mut by_groups: HashMap<Vec<usize>, usize> = HashMap::default();
    for (key, display, groups) in by_token {
        let global = key == "*";
        match by_groups.get(&groups) {
            Some(&i) => {
                sets[i].tokens.push(display);
                sets[i].global |= global;
            }
            None => {
                by_groups.insert(groups.clone(), sets.len());
                sets.push(CombinedSet {
                    groups,
                    tokens: vec![display],
                    global,
                });
            }
        }
    }
    sets
}

/// The part of a pattern before its first `*`, without a final `$`: every path the pattern
/// matches starts with it.
pub(crate) fn literal_prefix(pattern: &[u8]) -> &[u8] {
    match memchr::memchr(b'*', pattern) {
        Some(i) => &pattern[..i],
        None => pattern.strip_suffix(b"$").unwrap_or(pattern),
    }
}

/// The pattern as a plain prefix, if it is one: no `*` except at the end, and no final `$`.
/// `/a*` gives `/a`; `/a*b` and `/a$` give `None`.
pub(crate) fn plain_prefix(pattern: &[u8]) -> Option<&[u8]> {
    let p = {
        let mut p = pattern;
        while let Some(rest) = p.strip_suffix(b"*") {
            p = rest;
        }
        p
    };
    (!p.contains(&b'*') && !p.ends_with(b"$")).then_some(p)
}

/// Whether a pattern matches every path: `/`, `/*`, `*` and the like.
pub(crate) fn matches_everything(pattern: &[u8]) -> bool {
    !pattern.is_empty() && matches!(plain_prefix(pattern), Some(b"/") | Some(b""))
}

/// One rule in a [`SetIndex`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry<'p> {
    pub id: RuleId,
    pub rule: &'p Rule,
    pub lit: &'p [u8],
}

/// Per kind: literal prefix → entries, the distinct prefix lengths, and the prefixes sorted.
#[derive(Default)]
struct KindIndex<'p> {
    by_lit: HashMap<&'p [u8], Vec<usize>>,
    lit_lens: Vec<usize>,
    sorted: Vec<(&'p [u8], usize)>,
    /// Plain-prefix rules (see [`plain_prefix`]): prefix → entries.
    by_plain: HashMap<&'p [u8], Vec<usize>>,
    plain_lens: Vec<usize>,
}

/// An index over the non-empty rules of one combined set.
pub(crate) struct SetIndex<'p> {
    pub entries: Vec<Entry<'p>>,
    allow: KindIndex<'p>,
    disallow: KindIndex<'p>,
}

impl<'p> SetIndex<'p> {
    /// Indexes the non-empty rules of `groups` (derived rules included).
    pub(crate) fn new(policy: &'p Policy, groups: &[usize]) -> SetIndex<'p> {
        let mut entries = Vec::new();
        for &gi in groups {
            let g: &Group = &policy.groups[gi];
            for (ri, r) in g.rules.iter().enumerate() {
                if r.pattern.is_empty() {
                    continue;
                }
                entries.push(Entry {
                    id: (gi, ri),
                    rule: r,
                    lit: literal_prefix(&r.pattern),
                });
            }
        }
        let mut allow = KindIndex::default();
        let mut disallow = KindIndex::default();
        for (i, e) in entries.iter().enumerate() {
            let k = match e.rule.kind {
                RuleKind::Allow => &mut allow,
                RuleKind::Disallow => &mut disallow,
            };
            k.by_lit.entry(e.lit).or_default().push(i);
            k.sorted.push((e.lit, i));
            if !e.rule.derived
                && let Some(p) = plain_prefix(&e.rule.pattern)
            {
                k.by_plain.entry(p).or_default().push(i);
            }
        }
        for k in [&mut allow, &mut disallow] {
            k.sorted.sort_unstable();
            k.lit_lens = k.by_lit.keys().map(|l| l.len()).collect();
            k.lit_lens.sort_unstable();
            k.lit_lens.dedup();
            k.plain_lens = k.by_plain.keys().map(|l| l.len()).collect();
            k.plain_lens.sort_unstable();
            k.plain_lens.dedup();
        }
        SetIndex {
            entries,
            allow,
            disallow,
        }
    }

    fn kind(&self, kind: RuleKind) -> &KindIndex<'p> {
        match kind {
            RuleKind::Allow => &self.allow,
            RuleKind::Disallow => &self.disallow,
        }
    }

    /// Entries of `kind` whose literal prefix starts with `lit` or is a prefix of it, i.e.
    /// every rule of that kind that could match a path that a pattern with literal prefix `lit`
    /// matches. `None` when more than [`LOOKUP_CAP`] candidates would have to be examined.
    pub(crate) fn overlapping(&self, kind: RuleKind, lit: &[u8]) -> Option<Vec<usize>> {
        let k = self.kind(kind);
        let mut out = Vec::new();
        let mut examined = 0usize;
        for &len in &k.lit_lens {
            if len > lit.len() {
                break;
            }
            examined += 1;
            if examined > LOOKUP_CAP {
                return None;
            }
            if let Some(v) = k.by_lit.get(&lit[..len]) {
                if out.len() + v.len() > LOOKUP_CAP {
                    return None;
                }
                out.extend_from_slice(v);
            }
        }
        let start = k.sorted.partition_point(|(l, _)| *l < lit);
        for &(l, i) in &k.sorted[start..] {
            if !l.starts_with(lit) {
                break;
            }
            if l.len() == lit.len() {
                continue; // counted above
            }
            out.push(i);
            if out.len() > LOOKUP_CAP {
                return None;
            }
        }
        Some(out)
    }

    /// The longest plain-prefix rule of `kind` (not derived) that covers every path a pattern
    /// with literal prefix `lit` matches, other than the rules with pattern `exclude`. Returns
    /// the entry index. `None` also when more than [`LOOKUP_CAP`] rules share the prefix.
    pub(crate) fn cover(&self, kind: RuleKind, lit: &[u8], exclude: &[u8]) -> Option<usize> {
        let k = self.kind(kind);
        for &len in k.plain_lens.iter().rev() {
            if len > lit.len() {
                continue;
            }
            if let Some(v) = k.by_plain.get(&lit[..len]) {
                // Bounded like every lookup here: past the cap the answer is "unknown", which
                // callers treat as no cover (they stay silent rather than guess).
                if v.len() > LOOKUP_CAP {
                    return None;
                }
                let best = v
                    .iter()
                    .copied()
                    .filter(|&i| &*self.entries[i].rule.pattern != exclude)
                    .max_by_key(|&i| (self.entries[i].rule.pattern.len(), usize::MAX - i));
                if best.is_some() {
                    return best;
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Reading, RobotsTxt};

    #[test]
    fn prefixes() {
        assert_eq!(literal_prefix(b"/a/*.php$"), b"/a/");
        assert_eq!(literal_prefix(b"/a$"), b"/a");
        assert_eq!(plain_prefix(b"/a**"), Some(&b"/a"[..]));
        assert_eq!(plain_prefix(b"/a*b"), None);
        assert_eq!(plain_prefix(b"/a$"), None);
        assert!(matches_everything(b"/"));
        assert!(matches_everything(b"/*"));
        assert!(matches_everything(b"*"));
        assert!(!matches_everything(b"/$"));
        assert!(!matches_everything(b""));
    }

    #[test]
    fn sets_combine_groups_naming_the_same_token() {
        let r = RobotsTxt::parse(
            b"User-agent: a\nUser-agent: b\nDisallow: /x\n\nUser-agent: A\nDisallow: /y\n\nUser-agent: *\nDisallow: /z\n",
        );
        let sets = combined_sets(r.policy(Reading::Google));
        assert_eq!(sets.len(), 3);
        assert_eq!(sets[0].groups, vec![0, 1]);
        assert_eq!(sets[0].tokens, vec!["a".to_string()]);
        assert_eq!(sets[1].groups, vec![0]);
        assert_eq!(sets[1].tokens, vec!["b".to_string()]);
        assert!(sets[2].global);
    }

    #[test]
    fn overlapping_finds_prefix_relations_only() {
        let r = RobotsTxt::parse(
            b"User-agent: *\nAllow: /a\nAllow: /a/b/c\nAllow: /b\nAllow: /*.css\nDisallow: /a/b\n",
        );
        let p = r.policy(Reading::Google);
        let ix = SetIndex::new(p, &[0]);
        let mut found: Vec<String> = ix
            .overlapping(RuleKind::Allow, b"/a/b")
            .unwrap()
            .into_iter()
            .map(|i| String::from_utf8_lossy(&ix.entries[i].rule.pattern).into_owned())
            .collect();
        found.sort();
        assert_eq!(found, vec!["/*.css", "/a", "/a/b/c"]);
        let c = ix.cover(RuleKind::Allow, b"/a/b/c/d", b"").unwrap();
        assert_eq!(&*ix.entries[c].rule.pattern, b"/a/b/c");
    }
}
