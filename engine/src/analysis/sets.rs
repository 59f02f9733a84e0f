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

use crate::groups::{Group, Policy, ProductToken, Rule, RuleKind, UserAgent};
use rustc_hash::FxHashMap as HashMap;

/// How many candidate rules a lookup examines before giving up.
pub(crate) const LOOKUP_CAP: usize = 512;

/// The rules one crawler sees together.
#[derive(Clone, Debug)]
pub(crate) struct CombinedSet<'p> {
    /// Indices of the groups, in file order.
    pub groups: Vec<usize>,
    /// The tokens that select exactly these groups, as first written (`*` for the global set),
    /// borrowed from the policy.
    pub tokens: Vec<&'p str>,
    /// Whether this is the set of crawlers without a group of their own (`*`).
    pub global: bool,
}

/// A rule's address: group index and rule index within the group.
pub(crate) type RuleId = (usize, usize);

/// A product token as a key that ignores ASCII case, as crawlers compare tokens: hashed and
/// compared as if lower-cased, without a lower-cased copy.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Caseless<'a>(pub &'a str);

impl PartialEq for Caseless<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.0.eq_ignore_ascii_case(other.0)
    }
}

impl Eq for Caseless<'_> {}

impl std::hash::Hash for Caseless<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        // Eight lower-cased bytes at a time, then the length (as `str` hashes end with a
        // marker, so that no key's hash is a prefix of another's).
        let mut buf = [0u8; 8];
        for chunk in self.0.as_bytes().chunks(8) {
            for (b, &c) in buf.iter_mut().zip(chunk) {
                *b = c.to_ascii_lowercase();
            }
            state.write(&buf[..chunk.len()]);
        }
        state.write_usize(self.0.len());
    }
}

/// The product token a user-agent line names as written, `*` for the `*` lines; `None` for a
/// line that names none.
pub(crate) fn token_of(ua: &UserAgent) -> Option<&str> {
    match &ua.token {
        ProductToken::Any => Some("*"),
        ProductToken::Name(n) => Some(n.as_str()),
        ProductToken::Invalid => None,
    }
}

/// The tokens of the user-agent lines of `policy` ([`token_of`]), compared ignoring ASCII
/// case, in order of first appearance: for each, every group naming it, in file order, as
/// (group index, index of its first user-agent line naming it). See [`groups_by_token`].
pub(crate) struct ByToken {
    /// Every token's (group, user-agent line) pairs, token after token.
    named: Vec<(usize, usize)>,
    /// Per token, in order of first appearance: where its pairs end in `named`.
    ends: Vec<u32>,
}

impl ByToken {
    /// Per token, in order of first appearance, its (group, user-agent line) pairs (never
    /// empty).
    pub(crate) fn iter(&self) -> impl Iterator<Item = &[(usize, usize)]> {
        self.ends.iter().scan(0usize, |start, &end| {
            let range = *start..end as usize;
            *start = end as usize;
            Some(&self.named[range])
        })
    }
}

/// The groups naming each token of `policy` ([`ByToken`]), in two vectors whatever the number
/// of tokens: one (token, group, user-agent line) triple per group naming a token, then ordered
/// by token with a counting sort.
pub(crate) fn groups_by_token(policy: &Policy) -> ByToken {
    // At most one triple per user-agent line, and as many tokens.
    let lines: usize = policy.groups.iter().map(|g| g.user_agents.len()).sum();
    let mut triples: Vec<(u32, usize, usize)> = Vec::with_capacity(lines);
    // Per token: its index and the last group found naming it.
    let mut where_: HashMap<Caseless, (u32, usize)> =
        HashMap::with_capacity_and_hasher(lines, Default::default());
    for (gi, g) in policy.groups.iter().enumerate() {
        for (ui, ua) in g.user_agents.iter().enumerate() {
            let Some(token) = token_of(ua) else { continue };
            let tokens = where_.len() as u32;
            let slot = where_
                .entry(Caseless(token))
                .or_insert((tokens, usize::MAX));
            if slot.1 != gi {
                slot.1 = gi;
                triples.push((slot.0, gi, ui));
            }
        }
    }
    let mut ends = vec![0u32; where_.len()];
    for &(t, _, _) in &triples {
        ends[t as usize] += 1;
    }
    let mut next: Vec<u32> = Vec::with_capacity(ends.len());
    let mut total = 0u32;
    for count in &mut ends {
        next.push(total);
        total += *count;
        *count = total;
    }
    let mut named = vec![(0usize, 0usize); triples.len()];
    for (t, gi, ui) in triples {
        let at = &mut next[t as usize];
        named[*at as usize] = (gi, ui);
        *at += 1;
    }
    ByToken { named, ends }
}

/// The combined sets of a policy, in order of first appearance.
pub(crate) fn combined_sets(policy: &Policy) -> Vec<CombinedSet<'_>> {
    let by_token = groups_by_token(policy);
    // Each token's groups, all in one vector (token after token, each ending where
    // `by_token.ends` says), so that tokens are told apart by their groups without a vector of
    // their own.
    let flat: Vec<usize> = by_token.named.iter().map(|&(g, _)| g).collect();
    // At most one set per token.
    let tokens = by_token.ends.len();
    let mut sets: Vec<CombinedSet> = Vec::with_capacity(tokens);
    let mut by_groups: HashMap<&[usize], usize> =
        HashMap::with_capacity_and_hasher(tokens, Default::default());
    let mut start = 0;
    for (named, &end) in by_token.iter().zip(&by_token.ends) {
        let (g, u) = named[0];
        let token = token_of(&policy.groups[g].user_agents[u]).unwrap_or_default();
        let groups = &flat[start..end as usize];
        start = end as usize;
        // A product token is never `*`: only the `*` lines give it.
        let global = token == "*";
        match by_groups.get(groups) {
            Some(&i) => {
                sets[i].tokens.push(token);
                sets[i].global |= global;
            }
            None => {
                by_groups.insert(groups, sets.len());
                sets.push(CombinedSet {
                    groups: groups.to_vec(),
                    tokens: vec![token],
                    global,
                });
            }
        }
    }
    sets
}

