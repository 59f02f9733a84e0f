//! Hosts processed side by side and handed on in host order, a chunk at a time, without a
//! barrier between chunks.
//!
//! Every worker of the thread pool takes the next host as soon as it is free, so one slow host
//! (a file of megabytes) holds up only its own worker: the others go on with the hosts after
//! it. The calling thread takes the processed hosts back in order as they come, [`GRAIN`] or
//! more at a time, and hands each run of [`HOST_CHUNK`] to the caller while the workers go on.
//! Memory stays bounded: a worker does not start a host more than [`WINDOW`] places past the
//! first host not yet taken back, so at most a window of hosts in flight and a chunk taken back
//! are held, as many as two chunks processed side by side would hold.

use super::{Context, Done, HOST_CHUNK, Progress, ReportError, Writer, discover, host};
use std::sync::{Condvar, Mutex, MutexGuard};

/// How far past the first host not yet taken back a worker may start a host.
const WINDOW: usize = HOST_CHUNK;

/// How many hosts, in order, the calling thread waits for before it takes them back (fewer at
/// the end): waking it for every host would cost a system call each.
const GRAIN: usize = 64;

/// The hosts in flight, guarded by [`Shared::state`].
struct State {
    /// The number `k` of the next host to start.
    next: usize,
    /// How many hosts, in order, have been taken back.
    taken: usize,
    /// How many hosts, in order from the first, are processed: slots `taken..ready` are
    /// filled.
    ready: usize,
    /// The `ready` the calling thread waits for, when it waits.
    wanted: usize,
    /// Slot `k % WINDOW` holds host `k` from when it is processed until it is taken back.
    slots: Vec<Option<Done>>,
    /// The first error met; no host is started after it.
    error: Option<ReportError>,
    /// Set when the run stops early (an error, a worker that panicked).
    stopped: bool,
}

/// What the workers and the calling thread share.
struct Shared {
    state: Mutex<State>,
    /// Signalled when a worker may start its next host or should stop.
    room: Condvar,
    /// Signalled when the hosts the calling thread waits for ([`State::wanted`]) are
    /// processed, or the run stopped.
    ready: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stops the run, keeping `error` when it is the first, and wakes everyone who waits.
    fn stop(&self, error: Option<ReportError>) {
        let mut s = self.lock();
        s.stopped = true;
        if s.error.is_none() {
            s.error = error;
        }
        drop(s);
        self.room.notify_all();
        self.ready.notify_all();
    }
}

/// Stops the run when a worker unwinds, so that nobody waits for its host.
struct StopOnPanic<'a>(&'a Shared);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.stop(None);
        }
    }
}

/// Writes the page of `n` hosts of `hosts` on the thread pool, the `k`-th being the host at
/// place `place(k)` of the run's host order, and hands them, processed and in order of `k`, to
/// `take` in runs of [`HOST_CHUNK`] (fewer in the last). Pages are not yet listed in the
/// manifest: `take` does that.
///
/// The calling thread waits for the workers, so it must not be one of the pool's own.
///
/// # Errors
/// The first error of `take`, or [`ReportError::Output`] when a page cannot be written, or
/// [`ReportError::Input`] when the list of hosts cannot be read back; no host is started after
/// it.
pub(super) fn process_hosts(
    hosts: &discover::Hosts,
    (n, place): (usize, impl Fn(usize) -> usize + Sync),
    ctx: &Context,
    w: &Writer,
    progress: &dyn Progress,
    mut take: impl FnMut(Vec<Done>) -> Result<(), ReportError>,
) -> Result<(), ReportError> {
    debug_assert!(rayon::current_thread_index().is_none());
    let shared = Shared {
        state: Mutex::new(State {
            next: 0,
            taken: 0,
            ready: 0,
            wanted: 0,
            slots: (0..WINDOW.min(n)).map(|_| None).collect(),
            error: None,
            stopped: false,
        }),
        room: Condvar::new(),
        ready: Condvar::new(),
    };
    let worker = || {
        let _guard = StopOnPanic(&shared);
        while let Some(k) = next_host(&shared, n) {
            let at = place(k);
            let done = hosts
                .input(at)
                .map_err(super::hosts_error)
                .and_then(|h| process_one(at, &h, ctx, w));
            progress.host_done();
            match done {
                Ok(d) => finished(&shared, n, k, d),
                Err(e) => shared.stop(Some(e)),
            }
        }
    };
    std::thread::scope(|s| {
        let workers = s.spawn(|| {
            let worker = &worker;
            rayon::scope(|scope| {
                for _ in 0..rayon::current_num_threads() {
                    scope.spawn(move |_| worker());
                }
            });
        });
        let res = take_in_order(&shared, n, &mut take);
        if let Err(e) = res {
            shared.stop(Some(e));
        }
        // Workers end once the run stopped or every host was started; one that panicked
        // passes its panic on here.
        if let Err(panic) = workers.join() {
            std::panic::resume_unwind(panic);
        }
        match shared.lock().error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    })
}

