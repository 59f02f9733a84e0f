//! Reading robots.txt input with a bound on memory, shared by `check`, `lint` and `report`.
//!
//! Crawlers stop parsing at 512,000 bytes (RFC 9309 §2.5), so nothing past that changes a
//! decision. The readers here keep at most [`MAX_READ`] bytes, far beyond the parsing limit so
//! that the rules dropped by the limit can still be counted, and record the input's true size
//! when it is known (from the file's metadata). Devices such as `/dev/zero`, pipes (FIFOs) and
//! standard input are read the same way: never more than [`MAX_READ`] + 1 bytes are kept.

use std::io::Read;
use std::path::Path;

/// Largest part of an input that is read and kept, in bytes (16 MiB). Far beyond the parsing
/// limit (512,000 bytes); bytes after it are counted from the file's size when that is known,
/// but not examined.
pub const MAX_READ: u64 = 16 * 1024 * 1024;

/// The start of an input, and what is known about the rest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bounded {
    /// The first bytes of the input: all of it, or the first [`MAX_READ`] bytes.
    pub bytes: Vec<u8>,
    /// The input's size in bytes, when known: the length of a regular file from its metadata
    /// (at least the number of bytes read), or the number of bytes read when the whole input
    /// was read. `None` for a device, pipe or standard input longer than [`MAX_READ`].
    pub size: Option<u64>,
    /// Whether bytes were left unread (the input is longer than [`MAX_READ`]).
    pub truncated: bool,
}

impl Bounded {
    /// Parses the bytes read; when only a prefix was read, the parsed file knows it
    /// (see [`crate::decode::Extent`]), so counts past the read part are reported as partial.
    pub fn parse(&self) -> crate::RobotsTxt {
        if self.truncated {
            crate::RobotsTxt::parse_prefix(&self.bytes, self.size)
        } else {
            crate::RobotsTxt::parse(&self.bytes)
        }
    }
}

/// Reads at most [`MAX_READ`] bytes of the file at `path`.
///
/// Regular files report their size from metadata; other files (devices, FIFOs) are read until
/// end of input or until [`MAX_READ`] bytes are kept, whichever comes first. Opening a FIFO
/// waits for a writer, as any reader of a FIFO does.
///
/// # Errors
/// The I/O error of opening, querying or reading the file.
pub fn read_path(path: &Path) -> std::io::Result<Bounded> {
    read_path_into(path, Vec::new())
}

/// [`read_path`] into `buf`, whose contents are dropped and whose allocation holds the bytes
/// read: a caller reading many files hands back the `bytes` of the last one, so that reading
/// costs no allocation (and touches no fresh memory) once the buffer is large enough.
///
/// # Errors
/// As [`read_path`].
pub fn read_path_into(path: &Path, buf: Vec<u8>) -> std::io::Result<Bounded> {
    let f = std::fs::File::open(path)?;
    let meta = f.metadata()?;
    if meta.is_dir() {
        return Err(std::io::Error::other("is a directory"));
    }
    let known = meta.is_file().then_some(meta.len());
    read_from_into(f, known, buf)
}

/// Reads at most [`MAX_READ`] bytes of standard input.
///
/// # Errors
/// The I/O error of reading.
pub fn read_stdin() -> std::io::Result<Bounded> {
    read_from(std::io::stdin().lock(), None)
}

/// Reads at most [`MAX_READ`] bytes from `reader`. `known_size` is the input's size in bytes
/// when known beforehand (a regular file's length); otherwise one byte more than the limit is
/// read to learn whether the input is longer.
///
/// # Errors
/// The I/O error of reading.
pub fn read_from<R: Read>(reader: R, known_size: Option<u64>) -> std::io::Result<Bounded> {
    read_from_into(reader, known_size, Vec::new())
}

/// [`read_from`] into `buf` (see [`read_path_into`]).
fn read_from_into<R: Read>(
    reader: R,
    known_size: Option<u64>,
    mut bytes: Vec<u8>,
) -> std::io::Result<Bounded> {
    let hint = known_size.unwrap_or(64 * 1024).min(MAX_READ) as usize;
    bytes.clear();
    if bytes.capacity() < hint {
        // Freed before the larger one is taken, and not copied over as growing it would.
        bytes = Vec::new();
    }
    bytes.reserve_exact(hint);
    // A regular file's size is known: read that much and no more, so that a file costs one
    // read call (bytes appended after it was opened are not read). Otherwise one byte past the
    // limit tells whether anything is left; so it does for a size of 0, which files of
    // `/proc` report whatever they hold.
    let take = match known_size {
        Some(n) if n > 0 && n <= MAX_READ => n,
        _ => MAX_READ + 1,
    };
    reader.take(take).read_to_end(&mut bytes)?;
    let over = bytes.len() as u64 > MAX_READ;
    bytes.truncate(MAX_READ as usize);
    let read = bytes.len() as u64;
    let size = match known_size {
        // A file that grew while it was read is at least as long as what was read.
        Some(n) if over => Some(n.max(read + 1)),
        Some(n) => Some(n.max(read)),
        None if over => None,
        None => Some(read),
    };
    let truncated = over || size.is_some_and(|n| n > read);
    Ok(Bounded {
        bytes,
        size,
        truncated,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_input_is_read_whole() {
        let b = read_from(&b"User-agent: *\n"[..], None).unwrap();
        assert_eq!(b.bytes, b"User-agent: *\n");
        assert_eq!(b.size, Some(14));
        assert!(!b.truncated);
    }

    #[test]
    fn endless_input_stops_at_the_limit() {
        let b = read_from(std::io::repeat(b'a'), None).unwrap();
        assert_eq!(b.bytes.len() as u64, MAX_READ);
        assert_eq!(b.size, None);
        assert!(b.truncated);
    }

    #[test]
    fn known_size_is_kept_when_longer_than_the_limit() {
        let b = read_from(std::io::repeat(b'a'), Some(3 << 30)).unwrap();
        assert_eq!(b.bytes.len() as u64, MAX_READ);
        assert_eq!(b.size, Some(3 << 30));
        assert!(b.truncated);
    }

    #[cfg(unix)]
    #[test]
    fn dev_zero_is_bounded() {
        let b = read_path(Path::new("/dev/zero")).unwrap();
        assert_eq!(b.bytes.len() as u64, MAX_READ);
        assert_eq!(b.size, None);
        assert!(b.truncated);
    }

    #[test]
    fn sparse_file_reports_its_metadata_size() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("big.txt");
        let f = std::fs::File::create(&p).unwrap();
        f.set_len(3 << 30).unwrap();
        let b = read_path(&p).unwrap();
        assert_eq!(b.bytes.len() as u64, MAX_READ);
        assert_eq!(b.size, Some(3 << 30));
        assert!(b.truncated);
    }
}
