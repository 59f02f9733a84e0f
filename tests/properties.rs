//! Property tests: the engine never panics, the tree is lossless, and decisions keep the
//! invariants longest-match resolution promises (RFC 9309 §2.2.2), in both readings.

use proptest::prelude::*;
use robots_explorer::decode::Encoding;
use robots_explorer::syntax::NodeKind;
use robots_explorer::{Decision, Reading, RobotsTxt, analysis};

// ---------------------------------------------------------------------------------------------
// Inputs.

/// Pieces robots.txt files are made of, plus the awkward bytes real files contain.
fn piece() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(b"User-agent:".to_vec()),
        Just(b"user agent ".to_vec()),
        Just(b"Disallow:".to_vec()),
        Just(b"Allow:".to_vec()),
        Just(b"Sitemap:".to_vec()),
        Just(b"Crawl-delay: 1".to_vec()),
        Just(b" ".to_vec()),
        Just(b"\t".to_vec()),
        Just(b"*".to_vec()),
        Just(b"$".to_vec()),
        Just(b"/".to_vec()),
        Just(b"%".to_vec()),
        Just(b"%2a".to_vec()),
        Just(b"#".to_vec()),
        Just(b":".to_vec()),
        Just(b"\n".to_vec()),
        Just(b"\r".to_vec()),
        Just(b"\r\n".to_vec()),
        Just(b"\0".to_vec()),
        Just(b"\xEF\xBB\xBF".to_vec()),
        Just(b"\xEF".to_vec()),
        Just(b"\xFF\xFE".to_vec()),
        Just(b"\xC3\xAF\xC2\xBB\xC2\xBF".to_vec()),
        Just("é".as_bytes().to_vec()),
        Just(b"\xE9".to_vec()),
        "[a-zA-Z0-9/_.-]{1,6}".prop_map(String::into_bytes),
        prop::collection::vec(any::<u8>(), 1..4),
    ]
}

/// Byte strings that look somewhat like robots.txt files.
fn robots_like() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(piece(), 0..80).prop_map(|p| p.concat())
}

/// Any bytes: robots-like, arbitrary, or UTF-16 with a byte order mark.
fn any_input() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => robots_like(),
        2 => prop::collection::vec(any::<u8>(), 0..600),
        1 => robots_like().prop_map(|b| {
            let mut out = vec![0xFF, 0xFE];
            for unit in String::from_utf8_lossy(&b).encode_utf16() {
                out.extend_from_slice(&unit.to_le_bytes());
            }
            out
        }),
        1 => (robots_like(), any::<u8>()).prop_map(|(b, odd)| {
            // UTF-16 BE, possibly with an odd trailing byte.
            let mut out = vec![0xFE, 0xFF];
            for unit in String::from_utf8_lossy(&b).encode_utf16() {
                out.extend_from_slice(&unit.to_be_bytes());
            }
            if odd % 2 == 1 {
                out.push(odd);
            }
            out
        }),
    ]
}

fn any_url() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "(https?://[a-z.]{0,8})?/[a-z/*$%?;#=&éA-F0-9]{0,16}",
    ]
}

// ---------------------------------------------------------------------------------------------
// Structured files for the decision invariants.

#[derive(Clone, Debug)]
struct Rule {
    allow: bool,
    pattern: String,
}

#[derive(Clone, Debug)]
struct Group {
    agents: Vec<&'static str>,
    rules: Vec<Rule>,
}

const AGENTS: [&str; 3] = ["alpha", "beta", "*"];

fn pattern() -> impl Strategy<Value = String> {
    "(/[ab*]{0,3}){1,3}[$]?"
}

/// A path (never starting with `//`, which would begin an authority).
fn path() -> impl Strategy<Value = String> {
    "/([ab][ab/]{0,7})?([?][ab]{0,2})?"
}

fn rule() -> impl Strategy<Value = Rule> {
    (any::<bool>(), pattern()).prop_map(|(allow, pattern)| Rule { allow, pattern })
}

/// A group always has a rule, so that adding one never changes where groups begin.
fn group() -> impl Strategy<Value = Group> {
    (
        prop::collection::vec(prop::sample::select(&AGENTS[..]), 1..3),
        prop::collection::vec(rule(), 1..6),
    )
        .prop_map(|(agents, rules)| Group { agents, rules })
}

fn model() -> impl Strategy<Value = Vec<Group>> {
    prop::collection::vec(group(), 0..4)
}

fn model_with_a_group() -> impl Strategy<Value = Vec<Group>> {
    prop::collection::vec(group(), 1..4)
}

