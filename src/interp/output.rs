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
}

thread_local! {
    static OUT: RefCell<OutputState> = RefCell::new(OutputState {
        stdout: BufWriter::with_capacity(1 << 16, std::io::stdout()),
        captures: Vec::new(),
        at_line_start: true,
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
            None => false,
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
