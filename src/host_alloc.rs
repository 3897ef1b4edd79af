//! The process's allocator: the system's, except that blocks of 4 MiB and more (array data)
//! are mapped directly, aligned to 2 MiB and marked for transparent huge pages, and grow in
//! place with `mremap`. A fresh 80 MB array then costs 40 page faults instead of 20,000 (most
//! of an elementwise operation's time on the host was the kernel faulting in 4 KiB pages),
//! and `x(end+1) = v` growth past 4 MiB moves no data. NumPy asks for huge pages the same way.

use std::alloc::{GlobalAlloc, Layout, System};

pub struct HostAlloc;

/// Blocks from this size on are mapped directly.
const LARGE: usize = 4 << 20;
/// The huge page size the mappings are aligned to.
const HUGE: usize = 2 << 20;
const PAGE: usize = 4096;

fn mapped(l: &Layout) -> bool {
    l.size() >= LARGE && l.align() <= PAGE
}

fn round(n: usize) -> usize {
    (n + PAGE - 1) & !(PAGE - 1)
}

/// A fresh zeroed mapping of `size` bytes starting on a huge page, or null.
unsafe fn map(size: usize) -> *mut u8 {
    let len = round(size);
    let Some(total) = len.checked_add(HUGE) else {
        return std::ptr::null_mut();
    };
    // SAFETY: an anonymous private mapping; the parts outside the aligned range are unmapped
    // at once, so the caller owns exactly [aligned, aligned + len).
    unsafe {
        let p = libc::mmap(
            std::ptr::null_mut(),
            total,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        );
        if p == libc::MAP_FAILED {
            return std::ptr::null_mut();
        }
        let start = p as usize;
        let aligned = (start + HUGE - 1) & !(HUGE - 1);
        if aligned > start {
            libc::munmap(p, aligned - start);
        }
        let tail = start + total - (aligned + len);
        if tail > 0 {
            libc::munmap((aligned + len) as *mut libc::c_void, tail);
        }
        libc::madvise(aligned as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
        aligned as *mut u8
    }
}

unsafe impl GlobalAlloc for HostAlloc {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        // SAFETY: forwarded contracts of GlobalAlloc
        unsafe {
            if mapped(&l) {
                map(l.size())
            } else {
                System.alloc(l)
            }
        }
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        // SAFETY: forwarded; fresh mappings are zero already
        unsafe {
            if mapped(&l) {
                map(l.size())
            } else {
                System.alloc_zeroed(l)
            }
        }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        // SAFETY: `p` came from `alloc` with this layout, so a mapped block spans round(size)
        unsafe {
            if mapped(&l) {
                libc::munmap(p as *mut libc::c_void, round(l.size()));
            } else {
                System.dealloc(p, l)
            }
        }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded contracts; a mapped block is moved by the kernel with its pages
        unsafe {
            let Ok(nl) = Layout::from_size_align(new_size, l.align()) else {
                return std::ptr::null_mut();
            };
            match (mapped(&l), mapped(&nl)) {
                (false, false) => System.realloc(p, l, new_size),
                (true, true) => {
                    let q = libc::mremap(
                        p as *mut libc::c_void,
                        round(l.size()),
                        round(new_size),
                        libc::MREMAP_MAYMOVE,
                    );
                    if q == libc::MAP_FAILED {
                        std::ptr::null_mut()
                    } else {
                        q as *mut u8
                    }
                }
                _ => {
                    let q = self.alloc(nl);
                    if !q.is_null() {
                        std::ptr::copy_nonoverlapping(p, q, l.size().min(new_size));
                        self.dealloc(p, l);
                    }
                    q
                }
            }
        }
    }
}
