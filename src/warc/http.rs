//! The HTTP answer inside a WARC `response` record: the status line and header fields (parsed
//! by `httparse`), and the body with its transfer and content encodings undone, bounded.

use std::io::{self, BufRead, BufReader, Read};

/// Largest HTTP header block read, in bytes.
pub const MAX_HTTP_HEAD: usize = 64 * 1024;
/// Most HTTP header fields read.
pub const MAX_HTTP_FIELDS: usize = 128;
/// Longest chunk-size line of a chunked body, in bytes.
const MAX_CHUNK_LINE: usize = 1024;

/// What the HTTP header block says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Head {
    /// The status code (100–999 as httparse reads it).
    pub status: u16,
    /// `Location`, as written.
    pub location: Option<String>,
    /// `Content-Type`, as written.
    pub content_type: Option<String>,
    /// `Transfer-Encoding`, lower-cased.
    pub transfer_encoding: Option<String>,
    /// `Content-Encoding`, lower-cased.
    pub content_encoding: Option<String>,
}

/// Reads the HTTP header block at the start of `block`. Returns the head and the bytes read
/// past it (the start of the body).
///
/// # Errors
/// A message when the block does not start with an HTTP response head of at most
/// [`MAX_HTTP_HEAD`] bytes and [`MAX_HTTP_FIELDS`] fields, or when reading fails.
pub fn read_head(block: &mut dyn Read) -> Result<(Head, Vec<u8>), String> {
    let mut buf = Vec::with_capacity(4096);
    let mut chunk = [0u8; 4096];
    loop {
        let n = block
            .read(&mut chunk)
            .map_err(|e| format!("the record does not read: {e}"))?;
        buf.extend_from_slice(&chunk[..n]);
        let mut fields = [httparse::EMPTY_HEADER; MAX_HTTP_FIELDS];
        let mut res = httparse::Response::new(&mut fields);
        // httparse reads HTTP/1.x status lines only; an answer recorded over HTTP/2 or HTTP/3
        // is parsed with its version token read as HTTP/1.1, and the length put back.
        let (parsed, shift) = match later_version(&buf) {
            Some(token) => (as_http11(&buf, token), token as isize - 8),
            None => (std::borrow::Cow::Borrowed(&buf[..]), 0),
        };
        match res.parse(&parsed) {
            Ok(httparse::Status::Complete(len)) => {
                let len = (len as isize + shift) as usize;
                let get = |name: &str| {
                    res.headers
                        .iter()
                        .find(|h| h.name.eq_ignore_ascii_case(name))
                        .map(|h| String::from_utf8_lossy(h.value).trim().to_string())
                };
                let head = Head {
                    status: res.code.unwrap_or(0),
                    location: get("Location"),
                    content_type: get("Content-Type"),
                    transfer_encoding: get("Transfer-Encoding").map(|s| s.to_ascii_lowercase()),
                    content_encoding: get("Content-Encoding").map(|s| s.to_ascii_lowercase()),
                };
                return Ok((head, buf.split_off(len)));
            }
            Ok(httparse::Status::Partial) if n == 0 => {
                return Err("the HTTP answer ends inside its header block".into());
            }
            Ok(httparse::Status::Partial) if buf.len() > MAX_HTTP_HEAD => {
                return Err(format!(
                    "the HTTP header block is longer than {MAX_HTTP_HEAD} bytes"
                ));
            }
            Ok(httparse::Status::Partial) => {}
            Err(e) => return Err(format!("the HTTP answer does not parse: {e}")),
        }
    }
}

/// The length of the version token when `buf` starts with an HTTP/2 or HTTP/3 status line
/// (`HTTP/2 200`, `HTTP/2.0 200`, `HTTP/3 200`), as WARC writers record those answers.
fn later_version(buf: &[u8]) -> Option<usize> {
    [&b"HTTP/2 "[..], b"HTTP/2.0 ", b"HTTP/3 ", b"HTTP/3.0 "]
        .iter()
        .find(|t| buf.starts_with(t))
        .map(|t| t.len() - 1)
}

