//! Unit-level cases for the engine: reading bytes (byte order marks, UTF-16, bytes that are
//! not UTF-8, line terminators, the parsing limit, Google's line length), the lossless tree,
//! records and groups, and decisions, including cases users reported against other tools.

use robots_explorer::decode::{Encoding, GOOGLE_MAX_LINE_BYTES, PARSING_LIMIT};
use robots_explorer::fields::{Field, Spelling};
use robots_explorer::groups::{ProductToken, RuleKind};
use robots_explorer::syntax::{LineEnd, NodeKind, SeparatorKind};
use robots_explorer::{Reading, Reason, RobotsTxt};

const BOTH: [Reading; 2] = Reading::ALL;

fn allowed(body: &[u8], reading: Reading, agent: &str, url: &str) -> bool {
    RobotsTxt::parse(body).decide(reading, agent, url).allowed
}

fn kinds(robots: &RobotsTxt, line: usize) -> Vec<NodeKind> {
    let l = &robots.tree.lines[line];
    robots.tree.line_nodes(l).iter().map(|n| n.kind).collect()
}

// ---------------------------------------------------------------------------------------------
// Cases users reported against other tools (issue 2).

#[test]
fn reported_allow_longer_than_disallow_wins_regardless_of_order() {
    let body = b"User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n";
    for reading in BOTH {
        let r = RobotsTxt::parse(body);
        let d = r.decide(reading, "Googlebot", "/wp-admin/admin-ajax.php");
        assert!(d.allowed, "{reading}");
        assert_eq!(d.reason, Reason::LongestMatch);
        let rule = d.rule.unwrap();
        assert_eq!((rule.line, rule.kind), (3, RuleKind::Allow));
        assert_eq!(rule.pattern, "/wp-admin/admin-ajax.php");
        // The rest of the directory stays disallowed, by line 2.
        let d = r.decide(reading, "Googlebot", "/wp-admin/options.php");
        assert!(!d.allowed);
        assert_eq!(d.rule.unwrap().line, 2);
    }
}

#[test]
fn reported_disallow_slash_question_mark_is_not_disallow_all() {
    let body = b"User-agent: *\nDisallow: /?\n";
    for reading in BOTH {
        let r = RobotsTxt::parse(body);
        let d = r.decide(reading, "Bingbot", "/about");
        assert!(d.allowed, "{reading}");
        assert_eq!(d.reason, Reason::NoMatchingRule);
        assert!(d.rule.is_none());
        assert!(!r.decide(reading, "Bingbot", "/?page=2").allowed);
        assert!(
            !r.decide(reading, "Bingbot", "https://example.com/?q")
                .allowed
        );
        assert!(r.decide(reading, "Bingbot", "/").allowed);
    }
}

#[test]
fn reported_crawl_delay_and_blank_line_do_not_end_the_group() {
    let body = b"User-agent: *\nCrawl-delay: 10\n\nUser-agent: badbot\nDisallow: /\n";
    for reading in BOTH {
        let r = RobotsTxt::parse(body);
        let p = r.policy(reading);
        assert_eq!(p.groups.len(), 1, "{reading}");
        assert_eq!(p.groups[0].user_agents.len(), 2);
        assert_eq!(p.groups[0].others, vec![1]);
        for agent in ["SomeBot", "badbot", "BADBOT"] {
            let d = r.decide(reading, agent, "/");
            assert!(!d.allowed, "{reading} {agent}");
            assert_eq!(d.rule.unwrap().line, 5);
        }
    }
}

#[test]
fn reported_utf8_bom_then_disallow_all() {
    let body = b"\xEF\xBB\xBFUser-agent: *\nDisallow: /\n";
    for reading in BOTH {
        let r = RobotsTxt::parse(body);
        for url in ["/", "/index.html", "https://example.com/a?b"] {
            let d = r.decide(reading, "Googlebot", url);
            assert!(!d.allowed, "{reading} {url}");
            assert_eq!(d.rule.unwrap().line, 2);
        }
    }
}

#[test]
fn reported_percent_2a_in_pattern_against_literal_star() {
    let body = b"User-agent: *\nDisallow: /path/file-with-a-%2A.html\n";
    let url = "/path/file-with-a-*.html";
    assert!(!allowed(body, Reading::Rfc9309, "Bot", url));
    assert!(allowed(body, Reading::Google, "Bot", url));
    // Google compares the escape as written: the escaped URL is disallowed there.
    assert!(!allowed(
        body,
        Reading::Google,
        "Bot",
        "/path/file-with-a-%2A.html"
    ));
}

