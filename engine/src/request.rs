//! URLs as a client sends them: the request target (path, parameters and query) that a browser
//! or crawler puts on the wire for a URL or path typed by a person.
//!
//! Rules are matched against the URL a crawler actually requests, which is percent-encoded: a
//! person types `/café`, a client sends `/caf%C3%A9`. Google's library compares bytes and expects
//! its caller to have encoded the URL already, so the URL is brought to that form before it is
//! decided, following the WHATWG URL Standard (as browsers do, through the `url` crate):
//! non-ASCII characters become the `%XX` escapes of their UTF-8 bytes, spaces, controls and the
//! other bytes of the path and query percent-encode sets are escaped, `.` and `..` segments are
//! resolved, `\` counts as `/` in `http`/`https` URLs, and the fragment is dropped. Escapes
//! already present are kept as written (`%c3%a9` stays lower case).

/// Why a typed URL cannot be decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrlError {
    /// What is wrong, as a phrase that follows "the URL `…`", e.g. `has no host`.
    pub problem: String,
}

impl std::fmt::Display for UrlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.problem)
    }
}

/// Host used to resolve a path given on its own; it never appears in a result.
const PATH_BASE: &str = "http://request-target.invalid";

/// The request target (path, parameters and query, e.g. `/caf%C3%A9?q=%20`) a client sends for
/// `input`, an absolute URL with a host (`https://example.com/a b`) or a path starting with `/`.
///
/// An empty input is the site's root, `/` (as google/robotstxt treats an empty URL). The result
/// always starts with `/`. Errors: a URL that is neither absolute with a host nor a path, or that
/// the WHATWG parser rejects (a bad host or port, for example).
pub fn request_target(input: &str) -> Result<String, UrlError> {
    // WHATWG URL parsing first strips leading and trailing C0 controls and spaces.
    let input = input.trim_matches(|c: char| c <= ' ');
    if input.is_empty() {
        return Ok("/".to_string());
    }
    if already_a_target(input) {
        return Ok(input.to_string());
    }
    parsed_target(input)
}

/// [`request_target`] of a URL typed by a person (a `--url` value), where an input starting
/// with `//` is a scheme-relative URL, as browsers (the WHATWG URL Standard) and
/// google/robotstxt's URL reader both take it: `//example.com/a?q` is the target `/a?q` on the
/// host `example.com`. A request target starting with `//` (`https://h//private` is requested
/// as `//private`) is typed with its scheme and host. Errors: those of [`request_target`].
pub fn typed_target(input: &str) -> Result<String, UrlError> {
    let trimmed = input.trim_matches(|c: char| c <= ' ');
    if trimmed.starts_with("//") {
        return parsed_target(&format!("http:{trimmed}"));
    }
    request_target(input)
}

/// [`request_target`] of the trimmed, non-empty `input` through the WHATWG parser.
fn parsed_target(input: &str) -> Result<String, UrlError> {
    let parsed = if input.starts_with('/') {
        // A path on its own, `//a` included, is a path on the site: prefix an origin rather than
        // resolving it as a reference (which would read `//a` as a host).
        url::Url::parse(&format!("{PATH_BASE}{input}"))
    } else {
        url::Url::parse(input)
    };
    let u = parsed.map_err(|e| UrlError {
        problem: parse_problem(input, e),
    })?;
    if !u.has_host() {
        return Err(UrlError {
            problem: format!(
                "has the scheme `{}:`, which names no host, so no robots.txt file applies to it; \
give an absolute URL such as `https://example.com/page` or a path starting with `/`",
                u.scheme()
            ),
        });
    }
    Ok(target_of(&u))
}

/// The request target of a URL already parsed with a host (path and query, as a client sends
/// them): what [`request_target`] gives for the URL's text, without parsing it again.
pub fn target_of(u: &url::Url) -> String {
    let path = u.path();
    let mut out = String::with_capacity(path.len() + u.query().map_or(0, |q| q.len() + 1) + 1);
    if !path.starts_with('/') {
        out.push('/');
    }
    out.push_str(path);
    if let Some(q) = u.query() {
        out.push('?');
        out.push_str(q);
    }
    out
}

