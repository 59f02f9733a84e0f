//! Stage 2 of the guide: one source page → HTML fragments and the facts the build needs
//! (headings, internal links to verify, check results, search sections).
//!
//! Markdown goes through pulldown-cmark with tables, footnotes, GitHub admonitions
//! (`> [!NOTE]`) and heading anchors. Fenced blocks are special by language: `robots` (parsed by
//! the engine and shown like a report listing), `robots-check` (expectations, evaluated here),
//! `figure` (inline SVG); others are highlighted by [`super::highlight`] (`robots-txt` is a
//! robots.txt snippet highlighted by the shipped grammar without being run through the engine).
//!
//! Link forms: `NN-slug.md`, `NN-slug.md#anchor`, `glossary.md#term`, `index.md`, `#anchor`,
//! `diagnostic:NAME`, `host:NAME`, and absolute `http(s)://` or `mailto:` URLs.

use super::checks::{self, Checked, Expectation, Outcome, Verdict};
use super::load::{Content, Kind, Source, html_name};
use super::slug::Slugger;
use super::terms::Glossary;
use super::{Links, Problem, figures};
use crate::RobotsTxt;
use crate::analysis::Analysis;
use crate::html::escape;
use pulldown_cmark::{
    BlockQuoteKind, CodeBlockKind, CowStr, Event, HeadingLevel, LinkType, Options, Parser, Tag,
    TagEnd,
};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Ids the page templates use; body headings never take them.
pub const RESERVED_IDS: &[&str] = &[
    "main",
    "toc",
    "top",
    "search",
    "search-input",
    "search-results",
    "start-here",
    "key-points",
    "rfc-sections",
    "terms",
    "related-rfcs",
    "caveat",
    "diagnostics-explained",
    "chapters",
    "check-yourself",
];

/// A heading of a rendered page.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Heading {
    /// 1–6.
    pub level: u8,
    /// The anchor.
    pub id: String,
    /// Plain text.
    pub text: String,
}

/// An internal link to verify once every page is rendered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkRef {
    /// 1-based line in the source file.
    pub line: usize,
    /// The link as written.
    pub written: String,
    /// Target page, as an output file name (`04-groups.html`).
    pub page: String,
    /// The anchor, if any.
    pub anchor: Option<String>,
}

/// One evaluated check with its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckRecord {
    /// 1-based line of the check (its list item, or the block) in the source file.
    pub line: usize,
    /// 1-based line of the opening fence of the ```robots block it is about.
    pub block_line: usize,
    /// The result.
    pub checked: Checked,
}

/// A piece of the search index: one section of a page.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SearchSection {
    /// Anchor of the section's heading (`None` for the text before the first heading).
    pub anchor: Option<String>,
    /// Heading text (the page title for the text before the first heading).
    pub heading: String,
    /// Plain text of the section.
    pub text: String,
}

/// A rendered page.
#[derive(Clone, Debug)]
pub struct Page {
    /// Source file name (`05-x.md`).
    pub name: String,
    /// Output file name (`05-x.html`).
    pub out: String,
    /// What it is.
    pub kind: Kind,
    /// The body as HTML.
    pub html: String,
    /// The primer body as HTML (chapters).
    pub primer_html: Option<String>,
    /// The "Check yourself" section (chapters with questions; see [`super::questions`]).
    pub questions_html: String,
    /// Headings of the body, in order.
    pub headings: Vec<Heading>,
    /// Internal links to verify.
    pub links: Vec<LinkRef>,
    /// Evaluated checks.
    pub checks: Vec<CheckRecord>,
    /// Search sections.
    pub search: Vec<SearchSection>,
    /// Number of figures.
    pub figures: usize,
    /// Number of self-check questions the engine answered as written.
    pub questions: usize,
    /// Number of ```robots blocks.
    pub robots_blocks: usize,
    /// Errors (the build fails when any page has one).
    pub problems: Vec<Problem>,
    /// Checks that cannot be evaluated in this build (see [`checks`]).
    pub pending: Vec<Problem>,
    /// Diagnostic names (in links and front matter) that cannot be verified in this build.
    pub unverified: Vec<Problem>,
}

/// Everything rendering needs besides the page.
pub struct Context<'a> {
    /// All pages (to resolve links between them).
    pub content: &'a Content,
    /// Data for generated figures.
    pub data: &'a figures::Data,
    /// Where `host:` and `diagnostic:` links go.
    pub links: &'a Links,
    /// The glossary's terms, linked from chapters (see [`super::terms`]).
    pub glossary: &'a Glossary,
}

fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_GFM
        | Options::ENABLE_STRIKETHROUGH
}

/// Line-number lookup for byte offsets of a Markdown body.
struct Lines {
    starts: Vec<usize>,
    first: usize,
}

impl Lines {
    fn new(text: &str, first: usize) -> Lines {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { starts, first }
    }
    fn line(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset) - 1 + self.first
    }
}

/// A robots block waiting for its checks.
struct RobotsBlock {
    /// The example as written.
    code: String,
    line: usize,
    robots: RobotsTxt,
    analysis: Analysis,
}

enum LinkKind {
    Anchor,
    Plain,
}

struct Renderer<'c, 'a> {
    ctx: &'c Context<'a>,
    source: &'c Source,
    lines: Lines,
    slugger: Slugger,
    headings: Vec<Heading>,
    links: Vec<LinkRef>,
    checks: Vec<CheckRecord>,
    search: Vec<SearchSection>,
    figures: usize,
    figure_blocks: usize,
    robots_blocks: usize,
    problems: Vec<Problem>,
    pending: Vec<Problem>,
    unverified: Vec<Problem>,
    last_robots: Option<RobotsBlock>,
    link_stack: Vec<LinkKind>,
    /// Per glossary term: whether this page links it already (chapters only; `None` on other
    /// pages, which link no terms).
    terms_linked: Option<Vec<bool>>,
}

impl Renderer<'_, '_> {
    fn problem(&mut self, line: usize, message: impl Into<String>) {
        self.problems.push(Problem {
            file: self.source.path.clone(),
            line,
            message: message.into(),
        });
    }

    fn text(&mut self, t: &str) {
        if let Some(s) = self.search.last_mut() {
            if !s.text.is_empty() && !s.text.ends_with(' ') {
                s.text.push(' ');
            }
            s.text.push_str(t.trim());
        }
    }

    /// Resolves a link destination. Returns the new destination (or `None` to render the link
    /// text without a link).
    fn resolve(&mut self, dest: &str, line: usize) -> Option<String> {
        if dest.starts_with("https://")
            || dest.starts_with("http://")
            || dest.starts_with("mailto:")
        {
            return Some(dest.to_string());
        }
        if let Some(name) = dest.strip_prefix("host:") {
            return self.external_ref("host", name, line, |l| l.host(name));
        }
        if let Some(name) = dest.strip_prefix("diagnostic:") {
            if crate::analysis::catalogue().is_empty() {
                self.unverified.push(Problem {
                    file: self.source.path.clone(),
                    line,
                    message: format!(
                        "cannot verify the link to diagnostic `{name}`: this build's analysis \
                         has no catalogue"
                    ),
                });
            } else if crate::analysis::entry(name).is_none() {
                self.problem(
                    line,
                    format!("broken link `{dest}`: the analysis has no diagnostic `{name}`"),
                );
                return None;
            }
            return self.external_ref("diagnostic", name, line, |l| l.diagnostic(name));
        }
        let (file, anchor) = match dest.split_once('#') {
            Some((f, a)) => (f, Some(a)),
            None => (dest, None),
        };
        if anchor.is_some_and(str::is_empty) {
            self.problem(line, format!("broken link `{dest}`: empty anchor"));
            return None;
        }
        if file.is_empty() {
            self.links.push(LinkRef {
                line,
                written: dest.to_string(),
                page: self.source.out_name(),
                anchor: anchor.map(str::to_string),
            });
            return Some(dest.to_string());
        }
        if !file.ends_with(".md") || file.contains('/') {
            self.problem(
                line,
                format!(
                    "unknown link form `{dest}`: use `NN-slug.md#anchor`, `glossary.md#term`, \
                     `diagnostic:NAME`, `host:NAME` or an absolute http(s) URL"
                ),
            );
            return None;
        }
        if self.ctx.content.page(file).is_none() {
            self.problem(
                line,
                format!("broken link `{dest}`: there is no page `{file}`"),
            );
            return None;
        }
        let page = html_name(file);
        self.links.push(LinkRef {
            line,
            written: dest.to_string(),
            page: page.clone(),
            anchor: anchor.map(str::to_string),
        });
        Some(match anchor {
            Some(a) => format!("{page}#{a}"),
            None => page,
        })
    }

    fn external_ref(
        &mut self,
        what: &str,
        name: &str,
        line: usize,
        target: impl Fn(&Links) -> Result<Option<String>, String>,
    ) -> Option<String> {
        if name.is_empty() {
            self.problem(line, format!("broken link `{what}:`: no name"));
            return None;
        }
        match target(self.ctx.links) {
            Ok(href) => href,
            Err(e) => {
                self.problem(line, format!("broken link `{what}:{name}`: {e}"));
                None
            }
        }
    }

