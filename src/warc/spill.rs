//! Spill files of the WARC reading: what [`super::collect`] keeps of captures on disk instead
//! of in memory, so that memory stays bounded whatever the number of captures.
//!
//! Every file here is an anonymous temporary file (it vanishes with the process and is never
//! part of a site). Three shapes:
//!
//! - [`Spill`]: length-prefixed records written once, front to back, then read back front to
//!   back any number of times ([`Spill::reader`]);
//! - [`Sorter`]: an external sort of (key, value) records by key bytes: records are kept until
//!   a byte budget is reached, then sorted and written as a run; [`Sorter::finish`] merges the
//!   runs;
//! - [`HostStore`]: the hosts' captures, one record per host, read again by place when the
//!   host is processed.
//!
//! Records are encoded with [`Enc`] and read with [`Dec`] (little-endian integers,
//! length-prefixed strings); a record that does not decode is an I/O error of kind
//! `InvalidData`.

use super::reader::Location;
use super::{Capture, HostCaptures, Kind, WarcFile};
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

fn damaged() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        "a temporary file of the WARC reading does not read back",
    )
}

/// Methods of [`Enc`] that append an integer of each type, little-endian.
macro_rules! le_bytes {
    ($($t:ident),*) => {$(
        pub(crate) fn $t(&mut self, v: $t) -> &mut Self {
            self.0.extend_from_slice(&v.to_le_bytes());
            self
        }
    )*};
}

/// A record being encoded.
#[derive(Default)]
pub(crate) struct Enc(pub(crate) Vec<u8>);

impl Enc {
    pub(crate) fn clear(&mut self) -> &mut Self {
        self.0.clear();
        self
    }
    pub(crate) fn u8(&mut self, v: u8) -> &mut Self {
        self.0.push(v);
        self
    }
    le_bytes!(u16, u32, u64, u128);
    pub(crate) fn str(&mut self, v: &str) -> &mut Self {
        self.u32(v.len() as u32);
        self.0.extend_from_slice(v.as_bytes());
        self
    }
    pub(crate) fn loc(&mut self, v: Location) -> &mut Self {
        self.u64(v.offset).u64(v.inner)
    }
    /// A flag byte, then `f(v)` when `v` is some.
    pub(crate) fn opt<T>(&mut self, v: Option<T>, f: impl FnOnce(&mut Self, T)) -> &mut Self {
        match v {
            None => self.u8(0),
            Some(v) => {
                self.u8(1);
                f(self, v);
                self
            }
        }
    }
    /// A date in Unix seconds, if any.
    pub(crate) fn time(&mut self, v: Option<i64>) -> &mut Self {
        self.opt(v, |e, t| {
            e.u64(t as u64);
        })
    }
    /// A string, if any.
    pub(crate) fn text(&mut self, v: Option<&str>) -> &mut Self {
        self.opt(v, |e, t| {
            e.str(t);
        })
    }
    /// A key (see [`super::key`]), if any.
    pub(crate) fn key(&mut self, v: Option<u128>) -> &mut Self {
        self.opt(v, |e, k| {
            e.u128(k);
        })
    }
    /// An HTTP status, if any.
    pub(crate) fn status(&mut self, v: Option<u16>) -> &mut Self {
        self.opt(v, |e, s| {
            e.u16(s);
        })
    }
    pub(crate) fn capture(&mut self, c: &Capture) -> &mut Self {
        self.u32(c.file)
            .loc(c.at)
            .opt(c.payload, |e, p| {
                e.loc(p);
            })
            .u8(match c.kind {
                Kind::Response => 0,
                Kind::Revisit => 1,
                Kind::NoResponse => 2,
            })
            .str(&c.url)
            .time(c.time)
            .text(c.date_raw.as_deref())
            .status(c.status)
            .text(c.location.as_deref())
    }
}

/// A record being decoded.
pub(crate) struct Dec<'a>(pub(crate) &'a [u8]);