/// Writes the groups as a file; `case` gives the spelling of each field name in turn.
fn render(groups: &[Group], case: &mut dyn FnMut(&str) -> String) -> Vec<u8> {
    let mut out = String::new();
    for g in groups {
        for a in &g.agents {
            out.push_str(&format!("{}: {a}\n", case("User-agent")));
        }
        for r in &g.rules {
            let key = if r.allow { "Allow" } else { "Disallow" };
            out.push_str(&format!("{}: {}\n", case(key), r.pattern));
        }
        out.push('\n');
    }
    out.into_bytes()
}

fn plain(groups: &[Group]) -> Vec<u8> {
    render(groups, &mut |k| k.to_string())
}

/// What must not change when the file is rewritten without changing its meaning.
fn outcome(d: &Decision) -> (bool, robots_explorer::Reason, Option<(String, usize)>) {
    (
        d.allowed,
        d.reason,
        d.rule
            .as_ref()
            .map(|r| (r.kind.as_str().to_string(), r.pattern.len())),
    )
}

fn agent() -> impl Strategy<Value = &'static str> {
    prop::sample::select(&["alpha", "beta", "gamma"][..])
}

/// A slow, obviously correct matcher: `*` matches any bytes, a final `$` anchors the end,
/// every other byte matches itself; the pattern is anchored at the start of the path.
fn reference_match(pattern: &[u8], path: &[u8]) -> bool {
    let (pattern, anchored) = match pattern.split_last() {
        Some((b'$', rest)) => (rest, true),
        _ => (pattern, false),
    };
    fn go(p: &[u8], s: &[u8], anchored: bool) -> bool {
        match p.split_first() {
            None => !anchored || s.is_empty(),
            Some((b'*', rest)) => (0..=s.len()).any(|i| go(rest, &s[i..], anchored)),
            Some((c, rest)) => s.first() == Some(c) && go(rest, &s[1..], anchored),
        }
    }
    go(pattern, path, anchored)
}

/// A file whose groups name several tokens, for buffers to be left over from.
const OTHER_FILE: &[u8] = b"User-agent: alpha\nUser-agent: beta\nDisallow: /a%41\nAllow: /a/\n\n\
User-agent: *\nDisallow: /\nUser-agent: gamma\nAllow: /a*b$\n";

