//! The allocator of the `robots-explorer` binary: mimalloc, its version 2.
//!
//! A report allocates and frees many small strings and vectors per host on every worker
//! thread. On the corpus (4,374 hosts, one run per allocator, 2 cores) mimalloc took about 15%
//! less CPU than glibc's allocator. Of mimalloc's two maintained versions, the `libmimalloc-sys`
//! crate builds version 3 unless asked for version 2 (its `v2` feature). Version 2 hands freed
//! memory back sooner (a purge delay of 10 ms, 100 ms for its arenas, against version 3's
//! 1,000 ms) and reuses it with fewer fresh pages: in interleaved runs on this machine, the
//! corpus report faulted in 17,000–19,000 pages instead of 38,000–41,000 and took 0.86–0.87 s
//! wall instead of 0.91–1.12 s, at the same resident memory (80–87 MiB); a 43,740-host report
//! peaked at 109 instead of 113 MiB with a tenth of the page faults; `lint` of the corpus on
//! one thread used 36 instead of 60 MiB and 0.54–0.56 instead of 0.55–0.57 s of CPU.
//! Transparent huge pages are left out (the `no_thp` feature): with them, a partly used 2 MiB
//! page counts whole.

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
}
