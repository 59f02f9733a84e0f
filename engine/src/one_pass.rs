//! Decisions in one pass over the bytes, without building the tree or the policy.
//!
//! A crawler that asks once per file (fetch robots.txt, decide a URL, forget the file) does
//! not need the lossless [`crate::syntax::Tree`], every [`crate::fields::Record`] or a
//! [`crate::groups::Policy`] with an owned pattern per rule. [`decide_once`] reads the borrowed
//! input line by line with the same pieces those stages use ([`Lines`], [`read_record`],
//! [`TokenRef`], [`normalize`], [`pattern_decides`], [`Longest`]), keeps for each of the
//! crawler's product tokens and for `*` the first lines of the groups that apply and the best
//! matching allow and disallow, and matches only the rules of groups that apply. Nothing is
//! allocated per line; a decision costs a handful of allocations (the [`Decision`] itself).
//!
//! The answer is the one [`crate::RobotsTxt::decide_target_as`] gives for the same input, in
//! every field (the tests compare both over the corpus and over generated files). UTF-16 input
//! (rare; see [`crate::decode::Source::is_utf16`]) takes the parsed path.

use crate::Reading;
use crate::decide::{Decision, Longest, Profile, RuleRef, pattern_decides};
use crate::decode::{PARSING_LIMIT, starts_with_utf16_bom, utf8_bom_len};
use crate::fields::{Field, read_record};
use crate::groups::{RuleKind, TokenRef, derived_pattern, google_index_allow};
use crate::pattern::{Side, normalize, path_params_query};
use crate::syntax::{Lines, Span};
use std::cell::Cell;

/// A matching rule, by position: enough to describe it once it has won.
#[derive(Clone, Copy, Debug)]
struct RuleAt {
    /// 0-based line index.
    line: usize,
    kind: RuleKind,
    /// The value as written.
    value: Span,
    /// Google's derived `/dir/$` allow.
    derived: bool,
}

/// Whether a crawler with `profile` may fetch `url` (an absolute URL or a path, read as
/// [`crate::decide::Policy::decide_as`] reads it) under the robots.txt `input`, in `reading`:
/// the same [`Decision`] as `RobotsTxt::parse(input).decide_as(reading, profile, url)`, in one
/// pass over `input`.
pub fn decide_url_once(input: &[u8], reading: Reading, profile: &Profile, url: &str) -> Decision {
    decide_once(input, reading, profile, &path_params_query(url))
}

/// Whether a crawler with `profile` may fetch the request target `target` (a path and query as
/// sent on the request line, see [`crate::request::request_target`]) under the robots.txt
/// `input`, in `reading`: the same [`Decision`] as
/// `RobotsTxt::parse(input).decide_target_as(reading, profile, target)`, in one pass.
pub fn decide_once(input: &[u8], reading: Reading, profile: &Profile, target: &str) -> Decision {
    decide_many(input, reading, profile, &[target])
        .pop()
        .expect("one decision per target")
}

/// [`decide_once`] for several request targets at once: one pass over `input`, then each
/// applicable rule matched against every target. Decisions are in the order of `targets`.
pub fn decide_many(
    input: &[u8],
    reading: Reading,
    profile: &Profile,
    targets: &[&str],
) -> Vec<Decision> {
    let mut out = Vec::with_capacity(targets.len());
    decide_each(input, reading, profile, targets.iter().copied(), |d| {
        out.push(d)
    });
    out
}

/// A rule of a group that applies to some slot, read in the pass over the input.
struct Gathered<'i> {
    at: RuleAt,
    /// Slots of the groups it is in.
    applies: u64,
    pattern: std::borrow::Cow<'i, [u8]>,
    derived: Option<Box<[u8]>>,
}

/// [`decide_many`] with each decision handed to `each` as soon as it is made, in the order of
/// `targets`, so that nothing is kept per target: one pass over `input` gathers the rules of
/// the groups that apply, then each target is matched against those of the groups chosen.
pub fn decide_each<'t>(
    input: &[u8],
    reading: Reading,
    profile: &Profile,
    targets: impl IntoIterator<Item = &'t str>,
    each: impl FnMut(Decision),
) {
    // The thread's spare working memory, taken while in use: a call made from `each` finds
    // none and starts empty.
    let mut buffers = SPARE.try_with(Cell::take).unwrap_or_default();
    decide_each_in(&mut buffers, input, reading, profile, targets, each);
    if buffers.rules.capacity() <= SPARE_RULES_MAX {
        let _ = SPARE.try_with(|spare| spare.set(buffers));
    }
}

thread_local! {
    /// The working memory of the one-shot entry points ([`decide_url_once`], [`decide_once`],
    /// [`decide_many`], [`decide_each`]), kept on each thread from one call to the next. A run
    /// over many files then gathers each file's rules into memory that is already allocated
    /// and mostly cached, instead of growing a new vector, copy by copy, for every file: over
    /// the corpus, keeping it took the pass from 2.16 to 1.66 million L1 data misses
    /// (callgrind's cache simulation, reads and writes).
    static SPARE: Cell<Buffers> = const {
        Cell::new(Buffers {
            rules: Vec::new(),
            groups: Vec::new(),
        })
    };
}

