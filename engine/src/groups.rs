//! Stage 4: records → groups, rules and sitemaps (RFC 9309 §2.1, §2.2.1, §2.2.4).
//!
//! One or more user-agent lines start a group; allow and disallow lines are its rules. Only a
//! rule ends the list of user-agent lines: blank lines, comments, sitemap lines and other records
//! do not, so `User-agent: a` / `Crawl-delay: 1` / `User-agent: b` / `Disallow: /` is *one* group
//! for `a` and `b` (google/robotstxt behaves this way, and RFC 9309 §2.2.4 says other records
//! must not interrupt a group). A user-agent line after a rule starts a new group. Rules before
//! the first user-agent line belong to no group and are ignored.

use crate::Reading;
use crate::fields::{Field, Record, records};
use crate::pattern::{Side, normalize};
use crate::syntax::{Span, Tree};
use std::borrow::Cow;

/// The product token a user-agent line names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProductToken {
    /// `*`: the group for crawlers that no other group names.
    Any,
    /// A product token, as written (compared case-insensitively).
    Name(String),
    /// A value that selects no crawler in this reading (empty, or not a product token in the
    /// Google reading, e.g. `*bot`).
    Invalid,
}

/// A product token as a user-agent value names it, borrowed from the value: what
/// [`ProductToken`] holds, without copying.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenRef<'a> {
    /// `*`: the group for crawlers that no other group names.
    Any,
    /// A product token, as written (compared case-insensitively).
    Name(&'a [u8]),
    /// A value that selects no crawler in this reading.
    Invalid,
}

impl<'a> TokenRef<'a> {
    /// Reads a user-agent value in `reading` (see [`ProductToken::read`]).
    #[inline]
    pub fn read(value: &'a [u8], reading: Reading) -> TokenRef<'a> {
        let is_token_char = |b: &u8| b.is_ascii_alphabetic() || *b == b'-' || *b == b'_';
        match reading {
            Reading::Google => {
                // C's `isspace`, as google/robotstxt uses it: vertical tab included.
                if value.first() == Some(&b'*')
                    && (value.len() == 1 || value[1].is_ascii_whitespace() || value[1] == 0x0B)
                {
                    return TokenRef::Any;
                }
                let n = value.iter().take_while(|b| is_token_char(b)).count();
                if n == 0 {
                    TokenRef::Invalid
                } else {
                    TokenRef::Name(&value[..n])
                }
            }
            Reading::Rfc9309 => {
                // RFC 9309 §2.2.1 compares the whole value with the crawler's product token.
                // Values that break the token grammar (digits, `/`, spaces) are still compared
                // whole, so `MJ12bot` selects MJ12bot while `Googlebot/2.1` selects nobody.
                if value == b"*" {
                    TokenRef::Any
                } else if value.is_empty() {
                    TokenRef::Invalid
                } else {
                    TokenRef::Name(value)
                }
            }
        }
    }

    /// Whether this token names the crawler `agent` (case-insensitive, RFC 9309 §2.2.1).
    #[inline]
    pub fn names(self, agent: &str) -> bool {
        match self {
            TokenRef::Name(n) => n.eq_ignore_ascii_case(agent.as_bytes()),
            _ => false,
        }
    }
}

impl ProductToken {
    /// Reads a user-agent value in `reading`.
    ///
    /// Google takes `*` (alone or followed by white space) as the global group, otherwise the
    /// leading run of `[A-Za-z_-]` characters. RFC 9309 §2.2.1 compares the whole value, which
    /// the grammar requires to be `*` or a product token of `[A-Za-z_-]` characters.
    pub fn read(value: &[u8], reading: Reading) -> ProductToken {
        match TokenRef::read(value, reading) {
            TokenRef::Any => ProductToken::Any,
            TokenRef::Name(n) => ProductToken::Name(crate::text::lossy(n).into_owned()),
            TokenRef::Invalid => ProductToken::Invalid,
        }
    }

