//! Stage 1 of the guide: read the content directory into plain data.
//!
//! A content directory holds chapters named `NN-slug.md` (two digits, a dash, a slug), an
//! optional `glossary.md` and an optional `index.md` (the landing page). Each file starts with
//! YAML front matter between two `---` lines; the chapter fields are those of [`FrontMatter`].
//! Nothing here renders anything: the result is [`Content`], a list of [`Source`]s.

use super::Problem;
use std::path::{Path, PathBuf};

/// One RFC 9309 section a chapter rests on.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Section {
    /// Section number as written in the RFC, e.g. `2.3.1`.
    pub number: String,
    /// Section title.
    pub title: String,
    /// Absolute URL of the section.
    pub link: String,
}

/// A term and its definition.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Term {
    /// The term.
    pub term: String,
    /// One or two sentences.
    pub definition: String,
}

/// A related RFC and how it relates to RFC 9309 or to the chapter's topic.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Related {
    /// E.g. `RFC 9110`.
    pub rfc: String,
    /// Its title.
    pub title: String,
    /// Free text; starts with `updates` or `obsoletes` where that is the formal relation.
    pub relation: String,
}

/// The beginner's primer of a chapter.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Primer {
    /// Heading, normally "New to this? Start here".
    pub title: String,
    /// Markdown.
    pub body: String,
}

/// YAML front matter. Chapters must have every field except `diagnostics`; the landing page
/// and the glossary need only `title` and `summary`.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct FrontMatter {
    /// Chapter number (equal to the `NN` of the file name).
    pub number: Option<u32>,
    /// Title.
    pub title: String,
    /// One sentence.
    pub summary: String,
    /// RFC 9309 sections the chapter rests on.
    #[serde(default)]
    pub sections: Vec<Section>,
    /// Terms with definitions.
    #[serde(default)]
    pub terms: Vec<Term>,
    /// Related RFCs.
    #[serde(default)]
    pub related: Vec<Related>,
    /// Key points, one sentence each.
    #[serde(default)]
    pub key_points: Vec<String>,
    /// What the chapter's drawings do not claim.
    pub caveat: Option<String>,
    /// The "New to this? Start here" primer.
    pub primer: Option<Primer>,
    /// Names of the diagnostics the chapter explains; their pages link to it.
    #[serde(default)]
    pub diagnostics: Vec<String>,
    /// The day the chapter was last checked against RFC 9309 and Google's documentation, as
    /// `YYYY-MM-DD` (chapters); the changes page has an entry headed by that date.
    pub verified: Option<String>,
    /// Self-check questions, each answered by the engine at build time (chapters; see
    /// [`super::questions`]).
    #[serde(default)]
    pub questions: Vec<super::questions::Question>,
}

/// What a source file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// `index.md`.
    Landing,
    /// `NN-slug.md`, with its number.
    Chapter(u32),
    /// `glossary.md`.
    Glossary,
    /// `changes.md`: what changed in the guide, by date.
    Changes,
}

/// One Markdown file of the content directory.
#[derive(Clone, Debug)]
pub struct Source {
    /// What it is.
    pub kind: Kind,
    /// File name as linked from other pages, e.g. `05-successful-unavailable-unreachable.md`.
    pub name: String,
    /// Path as given on the command line joined with the name (for messages).
    pub path: PathBuf,
    /// Parsed front matter.
    pub front: FrontMatter,
    /// The Markdown after the front matter.
    pub body: String,
    /// 1-based line number of the first line of `body` in the file.
    pub body_line: usize,
}

impl Source {
    /// The output file name: the source name with `.md` replaced by `.html`.
    pub fn out_name(&self) -> String {
        html_name(&self.name)
    }
}

/// A `verified` date, `YYYY-MM-DD`.
///
/// # Errors
/// When it is not a calendar date in that form.
pub fn verified_date(s: &str) -> Result<time::Date, String> {
    time::Date::parse(s, time::macros::format_description!("[year]-[month]-[day]"))
        .map_err(|e| format!("expected a date as YYYY-MM-DD ({e})"))
}

/// `x.md` → `x.html`.
pub fn html_name(md: &str) -> String {
    format!("{}.html", md.strip_suffix(".md").unwrap_or(md))
}

/// The loaded content: the landing page first, then chapters by number, then the glossary.
#[derive(Clone, Debug, Default)]
pub struct Content {
    /// Every page, in reading order.
    pub pages: Vec<Source>,
}

