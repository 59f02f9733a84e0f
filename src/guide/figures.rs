//! ```` ```figure ```` blocks: diagrams as inline SVG, made at build time, without JavaScript.
//!
//! Every figure carries a `<title>` and a `<desc>` (its text alternative) and a visible
//! `<figcaption>`. Kinds:
//!
//! - `ascii`: ASCII art drawn by svgbob;
//! - `fetch-outcomes`: the three access results of RFC 9309 §2.3.1, from `outcomes.yaml`;
//! - `redirect-chain`: a redirect chain (RFC 9309 §2.3.1.2), from `redirect-chain.yaml`;
//! - `cache-timeline`: cache ages (RFC 9309 §2.4), from `cache.yaml`. Ages are computed from
//!   the fixture's fixed RFC 3339 timestamps with the `time` crate, never from the clock, and
//!   checked against the ages and decisions the fixture states.
//!
//! The SVG uses CSS classes only (no inline colours, no `id`s), so the same markup follows the
//! light and dark theme and can appear several times on one page (the print page).

use super::load::Section;
use crate::fetch::{self, CacheAge, Outcome};
use crate::html::escape;
use crate::text::{Units, duration};
use std::fmt::Write as _;
use std::path::Path;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// A figure block as written.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    /// Which diagram.
    pub kind: FigureKind,
    /// Short title (SVG `<title>`).
    pub title: String,
    /// Full text alternative (SVG `<desc>`).
    pub description: String,
    /// Visible caption.
    pub caption: String,
    /// ASCII art, for `kind: ascii` only.
    pub art: Option<String>,
    /// The RFC 9309 sections the drawing illustrates, by number (`"2.3.1"`), one or a list;
    /// each must be one of the chapter's `sections`, whose title and link the figure shows
    /// under its caption as "Source for this drawing".
    #[serde(default, deserialize_with = "one_or_many")]
    pub source: Vec<String>,
}

/// A YAML string or a list of strings, as a list.
fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    Ok(match <OneOrMany as serde::Deserialize>::deserialize(d)? {
        OneOrMany::One(s) => vec![s],
        OneOrMany::Many(v) => v,
    })
}

/// The kinds of figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FigureKind {
    /// svgbob ASCII art.
    Ascii,
    /// The three access results.
    FetchOutcomes,
    /// A redirect chain.
    RedirectChain,
    /// Cache ages on a time line.
    CacheTimeline,
}

/// `outcomes.yaml`: alternative answers to one robots.txt request.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcomes {
    /// The URL asked for.
    pub url: String,
    /// One answer per access result.
    pub cases: Vec<OutcomeCase>,
}

/// One alternative answer.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutcomeCase {
    /// HTTP status.
    pub status: u16,
    /// `successful`, `unavailable` or `unreachable`.
    pub outcome: String,
    /// RFC 9309 section.
    pub section: String,
    /// The body, when one was received.
    pub body: Option<String>,
    /// Whether an earlier copy is cached.
    pub cached: Option<bool>,
    /// What the crawler does, one sentence.
    pub crawler: String,
}

/// `redirect-chain.yaml`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RedirectChain {
    /// The URL first asked for.
    pub start: String,
    /// Each redirect, in order.
    pub hops: Vec<Hop>,
    /// The response that ends the chain.
    #[serde(rename = "final")]
    pub end: FinalResponse,
    /// The authority whose rules the file holds.
    pub applies_to: String,
}

/// One redirect.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hop {
    /// 3xx status.
    pub status: u16,
    /// The `Location`.
    pub location: String,
}

/// The last response of a chain.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FinalResponse {
    /// Its URL.
    pub url: String,
    /// Its status.
    pub status: u16,
}

/// `cache.yaml`: one cached copy looked at several times.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cache {
    /// The file's URL.
    pub url: String,
    /// When the copy was fetched (RFC 3339).
    pub fetched_at: String,
    /// Status of that fetch.
    pub status: u16,
    /// The freshness bound in hours: RFC 9309 §2.4's 24 ([`fetch::CACHE_BOUND_SECONDS`]).
    pub max_age_hours: i64,
    /// The looks.
    pub looks: Vec<Look>,
}

/// One look at the cached copy.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Look {
    /// When (RFC 3339).
    pub at: String,
    /// The age the fixture states, checked against the computed one.
    pub age_hours: Option<i64>,
    /// A refetch attempted at that moment, if any.
    pub refetch: Option<Refetch>,
    /// Whether the crawler may use the cached copy, as the fixture states; checked.
    pub uses_cache: bool,
    /// Why, one sentence.
    pub reason: String,
}