/// The most rules (4 MiB of them, about 50,000) whose room a thread keeps between one-shot
/// calls; the room a larger file needed is given back when its call returns.
const SPARE_RULES_MAX: usize = (4 << 20) / std::mem::size_of::<Gathered<'static>>();

/// The working memory of [`decide_each_in`]: the rules gathered in the pass and the first
/// lines of the groups that apply. Kept from one input to the next, it is allocated once for
/// a run over many files instead of growing again for each (a file of thousands of rules
/// reallocates its list of rules a dozen times, copying it each time, on fresh pages).
#[derive(Default)]
pub struct Buffers {
    /// The rules gathered, empty between calls; held with the lifetime of no input, see
    /// [`recycle`].
    rules: Vec<Gathered<'static>>,
    /// Per slot, the first lines of the groups that apply; each empty between calls.
    groups: Vec<Vec<usize>>,
}

/// `rules`, emptied, as a vector for inputs of another lifetime, keeping its allocation: a
/// `Gathered` has the same size and alignment whatever input it borrows from, so collecting
/// the (empty) vector into the other type reuses the buffer in place.
fn recycle<'a, 'b>(mut rules: Vec<Gathered<'a>>) -> Vec<Gathered<'b>> {
    rules.clear();
    rules.into_iter().map(|_| unreachable!("empty")).collect()
}

/// [`decide_each`] with the working memory of `buffers`, which is left empty (but allocated)
/// for the next input: the same decisions, in the same order.
pub fn decide_each_in<'t>(
    buffers: &mut Buffers,
    input: &[u8],
    reading: Reading,
    profile: &Profile,
    targets: impl IntoIterator<Item = &'t str>,
    mut each: impl FnMut(Decision),
) {
    // The slots: one per product token of the profile, and the last for `*`; a group's
    // applicability is a bit mask of slots.
    let slots = profile.tokens.len() + 1;
    if starts_with_utf16_bom(input) || slots > 64 {
        let robots = crate::RobotsTxt::parse(input);
        for t in targets {
            each(robots.decide_target_as(reading, profile, t));
        }
        return;
    }
    let groups = &mut buffers.groups;
    groups.resize_with(slots, Vec::new);
    let mut rules: Vec<Gathered<'_>> = recycle(std::mem::take(&mut buffers.rules));

    let bom = utf8_bom_len(input).min(input.len());
    let limit = input.len().min(PARSING_LIMIT.max(bom));
    // One search of the whole input spares the Google reading a NUL search per line.
    let nul_free = memchr::memchr(0, &input[..limit]).is_none();
    // Whether the current group has had a rule (a user-agent line then starts a new group).
    let mut in_rules = true;
    let mut in_group = false;
    let mut group_start = 0;
    let mut applies: u64 = 0;
    for (index, line) in Lines::new(input, bom, limit).enumerate() {
        let Some(record) = read_record(
            input,
            line.start,
            line.content_end,
            index,
            reading,
            nul_free,
        ) else {
            continue;
        };
        let value = &input[record.value.range()];
        match record.field {
            Field::UserAgent => {
                if in_rules || !in_group {
                    in_rules = false;
                    in_group = true;
                    group_start = index;
                    applies = 0;
                }
                let named = match TokenRef::read(value, reading) {
                    TokenRef::Any => 1 << (slots - 1),
                    token @ TokenRef::Name(_) => profile
                        .tokens
                        .iter()
                        .enumerate()
                        .filter(|(_, t)| token.names(t))
                        .fold(0, |m, (i, _)| m | 1 << i),
                    TokenRef::Invalid => 0,
                };
                let new = named & !applies;
                applies |= named;
                for (slot, first_lines) in groups.iter_mut().enumerate() {
                    if new & (1 << slot) != 0 {
                        first_lines.push(group_start + 1);
                    }
                }
            }
            Field::Allow | Field::Disallow => {
                if !in_group {
                    continue;
                }
                in_rules = true;
                if applies == 0 {
                    continue;
                }
                let kind = RuleKind::of(record.field).unwrap_or(RuleKind::Disallow);
                let pattern = normalize(value, reading, Side::Pattern);
                let derived = derived_pattern(&pattern, kind, reading);
                rules.push(Gathered {
                    at: RuleAt {
                        line: index,
                        kind,
                        value: record.value,
                        derived: false,
                    },
                    applies,
                    pattern,
                    derived,
                });
            }
            _ => {}
        }
    }

    // The groups naming the first token that any group names; else `*` if the profile obeys it.
    let token = (0..slots - 1).find(|&i| !groups[i].is_empty());
    let slot = match token {
        Some(i) => Some(i),
        None if profile.obeys_global => Some(slots - 1),
        None => None,
    };
    let applicable: &[usize] = slot.map_or(&[], |s| &groups[s]);
    // Only the rules of the chosen groups can decide.
    rules.retain(|r| slot.is_some_and(|s| r.applies & (1 << s) != 0));
    for target in targets {
        let path = normalize(target.as_bytes(), reading, Side::Url);
        // `/robots.txt` is always allowed in the RFC 9309 reading: its rules need no matching.
        let to_match = !(reading == Reading::Rfc9309 && &*path == b"/robots.txt");
        let mut best: Longest<RuleAt> = Longest::default();
        if to_match {
            for r in &rules {
                if pattern_decides(&r.pattern, &path) {
                    best.offer(r.at.kind, r.pattern.len(), r.at);
                }
                if let Some(p) = &r.derived
                    && pattern_decides(p, &path)
                {
                    let derived = RuleAt {
                        derived: true,
                        ..r.at
                    };
                    best.offer(r.at.kind, p.len(), derived);
                }
            }
        }
        each(Decision::conclude(
            reading,
            profile,
            token,
            applicable.to_vec(),
            &path,
            || {
                slot?;
                let (reason, rule) = best.winner()?;
                Some((reason, rule_ref(input, reading, rule)))
            },
        ));
    }
    for first_lines in groups.iter_mut() {
        first_lines.clear();
    }
    buffers.rules = recycle(rules);
}