impl<'a> Dec<'a> {
    fn take<const N: usize>(&mut self) -> io::Result<[u8; N]> {
        let (head, rest) = self.0.split_first_chunk::<N>().ok_or_else(damaged)?;
        self.0 = rest;
        Ok(*head)
    }
    pub(crate) fn u8(&mut self) -> io::Result<u8> {
        Ok(self.take::<1>()?[0])
    }
    pub(crate) fn u16(&mut self) -> io::Result<u16> {
        self.take().map(u16::from_le_bytes)
    }
    pub(crate) fn u32(&mut self) -> io::Result<u32> {
        self.take().map(u32::from_le_bytes)
    }
    pub(crate) fn u64(&mut self) -> io::Result<u64> {
        self.take().map(u64::from_le_bytes)
    }
    pub(crate) fn u128(&mut self) -> io::Result<u128> {
        self.take().map(u128::from_le_bytes)
    }
    pub(crate) fn str(&mut self) -> io::Result<&'a str> {
        let n = self.u32()? as usize;
        if self.0.len() < n {
            return Err(damaged());
        }
        let (s, rest) = self.0.split_at(n);
        self.0 = rest;
        std::str::from_utf8(s).map_err(|_| damaged())
    }
    pub(crate) fn loc(&mut self) -> io::Result<Location> {
        Ok(Location {
            offset: self.u64()?,
            inner: self.u64()?,
        })
    }
    /// What [`Enc::opt`] wrote.
    pub(crate) fn opt<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> io::Result<T>,
    ) -> io::Result<Option<T>> {
        match self.u8()? {
            0 => Ok(None),
            1 => f(self).map(Some),
            _ => Err(damaged()),
        }
    }
    /// What [`Enc::time`] wrote.
    pub(crate) fn time(&mut self) -> io::Result<Option<i64>> {
        self.opt(|d| d.u64().map(|t| t as i64))
    }
    /// What [`Enc::text`] wrote.
    pub(crate) fn text(&mut self) -> io::Result<Option<Box<str>>> {
        self.opt(|d| d.str().map(Box::from))
    }
    /// What [`Enc::key`] wrote.
    pub(crate) fn key(&mut self) -> io::Result<Option<u128>> {
        self.opt(Dec::u128)
    }
    /// What [`Enc::status`] wrote.
    pub(crate) fn status(&mut self) -> io::Result<Option<u16>> {
        self.opt(Dec::u16)
    }
    pub(crate) fn capture(&mut self) -> io::Result<Capture> {
        Ok(Capture {
            file: self.u32()?,
            at: self.loc()?,
            payload: self.opt(Dec::loc)?,
            kind: match self.u8()? {
                0 => Kind::Response,
                1 => Kind::Revisit,
                2 => Kind::NoResponse,
                _ => return Err(damaged()),
            },
            url: self.str()?.into(),
            time: self.time()?,
            date_raw: self.text()?,
            status: self.status()?,
            location: self.text()?,
        })
    }
}

/// Length-prefixed records in an anonymous temporary file: written front to back, then read
/// back front to back (once all are written) as often as needed.
pub(crate) struct Spill {
    w: BufWriter<File>,
    len: u64,
}

impl Spill {
    /// An empty spill file in `dir`.
    pub(crate) fn new(dir: &Path) -> io::Result<Spill> {
        Ok(Spill {
            w: BufWriter::with_capacity(1 << 16, tempfile::tempfile_in(dir)?),
            len: 0,
        })
    }

    /// Appends a record.
    pub(crate) fn push(&mut self, rec: &[u8]) -> io::Result<()> {
        let n = u32::try_from(rec.len()).map_err(|_| io::Error::other("a record too large"))?;
        self.w.write_all(&n.to_le_bytes())?;
        self.w.write_all(rec)?;
        self.len += 1;
        Ok(())
    }

    /// Records written.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// A reader of the records from the first; no record is to be pushed while it reads.
    pub(crate) fn reader(&mut self) -> io::Result<Records> {
        self.w.flush()?;
        let mut f = self.w.get_ref().try_clone()?;
        f.seek(SeekFrom::Start(0))?;
        Ok(Records {
            r: BufReader::with_capacity(1 << 16, f),
            buf: Vec::new(),
        })
    }
}

/// The records of a [`Spill`], in order.
pub(crate) struct Records {
    r: BufReader<File>,
    buf: Vec<u8>,
}

impl Records {
    /// The next record; `None` after the last.
    pub(crate) fn next(&mut self) -> io::Result<Option<&[u8]>> {
        let mut n = [0u8; 4];
        match self.r.read_exact(&mut n) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
            Err(e) => return Err(e),
        }
        self.buf.resize(u32::from_le_bytes(n) as usize, 0);
        self.r.read_exact(&mut self.buf)?;
        Ok(Some(&self.buf))
    }
}