impl Content {
    /// The page whose file name is `name`.
    pub fn page(&self, name: &str) -> Option<&Source> {
        self.pages.iter().find(|p| p.name == name)
    }
    /// The chapters, in order.
    pub fn chapters(&self) -> impl Iterator<Item = &Source> {
        self.pages
            .iter()
            .filter(|p| matches!(p.kind, Kind::Chapter(_)))
    }
}

/// Whether `name` has the shape `NN-slug.md`; returns `NN`.
pub fn chapter_number(name: &str) -> Option<u32> {
    let stem = name.strip_suffix(".md")?;
    let (nn, slug) = stem.split_once('-')?;
    if nn.len() != 2 || !nn.bytes().all(|b| b.is_ascii_digit()) || slug.is_empty() {
        return None;
    }
    if !slug
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return None;
    }
    nn.parse().ok()
}

/// Splits a file into front matter (YAML) and body; returns `(yaml, body, body_line)`.
///
/// # Errors
/// A message when the file does not start with a `---` line or the closing `---` is missing.
pub fn split_front_matter(text: &str) -> Result<(&str, &str, usize), String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
        .ok_or("the file must start with a `---` line opening the YAML front matter")?;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            let yaml = &rest[..offset];
            let body = &rest[offset + line.len()..];
            // Lines: the opening `---`, the YAML lines, the closing `---`.
            let body_line = 2 + yaml.matches('\n').count() + 1;
            return Ok((yaml, body, body_line));
        }
        offset += line.len();
    }
    Err("the closing `---` line of the front matter is missing".into())
}

