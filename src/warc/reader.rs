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
//! gzip member that does not decompress, is reported as a [`Corrupt`] entry with its location,
//! and reading resumes at the next record (the next line starting `WARC/1.` in the same plain
//! file or gzip member) or the next gzip member (the next gzip header after the damage).
//!
//! **A wrong `Content-Length`.** Before a record is handed on, the reader looks at the bytes
//! its `Content-Length` puts after the block: blank lines (the two CRLFs; any number of CR and
//! LF bytes is taken) and then the next record's version line, or the end of the file or member.
//! When something else is there (the length is too short or too long, as in a hand-edited or
//! truncated capture), or the input ends inside the block, the record is a [`Corrupt`] entry
//! (its location, the length, what was found, where reading resumed) and is not handed on, and
//! reading resumes at the first line starting `WARC/1.` after the record's header: the record
//! after a block too short is found past the declared end, and the records a block too long
//! swallowed are found inside it. The look ahead reaches [`LOOKAHEAD`] bytes past the header. A
//! longer block of a plain file is checked by reading the file where the block ends; a longer
//! block in a gzip member is checked before only when the member's data ends within the look
//! ahead, otherwise after it has been read: the record has then been handed on and the
//! `Corrupt` entry follows it. Such a block is looked through as it is read, and from its first
//! line starting `WARC/1.` on its bytes are kept in a temporary file, which reading resumes
//! from when the block turns out too long; a record that starts in bytes so read again keeps
//! nothing (reading resumes past its declared end), so no byte is read more than twice. The look
//! ahead keeps what it read for the reading that follows and each resynchronisation scans
//! forward, so time stays linear in the file's size.

use std::io::{self, BufRead, Read, Seek, SeekFrom};
use std::path::Path;

/// Longest header line accepted, in bytes.
pub const MAX_LINE: usize = 8 * 1024;
/// Largest header block accepted (version line and fields), in bytes.
pub const MAX_HEADER_BYTES: usize = 64 * 1024;
/// Most header fields accepted in one record.
pub const MAX_FIELDS: usize = 256;
/// Longest block, in (decompressed) bytes, whose end is always checked before its record is
/// handed on in a gzip member (see the module documentation); the buffer that looks ahead stays
/// under four times this.
pub const LOOKAHEAD: usize = 1 << 20;
/// Bytes looked at after a block: the two CRLFs, a few more blank-line bytes that writers add,
/// and the start of the next version line.
const TAIL: usize = 32;
/// Bytes of what was found after a block that a message shows.
const SHOWN: usize = 24;

/// Where a record starts: the byte offset in the file of the record (plain files) or of the
/// gzip member that holds it, and how many decompressed bytes of that member come before the
/// record (0 for a member per record).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Location {
    /// Byte offset in the file.
    pub offset: u64,
    /// Decompressed bytes of the gzip member before the record (0 in a plain file).
    pub inner: u64,
}

impl std::fmt::Display for Location {
    /// `OFFSET`, or `OFFSET+INNER` for a record inside a gzip member that holds several (the
    /// member's offset in the file, then the record's in the member's decompressed bytes).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.inner == 0 {
            write!(f, "{}", self.offset)
        } else {
            write!(f, "{}+{}", self.offset, self.inner)
        }
    }
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
    /// Where the damage was found: the damaged record's location, or the gzip member's (inner
    /// 0) when the member itself does not read.
    pub at: Location,
    /// What was wrong, and for a record where reading resumed.
    pub message: String,
}

/// What [`scan`] hands its visitor.
pub enum Event<'a> {
    /// A record: where it starts, its header, and a reader of its block (at most
    /// `Content-Length` bytes; what the visitor leaves unread is skipped).
    Record(Location, &'a Header, &'a mut dyn Read),
    /// A record or member that could not be read; reading goes on after it. A record whose
    /// damage is found only after it was handed on (see the module documentation) is named by
    /// a `Corrupt` with the same location right after its `Record`.
    Corrupt(Corrupt),
}

/// A plain file read again at any offset, to look past a block longer than the look ahead.
struct Far {
    file: std::fs::File,
    /// The file's size, in bytes.
    size: u64,
}

/// A buffered reader that counts the bytes consumed from it and can look ahead: [`Input::peek`]
/// fills its buffer with up to `n` bytes without consuming them, and what it read is then read
/// from the buffer, so every byte of the input is read once.
struct Input<R> {
    inner: R,
    /// What was read and not yet consumed is `buf[start..end]`.
    buf: Vec<u8>,
    start: usize,
    end: usize,
    /// Bytes consumed, plus the position the input started at.
    pos: u64,
    /// The input has ended.
    eof: bool,
    /// The read error that stopped the input, returned again to every read that needs more.
    failed: Option<(io::ErrorKind, String)>,
    /// For a plain file: the file, to look past the buffer.
    far: Option<Far>,
    /// Bytes read again before the rest of the input: what a block too long swallowed (see
    /// [`Input::replay`]).
    replay: Option<std::fs::File>,
    /// Where the bytes read again end: a record that starts before keeps nothing for another
    /// reading, so that no byte is read more than twice.
    keep_from: u64,
}

impl<R: Read> Input<R> {
    /// An input over `inner` with a buffer of `capacity` bytes, its first byte at position
    /// `pos`.
    fn new(inner: R, capacity: usize, pos: u64) -> Input<R> {
        Input::with_buf(inner, vec![0; capacity], pos)
    }