// ---------------------------------------------------------------------------------------------
// Reading the bytes.

#[test]
fn utf8_bom_is_its_own_node_and_not_a_line() {
    let body = b"\xEF\xBB\xBFUser-agent: *\nDisallow: /x\n";
    let r = RobotsTxt::parse(body);
    assert_eq!(r.source.encoding, Encoding::Utf8Bom);
    assert_eq!(r.source.bom_len, 3);
    assert_eq!(r.tree.bom.map(|s| (s.start, s.end)), Some((0, 3)));
    assert_eq!(r.tree.nodes[0].kind, NodeKind::ByteOrderMark);
    assert_eq!(r.tree.lines.len(), 2);
    let first = &r.tree.lines[0];
    assert_eq!(first.number(), 1);
    assert_eq!(first.span().start, 3);
    assert_eq!(
        &r.bytes()[first.parts().key.unwrap().range()],
        b"User-agent"
    );
    assert_eq!(r.tree.line_col(r.bytes(), 3), (1, 1));
    assert_eq!(r.tree.write_back(r.bytes()), body);
}

#[test]
fn truncated_bom_is_skipped_like_google() {
    // google/robotstxt skips any prefix of the byte order mark.
    let body = b"\xEF\xBBUser-agent: *\nDisallow: /\n";
    let r = RobotsTxt::parse(body);
    assert_eq!(r.source.bom_len, 2);
    assert!(!r.decide(Reading::Google, "a", "/").allowed);
    assert_eq!(r.tree.write_back(r.bytes()), body);
}

fn utf16(text: &str, little_endian: bool) -> Vec<u8> {
    let mut out = if little_endian {
        vec![0xFF, 0xFE]
    } else {
        vec![0xFE, 0xFF]
    };
    for unit in text.encode_utf16() {
        let b = if little_endian {
            unit.to_le_bytes()
        } else {
            unit.to_be_bytes()
        };
        out.extend_from_slice(&b);
    }
    out
}

#[test]
fn utf16_with_bom_is_decoded() {
    let text = "User-agent: *\r\nDisallow: /privé/\r\nAllow: /privé/ok\r\n";
    for le in [true, false] {
        let body = utf16(text, le);
        let r = RobotsTxt::parse(&body);
        assert_eq!(
            r.source.encoding,
            if le {
                Encoding::Utf16Le
            } else {
                Encoding::Utf16Be
            }
        );
        assert_eq!(r.source.input_len, body.len());
        assert!(!r.source.utf16_errors);
        // The source is the UTF-8 transcoding after a 3-byte byte order mark node.
        assert_eq!(&r.bytes()[..3], b"\xEF\xBB\xBF");
        assert_eq!(&r.bytes()[3..], text.as_bytes());
        assert_eq!(r.tree.lines.len(), 3);
        assert_eq!(r.tree.lines[0].terminator(), LineEnd::CrLf);
        // The RFC reading applies the transcoded text.
        let rfc = Reading::Rfc9309;
        assert!(!r.decide(rfc, "x", "/priv%C3%A9/page").allowed);
        assert!(r.decide(rfc, "x", "/priv%C3%A9/ok").allowed);
        assert!(r.decide(rfc, "x", "/public").allowed);
        // Google's parser reads the raw bytes: a NUL ends every line, no field is found, and
        // everything is allowed.
        let google = r.policy(Reading::Google);
        assert!(google.records.is_empty() && google.groups.is_empty());
        let d = r.decide(Reading::Google, "x", "/priv%C3%A9/page");
        assert!(d.allowed);
        assert_eq!(d.reason, Reason::NoGroup);
    }
}

/// A crafted UTF-16 file whose raw bytes spell fields: Google's parser reads those raw bytes, so
/// both readings do, and decisions follow them rather than the UTF-16 text.
#[test]
fn utf16_whose_raw_bytes_spell_fields_is_read_raw() {
    // `FF FE` then raw ASCII: as UTF-16LE this is CJK text, as bytes it is a group.
    let mut body = b"\xFF\xFE\nUser-agent: *\nDisallow: /a\n".to_vec();
    if body.len() % 2 == 1 {
        body.push(b'\n');
    }
    let r = RobotsTxt::parse(&body);
    assert!(r.source.utf16_kept_raw);
    assert!(!r.source.is_utf16());
    for reading in BOTH {
        assert!(!r.decide(reading, "x", "/a").allowed, "{reading}");
        assert!(r.decide(reading, "x", "/b").allowed, "{reading}");
    }
}

