//! The diagnostics catalogue: one fixture per diagnostic in `fixtures/diagnostics/<name>.txt`,
//! each checked to report its diagnostic and snapshotted (diagnostics and explanations) with
//! insta; plus checks on the catalogue's documentation.

use robots_explorer::analysis::{Analysis, Readings, Severity, analyze, catalogue, entry};
use robots_explorer::{Reading, RobotsTxt};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/diagnostics")
}

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(fixtures().join(format!("{name}.txt")))
        .unwrap_or_else(|e| panic!("fixture for `{name}`: {e}"))
}

/// The names the conventions of the project require (spec: "Diagnostic names").
const REQUIRED: &[&str] = &[
    "utf8-bom",
    "misencoded-bom",
    "utf16",
    "invalid-utf8",
    "binary-body",
    "html-body",
    "empty-file",
    "no-groups",
    "mixed-line-endings",
    "cr-line-endings",
    "beyond-parsing-limit",
    "line-too-long",
    "unknown-field",
    "misspelled-field",
    "nonstandard-field",
    "missing-colon",
    "rule-before-group",
    "empty-user-agent",
    "invalid-product-token",
    "merged-groups",
    "group-continues",
    "pattern-not-rooted",
    "full-url-pattern",
    "mid-pattern-dollar",
    "comment-in-pattern",
    "invalid-percent-encoding",
    "non-ascii-pattern",
    "empty-disallow",
    "duplicate-rule",
    "redundant-rule",
    "conflicting-rules",
    "blocks-everything",
    "blocks-assets",
    "sitemap-not-absolute",
    "sitemap-scheme",
    "readings-differ",
];

fn readings(r: Readings) -> &'static str {
    match r {
        Readings::Both => "both",
        Readings::Google => "google",
        Readings::Rfc => "rfc",
    }
}

/// A readable dump of an analysis, for snapshots.
fn dump(a: &Analysis) -> String {
    let mut s = String::new();
    s.push_str("diagnostics:\n");
    for d in &a.diagnostics {
        let _ = writeln!(
            s,
            "  {}:{}-{}:{} {}[{}] ({}) {}",
            d.line,
            d.column,
            d.end_line,
            d.end_column,
            d.severity().as_str(),
            d.name,
            readings(d.readings),
            d.message
        );
        if let Some(fix) = &d.suggestion {
            let _ = writeln!(s, "      fix: {}", fix.replace('\n', "\n           "));
        }
        let _ = writeln!(s, "      see: {}", d.reference);
    }
    s.push_str("explanations:\n");
    for e in &a.explanations {
        let _ = writeln!(s, "  {}: {}", e.line, e.summary);
        for d in &e.details {
            let _ = writeln!(s, "      - {d}");
        }
    }
    s
}

#[test]
fn catalogue_has_every_required_name_once() {
    let names: Vec<&str> = catalogue().iter().map(|e| e.name).collect();
    let unique: BTreeSet<&str> = names.iter().copied().collect();
    assert_eq!(unique.len(), names.len(), "duplicate names in {names:?}");
    for n in REQUIRED {
        assert!(unique.contains(n), "catalogue lacks `{n}`");
    }
    for n in &names {
        assert!(
            n.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                && !n.starts_with('-')
                && !n.ends_with('-'),
            "`{n}` is not kebab-case"
        );
        assert_eq!(entry(n).map(|e| e.name), Some(*n));
    }
    assert!(entry("no-such-diagnostic").is_none());
}

#[test]
fn catalogue_documentation_is_complete() {
    for e in catalogue() {
        for (field, text) in [
            ("summary", e.summary),
            ("what", e.what),
            ("why", e.why),
            ("example", e.example),
            ("fix", e.fix),
        ] {
            assert!(
                text.trim().len() >= 10,
                "`{}` has a short or empty `{field}`",
                e.name
            );
        }
        assert!(!e.references.is_empty(), "`{}` has no reference", e.name);
        for (label, url) in e.references {
            assert!(
                !label.is_empty() && url.starts_with("https://"),
                "{label} {url}"
            );
            if label.starts_with("RFC 9309 §") {
                let section = label.trim_start_matches("RFC 9309 §");
                assert_eq!(
                    *url,
                    format!("https://www.rfc-editor.org/rfc/rfc9309.html#section-{section}"),
                    "`{}`: the link must match the section",
                    e.name
                );
            }
            if label.starts_with("Google:") && url.contains("developers.google.com") {
                assert!(
                    url.starts_with(robots_explorer::analysis::GOOGLE_DOC)
                        || url.contains("/search/docs/crawling-indexing/"),
                    "{url}"
                );
            }
        }
    }
}

