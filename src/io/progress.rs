//! Progress of a long save or load: after a second, a line on standard error that rewrites
//! itself (`Saving big.mat: 45%`), only when standard error is a terminal; cleared at the end.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

pub struct Progress {
    what: String,
    total: u64,
    done: u64,
    start: Instant,
    last_shown: Option<Instant>,
    tty: bool,
}

const AFTER: Duration = Duration::from_secs(1);
const EVERY: Duration = Duration::from_millis(100);

impl Progress {
    /// `what`: e.g. "Saving big.mat"; `total`: the units (bytes) the whole transfer moves.
    pub fn new(what: String, total: u64) -> Progress {
        Progress {
            what,
            total: total.max(1),
            done: 0,
            start: Instant::now(),
            last_shown: None,
            tty: std::io::stderr().is_terminal(),
        }
    }
    /// Counts `n` more units done; shows the line when the transfer has run past a second.
    pub fn advance(&mut self, n: u64) {
        self.done = (self.done + n).min(self.total);
        if !self.tty || self.start.elapsed() < AFTER {
            return;
        }
        if self.last_shown.is_some_and(|t| t.elapsed() < EVERY) {
            return;
        }
        self.last_shown = Some(Instant::now());
        let pct = self.done * 100 / self.total;
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
