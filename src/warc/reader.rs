//! A streaming reader of WARC records (ISO 28500: WARC 1.0 and 1.1).
//!
//! A WARC file is a sequence of records, each a version line (`WARC/1.0`, `WARC/1.1`), header
//! fields up to an empty line, a block of `Content-Length` bytes and two CRLFs. A `.warc.gz`
//! file holds one gzip member per record (the usual form, which lets a reader seek to any
//! record), or several records in one member, or the whole file in a single gzip stream; all
//! three are read. The kind of file is told from its first bytes (the gzip magic), not its name.
//!
//! [`scan`] reads a file once, front to back, and hands each record to a visitor with its
//! [`Location`] and a reader of its block; the visitor reads as much of the block as it wants
//! and the rest is skipped without being kept, so memory stays bounded whatever the file's size.
//! [`read_at`] reads one record again from its location.
//!
//! Hostile input is bounded: a header line is at most [`MAX_LINE`] bytes, a header block at most
//! [`MAX_HEADER_BYTES`] bytes and [`MAX_FIELDS`] fields. A record that breaks these rules, or a
//! gzip member that does not decompress, is reported as a [`Corrupt`] entry with its offset, and
//! reading resumes at the next record (plain files: the next line starting `WARC/1.`) or the next
//! gzip member (the next gzip header after the damage).

use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

/// Longest header line accepted, in bytes.
pub const MAX_LINE: usize = 8 * 1024;
/// Largest header block accepted (version line and fields), in bytes.
pub const MAX_HEADER_BYTES: usize = 64 * 1024;
/// Most header fields accepted in one record.
pub const MAX_FIELDS: usize = 256;

/// Where a record starts: the byte offset in the file of the record (plain files) or of the
/// gzip member that holds it, and how many decompressed bytes of that member come before the
/// record (0 for a member per record).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Location {
    /// Byte offset in the file.
    pub offset: u64,
    /// Decompressed bytes of the gzip member before the record (0 in a plain file).
    pub inner: u64,
}

/// A record's version and header fields, as written (names compared ignoring ASCII case).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Header {
    /// The version line without `WARC/`, e.g. `1.1`.
    pub version: String,
    /// The fields in order: name and value (continuation lines joined with a space; bytes that
    /// are not UTF-8 become U+FFFD).
    pub fields: Vec<(String, String)>,
}

impl Header {
    /// The value of the first field named `name` (ignoring ASCII case).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// `WARC-Type`, lower-cased (`response`, `request`, `revisit`, `warcinfo`, …).
    pub fn record_type(&self) -> String {
        self.get("WARC-Type").unwrap_or("").to_ascii_lowercase()
    }
}

/// A record or gzip member that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Corrupt {
    /// Byte offset in the file where the damage was found (the record's or member's start).
    pub offset: u64,
    /// What was wrong.
    pub message: String,
}

/// What [`scan`] hands its visitor.
pub enum Event<'a> {
    /// A record: where it starts, its header, and a reader of its block (at most
    /// `Content-Length` bytes; what the visitor leaves unread is skipped).
    Record(Location, &'a Header, &'a mut dyn Read),
    /// A record or member that could not be read; reading goes on after it.
    Corrupt(Corrupt),
}

/// A reader that counts the bytes consumed from it.
struct Counted<R> {
    inner: R,
    pos: u64,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counted<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }
    fn consume(&mut self, amt: usize) {
        self.pos += amt as u64;
        self.inner.consume(amt);
    }
}

/// Whether bytes start a gzip member (magic and the deflate method, RFC 1952).
fn is_gzip(b: &[u8]) -> bool {
    b.len() >= 3 && b[0] == 0x1f && b[1] == 0x8b && b[2] == 8
}