/// Whether `input` (trimmed) is a path that the WHATWG parser leaves exactly as it is, so that
/// it is its own request target without parsing: it starts with `/` and holds only ASCII
/// graphic characters that neither the path nor the query percent-encode set escapes (no
/// `"`, `<`, `>`, `` ` ``, `{`, `}`, `^`, `|` or `'`), no `#` (a fragment, dropped), no `\`
/// (read as `/`), and nothing that could be a `.` or `..` segment (`/.`, or `%2e` in either
/// case), which would be resolved. Most paths derived from rules pass; any other input is
/// parsed.
fn already_a_target(input: &str) -> bool {
    let b = input.as_bytes();
    b.first() == Some(&b'/')
        && b.iter().all(|&c| {
            (0x21..=0x7E).contains(&c)
                && !matches!(
                    c,
                    b'"' | b'<' | b'>' | b'`' | b'{' | b'}' | b'^' | b'|' | b'\\' | b'\'' | b'#'
                )
        })
        && !b.windows(2).any(|w| w == b"/.")
        && !b.windows(3).any(|w| w.eq_ignore_ascii_case(b"%2e"))
}

/// The path (with query and fragment) of `input` as typed: `input` itself when it is a path,
/// else what follows the scheme and authority of an absolute or scheme-relative URL (`/` when
/// nothing does; see [`typed_target`]). This is what a person sees as "the path";
/// [`typed_target`] says what a client sends for it.
pub fn typed_path(input: &str) -> &str {
    let input = input.trim_matches(|c: char| c <= ' ');
    if (input.starts_with('/') && !input.starts_with("//")) || input.is_empty() {
        return if input.is_empty() { "/" } else { input };
    }
    let after_scheme = if input.starts_with("//") {
        2
    } else {
        input.find("://").map_or(0, |i| i + 3)
    };
    match input[after_scheme..].find(['/', '?', '#']) {
        Some(i) => &input[after_scheme + i..],
        None => "/",
    }
}

