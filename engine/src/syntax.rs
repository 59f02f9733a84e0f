//! Stage 2: the lossless syntax tree.
//!
//! Every byte of [`Source::bytes`](crate::decode::Source) belongs to exactly one [`Node`]:
//! the byte order mark, whitespace, a key, a separator, a value, a comment, unstructured text,
//! a line terminator, or the region ignored past the parsing limit. Writing the nodes back in
//! order gives the source bytes exactly ([`Tree::write_back`]). Parsing never fails.
//!
//! The tree is syntax only; which lines are records in which reading is decided in
//! [`crate::fields`].

use crate::decode::PARSING_LIMIT;
use std::ops::Range;

/// A half-open byte range `start..end` into the source bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset one past the last byte.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end` (bytes).
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
    /// Length in bytes.
    pub const fn len(self) -> usize {
        self.end - self.start
    }
    /// Whether the span holds no bytes.
    pub const fn is_empty(self) -> bool {
        self.end == self.start
    }
    /// The range form, for slicing.
    pub fn range(self) -> Range<usize> {
        self.start..self.end
    }
}

/// What a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum NodeKind {
    /// A byte order mark at offset 0 (never part of a line).
    ByteOrderMark,
    /// Spaces and tabs (and vertical tab or form feed) around the other nodes.
    Whitespace,
    /// The field name before the separator, e.g. `Disallow`.
    Key,
    /// The `:` between key and value, or the white space standing in for a missing colon.
    Separator,
    /// The field value after the separator, e.g. `/private/`.
    Value,
    /// `#` and everything after it up to the line terminator.
    Comment,
    /// Content with neither a colon nor the `key value` shape: not a record in any reading.
    Text,
    /// The line terminator: LF, CR LF or a lone CR.
    LineEnd,
    /// Bytes past the parsing limit, kept so they can be shown and counted.
    Ignored,
}

impl NodeKind {
    /// CSS class used for this node in reports and in the guide's highlighting.
    pub fn css_class(self) -> &'static str {
        match self {
            NodeKind::ByteOrderMark => "rt-bom",
            NodeKind::Whitespace => "rt-ws",
            NodeKind::Key => "rt-key",
            NodeKind::Separator => "rt-sep",
            NodeKind::Value => "rt-value",
            NodeKind::Comment => "rt-comment",
            NodeKind::Text => "rt-text",
            NodeKind::LineEnd => "rt-eol",
            NodeKind::Ignored => "rt-ignored",
        }
    }
}

/// One node of the tree (12 bytes: offsets as `u32`, nodes lie within the parsing limit but
/// for the one [`NodeKind::Ignored`] node, whose end is clamped below 4 GiB).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    /// What the bytes are.
    pub kind: NodeKind,
    start: u32,
    end: u32,
}

impl Node {
    /// A node of `kind` over `span`.
    pub fn new(kind: NodeKind, span: Span) -> Node {
        Node {
            kind,
            start: offset32(span.start),
            end: offset32(span.end),
        }
    }
    /// Where the bytes are.
    pub fn span(&self) -> Span {
        Span::new(self.start as usize, self.end as usize)
    }
}

/// A line terminator (RFC 9309 §2.2: `NL = %x0D / %x0A / %x0D.0A`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum LineEnd {
    /// `\n`
    #[serde(rename = "LF")]
    Lf,
    /// `\r\n`
    #[serde(rename = "CRLF")]
    CrLf,
    /// A lone `\r`.
    #[serde(rename = "CR")]
    Cr,
    /// No terminator: the last line of a file without a final newline, or the line cut by the
    /// parsing limit.
    #[serde(rename = "none")]
    None,
}

impl LineEnd {
    /// Short label: `LF`, `CRLF`, `CR` or empty.
    pub fn label(self) -> &'static str {
        match self {
            LineEnd::Lf => "LF",
            LineEnd::CrLf => "CRLF",
            LineEnd::Cr => "CR",
            LineEnd::None => "",
        }
    }
}

/// How key and value are separated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SeparatorKind {
    /// A `:` (the only separator RFC 9309 §2.2 knows).
    Colon,
    /// White space between exactly two words: google/robotstxt accepts it as a missing colon.
    Whitespace,
}

/// The key/value structure of a line's content, as byte spans.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Parts {
    /// The field name, trimmed; `None` for blank or comment-only lines and unstructured text.
    pub key: Option<Span>,
    /// The separator and its kind.
    pub separator: Option<(Span, SeparatorKind)>,
    /// The value, trimmed; an empty span right after the separator when the value is empty.
    pub value: Option<Span>,
    /// Content that has no key/value shape.
    pub text: Option<Span>,
    /// The comment, from `#` to the end of the content.
    pub comment: Option<Span>,
}