    fn robots_block(&mut self, code: &str, line: usize) -> String {
        self.robots_blocks += 1;
        let robots = RobotsTxt::parse(code.as_bytes());
        let analysis = crate::analysis::analyze(&robots);
        let opts = crate::html::ListingOptions {
            id_prefix: format!("ex{}-", self.robots_blocks),
            // The print page prefixes the chapters' ids where they are quoted.
            quoted_ids: true,
            diagnostic_href: self.ctx.links.diagnostic_template.clone(),
            caption: Some(format!(
                "Example {}, line by line as robots-explorer reads it",
                self.robots_blocks
            )),
            ..crate::html::ListingOptions::default()
        };
        let try_it = crate::html::tester::playground_href(code, &[], None);
        let html = format!(
            "<div class=\"example\">{}<p class=\"try-it\"><a href=\"{}\">Try it</a>: edit this \
             example and test URLs in the playground.</p></div>\n",
            crate::html::listing(&robots, &analysis, &opts),
            crate::html::escape(&try_it)
        );
        self.last_robots = Some(RobotsBlock {
            code: code.to_string(),
            line,
            robots,
            analysis,
        });
        html
    }

    fn check_block(&mut self, yaml: &str, line: usize) -> String {
        let first = line + 1;
        let Some(block) = &self.last_robots else {
            self.problem(
                first,
                "a robots-check block needs a ```robots block before it on the same page",
            );
            return String::new();
        };
        let expectations = match checks::parse(yaml) {
            Ok(e) => e,
            Err(e) => {
                self.problem(first, format!("robots-check: {e}"));
                return String::new();
            }
        };
        let item_lines = item_lines(yaml, first, expectations.len());
        let results = checks::evaluate(&block.robots, &block.analysis, &expectations);
        let block_line = block.line;
        let urls: Vec<&str> = expectations
            .iter()
            .filter_map(|e| match e {
                checks::Expectation::Decision { url, .. } => Some(url.as_str()),
                _ => None,
            })
            .collect();
        let agent = expectations.iter().find_map(|e| match e {
            checks::Expectation::Decision { agent, .. } => Some(agent.as_str()),
            _ => None,
        });
        let try_it = (!urls.is_empty())
            .then(|| crate::html::tester::playground_href(&block.code, &urls, agent));
        let mut html = self.check_table(&results);
        if let Some(href) = try_it {
            html.push_str(&format!(
                "<p class=\"try-it\"><a href=\"{}\">Try these URLs</a> in the playground, and edit the \
                 example to see how the verdicts change.</p>\n",
                escape(&href)
            ));
        }
        for (checked, line) in results.into_iter().zip(item_lines) {
            match &checked.outcome {
                Outcome::Pass => {}
                Outcome::Fail { message } => {
                    let m = format!(
                        "robots-check failed: expected {}, but {} (lines of the ```robots block \
                         at line {block_line})",
                        checked.expectation.describe(),
                        message
                    );
                    self.problem(line, m);
                }
                Outcome::Pending { message } => self.pending.push(Problem {
                    file: self.source.path.clone(),
                    line,
                    message: format!(
                        "robots-check pending: {} ({message})",
                        checked.expectation.describe()
                    ),
                }),
            }
            self.checks.push(CheckRecord {
                line,
                block_line,
                checked,
            });
        }
        html
    }

    fn diagnostic_name(&self, name: &str) -> String {
        match self.ctx.links.diagnostic(name).ok().flatten() {
            Some(h) => format!(
                "<a class=\"diagnostic-name\" href=\"{}\"><code>{}</code></a>",
                escape(&h),
                escape(name)
            ),
            None => format!("<code class=\"diagnostic-name\">{}</code>", escape(name)),
        }
    }