#[test]
fn every_fixture_reports_its_diagnostic_and_every_name_has_a_fixture() {
    let mut on_disk: BTreeSet<String> = BTreeSet::new();
    for f in std::fs::read_dir(fixtures()).unwrap() {
        let name = f.unwrap().file_name().to_string_lossy().into_owned();
        if let Some(stem) = name.strip_suffix(".txt") {
            on_disk.insert(stem.to_string());
        }
    }
    let names: BTreeSet<String> = catalogue().iter().map(|e| e.name.to_string()).collect();
    assert_eq!(on_disk, names, "fixtures and catalogue differ");
    for e in catalogue() {
        let robots = RobotsTxt::parse(&fixture(e.name));
        let a = analyze(&robots);
        let found: Vec<_> = a.diagnostics.iter().filter(|d| d.name == e.name).collect();
        assert!(
            !found.is_empty(),
            "fixture `{}` does not report it; got {:?}",
            e.name,
            a.diagnostics.iter().map(|d| d.name).collect::<Vec<_>>()
        );
        for d in &a.diagnostics {
            assert!(
                entry(d.name).is_some(),
                "`{}` is not in the catalogue",
                d.name
            );
            assert!(d.line >= 1 && d.column >= 1, "{d:?}");
            assert_eq!(
                Some(d.severity()),
                entry(d.name).map(|c| c.severity),
                "`{}` emitted with another severity than its catalogue entry's",
                d.name
            );
            assert!(
                (d.end_line, d.end_column) >= (d.line, d.column),
                "end before start: {d:?}"
            );
            assert!(!d.message.is_empty() && !d.reference.is_empty());
        }
    }
}

