//! Progress of a long save or load: after a second, a line on standard error that rewrites
//! itself (`Saving big.mat: 45%`), only when standard error is a terminal; cleared at the end.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

pub struct Progress {
    what: String,
    start: Instant,
    last_shown: Option<Instant>,
    tty: bool,
    after: Duration,
}

/// How long work runs before its progress shows: a second, or `MATFUSE_PROGRESS_AFTER_MS`
/// (for tests, which cannot wait for a save that long).
fn after() -> Duration {
    Duration::from_millis(crate::settings::parsed("MATFUSE_PROGRESS_AFTER_MS").unwrap_or(1000))
}
const EVERY: Duration = Duration::from_millis(100);

impl Progress {
    /// `what`: e.g. "Saving big.mat".
    pub fn new(what: String) -> Progress {
        Progress {
            what,
            start: Instant::now(),
            last_shown: None,
            tty: std::io::stderr().is_terminal(),
            after: after(),
        }
    }
    /// A progress that never shows (for work inside another's).
    pub fn quiet() -> Progress {
        Progress {
            what: String::new(),
            start: Instant::now(),
            last_shown: None,
            tty: false,
            after: after(),
        }
    }
    /// Reports the fraction done (0 to 1); shows it once the work has run past a second.
    /// Ctrl-C stops the work here (it unwinds to the builtin call).
    pub fn at(&mut self, fraction: f64) {
        crate::interp::interrupt::poll_now();
        if !self.tty || self.start.elapsed() < self.after {
            return;
        }
        if self.last_shown.is_some_and(|t| t.elapsed() < EVERY) {
            return;
        }
        self.last_shown = Some(Instant::now());
        let pct = (fraction.clamp(0.0, 1.0) * 100.0).floor();
        let mut e = std::io::stderr();
        let _ = write!(e, "\r{}: {pct}%", self.what);
        let _ = e.flush();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if self.last_shown.is_some() {
            let mut e = std::io::stderr();
            let _ = write!(e, "\r\x1b[2K");
            let _ = e.flush();
        }
    }
}