    /// The token, borrowed.
    pub fn as_token_ref(&self) -> TokenRef<'_> {
        match self {
            ProductToken::Any => TokenRef::Any,
            ProductToken::Name(n) => TokenRef::Name(n.as_bytes()),
            ProductToken::Invalid => TokenRef::Invalid,
        }
    }

    /// Whether this token names the crawler `agent` (case-insensitive, RFC 9309 §2.2.1).
    pub fn names(&self, agent: &str) -> bool {
        self.as_token_ref().names(agent)
    }
}

/// A user-agent line of a group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserAgent {
    /// 0-based line index.
    pub line: usize,
    /// The value as written.
    pub value: Span,
    /// The product token it names.
    pub token: ProductToken,
}

/// Allow or disallow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RuleKind {
    /// `allow`
    Allow,
    /// `disallow`
    Disallow,
}

impl RuleKind {
    /// The kind of rule a record of `field` is: `Some` for `allow` and `disallow` only.
    pub fn of(field: Field) -> Option<RuleKind> {
        match field {
            Field::Allow => Some(RuleKind::Allow),
            Field::Disallow => Some(RuleKind::Disallow),
            _ => None,
        }
    }

    /// `allow` or `disallow`.
    pub fn as_str(self) -> &'static str {
        match self {
            RuleKind::Allow => "allow",
            RuleKind::Disallow => "disallow",
        }
    }
}

/// An allow or disallow rule (RFC 9309 §2.2.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    /// 0-based line index.
    pub line: usize,
    /// Allow or disallow.
    pub kind: RuleKind,
    /// The value as written.
    pub value: Span,
    /// The pattern as matched, normalised for the reading. Its length in bytes is the rule's
    /// priority in longest-match resolution.
    pub pattern: Pattern,
    /// Google adds, for an allow pattern ending in `/index.htm…`, a rule allowing the directory
    /// itself (`/dir/$`). Such rules are `derived`.
    pub derived: bool,
}

/// A rule's pattern bytes: a span of the source when normalising changed nothing (most
/// patterns), so that a rule costs no allocation of its own; its own bytes otherwise. Reads as
/// a byte slice.
#[derive(Clone)]
pub enum Pattern {
    /// `bytes[start..end]` of the source, shared with the file and every other rule.
    Source {
        /// The source bytes.
        bytes: std::sync::Arc<[u8]>,
        /// Offset of the first byte.
        start: u32,
        /// Offset one past the last byte.
        end: u32,
    },
    /// Bytes that differ from the source (normalised, or derived).
    Owned(Box<[u8]>),
}

impl Pattern {
    /// The pattern `value` of `source` (bytes `value.start..value.end`) becomes after `normalised`
    /// (what [`normalize`] gave for those bytes): a span when nothing changed.
    pub fn of(source: &std::sync::Arc<[u8]>, value: Span, normalised: Cow<'_, [u8]>) -> Pattern {
        match (
            normalised,
            u32::try_from(value.start),
            u32::try_from(value.end),
        ) {
            (Cow::Borrowed(_), Ok(start), Ok(end)) => Pattern::Source {
                bytes: source.clone(),
                start,
                end,
            },
            // Offsets past 4 GiB (never within the parsing limit): the bytes themselves.
            (normalised, ..) => Pattern::Owned(normalised.into_owned().into()),
        }
    }
}

impl std::ops::Deref for Pattern {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Pattern::Source { bytes, start, end } => &bytes[*start as usize..*end as usize],
            Pattern::Owned(b) => b,
        }
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Pattern) -> bool {
        match (self, other) {
            // The same bytes of the same source: equal without looking at them (the readings'
            // policies of one file share most patterns this way).
            (
                Pattern::Source { bytes, start, end },
                Pattern::Source {
                    bytes: b,
                    start: s,
                    end: e,
                },
            ) if std::sync::Arc::ptr_eq(bytes, b) && start == s && end == e => true,
            _ => **self == **other,
        }
    }
}

