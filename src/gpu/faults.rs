//! Faults injected on purpose, for tests of what the session does when the device fails:
//! `MATFUSE_FAULT=alloc`, `readback` or `lose` (optionally `:N`) makes the Nth device
//! allocation fail as out of memory, the Nth read-back fail, or the device be lost at the Nth
//! submit of recorded work, as a driver reset mid-kernel would (N is 1 by default);
//! `slowcompile` makes the Nth kernel compile take 30 s more, as a driver's slowest compiles
//! do (tests of Ctrl-C during the wait must not depend on how fast the machine compiles);
//! `slowsort` stalls the Nth host radix sort 3 s before its first pass's look at Ctrl-C
//! (without looking itself, so a sort that stopped looking would still finish).
//! Each fires once per value of the setting (a script may `setenv` it again for another).

use std::sync::Mutex;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Fault {
    Alloc,
    Readback,
    Lose,
    SlowCompile,
    SlowSort,
}

impl Fault {
    fn name(self) -> &'static str {
        match self {
            Fault::Alloc => "alloc",
            Fault::Readback => "readback",
            Fault::Lose => "lose",
            Fault::SlowCompile => "slowcompile",
            Fault::SlowSort => "slowsort",
        }
    }
}

/// The setting last seen, how many times its kind was asked about since, and whether it fired.
struct Armed {
    spec: String,
    seen: u64,
    fired: bool,
}

static ARMED: Mutex<Option<Armed>> = Mutex::new(None);

/// Whether `kind` fails now (counts this occurrence of it).
pub fn fires(kind: Fault) -> bool {
    let Some(spec) = crate::settings::get("MATFUSE_FAULT") else {
        return false;
    };
    let spec = spec.trim().to_ascii_lowercase();
    let (name, nth) = match spec.split_once(':') {
        Some((name, n)) => (name, n.trim().parse::<u64>().unwrap_or(1).max(1)),
        None => (spec.as_str(), 1),
    };
    if name != kind.name() {
        return false;
    }
    let Ok(mut armed) = ARMED.lock() else {
        return false;
    };
    if armed.as_ref().is_none_or(|a| a.spec != spec) {
        *armed = Some(Armed {
            spec: spec.clone(),
            seen: 0,
            fired: false,
        });
    }
    let Some(a) = armed.as_mut() else {
        return false;
    };
    a.seen += 1;
    if !a.fired && a.seen == nth {
        a.fired = true;
        super::trace("fault injected");
        return true;
    }
    false
}
