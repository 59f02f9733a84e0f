//! Input files named on the command line: files as given, directories walked recursively
//! (walkdir, not following symbolic links) for the files [`crate::select`] takes, in a stable,
//! sorted order; `-` is standard input.
//! A WARC file (`.warc`, `.warc.gz`, named or found in a directory) stands for its successful
//! robots.txt captures, each an input named `FILE#URL@DATE`: [`in_chunks`] hands them over as
//! the file is read (see [`crate::warc::each_lint_input`]).

use crate::select::WalkFilter;
use std::path::{Path, PathBuf};

/// One input: a file to read, or an error naming the path that could not be walked.
#[derive(Debug)]
pub enum Input {
    /// A file path.
    File(PathBuf),
    /// Standard input, named `-` on the command line and `<stdin>` in output.
    Stdin,
    /// A path that could not be walked, with the error message.
    Error(PathBuf, String),
    /// A robots.txt capture in a WARC file.
    Capture(Box<crate::warc::CaptureInput>),
}

/// Expands command-line paths into files. Directories contribute the regular files below them
/// that `filter` takes (by default files named like robots.txt files, see [`crate::select`]);
/// a file named directly is always taken; `-` stands for standard input. A directory that
/// holds no such file is an [`Input::Error`] naming it, so that a mistyped path does not pass
/// silently. Output is sorted within each argument and deduplicated.
pub fn expand(paths: &[PathBuf], filter: &WalkFilter) -> Vec<Input> {
    let mut out = Vec::new();
    for p in paths {
        if p.as_os_str() == "-" {
            out.push(Input::Stdin);
            continue;
        }
        match std::fs::metadata(p) {
            Err(e) => out.push(Input::Error(p.clone(), describe_io(&e))),
            Ok(m) if m.is_dir() => {
                let mut files = Vec::new();
                let walk = walkdir::WalkDir::new(p)
                    .follow_links(false)
                    .into_iter()
                    .filter_entry(|e| {
                        e.depth() == 0
                            || !e.file_type().is_dir()
                            || filter.enters_dir(relative(e, p))
                    });
                for entry in walk {
                    match entry {
                        Ok(e) if e.file_type().is_file() && filter.takes_file(relative(&e, p)) => {
                            files.push(Input::File(e.into_path()))
                        }
                        Ok(_) => {}
                        Err(e) => files.push(Input::Error(
                            e.path().map_or_else(|| p.clone(), Path::to_path_buf),
                            e.to_string(),
                        )),
                    }
                }
                sort_as_walked(&mut files);
                if files.is_empty() {
                    out.push(Input::Error(
                        p.clone(),
                        if filter.is_default() {
                            "no robots.txt files in this directory or below it (files named \
`robots.txt`, `*.robots.txt`, `<host>.txt`, `<digest>.txt`, `.warc` or `.warc.gz`; `--include` takes others)"
                                .to_string()
                        } else {
                            "no files matching `--include` in this directory or below it"
                                .to_string()
                        },
                    ));
                }
                out.append(&mut files);
            }
            Ok(_) => out.push(Input::File(p.clone())),
        }
    }
    // One argument cannot name a file twice: a walk yields each path once.
    if paths.len() < 2 {
        return out;
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|i| match i {
        Input::File(p) => seen.insert(p.clone()),
        Input::Stdin => seen.insert(PathBuf::from("-")),
        Input::Error(..) | Input::Capture(_) => true,
    });
    out
}

/// The path of the walked entry `e` relative to the directory walked, `root`: its name when it
/// lies right in `root` (what most walks find, told without comparing the paths component by
/// component).
fn relative<'e>(e: &'e walkdir::DirEntry, root: &Path) -> &'e Path {
    if e.depth() == 1 {
        Path::new(e.file_name())
    } else {
        e.path().strip_prefix(root).unwrap_or(e.path())
    }
}

/// Hands `inputs` to `f` in order, `size` at a time (the last chunk may be shorter, none is
/// empty), with each WARC file replaced by its captures as it is read: the list of a WARC
/// file's captures is never held whole, so memory stays flat however many it has. A WARC file
/// whose temporary files fail is an [`Input::Error`] naming it, after the captures handed over
/// before the failure.
///
/// # Errors
/// The first error `f` returns, which stops the walk.
pub fn in_chunks<E>(
    inputs: Vec<Input>,
    size: usize,
    f: &mut dyn FnMut(&[Input]) -> Result<(), E>,
) -> Result<(), E> {
    let size = size.max(1);
    let mut buf: Vec<Input> = Vec::with_capacity(size);
    let mut push = |buf: &mut Vec<Input>, i: Input| -> Result<(), E> {
        buf.push(i);
        if buf.len() == size {
            f(buf)?;
            buf.clear();
        }
        Ok(())
    };
    for input in inputs {
        match input {
            Input::File(p) if crate::warc::is_warc_name(&p) => {
                let shown = p.display().to_string();
                let mut stopped = None;
                let walked =
                    crate::warc::each_lint_input(&p, &shown, &std::env::temp_dir(), &mut |c| {
                        let i = match c {
                            Ok(c) => Input::Capture(Box::new(c)),
                            Err((name, e)) => Input::Error(PathBuf::from(name), e),
                        };
                        push(&mut buf, i).map_err(|e| {
                            stopped = Some(e);
                            std::io::Error::other("stopped")
                        })
                    });
                if let Some(e) = stopped {
                    return Err(e);
                }
                if let Err(e) = walked {
                    let message = format!("a temporary file failed: {}", describe_io(&e));
                    push(&mut buf, Input::Error(p, message))?;
                }
            }
            other => push(&mut buf, other)?,
        }
    }
    if !buf.is_empty() {
        f(&buf)?;
    }
    Ok(())
}