/// Whether a combined set exists only because Google's parser cuts the names of different
/// crawlers to the same leading word (`Sogou web spider` and `Sogou inst spider` both read as
/// `Sogou`): those crawlers match their own full names, so no real crawler sees these groups
/// together, and relations between their rules (duplicates, redundancy) are artifacts of the cut.
/// (`Googlebot/2.1` and `Googlebot` are one crawler's token with and without a version: their
/// groups really are combined for Googlebot.)
pub(crate) fn name_collapse(bytes: &[u8], policy: &Policy, set: &CombinedSet) -> bool {
    if set.global || set.groups.len() < 2 {
        return false;
    }
    let keys: Vec<String> = set.tokens.iter().map(|t| t.to_ascii_lowercase()).collect();
    let mut values: Vec<(usize, &[u8])> = Vec::new();
    for &gi in &set.groups {
        for u in &policy.groups[gi].user_agents {
            if let ProductToken::Name(n) = &u.token
                && let Some(k) = keys.iter().position(|k| k.eq_ignore_ascii_case(n))
            {
                let v = bytes.get(u.value.start..u.value.end).unwrap_or_default();
                values.push((keys[k].len(), v));
            }
        }
    }
    names_collapse(&values)
}

/// Whether user-agent values, each with the length of the token Google reads from it, are
/// different crawlers' names cut to one word: no value is repeated (compared case-insensitively)
/// and at least one goes on after its token with white space and more words.
pub(crate) fn names_collapse(values: &[(usize, &[u8])]) -> bool {
    let mut lower: Vec<Vec<u8>> = values.iter().map(|(_, v)| v.to_ascii_lowercase()).collect();
    lower.sort_unstable();
    let distinct = lower.windows(2).all(|w| w[0] != w[1]);
    distinct
        && values.len() > 1
        && values.iter().any(|&(n, v)| {
            v.get(n).is_some_and(u8::is_ascii_whitespace)
                && v[n..].iter().any(|b| !b.is_ascii_whitespace())
        })
}

/// The shortest bytes a pattern matches from their start: the pattern without its `*`s and
/// without a final `$` (not rooted: a pattern that does not start with `/` gives bytes that
/// do not either).
pub(crate) fn sample_path(pattern: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let body = pattern.strip_suffix(b"$").unwrap_or(pattern);
    if crate::pattern::find_byte(b'*', body).is_none() {
        return std::borrow::Cow::Borrowed(body);
    }
    let mut bytes = Vec::with_capacity(body.len());
    bytes.extend(body.iter().filter(|&&b| b != b'*'));
    std::borrow::Cow::Owned(bytes)
}