    /// An input over `inner` that reads into `buf` (as long as it is, at least 64 bytes; what it
    /// holds does not matter), its first byte at position `pos`.
    fn with_buf(inner: R, mut buf: Vec<u8>, pos: u64) -> Input<R> {
        if buf.len() < 64 {
            buf.resize(64, 0);
        }
        Input {
            inner,
            buf,
            start: 0,
            end: 0,
            pos,
            eof: false,
            failed: None,
            far: None,
            replay: None,
            keep_from: 0,
        }
    }

    /// The error that stopped the input, again.
    fn error(&self) -> Option<io::Error> {
        self.failed
            .as_ref()
            .map(|(kind, m)| io::Error::new(*kind, m.clone()))
    }

    /// Reads more into `buf[end..]` (which has room); false when nothing more comes, at the
    /// end or after an error (kept in `failed`).
    fn more(&mut self) -> bool {
        while let Some(f) = &mut self.replay {
            match f.read(&mut self.buf[self.end..]) {
                Ok(0) => self.replay = None,
                Ok(n) => {
                    self.end += n;
                    return true;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.replay = None;
                    self.failed = Some((e.kind(), e.to_string()));
                    return false;
                }
            }
        }
        if self.eof || self.failed.is_some() {
            return false;
        }
        loop {
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return false;
                }
                Ok(n) => {
                    self.end += n;
                    return true;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.failed = Some((e.kind(), e.to_string()));
                    return false;
                }
            }
        }
    }

    /// Up to `n` bytes from the current position, without consuming them: fewer only at the
    /// end of the input or after a read error (which the next read that needs more returns).
    /// The buffer doubles only when more than half of it is kept for a look, so it stays under
    /// four times `n`, and it grows only as bytes actually come; otherwise what is kept is moved
    /// to its front, at most one byte moved for each byte then read into the room freed.
    fn peek(&mut self, n: usize) -> &[u8] {
        while self.end - self.start < n {
            if self.end == self.buf.len() {
                let kept = self.end - self.start;
                if kept * 2 > self.buf.len() {
                    self.buf.resize(self.buf.len() * 2, 0);
                } else {
                    self.buf.copy_within(self.start..self.end, 0);
                    self.end = kept;
                    self.start = 0;
                }
            }
            if !self.more() {
                break;
            }
        }
        &self.buf[self.start..self.end.min(self.start + n)]
    }

    /// Reads again, from stream position `at`, the bytes kept in `kept` (up to the current
    /// position), then what the buffer holds, then the rest of the input.
    ///
    /// # Errors
    /// The I/O error of the temporary file; the input is then left as it was.
    fn replay(&mut self, mut kept: std::fs::File, at: u64) -> io::Result<()> {
        use std::io::Write as _;
        kept.write_all(&self.buf[self.start..self.end])?;
        let total = kept.stream_position()?;
        kept.seek(SeekFrom::Start(0))?;
        self.start = 0;
        self.end = 0;
        self.pos = at;
        self.keep_from = at + total;
        self.replay = Some(kept);
        Ok(())
    }

    /// The buffer, for the next input to use.
    fn into_buf(self) -> Vec<u8> {
        self.buf
    }
}

