//! Stage 3 of the guide: rendered pages → the files of the site (in memory).
//!
//! Pages are laid out by askama templates (`templates/guide/`); the data they show is prepared
//! here. Besides one HTML file per page, the site has `print.html` (the whole guide on one
//! page), `search-index.js` (the search index as a script, so search works from `file://`),
//! `guide.js` and `guide.css`.

use super::load::{Content, Kind, Related as RelatedSrc, Section};
use super::render::Page;
use super::{Links, Problem};
use crate::html::SITE_CSS;
use askama::Template;
use std::collections::BTreeMap;

/// The stylesheet of the guide, on top of [`SITE_CSS`].
pub const GUIDE_CSS: &str = include_str!("../../templates/assets/guide.css");
/// The search script.
pub const GUIDE_JS: &str = include_str!("../../templates/assets/guide.js");

/// Name of the whole guide, used in titles.
pub const GUIDE_TITLE: &str = "robots.txt, explained";

/// An entry of the table of contents.
#[derive(Clone, Debug)]
pub struct TocEntry {
    /// Link.
    pub href: String,
    /// Chapter number, or empty.
    pub number: String,
    /// Title.
    pub title: String,
    /// Whether it is the page being shown.
    pub current: bool,
}

/// A previous/next link.
#[derive(Clone, Debug)]
pub struct Nav {
    /// Link.
    pub href: String,
    /// Title.
    pub title: String,
}

/// What every page shares.
#[derive(Clone, Debug)]
pub struct Shell {
    /// `<title>`.
    pub page_title: String,
    /// `<meta name="description">`.
    pub description: String,
    /// Stylesheets, in order.
    pub stylesheets: Vec<String>,
    /// Whether to load the search scripts.
    pub search: bool,
    /// Class of `<body>`.
    pub body_class: String,
    /// Table of contents.
    pub toc: Vec<TocEntry>,
    /// Link to the demo audit site, in a combined build.
    pub audit_href: Option<String>,
}

/// A related RFC as shown.
#[derive(Clone, Debug)]
pub struct RelatedView {
    /// `RFC 9110`.
    pub rfc: String,
    /// Title.
    pub title: String,
    /// Relation text.
    pub relation: String,
    /// `Updates` or `Obsoletes`, when the relation starts with that word.
    pub badge: Option<&'static str>,
}

impl From<&RelatedSrc> for RelatedView {
    fn from(r: &RelatedSrc) -> RelatedView {
        let lower = r.relation.to_ascii_lowercase();
        let badge = if lower.starts_with("updates") {
            Some("Updates")
        } else if lower.starts_with("obsoletes") {
            Some("Obsoletes")
        } else {
            None
        };
        RelatedView {
            rfc: r.rfc.clone(),
            title: r.title.clone(),
            relation: r.relation.clone(),
            badge,
        }
    }
}

/// A diagnostic a chapter explains.
#[derive(Clone, Debug)]
pub struct DiagnosticView {
    /// Name.
    pub name: String,
    /// Its page in a combined build.
    pub href: Option<String>,
}

/// The article of a chapter.
#[derive(Clone, Debug)]
pub struct ChapterArticle {
    /// Number.
    pub number: u32,
    /// Title.
    pub title: String,
    /// Summary.
    pub summary: String,
    /// Primer heading.
    pub primer_title: String,
    /// Primer body (HTML).
    pub primer_html: String,
    /// Key points.
    pub key_points: Vec<String>,
    /// RFC sections.
    pub sections: Vec<Section>,
    /// Terms, each linked to its glossary entry.
    pub terms: Vec<TermView>,
    /// Related RFCs.
    pub related: Vec<RelatedView>,
    /// Body (HTML).
    pub body: String,
    /// The "Check yourself" section (HTML).
    pub questions: String,
    /// When the chapter was last verified: (`YYYY-MM-DD`, the date in words, the address of
    /// the changes page's entry for that day).
    pub verified: Option<(String, String, Option<String>)>,
    /// Caveat.
    pub caveat: String,
    /// Diagnostics explained.
    pub diagnostics: Vec<DiagnosticView>,
    /// Whether to show previous/next links.
    pub pager: bool,
    /// Previous page.
    pub prev: Option<Nav>,
    /// Next page.
    pub next: Option<Nav>,
}