#[test]
fn documented_examples_trigger_their_diagnostic() {
    // Examples written as a description of bytes (starting with `(`, or with escapes or `…`)
    // cannot be parsed as they stand; the fixtures cover those.
    let mut failures = Vec::new();
    for e in catalogue() {
        if e.example.starts_with('(')
            || e.example.contains("\\r")
            || e.example.contains("\\x")
            || e.example.contains('…')
        {
            continue;
        }
        let a = analyze(&RobotsTxt::parse(e.example.as_bytes()));
        if !a.diagnostics.iter().any(|d| d.name == e.name) {
            failures.push(format!(
                "`{}`: {:?}",
                e.name,
                a.diagnostics
                    .iter()
                    .map(|d| (d.name, &d.message))
                    .collect::<Vec<_>>()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn fixture_snapshots() {
    for e in catalogue() {
        let robots = RobotsTxt::parse(&fixture(e.name));
        let a = analyze(&robots);
        insta::assert_snapshot!(format!("diagnostic-{}", e.name), dump(&a));
    }
}

#[test]
fn findings_of_different_weight_have_different_names() {
    let a = analyze(&RobotsTxt::parse(&fixture("empty-disallow")));
    let found: Vec<(usize, &str, Severity)> = a
        .diagnostics
        .iter()
        .filter(|d| d.name.starts_with("empty-disallow"))
        .map(|d| (d.line, d.name, d.severity()))
        .collect();
    // Next to `Disallow: /admin/` it is a slip; alone in its group it says "allow everything".
    assert_eq!(
        found,
        vec![
            (3, "empty-disallow", Severity::Info),
            (6, "empty-disallow-only", Severity::Info)
        ]
    );
    // A comment that leaves `/` blocks the whole site; one that leaves a longer path does not.
    let a = analyze(&RobotsTxt::parse(&fixture("comment-in-pattern")));
    let found: Vec<(usize, &str, Severity)> = a
        .diagnostics
        .iter()
        .filter(|d| d.name.starts_with("comment-"))
        .map(|d| (d.line, d.name, d.severity()))
        .collect();
    assert_eq!(
        found,
        vec![
            (2, "comment-blocks-everything", Severity::Error),
            (3, "comment-in-pattern", Severity::Warning)
        ]
    );
}

#[test]
fn every_name_is_emitted_with_its_catalogue_severity() {
    // Every fixture, in both the file's own form and as the catalogue example.
    for e in catalogue() {
        for bytes in [fixture(e.name), e.example.as_bytes().to_vec()] {
            for d in analyze(&RobotsTxt::parse(&bytes)).diagnostics {
                let c = entry(d.name).unwrap_or_else(|| panic!("`{}` not catalogued", d.name));
                assert_eq!(d.severity(), c.severity, "{d:?}");
            }
        }
    }
}

#[test]
fn reading_specific_findings_carry_their_reading() {
    // `Dissallow` is a rule only for Google, so its redundancy is a Google-only finding.
    let a = analyze(&RobotsTxt::parse(
        b"User-agent: *\nDisallow: /\nDissallow: /tmp/\n",
    ));
    let r: Vec<_> = a
        .diagnostics
        .iter()
        .filter(|d| d.name == "redundant-rule")
        .collect();
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].line, 3);
    assert_eq!(r[0].readings, Readings::Google);
    assert!(r[0].readings.includes(Reading::Google));
    assert!(!r[0].readings.includes(Reading::Rfc9309));
    // `%7E` and `~` are the same rule only once RFC 9309 decodes the escape.
    let a = analyze(&RobotsTxt::parse(
        b"User-agent: *\nDisallow: /~a/\nDisallow: /%7Ea/\n",
    ));
    let dup: Vec<_> = a
        .diagnostics
        .iter()
        .filter(|d| d.name == "duplicate-rule")
        .collect();
    assert_eq!(dup.len(), 1);
    assert_eq!(dup[0].readings, Readings::Rfc);
}

#[test]
fn redundancy_is_not_claimed_when_an_allow_sits_in_between() {
    // Removing `Disallow: /a/b/c` would let `Allow: /a/b` decide `/a/b/c/x`, so it matters.
    let a = analyze(&RobotsTxt::parse(
        b"User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /a/b/c\n",
    ));
    assert!(
        !a.diagnostics.iter().any(|d| d.name == "redundant-rule"),
        "{:?}",
        a.diagnostics
    );
    // An allow with wildcards in between might match too, so stay silent.
    let a = analyze(&RobotsTxt::parse(
        b"User-agent: *\nDisallow: /a\nAllow: /*x\nDisallow: /a/b/c\n",
    ));
    assert!(!a.diagnostics.iter().any(|d| d.name == "redundant-rule"));
    // A rule in a group shared with another crawler is redundant only if it is so for both.
    let a = analyze(&RobotsTxt::parse(
        b"User-agent: a\nUser-agent: b\nDisallow: /x/y\n\nUser-agent: a\nDisallow: /x\n",
    ));
    assert!(!a.diagnostics.iter().any(|d| d.name == "redundant-rule"));
}

#[test]
fn explanations_cover_rules_and_user_agents_but_not_comments() {
    let robots = RobotsTxt::parse(
        b"# shop\nUser-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n\nSitemap: https://shop.example/sitemap.xml\n",
    );
    let a = analyze(&robots);
    let lines: Vec<usize> = a.explanations.iter().map(|e| e.line).collect();
    assert_eq!(lines, vec![2, 3, 4, 6]);
    let disallow = &a.explanations[1];
    assert_eq!(
        disallow.summary,
        "Disallows every URL whose path starts with `/wp-admin/`."
    );
    assert!(
        disallow
            .details
            .iter()
            .any(|d| d.starts_with("Overridden for some URLs by the longer `Allow: /wp-admin/admin-ajax.php` on line 4 (for example `/wp-admin/admin-ajax.php`)")),
        "{:?}",
        disallow.details
    );
    let ua = &a.explanations[0];
    assert!(
        ua.summary.starts_with("Selects every crawler"),
        "{}",
        ua.summary
    );
    assert!(
        ua.details.iter().any(|d| d.contains("GPTBot")),
        "{:?}",
        ua.details
    );
}

#[test]
fn analysis_never_panics_on_odd_input() {
    let inputs: Vec<Vec<u8>> = vec![
        vec![],
        b"\xEF".to_vec(),
        b"\xEF\xBB".to_vec(),
        b"\xFF\xFE".to_vec(),
        b"\xFF\xFEU\x00".to_vec(),
        b"\r\r\n\n\r".to_vec(),
        b":\n::\n: :\n".to_vec(),
        b"User-agent:*\nDisallow:*\nAllow:$\nDisallow:$$\nAllow:**\n".to_vec(),
        b"Disallow: %\nUser-agent: \xFF\nDisallow: /\xC3\n".to_vec(),
        vec![0u8; 100],
        "User-agent: *\nDisallow: /\u{200B}\n".as_bytes().to_vec(),
    ];
    for i in inputs {
        let robots = RobotsTxt::parse(&i);
        let a = analyze(&robots);
        for d in &a.diagnostics {
            assert!(d.span.start <= d.span.end && d.span.end <= robots.bytes().len().max(1));
        }
    }
}

#[test]
fn an_empty_group_frees_exactly_the_crawlers_named_nowhere_else() {
    let found = |b: &[u8]| -> Vec<(usize, String, Readings)> {
        analyze(&RobotsTxt::parse(b))
            .diagnostics
            .into_iter()
            .filter(|d| d.name == "empty-group")
            .map(|d| (d.line, d.message, d.readings))
            .collect()
    };
    let f = found(b"User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\n");
    assert_eq!(f.len(), 1, "{f:?}");
    let g = found(b"User-agent: *\nDisallow: /\n\nUser-agent: FooBot\n");
    assert_eq!(
        g[0].1,
        "the group starting here has no rules, so `FooBot` may fetch every URL: it no longer \
obeys the disallow rule of the `*` group (`Disallow: /` on line 2), which every crawler without a \
group of its own obeys"
    );
    assert_eq!(f[0].0, 4);
    assert_eq!(f[0].2, Readings::Both);
    assert_eq!(
        f[0].1,
        "the group starting here has no rules, so `Googlebot` may fetch every URL, and so do \
Googlebot-Image, Googlebot-News, Googlebot-Video and Applebot, which follow the `Googlebot` group \
when no group names them: they no longer obey the disallow rule of the `*` group (`Disallow: /` \
on line 2), which every crawler without a group of its own obeys"
    );
    // Googlebot has rules in another group: combined, they apply; bingbot alone is freed.
    let f = found(
        b"User-agent: Googlebot\nDisallow: /g/\n\nUser-agent: *\nDisallow: /a/\nDisallow: /b/\n\nUser-agent: Googlebot\nUser-agent: bingbot\n",
    );
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].1.starts_with("the group starting here has no rules, so `bingbot` may fetch every URL: it no longer obeys the 2 disallow rules of the `*` group (on lines 5 and 6, such as `Disallow: /a/`)"),
        "{}",
        f[0].1
    );
    // Nothing to be freed from: `*` restricts nothing.
    assert!(found(b"User-agent: *\nAllow: /\n\nUser-agent: Googlebot\n").is_empty());
    assert!(found(b"User-agent: *\nDisallow:\n\nUser-agent: Googlebot\n").is_empty());
    // An explicit `Disallow:` is a rule: the group means "may fetch everything".
    assert!(found(b"User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow:\n").is_empty());
    // A crawler that ignores `*` anyway is not freed from it.
    assert!(found(b"User-agent: *\nDisallow: /\n\nUser-agent: AdsBot-Google\n").is_empty());
    // Only RFC 9309 parsers find the group empty: they do not read `Dissallow`.
    let f = found(b"User-agent: *\nDisallow: /private/\n\nUser-agent: bingbot\nDissallow: /tmp/\n");
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!((f[0].0, f[0].2), (4, Readings::Rfc));
}

/// Each catalogue entry's example, the file its documentation page shows, reports the entry's
/// own diagnostic when it is literal text; an example that needs what a page of text cannot
/// show (bytes that are not text, line ends, sizes) describes it, in parentheses, with escapes
/// such as `\r` or `\x00`, or with `…`, and its fixture holds the real bytes (see
/// `every_fixture_reports_its_diagnostic_and_every_name_has_a_fixture`).
#[test]
fn every_documented_example_reports_its_diagnostic() {
    let mut wrong = Vec::new();
    let mut literal = 0;
    for e in catalogue() {
        let described =
            e.example.starts_with('(') || e.example.contains('…') || e.example.contains('\\');
        if described {
            continue;
        }
        literal += 1;
        let a = analyze(&RobotsTxt::parse(e.example.as_bytes()));
        if !a.diagnostics.iter().any(|d| d.name == e.name) {
            wrong.push(e.name);
        }
    }
    assert!(
        wrong.is_empty(),
        "literal examples that do not report their diagnostic: {wrong:?}"
    );
    assert!(literal >= 50, "only {literal} literal examples");
}