/// A span stored in eight bytes; `start == u32::MAX` stands for none. Lines lie within the
/// parsing limit, so their offsets always fit ([`Tree::push_line`] checks once per line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Packed {
    start: u32,
    end: u32,
}

impl Packed {
    const NONE: Packed = Packed {
        start: u32::MAX,
        end: u32::MAX,
    };
    /// `span`, whose offsets are known to be below `u32::MAX`.
    fn of(span: Option<Span>) -> Packed {
        span.map_or(Packed::NONE, |s| Packed {
            start: s.start as u32,
            end: s.end as u32,
        })
    }
    fn get(self) -> Option<Span> {
        (self.start != u32::MAX).then(|| Span::new(self.start as usize, self.end as usize))
    }
}

/// An offset as stored in a [`Line`]: lines lie within the parsing limit, far below 4 GiB;
/// anything larger is clamped rather than wrapped.
fn offset32(o: usize) -> u32 {
    u32::try_from(o).unwrap_or(u32::MAX - 1)
}

/// One physical line, stored compactly (64 bytes: offsets as `u32`), since a file within the
/// parsing limit can have 512,000 of them. Read it through its methods.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    start: u32,
    content_end: u32,
    number: u32,
    nodes_start: u32,
    nodes_end: u32,
    key: Packed,
    separator: Packed,
    value: Packed,
    text: Packed,
    comment: Packed,
    separator_kind: SeparatorKind,
    terminator: LineEnd,
    cut_by_limit: bool,
}

impl Line {
    /// 1-based line number (the byte order mark is not a line).
    pub fn number(&self) -> usize {
        self.number as usize
    }
    /// The whole line: content and terminator.
    pub fn span(&self) -> Span {
        let terminator = match self.terminator {
            LineEnd::Lf | LineEnd::Cr => 1,
            LineEnd::CrLf => 2,
            LineEnd::None => 0,
        };
        Span::new(self.start as usize, self.content_end as usize + terminator)
    }
    /// The content, without the terminator.
    pub fn content(&self) -> Span {
        Span::new(self.start as usize, self.content_end as usize)
    }
    /// The terminator.
    pub fn terminator(&self) -> LineEnd {
        self.terminator
    }
    /// Indices of this line's nodes in [`Tree::nodes`].
    pub fn nodes(&self) -> Range<usize> {
        self.nodes_start as usize..self.nodes_end as usize
    }
    /// Key/value structure of the content.
    pub fn parts(&self) -> Parts {
        Parts {
            key: self.key.get(),
            separator: self.separator.get().map(|s| (s, self.separator_kind)),
            value: self.value.get(),
            text: self.text.get(),
            comment: self.comment.get(),
        }
    }
    /// The parsing limit cut this line; the rest of it is in [`Tree::ignored`].
    pub fn cut_by_limit(&self) -> bool {
        self.cut_by_limit
    }
    /// Whether the line has a field name (and so may be a record).
    pub fn has_key(&self) -> bool {
        self.key.get().is_some()
    }
    /// Whether the content is empty or only white space.
    pub fn is_blank(&self) -> bool {
        self.key.get().is_none()
            && self.separator.get().is_none()
            && self.text.get().is_none()
            && self.comment.get().is_none()
    }
    /// Whether the line holds only a comment (and white space).
    pub fn is_comment_only(&self) -> bool {
        self.comment.get().is_some()
            && self.key.get().is_none()
            && self.separator.get().is_none()
            && self.text.get().is_none()
    }
}

/// The lossless tree of a source.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    /// The byte order mark node, if any.
    pub bom: Option<Span>,
    /// Lines within the parsing limit, in order.
    pub lines: Vec<Line>,
    /// All nodes in source order.
    pub nodes: Vec<Node>,
    /// Bytes past the parsing limit ([`PARSING_LIMIT`]), if the source is longer.
    pub ignored: Option<Span>,
}

/// One physical line as found by [`Lines`]: offsets into the bytes scanned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawLine {
    /// Offset of the first byte of the line.
    pub start: usize,
    /// Offset one past the content (where the terminator starts).
    pub content_end: usize,
    /// Offset one past the terminator: where the next line starts.
    pub end: usize,
    /// The terminator.
    pub terminator: LineEnd,
}