/// A chapter card on the landing page.
#[derive(Clone, Debug)]
pub struct Card {
    /// Link.
    pub href: String,
    /// Number.
    pub number: u32,
    /// Title.
    pub title: String,
    /// Summary.
    pub summary: String,
}

/// The article of the landing page or the glossary.
#[derive(Clone, Debug)]
pub struct PageArticle {
    /// Title.
    pub title: String,
    /// Summary.
    pub summary: String,
    /// Body (HTML).
    pub body: String,
    /// Chapter cards (landing page only).
    pub chapters: Vec<Card>,
    /// Previous page.
    pub prev: Option<Nav>,
    /// Next page.
    pub next: Option<Nav>,
}

#[derive(Template)]
#[template(path = "guide/chapter.html")]
struct ChapterTpl<'a> {
    shell: &'a Shell,
    a: &'a ChapterArticle,
}

#[derive(Template)]
#[template(path = "guide/chapter_article.html")]
struct ChapterArticleTpl<'a> {
    a: &'a ChapterArticle,
}

#[derive(Template)]
#[template(path = "guide/page.html")]
struct PageTpl<'a> {
    shell: &'a Shell,
    a: &'a PageArticle,
}

#[derive(Template)]
#[template(path = "guide/page_article.html")]
struct PageArticleTpl<'a> {
    a: &'a PageArticle,
}

/// One section of the print page.
#[derive(Clone, Debug)]
pub struct PrintSection {
    /// Its id (the page's file stem).
    pub id: String,
    /// Its HTML, with ids prefixed.
    pub html: String,
}

#[derive(Template)]
#[template(path = "guide/print.html")]
struct PrintTpl<'a> {
    title: &'a str,
    summary: &'a str,
    stylesheets: &'a [String],
    toc: &'a [TocEntry],
    sections: &'a [PrintSection],
}

/// One entry of the search index.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SearchEntry {
    /// Page title.
    pub p: String,
    /// Section heading.
    pub h: String,
    /// Link.
    pub u: String,
    /// Plain text.
    pub t: String,
}

fn stem(out: &str) -> &str {
    out.strip_suffix(".html").unwrap_or(out)
}

fn toc(content: &Content, current: &str) -> Vec<TocEntry> {
    content
        .pages
        .iter()
        .map(|s| TocEntry {
            href: s.out_name(),
            number: match s.kind {
                Kind::Chapter(n) => n.to_string(),
                _ => String::new(),
            },
            title: match s.kind {
                Kind::Landing => "Start".to_string(),
                _ => s.front.title.clone(),
            },
            current: s.name == current,
        })
        .collect()
}

/// A term of a chapter's front matter, with the address of its glossary entry.
#[derive(Clone, Debug)]
pub struct TermView {
    /// The term.
    pub term: String,
    /// The chapter's short definition.
    pub definition: String,
    /// `glossary.html#anchor`, when the glossary has the term.
    pub href: Option<String>,
}

fn chapter_article(
    content: &Content,
    page: &Page,
    links: &Links,
    pager: bool,
    prev: Option<Nav>,
    next: Option<Nav>,
) -> ChapterArticle {
    let s = content.page(&page.name).expect("rendered from the content");
    let f = &s.front;
    let glossary = super::terms::Glossary::of(content);
    ChapterArticle {
        number: f.number.unwrap_or(0),
        title: f.title.clone(),
        summary: f.summary.clone(),
        primer_title: f
            .primer
            .as_ref()
            .map(|p| p.title.clone())
            .unwrap_or_default(),
        primer_html: page.primer_html.clone().unwrap_or_default(),
        key_points: f.key_points.clone(),
        sections: f.sections.clone(),
        terms: f
            .terms
            .iter()
            .map(|t| TermView {
                term: t.term.clone(),
                definition: t.definition.clone(),
                href: glossary
                    .get(&t.term)
                    .map(|g| format!("glossary.html#{}", g.anchor)),
            })
            .collect(),
        related: f.related.iter().map(RelatedView::from).collect(),
        body: page.html.clone(),
        questions: page.questions_html.clone(),
        verified: f.verified.as_ref().map(|v| {
            let words = super::load::verified_date(v)
                .map(|d| format!("{} {} {}", d.day(), d.month(), d.year()))
                .unwrap_or_else(|_| v.clone());
            let entry =
                super::terms::changes_entry(content, v).map(|a| format!("changes.html#{a}"));
            (v.clone(), words, entry)
        }),
        caveat: f.caveat.clone().unwrap_or_default(),
        diagnostics: f
            .diagnostics
            .iter()
            .map(|d| DiagnosticView {
                name: d.clone(),
                href: links.diagnostic(d).ok().flatten(),
            })
            .collect(),
        pager,
        prev,
        next,
    }
}