/// A refetch attempt.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Refetch {
    /// Its status.
    pub status: u16,
    /// `successful`, `unavailable` or `unreachable`.
    pub outcome: String,
}

/// The data the generated figures are drawn from; each part is `Err` with a message when its
/// file is missing or invalid (only figures that need it fail).
#[derive(Clone, Debug)]
pub struct Data {
    /// From `outcomes.yaml`.
    pub outcomes: Result<Outcomes, String>,
    /// From `redirect-chain.yaml`.
    pub redirects: Result<RedirectChain, String>,
    /// From `cache.yaml`.
    pub cache: Result<Cache, String>,
}

fn read_yaml<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_norway::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

impl Data {
    /// Reads `outcomes.yaml`, `redirect-chain.yaml` and `cache.yaml` from `dir`.
    pub fn load(dir: &Path) -> Data {
        Data {
            outcomes: read_yaml(&dir.join("outcomes.yaml")),
            redirects: read_yaml(&dir.join("redirect-chain.yaml")),
            cache: read_yaml(&dir.join("cache.yaml")),
        }
    }
}

/// Renders a figure block to a `<figure>` element.
///
/// # Errors
/// Invalid YAML, missing art or data, or fixture data that contradicts itself (e.g. a stated
/// cache age that differs from the one computed from the timestamps).
pub fn render(yaml: &str, data: &Data, sections: &[Section]) -> Result<String, String> {
    let spec: Spec = serde_norway::from_str(yaml).map_err(|e| format!("figure: {e}"))?;
    let source = source_line(&spec.source, sections)?;
    for (field, value) in [
        ("title", &spec.title),
        ("description", &spec.description),
        ("caption", &spec.caption),
    ] {
        if value.trim().is_empty() {
            return Err(format!("figure: `{field}` is empty"));
        }
    }
    if spec.art.is_some() && spec.kind != FigureKind::Ascii {
        return Err("figure: `art` is only for `kind: ascii`".into());
    }
    let (class, body, w, h) = match spec.kind {
        FigureKind::Ascii => {
            let art = spec
                .art
                .as_deref()
                .filter(|a| !a.trim().is_empty())
                .ok_or("figure: `kind: ascii` needs `art`")?;
            let (body, w, h) = ascii(art)?;
            ("svgbob", body, w, h)
        }
        FigureKind::FetchOutcomes => {
            let d = data.outcomes.as_ref().map_err(|e| format!("figure: {e}"))?;
            let (body, w, h) = fetch_outcomes(d)?;
            ("generated", body, w, h)
        }
        FigureKind::RedirectChain => {
            let d = data
                .redirects
                .as_ref()
                .map_err(|e| format!("figure: {e}"))?;
            let (body, w, h) = redirect_chain(d)?;
            ("generated", body, w, h)
        }
        FigureKind::CacheTimeline => {
            let d = data.cache.as_ref().map_err(|e| format!("figure: {e}"))?;
            let (body, w, h) = cache_timeline(d)?;
            ("generated", body, w, h)
        }
    };
    Ok(format!(
        "<figure class=\"figure\">\n<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"diagram {class}\" \
         viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\">\
         <title>{}</title><desc>{}</desc>\n{body}</svg>\n<figcaption>{}{source}</figcaption>\n</figure>\n",
        escape(spec.title.trim()),
        escape(spec.description.trim()),
        escape(spec.caption.trim()),
    ))
}

/// "Source for this drawing": the RFC 9309 sections a figure names in `source`, each linked
/// with the number and title the chapter's front matter gives it.
///
/// # Errors
/// When `source` is empty, or names a section the chapter does not list.
fn source_line(source: &[String], sections: &[Section]) -> Result<String, String> {
    if source.is_empty() {
        return Err(
            "figure: `source` is missing: name the RFC 9309 section(s) the drawing illustrates \
             (one of the chapter's `sections`)"
                .into(),
        );
    }
    let mut links = Vec::with_capacity(source.len());
    for number in source {
        let number = number.trim().trim_start_matches('§');
        let s = sections
            .iter()
            .find(|s| s.number == number)
            .ok_or_else(|| {
                let listed: Vec<&str> = sections.iter().map(|s| s.number.as_str()).collect();
                format!(
                    "figure: source §{number} is not among the chapter's sections ({})",
                    if listed.is_empty() {
                        "none".to_string()
                    } else {
                        listed.join(", ")
                    }
                )
            })?;
        links.push(format!(
            "<a href=\"{}\">§{} {}</a>",
            escape(&s.link),
            escape(&s.number),
            escape(&s.title)
        ));
    }
    Ok(format!(
        "<span class=\"figure-source\">Source for this drawing: RFC 9309 · {}</span>",
        links.join(" · ")
    ))
}