impl<R: Read> Read for Input<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.start == self.end
            && out.len() >= self.buf.len()
            && !self.eof
            && self.replay.is_none()
        {
            // A large read with nothing buffered goes straight to the input.
            if let Some(e) = self.error() {
                return Err(e);
            }
            let n = self.inner.read(out).inspect_err(|e| {
                if e.kind() != io::ErrorKind::Interrupted {
                    self.failed = Some((e.kind(), e.to_string()));
                }
            })?;
            self.eof = n == 0;
            self.pos += n as u64;
            return Ok(n);
        }
        let n = {
            let buf = self.fill_buf()?;
            let n = buf.len().min(out.len());
            out[..n].copy_from_slice(&buf[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for Input<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.start == self.end {
            self.start = 0;
            self.end = 0;
            if !self.more()
                && let Some(e) = self.error()
            {
                return Err(e);
            }
        }
        Ok(&self.buf[self.start..self.end])
    }

    fn consume(&mut self, amt: usize) {
        let amt = amt.min(self.end - self.start);
        self.start += amt;
        self.pos += amt as u64;
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
    let meta = f.metadata()?;
    if meta.is_dir() {
        return Err(io::Error::other("is a directory"));
    }
    let mut r = Input::new(f, 256 * 1024, 0);
    if is_gzip(r.peek(3)) {
        scan_gzip(&mut r, visit)
    } else {
        if let Some(e) = r.error() {
            return Err(e);
        }
        r.far = Some(Far {
            file: std::fs::File::open(path)?,
            size: meta.len(),
        });
        scan_plain(&mut r, visit);
        Ok(())
    }
}

/// The stream records are read from: a plain file, or the decompressed bytes of the gzip member
/// at an offset.
#[derive(Clone, Copy)]
struct Stream {
    member: Option<u64>,
}

impl Stream {
    /// The location of the record at `pos` in the stream.
    fn at(self, pos: u64) -> Location {
        match self.member {
            None => Location {
                offset: pos,
                inner: 0,
            },
            Some(offset) => Location { offset, inner: pos },
        }
    }

    /// What the stream is, in messages.
    fn noun(self) -> &'static str {
        match self.member {
            None => "file",
            Some(_) => "gzip member",
        }
    }
}

/// Why a record could not be read.
enum Damage {
    /// The record is damaged; the stream reads on, from the next version line.
    Record(String),
    /// The stream itself does not read on: the read or decompression error.
    Stream(String),
}

/// The records of a plain (uncompressed) WARC stream.
fn scan_plain<R: Read>(r: &mut Input<R>, visit: &mut dyn FnMut(Event<'_>)) {
    let s = Stream { member: None };
    if let Err((pos, message)) = records(r, s, visit) {
        visit(Event::Corrupt(Corrupt {
            at: s.at(pos),
            message: format!("read error: {message}"),
        }));
    }
}

/// Reads the records of one stream to its end and hands them to `visit`; after a damaged
/// record, reports it (with where reading resumes) and reads on from the next line starting
/// `WARC/1.`.
///
/// # Errors
/// `(position in the stream, message)` of the read or decompression error that stopped it.
fn records<R: Read>(
    r: &mut Input<R>,
    s: Stream,
    visit: &mut dyn FnMut(Event<'_>),
) -> Result<(), (u64, String)> {
    loop {
        match next_record(r, s, true, visit) {
            Ok(true) => {}
            Ok(false) => return Ok(()),
            Err((pos, Damage::Record(message))) => {
                let found = resync_plain(r);
                let next = match found {
                    Ok(true) => format!(
                        "; reading resumes at the next record, at offset {}",
                        s.at(r.pos)
                    ),
                    Ok(false) => format!("; no record follows in the {}", s.noun()),
                    Err(_) => String::new(),
                };
                visit(Event::Corrupt(Corrupt {
                    at: s.at(pos),
                    message: message + &next,
                }));
                match found {
                    Ok(true) => {}
                    Ok(false) => return Ok(()),
                    Err(e) => return Err((r.pos, e.to_string())),
                }
            }
            Err((pos, Damage::Stream(message))) => return Err((pos, message)),
        }
    }
}

/// The members of a gzip stream, each holding one or more records.
fn scan_gzip<R: Read>(r: &mut Input<R>, visit: &mut dyn FnMut(Event<'_>)) -> io::Result<()> {
    // The buffer of a member's decompressed bytes, passed from member to member.
    let mut spare = vec![0; 64 * 1024];
    loop {
        let start = r.pos;
        let head = r.fill_buf()?;
        if head.is_empty() {
            return Ok(());
        }
        if !is_gzip(r.peek(3)) {
            // Padding between members is tolerated; anything else is damage.
            let head = r.fill_buf()?;
            if head.iter().all(|&b| b == 0 || b.is_ascii_whitespace()) {
                let n = head.len();
                r.consume(n);
                continue;
            }
            visit(Event::Corrupt(Corrupt {
                at: Location {
                    offset: start,
                    inner: 0,
                },
                message: "not a gzip member: the bytes here do not start with a gzip header".into(),
            }));
            r.consume(1);
            if !resync_gzip(r)? {
                return Ok(());
            }
            continue;
        }
        let read = {
            let dec = flate2::bufread::GzDecoder::new(&mut *r);
            let mut inner = Input::with_buf(dec, std::mem::take(&mut spare), 0);
            let read = records(
                &mut inner,
                Stream {
                    member: Some(start),
                },
                visit,
            );
            spare = inner.into_buf();
            read
        };
        if let Err((pos, e)) = read {
            if let Some(e) = r.error() {
                // The file itself does not read: not damage of its content.
                return Err(e);
            }
            visit(Event::Corrupt(Corrupt {
                at: Location {
                    offset: start,
                    inner: 0,
                },
                message: format!(
                    "gzip member does not decompress: {e} (past byte {pos} of its data)"
                ),
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
fn resync_gzip<R: Read>(r: &mut Input<R>) -> io::Result<bool> {
    loop {
        if is_gzip(r.peek(3)) {
            return Ok(true);
        }
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(false);
        }
        // The first byte is not a header's: on to the next candidate after it.
        let n = memchr::memchr(0x1f, &buf[1..]).map_or(buf.len(), |i| i + 1);
        r.consume(n);
    }
}

/// Skips to the next line that starts `WARC/1.` (or stays at one); false at the end of the
/// input. Each byte is looked at once.
///
/// # Errors
/// The read or decompression error that stopped the input.
fn resync_plain<R: Read>(r: &mut Input<R>) -> io::Result<bool> {
    loop {
        if r.peek(7).starts_with(b"WARC/1.") {
            return Ok(true);
        }
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(false);
        }
        let n = memchr::memchr(b'\n', buf).map_or(buf.len(), |i| i + 1);
        r.consume(n);
    }
}

/// Reads one line (with its end) into `line`, at most [`MAX_LINE`] bytes; false at the end of
/// the input.
fn read_line<R: BufRead>(r: &mut R, line: &mut Vec<u8>) -> Result<bool, Damage> {
    line.clear();
    let n = r
        .by_ref()
        .take(MAX_LINE as u64 + 1)
        .read_until(b'\n', line)
        .map_err(|e| Damage::Stream(e.to_string()))?;
    if n > MAX_LINE {
        return Err(Damage::Record(format!(
            "a header line is longer than {MAX_LINE} bytes"
        )));
    }
    Ok(n > 0)
}

/// What follows a record's block where its `Content-Length` ends it.
enum End {
    /// Blank lines and the next version line, or the end of the input: the block ends there.
    Sound,
    /// The input ends inside the block: how many of its bytes are there.
    Short(u64),
    /// Something else: the first bytes found there.
    Misplaced(Vec<u8>),
    /// Not known before the block is read: a block longer than [`LOOKAHEAD`] in a gzip stream,
    /// or a read error within the look (which the reading of the block then meets).
    Unknown,
}

/// Whether `after`, the bytes after a block (all there were when `ended`), start where the next
/// record should: blank-line bytes, then a version line or the end.
fn judge(after: &[u8], ended: bool) -> End {
    let gap = after
        .iter()
        .take_while(|&&b| b == b'\r' || b == b'\n')
        .count();
    let rest = &after[gap..];
    let next = rest.starts_with(b"WARC/")
        || (!ended && rest.len() < 5 && b"WARC/".starts_with(rest))
        || (rest.is_empty() && ended);
    if next {
        End::Sound
    } else {
        End::Misplaced(after[..after.len().min(SHOWN)].to_vec())
    }
}

/// Looks at what follows the block of `len` bytes that starts at the current position, without
/// consuming anything.
fn block_end<R: Read>(r: &mut Input<R>, len: u64) -> End {
    // The block and what follows it, as far as the look ahead reaches.
    let look = usize::try_from(len).map_or(LOOKAHEAD, |l| l.min(LOOKAHEAD)) + TAIL;
    let seen = r.peek(look).len();
    if seen < look {
        if r.failed.is_some() {
            return End::Unknown;
        }
        // The input ends within the look.
        if (seen as u64) < len {
            return End::Short(seen as u64);
        }
        return judge(&r.peek(look)[len as usize..], true);
    }
    if len <= LOOKAHEAD as u64 {
        return judge(&r.peek(look)[len as usize..], false);
    }
    // Past the look ahead: a plain file is read where the block ends; a gzip stream is not.
    let pos = r.pos;
    let Some(far) = &mut r.far else {
        return End::Unknown;
    };
    let after = match pos.checked_add(len) {
        Some(a) if a <= far.size => a,
        _ => return End::Short(far.size.saturating_sub(pos)),
    };
    let mut tail = Vec::with_capacity(TAIL);
    let read = far
        .file
        .seek(SeekFrom::Start(after))
        .and_then(|_| (&mut far.file).take(TAIL as u64).read_to_end(&mut tail));
    match read {
        Ok(_) => judge(&tail, tail.len() < TAIL),
        Err(_) => End::Unknown,
    }
}

/// Reads the next record and hands it to `visit`; false at the end of the input. `s` turns the
/// record's position into its [`Location`]. With `check`, a record whose block does not end
/// where its `Content-Length` says is damage, found before the record is handed on when the
/// look ahead reaches past the block (see the module documentation).
///
/// # Errors
/// `(position of the record in the stream, damage)`. After [`Damage::Record`] the input is
/// after the damaged line (header), at the start of the block (a `Content-Length` found wrong
/// before the record was handed on) or past the declared block (found after).
fn next_record<R: Read>(
    r: &mut Input<R>,
    s: Stream,
    check: bool,
    visit: &mut dyn FnMut(Event<'_>),
) -> Result<bool, (u64, Damage)> {
    // Blank lines between records (the two CRLFs that end a block, and extra ones) are skipped.
    loop {
        let pos = r.pos;
        let buf = r
            .fill_buf()
            .map_err(|e| (pos, Damage::Stream(e.to_string())))?;
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
    let header = read_header(r).map_err(|d| (pos, d))?;
    let named = |m: String| match header.get("WARC-Target-URI") {
        Some(u) => Damage::Record(format!("{}: {m}", u.trim())),
        None => Damage::Record(m),
    };
    let Some(len) = header.get("Content-Length") else {
        return Err((pos, named("record without Content-Length".into())));
    };
    let Ok(len) = len.trim().parse::<u64>() else {
        return Err((pos, named("Content-Length is not a number".into())));
    };
    let past_end = |n: u64| {
        format!(
            "Content-Length {len} runs past the end of the {}: only {n} bytes follow the \
             record's header",
            s.noun()
        )
    };
    let misplaced = |found: &[u8]| {
        format!(
            "Content-Length {len} does not end the record: its block is followed by `{}` where \
             two CRLFs and the next record's version line (WARC/1.0, WARC/1.1) should be",
            shown(found)
        )
    };
    let checked = if check {
        match block_end(r, len) {
            End::Sound => true,
            End::Unknown => false,
            End::Short(n) => return Err((pos, named(past_end(n)))),
            End::Misplaced(found) => return Err((pos, named(misplaced(&found)))),
        }
    } else {
        true
    };
    // A block not checked before is looked through as it is read, in a gzip member (a plain
    // file is read where the block ends), for what a block too long may have swallowed.
    let block_at = r.pos;
    let keep = !checked && r.far.is_none() && pos >= r.keep_from;
    let mut block = Tee::new(r.by_ref().take(len), keep);
    let mut failed = None;
    {
        let mut guarded = Guarded {
            inner: &mut block,
            error: &mut failed,
        };
        visit(Event::Record(s.at(pos), &header, &mut guarded));
    }
    if let Some(e) = failed {
        return Err((pos, Damage::Stream(e)));
    }
    io::copy(&mut block, &mut io::sink()).map_err(|e| (pos, Damage::Stream(e.to_string())))?;
    if checked {
        return Ok(true);
    }
    // A block too long to look past before it was read: its end is checked now.
    let left = block.inner.limit();
    let kept = block.kept.take();
    drop(block);
    let damage = if left > 0 {
        past_end(len - left)
    } else {
        let seen = r.peek(TAIL).len();
        if seen < TAIL && r.failed.is_some() {
            return Ok(true);
        }
        match judge(r.peek(TAIL), seen < TAIL) {
            End::Misplaced(found) => misplaced(&found),
            _ => return Ok(true),
        }
    };
    // Reading resumes at the first version line inside the block, when there is one (past the
    // declared end when the temporary file fails).
    if let Some((f, c)) = kept {
        let _ = r.replay(f, block_at + c);
    }
    let late = format!(
        "; found only after the block was read (a block over {LOOKAHEAD} bytes in a gzip member \
         is not checked before), so the record was read as its Content-Length says{}",
        if keep {
            ""
        } else {
            ", and records inside that length are not read"
        }
    );
    Err((pos, named(damage + &late)))
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

/// A block's reader that looks for lines starting `WARC/1.` in the bytes read through it and,
/// from the first one on, keeps those bytes in a temporary file: what reading resumes from when
/// the block turns out too long, found only after it was read.
struct Tee<R> {
    inner: R,
    /// Whether to look and keep at all.
    on: bool,
    /// The block's offset of the next byte.
    off: u64,
    /// The last bytes read (at most 7; at first a line end, as the block starts a line).
    tail: Vec<u8>,
    /// The temporary file and the block's offset of its first byte, from the first line
    /// starting `WARC/1.` on.
    kept: Option<(std::fs::File, u64)>,
    finder: memchr::memmem::Finder<'static>,
}

impl<R: Read> Tee<R> {
    fn new(inner: R, on: bool) -> Tee<R> {
        Tee {
            inner,
            on,
            off: 0,
            tail: vec![b'\n'],
            kept: None,
            finder: memchr::memmem::Finder::new(b"\nWARC/1."),
        }
    }

    /// Looks at (or keeps) the bytes `b` just read.
    fn see(&mut self, b: &[u8]) {
        use std::io::Write as _;
        if !self.on || b.is_empty() {
            self.off += b.len() as u64;
            return;
        }
        if let Some((f, _)) = &mut self.kept {
            if f.write_all(b).is_err() {
                self.kept = None;
                self.on = false;
            }
            self.off += b.len() as u64;
            return;
        }
        // A line start split between the last read and this one, or one inside this read: the
        // version line starts after the line end.
        let mut joint = self.tail.clone();
        joint.extend_from_slice(&b[..b.len().min(7)]);
        let joint_at = self.off as i64 - self.tail.len() as i64;
        let found = self
            .finder
            .find(&joint)
            .map(|i| joint_at + i as i64 + 1)
            .or_else(|| {
                self.finder
                    .find(b)
                    .map(|i| (self.off + i as u64 + 1) as i64)
            });
        if let Some(c) = found {
            let c = c as u64;
            let keep = tempfile::tempfile().and_then(|mut f| {
                if c < self.off {
                    f.write_all(&self.tail[self.tail.len() - (self.off - c) as usize..])?;
                }
                f.write_all(&b[c.saturating_sub(self.off) as usize..])?;
                Ok(f)
            });
            match keep {
                Ok(f) => self.kept = Some((f, c)),
                Err(_) => self.on = false,
            }
        } else {
            joint.drain(..joint.len().saturating_sub(7));
            if b.len() >= 7 {
                self.tail.clear();
                self.tail.extend_from_slice(&b[b.len() - 7..]);
            } else {
                self.tail = joint;
            }
        }
        self.off += b.len() as u64;
    }
}

impl<R: Read> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.see(&buf[..n]);
        Ok(n)
    }
}

/// Reads a version line and header fields up to the empty line.
fn read_header<R: BufRead>(r: &mut R) -> Result<Header, Damage> {
    let bad = |m: String| Err(Damage::Record(m));
    let mut line = Vec::with_capacity(128);
    if !read_line(r, &mut line)? {
        return bad("the file ends inside a record".into());
    }
    let version = trim_end(&line);
    let Some(v) = version.strip_prefix(b"WARC/") else {
        return bad(format!(
            "not a WARC record: `{}` where a version line (WARC/1.0, WARC/1.1) should be",
            shown(&version[..version.len().min(40)])
        ));
    };
    let mut header = Header {
        version: String::from_utf8_lossy(v).into_owned(),
        fields: Vec::new(),
    };
    if !header.version.starts_with("1.") {
        return bad(format!(
            "WARC/{} is not a version this reader knows",
            header.version
        ));
    }
    let mut total = line.len();
    loop {
        if !read_line(r, &mut line)? {
            return bad("the file ends inside a record's header".into());
        }
        total += line.len();
        if total > MAX_HEADER_BYTES {
            return bad(format!(
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
                return bad("a continuation line before any header field".into());
            };
            last.1.push(' ');
            last.1.push_str(String::from_utf8_lossy(text).trim());
            continue;
        }
        let Some(colon) = memchr::memchr(b':', text) else {
            return bad(format!(
                "a header line without a colon: `{}`",
                shown(&text[..text.len().min(40)])
            ));
        };
        if header.fields.len() == MAX_FIELDS {
            return bad(format!(
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
/// The record is read as its `Content-Length` says; [`scan`] told whether that was right.
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
    let mut r = Input::new(file, 64 * 1024, at.offset);
    let gz = is_gzip(r.peek(3));
    let mut f = Some(f);
    let mut out = None;
    let mut visit = |e: Event<'_>| {
        if let (Event::Record(_, h, block), Some(f)) = (e, f.take()) {
            out = Some(f(h, block));
        }
    };
    let result = if gz {
        let mut inner = Input::new(flate2::bufread::GzDecoder::new(r), 64 * 1024, 0);
        io::copy(&mut inner.by_ref().take(at.inner), &mut io::sink())
            .map_err(|e| format!("gzip member at offset {}: {e}", at.offset))?;
        next_record(
            &mut inner,
            Stream {
                member: Some(at.offset),
            },
            false,
            &mut visit,
        )
    } else {
        next_record(&mut r, Stream { member: None }, false, &mut visit)
    };
    match (result, out) {
        (_, Some(v)) => Ok(v),
        (Err((_, Damage::Record(m) | Damage::Stream(m))), None) => Err(m),
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

    /// (location, type, first bytes of block) or the corrupt location and message.
    type Seen = Result<(Location, String, Vec<u8>), (Location, String)>;

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
            Event::Corrupt(c) => out.push(Err((c.at, c.message))),
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
        let (at, msg) = ev[1].as_ref().unwrap_err();
        assert_eq!(at.offset, second);
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
        assert_eq!(ev[1].as_ref().unwrap_err().0.offset, a.len() as u64);
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
        assert_eq!(
            ev,
            [Err((
                Location::default(),
                "Content-Length 100 runs past the end of the file: only 5 bytes follow the \
                 record's header; no record follows in the file"
                    .to_string()
            ))]
        );
        // Nothing but noise: one damaged stretch, no panic.
        let ev = events(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3]);
        assert!(ev.iter().all(|e| e.is_err()));
    }

    /// The block of a capture of `host`: an HTTP answer and its robots.txt.
    fn block(host: &str) -> String {
        format!("HTTP/1.1 200 OK\r\n\r\nUser-agent: *\nDisallow: /{host}/\n")
    }

    /// A response record of `https://HOST/robots.txt` whose `Content-Length` is off by `delta`.
    fn capture(host: &str, delta: i64) -> Vec<u8> {
        let block = block(host);
        let mut v = format!(
            "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://{host}/robots.txt\r\n\
             Content-Length: {}\r\n\r\n",
            block.len() as i64 + delta
        )
        .into_bytes();
        v.extend_from_slice(block.as_bytes());
        v.extend_from_slice(b"\r\n\r\n");
        v
    }

    /// Five captures (a. to e.example), the third's `Content-Length` off by `delta`: the file,
    /// and where each record starts in it.
    fn five(delta: i64) -> (Vec<u8>, Vec<u64>) {
        let mut f = Vec::new();
        let mut starts = Vec::new();
        for (i, host) in [
            "a.example",
            "b.example",
            "c.example",
            "d.example",
            "e.example",
        ]
        .into_iter()
        .enumerate()
        {
            starts.push(f.len() as u64);
            f.extend(capture(host, if i == 2 { delta } else { 0 }));
        }
        (f, starts)
    }

    /// [`Seen`] with each location as one offset.
    type Flat = Result<(u64, String, Vec<u8>), (u64, String)>;

    /// The events of `bytes` read plain and as one gzip stream, with each location given as
    /// the offset in the uncompressed bytes: the two must agree.
    fn plain_and_stream(bytes: &[u8]) -> Vec<Flat> {
        let plain = events(bytes);
        let stream = events(&gz(bytes));
        let flat = |ev: Vec<Seen>, gz: bool| -> Vec<_> {
            ev.into_iter()
                .map(|e| match e {
                    Ok((at, t, b)) => {
                        assert!(!gz || at.offset == 0, "{at:?}");
                        Ok((if gz { at.inner } else { at.offset }, t, b))
                    }
                    Err((at, m)) => {
                        let pos = if gz { at.inner } else { at.offset };
                        // Where reading resumed: `N` in a plain file, `0+N` in the stream.
                        let m = m.replace(" at offset 0+", " at offset ");
                        Err((pos, m.replace("gzip member", "file")))
                    }
                })
                .collect()
        };
        let plain_flat: Vec<_> = plain
            .iter()
            .cloned()
            .map(|e| {
                e.map(|(at, t, b)| (at.offset, t, b))
                    .map_err(|(at, m)| (at.offset, m))
            })
            .collect();
        assert_eq!(flat(stream, true), plain_flat);
        plain_flat
    }

    #[test]
    fn a_content_length_too_short_or_too_long_is_that_records_damage_and_reading_resumes() {
        for (delta, found) in [
            // Too short: the rest of the body comes where the next record should.
            (-7, r"ample/\n\r\n\r\nWARC/1.1\r\nWAR"),
            (-2, r"/\n\r\n\r\nWARC/1.1\r\nWARC-Typ"),
            // Too long: the block swallows the two CRLFs and the next version line's start.
            (9, r"1.1\r\nWARC-Type: response"),
            (5, r"ARC/1.1\r\nWARC-Type: resp"),
            // Too long by most of the next record: it is found inside the block.
            (150, r"example/\n\r\n\r\nWARC/1.1\r\nW"),
        ] {
            let (f, starts) = five(delta);
            let ev = plain_and_stream(&f);
            let hosts: Vec<u64> = ev
                .iter()
                .filter_map(|e| e.as_ref().ok())
                .map(|r| r.0)
                .collect();
            assert_eq!(
                hosts,
                [starts[0], starts[1], starts[3], starts[4]],
                "{delta}: {ev:?}"
            );
            let len = block("c.example").len() as i64 + delta;
            assert_eq!(
                ev[2],
                Err((
                    starts[2],
                    format!(
                        "https://c.example/robots.txt: Content-Length {len} does not end the \
                         record: its block is followed by `{found}` where two CRLFs and the next \
                         record's version line (WARC/1.0, WARC/1.1) should be; reading resumes \
                         at the next record, at offset {}",
                        starts[3]
                    )
                )),
                "{delta}"
            );
            assert_eq!(ev.len(), 5, "{delta}: {ev:?}");
        }
        // Short by line-end bytes only, or long by the blank lines: blank lines (any number)
        // then the next record, which is how the reader has always taken a record's end.
        for delta in [-1, 1, 4] {
            let (f, starts) = five(delta);
            let ev = plain_and_stream(&f);
            let at: Vec<u64> = ev.iter().map(|e| e.as_ref().unwrap().0).collect();
            assert_eq!(at, starts, "{delta}");
        }
    }

    #[test]
    fn a_length_past_the_end_of_the_file_is_that_records_damage_only() {
        let (mut f, starts) = five(0);
        // The third claims a terabyte; the last is 5 bytes longer than the file.
        let third = capture("c.example", 0);
        let huge = String::from_utf8(third.clone()).unwrap().replace(
            "Content-Length: 55\r\n",
            "Content-Length: 1000000000000\r\n",
        );
        f.splice(
            starts[2] as usize..starts[3] as usize,
            huge.bytes().collect::<Vec<u8>>(),
        );
        let shift = huge.len() as u64 - third.len() as u64;
        f.truncate((starts[4] + shift) as usize);
        f.extend(capture("e.example", 5));
        let ev = plain_and_stream(&f);
        let header = huge.find("\r\n\r\n").unwrap() as u64 + 4;
        let at: Vec<u64> = ev
            .iter()
            .filter_map(|e| e.as_ref().ok())
            .map(|r| r.0)
            .collect();
        assert_eq!(at, [starts[0], starts[1], starts[3] + shift], "{ev:?}");
        assert_eq!(ev.len(), 5);
        assert_eq!(
            ev[2],
            Err((
                starts[2],
                format!(
                    "https://c.example/robots.txt: Content-Length 1000000000000 runs past the end \
                     of the file: only {} bytes follow the record's header; reading resumes at \
                     the next record, at offset {}",
                    f.len() as u64 - starts[2] - header,
                    starts[3] + shift
                )
            ))
        );
        assert_eq!(
            ev[4],
            Err((
                starts[4] + shift,
                "https://e.example/robots.txt: Content-Length 60 runs past the end of the file: \
                 only 59 bytes follow the record's header; no record follows in the file"
                    .to_string()
            ))
        );
        assert_eq!(ev.len(), 5);
    }

    #[test]
    fn a_block_longer_than_the_look_ahead_is_checked_at_its_end() {
        // A record of 1 MiB and more, 10 bytes too short, between two sound ones.
        let line = "x".repeat(99) + "\n";
        let body = line.repeat(LOOKAHEAD / 100 + 10);
        let mut f = record("warcinfo", b"one");
        let big = f.len() as u64;
        let mut rec = record("resource", body.as_bytes());
        let text = String::from_utf8(rec.clone()).unwrap();
        let len = body.len();
        let bad = text.replace(
            &format!("Content-Length: {len}\r\n"),
            &format!("Content-Length: {}\r\n", len - 10),
        );
        assert_ne!(bad, text);
        rec = bad.into_bytes();
        f.extend(&rec);
        let last = f.len() as u64;
        f.extend(record("request", b"three"));
        let found = r"xxxxxxxxx\n\r\n\r\nWARC/1.1\r\n";
        let message = format!(
            "Content-Length {} does not end the record: its block is followed by `{found}` where \
             two CRLFs and the next record's version line (WARC/1.0, WARC/1.1) should be",
            len - 10
        );
        // A plain file: checked before, by reading the block's end from the file.
        let ev = events(&f);
        assert_eq!(ev.len(), 3, "{ev:?}");
        assert_eq!(ev[0].as_ref().unwrap().1, "warcinfo");
        assert_eq!(
            ev[1],
            Err((
                Location {
                    offset: big,
                    inner: 0
                },
                format!("{message}; reading resumes at the next record, at offset {last}")
            ))
        );
        assert_eq!(ev[2].as_ref().unwrap().0.offset, last);
        // One gzip stream: the record is read, then found damaged, and reading resumes after
        // its declared end.
        let ev = events(&gz(&f));
        assert_eq!(ev.len(), 4, "{ev:?}");
        let at = |inner| Location { offset: 0, inner };
        assert_eq!(ev[1].as_ref().unwrap().0, at(big));
        assert_eq!(ev[1].as_ref().unwrap().1, "resource");
        assert_eq!(
            ev[2],
            Err((
                at(big),
                format!(
                    "{message}; found only after the block was read (a block over {LOOKAHEAD} \
                     bytes in a gzip member is not checked before), so the record was read as \
                     its Content-Length says; reading resumes at the next record, at offset \
                     0+{last}"
                )
            ))
        );
        assert_eq!(ev[3].as_ref().unwrap().0, at(last));
    }

    #[test]
    fn members_per_record_a_wrong_length_is_that_members_damage() {
        for (delta, what) in [
            (
                -7,
                "does not end the record: its block is followed by `ample/\\n\\r\\n\\r\\n` where \
                 two CRLFs and the next record's version line (WARC/1.0, WARC/1.1) should be",
            ),
            (
                9,
                "runs past the end of the gzip member: only 59 bytes follow the record's header",
            ),
        ] {
            let mut f = Vec::new();
            let mut members = Vec::new();
            for (i, host) in ["a.example", "b.example", "c.example", "d.example"]
                .into_iter()
                .enumerate()
            {
                members.push(f.len() as u64);
                f.extend(gz(&capture(host, if i == 2 { delta } else { 0 })));
            }
            let ev = events(&f);
            let at: Vec<u64> = ev
                .iter()
                .filter_map(|e| e.as_ref().ok())
                .map(|r| r.0.offset)
                .collect();
            assert_eq!(at, [members[0], members[1], members[3]], "{delta}: {ev:?}");
            assert_eq!(
                ev[2],
                Err((
                    Location {
                        offset: members[2],
                        inner: 0
                    },
                    format!(
                        "https://c.example/robots.txt: Content-Length {} {what}; no record \
                         follows in the gzip member",
                        55 + delta
                    )
                )),
                "{delta}"
            );
        }
    }

    #[test]
    fn a_member_whose_checksum_alone_is_wrong_is_damage() {
        let a = gz(&record("warcinfo", b"one"));
        let mut b = gz(&record("response", b"two"));
        let n = b.len();
        b[n - 8] ^= 0x55; // the CRC only: the data decompresses
        let mut f = a.clone();
        f.extend(&b);
        f.extend(gz(&record("request", b"three")));
        let ev = events(&f);
        assert_eq!(ev.len(), 4, "{ev:?}");
        assert_eq!(ev[1].as_ref().unwrap().1, "response");
        let (at, message) = ev[2].as_ref().unwrap_err();
        assert_eq!(at.offset, a.len() as u64);
        assert!(
            message.starts_with("gzip member does not decompress: "),
            "{message}"
        );
        assert_eq!(ev[3].as_ref().unwrap().1, "request");
    }

    #[test]
    fn hostile_lengths_are_read_in_linear_time() {
        // 100,000 records that each claim most of the look ahead and hold 4 bytes: each is
        // found damaged and the next found after it, without reading the look ahead again
        // for every one (100 GB of copying if it did).
        let one = format!(
            "WARC/1.1\r\nContent-Length: {}\r\n\r\nabcd\r\n\r\n",
            LOOKAHEAD - 100
        );
        let f = one.repeat(100_000);
        let started = std::time::Instant::now();
        for bytes in [f.as_bytes().to_vec(), gz(f.as_bytes())] {
            let ev = events(&bytes);
            assert_eq!(ev.len(), 100_000);
            assert!(ev.iter().all(|e| e.is_err()));
            assert!(
                ev[99_999]
                    .as_ref()
                    .unwrap_err()
                    .1
                    .ends_with("; no record follows in the file")
                    || ev[99_999]
                        .as_ref()
                        .unwrap_err()
                        .1
                        .ends_with("; no record follows in the gzip member")
            );
        }
        assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
    }

    #[test]
    fn a_member_that_starts_where_the_file_buffer_ends_is_read() {
        // The file is read 256 KiB at a time: members that start 1 or 2 bytes before that
        // boundary have their header split across two reads.
        for before in [1, 2] {
            let stored = |body: &[u8]| {
                use std::io::Write as _;
                let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::none());
                e.write_all(&record("resource", body)).unwrap();
                e.finish().unwrap()
            };
            let target = 256 * 1024 - before;
            let mut n = target - 200;
            let first = loop {
                let m = stored(&vec![b'x'; n]);
                if m.len() == target {
                    break m;
                }
                assert!(m.len() < target, "{}", m.len());
                n += 1;
            };
            let mut f = first;
            f.extend(gz(&record("response", b"two")));
            let ev = events(&f);
            assert_eq!(ev.len(), 2, "{before}: {ev:?}");
            let second = ev[1].as_ref().unwrap();
            assert_eq!(second.0.offset, target as u64);
            assert_eq!(second.1, "response");
        }
    }

    #[test]
    fn a_long_block_in_a_gzip_stream_that_swallowed_records_gives_them_back() {
        // A sound block over the look ahead whose content has version lines, then a record
        // that claims a terabyte, then what it would swallow: more than the look ahead.
        let mut inside = String::new();
        while inside.len() <= LOOKAHEAD {
            inside.push_str("WARC/1.1\r\nWARC-Type: resource\r\n\r\nx\r\n\r\n");
        }
        let mut f = record("resource", inside.as_bytes());
        let huge_at = f.len() as u64;
        f.extend(
            b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://c.example/robots.txt\r\n\
              Content-Length: 1000000000000\r\n\r\nHTTP/1.1 200 OK\r\n\r\n",
        );
        let header = f.len() as u64 - huge_at - 19;
        let next = f.len() as u64 + 4;
        f.extend(b"\r\n\r\n");
        f.extend(record("request", b"one"));
        let filler = f.len() as u64;
        f.extend(record("metadata", "y\n".repeat(LOOKAHEAD).as_bytes()));
        let last = f.len() as u64;
        f.extend(record("request", b"two"));
        let at = |inner| Location { offset: 0, inner };
        let ev = events(&gz(&f));
        let records: Vec<(Location, String)> = ev
            .iter()
            .filter_map(|e| e.as_ref().ok())
            .map(|r| (r.0, r.1.clone()))
            .collect();
        assert_eq!(
            records,
            [
                (at(0), "resource".to_string()),
                (at(huge_at), "response".to_string()),
                (at(next), "request".to_string()),
                (at(filler), "metadata".to_string()),
                (at(last), "request".to_string()),
            ]
        );
        assert_eq!(
            ev[2],
            Err((
                at(huge_at),
                format!(
                    "https://c.example/robots.txt: Content-Length 1000000000000 runs past the end \
                     of the gzip member: only {} bytes follow the record's header; found only \
                     after the block was read (a block over {LOOKAHEAD} bytes in a gzip member is \
                     not checked before), so the record was read as its Content-Length says; \
                     reading resumes at the next record, at offset 0+{next}",
                    f.len() as u64 - huge_at - header
                )
            ))
        );
        assert_eq!(ev.len(), 6, "{ev:?}");
        // The same plain: found before, and the record is not handed on.
        let ev = events(&f);
        assert_eq!(ev.len(), 5, "{ev:?}");
        assert_eq!(ev[1].as_ref().unwrap_err().0.offset, huge_at);
        assert_eq!(ev[2].as_ref().unwrap().0.offset, next);
    }
}