/// Reads the WARC file at `path` front to back and hands every record (or damaged stretch) to
/// `visit`, in file order.
///
/// # Errors
/// Only the I/O error of opening the file or of reading it from disk; damaged content is an
/// [`Event::Corrupt`] instead. An error returned by the visitor while it reads a block is taken
/// as damage of that record (a decompression error, for instance).
pub fn scan(path: &Path, visit: &mut dyn FnMut(Event<'_>)) -> io::Result<()> {
    let f = std::fs::File::open(path)?;
    if f.metadata()?.is_dir() {
        return Err(io::Error::other("is a directory"));
    }
    let mut r = Counted {
        inner: BufReader::with_capacity(256 * 1024, f),
        pos: 0,
    };
    if is_gzip(r.fill_buf()?) {
        scan_gzip(&mut r, visit)
    } else {
        scan_plain(&mut r, visit);
        Ok(())
    }
}

/// The records of a plain (uncompressed) WARC stream.
fn scan_plain<R: BufRead>(r: &mut Counted<R>, visit: &mut dyn FnMut(Event<'_>)) {
    loop {
        match next_record(
            r,
            |pos| Location {
                offset: pos,
                inner: 0,
            },
            visit,
        ) {
            Ok(true) => {}
            Ok(false) => return,
            Err((offset, message)) => {
                visit(Event::Corrupt(Corrupt { offset, message }));
                if !resync_plain(r) {
                    return;
                }
            }
        }
    }
}

/// The members of a gzip stream, each holding one or more records.
fn scan_gzip<R: BufRead>(r: &mut Counted<R>, visit: &mut dyn FnMut(Event<'_>)) -> io::Result<()> {
    loop {
        let start = r.pos;
        let head = r.fill_buf()?;
        if head.is_empty() {
            return Ok(());
        }
        if !is_gzip(head) {
            // Padding between members is tolerated; anything else is damage.
            if head.iter().all(|&b| b == 0 || b.is_ascii_whitespace()) {
                let n = head.len();
                r.consume(n);
                continue;
            }
            visit(Event::Corrupt(Corrupt {
                offset: start,
                message: "not a gzip member: the bytes here do not start with a gzip header".into(),
            }));
            if !resync_gzip(r)? {
                return Ok(());
            }
            continue;
        }
        let failed = {
            let dec = flate2::bufread::GzDecoder::new(&mut *r);
            let mut inner = Counted {
                inner: BufReader::with_capacity(64 * 1024, dec),
                pos: 0,
            };
            let mut failed = None;
            loop {
                match next_record(
                    &mut inner,
                    |pos| Location {
                        offset: start,
                        inner: pos,
                    },
                    visit,
                ) {
                    Ok(true) => {}
                    Ok(false) => break,
                    Err((_, message)) => {
                        failed = Some(message);
                        break;
                    }
                }
            }
            if failed.is_none() {
                // The member's trailer (CRC, size) is checked when the decoder reaches its end.
                let mut probe = [0u8; 1];
                if let Err(e) = inner.read(&mut probe) {
                    failed = Some(format!("gzip member does not decompress: {e}"));
                }
            } else {
                // A record that does not parse inside a sound member: skip the member's rest.
                if io::copy(&mut inner, &mut io::sink()).is_ok() {
                    visit(Event::Corrupt(Corrupt {
                        offset: start,
                        message: failed.take().unwrap_or_default(),
                    }));
                }
            }
            failed
        };
        if let Some(message) = failed {
            visit(Event::Corrupt(Corrupt {
                offset: start,
                message,
            }));
            if r.pos == start {
                r.consume(1);
            }
            if !resync_gzip(r)? {
                return Ok(());
            }
        }
    }
}

/// Skips to the next gzip header; false at the end of the file.
fn resync_gzip<R: BufRead>(r: &mut Counted<R>) -> io::Result<bool> {
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(false);
        }
        if buf.len() < 3 {
            // Too short to hold a header; a last look after this buffer.
            let n = buf.len();
            r.consume(n);
            continue;
        }
        match memchr::memchr(0x1f, &buf[..buf.len() - 2]) {
            Some(i) if is_gzip(&buf[i..]) => {
                r.consume(i);
                return Ok(true);
            }
            Some(i) => r.consume(i + 1),
            None => {
                let n = buf.len() - 2;
                r.consume(n);
            }
        }
    }
}

/// Skips to the next line that starts `WARC/1.`; false at the end of the input.
fn resync_plain<R: BufRead>(r: &mut Counted<R>) -> bool {
    loop {
        let Ok(buf) = r.fill_buf() else { return false };
        if buf.is_empty() {
            return false;
        }
        if buf.starts_with(b"WARC/1.") {
            return true;
        }
        if buf.len() < 7 && b"WARC/1.".starts_with(buf) {
            // Possibly a version line split across buffers: read on past this byte.
            r.consume(1);
            continue;
        }
        match memchr::memchr(b'\n', buf) {
            Some(i) => r.consume(i + 1),
            None => {
                let n = buf.len();
                r.consume(n);
            }
        }
    }
}

/// Reads one line (with its end) into `line`, at most [`MAX_LINE`] bytes; false at the end of
/// the input.
fn read_line<R: BufRead>(r: &mut R, line: &mut Vec<u8>) -> Result<bool, String> {
    line.clear();
    let n = r
        .by_ref()
        .take(MAX_LINE as u64 + 1)
        .read_until(b'\n', line)
        .map_err(|e| format!("read error: {e}"))?;
    if n > MAX_LINE {
        return Err(format!("a header line is longer than {MAX_LINE} bytes"));
    }
    Ok(n > 0)
}

/// Reads the next record and hands it to `visit`; false at the end of the input. `at` turns the
/// record's position in `r` into its [`Location`].
///
/// # Errors
/// `(offset in r, message)` when the record is damaged.
fn next_record<R: BufRead>(
    r: &mut Counted<R>,
    at: impl Fn(u64) -> Location,
    visit: &mut dyn FnMut(Event<'_>),
) -> Result<bool, (u64, String)> {
    // Blank lines between records (the two CRLFs that end a block, and extra ones) are skipped.
    loop {
        let pos = r.pos;
        let buf = r
            .fill_buf()
            .map_err(|e| (pos, format!("read error: {e}")))?;
        if buf.is_empty() {
            return Ok(false);
        }
        let n = buf
            .iter()
            .take_while(|&&b| b == b'\r' || b == b'\n')
            .count();
        if n == 0 {
            break;
        }
        r.consume(n);
    }
    let pos = r.pos;
    let header = read_header(r).map_err(|m| (pos, m))?;
    let len: u64 = header
        .get("Content-Length")
        .ok_or_else(|| (pos, "record without Content-Length".to_string()))?
        .trim()
        .parse()
        .map_err(|_| (pos, "Content-Length is not a number".to_string()))?;
    let mut block = r.by_ref().take(len);
    let mut failed = None;
    {
        let mut guarded = Guarded {
            inner: &mut block,
            error: &mut failed,
        };
        visit(Event::Record(at(pos), &header, &mut guarded));
    }
    if let Some(e) = failed {
        return Err((pos, e));
    }
    let rest = io::copy(&mut block, &mut io::sink()).map_err(|e| (pos, format!("{e}")))?;
    let _ = rest;
    if block.limit() > 0 {
        return Err((
            pos,
            format!(
                "the record is cut short: its block should hold {len} bytes, {} are missing",
                block.limit()
            ),
        ));
    }
    Ok(true)
}

/// A reader that remembers the first error of the stream under it (a decompression error, a
/// read error), so that damage found while the visitor reads is reported as the record's, and
/// not mistaken for something wrong with the visitor's own decoding of the block.
struct Guarded<'a, R> {
    inner: &'a mut R,
    error: &'a mut Option<String>,
}

impl<R: Read> Read for Guarded<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.error.is_some() {
            return Err(io::Error::other("the record is damaged"));
        }
        self.inner.read(buf).inspect_err(|e| {
            *self.error = Some(format!("the record does not read to its end: {e}"));
        })
    }
}