/// Marks the words of ASCII art as text for svgbob, which would otherwise draw the `/`, `-`,
/// `(`, `)`, `*` and `#` inside paths, URLs and names (`/robots.txt`, `User-agent`) as lines.
///
/// A *phrase* is a run of tokens (maximal runs of non-space characters) separated by single
/// spaces, holding at least one ASCII letter or digit and longer than one character (a lone
/// `v` or `o` is an arrow head or marker); a token made of line characters (`-`, `|`, `+`, `=`
/// with no letter or digit, such as `--->` or `|`) ends a phrase. Each phrase is wrapped in svgbob's escape quotes so that it is drawn as text exactly
/// where it was written: the opening quote takes the phrase's first column (svgbob places
/// escaped text at the quote's column), which needs two free columns after the phrase; with
/// only one, the phrase moves one column left into a free column before it. A phrase without
/// room, and any line the author already escaped with `"`, is left as it is.
pub fn protect_text(art: &str) -> String {
    let mut out = String::with_capacity(art.len() + art.len() / 8);
    for (i, line) in art.lines().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&protect_line(line));
    }
    if art.ends_with('\n') {
        out.push('\n');
    }
    out
}

fn protect_line(line: &str) -> String {
    if line.contains('"') {
        return line.to_string();
    }
    let chars: Vec<char> = line.chars().collect();
    // Tokens as (start, end) char ranges.
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == ' ' {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && chars[i] != ' ' {
            i += 1;
        }
        tokens.push((start, i));
    }
    let is_text = |(a, b): (usize, usize)| chars[a..b].iter().any(char::is_ascii_alphanumeric);
    let is_line = |(a, b): (usize, usize)| {
        !is_text((a, b))
            && chars[a..b]
                .iter()
                .any(|c| matches!(c, '-' | '|' | '+' | '='))
    };
    // Phrases as (start, end) char ranges.
    let mut phrases = Vec::new();
    let mut t = 0;
    while t < tokens.len() {
        if is_line(tokens[t]) {
            t += 1;
            continue;
        }
        let mut start = tokens[t].0;
        let mut u = t + 1;
        while u < tokens.len() && tokens[u].0 == tokens[u - 1].1 + 1 && !is_line(tokens[u]) {
            u += 1;
        }
        if !tokens[t..u].iter().any(|&tok| is_text(tok)) {
            t = u;
            continue;
        }
        let mut end = tokens[u - 1].1;
        // Box edges touching the words (`|abc|`) stay drawing.
        while start < end && matches!(chars[start], '|' | '+') {
            start += 1;
        }
        while end > start && matches!(chars[end - 1], '|' | '+') {
            end -= 1;
        }
        // A lone character (`v`, `o`, `x`, `V`) is drawing: arrow heads and markers.
        if end - start > 1 {
            phrases.push((start, end));
        }
        t = u;
    }
    let mut out = chars.clone();
    for (a, b) in phrases {
        let free = |k: usize| k >= chars.len() || chars[k] == ' ';
        let (open, text_at) = if free(b) && free(b + 1) {
            (a, a + 1)
        } else if a > 0 && chars[a - 1] == ' ' && free(b) {
            (a - 1, a)
        } else {
            continue;
        };
        let len = b - a;
        while out.len() < text_at + len + 1 {
            out.push(' ');
        }
        out[open] = '"';
        out[text_at..text_at + len].copy_from_slice(&chars[a..b]);
        out[text_at + len] = '"';
    }
    out.into_iter().collect::<String>().trim_end().to_string()
}

