//! The structured fuzzer (issue 26): random statements from the grammar over a workspace with
//! a value of every class, run as a prompt session (each statement its own input, the
//! workspace checked after every error), as a script file (one source) and piped into the
//! binary's standard input. Counted as failures: a panic (caught or escaping), an internal
//! error, a workspace that lost variables after an error, an input still running after
//! FUZZ_HANG_SECS (the watchdog interrupts it) and, for the binary, an exit other than 0 or 1.
//!
//! `cargo test` runs a short seeded campaign; `fuzz_long` (ignored) runs FUZZ_INPUTS inputs
//! (default 1e6) from FUZZ_SEED and prints the counts and the slowest input:
//! `bench/fuzz_long.sh`.

mod fuzz_gen;
use fuzz_gen::{Gen, SETUP, VARS};
use matfuse::interp::Interp;
use matfuse::interp::output;
use matfuse::syntax::span::Source;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Inputs that once crashed, hung or failed internally: each stays a case.
const REGRESSIONS: [&str; 10] = [
    // [] taking a handle recursed without end (found by the fuzzer)
    "clear w; w(-Inf || b) = h;",
    "q = []; q(false) = @sin; r = []; r(1) = @cos;",
    "s = 'eval(s)'; eval(s)",
    "x = '😀', disp(x), y = ['😀'; 'ab']",
    "a = 10; f = @(x) @(y) x + y + a; g = f(1); g(2)",
    "x = int8([1 2 3]); x(2) = 1.5 + 2i",
    "setenv('', 'x')",
    "!ls",
    // ismissing of text outside the BMP had one flag per character, not per UTF-16 unit
    // (fuzz_long, seed 2026)
    "b.b = [[2.5, uint8(200) | 2; ismissing('😀'), g] y];",
    // a plot taking another plot's handle asked the scene it held (fuzz_long, seed 2026)
    "e(b > -1) = plot(false, b(end), semilogx([0 1 0]'));",
];

#[derive(Default)]
struct Report {
    inputs: u64,
    programs: u64,
    ran_ok: u64,
    crashes: Vec<String>,
    internal: Vec<String>,
    hangs: Vec<String>,
    lost_workspace: Vec<String>,
    bad_exit: Vec<String>,
    slowest: (Duration, String),
}

impl Report {
    fn failures(&self) -> usize {
        self.crashes.len()
            + self.internal.len()
            + self.hangs.len()
            + self.lost_workspace.len()
            + self.bad_exit.len()
    }
    fn summary(&self) -> String {
        let list = |name: &str, v: &[String]| {
            v.iter()
                .take(20)
                .map(|s| format!("  {name}: {s}\n"))
                .collect::<String>()
        };
        format!(
            "{} inputs in {} programs ({} ran without error): {} crashes, {} hangs, {} internal errors, {} workspace losses, {} bad exits; slowest input {:.3} s: {}\n{}{}{}{}{}",
            self.inputs,
            self.programs,
            self.ran_ok,
            self.crashes.len(),
            self.hangs.len(),
            self.internal.len(),
            self.lost_workspace.len(),
            self.bad_exit.len(),
            self.slowest.0.as_secs_f64(),
            self.slowest.1,
            list("crash", &self.crashes),
            list("hang", &self.hangs),
            list("internal", &self.internal),
            list("lost", &self.lost_workspace),
            list("exit", &self.bad_exit),
        )
    }
}

/// Interrupts an input that runs past the limit (as Ctrl-C would) and says so.
struct Watchdog {
    started_ms: Arc<AtomicU64>,
    fired: Arc<AtomicBool>,
    flag: Arc<Mutex<Option<Arc<AtomicBool>>>>,
    epoch: Instant,
}