#[test]
fn utf16_unpaired_surrogate_is_recorded() {
    let mut body = utf16("User-agent: *\nDisallow: /a", true);
    body.extend_from_slice(&[0x00, 0xD8]); // a lone high surrogate
    body.extend_from_slice(&utf16("\nDisallow: /b\n", true)[2..]);
    let r = RobotsTxt::parse(&body);
    assert!(r.source.utf16_errors);
    assert!(!r.decide(Reading::Rfc9309, "x", "/b").allowed);
}

#[test]
fn misencoded_bom_is_recognised_and_spoils_the_first_field() {
    let body = b"\xC3\xAF\xC2\xBB\xC2\xBFUser-agent: *\nDisallow: /\n";
    let r = RobotsTxt::parse(body);
    assert!(r.source.misencoded_bom);
    assert_eq!(r.source.bom_len, 0);
    assert_eq!(r.source.encoding, Encoding::Utf8);
    assert_eq!(r.tree.lines.len(), 2);
    for reading in BOTH {
        let p = r.policy(reading);
        // The first key is `ï»¿User-agent`: not a user-agent line, so the disallow has no group.
        assert_eq!(p.records[0].field, Field::Unknown, "{reading}");
        assert!(p.groups.is_empty());
        assert_eq!(p.rules_outside_groups, vec![1]);
        let d = r.decide(reading, "Googlebot", "/private");
        assert!(d.allowed);
        assert_eq!(d.reason, Reason::NoGroup);
    }
}

#[test]
fn bytes_that_are_not_utf8_are_kept_and_matched_as_bytes() {
    let body = b"User-agent: *\nDisallow: /caf\xE9/\n";
    let r = RobotsTxt::parse(body);
    assert_eq!(r.source.encoding, Encoding::NotUtf8);
    assert_eq!(r.source.first_invalid_utf8, Some(28));
    assert_eq!(r.bytes(), body);
    // Shown lossily as Windows-1252.
    assert_eq!(r.text(r.tree.lines[1].content()), "Disallow: /caf\u{e9}/");
    // The byte is percent-encoded in the pattern in both readings.
    for reading in BOTH {
        assert!(!r.decide(reading, "x", "/caf%E9/menu").allowed, "{reading}");
        assert!(r.decide(reading, "x", "/caf%C3%A9/menu").allowed);
    }
}

#[test]
fn line_terminators_are_kept_per_line() {
    let body = b"User-agent: *\nDisallow: /a\r\nDisallow: /b\rDisallow: /c\r\r\nDisallow: /d";
    let r = RobotsTxt::parse(body);
    let ends: Vec<LineEnd> = r.tree.lines.iter().map(|l| l.terminator()).collect();
    assert_eq!(
        ends,
        [
            LineEnd::Lf,
            LineEnd::CrLf,
            LineEnd::Cr,
            LineEnd::Cr,
            LineEnd::CrLf,
            LineEnd::None
        ]
    );
    assert!(r.tree.lines[4].is_blank());
    assert_eq!(r.tree.write_back(r.bytes()), body);
    for reading in BOTH {
        for (path, line) in [("/a", 2), ("/b", 3), ("/c", 4), ("/d", 6)] {
            let d = r.decide(reading, "x", path);
            assert!(!d.allowed, "{reading} {path}");
            assert_eq!(d.rule.unwrap().line, line);
        }
    }
}

#[test]
fn cr_only_file() {
    let body = b"User-agent: *\rDisallow: /private/\rAllow: /private/open\r";
    let r = RobotsTxt::parse(body);
    assert_eq!(r.tree.lines.len(), 3);
    assert!(r.tree.lines.iter().all(|l| l.terminator() == LineEnd::Cr));
    for reading in BOTH {
        assert!(!r.decide(reading, "x", "/private/x").allowed);
        assert!(r.decide(reading, "x", "/private/open").allowed);
    }
}