/// The lines of `bytes[from..limit]`, in order, found with one `memchr2` search per line
/// (RFC 9309 §2.2: a line ends at LF, CR LF or a lone CR). A CR that is the last byte before
/// `limit` is a lone CR, even when an LF follows past `limit`. The one line splitter of the
/// engine: the tree, the region past the parsing limit and the one-pass decision all use it.
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    bytes: &'a [u8],
    pos: usize,
    limit: usize,
}

impl<'a> Lines<'a> {
    /// The lines of `bytes[from..limit]`; `limit` is clamped to the length of `bytes`.
    pub fn new(bytes: &'a [u8], from: usize, limit: usize) -> Lines<'a> {
        let limit = limit.min(bytes.len());
        Lines {
            bytes,
            pos: from.min(limit),
            limit,
        }
    }
}

impl Iterator for Lines<'_> {
    type Item = RawLine;

    #[inline]
    fn next(&mut self) -> Option<RawLine> {
        let (bytes, pos, limit) = (self.bytes, self.pos, self.limit);
        if pos >= limit {
            return None;
        }
        let line = match memchr::memchr2(b'\n', b'\r', &bytes[pos..limit]) {
            None => RawLine {
                start: pos,
                content_end: limit,
                end: limit,
                terminator: LineEnd::None,
            },
            Some(i) => {
                let at = pos + i;
                let (terminator, end) = if bytes[at] == b'\n' {
                    (LineEnd::Lf, at + 1)
                } else if at + 1 < limit && bytes[at + 1] == b'\n' {
                    (LineEnd::CrLf, at + 2)
                } else {
                    (LineEnd::Cr, at + 1)
                };
                RawLine {
                    start: pos,
                    content_end: at,
                    end,
                    terminator,
                }
            }
        };
        self.pos = line.end;
        Some(line)
    }
}

/// Horizontal white space inside a line.
pub(crate) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | 0x0B | 0x0C)
}

/// Splits line content `bytes[start..end]` into key, separator, value, text and comment,
/// following the shape google/robotstxt reads: the comment starts at the first `#`; the key
/// ends at the first `:`; without a colon, a line of exactly two words separated by white space
/// is read as key and value.
pub fn split_content(bytes: &[u8], start: usize, end: usize) -> Parts {
    let mut parts = Parts::default();
    // One search finds the first `:` or `#`; only after a colon is the rest searched for `#`.
    let (colon, body_end) = match crate::pattern::find_byte2(b':', b'#', &bytes[start..end]) {
        None => (None, end),
        Some(i) if bytes[start + i] == b'#' => (None, start + i),
        Some(i) => {
            let colon = start + i;
            let hash = crate::pattern::find_byte(b'#', &bytes[colon + 1..end])
                .map_or(end, |j| colon + 1 + j);
            (Some(colon), hash)
        }
    };
    if body_end < end {
        parts.comment = Some(Span::new(body_end, end));
    }
    let (a, b) = trim(bytes, start, body_end);
    if a == b {
        return parts;
    }
    if let Some(colon) = colon {
        let (ka, kb) = trim(bytes, a, colon);
        if ka < kb {
            parts.key = Some(Span::new(ka, kb));
        }
        parts.separator = Some((Span::new(colon, colon + 1), SeparatorKind::Colon));
        let (va, vb) = trim(bytes, colon + 1, b);
        parts.value = Some(Span::new(va, vb));
        return parts;
    }
    if let Some(i) = bytes[a..b].iter().position(|&c| c == b' ' || c == b'\t') {
        let w = a + i;
        let mut v = w;
        while v < b && is_ws(bytes[v]) {
            v += 1;
        }
        if !bytes[v..b].iter().any(|&c| c == b' ' || c == b'\t') {
            parts.key = Some(Span::new(a, w));
            parts.separator = Some((Span::new(w, v), SeparatorKind::Whitespace));
            parts.value = Some(Span::new(v, b));
            return parts;
        }
    }
    parts.text = Some(Span::new(a, b));
    parts
}

fn trim(bytes: &[u8], mut a: usize, mut b: usize) -> (usize, usize) {
    while a < b && is_ws(bytes[a]) {
        a += 1;
    }
    while b > a && is_ws(bytes[b - 1]) {
        b -= 1;
    }
    (a, b)
}