impl Eq for Pattern {}

impl std::hash::Hash for Pattern {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (**self).hash(state)
    }
}

impl std::fmt::Debug for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", crate::text::lossy(self))
    }
}

impl From<Box<[u8]>> for Pattern {
    fn from(b: Box<[u8]>) -> Pattern {
        Pattern::Owned(b)
    }
}

impl Rule {
    /// The rule an allow or disallow record stands for in `reading`, with its pattern
    /// normalised, and Google's derived `/dir/$` allow when the pattern ends in `/index.htm…`.
    /// `bytes` are the bytes the record's spans index into. A record of another field is read
    /// as a disallow (callers pass rule records only).
    pub fn of_record(
        bytes: &std::sync::Arc<[u8]>,
        record: &Record,
        reading: Reading,
    ) -> (Rule, Option<Rule>) {
        let kind = RuleKind::of(record.field).unwrap_or(RuleKind::Disallow);
        let normalised = normalize(&bytes[record.value.range()], reading, Side::Pattern);
        let pattern = Pattern::of(bytes, record.value, normalised);
        let derived = derived_pattern(&pattern, kind, reading).map(|p| Rule {
            line: record.line,
            kind,
            value: record.value,
            pattern: p.into(),
            derived: true,
        });
        let rule = Rule {
            line: record.line,
            kind,
            value: record.value,
            pattern,
            derived: false,
        };
        (rule, derived)
    }
}

/// A group: user-agent lines and the rules that follow them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Group {
    /// The user-agent lines, in order.
    pub user_agents: Vec<UserAgent>,
    /// The rules, in order (derived rules follow the rule they come from).
    pub rules: Vec<Rule>,
    /// 0-based indices of other records inside the group (sitemap, non-standard, unknown).
    pub others: Vec<usize>,
    /// 0-based index of the first line of the group.
    pub first_line: usize,
    /// 0-based index of the last record line of the group.
    pub last_line: usize,
}

impl Group {
    /// Whether the group has a `*` user-agent line.
    pub fn is_global(&self) -> bool {
        self.user_agents
            .iter()
            .any(|u| u.token == ProductToken::Any)
    }
    /// Whether a user-agent line names `agent`.
    pub fn names(&self, agent: &str) -> bool {
        self.user_agents.iter().any(|u| u.token.names(agent))
    }
}

/// A sitemap line (RFC 9309 §2.2.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sitemap {
    /// 0-based line index.
    pub line: usize,
    /// The URL as written.
    pub url: Span,
}

/// The meaning of a file in one reading: its records, groups and sitemaps.
#[derive(Clone, Debug)]
pub struct Policy {
    /// The reading.
    pub reading: Reading,
    /// Every record, in line order.
    pub records: Vec<Record>,
    /// The groups, in file order.
    pub groups: Vec<Group>,
    /// Sitemap lines, anywhere in the file.
    pub sitemaps: Vec<Sitemap>,
    /// 0-based line indices of rules before the first user-agent line (ignored).
    pub rules_outside_groups: Vec<usize>,
    /// Product token in ASCII lower case → indices of the groups naming it, so that selecting
    /// groups costs one lookup however many groups the file has.
    by_token: rustc_hash::FxHashMap<String, Vec<usize>>,
    /// Indices of the `*` groups.
    global: Vec<usize>,
}

impl Policy {
    /// Groups the records of `tree` in `reading`.
    pub fn build(bytes: &std::sync::Arc<[u8]>, tree: &Tree, reading: Reading) -> Policy {
        Self::from_records(bytes, records(bytes, tree, reading), reading)
    }

