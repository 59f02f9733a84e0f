//! The guide: a rendered chapter and a diagram as snapshots, the shipped content building with
//! every check passing, and the shipped robots.txt grammar agreeing with the parser.

use robots_explorer::RobotsTxt;
use robots_explorer::guide::{self, Links, Options, figures, highlight, load};
use robots_explorer::syntax::NodeKind;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use syntect::parsing::{ParseState, ScopeStack};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Whether this build's analysis has diagnostics. Until it has, diagnostic checks cannot be
/// evaluated (they are *pending*); every other check and link is enforced either way.
fn analysis_available() -> bool {
    !robots_explorer::analysis::catalogue().is_empty()
}

fn options(content: &Path) -> Options {
    Options {
        content: content.to_path_buf(),
        data: root().join("fixtures/guide"),
        links: Links::default(),
        extra_css: Vec::new(),
        allow_pending: !analysis_available(),
    }
}

const CHAPTER: &str = r#"---
number: 1
title: A small chapter
summary: One sentence about it.
sections:
  - number: "2.2.2"
    title: The "Allow" and "Disallow" Lines
    link: https://www.rfc-editor.org/rfc/rfc9309.html#section-2.2.2
terms:
  - term: Rule
    definition: An allow or disallow line.
related:
  - rfc: RFC 9110
    title: HTTP Semantics
    relation: defines the status codes
  - rfc: RFC 8288
    title: Web Linking
    relation: obsoletes RFC 5988 (an example of the badge)
key_points:
  - The longest match wins (RFC 9309, section 2.2.2).
caveat: The drawing is a sketch.
verified: "2026-11-30"
questions:
  - question: May Googlebot fetch /private/open/file?
    robots: |
      User-agent: *
      Disallow: /private/
      Allow: /private/open
    check: {agent: Googlebot, url: /private/open/file, google: allowed, rfc: allowed}
    explanation: The longer allow decides.
primer:
  title: New to this? Start here
  body: |
    A *rule* says where a crawler may go. See the [glossary](glossary.md#rule).
---

Text with a footnote[^one] and a [link to the figure section](#a-figure).

## An example

```robots
User-agent: *
Disallow: /private/
Allow: /private/open
```

```robots-check
- agent: Googlebot
  url: /private/secret
  google: disallowed
  rfc: disallowed
- agent: Googlebot
  url: /private/open/file
  google: allowed
```

> [!WARNING]
> A blank line does not end a group.

| Field | Meaning |
| --- | --- |
| `allow` | a rule |

## A figure

```figure
kind: ascii
source: "2.2.2"
title: A crawler asks first
description: A crawler box with an arrow to a site box, labelled GET /robots.txt.
caption: Ask first.
art: |
  +---------+  GET /robots.txt   +------+
  | crawler |------------------->| site |
  +---------+                    +------+
```

```sh
robots-explorer check --agent Googlebot --url /private/secret robots.txt
```

See [the demo shop](host:shop.example).

[^one]: A note.
"#;

const GLOSSARY: &str =
    "---\ntitle: Glossary\nsummary: Terms.\n---\n\n### Rule\n\nAn allow or disallow line.\n";

fn small_site() -> (tempfile::TempDir, guide::Guide) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("01-small.md"), CHAPTER).unwrap();
    std::fs::write(dir.path().join("glossary.md"), GLOSSARY).unwrap();
    let g = guide::build(&options(dir.path())).unwrap_or_else(|f| {
        panic!(
            "{}",
            f.problems
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        )
    });
    (dir, g)
}

#[test]
fn rendered_chapter_snapshot() {
    let (_dir, g) = small_site();
    let html = String::from_utf8(g.files["01-small.html"].clone()).unwrap();
    insta::assert_snapshot!("chapter", html);
    assert_eq!(g.stats.checks, 2);
    assert_eq!(g.stats.passed, 2);
}

