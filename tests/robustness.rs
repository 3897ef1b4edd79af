//! Nothing a user types may crash the interpreter: every builtin is called with many
//! combinations of odd arguments, and malformed programs are parsed and run; any panic fails.

use matfuse::interp::Interp;
use matfuse::interp::output;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Argument expressions of many kinds and shapes.
const POOL: [&str; 29] = [
    "[]",
    "0",
    "-1",
    "2.5",
    "NaN",
    "Inf",
    "[1 2 3]",
    "[1; 2]",
    "magic(3)",
    "zeros(0, 3)",
    "ones(2, 2, 2)",
    "'abc'",
    "''",
    "\"str\"",
    "true",
    "int8(-5)",
    "uint64(18446744073709551615)",
    "single(1.5)",
    "1 + 2i",
    "{1, 'a'}",
    "{}",
    "struct('a', 1)",
    "@sin",
    "containers.Map()",
    "gpuArray(magic(3))",
    "gpuArray(single([1 NaN -2]))",
    "gpuArray(1:3) > 2",
    "datetime(2024, 1, 31, 0:1, 0, 0)",
    "hours(1.5)",
];

/// Builtins whose effects reach outside the session or wait.
const SKIP: [&str; 6] = ["exit", "quit", "pause", "cd", "setenv", "clc"];

fn lcg(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *state >> 33
}

/// Runs `code` in a fresh session; a panic escaping the interpreter, or one it caught and
/// reported as an internal error, is a failure.
fn internal_failure(code: &str) -> Option<String> {
    let r = catch_unwind(AssertUnwindSafe(|| {
        let mut interp = Interp::new();
        output::begin_capture();
        let r = interp.run_str(code);
        output::end_capture();
        r.err()
            .filter(|e| e.is_internal())
            .map(|e| e.message().to_string())
    }));
    match r {
        Ok(internal) => internal,
        Err(_) => {
            output::end_capture();
            Some("panic escaped".into())
        }
    }
}

#[test]
fn builtins_never_panic() {
    // a fixed seed keeps CI deterministic; ROBUSTNESS_SEED / ROBUSTNESS_TRIALS widen the search
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let mut rng = env("ROBUSTNESS_SEED", 12345);
    let trials = env("ROBUSTNESS_TRIALS", 40);
    let mut failures = Vec::new();
    // builtins that write files (mkdir, writematrix, fopen 'w', ...) do so in a folder of
    // their own, not in the repository
    let scratch = std::env::temp_dir().join(format!("matfuse-robustness-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("a scratch folder");
    let home = std::env::current_dir().expect("the current folder");
    std::env::set_current_dir(&scratch).expect("cd to the scratch folder");
    // quiet the panic hook while probing
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for name in matfuse::builtins::names() {
        if SKIP.contains(&name) {
            continue;
        }
        for trial in 0..trials {
            let nargs = (trial % 5) as usize;
            let args: Vec<&str> = (0..nargs)
                .map(|_| POOL[(lcg(&mut rng) % POOL.len() as u64) as usize])
                .collect();
            let code = format!("[o1, o2] = {name}({});", args.join(", "));
            let code1 = format!("o1 = {name}({});", args.join(", "));
            for c in [code, code1] {
                if std::env::var("ROBUSTNESS_VERBOSE").is_ok() {
                    eprintln!("{c}");
                }
                if let Some(why) = internal_failure(&c) {
                    failures.push(format!("{c}  -> {why}"));
                }
            }
        }
    }
    std::panic::set_hook(hook);
    let _ = std::env::set_current_dir(home);
    let _ = std::fs::remove_dir_all(&scratch);
    failures.sort();
    failures.dedup();
    assert!(
        failures.is_empty(),
        "{} calls panicked:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn malformed_programs_never_panic() {
    let programs = [
        "x = [1 2",
        "x = (1 + )",
        "if x",
        "end",
        "function",
        "x(",
        "x{",
        "[a, b] = ",
        "a = {1, 2}; a{:} = 3",
        "s.a = 1; s(3).b = 2; s(2)",
        "x = 1:3; x(end+1:end+3, 2) = 7",
        "x = ones(2, 2); x(:, :, 3) = 1",
        "c = {}; c{2, 3}.a(4) = 5",
        "f = @(x) x; f{1}",
        "x = 5; x.a = 1",
        "x = 'abc'; x{1}",
        "for k = {}, end",
        "while [], end",
        "switch {}, case 1, end",
        "try, catch, end",
        "a = 1; a(:, :, :, :) = []",
        "x = 1:5; x([]) = []",
        "m = containers.Map(); m(1)",
        "q = reshape([], 0, -1)",
        "z = zeros(1e20)",
        "z = ones(2, 3)'; z(7, 7, 7, 7, 7) = 1; size(z)",
        "'unterminated",
        "x = 3 %{ not a block",
        "x = [1 -2 +3 - 4 (5)]",
        "@",
        "@(",
        "x.(1) = 2",
        "x = struct(); x.('bad name') = 1",
        "[x{1:3}] = deal(1, 2)",
        "function f(), end, f(1)",
        "a = int8(1):int16(5)",
        "b = {1} + {2}",
        "sprintf('%*d', 1e10, 5)",
        "sprintf('%.*f', -1, pi)",
        "x = zeros(2); x(:) = [1 2 3]",
        "s = 'x'; s(5, 5) = 'y'",
        "A = eye(3); A(:, [true false])",
        "A = 1:4; A(logical([1 0 1 0 1 1]))",
    ];
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut failures = Vec::new();
    for p in programs {
        if let Some(why) = internal_failure(p) {
            failures.push(format!("{p}  -> {why}"));
        }
    }
    std::panic::set_hook(hook);
    assert!(failures.is_empty(), "panicked on:\n{}", failures.join("\n"));
}