    fn check_table(&mut self, results: &[Checked]) -> String {
        let mut decisions = String::new();
        let mut diagnostics = String::new();
        for c in results {
            match &c.expectation {
                Expectation::Decision { agent, url, .. } => {
                    let cell = |reading: crate::Reading| -> String {
                        match c.said.iter().find(|s| s.reading == reading) {
                            None => "<td class=\"v-none\">not stated</td>".to_string(),
                            Some(s) => {
                                let class = match s.verdict {
                                    Verdict::Allowed => "v-allowed",
                                    Verdict::Disallowed => "v-disallowed",
                                };
                                let why = match s.line {
                                    Some(l) => format!("line {l}"),
                                    None => "no rule".to_string(),
                                };
                                format!(
                                    "<td class=\"{class}\">{}<span class=\"why\">{}</span></td>",
                                    s.verdict.as_str(),
                                    escape(&why)
                                )
                            }
                        }
                    };
                    let _ = writeln!(
                        decisions,
                        "<tr><td>{}</td><td><code>{}</code></td>{}{}</tr>",
                        escape(agent),
                        escape(url),
                        cell(crate::Reading::Google),
                        cell(crate::Reading::Rfc9309)
                    );
                }
                Expectation::Diagnostic { name, line } => {
                    let what = self.diagnostic_name(name);
                    let status = match &c.outcome {
                        Outcome::Pending { .. } => {
                            " <span class=\"pending\">(not verified in this build)</span>"
                        }
                        _ => "",
                    };
                    let _ = writeln!(
                        diagnostics,
                        "<li class=\"d-reported\">Reports {what}{}{status}</li>",
                        match line.or(c.found_lines.first().copied()) {
                            Some(l) => format!(" on line {l}"),
                            None => String::new(),
                        }
                    );
                }
                Expectation::NoDiagnostic { name } => {
                    let what = self.diagnostic_name(name);
                    let status = match &c.outcome {
                        Outcome::Pending { .. } => {
                            " <span class=\"pending\">(not verified in this build)</span>"
                        }
                        _ => "",
                    };
                    let _ = writeln!(
                        diagnostics,
                        "<li class=\"d-absent\">Does not report {what}{status}</li>"
                    );
                }
            }
        }
        let mut html = String::from(
            "<div class=\"checks\">\n<p class=\"checks-title\">What the engine decides for this file \
             (checked when the guide is built)</p>\n",
        );
        if !decisions.is_empty() {
            html.push_str(
                "<div class=\"table-wrap\"><table class=\"checks-table\">\n<thead><tr><th scope=\"col\">Crawler</th>\
                 <th scope=\"col\">URL</th><th scope=\"col\">Google</th><th scope=\"col\">RFC 9309</th></tr></thead>\n<tbody>\n",
            );
            html.push_str(&decisions);
            html.push_str("</tbody>\n</table></div>\n");
        }
        if !diagnostics.is_empty() {
            html.push_str("<ul class=\"check-diagnostics\">\n");
            html.push_str(&diagnostics);
            html.push_str("</ul>\n");
        }
        html.push_str("</div>\n");
        html
    }

    fn figure(&mut self, yaml: &str, line: usize) -> String {
        self.figure_blocks += 1;
        match figures::render(yaml, self.ctx.data, &self.source.front.sections) {
            Ok(html) => {
                self.figures += 1;
                html
            }
            Err(e) => {
                self.problem(line + 1, e);
                String::new()
            }
        }
    }

    fn code_block(&mut self, lang: &str, code: &str, line: usize) -> String {
        match lang {
            "robots" => self.robots_block(code, line),
            "robots-check" => self.check_block(code, line),
            "figure" => self.figure(code, line),
            _ => match super::highlight::highlight(code, lang) {
                Some(h) => format!(
                    "<pre class=\"code\" data-lang=\"{}\"><code>{h}</code></pre>\n",
                    escape(lang)
                ),
                None => {
                    self.problem(
                        line,
                        format!(
                            "unknown code block language `{lang}`: use robots, robots-check, \
                             figure, robots-txt, http, sh, json, yaml or text"
                        ),
                    );
                    String::new()
                }
            },
        }
    }

    /// Renders Markdown to HTML, processing the special blocks, links and headings.
    fn markdown(&mut self, text: &str, headings: bool) -> String {
        let mut doc = Document::default();
        for (event, range) in Parser::new_ext(text, options()).into_offset_iter() {
            let line = self.lines.line(range.start);
            if doc.code.is_some() {
                self.code_block_event(&mut doc, event);
                continue;
            }
            if let Some(e) = self.markdown_event(&mut doc, event, line, headings) {
                match &mut doc.heading {
                    Some(h) => h.inner.push(e),
                    None => doc.emit(e),
                }
            }
        }
        let mut html = String::new();
        pulldown_cmark::html::push_html(&mut html, doc.events.into_iter());
        self.check_footnotes(&doc.footnotes, &doc.footnote_order);
        footnotes_section(&mut html, &doc.footnotes, &doc.footnote_order);
        html
    }

