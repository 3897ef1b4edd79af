//! Ctrl-C inside long builtins. Statements and loop iterations check the session's interrupt
//! flag themselves; a builtin's own host loop (a regexp over a long subject, a combinatorial
//! result) calls `poll()` per element instead, which looks at the flag every STRIDE calls and,
//! once it is raised, unwinds to the builtin call (without the panic hook: this is no panic),
//! where `abortable` turns it into MATLAB's "Operation terminated by user". The loop needs no
//! error plumbing, so a comparator or a closure deep in a primitive can poll as well.

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
    if raised() {
        std::panic::resume_unwind(Box::new(Interrupted));
    }
}

/// Runs `work` (a builtin); an interrupt `poll` saw inside it becomes MATLAB's error, the
/// flag is lowered, and the workspace is as it was before the call.
pub fn abortable<T>(work: impl FnOnce() -> MResult<T>) -> MResult<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)) {
        Ok(r) => r,
        Err(payload) if payload.is::<Interrupted>() => {
            FLAG.with(|f| {
                if let Some(f) = f.borrow().as_ref() {
                    f.store(false, Ordering::Relaxed);
                }
            });
            Err(MError::interrupted())
        }
        Err(payload) => std::panic::resume_unwind(payload),
    }
}

/// The error for a payload that unwound to the top of an input: an interrupt `poll` saw
/// outside any builtin call is MATLAB's, anything else a bug in matfuse.
pub fn error_of(payload: Box<dyn std::any::Any + Send>) -> MError {
    if payload.is::<Interrupted>() {
        FLAG.with(|f| {
            if let Some(f) = f.borrow().as_ref() {
                f.store(false, Ordering::Relaxed);
            }
        });
        MError::interrupted()
    } else {
        MError::internal(&*payload)
    }
}
