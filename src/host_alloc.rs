//! The process's allocator: the system's, except that blocks of 1 MiB and more (array data)
//! are mapped directly, aligned to 2 MiB and marked for transparent huge pages, and grow in
//! place with `mremap`. A fresh 80 MB array then costs 40 page faults instead of 20,000 (most
//! of an elementwise operation's time on the host was the kernel faulting in 4 KiB pages),
//! and `x(end+1) = v` growth past 4 MiB moves no data. NumPy asks for huge pages the same way.

//!
//! A few freed mappings are kept (`KEEP`, `KEEP_BYTES` in all) and handed back to an
//! uninitialised allocation of exactly their length: a statement that makes a result of the
//! same size as the one it replaces (`y = x(2:end) - x(1:end-1)` in a loop, a timed chain)
//! then writes into pages already faulted in instead of the kernel zeroing them on first
//! touch, as glibc's heap does for NumPy. A zeroed allocation of a kept length gets the kept
//! mapping cleared in place: a fresh one costs the same zeroing in the kernel's fault, and on
//! a busy machine the fault of a huge page can wait for the kernel to compact memory (a
//! `c + r` broadcast to 1000x1000 took 1 to 28 ms, two thirds of it in huge-page faults).
//! A kept mapping is never split.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, Ordering};

pub struct HostAlloc;

/// Blocks from this size on are mapped directly. 1 MiB, not 4: results of 1e6 singles or
/// int32 (4,000,000 bytes) went to the C heap, whose fresh pages were faulted in 4 KiB at a
/// time each time the heap grew (`a + b` of 1e6 int32 took 2-6 ms on its first runs, 0.2
/// once the heap had grown); mapped, they get a huge page and a kept mapping.
const LARGE: usize = 1 << 20;
/// The huge page size the mappings are aligned to.
const HUGE: usize = 2 << 20;
const PAGE: usize = 4096;

fn mapped(l: &Layout) -> bool {
    l.size() >= LARGE && l.align() <= PAGE
}

/// Freed mappings kept for reuse, and their bytes at most.
const KEEP: usize = 8;
const KEEP_BYTES: usize = 256 << 20;

/// Kept mappings as (address, length), 0 marking a free entry: a fixed array behind a spin
/// flag, so the allocator never allocates or blocks in the kernel while it holds them.
struct Kept {
    busy: AtomicBool,
    slots: std::cell::UnsafeCell<[(usize, usize); KEEP]>,
}

// SAFETY: `slots` is only touched while `busy` is held (acquire/release).
unsafe impl Sync for Kept {}

static KEPT: Kept = Kept {
    busy: AtomicBool::new(false),
    slots: std::cell::UnsafeCell::new([(0, 0); KEEP]),
};

impl Kept {
    fn with<R>(&self, f: impl FnOnce(&mut [(usize, usize); KEEP]) -> R) -> R {
        while self
            .busy
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            std::hint::spin_loop();
        }
        // SAFETY: the flag gives this thread the only access until it is released below.
        let r = f(unsafe { &mut *self.slots.get() });
        self.busy.store(false, Ordering::Release);
        r
    }
}

/// A kept mapping of exactly `len` bytes, or null.
fn reuse(len: usize) -> *mut u8 {
    KEPT.with(
        |slots| match slots.iter_mut().find(|e| e.0 != 0 && e.1 == len) {
            Some(e) => std::mem::replace(e, (0, 0)).0 as *mut u8,
            None => std::ptr::null_mut(),
        },
    )
}

/// Keeps a freed mapping of `len` bytes for reuse when there is room (the oldest kept one
/// makes way when the bytes would be too many); unmaps what is not kept.
unsafe fn release(p: *mut u8, len: usize) {
    let evicted = KEPT.with(|slots| {
        if len > KEEP_BYTES {
            return Some((p as usize, len));
        }
        let held: usize = slots.iter().map(|e| e.1).sum();
        if held + len <= KEEP_BYTES {
            if let Some(e) = slots.iter_mut().find(|e| e.0 == 0) {
                *e = (p as usize, len);
                return None;
            }
        }
        // no room: this one replaces the largest kept one if that frees enough, else goes
        let (k, big) = slots
            .iter()
            .enumerate()
            .max_by_key(|(_, e)| e.1)
            .map(|(k, e)| (k, *e))?;
        if held - big.1 + len <= KEEP_BYTES {
            slots[k] = (p as usize, len);
            Some(big)
        } else {
            Some((p as usize, len))
        }
    });
    if let Some((q, l)) = evicted {
        // SAFETY: a mapping of `l` bytes that this allocator owns and nothing uses.
        unsafe { libc::munmap(q as *mut libc::c_void, l) };
    }
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
                let p = reuse(round(l.size()));
                if p.is_null() { map(l.size()) } else { p }
            } else {
                System.alloc(l)
            }
        }
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        // SAFETY: forwarded; fresh mappings are zero already, a kept one is zeroed here
        unsafe {
            if mapped(&l) {
                let p = reuse(round(l.size()));
                if p.is_null() {
                    map(l.size())
                } else {
                    std::ptr::write_bytes(p, 0, l.size());
                    p
                }
            } else {
                System.alloc_zeroed(l)
            }
        }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        // SAFETY: `p` came from `alloc` with this layout, so a mapped block spans round(size)
        unsafe {
            if mapped(&l) {
                release(p, round(l.size()));
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