#[test]
fn parsing_limit_cuts_the_crossing_line_and_keeps_the_rest() {
    // Padding comments up to just before the limit, then a rule that crosses it.
    let mut body = b"User-agent: *\nDisallow: /early\n".to_vec();
    while body.len() < PARSING_LIMIT - 100 {
        body.extend_from_slice(b"# padding padding padding padding padding padding\n");
    }
    let pad = PARSING_LIMIT - 20 - body.len();
    body.extend(std::iter::repeat_n(b'#', pad));
    body.push(b'\n');
    let crossing = body.len();
    // `Disallow: /late-rule-crossing` starts 19 bytes before the limit.
    assert_eq!(PARSING_LIMIT - crossing, 19);
    body.extend_from_slice(b"Disallow: /late-rule-crossing\nDisallow: /after\n");
    let r = RobotsTxt::parse(&body);
    let last = r.tree.lines.last().unwrap();
    assert!(last.cut_by_limit());
    assert_eq!(last.span().start, crossing);
    assert_eq!(last.span().end, PARSING_LIMIT);
    assert_eq!(last.terminator(), LineEnd::None);
    let ignored = r.tree.ignored.unwrap();
    assert_eq!((ignored.start, ignored.end), (PARSING_LIMIT, body.len()));
    assert_eq!(r.tree.nodes.last().unwrap().kind, NodeKind::Ignored);
    assert_eq!(r.tree.write_back(r.bytes()), body);
    for reading in BOTH {
        assert!(!r.decide(reading, "x", "/early").allowed);
        // The cut rule is `Disallow: /late-rul`: the 19 bytes below the limit.
        let d = r.decide(reading, "x", "/late-rule-x");
        assert!(!d.allowed, "{reading}");
        assert_eq!(d.rule.unwrap().pattern, "/late-rul");
        assert!(r.decide(reading, "x", "/late-x").allowed);
        assert!(r.decide(reading, "x", "/after").allowed, "{reading}");
    }
}

#[test]
fn google_truncates_lines_at_16663_bytes() {
    assert_eq!(GOOGLE_MAX_LINE_BYTES, 16_664);
    let prefix = b"Disallow: /";
    let mut long = b"User-agent: *\n".to_vec();
    long.extend_from_slice(prefix);
    long.extend(std::iter::repeat_n(b'a', 20_000 - prefix.len()));
    long.extend_from_slice(b"/end\n");
    let r = RobotsTxt::parse(&long);
    let keep = GOOGLE_MAX_LINE_BYTES - 1 - prefix.len(); // `a`s kept after the slash
    let cut_path = format!("/{}", "a".repeat(keep));
    let full_path = format!("/{}/end", "a".repeat(20_000 - prefix.len()));
    let g = r.policy(Reading::Google);
    let rule = &g.groups[0].rules[0];
    assert_eq!(rule.pattern.len(), keep + 1);
    assert_eq!(g.records[1].value.len(), keep + 1);
    let rfc = r.policy(Reading::Rfc9309);
    assert_eq!(rfc.groups[0].rules[0].pattern.len(), full_path.len());
    // A path that has the kept part but not the dropped part.
    let probe = format!("{cut_path}zzz");
    assert!(!r.decide(Reading::Google, "x", &probe).allowed);
    assert!(r.decide(Reading::Rfc9309, "x", &probe).allowed);
    assert!(!r.decide(Reading::Rfc9309, "x", &full_path).allowed);
    // The tree itself keeps every byte.
    assert_eq!(r.tree.write_back(r.bytes()), long);
}

#[test]
fn google_cuts_a_line_at_a_nul_byte() {
    let body = b"User-agent: *\nDisallow: /a\0b\n";
    let r = RobotsTxt::parse(body);
    assert_eq!(r.source.nul_bytes, 1);
    assert!(!r.decide(Reading::Google, "x", "/a").allowed);
    assert!(!r.decide(Reading::Google, "x", "/ab").allowed);
    assert!(r.decide(Reading::Rfc9309, "x", "/ab").allowed);
}

// ---------------------------------------------------------------------------------------------
// The lossless tree.

#[test]
fn nodes_of_a_line() {
    let body = b"  Disallow : /x/  # keep out\n";
    let r = RobotsTxt::parse(body);
    assert_eq!(
        kinds(&r, 0),
        [
            NodeKind::Whitespace,
            NodeKind::Key,
            NodeKind::Whitespace,
            NodeKind::Separator,
            NodeKind::Whitespace,
            NodeKind::Value,
            NodeKind::Whitespace,
            NodeKind::Comment,
            NodeKind::LineEnd,
        ]
    );
    let l = &r.tree.lines[0];
    assert_eq!(&body[l.parts().key.unwrap().range()], b"Disallow");
    assert_eq!(&body[l.parts().value.unwrap().range()], b"/x/");
    assert_eq!(&body[l.parts().comment.unwrap().range()], b"# keep out");
    // Every byte in exactly one node, in order.
    let mut at = 0;
    for n in &r.tree.nodes {
        assert_eq!(n.span().start, at);
        assert!(n.span().end > n.span().start);
        at = n.span().end;
    }
    assert_eq!(at, body.len());
}