impl Watchdog {
    fn new(limit: Duration) -> Watchdog {
        let w = Watchdog {
            started_ms: Arc::new(AtomicU64::new(u64::MAX)),
            fired: Arc::new(AtomicBool::new(false)),
            flag: Arc::new(Mutex::new(None)),
            epoch: Instant::now(),
        };
        let (started, fired, flag, epoch) = (
            w.started_ms.clone(),
            w.fired.clone(),
            w.flag.clone(),
            w.epoch,
        );
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(Duration::from_millis(50));
                let s = started.load(Ordering::Relaxed);
                let now = epoch.elapsed().as_millis() as u64;
                if s != u64::MAX && now.saturating_sub(s) > limit.as_millis() as u64 {
                    if let Ok(f) = flag.lock() {
                        if let Some(f) = f.as_ref() {
                            f.store(true, Ordering::Relaxed);
                            fired.store(true, Ordering::Relaxed);
                        }
                    }
                }
            }
        });
        w
    }
    fn arm(&self, interp: &Interp) {
        interp.interrupt.store(false, Ordering::Relaxed);
        if let Ok(mut f) = self.flag.lock() {
            *f = Some(interp.interrupt.clone());
        }
        self.fired.store(false, Ordering::Relaxed);
        self.started_ms
            .store(self.epoch.elapsed().as_millis() as u64, Ordering::Relaxed);
    }
    /// Disarms; returns whether the input had to be interrupted.
    fn disarm(&self) -> bool {
        self.started_ms.store(u64::MAX, Ordering::Relaxed);
        self.fired.swap(false, Ordering::Relaxed)
    }
}

enum Outcome {
    Ok,
    Error,
    Internal(String),
    Panic,
}

fn run_one(interp: &mut Interp, source: std::rc::Rc<Source>) -> Outcome {
    if std::env::var("FUZZ_VERBOSE").is_ok() {
        eprintln!("{}", source.text);
    }
    let r = catch_unwind(AssertUnwindSafe(|| {
        output::begin_capture();
        let r = interp.run_source(source);
        output::end_capture();
        r
    }));
    match r {
        Ok(Ok(())) => Outcome::Ok,
        Ok(Err(e)) if e.is_internal() => Outcome::Internal(e.message().to_string()),
        Ok(Err(_)) => Outcome::Error,
        Err(_) => {
            output::end_capture();
            Outcome::Panic
        }
    }
}

fn present(interp: &Interp) -> Vec<bool> {
    VARS.iter().map(|v| interp.var(v).is_some()).collect()
}

fn fresh() -> Interp {
    let mut interp = Interp::new();
    output::begin_capture();
    let r = interp.run_str(SETUP);
    output::end_capture();
    if let Err(e) = r {
        panic!("the fuzzer's workspace does not build: {}", e.report());
    }
    interp
}

fn note(report: &mut Report, dog: &Watchdog, took: Duration, what: &str, outcome: Outcome) {
    if dog.disarm() {
        report.hangs.push(what.to_string());
    }
    if took > report.slowest.0 {
        report.slowest = (took, what.to_string());
    }
    match outcome {
        Outcome::Internal(m) => report.internal.push(format!("{what}  -> {m}")),
        Outcome::Panic => report.crashes.push(what.to_string()),
        Outcome::Ok => report.ran_ok += 1,
        Outcome::Error => {}
    }
}

/// A prompt session: each statement its own input; after an error the workspace must hold
/// what it held before.
fn prompt_mode(generator: &mut Gen, dog: &Watchdog, report: &mut Report, n: usize) {
    let mut interp = fresh();
    for stmt in generator.program(n) {
        let before = present(&interp);
        dog.arm(&interp);
        let t = Instant::now();
        let outcome = run_one(&mut interp, Source::new("", stmt.as_str(), false));
        let errored = matches!(outcome, Outcome::Error);
        note(report, dog, t.elapsed(), &stmt, outcome);
        report.inputs += 1;
        // an input that fails keeps every variable it did not clear itself (what it assigned
        // before failing stays, as in MATLAB)
        let after = present(&interp);
        let vanished = before.iter().zip(&after).any(|(b, a)| *b && !*a);
        if errored && vanished && !stmt.contains("clear") {
            report.lost_workspace.push(stmt.clone());
        }
    }
}

