//! `report --single-file`: the audit as one self-contained HTML file, to attach to a CI run.
//!
//! The site is built as usual (into a temporary folder) and then put together from its own
//! pages, so nothing is rendered twice: the index page's frame (header, footer) around its
//! content, then the content of every host page, of every diagnostic page and of the page
//! saying how to read a host page (`reading.html`) as a section of its own. The stylesheet is
//! inlined; scripts are left out (the pages are complete without them, and the in-page tester
//! needs the site). Inside each section, `id`s (and the `for`, `aria-*` and `#` links that name
//! them) get a prefix of the section (`h3-`, `d1-`), so the ids of the pages cannot clash;
//! links between pages become links to their sections; links to the site's other files
//! (statistics, the machine outputs, the guide) lose their target, so the file refers to
//! nothing beside it. Links to web addresses (`https://…`) are kept.
//!
//! It is meant for a few dozen hosts: above [`MAX_HOSTS`] the command refuses, as the file
//! would be too large to open comfortably; the folder site has no such limit.

use std::collections::HashMap;
use std::path::Path;

/// The most hosts a single file holds.
pub const MAX_HOSTS: usize = 50;

/// The content of the `<main id="main">` element of `page`, or `None`.
fn main_of(page: &str) -> Option<&str> {
    let open = "<main id=\"main\">";
    let start = page.find(open)? + open.len();
    let end = page[start..].rfind("</main>")? + start;
    Some(&page[start..end])
}

/// Attributes whose values are ids, or lists of ids.
const ID_ATTRS: &[&str] = &[
    "id",
    "for",
    "aria-labelledby",
    "aria-describedby",
    "aria-controls",
    "headers",
];

/// Where the links of the site's pages lead inside the single file.
struct Targets {
    /// Page path relative to the site root (`hosts/a.example.html`) → section id.
    sections: HashMap<String, String>,
}

impl Targets {
    /// The new value of `href` found in the section with prefix `prefix` (empty for the index
    /// and the frame); `None` to drop the attribute.
    fn href(&self, value: &str, prefix: &str) -> Option<String> {
        if let Some(frag) = value.strip_prefix('#') {
            return Some(if prefix.is_empty() || frag == "main" {
                value.to_string()
            } else {
                format!("#{prefix}-{frag}")
            });
        }
        let lower = value.to_ascii_lowercase();
        if lower.starts_with("https://")
            || lower.starts_with("http://")
            || lower.starts_with("mailto:")
        {
            return Some(value.to_string());
        }
        let (page, frag) = match value.split_once('#') {
            Some((p, f)) => (p, Some(f)),
            None => (value, None),
        };
        let page = page.trim_start_matches("../");
        let section = self.sections.get(page)?;
        Some(match frag {
            Some(f) if section != "index" => format!("#{section}-{f}"),
            _ => format!("#{section}"),
        })
    }
}

/// Rewrites the attributes of `html` (one page's content): ids prefixed with `prefix` (none when
/// empty), links as [`Targets::href`] says, `src` attributes dropped.
fn rewrite(html: &str, prefix: &str, targets: &Targets) -> String {
    let mut out = String::with_capacity(html.len() + html.len() / 16);
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        out.push_str(&rest[..lt]);
        rest = &rest[lt..];
        let Some(gt) = rest.find('>') else {
            break;
        };
        let tag = &rest[..=gt];
        rest = &rest[gt + 1..];
        if tag.starts_with("<!") || tag.starts_with("</") || !tag.contains('=') {
            out.push_str(tag);
            continue;
        }
        out.push_str(&rewrite_tag(tag, prefix, targets));
    }
    out.push_str(rest);
    out
}