#[test]
fn text_lines_and_missing_colon() {
    let body = b"Disallow /tmp\nthis line has several words\n";
    let r = RobotsTxt::parse(body);
    let l0 = &r.tree.lines[0];
    assert_eq!(l0.parts().separator.unwrap().1, SeparatorKind::Whitespace);
    assert_eq!(kinds(&r, 1), [NodeKind::Text, NodeKind::LineEnd]);
}

#[test]
fn line_and_column_count_characters() {
    let body = "User-agent: *\nDisallow: /é/x\n".as_bytes();
    let r = RobotsTxt::parse(body);
    let x = body.iter().rposition(|&b| b == b'x').unwrap();
    assert_eq!(r.tree.line_col(body, x), (2, 14));
}

// ---------------------------------------------------------------------------------------------
// Records and groups.

#[test]
fn field_names_are_case_insensitive() {
    let body = b"USER-AGENT: *\nDISALLOW: /a\nallow: /a/b\nSiteMap: https://e.example/s.xml\n";
    for reading in BOTH {
        let r = RobotsTxt::parse(body);
        let p = r.policy(reading);
        let fields: Vec<Field> = p.records.iter().map(|r| r.field).collect();
        assert_eq!(
            fields,
            [
                Field::UserAgent,
                Field::Disallow,
                Field::Allow,
                Field::Sitemap
            ]
        );
        assert_eq!(p.sitemaps.len(), 1);
        assert!(!r.decide(reading, "x", "/a").allowed);
        assert!(r.decide(reading, "x", "/a/b").allowed);
    }
}

#[test]
fn google_variants_prefixes_and_missing_colons() {
    let body =
        b"Useragent: *\nDissallow: /a\nDisalow /b\nDisallowed: /c\nUser agent: other\nDisallow: /\n";
    let r = RobotsTxt::parse(body);
    let g = r.policy(Reading::Google);
    let spelt: Vec<(Field, Spelling)> = g.records.iter().map(|r| (r.field, r.spelling)).collect();
    assert_eq!(
        spelt,
        [
            (Field::UserAgent, Spelling::Variant),
            (Field::Disallow, Spelling::Variant),
            (Field::Disallow, Spelling::Variant),
            (Field::Disallow, Spelling::Prefix),
            (Field::UserAgent, Spelling::Variant),
            (Field::Disallow, Spelling::Exact),
        ]
    );
    for p in ["/a", "/b", "/c"] {
        assert!(!r.decide(Reading::Google, "x", p).allowed, "{p}");
        // The strict reading sees no group at all.
        let d = r.decide(Reading::Rfc9309, "x", p);
        assert!(d.allowed);
    }
    let rfc = r.policy(Reading::Rfc9309);
    assert!(
        rfc.records
            .iter()
            .all(|r| matches!(r.field, Field::Unknown | Field::Disallow))
    );
    assert!(!r.decide(Reading::Google, "other", "/z").allowed);
}

#[test]
fn non_standard_fields_are_classified() {
    let body =
        b"User-agent: *\nCrawl-delay: 5\nHost: example.com\nClean-param: ref /\nX-Thing: 1\n";
    let r = RobotsTxt::parse(body);
    for reading in BOTH {
        let fields: Vec<Field> = r.policy(reading).records.iter().map(|r| r.field).collect();
        assert_eq!(
            fields,
            [
                Field::UserAgent,
                Field::NonStandard("crawl-delay"),
                Field::NonStandard("host"),
                Field::NonStandard("clean-param"),
                Field::Unknown
            ]
        );
    }
}

#[test]
fn rules_before_the_first_user_agent_are_ignored() {
    let body = b"Disallow: /a\nUser-agent: x\nDisallow: /b\n";
    for reading in BOTH {
        let r = RobotsTxt::parse(body);
        assert_eq!(r.policy(reading).rules_outside_groups, vec![0]);
        assert!(r.decide(reading, "x", "/a").allowed);
        assert!(!r.decide(reading, "x", "/b").allowed);
        let d = r.decide(reading, "y", "/a");
        assert_eq!(d.reason, Reason::NoGroup);
    }
}