/// Reads a version line and header fields up to the empty line.
fn read_header<R: BufRead>(r: &mut R) -> Result<Header, String> {
    let mut line = Vec::with_capacity(128);
    if !read_line(r, &mut line)? {
        return Err("the file ends inside a record".into());
    }
    let version = trim_end(&line);
    let Some(v) = version.strip_prefix(b"WARC/") else {
        return Err(format!(
            "not a WARC record: `{}` where a version line (WARC/1.0, WARC/1.1) should be",
            shown(&version[..version.len().min(40)])
        ));
    };
    let mut header = Header {
        version: String::from_utf8_lossy(v).into_owned(),
        fields: Vec::new(),
    };
    if !header.version.starts_with("1.") {
        return Err(format!(
            "WARC/{} is not a version this reader knows",
            header.version
        ));
    }
    let mut total = line.len();
    loop {
        if !read_line(r, &mut line)? {
            return Err("the file ends inside a record's header".into());
        }
        total += line.len();
        if total > MAX_HEADER_BYTES {
            return Err(format!(
                "the record's header is longer than {MAX_HEADER_BYTES} bytes"
            ));
        }
        let text = trim_end(&line);
        if text.is_empty() {
            return Ok(header);
        }
        if matches!(text[0], b' ' | b'\t') {
            // A continuation line (WARC 1.0 allows folded values).
            let Some(last) = header.fields.last_mut() else {
                return Err("a continuation line before any header field".into());
            };
            last.1.push(' ');
            last.1.push_str(String::from_utf8_lossy(text).trim());
            continue;
        }
        let Some(colon) = memchr::memchr(b':', text) else {
            return Err(format!(
                "a header line without a colon: `{}`",
                shown(&text[..text.len().min(40)])
            ));
        };
        if header.fields.len() == MAX_FIELDS {
            return Err(format!(
                "the record has more than {MAX_FIELDS} header fields"
            ));
        }
        let name = String::from_utf8_lossy(&text[..colon]).trim().to_string();
        let value = String::from_utf8_lossy(&text[colon + 1..])
            .trim()
            .to_string();
        header.fields.push((name, value));
    }
}

