//! How a ```` ```robots ```` example is shown: numbered lines highlighted by the shipped
//! robots.txt grammar, whose classes are the parser's ([`crate::syntax::NodeKind::css_class`]).

use crate::RobotsTxt;
use crate::analysis::Analysis;

/// Renders a parsed example and its analysis as HTML.
pub fn render(robots: &RobotsTxt, analysis: &Analysis) -> String {
    let _ = analysis;
    let text = String::from_utf8_lossy(robots.bytes());
    let highlighted =
        super::highlight::highlight(&text, "robots").unwrap_or_else(|| super::escape(&text));
    let mut out =
        String::from("<div class=\"robots-example\">\n<pre class=\"code listing\"><code>");
    // Number the lines. The number spans are complete elements inserted at line starts, so
    // the markup stays balanced even where a highlighting span runs over several lines.
    let lines = robots.tree.lines.len();
    for (i, piece) in highlighted.split_inclusive('\n').enumerate() {
        // After the last line only closing tags remain: no number for them.
        if i < lines {
            out.push_str(&format!(
                "<span class=\"ln\" aria-hidden=\"true\">{:>2}</span>",
                i + 1
            ));
        }
        out.push_str(piece);
    }
    out.push_str("</code></pre>\n</div>\n");
    out
}