#[test]
fn user_agent_after_a_rule_starts_a_new_group_and_same_tokens_combine() {
    let body = b"User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n\nUser-agent: A\nAllow: /x/open\n";
    for reading in BOTH {
        let r = RobotsTxt::parse(body);
        assert_eq!(r.policy(reading).groups.len(), 3);
        let d = r.decide(reading, "a", "/x/open");
        assert!(d.allowed);
        assert_eq!(d.groups, vec![1, 6]);
        assert!(d.named_group);
        assert!(!r.decide(reading, "a", "/x/closed").allowed);
        assert!(r.decide(reading, "a", "/y").allowed);
        assert!(!r.decide(reading, "b", "/y").allowed);
    }
}

#[test]
fn star_group_applies_only_when_no_group_names_the_crawler() {
    let body = b"User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /private\n";
    for reading in BOTH {
        let r = RobotsTxt::parse(body);
        assert!(r.decide(reading, "googlebot", "/public").allowed);
        assert!(!r.decide(reading, "Googlebot", "/private").allowed);
        let d = r.decide(reading, "Bingbot", "/public");
        assert!(!d.allowed);
        assert!(!d.named_group);
    }
}

#[test]
fn product_tokens_in_each_reading() {
    assert_eq!(
        ProductToken::read(b"Googlebot/2.1 (+http://x)", Reading::Google),
        ProductToken::Name("Googlebot".into())
    );
    assert_eq!(
        ProductToken::read(b"* extra", Reading::Google),
        ProductToken::Any
    );
    for space in [b' ', b'\t', 0x0B, 0x0C] {
        assert_eq!(
            ProductToken::read(&[b'*', space, b'x'], Reading::Google),
            ProductToken::Any
        );
    }
    assert_eq!(
        ProductToken::read(b"*bot", Reading::Google),
        ProductToken::Invalid
    );
    assert_eq!(
        ProductToken::read(b"*", Reading::Rfc9309),
        ProductToken::Any
    );
    assert_eq!(
        ProductToken::read(b"", Reading::Rfc9309),
        ProductToken::Invalid
    );
    let body = b"User-agent: Googlebot/2.1\nDisallow: /\n";
    assert!(!allowed(body, Reading::Google, "Googlebot", "/"));
    assert!(allowed(body, Reading::Rfc9309, "Googlebot", "/"));
}

// ---------------------------------------------------------------------------------------------
// Decisions.

#[test]
fn tie_goes_to_allow_and_reasons_are_named() {
    let body = b"User-agent: *\nDisallow: /page\nAllow: /page\nDisallow: /a*\nAllow: /a/b\n";
    for reading in BOTH {
        let r = RobotsTxt::parse(body);
        let d = r.decide(reading, "x", "/page");
        assert!(d.allowed);
        assert_eq!(d.reason, Reason::AllowOnTie);
        assert_eq!(d.rule.unwrap().line, 3);
        let d = r.decide(reading, "x", "/a/c");
        assert!(!d.allowed);
        assert_eq!(d.reason, Reason::LongestMatch);
        let d = r.decide(reading, "x", "/a/b");
        assert!(d.allowed);
        assert_eq!(d.rule.unwrap().kind, RuleKind::Allow);
    }
}

#[test]
fn no_group_means_allowed() {
    let body = b"User-agent: someone-else\nDisallow: /\n";
    for reading in BOTH {
        let d = RobotsTxt::parse(body).decide(reading, "x", "/a");
        assert!(d.allowed);
        assert_eq!(d.reason, Reason::NoGroup);
        assert!(d.groups.is_empty());
    }
    let d = RobotsTxt::parse(b"").decide(Reading::Google, "x", "/");
    assert!(d.allowed);
}

#[test]
fn empty_rules_match_nothing() {
    let body = b"User-agent: *\nDisallow:\nAllow:\n";
    for reading in BOTH {
        let d = RobotsTxt::parse(body).decide(reading, "x", "/anything");
        assert!(d.allowed);
        assert_eq!(d.reason, Reason::NoMatchingRule);
    }
}