/// A script file: the program as one source (it stops at its first error).
fn file_mode(generator: &mut Gen, dog: &Watchdog, report: &mut Report, n: usize) {
    let mut interp = fresh();
    let text = generator.program(n).join("\n");
    dog.arm(&interp);
    let t = Instant::now();
    let outcome = run_one(&mut interp, Source::new("fuzz.m", text.as_str(), true));
    note(
        report,
        dog,
        t.elapsed(),
        &text.replace('\n', " ⏎ "),
        outcome,
    );
    report.inputs += n as u64;
}

/// Piped into the binary's standard input.
fn stdin_mode(generator: &mut Gen, report: &mut Report, n: usize, limit: Duration) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let text = format!("{SETUP}\n{}\n", generator.program(n).join("\n"));
    let mut child = match Command::new(env!("CARGO_BIN_EXE_matfuse"))
        .env("MATFUSE_DEVICE", "cpu")
        .env("MATFUSE_MAX_ARRAY_BYTES", "100000000")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => panic!("matfuse does not start: {e}"),
    };
    if let Some(mut i) = child.stdin.take() {
        let _ = i.write_all(text.as_bytes());
    }
    let t = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if t.elapsed() > limit * 4 => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(_) => break None,
        }
    };
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        use std::io::Read;
        let _ = e.read_to_string(&mut err);
    }
    let what = text.replace('\n', " ⏎ ");
    match status {
        None => report.hangs.push(what),
        Some(s) if !matches!(s.code(), Some(0 | 1)) => {
            report.bad_exit.push(format!("{what}  -> {s} {err}"))
        }
        Some(_) if err.contains("Internal error") => {
            report.internal.push(format!("{what}  -> {err}"))
        }
        Some(_) => {}
    }
    report.inputs += n as u64;
}

fn campaign(seed: u64, inputs: u64, stdin_every: u64, hang: Duration) -> Report {
    // random programs stay small: no array past 100 MB
    matfuse::values::limits::set_max_bytes(100_000_000);
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let dog = Watchdog::new(hang);
    let mut generator = Gen::new(seed);
    let mut report = Report::default();
    let per = 8;
    while report.inputs < inputs {
        let k = report.programs;
        report.programs += 1;
        if stdin_every > 0 && k % stdin_every == stdin_every - 1 {
            stdin_mode(&mut generator, &mut report, per, hang);
        } else if k % 2 == 0 {
            prompt_mode(&mut generator, &dog, &mut report, per);
        } else {
            file_mode(&mut generator, &dog, &mut report, per);
        }
        if std::env::var("FUZZ_PROGRESS").is_ok() && k % 1000 == 0 {
            eprintln!("{}", report.summary().lines().next().unwrap_or(""));
        }
    }
    std::panic::set_hook(hook);
    report
}

fn env_u64(k: &str, d: u64) -> u64 {
    std::env::var(k)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(d)
}

#[test]
fn fuzz_short() {
    let r = campaign(
        env_u64("FUZZ_SEED", 26),
        env_u64("FUZZ_INPUTS", 1500),
        25,
        Duration::from_secs(env_u64("FUZZ_HANG_SECS", 30)),
    );
    assert_eq!(r.failures(), 0, "{}", r.summary());
}

#[test]
#[ignore = "the long campaign: bench/fuzz_long.sh"]
fn fuzz_long() {
    let r = campaign(
        env_u64("FUZZ_SEED", 2026),
        env_u64("FUZZ_INPUTS", 1_000_000),
        env_u64("FUZZ_STDIN_EVERY", 200),
        Duration::from_secs(env_u64("FUZZ_HANG_SECS", 10)),
    );
    println!("{}", r.summary());
    assert_eq!(r.failures(), 0, "{}", r.summary());
}

#[test]
fn fuzz_regressions() {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut bad = Vec::new();
    for code in REGRESSIONS {
        let mut interp = fresh();
        match run_one(&mut interp, Source::new("", code, false)) {
            Outcome::Internal(m) => bad.push(format!("{code} -> {m}")),
            Outcome::Panic => bad.push(format!("{code} -> panic")),
            _ => {}
        }
        if present(&interp)[..22].iter().any(|p| !p) {
            bad.push(format!("{code} -> lost the workspace"));
        }
    }
    std::panic::set_hook(hook);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