/// `buf` with its first `token` bytes (the version) replaced by `HTTP/1.1`.
fn as_http11(buf: &[u8], token: usize) -> std::borrow::Cow<'_, [u8]> {
    let mut v = Vec::with_capacity(buf.len() + 8);
    v.extend_from_slice(b"HTTP/1.1");
    v.extend_from_slice(&buf[token..]);
    std::borrow::Cow::Owned(v)
}

/// The body after `head`: `start` (bytes read along with the head) then the rest of `block`,
/// with `Transfer-Encoding: chunked` and `Content-Encoding: gzip`, `x-gzip` or `deflate` undone,
/// read with the project's bound ([`crate::read::read_from`]: at most [`crate::read::MAX_READ`]
/// bytes are kept, however far a compressed body would expand).
///
/// # Errors
/// A message when an encoding is damaged or not one of those.
pub fn read_body(
    head: &Head,
    start: Vec<u8>,
    block: &mut dyn Read,
) -> Result<crate::read::Bounded, String> {
    let raw = io::Cursor::new(start).chain(block);
    let chunked = head
        .transfer_encoding
        .as_deref()
        .is_some_and(|t| t.split(',').any(|p| p.trim() == "chunked"));
    let dechunked: Box<dyn BufRead + '_> = if chunked {
        Box::new(BufReader::new(Chunked::new(BufReader::new(raw))))
    } else {
        Box::new(BufReader::new(raw))
    };
    let decoded: Box<dyn Read + '_> = match head.content_encoding.as_deref().map(str::trim) {
        None | Some("" | "identity") => dechunked,
        Some("gzip" | "x-gzip") => Box::new(flate2::bufread::MultiGzDecoder::new(dechunked)),
        Some("deflate") => deflate(dechunked).map_err(|e| format!("deflate body: {e}"))?,
        Some(other) => return Err(format!("content encoding `{other}` is not read")),
    };
    crate::read::read_from(decoded, None).map_err(|e| format!("the body does not decode: {e}"))
}

/// A `deflate` body: zlib data as RFC 9110 says, or the raw deflate data some servers send.
fn deflate<'a>(mut r: Box<dyn BufRead + 'a>) -> io::Result<Box<dyn Read + 'a>> {
    let b = r.fill_buf()?;
    let zlib =
        b.len() >= 2 && b[0] & 0x0f == 8 && (u16::from(b[0]) << 8 | u16::from(b[1])) % 31 == 0;
    Ok(if zlib {
        Box::new(flate2::bufread::ZlibDecoder::new(r))
    } else {
        Box::new(flate2::bufread::DeflateDecoder::new(r))
    })
}

/// A reader of a chunked body (RFC 9112 §7.1): chunk sizes, their data, up to the last chunk
/// (trailer fields are not read).
struct Chunked<R> {
    inner: R,
    left: u64,
    done: bool,
}

impl<R: BufRead> Chunked<R> {
    fn new(inner: R) -> Self {
        Chunked {
            inner,
            left: 0,
            done: false,
        }
    }

    fn size_line(&mut self) -> io::Result<u64> {
        let mut line = Vec::new();
        self.inner
            .by_ref()
            .take(MAX_CHUNK_LINE as u64)
            .read_until(b'\n', &mut line)?;
        if !line.ends_with(b"\n") {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "a chunk size line is missing or too long",
            ));
        }
        let text = String::from_utf8_lossy(&line);
        let size = text.split(';').next().unwrap_or("").trim();
        u64::from_str_radix(size, 16).map_err(|_| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("`{}` is not a chunk size", size.escape_debug()),
            )
        })
    }
}