/// The part of a pattern before its first `*`, without a final `$`: every path the pattern
/// matches starts with it.
pub(crate) fn literal_prefix(pattern: &[u8]) -> &[u8] {
    match crate::pattern::find_byte(b'*', pattern) {
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
    // The plain prefix is `/` or nothing exactly when the pattern is that followed by `*`s:
    // only its end is looked at.
    let mut p = pattern;
    while let Some(rest) = p.strip_suffix(b"*") {
        p = rest;
    }
    !pattern.is_empty() && matches!(p, b"/" | b"")
}

/// Patterns (normalised, not empty) with a value each, sorted into buckets by the first
/// [`BUCKET_BYTES`] bytes of their literal prefix ([`literal_prefix`]; all of it when shorter).
/// A pattern can match a path only if its literal prefix starts the path, so the patterns a
/// path can meet are in the buckets of its first `0..=BUCKET_BYTES` bytes:
/// [`Buckets::candidates_into`] finds them without looking at the others. Buckets whose
/// patterns have shorter literal prefixes (mostly patterns with an early `*`) meet most paths,
/// and so do large buckets; their patterns are first held against what the path holds
/// ([`crate::pattern::ByteSets`]), worked out per bucket when a path first meets it.
pub(crate) struct Buckets<'p, T> {
    /// Bucket key ([`bucket_key`]) → the bucket.
    buckets: HashMap<u64, Bucket>,
    /// The patterns with their values, bucket by bucket.
    items: Vec<(&'p [u8], T)>,
}

/// One bucket of a [`Buckets`].
struct Bucket {
    /// Where the bucket's patterns start and end in [`Buckets::items`].
    start: u32,
    end: u32,
    /// Per pattern of the bucket, what it requires of a path, once a path has met the bucket;
    /// only for buckets whose patterns are filtered that way ([`Buckets::filtered`]).
    required: std::cell::OnceCell<Box<[crate::pattern::ByteSets]>>,
}

/// What a normalised path holds ([`crate::pattern::ByteSets::present`]), worked out when a
/// [`Buckets`] first needs it, and kept for every lookup of the same path (start with
/// `Default::default()` for each path).
#[derive(Default)]
pub(crate) struct PathBytes(std::cell::Cell<Option<crate::pattern::ByteSets>>);

impl PathBytes {
    fn of(&self, path: &[u8]) -> crate::pattern::ByteSets {
        match self.0.get() {
            Some(b) => b,
            None => {
                let b = crate::pattern::ByteSets::present(path);
                self.0.set(Some(b));
                b
            }
        }
    }
}

/// Rules up to which matching a path against every one of them costs less than building
/// [`Buckets`] for them and consulting them (measured on the corpus' fix checks and report
/// matrices).
pub(crate) const UNBUCKETED_RULES: usize = 16;

/// The length of the literal prefixes [`Buckets`] sorts its patterns by.
const BUCKET_BYTES: usize = 4;

/// Patterns in a bucket of full-length literal prefixes beyond which they are held against
/// what a path holds before they are offered.
const FILTERED_BUCKET: usize = 4;

/// The key of the [`Buckets`] bucket of the literal prefix `prefix`: its first (up to)
/// [`BUCKET_BYTES`] bytes, packed with their number, so that keys of different lengths differ.
fn bucket_key(prefix: &[u8]) -> u64 {
    let n = prefix.len().min(BUCKET_BYTES);
    let mut key = n as u64;
    for &b in &prefix[..n] {
        key = key << 8 | u64::from(b);
    }
    key
}

impl<'p, T: Copy> Buckets<'p, T> {
    /// Buckets `items`: (pattern, value) pairs; empty patterns are left out (they match
    /// nothing).
    pub(crate) fn new(items: impl IntoIterator<Item = (&'p [u8], T)>) -> Buckets<'p, T> {
        let mut keyed: Vec<(u64, (&'p [u8], T))> = items
            .into_iter()
            .filter(|(pattern, _)| !pattern.is_empty())
            .map(|(pattern, value)| (bucket_key(literal_prefix(pattern)), (pattern, value)))
            .collect();
        // Stable: within a bucket, patterns keep the order they came in.
        keyed.sort_by_key(|&(k, _)| k);
        let mut buckets: HashMap<u64, Bucket> = HashMap::default();
        let mut start = 0;
        while start < keyed.len() {
            let key = keyed[start].0;
            let end = start
                + keyed[start..]
                    .iter()
                    .take_while(|&&(k, _)| k == key)
                    .count();
            buckets.insert(
                key,
                Bucket {
                    start: start as u32,
                    end: end as u32,
                    required: std::cell::OnceCell::new(),
                },
            );
            start = end;
        }
        Buckets {
            buckets,
            items: keyed.into_iter().map(|(_, item)| item).collect(),
        }
    }

    /// Pushes onto `out` the values of the patterns that may match the normalised `path`:
    /// every pattern that does is among them (in no particular order), with few that do not.
    /// `present` is what the path holds, worked out here when first needed.
    pub(crate) fn candidates_into(&self, path: &[u8], present: &PathBytes, out: &mut Vec<T>) {
        let mut packed = 0u64;
        for k in 0..=path.len().min(BUCKET_BYTES) {
            if k > 0 {
                packed = packed << 8 | u64::from(path[k - 1]);
            }
            let Some(b) = self.buckets.get(&((k as u64) << (8 * k) | packed)) else {
                continue;
            };
            let items = &self.items[b.start as usize..b.end as usize];
            if !Self::filtered(k, items.len()) {
                out.extend(items.iter().map(|&(_, value)| value));
                continue;
            }
            let required = b.required.get_or_init(|| {
                items
                    .iter()
                    .map(|(pattern, _)| crate::pattern::ByteSets::required(pattern))
                    .collect()
            });
            let present = present.of(path);
            out.extend(
                items
                    .iter()
                    .zip(required.iter())
                    .filter(|(_, req)| req.within(present))
                    .map(|(&(_, value), _)| value),
            );
        }
    }

    /// Whether the patterns of a bucket of `len` patterns with literal prefixes `k` bytes long
    /// are first held against what a path holds: those with literal prefixes shorter than
    /// [`BUCKET_BYTES`] (which the path's first bytes hardly tell apart), and those of large
    /// buckets.
    fn filtered(k: usize, len: usize) -> bool {
        k < BUCKET_BYTES || len > FILTERED_BUCKET
    }
}

/// At most this many rule entries are indexed over all the combined sets of one reading.
/// Each set holds the rules of all its groups, so a file whose crawlers see overlapping lists
/// of groups can give thousands of sets that each repeat the same thousands of rules; past this
/// budget further sets are not analysed (the first set always is) and the analysis says so.
pub(crate) const SET_ENTRY_BUDGET: usize = 40_000;

/// At most this many units of work (candidate rules returned and prefix lengths probed) are
/// spent by the lookups of one reading's rule checks, and as many again by its explanations.
/// Past it, lookups answer "unknown" and callers stay silent.
pub(crate) const WORK_BUDGET: usize = 3_000_000;

/// A budget of work shared by many lookups.
#[derive(Debug)]
pub(crate) struct Work {
    left: std::cell::Cell<usize>,
    spent_out: std::cell::Cell<bool>,
}

impl Work {
    pub(crate) fn new(budget: usize) -> Work {
        Work {
            left: std::cell::Cell::new(budget),
            spent_out: std::cell::Cell::new(false),
        }
    }

    /// Takes `n` units; `false` (and from then on [`Work::exhausted`]) when fewer are left.
    pub(crate) fn charge(&self, n: usize) -> bool {
        let left = self.left.get();
        if n > left {
            self.left.set(0);
            self.spent_out.set(true);
            false
        } else {
            self.left.set(left - n);
            true
        }
    }

    /// The units left.
    pub(crate) fn left(&self) -> usize {
        self.left.get()
    }

    /// Whether some lookup was refused for want of budget.
    pub(crate) fn exhausted(&self) -> bool {
        self.spent_out.get()
    }
}

/// Which combined sets get analysed within [`SET_ENTRY_BUDGET`]: the global (`*`) sets first,
/// then the others in order of first appearance, each if its rules still fit (the first set
/// considered always does). Returns one flag per set.
pub(crate) fn sets_within_budget(
    policy: &Policy,
    sets: &[CombinedSet],
    budget: usize,
) -> Vec<bool> {
    let size =
        |s: &CombinedSet| -> usize { s.groups.iter().map(|&g| policy.groups[g].rules.len()).sum() };
    let mut order: Vec<usize> = (0..sets.len()).filter(|&i| sets[i].global).collect();
    order.extend((0..sets.len()).filter(|&i| !sets[i].global));
    let mut chosen = vec![false; sets.len()];
    let mut left = budget;
    for (n, i) in order.into_iter().enumerate() {
        let s = size(&sets[i]);
        if n == 0 || s <= left {
            chosen[i] = true;
            left = left.saturating_sub(s);
        }
    }
    chosen
}

/// One rule in a [`SetIndex`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry<'p> {
    pub id: RuleId,
    pub rule: &'p Rule,
    pub lit: &'p [u8],
}

/// The rolling hash ([`hash_step`]) of `s[..len]` for each of `lens` (ascending, each at most
/// `s.len()`), in one pass over `s`. Keys built from them are always checked against the
/// bytes, so a collision costs a comparison, never a wrong answer.
fn prefix_hashes<'l>(s: &'l [u8], lens: &'l [usize]) -> impl Iterator<Item = (usize, u64)> + 'l {
    let mut x = 0u64;
    let mut done = 0usize;
    lens.iter().map(move |&len| {
        for &b in &s[done..len] {
            x = hash_step(x, b);
        }
        done = len;
        (len, x)
    })
}

/// One step of the rolling hash of a byte string: the hash so far rotated and mixed with the
/// byte, then multiplied by an odd constant (as `FxHasher` does for words), so that the hash of
/// every prefix of a string comes out of one pass over it.
#[inline]
fn hash_step(x: u64, b: u8) -> u64 {
    (x.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x517c_c1b7_2722_0a95)
}

fn hash_of(s: &[u8]) -> u64 {
    s.iter().fold(0, |x, &b| hash_step(x, b))
}

/// Byte strings, sorted, with the entries each stands for; and a map from (length, hash) to
/// the run of equal strings, so that every prefix of a string can be looked up in time
/// proportional to its length plus the number of distinct lengths.
#[derive(Default)]
struct ByBytes<'p> {
    /// (bytes, entry), sorted by bytes.
    sorted: Vec<(&'p [u8], u32)>,
    /// (length, hash) → run of `sorted` holding those bytes.
    runs: HashMap<(u32, u64), (u32, u32)>,
    /// Runs whose (length, hash) was already taken by other bytes: a collision, looked up by
    /// the bytes themselves.
    collided: HashMap<&'p [u8], (u32, u32)>,
    /// The distinct lengths, ascending.
    lens: Vec<usize>,
    /// A Bloom filter of the (length, hash) keys of `runs`, one bit each ([`bloom_bit`]): most
    /// lookups are of prefixes no string has, and it turns them away without a probe of the map.
    bloom: Vec<u64>,
    /// Whether there are at most [`SEARCHED_STRINGS`] distinct strings: `runs` and `collided`
    /// are then left empty, and runs are found by binary search in `sorted`.
    searched: bool,
}

/// Distinct strings up to which a [`ByBytes`] finds runs by binary search instead of a map.
const SEARCHED_STRINGS: usize = 16;

/// The bit of a (length, hash) key in a Bloom filter of `words` 64-bit words (a power of two).
#[inline]
fn bloom_bit(len: usize, hash: u64, words: usize) -> (usize, u64) {
    let h = (hash ^ len as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
    ((h as usize >> 6) & (words - 1), 1 << (h & 63))
}

impl<'p> ByBytes<'p> {
    fn new(items: Vec<(&'p [u8], u32)>) -> ByBytes<'p> {
        // Sorted by bytes, then entry: keyed by the first sixteen bytes ([`head_key`]), which
        // settle most comparisons without comparing the slices.
        let mut keyed: Vec<(u128, &'p [u8], u32)> = items
            .into_iter()
            .map(|(b, e)| (head_key(b), b, e))
            .collect();
        keyed.sort_unstable();
        ByBytes::of_sorted(keyed.into_iter().map(|(_, b, e)| (b, e)).collect())
    }

    /// [`ByBytes::new`] for strings already sorted.
    fn of_sorted(sorted: Vec<(&'p [u8], u32)>) -> ByBytes<'p> {
        debug_assert!(sorted.is_sorted());
        let mut runs: HashMap<(u32, u64), (u32, u32)> = HashMap::default();
        let distinct = sorted.chunk_by(|a, b| a.0 == b.0).count();
        let mut collided: HashMap<&'p [u8], (u32, u32)> = HashMap::default();
        let mut lens = Vec::new();
        // Few strings: their runs are found by binary search, with no map to build.
        let searched = distinct <= SEARCHED_STRINGS;
        // As many runs as distinct strings: room for exactly those, so nothing to give back.
        if !searched {
            runs.reserve(distinct);
        }
        // The (length, hash) keys of the searched strings, for the Bloom filter.
        let mut keys: Vec<(u32, u64)> = Vec::new();
        let mut i = 0;
        while i < sorted.len() {
            let key = sorted[i].0;
            let mut j = i + 1;
            while j < sorted.len() && sorted[j].0 == key {
                j += 1;
            }
            let run = (i as u32, j as u32);
            lens.push(key.len());
            i = j;
            if searched {
                keys.push((key.len() as u32, hash_of(key)));
                continue;
            }
            match runs.entry((key.len() as u32, hash_of(key))) {
                std::collections::hash_map::Entry::Vacant(v) => {
                    v.insert(run);
                }
                std::collections::hash_map::Entry::Occupied(_) => {
                    collided.insert(key, run);
                }
            }
        }
        lens.sort_unstable();
        lens.dedup();
        // About sixteen bits a key: few lookups of absent keys get through.
        let words = (distinct / 4 + 1).next_power_of_two();
        let mut bloom = vec![0u64; words];
        for &(len, hash) in runs.keys().chain(&keys) {
            let (w, bit) = bloom_bit(len as usize, hash, words);
            bloom[w] |= bit;
        }
        ByBytes {
            sorted,
            runs,
            collided,
            lens,
            bloom,
            searched,
        }
    }

    /// The run of entries for exactly `s[..len]`, given the hash of `s[..len]`.
    fn run(&self, s: &[u8], hash: u64, len: usize) -> &[(&'p [u8], u32)] {
        if self.bloom.is_empty() {
            return &[];
        }
        let (w, bit) = bloom_bit(len, hash, self.bloom.len());
        if self.bloom[w] & bit == 0 {
            return &[];
        }
        if self.searched {
            let key = &s[..len];
            // Both ends by binary search: a run may hold thousands of equal strings.
            let start = self.sorted.partition_point(|(b, _)| *b < key);
            let end = self.sorted.partition_point(|(b, _)| *b <= key);
            return &self.sorted[start..end];
        }
        let key = &s[..len];
        let run = match self.runs.get(&(len as u32, hash)) {
            Some(&(a, b)) if self.sorted[a as usize].0 == key => Some((a, b)),
            Some(_) => self.collided.get(key).copied(),
            None => None,
        };
        run.map_or(&[], |(a, b)| &self.sorted[a as usize..b as usize])
    }

    /// The run of entries whose bytes start with `s` (`s` itself included).
    fn starting_with(&self, s: &[u8]) -> &[(&'p [u8], u32)] {
        let start = self.sorted.partition_point(|(l, _)| *l < s);
        let end = self
            .sorted
            .partition_point(|(l, _)| *l < s || l.starts_with(s));
        &self.sorted[start..end]
    }
}

/// Per kind: literal prefixes, and plain prefixes (see [`plain_prefix`]) of rules that are not
/// derived.
struct KindIndex<'p> {
    by_lit: ByBytes<'p>,
    /// Only the tests look up covers here, to hold [`Prefixes::cover`] against it.
    #[cfg(test)]
    by_plain: ByBytes<'p>,
}

/// An index over the non-empty rules of one combined set.
///
/// Every lookup costs time in proportion to the length of the literal prefix asked about plus
/// the candidates it returns (at most [`LOOKUP_CAP`] of each), and charges that to a [`Work`]
/// budget.
pub(crate) struct SetIndex<'p> {
    pub entries: Vec<Entry<'p>>,
    allow: KindIndex<'p>,
    disallow: KindIndex<'p>,
}

/// The non-empty rules of `groups` (derived rules included), in group and rule order: what a
/// [`SetIndex`] or [`Prefixes`] of the combined set of those groups is built over.
pub(crate) fn set_entries<'p>(policy: &'p Policy, groups: &[usize]) -> Vec<Entry<'p>> {
    let mut entries = Vec::new();
    set_entries_into(policy, groups, &mut entries);
    entries
}

/// [`set_entries`] into `entries`, which is cleared first (for callers going through many sets
/// with one vector).
pub(crate) fn set_entries_into<'p>(
    policy: &'p Policy,
    groups: &[usize],
    entries: &mut Vec<Entry<'p>>,
) {
    entries.clear();
    let rules = groups.iter().map(|&gi| policy.groups[gi].rules.len()).sum();
    entries.reserve(rules);
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
}

impl<'p> SetIndex<'p> {
    /// Indexes the non-empty rules of `groups` (derived rules included).
    pub(crate) fn new(policy: &'p Policy, groups: &[usize]) -> SetIndex<'p> {
        SetIndex::of_entries(set_entries(policy, groups))
    }

    /// Indexes `entries` (see [`set_entries`]).
    pub(crate) fn of_entries(entries: Vec<Entry<'p>>) -> SetIndex<'p> {
        let kind_index = |kind: RuleKind| {
            let mine = || {
                entries
                    .iter()
                    .enumerate()
                    .filter(move |(_, e)| e.rule.kind == kind)
            };
            let by_lit = ByBytes::new(mine().map(|(i, e)| (e.lit, i as u32)).collect());
            // A plain prefix is the literal prefix: the plain ones come sorted with the rest.
            #[cfg(test)]
            let plain = by_lit
                .sorted
                .iter()
                .filter(|&&(lit, i)| {
                    let e = &entries[i as usize];
                    !e.rule.derived
                        && plain_prefix(&e.rule.pattern)
                            .inspect(|p| debug_assert_eq!(*p, lit))
                            .is_some()
                })
                .copied()
                .collect();
            KindIndex {
                by_lit,
                #[cfg(test)]
                by_plain: ByBytes::of_sorted(plain),
            }
        };
        let allow = kind_index(RuleKind::Allow);
        let disallow = kind_index(RuleKind::Disallow);
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
    /// matches. `None` when more than [`LOOKUP_CAP`] candidates would have to be examined, or
    /// when `work` is spent.
    pub(crate) fn overlapping(
        &self,
        kind: RuleKind,
        lit: &[u8],
        work: &Work,
    ) -> Option<Vec<usize>> {
        let k = &self.kind(kind).by_lit;
        let lens = &k.lens[..k.lens.partition_point(|&l| l <= lit.len())];
        if lens.len() > LOOKUP_CAP || !work.charge(1 + lens.len() + lit.len() / 64) {
            return None;
        }
        let mut out = Vec::new();
        for (len, hash) in prefix_hashes(lit, lens) {
            if len == lit.len() {
                continue; // with the longer ones below
            }
            let run = k.run(lit, hash, len);
            if out.len() + run.len() > LOOKUP_CAP {
                return None;
            }
            out.extend(run.iter().map(|&(_, i)| i as usize));
        }
        let rest = k.starting_with(lit);
        if out.len() + rest.len() > LOOKUP_CAP || !work.charge(out.len() + rest.len()) {
            return None;
        }
        out.extend(rest.iter().map(|&(_, i)| i as usize));
        Some(out)
    }

    /// The longest plain-prefix rule of `kind` (not derived) that covers every path a pattern
    /// with literal prefix `lit` matches, other than the rules with pattern `exclude`. Returns
    /// the entry index. `None` also when more than [`LOOKUP_CAP`] rules share the prefix, or
    /// when `work` is spent. (The rule checks ask [`Prefixes::cover`]; the tests hold it
    /// against this.)
    #[cfg(test)]
    pub(crate) fn cover(
        &self,
        kind: RuleKind,
        lit: &[u8],
        exclude: &[u8],
        work: &Work,
    ) -> Option<usize> {
        let k = &self.kind(kind).by_plain;
        let lens = &k.lens[..k.lens.partition_point(|&l| l <= lit.len())];
        if lens.is_empty() {
            return None;
        }
        if !work.charge(1 + lens.len().min(LOOKUP_CAP) + lit.len() / 64) {
            return None;
        }
        let lens = &lens[lens.len().saturating_sub(LOOKUP_CAP)..];
        // The hashes of the prefixes, longest looked up first: on the stack for most lookups.
        let mut few = [(0usize, 0u64); 32];
        let mut many = Vec::new();
        let hashes: &[(usize, u64)] = if lens.len() <= few.len() {
            for (slot, h) in few.iter_mut().zip(prefix_hashes(lit, lens)) {
                *slot = h;
            }
            &few[..lens.len()]
        } else {
            many.extend(prefix_hashes(lit, lens));
            &many
        };
        for &(len, hash) in hashes.iter().rev() {
            let run = k.run(lit, hash, len);
            if run.is_empty() {
                continue;
            }
            // Bounded like every lookup here: past the cap the answer is "unknown", which
            // callers treat as no cover (they stay silent rather than guess).
            if run.len() > LOOKUP_CAP || !work.charge(run.len()) {
                return None;
            }
            let best = run
                .iter()
                .map(|&(_, i)| i as usize)
                .filter(|&i| &*self.entries[i].rule.pattern != exclude)
                .max_by_key(|&i| (self.entries[i].rule.pattern.len(), usize::MAX - i));
            if best.is_some() {
                return best;
            }
        }
        None
    }
}

/// The literal prefixes of one combined set's rules ([`set_entries`]) as a tree: each distinct
/// prefix (a *run* of entries) knows the longest other prefix it starts with, and where the
/// prefixes that start with it end in sorted order. For the set's own rules it answers what
/// [`SetIndex::cover`] and [`SetIndex::overlapping`] answer, charging the same work, from one
/// sort of the entries and without hashing: the rule checks ask about every rule of every set,
/// and this costs less than building a [`SetIndex`], which the explanations keep for their
/// lookups.
#[derive(Default)]
pub(crate) struct Prefixes {
    /// Per entry, its run.
    run_of: Vec<u32>,
    /// The runs, sorted by literal prefix.
    runs: Vec<Run>,
    /// Per kind ([`kind_slot`]): entry indices sorted by literal prefix, then plain before not
    /// plain (see [`plain_prefix`]; derived rules are not plain), then index: a run's entries of
    /// the kind are contiguous, its plain ones first.
    by_kind: [Vec<u32>; 2],
    /// Per kind: the distinct lengths of its entries' literal prefixes, ascending.
    lens: [Vec<usize>; 2],
    /// Per kind: the distinct lengths of its plain entries' literal prefixes, ascending.
    plain_lens: [Vec<usize>; 2],
    /// Scratch of [`Prefixes::rebuild`]: the open runs.
    stack: Vec<u32>,
}

/// No run.
const NO_RUN: u32 = u32::MAX;

/// The entries of a [`Prefixes`] that share one literal prefix.
#[derive(Clone, Copy)]
struct Run {
    /// An entry with this literal prefix.
    first: u32,
    /// The length of the literal prefix.
    len: usize,
    /// Per kind: where the run's entries of that kind start in [`Prefixes::by_kind`].
    start: [u32; 2],
    /// Per kind: how many of them are plain (they come first).
    plain: [u32; 2],
    /// The run of the longest other literal prefix this one starts with.
    parent: u32,
    /// Per kind: the nearest run with plain entries of that kind, among this one and those
    /// its prefix starts with.
    plain_up: [u32; 2],
    /// Per kind: the nearest run with entries of that kind among those its prefix starts with
    /// (this one left out).
    kind_up: [u32; 2],
    /// Per kind: the number of entries of that kind in the runs whose prefixes this one starts
    /// with (this one left out).
    above: [u32; 2],
    /// The first run after this one whose prefix does not start with this one's.
    subtree_end: u32,
}

/// The first sixteen bytes of `s` as a big-endian number (zeros past its end): byte strings
/// whose keys differ compare as their keys do. Literal prefixes often share their first eight
/// bytes (`/catalog/…`), seldom sixteen.
fn head_key(s: &[u8]) -> u128 {
    let mut b = [0u8; 16];
    let n = s.len().min(16);
    b[..n].copy_from_slice(&s[..n]);
    u128::from_be_bytes(b)
}

/// The slot of a rule kind in per-kind arrays.
fn kind_slot(kind: RuleKind) -> usize {
    match kind {
        RuleKind::Allow => 0,
        RuleKind::Disallow => 1,
    }
}

impl Prefixes {
    /// The tree of the literal prefixes of `entries`.
    #[cfg(test)]
    pub(crate) fn new(entries: &[Entry]) -> Prefixes {
        let mut p = Prefixes::default();
        p.rebuild(entries);
        p
    }

    /// Makes this the tree of the literal prefixes of `entries` ([`Prefixes::new`]), keeping
    /// the vectors' memory: the rule checks build one per combined set, and most sets hold one
    /// rule.
    pub(crate) fn rebuild(&mut self, entries: &[Entry]) {
        // Sorted by (literal prefix, kind, plain first, index): a key of the prefix's first
        // sixteen bytes settles most comparisons without comparing the slices, and a tag holds
        // the rest (kind, not plain, index) in one number.
        let mut order: Vec<(u128, &[u8], u64)> = entries
            .iter()
            .enumerate()
            .map(|(i, e)| {
                // Plain (see [`plain_prefix`]): only `*`s after the literal prefix, which does
                // not end in `$`; read off the literal prefix without a second search.
                let plain = !e.rule.derived
                    && e.rule.pattern[e.lit.len()..].iter().all(|&b| b == b'*')
                    && !e.lit.ends_with(b"$");
                debug_assert_eq!(
                    plain,
                    !e.rule.derived && plain_prefix(&e.rule.pattern).is_some()
                );
                let tag =
                    (kind_slot(e.rule.kind) as u64) << 33 | u64::from(!plain) << 32 | i as u64;
                (head_key(e.lit), e.lit, tag)
            })
            .collect();
        order.sort_unstable();
        let run_of = &mut self.run_of;
        run_of.clear();
        run_of.resize(entries.len(), 0);
        let runs = &mut self.runs;
        runs.clear();
        runs.reserve(entries.len());
        let by_kind = &mut self.by_kind;
        for k in by_kind.iter_mut() {
            k.clear();
        }
        let (lens, plain_lens) = (&mut self.lens, &mut self.plain_lens);
        for k in 0..2 {
            lens[k].clear();
            plain_lens[k].clear();
        }
        // Open runs, each a prefix of the next: the ancestors of the run being read.
        let stack = &mut self.stack;
        stack.clear();
        let mut i = 0;
        while i < order.len() {
            let (key, lit, _) = order[i];
            let r = runs.len() as u32;
            let mut run = Run {
                first: order[i].2 as u32,
                len: lit.len(),
                start: [by_kind[0].len() as u32, by_kind[1].len() as u32],
                plain: [0; 2],
                parent: NO_RUN,
                plain_up: [NO_RUN; 2],
                kind_up: [NO_RUN; 2],
                above: [0; 2],
                subtree_end: 0,
            };
            while i < order.len() && order[i].0 == key && order[i].1 == lit {
                let tag = order[i].2;
                let e = tag as u32;
                let k = (tag >> 33) as usize;
                by_kind[k].push(e);
                if tag >> 32 & 1 == 0 {
                    run.plain[k] += 1;
                }
                run_of[e as usize] = r;
                i += 1;
            }
            for k in 0..2 {
                if by_kind[k].len() as u32 > run.start[k] {
                    lens[k].push(lit.len());
                }
                if run.plain[k] > 0 {
                    plain_lens[k].push(lit.len());
                }
            }
            while let Some(&top) = stack.last() {
                let t = top as usize;
                let top_lit = entries[runs[t].first as usize].lit;
                if lit.starts_with(top_lit) {
                    break;
                }
                runs[t].subtree_end = r;
                stack.pop();
            }
            if let Some(&parent) = stack.last() {
                let p = &runs[parent as usize];
                // The parent's entries of each kind end where the runs after it start.
                let next = runs.get(parent as usize + 1).map_or(run.start, |n| n.start);
                run.parent = parent;
                for (k, next) in next.into_iter().enumerate() {
                    let count = next - p.start[k];
                    run.above[k] = p.above[k] + count;
                    run.kind_up[k] = if count > 0 { parent } else { p.kind_up[k] };
                    run.plain_up[k] = p.plain_up[k];
                }
            }
            for k in 0..2 {
                if run.plain[k] > 0 {
                    run.plain_up[k] = r;
                }
            }
            runs.push(run);
            stack.push(r);
        }
        for &r in stack.iter() {
            runs[r as usize].subtree_end = runs.len() as u32;
        }
        for k in 0..2 {
            // Runs come sorted by prefix, not by length.
            lens[k].sort_unstable();
            lens[k].dedup();
            plain_lens[k].sort_unstable();
            plain_lens[k].dedup();
        }
    }

    /// Where the entries of kind slot `k` of the runs from `r` on start in `by_kind`.
    fn start_at(&self, r: usize, k: usize) -> usize {
        self.runs
            .get(r)
            .map_or(self.by_kind[k].len(), |run| run.start[k] as usize)
    }

    /// [`SetIndex::cover`] of the same entries for the literal prefix of entry `i`, charging
    /// `work` alike: the longest plain-prefix rule of `kind` (not derived) that covers every
    /// path a pattern with that literal prefix matches, other than the rules with pattern
    /// `exclude`, as an entry index.
    pub(crate) fn cover(
        &self,
        entries: &[Entry],
        i: usize,
        kind: RuleKind,
        exclude: &[u8],
        work: &Work,
    ) -> Option<usize> {
        let k = kind_slot(kind);
        let run = &self.runs[self.run_of[i] as usize];
        let lens = &self.plain_lens[k];
        let n = lens.partition_point(|&l| l <= run.len);
        if n == 0 {
            return None;
        }
        if !work.charge(1 + n.min(LOOKUP_CAP) + run.len / 64) {
            return None;
        }
        // Only the longest `LOOKUP_CAP` lengths are looked at.
        let shortest = lens[n.saturating_sub(LOOKUP_CAP)];
        let mut a = run.plain_up[k];
        while a != NO_RUN && self.runs[a as usize].len >= shortest {
            let up = &self.runs[a as usize];
            let plain = up.plain[k] as usize;
            if plain > LOOKUP_CAP || !work.charge(plain) {
                return None;
            }
            let start = up.start[k] as usize;
            let best = self.by_kind[k][start..start + plain]
                .iter()
                .map(|&j| j as usize)
                .filter(|&j| &*entries[j].rule.pattern != exclude)
                .max_by_key(|&j| (entries[j].rule.pattern.len(), usize::MAX - j));
            if best.is_some() {
                return best;
            }
            a = match up.parent {
                NO_RUN => NO_RUN,
                p => self.runs[p as usize].plain_up[k],
            };
        }
        None
    }

    /// [`SetIndex::overlapping`] of the same entries for the literal prefix of entry `i`,
    /// charging `work` alike: the entries of `kind` whose literal prefix starts with it or is a
    /// prefix of it, in no particular order.
    pub(crate) fn overlapping(
        &self,
        i: usize,
        kind: RuleKind,
        work: &Work,
    ) -> Option<impl Iterator<Item = usize> + '_> {
        let k = kind_slot(kind);
        let r = self.run_of[i] as usize;
        let run = &self.runs[r];
        let n = self.lens[k].partition_point(|&l| l <= run.len);
        if n > LOOKUP_CAP || !work.charge(1 + n + run.len / 64) {
            return None;
        }
        let shorter = run.above[k] as usize;
        if shorter > LOOKUP_CAP {
            return None;
        }
        let (start, end) = (
            run.start[k] as usize,
            self.start_at(run.subtree_end as usize, k),
        );
        let all = shorter + (end - start);
        if all > LOOKUP_CAP || !work.charge(all) {
            return None;
        }
        let ancestors = std::iter::successors(
            (run.kind_up[k] != NO_RUN).then_some(run.kind_up[k] as usize),
            move |&a| {
                let up = self.runs[a].kind_up[k];
                (up != NO_RUN).then_some(up as usize)
            },
        )
        .flat_map(move |a| {
            &self.by_kind[k][self.runs[a].start[k] as usize..self.start_at(a + 1, k)]
        });
        Some(
            ancestors
                .chain(&self.by_kind[k][start..end])
                .map(|&j| j as usize),
        )
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
        assert!(matches_everything(b"**"));
        assert!(!matches_everything(b"/a*"));
        assert!(!matches_everything(b"*/"));
        assert!(!matches_everything(b"/*$"));
    }

    #[test]
    fn caseless_keys_ignore_ascii_case_only() {
        use std::hash::BuildHasher;
        let h = |s: &str| rustc_hash::FxBuildHasher.hash_one(Caseless(s));
        assert_eq!(Caseless("GoogleBot-News"), Caseless("googlebot-news"));
        assert_eq!(h("GoogleBot-News"), h("googlebot-news"));
        assert_eq!(h("ABCDEFGHIJKLMNOPQ"), h("abcdefghijklmnopq"));
        assert_ne!(Caseless("googlebot"), Caseless("googlebot-news"));
        assert_ne!(Caseless("Ä"), Caseless("ä"));
        let mut map: HashMap<Caseless, usize> = HashMap::default();
        map.insert(Caseless("Bingbot"), 1);
        assert_eq!(map.get(&Caseless("BINGBOT")), Some(&1));
        assert_eq!(map.get(&Caseless("bing")), None);
    }

    #[test]
    fn groups_by_token_in_order_of_first_appearance() {
        let r = RobotsTxt::parse(
            b"User-agent: b\nUser-agent: A\nUser-agent: B\nDisallow: /x\n\n\
              User-agent: *\nUser-agent: a\nDisallow: /y\n\nUser-agent: a b\nAllow: /z\n",
        );
        let p = r.policy(Reading::Google);
        let by_token = groups_by_token(p);
        assert_eq!(
            by_token.iter().collect::<Vec<_>>(),
            [&[(0, 0)][..], &[(0, 1), (1, 1), (2, 0)], &[(1, 0)]]
        );
        let sets = combined_sets(p);
        let tokens: Vec<&[&str]> = sets.iter().map(|s| &s.tokens[..]).collect();
        assert_eq!(tokens, [&["b"][..], &["A"], &["*"]]);
        assert_eq!(sets[1].groups, [0, 1, 2]);
        assert!(sets[2].global);
    }

    #[test]
    fn sets_combine_groups_naming_the_same_token() {
        let r = RobotsTxt::parse(
            b"User-agent: a\nUser-agent: b\nDisallow: /x\n\nUser-agent: A\nDisallow: /y\n\nUser-agent: *\nDisallow: /z\n",
        );
        let sets = combined_sets(r.policy(Reading::Google));
        assert_eq!(sets.len(), 3);
        assert_eq!(sets[0].groups, vec![0, 1]);
        assert_eq!(sets[0].tokens, vec!["a"]);
        assert_eq!(sets[1].groups, vec![0]);
        assert_eq!(sets[1].tokens, vec!["b"]);
        assert!(sets[2].global);
    }

    /// Files whose rules nest, repeat, tie and carry wildcards, anchors and derived rules.
    fn prefix_files() -> Vec<String> {
        let mut files = vec![
            "User-agent: *\nAllow: /a\nAllow: /a/b/c\nAllow: /b\nAllow: /*.css\nDisallow: /a/b\n"
                .to_string(),
            "User-agent: *\nDisallow: /\nDisallow: /a\nDisallow: /a*\nDisallow: /a\nAllow: /a\n\
             Allow: /a/index.html\nAllow: /a/$\nDisallow: /a/b*c\nDisallow: *x\nAllow: /ab$\n\
             Disallow: /ab\nDisallow: /ab**\n\nUser-agent: b\nDisallow: /a/\nAllow: /a/b\n\n\
             User-agent: *\nDisallow: /z\nAllow: /zz/index.htm\n"
                .to_string(),
        ];
        // Nested prefixes of both kinds, in shuffled order, with repeats.
        let mut s = String::from("User-agent: *\n");
        for k in 1..80usize {
            let n = (k * 37) % 79 + 1;
            let kind = if n % 3 == 0 { "Allow" } else { "Disallow" };
            let tail = ["", "*", "$", "*q", ""][n % 5];
            s.push_str(&format!("{kind}: /{}{tail}\n", "a".repeat(n)));
            if n % 7 == 0 {
                s.push_str(&format!("{kind}: /{}\n", "a".repeat(n)));
            }
        }
        files.push(s);
        // More nested prefixes than a lookup examines.
        let mut s = String::from("User-agent: *\n");
        for n in (1..600usize).rev() {
            s.push_str(&format!("Disallow: /{}\n", "b".repeat(n)));
            if n % 6 == 0 {
                s.push_str(&format!("Allow: /{}*\n", "b".repeat(n)));
            }
        }
        files.push(s);
        files
    }

    #[test]
    fn prefixes_answer_as_the_index_does() {
        for text in prefix_files() {
            let r = RobotsTxt::parse(text.as_bytes());
            for reading in Reading::ALL {
                let p = r.policy(reading);
                for set in combined_sets(p) {
                    let entries = set_entries(p, &set.groups);
                    let ix = SetIndex::of_entries(entries.clone());
                    let prefixes = Prefixes::new(&entries);
                    // Budgets that run out part of the way, and one that does not.
                    for budget in [7, 60, 400, WORK_BUDGET] {
                        let (a, b) = (Work::new(budget), Work::new(budget));
                        for (i, e) in entries.iter().enumerate() {
                            for kind in [RuleKind::Allow, RuleKind::Disallow] {
                                let x = ix.cover(kind, e.lit, &e.rule.pattern, &a);
                                let y = prefixes.cover(&entries, i, kind, &e.rule.pattern, &b);
                                assert_eq!(x, y, "{text:?} {i} {kind:?} {budget}");
                                let x = ix.overlapping(kind, e.lit, &a).map(|mut v| {
                                    v.sort_unstable();
                                    v
                                });
                                let y = prefixes.overlapping(i, kind, &b).map(|v| {
                                    let mut v: Vec<usize> = v.collect();
                                    v.sort_unstable();
                                    v
                                });
                                assert_eq!(x, y, "{text:?} {i} {kind:?} {budget}");
                                assert_eq!(a.left.get(), b.left.get());
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn overlapping_finds_prefix_relations_only() {
        let r = RobotsTxt::parse(
            b"User-agent: *\nAllow: /a\nAllow: /a/b/c\nAllow: /b\nAllow: /*.css\nDisallow: /a/b\n",
        );
        let p = r.policy(Reading::Google);
        let ix = SetIndex::new(p, &[0]);
        let work = Work::new(WORK_BUDGET);
        let mut found: Vec<String> = ix
            .overlapping(RuleKind::Allow, b"/a/b", &work)
            .unwrap()
            .into_iter()
            .map(|i| crate::text::lossy(&ix.entries[i].rule.pattern).into_owned())
            .collect();
        found.sort();
        assert_eq!(found, vec!["/*.css", "/a", "/a/b/c"]);
        let c = ix.cover(RuleKind::Allow, b"/a/b/c/d", b"", &work).unwrap();
        assert_eq!(&*ix.entries[c].rule.pattern, b"/a/b/c");
    }
}