/// The index of the next host for a worker to start, once it is within [`WINDOW`] of the
/// first host not taken back; `None` when every host was started or the run stopped.
fn next_host(shared: &Shared, n: usize) -> Option<usize> {
    let mut s = shared.lock();
    loop {
        if s.stopped || s.next >= n {
            return None;
        }
        if s.next < s.taken + WINDOW {
            s.next += 1;
            return Some(s.next - 1);
        }
        s = shared.room.wait(s).unwrap_or_else(|e| e.into_inner());
    }
}

/// Puts host `k`, processed, in its slot, and wakes the calling thread when the hosts it waits
/// for are processed.
fn finished(shared: &Shared, n: usize, k: usize, d: Done) {
    let mut s = shared.lock();
    s.slots[k % WINDOW] = Some(d);
    let before = s.ready;
    while s.ready < n && s.ready < s.taken + WINDOW && s.slots[s.ready % WINDOW].is_some() {
        s.ready += 1;
    }
    let woke = before < s.wanted && s.ready >= s.wanted;
    drop(s);
    if woke {
        shared.ready.notify_one();
    }
}

/// Takes the processed hosts back in order as they come, and hands them to `take` a chunk at a
/// time while the workers go on; returns when every host was taken back or the run stopped.
fn take_in_order(
    shared: &Shared,
    n: usize,
    take: &mut impl FnMut(Vec<Done>) -> Result<(), ReportError>,
) -> Result<(), ReportError> {
    let mut chunk = Vec::with_capacity(HOST_CHUNK.min(n));
    let mut taken = 0;
    while taken < n {
        let mut s = shared.lock();
        // The end of the chunk, or the next GRAIN hosts, whichever comes first.
        let chunk_end = taken - chunk.len() + HOST_CHUNK.min(n - (taken - chunk.len()));
        s.wanted = (taken + GRAIN).min(chunk_end);
        while !s.stopped && s.ready < s.wanted {
            s = shared.ready.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        if s.stopped {
            return Ok(());
        }
        let end = s.ready.min(chunk_end);
        chunk.extend((taken..end).filter_map(|k| s.slots[k % WINDOW].take()));
        taken = end;
        s.taken = taken;
        drop(s);
        shared.room.notify_all();
        if taken == chunk_end {
            let rest = HOST_CHUNK.min(n - taken);
            take(std::mem::replace(&mut chunk, Vec::with_capacity(rest)))?;
        }
    }
    Ok(())
}

/// Writes the page of one host (the host at `place` of the run's host order).
fn process_one(
    place: usize,
    h: &discover::HostInput,
    ctx: &Context,
    w: &Writer,
) -> Result<Done, ReportError> {
    let rel = format!("hosts/{}.html", h.page_stem());
    let path = w.root.join(&rel);
    // The file is created at the first byte: a host without a page leaves none.
    let mut out = super::Counting {
        inner: super::LazyFile {
            path: &path,
            file: None,
        },
        bytes: 0,
    };
    let row = host::process_into(h, ctx, &mut out)
        .and_then(|row| std::io::Write::flush(&mut out).map(|()| row))
        .map_err(|e| ReportError::Output(format!("{}: {e}", path.display())))?;
    Ok(Done {
        place,
        row,
        page: out.inner.file.is_some().then_some((rel, out.bytes)),
    })
}