/// Parses one file.
///
/// # Errors
/// Problems with the front matter, or a chapter whose front matter lacks a required field or
/// whose `number` differs from its file name.
pub fn parse_source(name: &str, path: &Path, text: &str) -> Result<Source, Vec<Problem>> {
    let problem = |line: usize, message: String| Problem {
        file: path.to_path_buf(),
        line,
        message,
    };
    let (yaml, body, body_line) = split_front_matter(text).map_err(|m| vec![problem(1, m)])?;
    crate::report::sidecar::check_yaml_shape(yaml)
        .map_err(|m| vec![problem(2, format!("front matter: {m}"))])?;
    let front: FrontMatter = serde_norway::from_str(yaml).map_err(|e| {
        let line = e.location().map_or(2, |l| l.line() + 1);
        vec![problem(line, format!("front matter: {e}"))]
    })?;
    let kind = match name {
        "index.md" => Kind::Landing,
        "glossary.md" => Kind::Glossary,
        "changes.md" => Kind::Changes,
        _ => match chapter_number(name) {
            Some(n) => Kind::Chapter(n),
            None => {
                return Err(vec![problem(
                    1,
                    "not a chapter name: expected `NN-slug.md` (two digits, a dash, lower-case \
                     letters, digits and dashes), `index.md`, `glossary.md` or `changes.md`"
                        .into(),
                )]);
            }
        },
    };
    let mut problems = Vec::new();
    if front.title.trim().is_empty() {
        problems.push(problem(2, "front matter: `title` is empty".into()));
    }
    if front.summary.trim().is_empty() {
        problems.push(problem(2, "front matter: `summary` is empty".into()));
    }
    if let Kind::Chapter(n) = kind {
        match front.number {
            None => problems.push(problem(2, "front matter: a chapter needs `number`".into())),
            Some(m) if m != n => problems.push(problem(
                2,
                format!("front matter: `number: {m}` differs from the file name's {n:02}"),
            )),
            Some(_) => {}
        }
        let missing: Vec<&str> = [
            ("sections", front.sections.is_empty()),
            ("terms", front.terms.is_empty()),
            ("related", front.related.is_empty()),
            ("key_points", front.key_points.is_empty()),
            ("caveat", front.caveat.as_deref().is_none_or(str::is_empty)),
            ("primer", front.primer.is_none()),
            ("verified", front.verified.is_none()),
            ("questions", front.questions.is_empty()),
        ]
        .into_iter()
        .filter_map(|(field, missing)| missing.then_some(field))
        .collect();
        if !missing.is_empty() {
            problems.push(problem(
                2,
                format!(
                    "front matter: a chapter needs {} (missing or empty)",
                    missing.join(", ")
                ),
            ));
        }
    }
    if let Some(v) = &front.verified {
        if let Err(e) = verified_date(v) {
            problems.push(problem(2, format!("front matter: `verified: {v}`: {e}")));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(Source {
        kind,
        name: name.to_string(),
        path: path.to_path_buf(),
        front,
        body: body.to_string(),
        body_line,
    })
}

/// Reads every `*.md` file directly in `dir`.
///
/// # Errors
/// Every problem found (unreadable directory or file, bad front matter, two chapters with the
/// same number, no chapter at all), each with file and line.
pub fn load(dir: &Path) -> Result<Content, Vec<Problem>> {
    let mut names = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|e| {
        vec![Problem {
            file: dir.to_path_buf(),
            line: 0,
            message: format!("cannot read the content directory: {e}"),
        }]
    })?;
    for entry in entries {
        match entry {
            Ok(e) => {
                let name = e.file_name().to_string_lossy().into_owned();
                if name.ends_with(".md") && e.file_type().is_ok_and(|t| t.is_file()) {
                    names.push(name);
                }
            }
            Err(e) => {
                return Err(vec![Problem {
                    file: dir.to_path_buf(),
                    line: 0,
                    message: format!("cannot read the content directory: {e}"),
                }]);
            }
        }
    }
    names.sort();
    let mut pages = Vec::new();
    let mut problems = Vec::new();
    for name in names {
        let path = dir.join(&name);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                problems.push(Problem {
                    file: path,
                    line: 0,
                    message: format!("cannot read: {e}"),
                });
                continue;
            }
        };
        match parse_source(&name, &path, &text) {
            Ok(s) => pages.push(s),
            Err(p) => problems.extend(p),
        }
    }
    pages.sort_by(|a, b| a.kind.cmp(&b.kind).then_with(|| a.name.cmp(&b.name)));
    for pair in pages.windows(2) {
        if let (Kind::Chapter(a), Kind::Chapter(b)) = (pair[0].kind, pair[1].kind) {
            if a != b {
                continue;
            }
            problems.push(Problem {
                file: pair[1].path.clone(),
                line: 1,
                message: format!("chapter number {a:02} is also used by {}", pair[0].name),
            });
        }
    }
    if !pages.iter().any(|p| matches!(p.kind, Kind::Chapter(_))) && problems.is_empty() {
        problems.push(Problem {
            file: dir.to_path_buf(),
            line: 0,
            message: "no chapter (`NN-slug.md`) found".into(),
        });
    }
    if problems.is_empty() {
        Ok(Content { pages })
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chapter_names() {
        assert_eq!(chapter_number("05-successful.md"), Some(5));
        assert_eq!(chapter_number("5-x.md"), None);
        assert_eq!(chapter_number("05-X.md"), None);
        assert_eq!(chapter_number("05-.md"), None);
        assert_eq!(chapter_number("glossary.md"), None);
    }

    #[test]
    fn front_matter_lines() {
        let (yaml, body, line) = split_front_matter("---\na: 1\nb: 2\n---\n\nText\n").unwrap();
        assert_eq!(yaml, "a: 1\nb: 2\n");
        assert_eq!(body, "\nText\n");
        assert_eq!(line, 5);
        assert!(split_front_matter("no front matter").is_err());
        assert!(split_front_matter("---\na: 1\n").is_err());
    }

    #[test]
    fn chapter_needs_every_field() {
        let text = "---\nnumber: 3\ntitle: T\nsummary: S\n---\nBody\n";
        let err = parse_source("03-x.md", Path::new("03-x.md"), text).unwrap_err();
        assert!(err[0].message.contains("sections"), "{:?}", err);
        assert!(err[0].message.contains("primer"));
        let wrong = "---\nnumber: 4\ntitle: T\nsummary: S\n---\n";
        let err = parse_source("03-x.md", Path::new("03-x.md"), wrong).unwrap_err();
        assert!(err[0].message.contains("differs"));
    }

    #[test]
    fn unknown_field_is_reported_with_line() {
        let text = "---\ntitle: T\nsummary: S\nsumary: typo\n---\n";
        let err = parse_source("index.md", Path::new("index.md"), text).unwrap_err();
        assert!(err[0].message.contains("sumary"), "{}", err[0].message);
        assert_eq!(err[0].line, 4);
    }
}
