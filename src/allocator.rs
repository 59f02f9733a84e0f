//! The allocator of the `robots-explorer` binary: mimalloc, and how long it keeps freed memory.
//!
//! A report allocates and frees many small strings and vectors per host on every worker
//! thread. On the corpus (4,374 hosts, one run per allocator, 2 cores) mimalloc took about 15%
//! less CPU than glibc's allocator. It keeps freed memory for reuse for a while before handing
//! it back to the system (its purge delay, 1,000 ms by default); for long runs [`tune`] shortens
//! that to [`PURGE_DELAY_MS`], which keeps most of the gain while resident memory stays close to
//! glibc's. Transparent huge pages are left out (the `no_thp` feature of `libmimalloc-sys`): with them, a
//! partly used 2 MiB page counts whole.

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// mimalloc as the global allocator, taking its plain entry points (`mi_malloc`, `mi_zalloc`,
/// `mi_realloc`) for the alignments every block has anyway, and the aligned ones
/// (`mi_malloc_aligned`…) only for larger alignments. The `mimalloc` crate's allocator always
/// takes the aligned entry points, whose extra checks cost about 3% of `lint`'s instructions.
///
/// Every mimalloc block is aligned to at least a machine word: its size classes are whole
/// words and its pages start aligned (`MI_INTPTR_SIZE` in mimalloc's `types.h`), which is the
/// guarantee [`WORD_ALIGN`] relies on.
pub struct Mimalloc;

/// The alignment, in bytes, that every block `mi_malloc` returns has.
const WORD_ALIGN: usize = std::mem::size_of::<usize>();

// SAFETY: every path returns memory from mimalloc that is aligned to at least
// `layout.align()` (plain entry points only when that is at most a word, see [`WORD_ALIGN`]),
// or null on failure; `mi_free` takes blocks from any of them.
unsafe impl GlobalAlloc for Mimalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: plain FFI calls; the alignment is a power of two (a `Layout` invariant).
        unsafe {
            if layout.align() <= WORD_ALIGN {
                libmimalloc_sys::mi_malloc(layout.size()) as *mut u8
            } else {
                libmimalloc_sys::mi_malloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as in `alloc`.
        unsafe {
            if layout.align() <= WORD_ALIGN {
                libmimalloc_sys::mi_zalloc(layout.size()) as *mut u8
            } else {
                libmimalloc_sys::mi_zalloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` came from this allocator, so from mimalloc.
        unsafe { libmimalloc_sys::mi_free(ptr as *mut c_void) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from this allocator with `layout`; a block moved by `mi_realloc`
        // keeps the word alignment of every mimalloc block.
        unsafe {
            if layout.align() <= WORD_ALIGN {
                libmimalloc_sys::mi_realloc(ptr as *mut c_void, new_size) as *mut u8
            } else {
                libmimalloc_sys::mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align())
                    as *mut u8
            }
        }
    }
}

/// The number of `mi_option_purge_delay` in mimalloc's `mi_option_e` (mimalloc.h, version 3;
/// the Rust bindings do not name it). A test checks that it is the option whose default is
/// 1,000 ms.
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// How long, in milliseconds, mimalloc keeps freed memory before handing it back. A 100,000-
/// capture WARC report peaked at 111 MiB resident with mimalloc's default of 1,000 ms, at 88 MiB
/// with 100 ms and at 80 MiB with glibc's allocator.
pub const PURGE_DELAY_MS: i64 = 100;

/// Sets mimalloc's purge delay to [`PURGE_DELAY_MS`] for a run that holds many hosts' results
/// for a long time (`long_run`: `report`, `build`, `guide`), unless the environment sets it
/// (`MIMALLOC_PURGE_DELAY`, as mimalloc documents). Other commands keep mimalloc's default:
/// `lint` of the corpus holds one chunk of files at a time (about 50 MiB), and with the short
/// delay it gave back and faulted in again about 200 MiB, twice the page faults and about
/// 0.04 s more system time than with the default. Call it first thing in `main`, before any
/// thread is started.
pub fn tune(long_run: bool) {
    if long_run && std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: `mi_option_set` only stores an option value; it is called before any other
        // thread exists, as mimalloc asks (setting options is not thread safe).
        unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, PURGE_DELAY_MS as _) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_have_the_alignment_asked_for() {
        let a = Mimalloc;
        for size in [1usize, 7, 8, 9, 24, 40, 1000, 70_000, 3 << 20] {
            for align in [1usize, 2, 4, 8, 16, 32, 64, 4096] {
                let layout = Layout::from_size_align(size, align).unwrap();
                // SAFETY: non-zero sizes; each block is freed once, with its layout.
                unsafe {
                    let p = a.alloc(layout);
                    assert!(!p.is_null() && p as usize % align == 0, "{size} {align}");
                    let z = a.alloc_zeroed(layout);
                    assert!(z as usize % align == 0 && (0..size).all(|i| *z.add(i) == 0));
                    let r = a.realloc(p, layout, size * 3 + 5);
                    assert!(
                        !r.is_null() && r as usize % align == 0,
                        "{size} {align} realloc"
                    );
                    a.dealloc(r, Layout::from_size_align(size * 3 + 5, align).unwrap());
                    a.dealloc(z, layout);
                }
            }
        }
    }

    #[test]
    fn the_purge_delay_option_is_the_one_meant() {
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
            return;
        }
        // SAFETY: reading an option has no preconditions.
        let default = unsafe { libmimalloc_sys::mi_option_get(PURGE_DELAY) };
        assert_eq!(
            default, 1000,
            "mi_option_purge_delay's default, in milliseconds"
        );
    }
}