#[test]
fn wildcards_and_end_anchor() {
    let body = b"User-agent: *\nDisallow: /*.pdf$\nDisallow: /tmp*/x\nDisallow: /a$b\n";
    for reading in BOTH {
        let r = RobotsTxt::parse(body);
        assert!(!r.decide(reading, "x", "/docs/file.pdf").allowed);
        assert!(r.decide(reading, "x", "/docs/file.pdf?x=1").allowed);
        assert!(!r.decide(reading, "x", "/tmp123/x").allowed);
        assert!(r.decide(reading, "x", "/tmp123/y").allowed);
        assert!(r.decide(reading, "x", "/a").allowed);
    }
    // A `$` that is not last is literal; in the RFC reading it is compared as `%24`.
    let r = RobotsTxt::parse(body);
    assert!(!r.decide(Reading::Google, "x", "/a$b").allowed);
    assert!(!r.decide(Reading::Rfc9309, "x", "/a$b").allowed);
    assert!(!r.decide(Reading::Rfc9309, "x", "/a%24b").allowed);
}

#[test]
fn percent_encoding_per_reading() {
    // RFC 9309 §2.2.2: escapes of unreserved characters are decoded, others normalised.
    let body = b"User-agent: *\nDisallow: /%7Ejoe/\nDisallow: /a%2fb\nDisallow: /caf\xC3\xA9\n";
    let r = RobotsTxt::parse(body);
    assert!(!r.decide(Reading::Rfc9309, "x", "/~joe/index").allowed);
    assert!(r.decide(Reading::Google, "x", "/~joe/index").allowed);
    assert!(!r.decide(Reading::Google, "x", "/%7Ejoe/index").allowed);
    for reading in BOTH {
        assert!(!r.decide(reading, "x", "/a%2Fb").allowed, "{reading}");
        assert!(!r.decide(reading, "x", "/caf%C3%A9").allowed);
    }
    // The RFC reading encodes the URL too.
    assert!(!r.decide(Reading::Rfc9309, "x", "/caf\u{e9}").allowed);
}

#[test]
fn robots_txt_itself() {
    let body = b"User-agent: *\nDisallow: /\n";
    let r = RobotsTxt::parse(body);
    let d = r.decide(Reading::Rfc9309, "x", "https://example.com/robots.txt");
    assert!(d.allowed);
    assert_eq!(d.reason, Reason::RobotsTxtAlwaysAllowed);
    assert!(!r.decide(Reading::Google, "x", "/robots.txt").allowed);
}

#[test]
fn google_index_html_allows_the_directory() {
    let body = b"User-agent: *\nDisallow: /\nAllow: /dir/index.html\n";
    let r = RobotsTxt::parse(body);
    let d = r.decide(Reading::Google, "x", "/dir/");
    assert!(d.allowed);
    assert!(d.rule.unwrap().derived);
    assert!(!r.decide(Reading::Google, "x", "/dir/other").allowed);
    assert!(!r.decide(Reading::Rfc9309, "x", "/dir/").allowed);
}

#[test]
fn urls_are_reduced_to_path_params_and_query() {
    let body = b"User-agent: *\nDisallow: /a;b\nDisallow: /?q\n";
    for reading in BOTH {
        let r = RobotsTxt::parse(body);
        assert!(!r.decide(reading, "x", "https://e.example/a;b#frag").allowed);
        assert!(!r.decide(reading, "x", "https://e.example?q=1").allowed);
        assert!(r.decide(reading, "x", "https://e.example/#?q").allowed);
        assert_eq!(r.decide(reading, "x", "https://e.example").path, "/");
    }
}

/// A file of CR LF lines of which `read` bytes of the line crossing the parsing limit (a comment
/// of 6 bytes and its CR LF) are before the limit, followed by two more rules.
fn crlf_file_crossing_the_limit(read: usize) -> Vec<u8> {
    let limit = robots_explorer::decode::PARSING_LIMIT;
    let mut f = b"User-agent: *\r\n".to_vec();
    let mut i = 0;
    while f.len() < limit - 200 {
        f.extend_from_slice(format!("Disallow: /p{i:06}\r\n").as_bytes());
        i += 1;
    }
    let start = limit - read;
    f.resize(start - 2, b'#');
    f.extend_from_slice(b"\r\n# xxxx\r\nDisallow: /lost-1/\r\nDisallow: /lost-2/\r\n");
    f
}