    /// One event inside a code block: the text is collected, and the end renders the block as
    /// one HTML event.
    fn code_block_event<'e>(&mut self, doc: &mut Document<'e>, event: Event<'e>) {
        let Some((lang, buf, start)) = &mut doc.code else {
            return;
        };
        match event {
            Event::Text(t) => buf.push_str(&t),
            Event::End(TagEnd::CodeBlock) => {
                let (lang, buf, start) = (lang.clone(), std::mem::take(buf), *start);
                doc.code = None;
                if !matches!(lang.as_str(), "robots-check" | "figure") {
                    self.text(&buf);
                }
                let html = self.code_block(&lang, &buf, start);
                doc.emit(Event::Html(html.into()));
            }
            _ => {}
        }
    }

    /// What one Markdown event outside code blocks becomes, if anything is written for it in
    /// its place (headings, footnotes and tables write some of their events themselves).
    fn markdown_event<'e>(
        &mut self,
        doc: &mut Document<'e>,
        event: Event<'e>,
        line: usize,
        headings: bool,
    ) -> Option<Event<'e>> {
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                let lang = match kind {
                    CodeBlockKind::Fenced(l) => {
                        l.split_whitespace().next().unwrap_or("").to_string()
                    }
                    CodeBlockKind::Indented => String::new(),
                };
                doc.code = Some((lang, String::new(), line));
                None
            }
            Event::Start(Tag::Heading { level, .. }) if headings => {
                doc.heading = Some(OpenHeading {
                    level,
                    inner: Vec::new(),
                    text: String::new(),
                });
                None
            }
            Event::End(TagEnd::Heading(_)) if doc.heading.is_some() => {
                let heading = doc.heading.take().expect("checked");
                self.end_heading(doc, heading);
                None
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => Some(self.start_link(link_type, dest_url, title, id, line)),
            Event::End(TagEnd::Link) => Some(match self.link_stack.pop() {
                Some(LinkKind::Plain) => Event::Html("</span>".into()),
                Some(LinkKind::Anchor) => Event::Html("</a>".into()),
                None => Event::End(TagEnd::Link),
            }),
            Event::Start(Tag::BlockQuote(Some(kind))) => {
                doc.admonitions.push(kind);
                let (class, label) = admonition(kind);
                Some(Event::Html(
                    format!(
                        "<div class=\"admonition {class}\" role=\"note\">\n<p class=\"admonition-title\">{label}</p>\n"
                    )
                    .into(),
                ))
            }
            Event::End(TagEnd::BlockQuote(Some(_))) => {
                doc.admonitions.pop();
                Some(Event::Html("</div>\n".into()))
            }
            Event::Start(Tag::Table(a)) => {
                doc.emit(Event::Html("<div class=\"table-wrap\">\n".into()));
                Some(Event::Start(Tag::Table(a)))
            }
            Event::End(TagEnd::Table) => {
                doc.emit(Event::End(TagEnd::Table));
                Some(Event::Html("</div>\n".into()))
            }
            Event::FootnoteReference(label) => Some(doc.footnote_reference(&label)),
            Event::Start(Tag::FootnoteDefinition(label)) => {
                doc.in_footnote = Some((label.to_string(), Vec::new()));
                None
            }
            Event::End(TagEnd::FootnoteDefinition) => {
                if let Some(f) = doc.in_footnote.take() {
                    doc.footnotes.push(f);
                }
                None
            }
            Event::Text(t) => {
                self.text(&t);
                doc.heading_text(&t);
                if doc.heading.is_none() && self.link_stack.is_empty() {
                    return self.link_terms(doc, t, line);
                }
                Some(Event::Text(t))
            }
            Event::Code(t) => {
                self.text(&t);
                doc.heading_text(&t);
                Some(Event::Code(t))
            }
            // Raw HTML in chapters is never passed through: it is shown as text, escaped,
            // in blocks and inline alike, so a chapter cannot run scripts or add
            // attributes, and nothing written in it silently disappears.
            Event::Start(Tag::HtmlBlock) => {
                Some(Event::Html("<pre class=\"code raw-html\"><code>".into()))
            }
            Event::End(TagEnd::HtmlBlock) => Some(Event::Html("</code></pre>\n".into())),
            Event::Html(raw) => {
                self.text(&raw);
                Some(Event::Text(raw))
            }
            Event::InlineHtml(raw) => {
                self.text(&raw);
                doc.heading_text(&raw);
                Some(Event::Text(raw))
            }
            Event::SoftBreak => {
                doc.heading_text(" ");
                Some(Event::SoftBreak)
            }
            other => Some(other),
        }
    }

    /// Running text with the first occurrence on this page of each glossary term made a link
    /// to its entry: the text before each link is emitted, the rest returned.
    fn link_terms<'e>(
        &mut self,
        doc: &mut Document<'e>,
        text: CowStr<'e>,
        line: usize,
    ) -> Option<Event<'e>> {
        let glossary = self.ctx.glossary;
        let Some(linked) = &self.terms_linked else {
            return Some(Event::Text(text));
        };
        let Some(first) = glossary.find(&text, linked) else {
            return Some(Event::Text(text));
        };
        let mut rest: &str = &text;
        let mut next = Some(first);
        let mut out = Vec::new();
        while let Some(o) = next {
            let term = &glossary.terms()[o.term];
            if let Some(l) = &mut self.terms_linked {
                l[o.term] = true;
            }
            let dest = format!("glossary.md#{}", term.anchor);
            if let Some(href) = self.resolve(&dest, line) {
                out.push(Event::Text(rest[..o.start].to_string().into()));
                out.push(Event::Html(
                    format!("<a class=\"term-link\" href=\"{}\">", escape(&href)).into(),
                ));
                out.push(Event::Text(rest[o.start..o.end].to_string().into()));
                out.push(Event::Html("</a>".into()));
                rest = &rest[o.end..];
            }
            next = self
                .terms_linked
                .as_ref()
                .and_then(|l| glossary.find(rest, l));
        }
        let rest = rest.to_string();
        for e in out {
            doc.emit(e);
        }
        Some(Event::Text(rest.into()))
    }

    /// Writes a finished heading with its unique id and anchor link, and records it for the
    /// table of contents and the search index.
    fn end_heading<'e>(&mut self, doc: &mut Document<'e>, heading: OpenHeading<'e>) {
        let OpenHeading { level, inner, text } = heading;
        let id = self.slugger.unique(&text);
        self.headings.push(Heading {
            level: level as u8,
            id: id.clone(),
            text: text.clone(),
        });
        if level <= HeadingLevel::H3 {
            self.search.push(SearchSection {
                anchor: Some(id.clone()),
                heading: text.clone(),
                text: String::new(),
            });
        } else {
            self.text(&text);
        }
        doc.events.push(Event::Start(Tag::Heading {
            level,
            id: Some(CowStr::from(id.clone())),
            classes: Vec::new(),
            attrs: Vec::new(),
        }));
        doc.events.extend(inner);
        doc.events.push(Event::Html(
            format!(
                " <a class=\"anchor\" href=\"#{id}\" aria-label=\"Link to this section\">#</a>"
            )
            .into(),
        ));
        doc.events.push(Event::End(TagEnd::Heading(level)));
    }

    /// The start of a link: e-mail links as they are, other targets resolved (`host:`,
    /// `diagnostic:`, chapters), and a plain span when the target has no page.
    fn start_link<'e>(
        &mut self,
        link_type: LinkType,
        dest_url: CowStr<'e>,
        title: CowStr<'e>,
        id: CowStr<'e>,
        line: usize,
    ) -> Event<'e> {
        if matches!(link_type, LinkType::Email) {
            self.link_stack.push(LinkKind::Anchor);
            return Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            });
        }
        match self.resolve(&dest_url, line) {
            Some(href) => {
                self.link_stack.push(LinkKind::Anchor);
                let class = if dest_url.starts_with("host:") {
                    " class=\"host-link\""
                } else if dest_url.starts_with("diagnostic:") {
                    " class=\"diagnostic-link\""
                } else {
                    ""
                };
                let title = if title.is_empty() {
                    String::new()
                } else {
                    format!(" title=\"{}\"", escape(&title))
                };
                Event::Html(format!("<a href=\"{}\"{class}{title}>", escape(&href)).into())
            }
            None => {
                self.link_stack.push(LinkKind::Plain);
                let class = if dest_url.starts_with("host:") {
                    "host-name"
                } else if dest_url.starts_with("diagnostic:") {
                    "diagnostic-ref"
                } else {
                    "unlinked"
                };
                Event::Html(format!("<span class=\"{class}\">").into())
            }
        }
    }

    /// Problems with footnotes: references without a definition, definitions never referenced.
    fn check_footnotes(&mut self, footnotes: &[(String, Vec<Event>)], order: &[String]) {
        for label in order {
            if !footnotes.iter().any(|(l, _)| l == label) {
                self.problem(
                    self.lines.first,
                    format!("footnote `[^{label}]` has no definition"),
                );
            }
        }
        for (label, _) in footnotes {
            if !order.contains(label) {
                self.problem(
                    self.lines.first,
                    format!("footnote `[^{label}]` is never referenced"),
                );
            }
        }
    }
}