// ---------------------------------------------------------------------------------------------
// Properties.

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Parsing, both policies, decisions and the analysis never panic.
    #[test]
    fn never_panics(input in any_input(), agent in any::<String>(), url in any_url()) {
        let robots = RobotsTxt::parse(&input);
        for reading in Reading::ALL {
            let p = robots.policy(reading);
            prop_assert!(p.records.len() <= robots.tree.lines.len());
            let _ = robots.decide(reading, &agent, &url);
            let _ = robots.decide(reading, "Googlebot", &url);
        }
        let _ = analysis::analyze(&robots);
        for line in &robots.tree.lines {
            let _ = robots.tree.line_col(robots.bytes(), line.span().end);
            let _ = robots.text(line.content());
        }
    }

    /// The one-pass decision equals the decision over the parsed file, in every field, for
    /// any input, crawler profile and URL, in both readings.
    #[test]
    fn one_pass_equals_parsed(
        input in prop_oneof![any_input(), model().prop_map(|m| plain(&m))],
        tokens in prop::collection::vec(
            prop::sample::select(&["alpha", "beta", "ALPHA", "Googlebot", "*", "", "a/1"][..]),
            1..4,
        ),
        obeys_global in any::<bool>(),
        urls in prop::collection::vec(prop_oneof![any_url(), path()], 1..4),
    ) {
        let robots = RobotsTxt::parse(&input);
        let profile = robots_explorer::decide::Profile { tokens: &tokens, obeys_global };
        let targets: Vec<String> = urls
            .iter()
            .map(|u| robots_explorer::pattern::path_params_query(u).into_owned())
            .collect();
        let targets: Vec<&str> = targets.iter().map(String::as_str).collect();
        for reading in Reading::ALL {
            let parsed: Vec<Decision> = targets
                .iter()
                .map(|t| robots.decide_target_as(reading, &profile, t))
                .collect();
            let once = robots_explorer::one_pass::decide_many(&input, reading, &profile, &targets);
            prop_assert_eq!(&once, &parsed);
            // With buffers left over from other inputs and profiles: the same decisions.
            let mut buffers = robots_explorer::one_pass::Buffers::default();
            let other = robots_explorer::decide::Profile { tokens: &["alpha", "beta", "gamma"], obeys_global: true };
            for (file, profile) in [(OTHER_FILE, &other), (&input[..], &profile), (OTHER_FILE, &other)] {
                robots_explorer::one_pass::decide_each_in(&mut buffers, file, reading, profile, ["/a"], |_| ());
            }
            let mut kept = Vec::new();
            robots_explorer::one_pass::decide_each_in(
                &mut buffers,
                &input,
                reading,
                &profile,
                targets.iter().copied(),
                |d| kept.push(d),
            );
            prop_assert_eq!(kept, parsed);
        }
    }

    /// Pattern matching agrees with a plain backtracking matcher.
    #[test]
    fn matching_agrees_with_a_reference(pattern in "[ab/*$]{0,9}", path in "[ab/$]{0,12}") {
        prop_assert_eq!(
            robots_explorer::pattern::matches(pattern.as_bytes(), path.as_bytes()),
            reference_match(pattern.as_bytes(), path.as_bytes())
        );
    }

    /// URLs are reduced to path, parameters and query as google/robotstxt does (compared with
    /// the `robotstxt` crate's port of `GetPathParamsQuery`).
    #[test]
    fn path_extraction_agrees_with_robotstxt(url in any_url()) {
        prop_assert_eq!(
            robots_explorer::pattern::path_params_query(&url),
            robotstxt::get_path_params_query(&url)
        );
    }

    /// Patterns are escaped as google/robotstxt does (compared with the `robotstxt` crate's
    /// port of `MaybeEscapePattern`). The port skips the two bytes after *any* `%` when it
    /// looks for bytes to escape, where the original skips only a valid escape, so every `%`
    /// generated here starts a valid escape.
    #[test]
    fn google_pattern_escaping_agrees_with_robotstxt(
        pattern in prop_oneof![
            "([a-gA-G0-9/é*$]|%[0-9a-fA-F]{2}){0,8}",
            any::<String>().prop_map(|s| s.replace('%', "%25")),
        ]
    ) {
        prop_assert_eq!(
            robots_explorer::pattern::google_escape_pattern(pattern.as_bytes()).into_owned(),
            robotstxt::parser::escape_pattern(&pattern).into_bytes()
        );
    }

    /// Every byte belongs to exactly one node, in order, and writing the nodes back gives the
    /// source; the source is the input itself unless the input was UTF-16.
    #[test]
    fn lossless_round_trip(input in any_input()) {
        let robots = RobotsTxt::parse(&input);
        let bytes = robots.bytes();
        prop_assert_eq!(robots.tree.write_back(bytes), bytes.to_vec());
        if !matches!(robots.source.encoding, Encoding::Utf16Le | Encoding::Utf16Be) {
            prop_assert_eq!(bytes, &input[..]);
        }
        prop_assert_eq!(robots.source.input_len, input.len());
        let mut at = 0;
        for node in &robots.tree.nodes {
            prop_assert_eq!(node.span().start, at);
            prop_assert!(node.span().end > node.span().start, "empty node {:?}", node);
            at = node.span().end;
        }
        prop_assert_eq!(at, bytes.len());
        // Lines cover everything between the byte order mark and the ignored region.
        let mut at = robots.source.bom_len.min(bytes.len());
        for (i, line) in robots.tree.lines.iter().enumerate() {
            prop_assert_eq!(line.number(), i + 1);
            prop_assert_eq!(line.span().start, at);
            prop_assert_eq!(robots.tree.line_nodes(line).iter().map(|n| n.span().len()).sum::<usize>(),
                line.span().len());
            at = line.span().end;
        }
        let end = robots.tree.ignored.map_or(bytes.len(), |s| s.start);
        prop_assert_eq!(at, end);
        prop_assert!(robots.tree.nodes.iter().filter(|n| n.kind == NodeKind::ByteOrderMark).count() <= 1);
    }

    /// Adding an allow rule never turns an allowed URL into a disallowed one, and an allow
    /// longer than every matching rule decides.
    #[test]
    fn adding_an_allow_never_disallows(
        groups in model_with_a_group(), at in any::<prop::sample::Index>(), new in pattern(),
        agent in agent(), path in path(),
    ) {
        let before = RobotsTxt::parse(&plain(&groups));
        let mut more = groups.clone();
        let g = at.index(more.len());
        more[g].rules.push(Rule { allow: true, pattern: new });
        let after = RobotsTxt::parse(&plain(&more));
        // The path itself, anchored: it decides unless a longer pattern (with `*`s matching
        // nothing) matches too.
        let mut exact = groups.clone();
        exact[g].rules.push(Rule { allow: true, pattern: format!("{path}$") });
        let exact = RobotsTxt::parse(&plain(&exact));
        for reading in Reading::ALL {
            let b = before.decide(reading, agent, &path);
            let a = after.decide(reading, agent, &path);
            prop_assert!(!b.allowed || a.allowed, "{reading}: {b:?} then {a:?}");
            let e = exact.decide(reading, agent, &path);
            if e.groups.contains(&(exact.policy(reading).groups[g].first_line + 1)) {
                let longer = e.rule.as_ref().is_some_and(|r| r.pattern.len() > path.len() + 1);
                prop_assert!(e.allowed || longer, "{reading}: {e:?}");
            }
        }
    }

    /// Adding a disallow rule never turns a disallowed URL into an allowed one.
    #[test]
    fn adding_a_disallow_never_allows(
        groups in model_with_a_group(), at in any::<prop::sample::Index>(), new in pattern(),
        agent in agent(), path in path(),
    ) {
        let before = RobotsTxt::parse(&plain(&groups));
        let mut more = groups.clone();
        let g = at.index(more.len());
        more[g].rules.push(Rule { allow: false, pattern: new });
        let after = RobotsTxt::parse(&plain(&more));
        for reading in Reading::ALL {
            let b = before.decide(reading, agent, &path);
            let a = after.decide(reading, agent, &path);
            prop_assert!(b.allowed || !a.allowed, "{reading}: {b:?} then {a:?}");
        }
    }

    /// The case of field names does not matter (RFC 9309 §2.2).
    #[test]
    fn field_name_case_does_not_matter(
        groups in model(), flips in prop::collection::vec(any::<u32>(), 1..8),
        agent in agent(), path in path(),
    ) {
        let mut n = 0;
        let mut case = |key: &str| -> String {
            n += 1;
            let bits = flips[n % flips.len()];
            key.chars()
                .enumerate()
                .map(|(i, c)| if bits >> (i % 32) & 1 == 1 { c.to_ascii_uppercase() } else { c.to_ascii_lowercase() })
                .collect()
        };
        let mixed = RobotsTxt::parse(&render(&groups, &mut case));
        let straight = RobotsTxt::parse(&plain(&groups));
        for reading in Reading::ALL {
            let a = outcome(&straight.decide(reading, agent, &path));
            let b = outcome(&mixed.decide(reading, agent, &path));
            prop_assert_eq!(a, b, "{}", reading);
        }
    }

    /// The order of rules within a group does not matter (longest match, not file order).
    #[test]
    fn rule_order_does_not_matter(
        groups in model(), seed in any::<u64>(), agent in agent(), path in path(),
    ) {
        let mut shuffled = groups.clone();
        let mut s = seed | 1;
        for g in &mut shuffled {
            // A small xorshift: a different order for each group.
            for i in (1..g.rules.len()).rev() {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                g.rules.swap(i, (s % (i as u64 + 1)) as usize);
            }
        }
        let a = RobotsTxt::parse(&plain(&groups));
        let b = RobotsTxt::parse(&plain(&shuffled));
        for reading in Reading::ALL {
            prop_assert_eq!(
                outcome(&a.decide(reading, agent, &path)),
                outcome(&b.decide(reading, agent, &path)),
                "{}", reading
            );
        }
    }

    /// Splitting a group's rules over two groups for the same crawler changes nothing
    /// (groups naming the same product token are combined, RFC 9309 §2.2.1).
    #[test]
    fn groups_for_the_same_crawler_combine(
        rules in prop::collection::vec(rule(), 2..8), cut in any::<prop::sample::Index>(),
        path in path(),
    ) {
        let k = 1 + cut.index(rules.len() - 1);
        let one = vec![Group { agents: vec!["alpha"], rules: rules.clone() }];
        let two = vec![
            Group { agents: vec!["alpha"], rules: rules[..k].to_vec() },
            Group { agents: vec!["beta"], rules: vec![Rule { allow: false, pattern: "/".into() }] },
            Group { agents: vec!["ALPHA"], rules: rules[k..].to_vec() },
        ];
        let a = RobotsTxt::parse(&plain(&one));
        let b = RobotsTxt::parse(&plain(&two));
        for reading in Reading::ALL {
            prop_assert_eq!(
                outcome(&a.decide(reading, "Alpha", &path)),
                outcome(&b.decide(reading, "Alpha", &path)),
                "{}", reading
            );
        }
    }
}