    /// The RFC 9309 reading of `tree`, given `google`, the Google reading's policy of the same
    /// `bytes` and `tree` (built by [`Policy::build`]): its records are read off Google's where
    /// both readings split the lines alike ([`crate::fields::rfc_records`]).
    pub fn build_rfc_given_google(
        bytes: &std::sync::Arc<[u8]>,
        tree: &Tree,
        google: &Policy,
    ) -> Policy {
        let records = crate::fields::rfc_records(bytes, tree, &google.records);
        Self::from_records(bytes, records, Reading::Rfc9309)
    }

    /// A policy with no records: the reading finds nothing in the file, so every URL is allowed
    /// to every crawler. This is the Google reading of a UTF-16 file (see
    /// [`crate::decode::Source::is_utf16`]).
    pub fn empty(reading: Reading) -> Policy {
        Self::from_records(&std::sync::Arc::from(&[][..]), Vec::new(), reading)
    }

    fn from_records(
        bytes: &std::sync::Arc<[u8]>,
        records: Vec<Record>,
        reading: Reading,
    ) -> Policy {
        // The lines of each kind each group will hold, counted first, so that every vector is
        // allocated once at its size (derived rules, rare, may still grow one).
        let mut sizes: Vec<[usize; 3]> = Vec::new();
        let mut in_rules = true;
        for r in &records {
            match r.field {
                Field::UserAgent => {
                    if in_rules || sizes.is_empty() {
                        sizes.push([0; 3]);
                        in_rules = false;
                    }
                    sizes.last_mut().expect("pushed above")[0] += 1;
                }
                Field::Allow | Field::Disallow => {
                    if let Some(size) = sizes.last_mut() {
                        in_rules = true;
                        size[1] += 1;
                    }
                }
                _ => {
                    if let Some(size) = sizes.last_mut() {
                        size[2] += 1;
                    }
                }
            }
        }
        let mut groups: Vec<Group> = Vec::with_capacity(sizes.len());
        let mut sitemaps = Vec::new();
        let mut rules_outside_groups = Vec::new();
        // Whether the current group has had a rule (a user-agent line then starts a new group).
        let mut in_rules = true;
        for r in &records {
            let value = &bytes[r.value.range()];
            match r.field {
                Field::UserAgent => {
                    if in_rules || groups.is_empty() {
                        let [user_agents, rules, others] = sizes[groups.len()];
                        groups.push(Group {
                            first_line: r.line,
                            user_agents: Vec::with_capacity(user_agents),
                            rules: Vec::with_capacity(rules),
                            others: Vec::with_capacity(others),
                            ..Group::default()
                        });
                        in_rules = false;
                    }
                    let g = groups.last_mut().expect("pushed above");
                    g.user_agents.push(UserAgent {
                        line: r.line,
                        value: r.value,
                        token: ProductToken::read(value, reading),
                    });
                    g.last_line = r.line;
                }
                Field::Allow | Field::Disallow => {
                    let Some(g) = groups.last_mut() else {
                        rules_outside_groups.push(r.line);
                        continue;
                    };
                    in_rules = true;
                    let (rule, derived) = Rule::of_record(bytes, r, reading);
                    g.rules.push(rule);
                    g.rules.extend(derived);
                    g.last_line = r.line;
                }
                _ => {
                    if r.field == Field::Sitemap {
                        sitemaps.push(Sitemap {
                            line: r.line,
                            url: r.value,
                        });
                    }
                    if let Some(g) = groups.last_mut() {
                        g.others.push(r.line);
                    }
                }
            }
        }
        // A derived rule may have grown a group's rules: give back the room `push` reserved.
        for g in &mut groups {
            g.user_agents.shrink_to_fit();
            g.rules.shrink_to_fit();
            g.others.shrink_to_fit();
        }
        // Room for a token per user-agent line, so that the map is not grown step by step;
        // given back when lines repeat tokens (thousands of groups naming one crawler).
        let lines: usize = groups.iter().map(|g| g.user_agents.len()).sum();
        let mut by_token: rustc_hash::FxHashMap<String, Vec<usize>> =
            rustc_hash::FxHashMap::with_capacity_and_hasher(lines, Default::default());
        let mut global = Vec::new();
        for (i, g) in groups.iter().enumerate() {
            for ua in &g.user_agents {
                match &ua.token {
                    ProductToken::Name(n) => {
                        let v = by_token.entry(n.to_ascii_lowercase()).or_default();
                        if v.last() != Some(&i) {
                            v.push(i);
                        }
                    }
                    ProductToken::Any => {
                        if global.last() != Some(&i) {
                            global.push(i);
                        }
                    }
                    ProductToken::Invalid => {}
                }
            }
        }
        if by_token.capacity() > 2 * by_token.len() + 64 {
            by_token.shrink_to_fit();
        }
        Policy {
            reading,
            records,
            groups,
            sitemaps,
            rules_outside_groups,
            by_token,
            global,
        }
    }