#[test]
fn small_site_has_every_part() {
    let (_dir, g) = small_site();
    let names: Vec<&str> = g.files.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            ".robots-explorer-guide",
            "01-small.html",
            "assets/engine.js",
            "assets/tester.js",
            "glossary.html",
            "guide.css",
            "guide.js",
            "playground.html",
            "print.html",
            "search-index.js",
            "site.css"
        ]
    );
    let print = String::from_utf8(g.files["print.html"].clone()).unwrap();
    // Ids on the print page are prefixed by page, and links between pages become anchors.
    assert!(print.contains(r##"id="01-small--an-example""##), "{print}");
    assert!(print.contains(r##"href="#glossary--rule""##), "{print}");
    assert!(print.contains(r##"id="glossary--rule""##));
    let index = String::from_utf8(g.files["search-index.js"].clone()).unwrap();
    assert!(index.starts_with("// Search index"));
    assert!(
        index.contains(r#""u":"01-small.html#an-example""#),
        "{index}"
    );
}

fn section(number: &str, title: &str) -> load::Section {
    load::Section {
        number: number.into(),
        title: title.into(),
        link: format!("https://www.rfc-editor.org/rfc/rfc9309.html#section-{number}"),
    }
}

#[test]
fn figure_names_its_source_among_the_chapter_sections() {
    let data = figures::Data::load(&root().join("fixtures/guide"));
    let sections = [
        section("2.2.2", "The \"Allow\" and \"Disallow\" Lines"),
        section("5.2", "Longest Match"),
    ];
    let art =
        "kind: ascii\ntitle: T\ndescription: D.\ncaption: C.\nart: |\n  +--+\n  |a |\n  +--+\n";
    let svg = figures::render(
        &format!("{art}source: [\"2.2.2\", \"5.2\"]\n"),
        &data,
        &sections,
    )
    .unwrap();
    assert!(
        svg.contains(
            "<span class=\"figure-source\">Source for this drawing: RFC 9309 · \
             <a href=\"https://www.rfc-editor.org/rfc/rfc9309.html#section-2.2.2\">§2.2.2 The &quot;Allow&quot; and &quot;Disallow&quot; Lines</a> · \
             <a href=\"https://www.rfc-editor.org/rfc/rfc9309.html#section-5.2\">§5.2 Longest Match</a></span></figcaption>"
        ),
        "{svg}"
    );
    let missing = figures::render(art, &data, &sections).unwrap_err();
    assert!(missing.contains("`source` is missing"), "{missing}");
    let other = figures::render(&format!("{art}source: \"2.4\"\n"), &data, &sections).unwrap_err();
    assert_eq!(
        other,
        "figure: source §2.4 is not among the chapter's sections (2.2.2, 5.2)"
    );
}

#[test]
fn fetch_outcomes_diagram_snapshot() {
    let data = figures::Data::load(&root().join("fixtures/guide"));
    let svg = figures::render(
        "kind: fetch-outcomes\nsource: \"2.3.1\"\ntitle: Three outcomes\ndescription: Success, 404 and 503.\ncaption: Three branches.\n",
        &data,
        &[section("2.3.1", "Access Results")],
    )
    .unwrap();
    insta::assert_snapshot!("fetch_outcomes", svg);
}

#[test]
fn cache_timeline_diagram_snapshot() {
    let data = figures::Data::load(&root().join("fixtures/guide"));
    let svg = figures::render(
        "kind: cache-timeline\nsource: \"2.4\"\ntitle: Cache ages\ndescription: 23 and 25 hours.\ncaption: Ages.\n",
        &data,
        &[section("2.4", "Caching")],
    )
    .unwrap();
    assert!(svg.contains("age 23 h"), "{svg}");
    assert!(svg.contains("age 25 h"), "{svg}");
    assert!(svg.contains("unreachable exception"), "{svg}");
    insta::assert_snapshot!("cache_timeline", svg);
}

fn problems_text(f: &guide::Failure) -> String {
    f.problems
        .iter()
        .chain(if analysis_available() {
            f.pending.iter()
        } else {
            [].iter()
        })
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn shipped_content_builds_with_every_check_passing() {
    let g = guide::build(&options(&root().join("content")))
        .unwrap_or_else(|f| panic!("the shipped guide does not build:\n{}", problems_text(&f)));
    let s = &g.stats;
    assert!(s.chapters >= 11, "{s:?}");
    assert!(s.checks >= 40, "at least 40 checked examples: {s:?}");
    assert!(s.figures >= s.chapters, "a figure per chapter: {s:?}");
    if analysis_available() {
        assert_eq!(s.pending, 0, "{s:?}");
        assert_eq!(s.passed, s.checks, "{s:?}");
        assert!(g.unverified.is_empty(), "{:?}", g.unverified);
    } else {
        // Without an analysis only diagnostic checks wait; every decision check must pass.
        assert_eq!(s.pending, s.diagnostic_checks, "{s:?}");
        assert_eq!(s.passed, s.decision_checks, "{s:?}");
    }
    // Every chapter has one figure at least, and every page is in the output.
    for p in &g.pages {
        assert!(g.files.contains_key(&p.out), "{}", p.out);
        if matches!(p.kind, load::Kind::Chapter(_)) {
            assert!(p.figures >= 1, "{} has no figure", p.name);
        }
    }
    // The produced HTML has no broken internal link or anchor.
    let dir = tempfile::tempdir().unwrap();
    guide::write_files(dir.path(), &g.files).unwrap();
    let broken = guide::verify_html_links(dir.path());
    assert!(broken.is_empty(), "{broken:?}");
}

#[test]
fn a_wrong_expectation_fails_the_build_with_file_line_and_reason() {
    let dir = tempfile::tempdir().unwrap();
    let wrong = CHAPTER.replace(
        "  url: /private/secret\n  google: disallowed",
        "  url: /private/secret\n  google: allowed",
    );
    std::fs::write(dir.path().join("01-small.md"), wrong).unwrap();
    std::fs::write(dir.path().join("glossary.md"), GLOSSARY).unwrap();
    let f = guide::build(&options(dir.path())).unwrap_err();
    let messages: Vec<String> = f.problems.iter().map(ToString::to_string).collect();
    let file = dir.path().join("01-small.md");
    assert_eq!(
        messages,
        vec![format!(
            "{}:48: robots-check failed: expected Googlebot /private/secret: allowed in the \
             Google reading, disallowed in the RFC 9309 reading, but in the Google reading the \
             engine says disallowed (line 2 `Disallow: /private/` decided: longest match) (lines \
             of the ```robots block at line 41)",
            file.display()
        )]
    );
}

const LEVEL2_GLOSSARY: &str = "---\ntitle: Glossary\nsummary: Terms.\n---\n\n## Rule\n\nAn allow or disallow line.\n\n## Longest match\n\nThe longest pattern decides.\n\n## Group\n\nUser-agent lines and their rules.\n";

#[test]
fn chapters_link_the_first_use_of_each_glossary_term() {
    let dir = tempfile::tempdir().unwrap();
    let chapter = CHAPTER.replace(
        "Text with a footnote[^one]",
        "A rule, a longest match and another rule: the longest match decides, [rule](#an-example) \
         or `rule`. Text with a footnote[^one]",
    );
    std::fs::write(dir.path().join("01-small.md"), chapter).unwrap();
    std::fs::write(dir.path().join("glossary.md"), LEVEL2_GLOSSARY).unwrap();
    let g = guide::build(&options(dir.path())).unwrap_or_else(|f| panic!("{}", problems_text(&f)));
    let html = String::from_utf8(g.files["01-small.html"].clone()).unwrap();
    assert!(
        html.contains(
            "A <a class=\"term-link\" href=\"glossary.html#rule\">rule</a>, a \
             <a class=\"term-link\" href=\"glossary.html#longest-match\">longest match</a> and \
             another rule: the longest match decides"
        ),
        "{html}"
    );
    // Each term once, at its first use in running text (`group` is in the warning box).
    for term in ["rule", "longest-match", "group"] {
        let link = format!("class=\"term-link\" href=\"glossary.html#{term}\"");
        assert_eq!(html.matches(&link).count(), 1, "{term}: {html}");
    }
    assert_eq!(html.matches("class=\"term-link\"").count(), 3, "{html}");
    // The front matter's terms link to their entries too.
    assert!(
        html.contains("<dt><a href=\"glossary.html#rule\">Rule</a></dt>"),
        "{html}"
    );
    // Every link made is checked like a written one: the build above passed its link check,
    // and a glossary whose anchor differs would have stopped it.
    std::fs::write(dir.path().join("glossary.md"), GLOSSARY).unwrap();
    let without =
        guide::build(&options(dir.path())).unwrap_or_else(|f| panic!("{}", problems_text(&f)));
    assert_eq!(
        g.stats.links,
        without.stats.links + 3,
        "three term links, each verified"
    );
    std::fs::write(dir.path().join("glossary.md"), LEVEL2_GLOSSARY).unwrap();

    // A chapter's term that the glossary lacks stops the build.
    let lacking = CHAPTER.replace("  - term: Rule\n", "  - term: Verdict\n");
    std::fs::write(dir.path().join("01-small.md"), lacking).unwrap();
    let f = guide::build(&options(dir.path())).unwrap_err();
    let messages: Vec<String> = f.problems.iter().map(|p| p.message.clone()).collect();
    assert_eq!(
        messages,
        [
            "front matter: the term `Verdict` has no entry in the glossary (a `## Verdict` heading in glossary.md)"
        ]
    );
}

#[test]
fn questions_are_answered_by_the_engine_and_a_wrong_answer_stops_the_build() {
    let (_dir, g) = small_site();
    let html = String::from_utf8(g.files["01-small.html"].clone()).unwrap();
    assert!(
        html.contains("<h2 id=\"check-yourself\">Check yourself</h2>"),
        "{html}"
    );
    assert!(
        html.contains(
            "<p class=\"engine-answer\"><strong class=\"v-allowed\">Allowed</strong> in both \
             readings: line 3 <code>Allow: /private/open</code> decided: longest match.</p>"
        ),
        "{html}"
    );
    assert!(
        html.contains("playground.html#file=User-agent%3A%20%2A%0ADisallow"),
        "{html}"
    );

    let dir = tempfile::tempdir().unwrap();
    let wrong = CHAPTER.replace(
        "url: /private/open/file, google: allowed",
        "url: /private/open/file, google: disallowed",
    );
    std::fs::write(dir.path().join("01-small.md"), wrong).unwrap();
    std::fs::write(dir.path().join("glossary.md"), GLOSSARY).unwrap();
    let f = guide::build(&options(dir.path())).unwrap_err();
    let messages: Vec<String> = f.problems.iter().map(|p| p.message.clone()).collect();
    assert_eq!(
        messages,
        [
            "front matter: question 1: in the Google reading the engine says allowed (line 3 \
          `Allow: /private/open` decided: longest match)"
        ]
    );
}

#[test]
fn the_verified_date_needs_an_entry_on_the_changes_page() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("01-small.md"), CHAPTER).unwrap();
    std::fs::write(dir.path().join("glossary.md"), GLOSSARY).unwrap();
    let changes = "---\ntitle: Changes\nsummary: By date.\n---\n\n## 2026-11-30\n\n- First.\n";
    std::fs::write(dir.path().join("changes.md"), changes).unwrap();
    let g = guide::build(&options(dir.path())).unwrap_or_else(|f| panic!("{}", problems_text(&f)));
    let html = String::from_utf8(g.files["01-small.html"].clone()).unwrap();
    assert!(
        html.contains(
            "Last verified <time datetime=\"2026-11-30\">30 November 2026</time> against RFC 9309 \
             and Google's robots.txt documentation · <a href=\"changes.html#2026-11-30\">what changed</a>"
        ),
        "{html}"
    );
    assert!(g.files.contains_key("changes.html"));

    std::fs::write(
        dir.path().join("changes.md"),
        changes.replace("2026-11-30", "2026-11-29"),
    )
    .unwrap();
    let f = guide::build(&options(dir.path())).unwrap_err();
    let messages: Vec<String> = f.problems.iter().map(|p| p.message.clone()).collect();
    assert_eq!(
        messages,
        [
            "front matter: `verified: 2026-11-30` has no entry on the changes page (a `## 2026-11-30` heading in changes.md)"
        ]
    );

    let bad = CHAPTER.replace("verified: \"2026-11-30\"", "verified: \"2026-13-01\"");
    std::fs::write(dir.path().join("01-small.md"), bad).unwrap();
    let f = guide::build(&options(dir.path())).unwrap_err();
    assert!(
        f.problems[0]
            .message
            .starts_with("front matter: `verified: 2026-13-01`: expected a date as YYYY-MM-DD"),
        "{:?}",
        f.problems
    );
}

#[test]
fn broken_links_and_anchors_fail_the_build() {
    let dir = tempfile::tempdir().unwrap();
    let broken = CHAPTER
        .replace("(glossary.md#rule)", "(glossary.md#rules)")
        .replace("(#a-figure)", "(02-missing.md)");
    std::fs::write(dir.path().join("01-small.md"), broken).unwrap();
    std::fs::write(dir.path().join("glossary.md"), GLOSSARY).unwrap();
    let f = guide::build(&options(dir.path())).unwrap_err();
    let messages: Vec<String> = f.problems.iter().map(|p| p.message.clone()).collect();
    assert!(
        messages.contains(&"broken link `02-missing.md`: there is no page `02-missing.md`".into()),
        "{messages:?}"
    );
    assert!(
        messages.contains(
            &"broken link `glossary.md#rules`: glossary.html has no anchor `#rules` (similar: #rule)"
                .into()
        ),
        "{messages:?}"
    );
}

#[test]
fn host_links_are_text_in_a_guide_and_links_in_a_combined_site() {
    let (_dir, g) = small_site();
    let html = String::from_utf8(g.files["01-small.html"].clone()).unwrap();
    assert!(html.contains(r#"<span class="host-name">the demo shop</span>"#));
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("01-small.md"), CHAPTER).unwrap();
    std::fs::write(dir.path().join("glossary.md"), GLOSSARY).unwrap();
    let mut opts = options(dir.path());
    opts.links.hosts = Some(BTreeMap::from([(
        "shop.example".to_string(),
        "../hosts/shop.example.html".to_string(),
    )]));
    let g = guide::build(&opts).unwrap_or_else(|f| panic!("{}", problems_text(&f)));
    let html = String::from_utf8(g.files["01-small.html"].clone()).unwrap();
    assert!(
        html.contains(
            r#"<a href="../hosts/shop.example.html" class="host-link">the demo shop</a>"#
        )
    );
    opts.links.hosts = Some(BTreeMap::new());
    let f = guide::build(&opts).unwrap_err();
    assert!(
        f.problems[0]
            .message
            .contains("broken link `host:shop.example`"),
        "{:?}",
        f.problems
    );
}

/// The scope class the shipped grammar gives each byte of `text` (`None` for unscoped bytes).
fn grammar_classes(text: &str) -> Vec<Option<&'static str>> {
    let set = highlight::syntax_set();
    let syntax = set.find_syntax_by_extension("robots").unwrap();
    let mut state = ParseState::new(syntax);
    let mut stack = ScopeStack::new();
    let mut out = Vec::with_capacity(text.len());
    let classes = [
        "rt-bom",
        "rt-key",
        "rt-sep",
        "rt-value",
        "rt-comment",
        "rt-text",
    ];
    for line in syntect::util::LinesWithEndings::from(text) {
        let ops = state.parse_line(line, set).unwrap();
        let mut at = 0;
        let class_of = |stack: &ScopeStack| {
            stack.as_slice().iter().rev().find_map(|s| {
                let name = s.build_string();
                classes
                    .iter()
                    .find(|c| name == **c || name.starts_with(&format!("{c}.")))
                    .copied()
            })
        };
        for (pos, op) in ops {
            while at < pos {
                out.push(class_of(&stack));
                at += 1;
            }
            stack.apply(&op).unwrap();
        }
        while at < line.len() {
            out.push(class_of(&stack));
            at += 1;
        }
    }
    out
}

/// The parser's class of each byte of a UTF-8 robots.txt text (`None` for white space and line
/// terminators, which the grammar leaves unscoped).
fn parser_classes(text: &str) -> Vec<Option<&'static str>> {
    let robots = RobotsTxt::parse(text.as_bytes());
    let mut out = vec![None; robots.bytes().len()];
    for n in &robots.tree.nodes {
        if matches!(n.kind, NodeKind::Whitespace | NodeKind::LineEnd) {
            continue;
        }
        for b in n.span().range() {
            out[b] = Some(n.kind.css_class());
        }
    }
    out
}

#[test]
fn shipped_grammar_classes_equal_the_parsers() {
    // Every robots example of the shipped chapters and every UTF-8 demo host with LF line ends.
    let mut texts: Vec<(String, String)> = Vec::new();
    let content = load::load(&root().join("content")).unwrap();
    for page in &content.pages {
        let mut in_block = false;
        let mut block = String::new();
        for line in page.body.lines() {
            if line == "```robots" {
                in_block = true;
                block.clear();
            } else if in_block && line == "```" {
                in_block = false;
                texts.push((page.name.clone(), block.clone()));
            } else if in_block {
                block.push_str(line);
                block.push('\n');
            }
        }
    }
    for entry in std::fs::read_dir(root().join("fixtures/hosts")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "txt") {
            let bytes = std::fs::read(&path).unwrap();
            if let Ok(text) = String::from_utf8(bytes) {
                if !text.contains('\r') && text.len() < 100_000 {
                    texts.push((path.display().to_string(), text));
                }
            }
        }
    }
    assert!(texts.len() > 50, "{}", texts.len());
    for (name, text) in &texts {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let g = grammar_classes(text);
        let p = parser_classes(text);
        for (i, (a, b)) in g.iter().zip(&p).enumerate() {
            assert_eq!(
                a,
                b,
                "{name}: byte {i} ({:?}) in line {:?}",
                &text[i..].chars().next(),
                text[..=i].lines().last()
            );
        }
    }
}

#[test]
fn build_writes_one_cross_linked_deterministic_site() {
    let dir = tempfile::tempdir().unwrap();
    let run = |out: &Path| {
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_robots-explorer"))
            .current_dir(root())
            .arg("build")
            .arg("--out")
            .arg(out)
            .env_remove("SOURCE_DATE_EPOCH")
            .status()
            .unwrap();
        assert!(status.success());
    };
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    run(&a);
    run(&b);
    // The same input gives the same bytes (no clock: the demo time is the latest sidecar's).
    let files = |root: &Path| -> Vec<(PathBuf, Vec<u8>)> {
        walkdir::WalkDir::new(root)
            .sort_by_file_name()
            .into_iter()
            .map(|e| e.unwrap())
            .filter(|e| e.file_type().is_file())
            .map(|e| {
                (
                    e.path().strip_prefix(root).unwrap().to_path_buf(),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect()
    };
    assert!(files(&a) == files(&b), "two builds differ");
    let read = |p: &str| std::fs::read_to_string(a.join(p)).unwrap();
    // A diagnostic page links to the chapter that explains it, and back.
    assert!(read("diagnostics/group-continues.html").contains(r#"href="../guide/04-groups.html""#));
    let groups = read("guide/04-groups.html");
    assert!(groups.contains(r#"href="../diagnostics/group-continues.html""#));
    // A chapter's host link goes to the demo host's page.
    assert!(groups.contains(r#"href="../hosts/group-trap.example.html" class="host-link""#));
    // Every internal link and anchor of the whole site resolves.
    assert_eq!(guide::verify_html_links(&a), Vec::new());
    // A second build into the same folder replaces it; nothing is left beside it.
    run(&a);
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left.len(), 2, "{left:?}");
}

#[test]
fn raw_html_in_chapters_is_shown_as_escaped_text() {
    let chapter = CHAPTER.replace(
        "Text with a footnote[^one]",
        "Inline <script>alert(1)</script>, <b onmouseover=\"x()\">bold</b> and \
         <iframe src=\"https://e.example/\"></iframe> stay text.\n\n\
         <div onclick=\"steal()\">\nA block of HTML.\n</div>\n\n\
         ## Heading with <em>tags</em>\n\nText with a footnote[^one]",
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("01-small.md"), chapter).unwrap();
    std::fs::write(dir.path().join("glossary.md"), GLOSSARY).unwrap();
    let g = guide::build(&options(dir.path())).unwrap_or_else(|f| panic!("{}", problems_text(&f)));
    let html = String::from_utf8(g.files["01-small.html"].clone()).unwrap();
    for raw in [
        "<script>alert",
        "<b onmouseover",
        "<iframe",
        "<div onclick",
        "<em>tags",
    ] {
        assert!(!html.contains(raw), "{raw} passed through");
    }
    assert!(html.contains(
        "Inline &lt;script&gt;alert(1)&lt;/script&gt;, &lt;b onmouseover=\"x()\"&gt;bold&lt;/b&gt;"
    ));
    assert!(html.contains("&lt;iframe src=\"https://e.example/\"&gt;&lt;/iframe&gt; stay text."));
    // The block is kept, as text, with its line breaks.
    assert!(html.contains(
        "<pre class=\"code raw-html\"><code>&lt;div onclick=\"steal()\"&gt;\nA block of HTML.\n&lt;/div&gt;\n</code></pre>"
    ), "{html}");
    // Headings keep their anchors; admonitions still render.
    assert!(html.contains("Heading with &lt;em&gt;tags&lt;/em&gt; <a class=\"anchor\" href=\"#heading-with-em-tags-em\""), "{html}");
    assert!(html.contains("<div class=\"admonition warning\" role=\"note\">"));
}