/// The bytes past the parsing limit, summarised: the one computation every page and diagnostic
/// that talks about them uses ([`Tree::ignored_region`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct IgnoredRegion {
    /// Where the region is in the source bytes.
    pub span: Span,
    /// Its size in bytes.
    pub bytes: usize,
    /// Number of lines that start inside it. Neither the tail of a line the limit cuts nor the
    /// LF of a CR LF the limit splits starts a line.
    pub lines: usize,
    /// Number of those lines that look like allow or disallow rules (read leniently, as
    /// google/robotstxt reads field names) whose pattern could match a path (starts with `/` or
    /// `*`): the rules the limit drops that would have mattered.
    pub rules: usize,
    /// 1-based number of the line the limit cuts, if it falls inside a line.
    pub cut_line: Option<usize>,
    /// Bytes of the cut line that fall past the limit (0 without a cut line).
    pub cut_tail_bytes: usize,
    /// The limit falls between a CR and its LF: the last line read ends with CR LF, of which
    /// only the CR was read.
    pub split_crlf: bool,
}

impl Tree {
    /// Builds the tree of `bytes`, whose first `bom_len` bytes are a byte order mark.
    pub fn parse(bytes: &[u8], bom_len: usize) -> Tree {
        // Size the vectors from the number of line terminators (a CR LF counts twice, which
        // only over-reserves for CR LF files) and of colons; a record line has about five
        // nodes, a blank one one.
        let parsed = &bytes[..bytes.len().min(PARSING_LIMIT)];
        // Two vectorised counts: a byte-wise filter of both takes about three instructions a
        // byte.
        let terminators =
            memchr::memchr_iter(b'\n', parsed).count() + memchr::memchr_iter(b'\r', parsed).count();
        let colons = memchr::memchr_iter(b':', parsed).count();
        let mut tree = Tree {
            // One node per line (its terminator), and four more (key, separator, white space,
            // value) per colon, up to four per line: a record line's nodes. Reserving five per
            // line whatever it holds would reserve 30 MB for a file of blank lines; a colon
            // that is not a separator (a URL's) over-reserves four nodes.
            nodes: Vec::with_capacity(terminators + 4 * colons.min(terminators + 1) + 8),
            lines: Vec::with_capacity(terminators + 1),
            ..Tree::default()
        };
        let bom_len = bom_len.min(bytes.len());
        if bom_len > 0 {
            tree.bom = Some(Span::new(0, bom_len));
            tree.nodes
                .push(Node::new(NodeKind::ByteOrderMark, Span::new(0, bom_len)));
        }
        let limit = bytes.len().min(PARSING_LIMIT.max(bom_len));
        for line in Lines::new(bytes, bom_len, limit) {
            let cut_by_limit = line.terminator == LineEnd::None && limit < bytes.len();
            tree.push_line(bytes, line, cut_by_limit);
        }
        if limit < bytes.len() {
            let span = Span::new(limit, bytes.len());
            tree.ignored = Some(span);
            tree.nodes.push(Node::new(NodeKind::Ignored, span));
        }
        // The node vector grew by doubling from one node per line: give back what it did not
        // fill (up to half of it), since the tree lives as long as the file.
        tree.nodes.shrink_to_fit();
        tree
    }

    /// The facts of the region past the parsing limit, or `None` when the whole input was
    /// parsed. `bytes` are the bytes the tree was built from.
    pub fn ignored_region(&self, bytes: &[u8]) -> Option<IgnoredRegion> {
        let span = self.ignored?;
        let end = span.end.min(bytes.len());
        let cut_line = self
            .lines
            .last()
            .filter(|l| l.cut_by_limit())
            .map(|l| l.number());
        let mut pos = span.start;
        // A CR LF split by the limit: the LF belongs to the line before.
        let split_crlf = cut_line.is_none()
            && pos > 0
            && bytes.get(pos - 1) == Some(&b'\r')
            && bytes.get(pos) == Some(&b'\n');
        if split_crlf {
            pos += 1;
        }
        let mut lines = 0;
        let mut rules = 0;
        let mut cut_tail_bytes = 0;
        let mut first = true;
        for line in Lines::new(bytes, pos, end) {
            if first && cut_line.is_some() {
                cut_tail_bytes = line.content_end - line.start;
            } else {
                lines += 1;
                let parts = split_content(bytes, line.start, line.content_end);
                // Rules that could match a path (`/…` or `*…`): a full URL or a pattern without
                // its leading slash matches nothing, read or not.
                let could_match = parts
                    .value
                    .and_then(|v| bytes.get(v.start))
                    .is_some_and(|&b| b == b'/' || b == b'*');
                if let (Some(k), Some(_)) = (parts.key, parts.separator)
                    && could_match
                    && matches!(
                        crate::fields::google_field(&bytes[k.range()]),
                        Some((
                            crate::fields::Field::Allow | crate::fields::Field::Disallow,
                            _
                        ))
                    )
                {
                    rules += 1;
                }
            }
            first = false;
        }
        Some(IgnoredRegion {
            span,
            bytes: span.len(),
            lines,
            rules,
            cut_line,
            cut_tail_bytes,
            split_crlf,
        })
    }