/// svgbob output without its `<svg>` wrapper, and its size.
fn ascii(art: &str) -> Result<(String, u32, u32), String> {
    let art = protect_text(art);
    let art = art.as_str();
    let settings = svgbob::Settings {
        include_backdrop: false,
        include_styles: false,
        include_defs: false,
        ..svgbob::Settings::default()
    };
    let svg = svgbob::to_svg_with_settings(art, &settings);
    let open_end = svg.find('>').ok_or("svgbob produced no <svg> element")?;
    let open = &svg[..open_end];
    let attr = |name: &str| -> Option<u32> {
        let at = open.find(&format!(" {name}=\""))? + name.len() + 3;
        let rest = &open[at..];
        let v = &rest[..rest.find('"')?];
        v.parse::<f32>().ok().map(|f| f.ceil() as u32)
    };
    // svgbob sizes the picture from its drawing cells only, so text it was told to keep as
    // text can fall outside; take the art's own extent too (cells of 8 × 16 px, plus the
    // margin of two cells svgbob adds).
    let cols = art.lines().map(|l| l.chars().count()).max().unwrap_or(0) as u32;
    let rows = art.lines().count() as u32;
    let (w, h) = (
        attr("width")
            .ok_or("svgbob output has no width")?
            .max((cols + 2) * 8),
        attr("height")
            .ok_or("svgbob output has no height")?
            .max((rows + 1) * 16),
    );
    let inner = svg[open_end + 1..]
        .trim_end()
        .strip_suffix("</svg>")
        .ok_or("svgbob output is not closed")?;
    if let Some(at) = inner.find("marked_") {
        // svgbob draws cells 8 px wide and 16 px high; name the art position of the element.
        let element = &inner[inner[..at].rfind('<').unwrap_or(0)..at];
        let coord = |name: &str| -> Option<f32> {
            let i = element.find(&format!(" {name}=\""))? + name.len() + 3;
            element[i..].split('"').next()?.parse().ok()
        };
        let place = match (coord("x2"), coord("y2")) {
            (Some(x), Some(y)) => format!(
                " near art line {}, column {}",
                (y / 16.0).floor() as u32 + 1,
                (x / 8.0).round() as u32 + 1
            ),
            _ => String::new(),
        };
        return Err(format!(
            "svgbob reads part of the art as a line ending in a marker (a circle or dot, \
             as in `-o` or `-*`){place}; markers need SVG ids, which the guide does not \
             use: reword the text there or draw heads with `>`, `<`, `^` or `v`"
        ));
    }
    if inner.contains(" id=\"") {
        return Err("svgbob output contains an id, which the guide does not use".into());
    }
    // svgbob writes `<text x="1" y="2" >`: tidy the stray space.
    let inner = inner.replace("\" >", "\">");
    Ok((format!("{}\n", inner.trim()), w, h))
}

/// A small SVG writer with CSS classes.
struct Svg {
    out: String,
}

impl Svg {
    fn new() -> Svg {
        Svg { out: String::new() }
    }
    fn rect(&mut self, x: i32, y: i32, w: i32, h: i32, class: &str) {
        let _ = writeln!(
            self.out,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" rx=\"6\" class=\"{class}\"/>"
        );
    }
    fn text(&mut self, x: i32, y: i32, class: &str, anchor: &str, s: &str) {
        let _ = writeln!(
            self.out,
            "<text x=\"{x}\" y=\"{y}\" class=\"{class}\" text-anchor=\"{anchor}\">{}</text>",
            escape(s)
        );
    }
    fn line(&mut self, x1: i32, y1: i32, x2: i32, y2: i32, class: &str) {
        let _ = writeln!(
            self.out,
            "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" class=\"{class}\"/>"
        );
    }
    /// A line with an arrow head at (x2, y2).
    fn arrow(&mut self, x1: i32, y1: i32, x2: i32, y2: i32, class: &str) {
        self.line(x1, y1, x2, y2, class);
        let (dx, dy) = ((x2 - x1) as f64, (y2 - y1) as f64);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let (ux, uy) = (dx / len, dy / len);
        let (bx, by) = (x2 as f64 - ux * 9.0, y2 as f64 - uy * 9.0);
        let (px, py) = (-uy * 4.5, ux * 4.5);
        let _ = writeln!(
            self.out,
            "<polygon points=\"{x2},{y2} {:.1},{:.1} {:.1},{:.1}\" class=\"{class} head\"/>",
            bx + px,
            by + py,
            bx - px,
            by - py
        );
    }
}

/// Greedy word wrap to at most `width` characters a line.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

fn reason_phrase(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        302 => "Found",
        303 => "See Other",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "",
    }
}

/// The access result RFC 9309 §2.3.1 assigns to an HTTP status, by its name.
fn outcome_of(status: u16) -> Option<&'static str> {
    fetch::status_outcome(status).map(Outcome::as_str)
}

