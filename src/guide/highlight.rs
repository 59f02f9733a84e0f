//! Code highlighting with syntect, into CSS classes (never inline colours), so one stylesheet
//! serves the light and the dark theme.
//!
//! Languages: `robots` (the grammar shipped in `assets/syntaxes/robots.sublime-syntax`, whose
//! classes are those of [`NodeKind::css_class`](crate::syntax::NodeKind::css_class)), `http`
//! (`assets/syntaxes/http.sublime-syntax`), `sh`/`shell`/`bash`, `json`, `yaml`, and `text`.
//! Classes come from scope atoms (`keyword.other.robots` → `keyword other robots`).

use std::sync::OnceLock;
use syntect::html::{ClassStyle, ClassedHTMLGenerator};
use syntect::parsing::{SyntaxDefinition, SyntaxSet, SyntaxSetBuilder};
use syntect::util::LinesWithEndings;

/// The robots.txt grammar shipped with the project.
pub const ROBOTS_GRAMMAR: &str = include_str!("../../assets/syntaxes/robots.sublime-syntax");
/// The HTTP message grammar shipped with the project.
pub const HTTP_GRAMMAR: &str = include_str!("../../assets/syntaxes/http.sublime-syntax");

/// syntect's default grammars plus the project's robots.txt and HTTP grammars (built once).
pub fn syntax_set() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(|| {
        let mut builder: SyntaxSetBuilder = SyntaxSet::load_defaults_newlines().into_builder();
        for (name, text) in [("robots", ROBOTS_GRAMMAR), ("http", HTTP_GRAMMAR)] {
            let def = SyntaxDefinition::load_from_str(text, true, Some(name))
                .unwrap_or_else(|e| panic!("the shipped {name} grammar is invalid: {e}"));
            builder.add(def);
        }
        builder.build()
    })
}

/// The languages a fenced block may name, mapped to a syntect file extension. `None` means
/// plain text (escaped, not highlighted).
pub fn language_token(lang: &str) -> Option<Option<&'static str>> {
    Some(match lang {
        "robots" | "robots-txt" | "robots.txt" | "robotstxt" => Some("robots"),
        "http" => Some("http"),
        "sh" | "shell" | "bash" | "console" => Some("sh"),
        "json" => Some("json"),
        "yaml" | "yml" => Some("yaml"),
        "text" | "txt" | "" => None,
        _ => return None,
    })
}

/// Highlights `code` as language `lang` into `<span class="…">` markup (no `<pre>`), or
/// returns `None` when the language is not one [`language_token`] knows.
pub fn highlight(code: &str, lang: &str) -> Option<String> {
    let token = language_token(lang)?;
    let Some(token) = token else {
        return Some(crate::html::escape(code).into_owned());
    };
    let set = syntax_set();
    let syntax = set.find_syntax_by_extension(token)?;
    let mut generator = ClassedHTMLGenerator::new_with_class_style(syntax, set, ClassStyle::Spaced);
    for line in LinesWithEndings::from(code) {
        if generator
            .parse_html_for_line_which_includes_newline(line)
            .is_err()
        {
            return Some(crate::html::escape(code).into_owned());
        }
    }
    Some(generator.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn robots_grammar_uses_parser_classes() {
        let html = highlight(
            "User-agent: * # all\nDisallow /tmp\nnot a record here\n",
            "robots",
        )
        .unwrap();
        assert!(
            html.contains(r#"<span class="rt-key robots">User-agent</span>"#),
            "{html}"
        );
        assert!(
            html.contains(r#"<span class="rt-sep robots">:</span>"#),
            "{html}"
        );
        assert!(
            html.contains(r#"<span class="rt-value robots">*</span>"#),
            "{html}"
        );
        assert!(
            html.contains(r#"<span class="rt-comment robots"># all</span>"#),
            "{html}"
        );
        assert!(
            html.contains(r#"<span class="rt-key robots">Disallow</span>"#),
            "{html}"
        );
        assert!(
            html.contains(r#"<span class="rt-value robots">/tmp</span>"#),
            "{html}"
        );
        assert!(
            html.contains(r#"<span class="rt-text robots">not a record here</span>"#),
            "{html}"
        );
    }

    #[test]
    fn every_listed_language_highlights() {
        for (lang, code, class) in [
            (
                "http",
                "HTTP/1.1 200 OK\nContent-Type: text/plain\n",
                "header",
            ),
            ("sh", "curl -sI https://example.com/robots.txt\n", "source"),
            ("json", "{\"a\": 1}\n", "string"),
            ("yaml", "a: [1, 2]\n", "entity"),
        ] {
            let html = highlight(code, lang).unwrap();
            assert!(html.contains(class), "{lang}: {html}");
        }
        assert_eq!(highlight("<b>", "text").unwrap(), "&lt;b&gt;");
        assert!(highlight("x", "cobol").is_none());
    }
}