fn trim_end(line: &[u8]) -> &[u8] {
    let mut end = line.len();
    while end > 0 && matches!(line[end - 1], b'\r' | b'\n') {
        end -= 1;
    }
    &line[..end]
}

fn shown(b: &[u8]) -> String {
    String::from_utf8_lossy(b).escape_debug().to_string()
}

/// Reads the record at `at` of the file at `path` again and hands its header and block to `f`.
///
/// # Errors
/// A message when the file cannot be opened or the record there cannot be read.
pub fn read_at<T>(
    path: &Path,
    at: Location,
    f: impl FnOnce(&Header, &mut dyn Read) -> T,
) -> Result<T, String> {
    let mut file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    file.seek(SeekFrom::Start(at.offset))
        .map_err(|e| e.to_string())?;
    let mut r = BufReader::with_capacity(64 * 1024, file);
    let gz = is_gzip(r.fill_buf().map_err(|e| e.to_string())?);
    let mut f = Some(f);
    let mut out = None;
    let mut visit = |e: Event<'_>| {
        if let (Event::Record(_, h, block), Some(f)) = (e, f.take()) {
            out = Some(f(h, block));
        }
    };
    let result = if gz {
        let mut inner = Counted {
            inner: BufReader::new(flate2::bufread::GzDecoder::new(r)),
            pos: 0,
        };
        io::copy(&mut inner.by_ref().take(at.inner), &mut io::sink())
            .map_err(|e| format!("gzip member at offset {}: {e}", at.offset))?;
        next_record(
            &mut inner,
            |p| Location {
                offset: at.offset,
                inner: p,
            },
            &mut visit,
        )
    } else {
        let mut r = Counted { inner: r, pos: 0 };
        next_record(
            &mut r,
            |p| Location {
                offset: at.offset + p,
                inner: 0,
            },
            &mut visit,
        )
    };
    match (result, out) {
        (_, Some(v)) => Ok(v),
        (Err((_, m)), None) => Err(m),
        (Ok(_), None) => Err(format!("no record at offset {}", at.offset)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(kind: &str, body: &[u8]) -> Vec<u8> {
        let mut v = format!(
            "WARC/1.1\r\nWARC-Type: {kind}\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )
        .into_bytes();
        v.extend_from_slice(body);
        v.extend_from_slice(b"\r\n\r\n");
        v
    }

    fn gz(data: &[u8]) -> Vec<u8> {
        use std::io::Write as _;
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    /// (location, type, first bytes of block) or the corrupt offset and message.
    type Seen = Result<(Location, String, Vec<u8>), (u64, String)>;

    fn events(bytes: &[u8]) -> Vec<Seen> {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("t.warc");
        std::fs::write(&p, bytes).unwrap();
        let mut out = Vec::new();
        scan(&p, &mut |e| match e {
            Event::Record(at, h, block) => {
                let mut b = Vec::new();
                block.take(4).read_to_end(&mut b).unwrap();
                out.push(Ok((at, h.record_type(), b)));
            }
            Event::Corrupt(c) => out.push(Err((c.offset, c.message))),
        })
        .unwrap();
        out
    }

    #[test]
    fn plain_records_and_a_damaged_one_between() {
        let mut f = record("warcinfo", b"abcdef");
        let second = f.len() as u64;
        f.extend_from_slice(b"WARC/1.0\r\nno colon here\r\n\r\njunk\r\n");
        let third = f.len() as u64;
        f.extend(record("response", b"HTTP/1.1 200 OK\r\n\r\n"));
        let ev = events(&f);
        assert_eq!(ev.len(), 3, "{ev:?}");
        assert_eq!(
            ev[0].as_ref().unwrap().0,
            Location {
                offset: 0,
                inner: 0
            }
        );
        assert_eq!(ev[0].as_ref().unwrap().2, b"abcd");
        let (off, msg) = ev[1].as_ref().unwrap_err();
        assert_eq!(*off, second);
        assert!(msg.contains("without a colon"), "{msg}");
        assert_eq!(ev[2].as_ref().unwrap().0.offset, third);
        assert_eq!(ev[2].as_ref().unwrap().1, "response");
    }

    #[test]
    fn members_per_record_a_corrupt_member_and_read_back() {
        let a = gz(&record("warcinfo", b"one"));
        let mut b = gz(&record("response", b"two"));
        let n = b.len();
        b[n - 6] ^= 0xff; // the CRC
        for x in &mut b[10..16] {
            *x ^= 0xff; // the deflate data from its first block on
        }
        let c = gz(&record("request", b"three"));
        let mut f = a.clone();
        f.extend(&b);
        f.extend(&c);
        let ev = events(&f);
        assert_eq!(ev.len(), 3, "{ev:?}");
        assert_eq!(ev[0].as_ref().unwrap().1, "warcinfo");
        assert_eq!(ev[1].as_ref().unwrap_err().0, a.len() as u64);
        let last = ev[2].as_ref().unwrap();
        assert_eq!(
            last.0,
            Location {
                offset: (a.len() + b.len()) as u64,
                inner: 0
            }
        );
        assert_eq!(last.2, b"thre");
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("t.warc.gz");
        std::fs::write(&p, &f).unwrap();
        let body = read_at(&p, last.0, |h, r| {
            let mut s = String::new();
            r.read_to_string(&mut s).unwrap();
            (h.record_type(), s)
        })
        .unwrap();
        assert_eq!(body, ("request".to_string(), "three".to_string()));
    }

    #[test]
    fn one_gzip_stream_for_the_whole_file() {
        let mut plain = record("warcinfo", b"one");
        let second = plain.len() as u64;
        plain.extend(record("response", b"two"));
        let ev = events(&gz(&plain));
        assert_eq!(ev.len(), 2, "{ev:?}");
        assert_eq!(
            ev[1].as_ref().unwrap().0,
            Location {
                offset: 0,
                inner: second
            }
        );
    }

    #[test]
    fn hostile_headers_are_bounded() {
        let long = format!("WARC/1.1\r\nX: {}\r\n\r\n", "a".repeat(MAX_LINE * 2));
        let ev = events(long.as_bytes());
        assert!(ev[0].as_ref().unwrap_err().1.contains("longer than"));
        let mut many = String::from("WARC/1.1\r\n");
        for i in 0..(MAX_FIELDS + 1) {
            many.push_str(&format!("X-{i}: y\r\n"));
        }
        many.push_str("Content-Length: 0\r\n\r\n");
        let ev = events(many.as_bytes());
        assert!(ev[0].as_ref().unwrap_err().1.contains("header fields"));
        let cut = b"WARC/1.1\r\nContent-Length: 100\r\n\r\nshort";
        let ev = events(cut);
        assert!(ev[0].is_ok());
        assert!(
            ev[1].as_ref().unwrap_err().1.contains("cut short"),
            "{ev:?}"
        );
        // Nothing but noise: one damaged stretch, no panic.
        let ev = events(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3]);
        assert!(ev.iter().all(|e| e.is_err()));
    }
}