fn fetch_outcomes(d: &Outcomes) -> Result<(String, u32, u32), String> {
    if d.cases.is_empty() {
        return Err("outcomes.yaml: no cases".into());
    }
    for c in &d.cases {
        if outcome_of(c.status) != Some(c.outcome.as_str()) {
            return Err(format!(
                "outcomes.yaml: status {} is `{}` in RFC 9309 section 2.3.1, not `{}`",
                c.status,
                outcome_of(c.status).unwrap_or("a redirect"),
                c.outcome
            ));
        }
    }
    let n = d.cases.len() as i32;
    let col = 236;
    let gap = 16;
    let width = n * col + (n - 1) * gap + 16;
    let mut svg = Svg::new();
    // The request.
    let req_w = 360;
    let req_x = (width - req_w) / 2;
    svg.rect(req_x, 8, req_w, 44, "box request");
    svg.text(width / 2, 27, "label", "middle", "crawler asks for");
    svg.text(width / 2, 44, "mono", "middle", &format!("GET {}", d.url));
    let mut bottom = 0;
    let mut columns = String::new();
    for (i, c) in d.cases.iter().enumerate() {
        let x = 8 + i as i32 * (col + gap);
        let cx = x + col / 2;
        let class = format!("o-{}", c.outcome);
        let mut s = Svg::new();
        s.arrow(width / 2, 52, cx, 108, "edge");
        s.rect(x, 110, col, 48, &format!("box status {class}"));
        s.text(
            cx,
            131,
            "strong",
            "middle",
            &format!("{} {}", c.status, reason_phrase(c.status)),
        );
        s.text(
            cx,
            149,
            "label",
            "middle",
            &format!("{} · RFC 9309 §{}", c.outcome, c.section),
        );
        let mut y = 176;
        if let Some(body) = &c.body {
            let lines: Vec<&str> = body.lines().collect();
            let h = 12 + 17 * lines.len() as i32;
            s.rect(x + 12, y, col - 24, h, "box file");
            for (j, l) in lines.iter().enumerate() {
                s.text(x + 22, y + 20 + 17 * j as i32, "mono", "start", l);
            }
            y += h + 12;
        }
        if c.cached == Some(false) {
            s.text(cx, y + 12, "note", "middle", "no cached copy");
            y += 24;
        }
        s.arrow(cx, y, cx, y + 22, "edge");
        y += 26;
        let lines = wrap(&c.crawler, 30);
        let h = 14 + 18 * lines.len() as i32;
        s.rect(x, y, col, h, &format!("box verdict {class}"));
        for (j, l) in lines.iter().enumerate() {
            s.text(cx, y + 21 + 18 * j as i32, "body", "middle", l);
        }
        bottom = bottom.max(y + h);
        columns.push_str(&s.out);
    }
    svg.out.push_str(&columns);
    for i in 1..n {
        let x = 8 + i * (col + gap) - gap / 2;
        svg.line(x, 110, x, bottom, "divider");
    }
    svg.text(
        width / 2,
        bottom + 22,
        "note",
        "middle",
        &format!("{n} alternative answers to the same request, not steps in a sequence"),
    );
    Ok((svg.out, width as u32, (bottom + 32) as u32))
}

fn host_of(url: &str) -> String {
    url::Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_string))
        .unwrap_or_else(|| url.to_string())
}