/// An external sort of (key, value) records by their key bytes (keys are distinct, or equal
/// keys come out in an unspecified order).
pub(crate) struct Sorter {
    dir: PathBuf,
    budget: usize,
    buf: Vec<u8>,
    /// Per record: where it starts in `buf`, its key's and value's lengths.
    recs: Vec<(usize, u32, u32)>,
    runs: Vec<Spill>,
}

impl Sorter {
    /// A sorter that keeps about `budget` bytes of records in memory, spilling runs to `dir`.
    pub(crate) fn new(dir: &Path, budget: usize) -> Sorter {
        Sorter {
            dir: dir.to_path_buf(),
            budget,
            buf: Vec::new(),
            recs: Vec::new(),
            runs: Vec::new(),
        }
    }

    /// Adds a record.
    pub(crate) fn push(&mut self, key: &[u8], value: &[u8]) -> io::Result<()> {
        if !self.recs.is_empty() && self.buf.len() + key.len() + value.len() > self.budget {
            self.spill_run()?;
        }
        self.recs
            .push((self.buf.len(), key.len() as u32, value.len() as u32));
        self.buf.extend_from_slice(key);
        self.buf.extend_from_slice(value);
        Ok(())
    }

    fn sort(&mut self) {
        let buf = &self.buf;
        self.recs
            .sort_by(|a, b| buf[a.0..a.0 + a.1 as usize].cmp(&buf[b.0..b.0 + b.1 as usize]));
    }

    fn spill_run(&mut self) -> io::Result<()> {
        self.sort();
        let mut run = Spill::new(&self.dir)?;
        let mut rec = Vec::new();
        for &(at, k, v) in &self.recs {
            rec.clear();
            rec.extend_from_slice(&k.to_le_bytes());
            rec.extend_from_slice(&self.buf[at..at + (k + v) as usize]);
            run.push(&rec)?;
        }
        self.runs.push(run);
        self.buf = Vec::new();
        self.recs = Vec::new();
        Ok(())
    }

    /// The records in key order.
    pub(crate) fn finish(mut self) -> io::Result<Sorted> {
        if self.runs.is_empty() {
            self.sort();
            return Ok(Sorted::Memory {
                buf: self.buf,
                recs: self.recs.into_iter(),
            });
        }
        if !self.recs.is_empty() {
            self.spill_run()?;
        }
        let mut readers = Vec::with_capacity(self.runs.len());
        let mut heap = BinaryHeap::new();
        for (i, run) in self.runs.iter_mut().enumerate() {
            let mut r = run.reader()?;
            if let Some(head) = split_run_record(r.next()?)? {
                heap.push(std::cmp::Reverse((head, i)));
            }
            readers.push(r);
        }
        Ok(Sorted::Runs {
            readers,
            heap,
            _runs: self.runs,
        })
    }
}

/// A run's record as (key, value).
fn split_run_record(rec: Option<&[u8]>) -> io::Result<Option<(Vec<u8>, Vec<u8>)>> {
    let Some(rec) = rec else { return Ok(None) };
    let mut d = Dec(rec);
    let k = d.u32()? as usize;
    if d.0.len() < k {
        return Err(damaged());
    }
    let (key, value) = d.0.split_at(k);
    Ok(Some((key.to_vec(), value.to_vec())))
}

/// A run's next record and the run's index, for the merge (least key first).
type RunHead = std::cmp::Reverse<((Vec<u8>, Vec<u8>), usize)>;

/// The records of a [`Sorter`], in key order.
pub(crate) enum Sorted {
    /// All records fitted in memory.
    Memory {
        buf: Vec<u8>,
        recs: std::vec::IntoIter<(usize, u32, u32)>,
    },
    /// A merge of sorted runs.
    Runs {
        readers: Vec<Records>,
        heap: BinaryHeap<RunHead>,
        _runs: Vec<Spill>,
    },
}

