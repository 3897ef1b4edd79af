//! Ctrl-C inside long builtins. Statements and loop iterations check the session's interrupt
//! flag themselves; a builtin's own host loop (a regexp over a long subject, a combinatorial
//! result) calls `poll()` per element instead, which looks at the flag every STRIDE calls and,
//! once it is raised, unwinds to the builtin call (without the panic hook: this is no panic),
//! where `abortable` turns it into MATLAB's "Operation terminated by user". The loop needs no
//! error plumbing, so a comparator or a closure deep in a primitive can poll as well.
//! It unwinds only inside `catching` (a builtin call or an input's statements) and never inside
//! a `hold` (an assignment that has its variable out of the workspace); elsewhere the flag is
//! left for the next statement. Work that cannot poll (a faer factorization) runs `detached`,
//! and loops on rayon's threads look through a `Watch`.

use super::error::{MError, MResult};
use std::cell::{Cell, RefCell};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Calls between two looks at the flag: a look is an atomic load; at ~1 ns an element this is
/// well inside the 100 ms a Ctrl-C may take.
const STRIDE: u32 = 4096;

thread_local! {
    static FLAG: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
    static COUNT: Cell<u32> = const { Cell::new(0) };
    /// Open `hold`s: while one is, `poll` never unwinds.
    static HOLD: Cell<u32> = const { Cell::new(0) };
    /// Open `catching` calls: `poll` unwinds only inside one (outside, nothing would stop
    /// the unwind short of the process's end: figures drawn after an input, completion).
    static CATCH: Cell<u32> = const { Cell::new(0) };
}

/// Whether an unwind from `poll` would land in a `catching` call and leave no variable
/// out of the workspace.
fn may_unwind() -> bool {
    HOLD.with(|h| h.get()) == 0 && CATCH.with(|c| c.get()) > 0
}

struct Catching(());

impl Drop for Catching {
    fn drop(&mut self) {
        CATCH.with(|c| c.set(c.get().saturating_sub(1)));
    }
}

/// `catch_unwind` of `work`, inside which `poll` may unwind.
pub fn catching<T>(work: impl FnOnce() -> T) -> std::thread::Result<T> {
    CATCH.with(|c| c.set(c.get() + 1));
    let _open = Catching(());
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work))
}

/// MATLAB's interrupted error if Ctrl-C was pressed, for code that returns errors instead of
/// unwinding; inside a `hold` it is left for the next statement. The flag stays raised: a
/// caller that drops the error (a fallback that computes the value another way) is stopped
/// by the next look at it.
pub fn check() -> MResult<()> {
    if raised() && HOLD.with(|h| h.get()) == 0 {
        return Err(MError::interrupted());
    }
    Ok(())
}

fn lower() {
    FLAG.with(|f| {
        if let Some(f) = f.borrow().as_ref() {
            f.store(false, Ordering::Relaxed);
        }
    });
}

/// While alive, Ctrl-C is left for the next statement instead of unwinding (an assignment
/// that has taken its variable out of the workspace to update it in place).
pub struct Hold(());

impl Drop for Hold {
    fn drop(&mut self) {
        HOLD.with(|h| h.set(h.get().saturating_sub(1)));
    }
}

pub fn hold() -> Hold {
    HOLD.with(|h| h.set(h.get() + 1));
    Hold(())
}

/// The unwinding payload of an interrupted builtin.
struct Interrupted;

/// Makes `flag` the one `poll` watches on this thread (the running session's).
pub fn watch(flag: &Arc<AtomicBool>) {
    FLAG.with(|f| {
        let mut f = f.borrow_mut();
        if !f.as_ref().is_some_and(|g| Arc::ptr_eq(g, flag)) {
            *f = Some(flag.clone());
        }
    });
}

/// Whether Ctrl-C was pressed, looked at once every STRIDE calls.
#[inline]
pub fn poll() {
    let n = COUNT.with(|c| {
        let n = c.get().wrapping_add(1);
        c.set(n);
        n
    });
    if n % STRIDE == 0 {
        poll_now();
    }
}

/// Whether Ctrl-C was pressed (for waits that return MATLAB's error instead of unwinding:
/// a kernel's compile).
pub fn raised() -> bool {
    FLAG.with(|f| {
        f.borrow()
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    })
}

/// Looks at the flag now; unwinds to `abortable` if it is raised.
pub fn poll_now() {
    if raised() && may_unwind() {
        std::panic::resume_unwind(Box::new(Interrupted));
    }
}

/// The session's flag for loops on other threads (rayon workers), where the thread-local one
/// is not set: `check` unwinds as `poll_now` does, and rayon carries the unwind back to the
/// builtin call.
#[derive(Clone)]
pub struct Watch(Option<Arc<AtomicBool>>);