fn redirect_chain(d: &RedirectChain) -> Result<(String, u32, u32), String> {
    for h in &d.hops {
        if !(300..400).contains(&h.status) {
            return Err(format!(
                "redirect-chain.yaml: hop status {} is not a redirect",
                h.status
            ));
        }
    }
    if d.hops.last().map(|h| &h.location) != Some(&d.end.url) {
        return Err("redirect-chain.yaml: the last hop's location is not the final URL".into());
    }
    let width = 700;
    let row = 58;
    let box_w = 430;
    let x = 16;
    let mut svg = Svg::new();
    let mut y = 8;
    svg.rect(x, y, box_w, 40, "box request");
    svg.text(x + 12, y + 25, "mono", "start", &format!("GET {}", d.start));
    let mut from = d.start.clone();
    for (i, h) in d.hops.iter().enumerate() {
        let top = y + 40;
        y += row;
        svg.arrow(x + 40, top, x + 40, y, "edge");
        svg.text(
            x + 52,
            top + 13,
            "label",
            "start",
            &format!(
                "hop {} · {} {}{}",
                i + 1,
                h.status,
                reason_phrase(h.status),
                if host_of(&h.location) != host_of(&from) {
                    " · another host"
                } else {
                    ""
                }
            ),
        );
        let last = i + 1 == d.hops.len();
        svg.rect(
            x,
            y,
            box_w,
            40,
            if last {
                "box request final"
            } else {
                "box request"
            },
        );
        svg.text(
            x + 12,
            y + 25,
            "mono",
            "start",
            &format!("GET {}", h.location),
        );
        from = h.location.clone();
    }
    // The final response.
    let top = y + 40;
    y += row;
    svg.arrow(x + 40, top, x + 40, y, "edge");
    svg.text(
        x + 52,
        top + 13,
        "label",
        "start",
        &format!(
            "{} {} · the file is served by {}",
            d.end.status,
            reason_phrase(d.end.status),
            host_of(&d.end.url)
        ),
    );
    svg.rect(x, y, box_w, 40, "box file o-successful");
    svg.text(
        x + 12,
        y + 25,
        "body",
        "start",
        &format!("rules received after {} redirects", d.hops.len()),
    );
    let bottom = y + 40;
    // The side note: whose rules.
    let nx = x + box_w + 28;
    let nw = width - nx - 8;
    let note_y = 8;
    let followed = if d.hops.len() <= 5 {
        format!(
            "{} redirects: within the five RFC 9309 §2.3.1.2 asks crawlers to follow.",
            d.hops.len()
        )
    } else {
        format!(
            "{} redirects: more than five, so a crawler may treat the file as unavailable.",
            d.hops.len()
        )
    };
    let mut lines = vec!["The rules apply to".to_string(), host_of(&d.applies_to)];
    lines.push(String::new());
    lines.extend(wrap(
        &format!(
            "the authority first asked, not to {} (RFC 9309 §2.3.1.2).",
            host_of(&d.end.url)
        ),
        26,
    ));
    lines.push(String::new());
    lines.extend(wrap(&followed, 26));
    let nh = 16 + 18 * lines.len() as i32;
    svg.rect(nx, note_y, nw, nh, "box note-box");
    for (j, l) in lines.iter().enumerate() {
        let class = if j == 1 { "strong" } else { "body" };
        svg.text(nx + 12, note_y + 24 + 18 * j as i32, class, "start", l);
    }
    svg.arrow(nx, bottom - 20, x + box_w + 4, bottom - 20, "edge accent");
    svg.line(nx, bottom - 20, nx, note_y + nh, "edge accent");
    Ok((svg.out, width as u32, (bottom.max(note_y + nh) + 8) as u32))
}

/// Parses an RFC 3339 timestamp.
fn timestamp(s: &str, what: &str) -> Result<OffsetDateTime, String> {
    OffsetDateTime::parse(s, &Rfc3339).map_err(|e| format!("cache.yaml: {what} `{s}`: {e}"))
}

/// A computed look at the cached copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComputedLook {
    /// Age in whole minutes, from the fixture's timestamps.
    pub age_minutes: i64,
    /// Whether the copy is within the freshness bound.
    pub fresh: bool,
    /// Whether RFC 9309 §2.4 lets the crawler use the cached copy: fresh, or the refetch found
    /// the file unreachable.
    pub uses_cache: bool,
}

/// Computes the age of each look from the timestamps and decides whether the cached copy may
/// be used, with the engine's reading of RFC 9309 §2.4 ([`CacheAge`]: not past 24 hours unless
/// the file is unreachable).
///
/// # Errors
/// A bound other than RFC 9309's, unparseable timestamps, a look before the fetch, or a stated
/// age or decision that differs from the computed one.
pub fn compute_cache(d: &Cache) -> Result<Vec<ComputedLook>, String> {
    if d.max_age_hours * 3600 != fetch::CACHE_BOUND_SECONDS {
        return Err(format!(
            "cache.yaml: max_age_hours is {}, but RFC 9309 section 2.4 bounds the cache at {} hours",
            d.max_age_hours,
            fetch::CACHE_BOUND_SECONDS / 3600
        ));
    }
    let fetched = timestamp(&d.fetched_at, "fetched_at")?;
    d.looks
        .iter()
        .map(|l| {
            let at = timestamp(&l.at, "at")?;
            let age = CacheAge::at(true, fetched, at);
            if age.seconds < 0 {
                return Err(format!("cache.yaml: look at {} is before the fetch", l.at));
            }
            let age_minutes = age.seconds / 60;
            if let Some(stated) = l.age_hours {
                if stated * 60 != age_minutes {
                    return Err(format!(
                        "cache.yaml: look at {} states age {stated} h, but {} − {} is {}",
                        l.at,
                        l.at,
                        d.fetched_at,
                        duration(age.seconds, Units::Short)
                    ));
                }
            }
            let refetch = match &l.refetch {
                Some(r) if outcome_of(r.status) != Some(r.outcome.as_str()) => {
                    return Err(format!(
                        "cache.yaml: refetch status {} is not `{}`",
                        r.status, r.outcome
                    ));
                }
                Some(r) => fetch::status_outcome(r.status),
                None => None,
            };
            let uses_cache = age.usable(refetch);
            if uses_cache != l.uses_cache {
                return Err(format!(
                    "cache.yaml: look at {} states uses_cache: {}, but at age {} with {} RFC 9309 \
                     section 2.4 gives {}",
                    l.at,
                    l.uses_cache,
                    duration(age.seconds, Units::Short),
                    l.refetch
                        .as_ref()
                        .map_or("no refetch".to_string(), |r| format!(
                            "a {} refetch",
                            r.status
                        )),
                    uses_cache
                ));
            }
            Ok(ComputedLook {
                age_minutes,
                fresh: age.within_bound,
                uses_cache,
            })
        })
        .collect()
}