    /// The groups that apply to crawler `agent`: every group naming it (combined, RFC 9309
    /// §2.2.1), else every `*` group, else none. The flag says whether they name it.
    pub fn groups_for(&self, agent: &str) -> (Vec<&Group>, bool) {
        // Tokens are compared ASCII-case-insensitively (`ProductToken::names`), so the
        // lower-cased agent finds exactly the groups that name it.
        if let Some(named) = self.named(agent) {
            return (named.iter().map(|&i| &self.groups[i]).collect(), true);
        }
        (
            self.global.iter().map(|&i| &self.groups[i]).collect(),
            false,
        )
    }

    /// Indices (into [`Policy::groups`]) of the `*` groups, in file order.
    pub fn global_groups(&self) -> &[usize] {
        &self.global
    }

    /// The `*` groups, in file order.
    pub fn groups_for_all(&self) -> Vec<&Group> {
        self.global.iter().map(|&i| &self.groups[i]).collect()
    }

    /// Indices (into [`Policy::groups`]) of the groups whose user-agent lines name `agent`,
    /// in file order; empty when none does.
    pub fn groups_naming(&self, agent: &str) -> &[usize] {
        self.named(agent).map_or(&[], Vec::as_slice)
    }

    /// The indices of the groups naming `agent`, looked up under its lower-cased form (without
    /// a lower-cased copy when it has no upper-case letter).
    fn named(&self, agent: &str) -> Option<&Vec<usize>> {
        if agent.bytes().any(|b| b.is_ascii_uppercase()) {
            self.by_token.get(&agent.to_ascii_lowercase())
        } else {
            self.by_token.get(agent)
        }
    }

    /// The record on 0-based line `line`, if that line is a record in this reading.
    pub fn record_at(&self, line: usize) -> Option<&Record> {
        self.records
            .binary_search_by_key(&line, |r| r.line)
            .ok()
            .map(|i| &self.records[i])
    }
}

/// The pattern of the rule google/robotstxt derives from a rule of `kind` with the normalised
/// `pattern` in `reading`: an allow ending in `/index.htm…` also allows its directory (see
/// [`google_index_allow`]); `None` for every other rule and in the RFC 9309 reading.
pub fn derived_pattern(pattern: &[u8], kind: RuleKind, reading: Reading) -> Option<Box<[u8]>> {
    (reading == Reading::Google && kind == RuleKind::Allow)
        .then(|| google_index_allow(pattern))
        .flatten()
}

/// google/robotstxt: an allow pattern whose last `/` starts `/index.htm` also allows the
/// directory itself, as the pattern `<up to that slash>$`.
pub fn google_index_allow(pattern: &[u8]) -> Option<Box<[u8]>> {
    let slash = pattern.iter().rposition(|&b| b == b'/')?;
    if !pattern[slash..].starts_with(b"/index.htm") {
        return None;
    }
    let mut p = pattern[..=slash].to_vec();
    p.push(b'$');
    Some(p.into())
}