fn page_article(
    content: &Content,
    page: &Page,
    prev: Option<Nav>,
    next: Option<Nav>,
) -> PageArticle {
    let s = content.page(&page.name).expect("rendered from the content");
    PageArticle {
        title: s.front.title.clone(),
        summary: s.front.summary.clone(),
        body: page.html.clone(),
        chapters: if s.kind == Kind::Landing {
            content
                .chapters()
                .map(|c| Card {
                    href: c.out_name(),
                    number: c.front.number.unwrap_or(0),
                    title: c.front.title.clone(),
                    summary: c.front.summary.clone(),
                })
                .collect()
        } else {
            Vec::new()
        },
        prev,
        next,
    }
}

/// Rewrites the ids and same-site links of a page's HTML for the print page: `id="x"` becomes
/// `id="<stem>--x"`, `href="#x"` becomes `#<stem>--x`, and `href="<page>.html#y"` of a page
/// that is also on the print page becomes `#<page-stem>--y` (`#<page-stem>` without an
/// anchor).
pub fn prefix_ids(html: &str, own_stem: &str, printed: &[String]) -> String {
    let mut out = String::with_capacity(html.len() + html.len() / 16);
    let mut rest = html;
    let attrs = [
        " id=\"",
        " href=\"",
        " aria-labelledby=\"",
        " aria-describedby=\"",
        " for=\"",
    ];
    loop {
        let next = attrs
            .iter()
            .filter_map(|a| rest.find(a).map(|i| (i, *a)))
            .min_by_key(|(i, _)| *i);
        let Some((i, attr)) = next else {
            out.push_str(rest);
            break;
        };
        let value_start = i + attr.len();
        let Some(len) = rest[value_start..].find('"') else {
            out.push_str(rest);
            break;
        };
        out.push_str(&rest[..value_start]);
        let value = &rest[value_start..value_start + len];
        let new = if attr == " href=\"" {
            if let Some(anchor) = value.strip_prefix('#') {
                format!("#{own_stem}--{anchor}")
            } else {
                let (file, anchor) = match value.split_once('#') {
                    Some((f, a)) => (f, Some(a)),
                    None => (value, None),
                };
                let target = stem(file);
                if !file.contains('/')
                    && file.ends_with(".html")
                    && printed.iter().any(|p| p == target)
                {
                    match anchor {
                        Some(a) => format!("#{target}--{a}"),
                        None => format!("#{target}"),
                    }
                } else {
                    value.to_string()
                }
            }
        } else {
            value
                .split(' ')
                .map(|v| format!("{own_stem}--{v}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        out.push_str(&new);
        rest = &rest[value_start + len..];
    }
    out
}

/// Lays out every page. Returns the files of the site keyed by relative path.
///
/// # Errors
/// A template that fails to render (a bug, reported as a problem).
pub fn lay_out(
    content: &Content,
    pages: &[Page],
    links: &Links,
    extra_css: &[String],
) -> Result<BTreeMap<String, Vec<u8>>, Problem> {
    let fail = |e: askama::Error| Problem {
        file: "templates/guide".into(),
        line: 0,
        message: format!("template: {e}"),
    };
    let mut stylesheets = vec!["site.css".to_string()];
    stylesheets.extend(extra_css.iter().cloned());
    stylesheets.push("guide.css".to_string());
    let mut files = BTreeMap::new();
    let navs: Vec<Nav> = pages
        .iter()
        .map(|p| Nav {
            href: p.out.clone(),
            title: content
                .page(&p.name)
                .map(|s| s.front.title.clone())
                .unwrap_or_default(),
        })
        .collect();
    let landing = content.pages.iter().find(|p| p.kind == Kind::Landing);
    let mut print_sections = Vec::new();
    let printed: Vec<String> = pages
        .iter()
        .filter(|p| p.kind != Kind::Landing)
        .map(|p| stem(&p.out).to_string())
        .collect();
    for (i, page) in pages.iter().enumerate() {
        let prev = i.checked_sub(1).map(|j| navs[j].clone());
        let next = navs.get(i + 1).cloned();
        let src = content.page(&page.name).expect("rendered from the content");
        let shell = Shell {
            page_title: if page.kind == Kind::Landing {
                GUIDE_TITLE.to_string()
            } else {
                format!("{} · {GUIDE_TITLE}", src.front.title)
            },
            description: src.front.summary.clone(),
            stylesheets: stylesheets.clone(),
            search: true,
            body_class: match page.kind {
                Kind::Landing => "landing".into(),
                Kind::Chapter(_) => "chapter-page".into(),
                Kind::Glossary => "glossary-page".into(),
                Kind::Changes => "changes-page".into(),
            },
            toc: toc(content, &page.name),
            audit_href: links.audit_home.clone(),
        };
        let (html, print_html) = match page.kind {
            Kind::Chapter(_) => {
                let a = chapter_article(content, page, links, true, prev, next);
                let html = ChapterTpl {
                    shell: &shell,
                    a: &a,
                }
                .render()
                .map_err(fail)?;
                let mut pa = a.clone();
                pa.pager = false;
                let print = ChapterArticleTpl { a: &pa }.render().map_err(fail)?;
                (html, Some(print))
            }
            Kind::Landing | Kind::Glossary | Kind::Changes => {
                let a = page_article(content, page, prev, next);
                let html = PageTpl {
                    shell: &shell,
                    a: &a,
                }
                .render()
                .map_err(fail)?;
                let print = if matches!(page.kind, Kind::Glossary | Kind::Changes) {
                    let mut pa = a.clone();
                    pa.prev = None;
                    pa.next = None;
                    Some(PageArticleTpl { a: &pa }.render().map_err(fail)?)
                } else {
                    None
                };
                (html, print)
            }
        };
        if let Some(p) = print_html {
            let id = stem(&page.out).to_string();
            print_sections.push(PrintSection {
                html: prefix_ids(&p, &id, &printed),
                id,
            });
        }
        files.insert(page.out.clone(), html.into_bytes());
    }
    files.insert(
        "playground.html".into(),
        playground(content, &stylesheets, links)?.into_bytes(),
    );
    let print_toc: Vec<TocEntry> = toc(content, "")
        .into_iter()
        .filter(|e| printed.iter().any(|p| format!("{p}.html") == e.href))
        .map(|mut e| {
            e.href = format!("#{}", stem(&e.href));
            e
        })
        .collect();
    let print = PrintTpl {
        title: landing.map_or(GUIDE_TITLE, |l| l.front.title.as_str()),
        summary: landing.map_or("", |l| l.front.summary.as_str()),
        stylesheets: &stylesheets,
        toc: &print_toc,
        sections: &print_sections,
    }
    .render()
    .map_err(fail)?;
    files.insert("print.html".into(), print.into_bytes());
    files.insert(
        super::GUIDE_MARKER.into(),
        b"This folder was written by robots-explorer guide; the next run replaces it.\n".to_vec(),
    );
    files.insert("site.css".into(), SITE_CSS.as_bytes().to_vec());
    files.insert("guide.css".into(), GUIDE_CSS.as_bytes().to_vec());
    files.insert("guide.js".into(), GUIDE_JS.as_bytes().to_vec());
    files.insert(
        "assets/tester.js".into(),
        crate::html::tester::tester_script().as_bytes().to_vec(),
    );
    files.insert(
        "assets/engine.js".into(),
        crate::html::tester::engine_script().as_bytes().to_vec(),
    );
    files.insert(
        "search-index.js".into(),
        search_index(content, pages).into_bytes(),
    );
    Ok(files)
}

/// The example the playground opens with when its address brings no file.
const PLAYGROUND_EXAMPLE: &str = "User-agent: *\nDisallow: /search\nAllow: /search/about\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: https://example.com/sitemap.xml\n";

/// `playground.html`: the tester with a file typed or pasted in, opened by the chapters'
/// "Try it" links with their example.
fn playground(content: &Content, stylesheets: &[String], links: &Links) -> Result<String, Problem> {
    let fail = |e: askama::Error| Problem {
        file: "templates/report/tester.html".into(),
        line: 0,
        message: format!("template: {e}"),
    };
    let mut view = crate::html::tester::TesterView::new(
        "",
        None,
        crate::Reading::Google,
        &["/search/about".to_string(), "/search?q=robots".to_string()],
    );
    view.text = PLAYGROUND_EXAMPLE.to_string();
    let tester = crate::html::tester::Standalone { t: &view }
        .render()
        .map_err(fail)?;
    let body = format!(
        "<p>Paste or type any robots.txt file, list URLs and choose a crawler: the robots-explorer \
         engine, compiled to WebAssembly, answers in this page as the command line does, in both \
         readings, with the line that decides and the file's diagnostics. Nothing is sent \
         anywhere; the chapters' <em>Try it</em> links open their examples here.</p>\n{tester}\n\
         <script src=\"assets/tester.js\"></script>\n"
    );
    let a = PageArticle {
        title: "Playground".into(),
        summary: "Test URLs against any robots.txt file, in your browser.".into(),
        body,
        chapters: Vec::new(),
        prev: None,
        next: None,
    };
    let shell = Shell {
        page_title: format!("Playground · {GUIDE_TITLE}"),
        description: a.summary.clone(),
        stylesheets: stylesheets.to_vec(),
        search: true,
        body_class: "playground-page".into(),
        toc: toc(content, ""),
        audit_href: links.audit_home.clone(),
    };
    PageTpl {
        shell: &shell,
        a: &a,
    }
    .render()
    .map_err(fail)
}

/// The search index as a script that sets `window.GUIDE_SEARCH_INDEX`.
pub fn search_index(content: &Content, pages: &[Page]) -> String {
    let mut entries = Vec::new();
    for p in pages {
        let title = content
            .page(&p.name)
            .map(|s| s.front.title.clone())
            .unwrap_or_default();
        for s in &p.search {
            if s.text.trim().is_empty() && s.anchor.is_none() {
                continue;
            }
            entries.push(SearchEntry {
                p: title.clone(),
                h: s.heading.clone(),
                u: match &s.anchor {
                    Some(a) => format!("{}#{a}", p.out),
                    None => p.out.clone(),
                },
                t: s.text.split_whitespace().collect::<Vec<_>>().join(" "),
            });
        }
    }
    let json = serde_json::to_string(&entries).expect("strings serialise");
    format!(
        "// Search index of the guide, loaded as a script so that search also works from file://.\n\
         window.GUIDE_SEARCH_INDEX = {json};\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn print_ids_are_prefixed() {
        let printed = vec!["04-groups".to_string(), "glossary".to_string()];
        let html = r##"<h2 id="a">A</h2><a href="#a">x</a><a href="04-groups.html#b">y</a><a href="glossary.html">g</a><a href="index.html">i</a><a href="https://x/#y">e</a><svg aria-labelledby="t d">"##;
        let out = prefix_ids(html, "05-x", &printed);
        assert_eq!(
            out,
            r##"<h2 id="05-x--a">A</h2><a href="#05-x--a">x</a><a href="#04-groups--b">y</a><a href="#glossary">g</a><a href="index.html">i</a><a href="https://x/#y">e</a><svg aria-labelledby="05-x--t 05-x--d">"##
        );
    }
}