impl<R: BufRead> Read for Chunked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.done || buf.is_empty() {
            return Ok(0);
        }
        if self.left == 0 {
            let size = self.size_line()?;
            if size == 0 {
                self.done = true;
                return Ok(0);
            }
            self.left = size;
        }
        let want = buf
            .len()
            .min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..want])?;
        if n == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the body ends inside a chunk",
            ));
        }
        self.left -= n as u64;
        if self.left == 0 {
            // The CRLF after the chunk's data (a bare LF is tolerated).
            let mut end = Vec::new();
            self.inner.by_ref().take(2).read_until(b'\n', &mut end)?;
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(raw: &[u8]) -> Result<(Head, crate::read::Bounded), String> {
        let mut r: &[u8] = raw;
        let (h, start) = read_head(&mut r)?;
        let b = read_body(&h, start, &mut r)?;
        Ok((h, b))
    }

    #[test]
    fn http2_and_http3_status_lines_are_read() {
        for line in ["HTTP/2 404", "HTTP/2.0 301 Moved", "HTTP/3 200"] {
            let raw = format!("{line}\r\nlocation: /x\r\ncontent-type: text/plain\r\n\r\nbody");
            let (h, b) = answer(raw.as_bytes()).unwrap();
            assert_eq!(h.status.to_string(), line.split(' ').nth(1).unwrap());
            assert_eq!(h.location.as_deref(), Some("/x"));
            assert_eq!(h.content_type.as_deref(), Some("text/plain"));
            assert_eq!(b.bytes, b"body", "{line}");
        }
        assert!(answer(b"HTTP/4 200\r\n\r\n").is_err());
    }

    #[test]
    fn plain_chunked_and_gzip_bodies() {
        let (h, b) =
            answer(b"HTTP/1.1 301 Moved\r\nLocation: https://b.example/robots.txt\r\n\r\nmoved")
                .unwrap();
        assert_eq!(h.status, 301);
        assert_eq!(h.location.as_deref(), Some("https://b.example/robots.txt"));
        assert_eq!(b.bytes, b"moved");
        let (_, b) = answer(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nUser-\r\n9\r\nagent: *\n\r\n0\r\n\r\n",
        )
        .unwrap();
        assert_eq!(b.bytes, b"User-agent: *\n");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut gz, b"Disallow: /x\n").unwrap();
        let mut raw = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n".to_vec();
        raw.extend(gz.finish().unwrap());
        assert_eq!(answer(&raw).unwrap().1.bytes, b"Disallow: /x\n");
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut z, b"Allow: /\n").unwrap();
        let mut raw = b"HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\n\r\n".to_vec();
        raw.extend(z.finish().unwrap());
        assert_eq!(answer(&raw).unwrap().1.bytes, b"Allow: /\n");
    }

    #[test]
    fn a_gzip_bomb_stops_at_the_read_bound() {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        let zeros = vec![0u8; 1 << 20];
        for _ in 0..40 {
            std::io::Write::write_all(&mut gz, &zeros).unwrap();
        }
        let mut raw = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n".to_vec();
        raw.extend(gz.finish().unwrap());
        let (_, b) = answer(&raw).unwrap();
        assert_eq!(b.bytes.len() as u64, crate::read::MAX_READ);
        assert!(b.truncated);
        assert_eq!(b.size, None);
    }

    #[test]
    fn damaged_answers_are_errors() {
        assert!(
            answer(b"HTTP/1.1 200 OK\r\nX: y")
                .unwrap_err()
                .contains("ends inside")
        );
        assert!(
            answer(b"garbage\r\n\r\n")
                .unwrap_err()
                .contains("does not parse")
        );
        let bad = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n";
        assert!(answer(bad).unwrap_err().contains("chunk size"));
        let huge = format!(
            "HTTP/1.1 200 OK\r\nX: {}\r\n",
            "a".repeat(MAX_HTTP_HEAD + 10)
        );
        assert!(answer(huge.as_bytes()).unwrap_err().contains("longer than"));
    }
}