fn parse_problem(input: &str, e: url::ParseError) -> String {
    match e {
        url::ParseError::RelativeUrlWithoutBase => {
            let looks_like_host = input
                .split('/')
                .next()
                .is_some_and(|h| h.contains('.') && !h.contains(' '));
            format!(
                "is neither an absolute URL nor a path starting with `/`{}",
                if looks_like_host {
                    format!(" (did you mean `https://{input}`?)")
                } else {
                    String::new()
                }
            )
        }
        url::ParseError::EmptyHost => "has no host".to_string(),
        url::ParseError::InvalidPort => {
            "has an invalid port (a port is a number from 0 to 65535)".to_string()
        }
        e => format!("is not a valid URL: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::{request_target, typed_path, typed_target};
    use proptest::prelude::*;

    /// Pieces of paths: the characters and escapes the parser treats specially, and plain ones.
    fn piece() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "/", ".", "..", "%2e", "%2E", "%", "%41", "a", "Z", "0", "-", "_", "~", "?", "#", "\\",
            "'", "\"", "<", ">", "`", "{", "}", "^", "|", "[", "]", "@", ":", ";", "=", "&", "+",
            ",", "$", "!", "*", "(", ")", " ", "\t", "é",
        ])
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        /// A path taken as its own request target is what the URL parser makes of it.
        #[test]
        fn paths_taken_as_they_are_parse_to_themselves(
            pieces in prop::collection::vec(piece(), 0..12)
        ) {
            let path = format!("/{}", pieces.concat());
            if super::already_a_target(&path) {
                prop_assert_eq!(super::parsed_target(&path).unwrap(), path);
            }
        }
    }

    fn t(s: &str) -> String {
        request_target(s).unwrap()
    }

    #[test]
    fn non_ascii_and_unsafe_bytes_are_percent_encoded() {
        assert_eq!(t("/café"), "/caf%C3%A9");
        assert_eq!(t("https://example.com/café?q=é"), "/caf%C3%A9?q=%C3%A9");
        assert_eq!(t("/a b\"<>`{}"), "/a%20b%22%3C%3E%60%7B%7D");
        assert_eq!(t("/ツ"), "/%E3%83%84");
    }

    #[test]
    fn escapes_are_kept_as_written() {
        assert_eq!(t("/caf%c3%a9"), "/caf%c3%a9");
        assert_eq!(t("/100%"), "/100%");
    }

    #[test]
    fn dot_segments_and_fragments() {
        assert_eq!(t("/a/./b/../c"), "/a/c");
        assert_eq!(t("https://example.com/a/%2e%2E/b#frag"), "/b");
        assert_eq!(t("https://example.com"), "/");
        assert_eq!(t("https://example.com?x"), "/?x");
        assert_eq!(t("//two/slashes"), "//two/slashes");
        assert_eq!(t(""), "/");
        // WHATWG strips leading and trailing spaces and controls.
        assert_eq!(t(" /cart/ "), "/cart/");
        assert_eq!(t("\t https://example.com//x"), "//x");
    }

    #[test]
    fn typed_paths_keep_what_was_typed() {
        assert_eq!(typed_path("/x#frag"), "/x#frag");
        assert_eq!(typed_path("//cart/"), "/");
        assert_eq!(typed_path("//h.example/cart/?q"), "/cart/?q");
        assert_eq!(typed_path("https://h.example//cart/?q#f"), "//cart/?q#f");
        assert_eq!(typed_path("https://h.example"), "/");
        assert_eq!(typed_path("https://h.example?q"), "?q");
        assert_eq!(typed_path(""), "/");
    }

    #[test]
    fn a_target_starting_with_two_slashes_is_decided_as_a_path() {
        // `https://h//private` is requested as `//private`; google/robotstxt's URL reader would
        // take `//private` on its own as an authority, so targets are decided as they are.
        let r = crate::RobotsTxt::parse(b"User-agent: *\nDisallow: //private\n");
        let profile = crate::decide::Profile {
            tokens: &["Googlebot"],
            obeys_global: true,
        };
        for reading in crate::Reading::ALL {
            let target = t("https://ds.example//private");
            let d = r.decide_target_as(reading, &profile, &target);
            assert!(!d.allowed, "{reading:?}");
            assert!(r.decide_target_as(reading, &profile, "/private").allowed);
        }
        // The full URL, read as Google's library reads URLs, gives the same answer.
        assert!(
            !r.decide(
                crate::Reading::Google,
                "Googlebot",
                "https://ds.example//private"
            )
            .allowed
        );
    }

    #[test]
    fn a_typed_url_starting_with_two_slashes_names_a_host() {
        // As google/robotstxt's URL reader (its test maps `//a/b/c` to `/b/c`) and browsers
        // read it; a request target of its own keeps them.
        assert_eq!(typed_target("//a/b/c").unwrap(), "/b/c");
        assert_eq!(
            typed_target(" //shop.example/cart/x?y#z").unwrap(),
            "/cart/x?y"
        );
        assert_eq!(typed_target("//shop.example").unwrap(), "/");
        assert_eq!(request_target("//a/b/c").unwrap(), "//a/b/c");
        assert_eq!(typed_target("https://h.example//x").unwrap(), "//x");
        assert_eq!(typed_target("/caf\u{e9}").unwrap(), "/caf%C3%A9");
        assert_eq!(
            crate::pattern::path_params_query("//a/b/c"),
            typed_target("//a/b/c").unwrap().as_str()
        );
    }

    #[test]
    fn bad_urls_are_errors() {
        for bad in [
            "http://[::1",
            "mailto:a@b.c",
            "example.com/x",
            "http://a:99999/",
            "x y",
        ] {
            assert!(request_target(bad).is_err(), "{bad}");
        }
        assert!(
            request_target("example.com/x")
                .unwrap_err()
                .problem
                .contains("https://example.com/x")
        );
    }
}