    fn push_line(&mut self, bytes: &[u8], line: RawLine, cut_by_limit: bool) {
        let RawLine {
            start,
            content_end,
            end,
            terminator,
        } = line;
        // Every offset of the line is at most its end, which lies within the parsing limit, and
        // there are fewer nodes and lines than bytes: one check here lets the offsets below be
        // stored as 32 bits without clamping each.
        assert!(
            end < u32::MAX as usize && self.nodes.len() + end < u32::MAX as usize,
            "lines lie within the parsing limit"
        );
        let parts = split_content(bytes, start, content_end);
        let first = self.nodes.len();
        let mut at = start as u32;
        let mut push = |nodes: &mut Vec<Node>, kind: NodeKind, span: Span| {
            let (start, end) = (span.start as u32, span.end as u32);
            if start > at {
                nodes.push(Node {
                    kind: NodeKind::Whitespace,
                    start: at,
                    end: start,
                });
            }
            if start != end {
                nodes.push(Node { kind, start, end });
            }
            at = at.max(end);
        };
        if let Some(k) = parts.key {
            push(&mut self.nodes, NodeKind::Key, k);
        }
        if let Some((s, kind)) = parts.separator {
            // A white-space separator is shown as the separator itself.
            let _ = kind;
            push(&mut self.nodes, NodeKind::Separator, s);
        }
        if let Some(v) = parts.value {
            push(&mut self.nodes, NodeKind::Value, v);
        }
        if let Some(t) = parts.text {
            push(&mut self.nodes, NodeKind::Text, t);
        }
        if let Some(c) = parts.comment {
            push(&mut self.nodes, NodeKind::Comment, c);
        }
        push(
            &mut self.nodes,
            NodeKind::LineEnd,
            Span::new(content_end, end),
        );
        let number = self.lines.len() + 1;
        self.lines.push(Line {
            start: start as u32,
            content_end: content_end as u32,
            number: number as u32,
            nodes_start: first as u32,
            nodes_end: self.nodes.len() as u32,
            key: Packed::of(parts.key),
            separator: Packed::of(parts.separator.map(|(s, _)| s)),
            value: Packed::of(parts.value),
            text: Packed::of(parts.text),
            comment: Packed::of(parts.comment),
            separator_kind: parts.separator.map_or(SeparatorKind::Colon, |(_, k)| k),
            terminator,
            cut_by_limit,
        });
        debug_assert_eq!(self.lines.last().map(|l| l.span().end), Some(end));
    }

    /// Writes the nodes back in order. For any input, this equals the parsed bytes.
    pub fn write_back(&self, bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(bytes.len());
        for n in &self.nodes {
            out.extend_from_slice(&bytes[n.span().range()]);
        }
        out
    }

    /// The nodes of a line.
    pub fn line_nodes(&self, line: &Line) -> &[Node] {
        &self.nodes[line.nodes()]
    }

    /// The 0-based index of the line holding byte `offset`, or `None` when the offset is in the
    /// byte order mark or past the parsing limit.
    pub fn line_index_at(&self, offset: usize) -> Option<usize> {
        let i = self.lines.partition_point(|l| l.span().end <= offset);
        (i < self.lines.len() && self.lines[i].span().start <= offset).then_some(i)
    }

    /// 1-based line and column (in characters, counting UTF-8 sequences as one) of a byte
    /// offset. Offsets in the byte order mark map to line 1, column 1; offsets past the parsing
    /// limit map to the last line.
    pub fn line_col(&self, bytes: &[u8], offset: usize) -> (usize, usize) {
        if self.lines.is_empty() {
            return (1, 1);
        }
        let i = self
            .line_index_at(offset)
            .unwrap_or(if offset < self.lines[0].span().start {
                0
            } else {
                self.lines.len() - 1
            });
        let line = &self.lines[i];
        let from = line.span().start;
        let to = offset.clamp(from, line.span().end.min(bytes.len()));
        let col = bytes[from..to]
            .iter()
            .filter(|&&b| (b & 0xC0) != 0x80)
            .count();
        (line.number(), col + 1)
    }
}