#[test]
fn the_ignored_region_is_computed_once_for_a_crlf_split_by_the_limit() {
    use robots_explorer::analysis::analyze;
    use robots_explorer::html::ignored_region;
    let limit = robots_explorer::decode::PARSING_LIMIT;
    // The line's content is 6 bytes, so its CR is byte 511,999 and its LF byte 512,000.
    let f = crlf_file_crossing_the_limit(7);
    assert_eq!(&f[limit - 1..=limit], b"\r\n");
    let robots = RobotsTxt::parse(&f);
    let r = robots.tree.ignored_region(robots.bytes()).unwrap();
    assert!(r.split_crlf);
    assert_eq!(r.cut_line, None);
    assert_eq!(r.cut_tail_bytes, 0);
    assert_eq!((r.lines, r.rules), (2, 2));
    assert_eq!(r.bytes, f.len() - limit);
    assert_eq!(ignored_region(&robots), Some(r));
    let a = analyze(&robots);
    let beyond: Vec<_> = a
        .diagnostics
        .iter()
        .filter(|d| d.name == "beyond-parsing-limit")
        .collect();
    assert_eq!(beyond.len(), 1);
    assert!(
        beyond[0].message.contains("with 2 rules (2 lines in all)"),
        "{}",
        beyond[0].message
    );
    // A CR LF file stays a CR LF file, even with its last CR LF split by the limit.
    let names: Vec<&str> = a.diagnostics.iter().map(|d| d.name).collect();
    assert!(!names.contains(&"cr-line-endings"), "{names:?}");
    assert!(!names.contains(&"mixed-line-endings"), "{names:?}");
    let html = robots_explorer::html::listing(
        &robots,
        &a,
        &robots_explorer::html::ListingOptions::default(),
    );
    assert!(html.contains("2 lines, 2 rules lost"));
}

#[test]
fn the_ignored_region_of_a_line_cut_in_the_middle() {
    let limit = robots_explorer::decode::PARSING_LIMIT;
    let f = crlf_file_crossing_the_limit(4);
    let robots = RobotsTxt::parse(&f);
    let r = robots.tree.ignored_region(robots.bytes()).unwrap();
    let cut = robots.tree.lines.last().unwrap();
    assert!(cut.cut_by_limit());
    assert!(!r.split_crlf);
    assert_eq!(r.cut_line, Some(cut.number()));
    // `# xx` read, `xx` past the limit, then the line's CR LF.
    assert_eq!(r.cut_tail_bytes, 2);
    assert_eq!((r.lines, r.rules), (2, 2));
    assert_eq!(r.bytes, f.len() - limit);
    let a = robots_explorer::analysis::analyze(&robots);
    let names: Vec<&str> = a.diagnostics.iter().map(|d| d.name).collect();
    assert!(!names.contains(&"cr-line-endings"), "{names:?}");
    assert!(!names.contains(&"mixed-line-endings"), "{names:?}");
}

#[test]
fn one_line_ending_diagnostic_per_file() {
    use robots_explorer::analysis::analyze;
    let names = |b: &[u8]| -> Vec<&'static str> {
        analyze(&RobotsTxt::parse(b))
            .diagnostics
            .iter()
            .map(|d| d.name)
            .filter(|n| n.ends_with("line-endings"))
            .collect()
    };
    assert!(names(b"User-agent: *\r\nDisallow: /a\r\nDisallow: /b\r\n").is_empty());
    assert!(names(b"User-agent: *\nDisallow: /a\nDisallow: /b\n").is_empty());
    assert_eq!(
        names(b"User-agent: *\rDisallow: /a\rDisallow: /b\r"),
        vec!["cr-line-endings"]
    );
    // LF and CR LF mixed: every parser reads the same lines, nothing to say.
    assert!(names(b"User-agent: *\r\nDisallow: /a\nDisallow: /b\r\n").is_empty());
    // A lone CR before a blank line (CR CR LF) only adds a blank line.
    assert!(names(b"User-agent: *\r\r\nDisallow: /a\r\n").is_empty());
    assert_eq!(
        names(b"User-agent: *\r\nDisallow: /a\rDisallow: /b\r\n"),
        vec!["mixed-line-endings"]
    );
    assert!(names(b"User-agent: *\r\nDisallow: /a\r\n\r\r\nDisallow: /b\r\n").is_empty());
}

#[test]
fn findings_past_a_thousand_of_one_name_are_counted_in_one_summary() {
    use robots_explorer::analysis::analyze;
    let a = analyze(&RobotsTxt::parse(&b":\n".repeat(1_500)));
    let invalid: Vec<_> = a
        .diagnostics
        .iter()
        .filter(|d| d.name == "invalid-line")
        .collect();
    assert_eq!(invalid.len(), 1_001);
    let summary = invalid.last().unwrap();
    assert_eq!(summary.line, 1_001);
    assert!(
        summary.message.starts_with(
            "500 more `invalid-line` findings like the 1,000 above, on lines 1001–1500"
        ),
        "{}",
        summary.message
    );
}