impl Sorted {
    /// The next (key, value); `None` after the last.
    pub(crate) fn next(&mut self) -> io::Result<Option<(Vec<u8>, Vec<u8>)>> {
        match self {
            Sorted::Memory { buf, recs } => Ok(recs.next().map(|(at, k, v)| {
                let k_end = at + k as usize;
                (
                    buf[at..k_end].to_vec(),
                    buf[k_end..k_end + v as usize].to_vec(),
                )
            })),
            Sorted::Runs { readers, heap, .. } => {
                let Some(std::cmp::Reverse((head, i))) = heap.pop() else {
                    return Ok(None);
                };
                if let Some(next) = split_run_record(readers[i].next()?)? {
                    heap.push(std::cmp::Reverse((next, i)));
                }
                Ok(Some(head))
            }
        }
    }
}

/// The hosts' captures, one record per host in an anonymous temporary file, read again by
/// place ([`HostStore::get`]) when a host is processed.
#[derive(Debug)]
pub struct HostStore {
    file: Mutex<File>,
    /// Where each host's record starts, in bytes.
    offsets: Vec<u64>,
    /// The WARC files the captures lie in.
    files: Arc<Vec<WarcFile>>,
}

/// Writes a [`HostStore`].
pub(crate) struct HostStoreWriter {
    w: BufWriter<File>,
    pos: u64,
    offsets: Vec<u64>,
    enc: Enc,
}

impl HostStoreWriter {
    /// An empty store in `dir`.
    pub(crate) fn new(dir: &Path) -> io::Result<HostStoreWriter> {
        Ok(HostStoreWriter {
            w: BufWriter::with_capacity(1 << 16, tempfile::tempfile_in(dir)?),
            pos: 0,
            offsets: Vec::new(),
            enc: Enc::default(),
        })
    }

    /// Appends a host; its place is the number of hosts before it.
    pub(crate) fn push(&mut self, h: &HostCaptures) -> io::Result<()> {
        let e = self.enc.clear();
        e.u32(0)
            .str(&h.host)
            .u8(u8::from(h.scheme == "https"))
            .u64(h.older)
            .u32(h.chains.len() as u32);
        for c in &h.chains {
            e.u32(c.len() as u32);
            for cap in c {
                e.capture(cap);
            }
        }
        let n = (e.0.len() - 4) as u32;
        e.0[..4].copy_from_slice(&n.to_le_bytes());
        self.w.write_all(&e.0)?;
        self.offsets.push(self.pos);
        self.pos += e.0.len() as u64;
        Ok(())
    }

    /// The store, ready to be read.
    pub(crate) fn finish(self, files: Arc<Vec<WarcFile>>) -> io::Result<HostStore> {
        let mut offsets = self.offsets;
        offsets.shrink_to_fit();
        Ok(HostStore {
            file: Mutex::new(self.w.into_inner().map_err(|e| e.into_error())?),
            offsets,
            files,
        })
    }
}

impl HostStore {
    /// The number of hosts.
    pub fn len(&self) -> usize {
        self.offsets.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }

    /// The WARC files of the collection.
    pub fn files(&self) -> &Arc<Vec<WarcFile>> {
        &self.files
    }

    /// The captures of host `i` (`i < len()`), read again.
    ///
    /// # Errors
    /// The I/O error of reading the temporary file back (or `InvalidData` when it does not
    /// decode).
    pub fn get(&self, i: usize) -> io::Result<HostCaptures> {
        let at = *self.offsets.get(i).ok_or_else(damaged)?;
        let bytes = {
            let mut f = self.file.lock().unwrap_or_else(|e| e.into_inner());
            f.seek(SeekFrom::Start(at))?;
            let mut n = [0u8; 4];
            f.read_exact(&mut n)?;
            let mut bytes = vec![0u8; u32::from_le_bytes(n) as usize];
            f.read_exact(&mut bytes)?;
            bytes
        };
        let mut d = Dec(&bytes);
        let host = d.str()?.to_string();
        let scheme = if d.u8()? == 1 { "https" } else { "http" };
        let older = d.u64()?;
        let n = d.u32()? as usize;
        let mut chains = Vec::with_capacity(n.min(bytes.len()));
        for _ in 0..n {
            let m = d.u32()? as usize;
            let mut chain = Vec::with_capacity(m.min(bytes.len()));
            for _ in 0..m {
                chain.push(d.capture()?);
            }
            chains.push(chain);
        }
        Ok(HostCaptures {
            host,
            scheme,
            chains,
            older,
            files: self.files.clone(),
        })
    }
}