/// The deciding rule as a [`RuleRef`]: its pattern normalised again, as the policy holds it.
fn rule_ref(input: &[u8], reading: Reading, rule: RuleAt) -> RuleRef {
    let pattern = normalize(&input[rule.value.range()], reading, Side::Pattern);
    let pattern = if rule.derived {
        google_index_allow(&pattern).map_or_else(Vec::new, Vec::from)
    } else {
        pattern.into_owned()
    };
    RuleRef {
        line: rule.line + 1,
        kind: rule.kind,
        pattern: crate::text::lossy(&pattern).into_owned(),
        derived: rule.derived,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_keep_their_memory_from_one_input_to_the_next() {
        let profile = Profile {
            tokens: &["Googlebot"],
            obeys_global: true,
        };
        let mut file = String::from("User-agent: *\n");
        for i in 0..1000 {
            file.push_str(&format!("Disallow: /p{i}/\n"));
        }
        let mut buffers = Buffers::default();
        let mut decided = Vec::new();
        decide_each_in(
            &mut buffers,
            file.as_bytes(),
            Reading::Google,
            &profile,
            ["/p999/x", "/q"],
            |d| decided.push(d),
        );
        assert_eq!(
            decided,
            decide_many(
                file.as_bytes(),
                Reading::Google,
                &profile,
                &["/p999/x", "/q"]
            )
        );
        assert!(buffers.rules.is_empty() && buffers.rules.capacity() >= 1000);
        assert!(buffers.groups.iter().all(Vec::is_empty));
        let kept = buffers.rules.as_ptr() as usize;
        decide_each_in(
            &mut buffers,
            b"User-agent: Googlebot\nAllow: /\n",
            Reading::Rfc9309,
            &profile,
            ["/"],
            |d| assert!(d.allowed),
        );
        assert_eq!(buffers.rules.as_ptr() as usize, kept, "the same allocation");
    }

    #[test]
    fn one_shot_calls_share_the_threads_memory_and_may_nest() {
        let profile = Profile {
            tokens: &["Googlebot"],
            obeys_global: true,
        };
        let outer = b"User-agent: *\nDisallow: /a\nAllow: /a/b\n";
        let inner = b"User-agent: Googlebot\nDisallow: /\n";
        let alone: Vec<bool> = ["/a", "/a/b", "/c"]
            .iter()
            .map(|t| decide_once(outer, Reading::Google, &profile, t).allowed)
            .collect();
        assert_eq!(alone, [false, true, true]);
        // A decision made inside the callback of another finds the spare memory taken and
        // works in its own; neither disturbs the other's rules.
        let mut nested = Vec::new();
        decide_each(
            outer,
            Reading::Google,
            &profile,
            ["/a", "/a/b", "/c"],
            |d| {
                let inside = decide_once(inner, Reading::Google, &profile, "/c");
                assert!(!inside.allowed);
                nested.push(d.allowed);
            },
        );
        assert_eq!(nested, alone);
        // A file with more rules than the spare room keeps is decided as any other.
        let mut big = String::from("User-agent: *\n");
        for i in 0..=SPARE_RULES_MAX {
            big.push_str(&format!("Disallow: /p{i}\n"));
        }
        assert!(!decide_once(big.as_bytes(), Reading::Google, &profile, "/p7").allowed);
        assert!(decide_once(big.as_bytes(), Reading::Google, &profile, "/q").allowed);
        assert!(decide_once(outer, Reading::Google, &profile, "/a/b").allowed);
    }
}