/// One start tag with its attributes rewritten. Values are double-quoted in our templates, or
/// unquoted where they are the tool's own tokens (ids, classes, `#L7`); rewritten ones are
/// written double-quoted.
fn rewrite_tag(tag: &str, prefix: &str, targets: &Targets) -> String {
    let mut out = String::with_capacity(tag.len() + 16);
    let mut rest = tag;
    while let Some(eq) = rest.find('=') {
        let name_start = rest[..eq]
            .rfind(|c: char| c.is_ascii_whitespace())
            .map_or(0, |i| i + 1);
        let name = &rest[name_start..eq];
        let (value, after) = match rest[eq + 1..].strip_prefix('"') {
            Some(q) => {
                let Some(len) = q.find('"') else {
                    break;
                };
                (&q[..len], &q[len + 1..])
            }
            None => {
                let v = &rest[eq + 1..];
                let len = v
                    .find(|c: char| c.is_ascii_whitespace() || c == '>')
                    .unwrap_or(v.len());
                (&v[..len], &v[len..])
            }
        };
        out.push_str(&rest[..name_start]);
        let drop = |out: &mut String| out.truncate(out.trim_end().len());
        if name == "href" {
            match targets.href(value, prefix) {
                Some(v) => out.push_str(&format!("href=\"{v}\"")),
                None => drop(&mut out),
            }
        } else if name == "src" {
            // Nothing is loaded from beside the file.
            drop(&mut out);
        } else if ID_ATTRS.contains(&name) && !prefix.is_empty() {
            let ids: Vec<String> = value
                .split_ascii_whitespace()
                .map(|id| format!("{prefix}-{id}"))
                .collect();
            out.push_str(&format!("{name}=\"{}\"", ids.join(" ")));
        } else {
            out.push_str(&rest[name_start..rest.len() - after.len()]);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The host page's content without the tester (it needs the site's scripts) and the link to it.
fn without_tester(main: &str) -> String {
    let mut s = main.to_string();
    if let Some(a) = s.find("<section aria-labelledby=\"test\">")
        && let Some(len) = s[a..].find("</section>")
    {
        s.replace_range(a..a + len + "</section>".len(), "");
    }
    s.replace("<li><a href=#test>Test URLs and edit</a>\n", "")
}

/// The index's content without its list of data files, which a single file does not carry.
fn without_data_files(main: &str) -> String {
    let mut s = main.to_string();
    if let Some(a) = s.find("<h2 id=\"data\">")
        && let Some(len) = s[a..].find("</ul>")
    {
        s.replace_range(a..a + len + "</ul>".len(), "");
    }
    s
}

/// The page links of the index, in order, that lead to `folder/…html` pages.
fn page_links(html: &str, folder: &str) -> Vec<String> {
    let needle = format!("href=\"{folder}/");
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find(&needle) {
        let v = &rest[i + "href=\"".len()..];
        let end = v.find(['"', '#']).unwrap_or(v.len());
        let page = &v[..end];
        if page.ends_with(".html") && seen.insert(page.to_string()) {
            out.push(page.to_string());
        }
        rest = &v[end..];
    }
    out
}

/// Puts the site built in `site` together as one HTML document; see the module documentation.
///
/// # Errors
/// An I/O error reading the site's files, or [`std::io::ErrorKind::InvalidData`] when a page is
/// not one this tool wrote (no `<main id="main">`).
pub fn assemble(site: &Path) -> std::io::Result<String> {
    let read = |rel: &str| std::fs::read_to_string(site.join(rel));
    let bad = |rel: &str| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("{rel}: not a page of this tool"),
        )
    };
    let index = read("index.html")?;
    let css = read("assets/site.css")?;
    let index_main = main_of(&index).ok_or_else(|| bad("index.html"))?;
    let hosts = page_links(index_main, "hosts");
    let mut pages: Vec<(String, String, String)> = Vec::new();
    let mut sections = HashMap::new();
    sections.insert("index.html".to_string(), "index".to_string());
    for (i, rel) in hosts.iter().enumerate() {
        let id = format!("h{}", i + 1);
        sections.insert(rel.clone(), id.clone());
        let page = read(rel)?;
        let main = without_tester(main_of(&page).ok_or_else(|| bad(rel))?);
        pages.push((id, rel.clone(), main));
    }
    // The diagnostic pages the host pages link to.
    let mut diagnostics = Vec::new();
    for (_, _, main) in &pages {
        for d in page_links(
            &main.replace("href=\"../diagnostics/", "href=\"diagnostics/"),
            "diagnostics",
        ) {
            if !diagnostics.contains(&d) {
                diagnostics.push(d);
            }
        }
    }
    diagnostics.sort();
    for (i, rel) in diagnostics.iter().enumerate() {
        let id = format!("d{}", i + 1);
        sections.insert(rel.clone(), id.clone());
        let Ok(page) = read(rel) else { continue };
        let main = main_of(&page).ok_or_else(|| bad(rel))?.to_string();
        pages.push((id, rel.clone(), main));
    }
    // The page that says what the parts of a host page show, which they link to.
    if !hosts.is_empty()
        && let Ok(page) = read("reading.html")
    {
        let main = main_of(&page)
            .ok_or_else(|| bad("reading.html"))?
            .to_string();
        sections.insert("reading.html".to_string(), "r".to_string());
        pages.push(("r".to_string(), "reading.html".to_string(), main));
    }
    let targets = Targets { sections };
    let head_end = index
        .find("<main id=\"main\">")
        .ok_or_else(|| bad("index.html"))?;
    let tail_start = index.rfind("</main>").ok_or_else(|| bad("index.html"))?;
    let mut head = index[..head_end].replace("<li><a href=index.html#data>Data files</a>\n", "");
    if let Some(a) = head.find("<link rel=\"stylesheet\"")
        && let Some(len) = head[a..].find('>')
    {
        head.replace_range(a..=a + len, &format!("<style>\n{css}\n</style>"));
    }
    let mut tail = index[tail_start + "</main>".len()..].to_string();
    while let Some(a) = tail.find("<script") {
        let Some(len) = tail[a..].find("</script>") else {
            break;
        };
        tail.replace_range(a..a + len + "</script>".len(), "");
    }
    let mut out = String::with_capacity(index.len() * (pages.len() + 1));
    out.push_str(&rewrite(&head, "", &targets));
    out.push_str("<main id=\"main\">\n<section id=\"index\">\n");
    out.push_str(&rewrite(&without_data_files(index_main), "", &targets));
    out.push_str("</section>\n");
    for (id, _, main) in &pages {
        out.push_str(&format!("<section id=\"{id}\" class=\"single-page\">\n"));
        out.push_str(&rewrite(main, id, &targets));
        out.push_str("</section>\n");
    }
    out.push_str("</main>");
    out.push_str(&rewrite(&tail, "", &targets));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unquoted_ids_and_links_are_rewritten_too() {
        let t = Targets {
            sections: HashMap::new(),
        };
        assert_eq!(
            rewrite(
                "<tr id=L5 class=rt-cut><th><a href=#L5>5</a><td class=\"a b\" hidden>",
                "h2",
                &t
            ),
            "<tr id=\"h2-L5\" class=rt-cut><th><a href=\"#h2-L5\">5</a><td class=\"a b\" hidden>"
        );
    }

    #[test]
    fn ids_are_prefixed_and_links_lead_to_sections() {
        let mut sections = HashMap::new();
        sections.insert("hosts/a.example.html".to_string(), "h1".to_string());
        sections.insert("index.html".to_string(), "index".to_string());
        let t = Targets { sections };
        let html = "<h2 id=\"file\">F</h2><a href=\"#L3\">3</a><a href=\"../index.html\">i</a>\
<a href=\"../hosts/a.example.html#L2\">x</a><a href=\"../statistics.html\">s</a>\
<a href=\"https://www.rfc-editor.org/\">r</a><label for=\"q\">q</label><img src=\"x.png\" alt=\"\">";
        assert_eq!(
            rewrite(html, "h1", &t),
            "<h2 id=\"h1-file\">F</h2><a href=\"#h1-L3\">3</a><a href=\"#index\">i</a>\
<a href=\"#h1-L2\">x</a><a>s</a><a href=\"https://www.rfc-editor.org/\">r</a>\
<label for=\"h1-q\">q</label><img alt=\"\">"
        );
    }
}