/// The Markdown of one page while it is rendered: the events written so far and what is open.
#[derive(Default)]
struct Document<'e> {
    /// The page's events.
    events: Vec<Event<'e>>,
    /// Footnote definitions: label and events.
    footnotes: Vec<(String, Vec<Event<'e>>)>,
    /// Footnote labels in the order of their first reference.
    footnote_order: Vec<String>,
    /// The footnote definition being read, if any.
    in_footnote: Option<(String, Vec<Event<'e>>)>,
    /// The code block being read: language, text, first line.
    code: Option<(String, String, usize)>,
    /// The heading being read, if any.
    heading: Option<OpenHeading<'e>>,
    /// The admonitions (`> [!NOTE]` blocks) open.
    admonitions: Vec<BlockQuoteKind>,
}

/// A heading being read.
struct OpenHeading<'e> {
    level: HeadingLevel,
    /// Its events, written when it ends.
    inner: Vec<Event<'e>>,
    /// Its plain text, for the id and the table of contents.
    text: String,
}

impl<'e> Document<'e> {
    /// Adds an event to the footnote being read, else to the page.
    fn emit(&mut self, e: Event<'e>) {
        match &mut self.in_footnote {
            Some((_, f)) => f.push(e),
            None => self.events.push(e),
        }
    }