impl Watch {
    /// The flag this thread watches.
    pub fn current() -> Watch {
        if !may_unwind() {
            return Watch(None);
        }
        Watch(FLAG.with(|f| f.borrow().clone()))
    }
    pub fn raised(&self) -> bool {
        self.0.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
    }
    /// Unwinds to the builtin call when the flag is raised.
    pub fn check(&self) {
        if self.raised() {
            std::panic::resume_unwind(Box::new(Interrupted));
        }
    }
}

/// A loop's own counter of elements: `tick` is a register increment, and every TICK calls a
/// look at the flag (for loops too hot for `poll`'s thread-local counter).
#[derive(Default)]
pub struct Ticker(u32);

impl Ticker {
    const TICK: u32 = 1 << 14;
    pub fn new() -> Ticker {
        Ticker(0)
    }
    #[inline]
    pub fn tick(&mut self) {
        self.0 += 1;
        if self.0 >= Self::TICK {
            self.0 = 0;
            poll_now();
        }
    }
    /// Counts `n` elements at once (a lane, a row, a block), with a look at the flag once
    /// TICK of them have gone by.
    #[inline]
    pub fn add(&mut self, n: usize) {
        self.0 = self.0.saturating_add(u32::try_from(n).unwrap_or(u32::MAX));
        if self.0 >= Self::TICK {
            self.0 = 0;
            poll_now();
        }
    }
}

/// An owned copy of `v`, made a chunk at a time with a look at the flag between chunks.
pub fn copied<T: Copy>(v: &[T]) -> Vec<T> {
    if v.len() <= CHUNK {
        return v.to_vec();
    }
    let mut out = Vec::with_capacity(v.len());
    for part in v.chunks(CHUNK) {
        poll_now();
        out.extend_from_slice(part);
    }
    out
}

/// Elements a chunked loop handles between two looks at the flag (a few hundred µs).
pub const CHUNK: usize = 1 << 16;

/// `n` copies of `value`, written a chunk at a time with a look at the flag between chunks
/// (a fill of 3e8 doubles is seconds of page faults).
pub fn filled<T: Copy>(value: T, n: usize) -> Vec<T> {
    if n <= CHUNK {
        return vec![value; n];
    }
    let mut v = Vec::with_capacity(n);
    while v.len() < n {
        poll_now();
        let k = (n - v.len()).min(CHUNK);
        v.extend(std::iter::repeat_n(value, k));
    }
    v
}

/// Runs `work` (a computation that cannot look at the flag itself: a faer factorization) on
/// its own thread while this one watches the flag; on Ctrl-C this unwinds to the builtin call
/// at once, and the abandoned computation finishes on its own, its result dropped.
pub fn detached<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    if !may_unwind() || !FLAG.with(|f| f.borrow().is_some()) {
        return work();
    }
    type Slot<W> = std::sync::Arc<std::sync::Mutex<Option<W>>>;
    let slot: Slot<_> = Arc::new(std::sync::Mutex::new(Some(work)));
    let theirs = slot.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("matfuse-work".into())
        .spawn(move || {
            let work = theirs.lock().ok().and_then(|mut w| w.take());
            if let Some(work) = work {
                // a panic inside the work goes back to be raised on the caller's thread
                let _ = tx.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)));
            }
        });
    if spawned.is_err() {
        // no thread to be had: the work runs here, unwatched
        if let Some(work) = slot.lock().ok().and_then(|mut w| w.take()) {
            return work();
        }
    }
    loop {
        // This thread is worker 0 of the array kernels' pool (main.rs): while it waits it
        // runs the work's parallel parts too, or the work would have a worker fewer than
        // there are cores (a solve of 1500 unknowns took 1.6x as long on two cores).
        let wait = match rayon::yield_now() {
            Some(rayon::Yield::Executed) => std::time::Duration::ZERO,
            _ => std::time::Duration::from_micros(20),
        };
        match rx.recv_timeout(wait) {
            Ok(Ok(r)) => return r,
            Ok(Err(payload)) => std::panic::resume_unwind(payload),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => poll_now(),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                std::panic::resume_unwind(Box::new("a detached computation ended without a result"))
            }
        }
    }
}

/// Runs `work` (a builtin); an interrupt `poll` saw inside it becomes MATLAB's error, the
/// flag is lowered, and the workspace is as it was before the call.
pub fn abortable<T>(work: impl FnOnce() -> MResult<T>) -> MResult<T> {
    match catching(work) {
        Ok(r) => r,
        Err(payload) if payload.is::<Interrupted>() => {
            lower();
            Err(MError::interrupted())
        }
        Err(payload) => std::panic::resume_unwind(payload),
    }
}

/// The error for a payload that unwound to the top of an input: an interrupt `poll` saw
/// outside any builtin call is MATLAB's, anything else a bug in matfuse.
pub fn error_of(payload: Box<dyn std::any::Any + Send>) -> MError {
    if payload.is::<Interrupted>() {
        lower();
        MError::interrupted()
    } else {
        MError::internal(&*payload)
    }
}
