//! Where a sink's host time goes, step by step (`MATFUSE_TRACE`): `1` prints, to standard
//! error, the microseconds since the previous mark at each step as it happens (not counting
//! the printing); `sum` prints nothing until the process ends, then each step's count, median and
//! mean. Printing as it goes takes time the device spends working, so a wait for the device
//! looks shorter than it is; the sums are what to compare timings with.

use std::sync::{Mutex, OnceLock};
use std::time::Instant;

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Off,
    Print,
    Sum,
}

fn mode() -> Mode {
    static MODE: OnceLock<Mode> = OnceLock::new();
    *MODE.get_or_init(|| match std::env::var("MATFUSE_TRACE").as_deref() {
        Ok("1") => Mode::Print,
        Ok("sum") => Mode::Sum,
        _ => Mode::Off,
    })
}

struct Marks {
    last: Option<Instant>,
    /// Each step's durations in microseconds, in the order first seen (the first
    /// `MAX_SAMPLES` of each are kept for the median).
    sums: Vec<(String, Vec<f32>, u64, f64)>,
}

const MAX_SAMPLES: usize = 1 << 20;

static MARKS: Mutex<Marks> = Mutex::new(Marks {
    last: None,
    sums: Vec::new(),
});

/// Marks the end of step `what`.
pub fn trace(what: &str) {
    let mode = mode();
    if mode == Mode::Off {
        return;
    }
    let now = Instant::now();
    let Ok(mut marks) = MARKS.lock() else {
        return;
    };
    let us = marks.last.map_or(0.0, |t| (now - t).as_secs_f64() * 1e6);
    if mode == Mode::Print {
        eprintln!("{us:>9.1} us  {what}");
        // From after the print: its own cost goes into no step.
        marks.last = Some(Instant::now());
        return;
    }
    let at = match marks.sums.iter().position(|s| s.0 == what) {
        Some(k) => k,
        None => {
            marks.sums.push((what.to_string(), Vec::new(), 0, 0.0));
            marks.sums.len() - 1
        }
    };
    let step = &mut marks.sums[at];
    if step.1.len() < MAX_SAMPLES {
        step.1.push(us as f32);
    }
    step.2 += 1;
    step.3 += us;
    marks.last = Some(now);
}

/// Prints the sums (`MATFUSE_TRACE=sum`), once the session ends.
pub fn trace_report() {
    super::timing::kernel_report();
    if mode() != Mode::Sum {
        return;
    }
    let Ok(marks) = MARKS.lock() else {
        return;
    };
    eprintln!(
        "{:>10} {:>10} {:>10}  step",
        "times", "median us", "mean us"
    );
    for (what, samples, n, total) in &marks.sums {
        let mut sorted = samples.clone();
        sorted.sort_by(f32::total_cmp);
        let median = sorted.get(sorted.len() / 2).copied().unwrap_or(0.0);
        eprintln!("{n:>10} {median:>10.2} {:>10.2}  {what}", total / *n as f64);
    }
}
