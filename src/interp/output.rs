//! Where printed output goes: standard output (buffered), or a capture buffer (`evalc`, tests).
//! Standard output is flushed before anything is written to standard error, so the two
//! streams interleave as they were produced.

use std::cell::RefCell;
use std::io::{BufWriter, Stdout, Write};

struct OutputState {
    stdout: BufWriter<Stdout>,
    captures: Vec<String>,
    /// Whether the last thing printed to the terminal ended with a newline.
    at_line_start: bool,
    /// Flush at every newline (a person is watching a terminal).
    line_buffered: bool,
    /// A copy of everything shown, for `--record` (None when not recording).
    tee: Option<String>,
}

thread_local! {
    static OUT: RefCell<OutputState> = RefCell::new(OutputState {
        stdout: BufWriter::with_capacity(1 << 16, std::io::stdout()),
        captures: Vec::new(),
        at_line_start: true,
        line_buffered: false,
        tee: None,
    });
}

/// Prints text to the current destination.
pub fn write_str(s: &str) {
    if s.is_empty() {
        return;
    }
    OUT.with(|o| {
        let mut o = o.borrow_mut();
        if let Some(buf) = o.captures.last_mut() {
            buf.push_str(s);
        } else {
            // a closed pipe is not an error worth reporting
            let _ = o.stdout.write_all(s.as_bytes());
            o.at_line_start = s.ends_with('\n');
            if let Some(t) = o.tee.as_mut() {
                t.push_str(s);
            }
            if o.line_buffered && s.contains('\n') {
                let _ = o.stdout.flush();
            }
        }
    });
}

pub fn flush() {
    OUT.with(|o| {
        let _ = o.borrow_mut().stdout.flush();
    });
}

/// Whether the cursor is at the start of a line (so a prompt or message need not add one).
pub fn at_line_start() -> bool {
    OUT.with(|o| o.borrow().at_line_start)
}

/// Writes to standard error, after flushing standard output (or into the capture buffer
/// while output is being captured, so a capture holds what a terminal would have shown).
pub fn write_err(s: &str) {
    let captured = OUT.with(|o| {
        let mut o = o.borrow_mut();
        match o.captures.last_mut() {
            Some(buf) => {
                buf.push_str(s);
                true
            }
            None => {
                if let Some(t) = o.tee.as_mut() {
                    t.push_str(s);
                }
                false
            }
        }
    });
    if captured {
        return;
    }
    flush();
    let mut e = std::io::stderr();
    let _ = e.write_all(s.as_bytes());
    let _ = e.flush();
}

/// Starts capturing output (nested captures stack).
pub fn begin_capture() {
    OUT.with(|o| o.borrow_mut().captures.push(String::new()));
}

/// Ends the innermost capture and returns what it collected.
pub fn end_capture() -> String {
    OUT.with(|o| o.borrow_mut().captures.pop().unwrap_or_default())
}

/// Flushes standard output at every newline from now on (for a terminal: progress printed by a
/// long loop shows as it happens).
pub fn set_line_buffered(on: bool) {
    OUT.with(|o| o.borrow_mut().line_buffered = on);
}

/// Starts keeping a copy of everything shown on standard output and error (`--record`).
pub fn start_tee() {
    OUT.with(|o| o.borrow_mut().tee = Some(String::new()));
}

/// What was shown since the last call (empty when not recording).
pub fn take_tee() -> String {
    OUT.with(|o| {
        o.borrow_mut()
            .tee
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    })
}