    /// Adds text to the plain text of the heading being read, if any.
    fn heading_text(&mut self, t: &str) {
        if let Some(h) = &mut self.heading {
            h.text.push_str(t);
        }
    }

    /// The superscript number of a footnote reference; the first reference to a label numbers
    /// it and is the target of its back link.
    fn footnote_reference(&mut self, label: &str) -> Event<'e> {
        let label = label.to_string();
        let first = !self.footnote_order.contains(&label);
        if first {
            self.footnote_order.push(label.clone());
        }
        let n = self
            .footnote_order
            .iter()
            .position(|l| *l == label)
            .expect("pushed")
            + 1;
        let key = super::slug::slug(&label);
        let id = if first {
            format!(" id=\"fnref-{key}\"")
        } else {
            String::new()
        };
        Event::Html(
            format!(
                "<sup class=\"fn-ref\"{id}><a href=\"#fn-{key}\" aria-label=\"Note {n}\">{n}</a></sup>"
            )
            .into(),
        )
    }
}

/// Appends the notes section: the footnotes in the order of their first reference, each with
/// a link back to it.
fn footnotes_section(html: &mut String, footnotes: &[(String, Vec<Event>)], order: &[String]) {
    if order.is_empty() {
        return;
    }
    html.push_str("<section class=\"footnotes\" aria-label=\"Notes\">\n<ol>\n");
    for label in order {
        let Some((_, body)) = footnotes.iter().find(|(l, _)| l == label) else {
            continue;
        };
        let key = super::slug::slug(label);
        let mut inner = String::new();
        pulldown_cmark::html::push_html(&mut inner, body.iter().cloned());
        let back = format!(
            " <a class=\"fn-back\" href=\"#fnref-{key}\" aria-label=\"Back to the text\">↩</a></p>"
        );
        let inner = match inner.rfind("</p>") {
            Some(i) => format!("{}{}{}", &inner[..i], back, &inner[i + 4..]),
            None => format!("{inner}{back}"),
        };
        let _ = writeln!(html, "<li id=\"fn-{key}\">{}</li>", inner.trim());
    }
    html.push_str("</ol>\n</section>\n");
}

fn admonition(kind: BlockQuoteKind) -> (&'static str, &'static str) {
    match kind {
        BlockQuoteKind::Note => ("note", "Note"),
        BlockQuoteKind::Tip => ("tip", "Tip"),
        BlockQuoteKind::Important => ("important", "Important"),
        BlockQuoteKind::Warning => ("warning", "Warning"),
        BlockQuoteKind::Caution => ("caution", "Caution"),
    }
}

/// The 1-based file line of each item of a robots-check block: list items start at lines
/// beginning with `- `; a single mapping is on the block's first line.
fn item_lines(yaml: &str, first: usize, count: usize) -> Vec<usize> {
    let starts: Vec<usize> = yaml
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with("- ") || *l == "-")
        .map(|(i, _)| first + i)
        .collect();
    (0..count)
        .map(|i| starts.get(i).copied().unwrap_or(first))
        .collect()
}