fn cache_timeline(d: &Cache) -> Result<(String, u32, u32), String> {
    let looks = compute_cache(d)?;
    let max_minutes = looks
        .iter()
        .map(|l| l.age_minutes)
        .max()
        .unwrap_or(0)
        .max(d.max_age_hours * 60);
    // Room after the last look: the axis ends 6 hours or more past it, on a 6-hour tick.
    let span_hours = ((max_minutes + 59) / 60 + 6 + 5) / 6 * 6;
    let width = 700;
    let (x0, x1) = (40, width - 40);
    let px = |minutes: i64| -> i32 { x0 + ((x1 - x0) as i64 * minutes / (span_hours * 60)) as i32 };
    let axis_y = 118;
    let mut svg = Svg::new();
    // Fresh and stale bands.
    let bound = px(d.max_age_hours * 60);
    svg.rect(x0, axis_y - 34, bound - x0, 34, "band fresh");
    svg.rect(bound, axis_y - 34, x1 - bound, 34, "band stale");
    svg.text(
        (x0 + bound) / 2,
        axis_y - 12,
        "label",
        "middle",
        "fresh: may be used",
    );
    svg.text(
        (bound + x1) / 2,
        axis_y - 12,
        "label",
        "middle",
        "stale: only if unreachable",
    );
    svg.arrow(x0, axis_y, x1 + 16, axis_y, "axis");
    for h in (0..=span_hours).step_by(6) {
        let x = px(h * 60);
        svg.line(x, axis_y, x, axis_y + 6, "axis");
        svg.text(x, axis_y + 20, "tick", "middle", &format!("{h} h"));
    }
    // The fetch.
    svg.line(x0, axis_y - 40, x0, axis_y, "mark");
    svg.text(
        x0,
        22,
        "strong",
        "start",
        &format!("fetched {}", d.fetched_at),
    );
    svg.text(
        x0,
        40,
        "label",
        "start",
        &format!("{} {} from {}", d.status, reason_phrase(d.status), d.url),
    );
    // The bound.
    svg.line(bound, 52, bound, axis_y + 6, "bound");
    svg.text(
        bound + 6,
        64,
        "label",
        "start",
        &format!("{} h bound, RFC 9309 §2.4", d.max_age_hours),
    );
    // The looks: one row of labels each, below the axis, in time order, so a later look's
    // marker passes to the right of the earlier rows' labels.
    let mut bottom = axis_y + 30;
    for (i, (l, c)) in d.looks.iter().zip(&looks).enumerate() {
        let x = px(c.age_minutes);
        let top = axis_y + 48 + 70 * i as i32;
        let class = match (c.uses_cache, c.fresh) {
            (true, true) => "look uses",
            (true, false) => "look exception",
            (false, _) => "look refuses",
        };
        svg.line(x, axis_y - 40, x, top - 4, class);
        let (anchor, tx) = if x > (x0 + x1) / 2 {
            ("end", x - 8)
        } else {
            ("start", x + 8)
        };
        let lines = [
            format!(
                "looked at {} · age {}",
                l.at,
                duration(c.age_minutes * 60, Units::Short)
            ),
            match &l.refetch {
                None => "no refetch needed".to_string(),
                Some(r) => format!(
                    "refetch: {} {} → {}",
                    r.status,
                    reason_phrase(r.status),
                    r.outcome
                ),
            },
            match (c.uses_cache, c.fresh) {
                (true, true) => "cached copy used".to_string(),
                (true, false) => "cached copy still used: unreachable exception".to_string(),
                (false, _) => "cached copy not used".to_string(),
            },
        ];
        for (j, t) in lines.iter().enumerate() {
            let class = if j == 0 { "strong" } else { "body" };
            svg.text(tx, top + 10 + 18 * j as i32, class, anchor, t);
        }
        bottom = bottom.max(top + 18 * lines.len() as i32);
    }
    Ok((svg.out, width as u32, (bottom + 4) as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data() -> Data {
        Data::load(Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/guide"
        )))
    }

    #[test]
    fn cache_ages_come_from_the_timestamps() {
        let d = data().cache.unwrap();
        let looks = compute_cache(&d).unwrap();
        assert_eq!(looks[0].age_minutes, 23 * 60);
        assert!(looks[0].fresh && looks[0].uses_cache);
        assert_eq!(looks[1].age_minutes, 25 * 60);
        assert!(!looks[1].fresh && looks[1].uses_cache);
        let mut wrong = d.clone();
        wrong.looks[0].age_hours = Some(22);
        assert!(compute_cache(&wrong).unwrap_err().contains("23 h"));
        let mut wrong = d.clone();
        wrong.looks[1].refetch = None;
        assert!(compute_cache(&wrong).unwrap_err().contains("uses_cache"));
    }

    fn sections() -> Vec<Section> {
        vec![Section {
            number: "1".into(),
            title: "Introduction".into(),
            link: "https://www.rfc-editor.org/rfc/rfc9309.html#section-1".into(),
        }]
    }

    #[test]
    fn every_figure_has_title_desc_and_caption() {
        let data = data();
        for kind in ["fetch-outcomes", "redirect-chain", "cache-timeline"] {
            let yaml = format!(
                "kind: {kind}\ntitle: T <1>\ndescription: D & d\ncaption: C\nsource: \"1\"\n"
            );
            let html = render(&yaml, &data, &sections()).unwrap();
            assert!(
                html.contains("<title>T &lt;1&gt;</title><desc>D &amp; d</desc>"),
                "{html}"
            );
            assert!(html.contains("<figcaption>C<span class=\"figure-source\">"));
            assert!(!html.contains(" id="), "{kind} must not use ids");
        }
        let html = render(
            "kind: ascii\nsource: \"1\"\ntitle: T\ndescription: D\ncaption: C\nart: |\n  +--+   +--+\n  |a |-->|b |\n  +--+   +--+\n",
            &data,
            &sections(),
        )
        .unwrap();
        assert!(html.contains("class=\"diagram svgbob\""), "{html}");
        assert!(html.contains("<text"), "{html}");
    }

    #[test]
    fn bad_figures_fail() {
        let data = data();
        assert!(
            render(
                "kind: ascii\ntitle: T\ndescription: D\ncaption: C\nsource: \"1\"\n",
                &data,
                &sections()
            )
            .is_err()
        );
        assert!(
            render(
                "kind: pie\ntitle: T\ndescription: D\ncaption: C\nsource: \"1\"\n",
                &data,
                &sections()
            )
            .is_err()
        );
        assert!(
            render(
                "kind: fetch-outcomes\ntitle: T\ndescription: ' '\ncaption: C\nsource: \"1\"\n",
                &data,
                &sections()
            )
            .is_err()
        );
    }

    #[test]
    fn words_become_text_in_place() {
        assert_eq!(
            protect_text("+--+  GET /robots.txt  +--+\n| a-b |\n  v\n"),
            "+--+  \"GET /robots.txt\"+--+\n|\"a-b\"|\n  v\n"
        );
        // Two free columns after: the quote takes the phrase's own first column.
        assert_eq!(protect_text("User-agent: *   x"), "\"User-agent: *\" x");
        // Arrows end a phrase.
        assert_eq!(protect_text(" /a ---> /b"), "\"/a\"---> \"/b\"");
        // No room: left alone; lines with quotes: left alone.
        assert_eq!(protect_text("|abc|"), "|abc|");
        assert_eq!(protect_text("# note  v"), "\"# note\"v");
        assert_eq!(protect_text("a \"*\" b"), "a \"*\" b");
    }

    #[test]
    fn wraps_words() {
        assert_eq!(wrap("aa bb cc dd", 5), vec!["aa bb", "cc dd"]);
        assert_eq!(wrap("", 5), Vec::<String>::new());
    }
}