/// Sorts the inputs found below one directory into the order of a walk that visits each
/// directory's entries sorted by name (what `sort_by_file_name` inside the walk gives), at a
/// fraction of its cost: each path becomes a key with its separators replaced by a NUL byte,
/// which no file name holds and which sorts before every other byte, so comparing keys byte by
/// byte compares the paths component by component.
fn sort_as_walked(files: &mut [Input]) {
    files.sort_by_cached_key(|i| -> Vec<u8> {
        match i {
            Input::File(p) | Input::Error(p, _) => p
                .as_os_str()
                .as_encoded_bytes()
                .iter()
                .map(|&b| {
                    if b < 0x80 && std::path::is_separator(b as char) {
                        0
                    } else {
                        b
                    }
                })
                .collect(),
            Input::Stdin | Input::Capture(_) => Vec::new(),
        }
    });
}

/// Name of standard input in output.
pub const STDIN_NAME: &str = "<stdin>";

/// Reads one input with the bounded reader of [`crate::read`]; returns its display name
/// (the path as given, or `<stdin>`) and the bytes read.
///
/// # Errors
/// `(name, message)` when the input could not be walked or read.
pub fn read(input: &Input) -> Result<(String, crate::read::Bounded), (String, String)> {
    read_into(input, Vec::new())
}

/// [`read`], a file into `buf` (see [`crate::read::read_path_into`]; standard input and WARC
/// captures are read into buffers of their own).
///
/// # Errors
/// As [`read`].
pub fn read_into(
    input: &Input,
    buf: Vec<u8>,
) -> Result<(String, crate::read::Bounded), (String, String)> {
    match input {
        Input::Error(p, e) => Err((display(p), e.clone())),
        Input::File(p) => crate::read::read_path_into(p, buf)
            .map(|b| (display(p), b))
            .map_err(|e| (display(p), describe_io(&e))),
        Input::Stdin => crate::read::read_stdin()
            .map(|b| (STDIN_NAME.to_string(), b))
            .map_err(|e| (STDIN_NAME.to_string(), describe_io(&e))),
        Input::Capture(c) => c
            .read()
            .map(|b| (c.name.clone(), b))
            .map_err(|e| (c.name.clone(), e)),
    }
}

/// A path as shown in output: its display form (bytes that are not UTF-8 replaced), made
/// without the formatting machinery that `display().to_string()` goes through.
fn display(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// The URI form of an input's path, keeping every byte of the name (see
/// [`crate::output::sarif::path_uri`]); `None` for standard input.
pub fn uri(input: &Input) -> Option<String> {
    match input {
        Input::File(p) | Input::Error(p, _) => Some(crate::output::sarif::path_uri(p)),
        Input::Capture(c) => Some(crate::output::sarif::path_uri(&c.path)),
        Input::Stdin => None,
    }
}

/// The `--include` and `--exclude` flags of the commands that walk directories.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct WalkArgs {
    /// Read the files below a directory that match this glob instead of the default names
    /// (`robots.txt`, `*.robots.txt`, `<host>.txt`, `<digest>.txt`). A glob with a `/` is
    /// matched against the path relative to the directory given, one without also against the
    /// file name; `**` crosses folders. Repeat for several.
    #[arg(long, value_name = "GLOB")]
    pub include: Vec<String>,
    /// Skip the files and folders below a directory that match this glob (as `--include`
    /// matches). Repeat for several.
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
}

impl WalkArgs {
    /// The filter these flags describe.
    ///
    /// # Errors
    /// A message naming a glob that is not valid.
    pub fn filter(&self) -> Result<WalkFilter, String> {
        WalkFilter::new(&self.include, &self.exclude)
    }
}

/// The input among `inputs` that is the same file as `output`, if `output` exists and is one:
/// writing the output there would destroy that input before it is read. Compared by canonical
/// path (symbolic links and `..` resolved); inputs that cannot be resolved are skipped.
pub fn clobbered_input<'a>(output: &Path, inputs: &'a [Input]) -> Option<&'a Path> {
    let target = std::fs::canonicalize(output).ok()?;
    inputs.iter().find_map(|i| match i {
        Input::File(p) if std::fs::canonicalize(p).is_ok_and(|c| c == target) => Some(p.as_path()),
        _ => None,
    })
}

/// An I/O error in words, naming a symbolic link loop as such.
pub fn describe_io(e: &std::io::Error) -> String {
    if e.raw_os_error() == Some(ELOOP) {
        return format!("a loop of symbolic links: the link leads back to itself ({e})");
    }
    e.to_string()
}

/// Says on standard error that `command`'s output could not be written (a full disk, a closed
/// file), unless the reader went away (a broken pipe, as `| head` does), which needs no words.
pub fn report_write_error(command: &str, e: &std::io::Error) {
    if e.kind() != std::io::ErrorKind::BrokenPipe {
        crate::eprintln_lossy!(
            "robots-explorer {command}: cannot write the output: {}",
            describe_io(e)
        );
    }
}

/// `ELOOP`, "too many levels of symbolic links" (40 on Linux, 62 on macOS and the BSDs).
#[cfg(target_os = "linux")]
const ELOOP: i32 = 40;
#[cfg(not(target_os = "linux"))]
const ELOOP: i32 = 62;