/// Renders one page.
pub fn render(source: &Source, ctx: &Context) -> Page {
    let mut r = Renderer {
        ctx,
        source,
        lines: Lines::new(&source.body, source.body_line),
        slugger: Slugger::with_reserved(RESERVED_IDS),
        headings: Vec::new(),
        links: Vec::new(),
        checks: Vec::new(),
        search: vec![SearchSection {
            anchor: None,
            heading: source.front.title.clone(),
            text: source.front.summary.clone(),
        }],
        figures: 0,
        figure_blocks: 0,
        robots_blocks: 0,
        problems: Vec::new(),
        pending: Vec::new(),
        unverified: Vec::new(),
        last_robots: None,
        link_stack: Vec::new(),
        terms_linked: matches!(source.kind, Kind::Chapter(_))
            .then(|| vec![false; ctx.glossary.terms().len()]),
    };
    let html = r.markdown(&source.body, true);
    let primer_html = source.front.primer.as_ref().map(|p| {
        let saved = std::mem::replace(&mut r.lines, Lines::new(&p.body, 2));
        let search = std::mem::take(&mut r.search);
        let html = r.markdown(&p.body, false);
        r.lines = saved;
        r.search = search;
        html
    });
    let answered = super::questions::answer(&source.front.questions, &|name| {
        ctx.links.diagnostic(name).ok().flatten()
    });
    for (n, message) in answered.problems {
        r.problem(2, format!("front matter: question {n}: {message}"));
    }
    for name in &source.front.diagnostics {
        if crate::analysis::catalogue().is_empty() {
            r.unverified.push(Problem {
                file: source.path.clone(),
                line: 2,
                message: format!(
                    "cannot verify `diagnostics: [{name}]`: this build's analysis has no catalogue"
                ),
            });
        } else if crate::analysis::entry(name).is_none() {
            r.problem(
                2,
                format!(
                    "front matter: `diagnostics` names `{name}`, which the analysis does not know"
                ),
            );
        }
    }
    if let Kind::Chapter(_) = source.kind {
        if r.figure_blocks == 0 {
            r.problem(source.body_line, "a chapter needs at least one ```figure");
        }
        if let (Some(v), Some(changes)) = (
            &source.front.verified,
            super::terms::changes_page(ctx.content),
        ) {
            if super::terms::changes_entry(ctx.content, v).is_none() {
                r.problem(
                    2,
                    format!(
                        "front matter: `verified: {v}` has no entry on the changes page (a \
                         `## {v}` heading in {})",
                        changes.name
                    ),
                );
            }
        }
        if !ctx.glossary.terms().is_empty() {
            for t in &source.front.terms {
                if ctx.glossary.get(&t.term).is_none() {
                    r.problem(
                        2,
                        format!(
                            "front matter: the term `{}` has no entry in the glossary (a `## {}` \
                             heading in glossary.md)",
                            t.term, t.term
                        ),
                    );
                }
            }
        }
    }
    Page {
        name: source.name.clone(),
        out: source.out_name(),
        kind: source.kind,
        html,
        primer_html,
        questions_html: answered.html,
        questions: answered.passed,
        headings: r.headings,
        links: r.links,
        checks: r.checks,
        search: r.search,
        figures: r.figures,
        robots_blocks: r.robots_blocks,
        problems: r.problems,
        pending: r.pending,
        unverified: r.unverified,
    }
}

/// Verifies every internal link of every page: the target page exists and, if an anchor is
/// given, has an element with that id. `ids` maps output file names to their ids.
pub fn verify_links(
    pages: &[Page],
    ids: &BTreeMap<String, std::collections::BTreeSet<String>>,
    content: &Content,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    for p in pages {
        let path = content
            .page(&p.name)
            .map(|s| s.path.clone())
            .unwrap_or_default();
        for l in &p.links {
            match ids.get(&l.page) {
                None => problems.push(Problem {
                    file: path.clone(),
                    line: l.line,
                    message: format!("broken link `{}`: no page {}", l.written, l.page),
                }),
                Some(set) => {
                    if let Some(a) = &l.anchor {
                        if !set.contains(a) {
                            let mut near: Vec<&String> = set
                                .iter()
                                .filter(|id| id.contains(a.as_str()) || a.contains(id.as_str()))
                                .collect();
                            near.truncate(3);
                            problems.push(Problem {
                                file: path.clone(),
                                line: l.line,
                                message: format!(
                                    "broken link `{}`: {} has no anchor `#{a}`{}",
                                    l.written,
                                    l.page,
                                    if near.is_empty() {
                                        String::new()
                                    } else {
                                        format!(
                                            " (similar: {})",
                                            near.iter()
                                                .map(|s| format!("#{s}"))
                                                .collect::<Vec<_>>()
                                                .join(", ")
                                        )
                                    }
                                ),
                            });
                        }
                    }
                }
            }
        }
    }
    problems
}
