//! Every elementwise builtin on the device (issue 25): each function's device form against the
//! host over wide ranges with Inf, NaN and -0, in double (a relative bound) and single (ulps
//! of the single result), at odd sizes, with no kernel falling back; functions whose real
//! result needs a domain check stay lazy inside it and are complex (the host's answer)
//! outside; and a walk of the builtin registry that finds every elementwise builtin (by what
//! it does) and lists those without a device form, which must be the documented allow-list
//! (docs/device-functions.md). Runs on the device where an adapter exists
//! (MATFUSE_REQUIRE_GPU=1: it must exist).

use crate::common;
use crate::common::{has_gpu, out};
use matfuse::interp::Interp;
use matfuse::interp::output;
use matfuse::values::value::Value;

/// Wide ranges: both signs from 1e-300 to 1e300, dense near the origin, whole and half
/// numbers, and the IEEE specials.
const WIDE: &str = "[-10.^linspace(-300, 300, 1201), 10.^linspace(-300, 300, 1201), \
    linspace(-12, 12, 2401), -40:0.5:40, 5e-324, -5e-324, 2.2e-308, 0, -0, Inf, -Inf, NaN, 1, -1]";
/// [-1, 1] and just outside.
const UNIT: &str = "[linspace(-1, 1, 4001), -10.^linspace(-300, 0, 301), 10.^linspace(-300, 0, 301), \
    1 - eps, -1 + eps, 0, -0, NaN]";

/// Each function, the points it is checked over, its f64 bound (relative to the host's
/// result) and its single bound (ulps of the host's single result). acosh, atanh and their
/// reciprocal forms use musl's formulas on the device; the host's are Rust std's, which lose
/// digits near 1 (acosh(1 + 1e-15) to about 4e-9), hence their looser bounds. The table in
/// docs/device-functions.md gives these bounds; the worst seen is printed.
const UNARY: &[(&str, &str, f64, f64)] = &[
    ("erf", WIDE, 4e-16, 1.0),
    // Singles' erf and erfc are f32 arithmetic (shaders/erf_f32.wgsl; tests/suite/single_erf.rs
    // sweeps them on the host): erfc within 4 ulp with fused multiply-adds, as CUDA's
    // erfcf; 5 where a driver splits them (lavapipe).
    ("erfc", WIDE, 4e-15, 5.0),
    ("erfinv", UNIT, 4e-16, 1.0),
    (
        "erfcinv",
        "[linspace(0, 2, 4001), 10.^linspace(-300, 0, 301), 2 - 10.^linspace(-16, 0, 101), NaN, -0]",
        4e-16,
        1.0,
    ),
    (
        "gamma",
        "[linspace(-170.5, 171.5, 6841), 0.5:1:30, -30.5:1:-0.5, 1e-300, -1e-300, 0, -0, Inf, -Inf, NaN, 1:171, -5:-1]",
        1e-14,
        1.0,
    ),
    (
        "gammaln",
        "[10.^linspace(-300, 300, 1201), linspace(0, 20, 2001), -linspace(0.01, 30, 1001), 0, Inf, NaN]",
        1e-14,
        1.0,
    ),
    ("asin", UNIT, 3e-16, 1.0),
    ("acos", UNIT, 3e-16, 1.0),
    ("atanh", UNIT, 3e-14, 1.0),
    ("asinh", WIDE, 3e-16, 1.0),
    (
        "acosh",
        "[1 + 10.^linspace(-16, 300, 3001), 1, Inf, NaN]",
        5e-9,
        1.0,
    ),
    ("sind", WIDE, 3e-16, 1.0),
    ("cosd", WIDE, 3e-16, 1.0),
    ("tand", WIDE, 3e-16, 1.0),
    ("secd", WIDE, 3e-16, 1.0),
    ("cscd", WIDE, 3e-16, 1.0),
    ("cotd", WIDE, 6e-16, 1.0),
    ("asind", UNIT, 3e-16, 1.0),
    ("acosd", UNIT, 3e-16, 1.0),
    ("atand", WIDE, 3e-16, 1.0),
    ("asec", WIDE, 3e-16, 1.0),
    ("acsc", WIDE, 3e-16, 1.0),
    ("acot", WIDE, 3e-16, 1.0),
    ("sech", WIDE, 3e-16, 1.0),
    ("csch", WIDE, 3e-16, 1.0),
    ("coth", WIDE, 6e-16, 1.0),
    (
        "asech",
        "[linspace(0, 1, 4001), 10.^linspace(-300, 0, 301), -0, NaN]",
        5e-15,
        1.0,
    ),
    ("acsch", WIDE, 3e-16, 1.0),
    (
        "acoth",
        "[1 + 10.^linspace(-16, 300, 1501), -1 - 10.^linspace(-16, 300, 1501), Inf, -Inf, NaN]",
        5e-10,
        1.0,
    ),
    ("deg2rad", WIDE, 0.0, 0.0),
    ("rad2deg", WIDE, 0.0, 0.0),
    ("sinpi", WIDE, 3e-16, 1.0),
    ("cospi", WIDE, 3e-16, 1.0),
    ("nextpow2", WIDE, 0.0, 0.0),
    (
        "pow2",
        "[linspace(-1100, 1100, 4401), -1074:1023, 0.5, -0.5, 0, -0, Inf, -Inf, NaN]",
        3e-16,
        1.0,
    ),
    ("signbit", WIDE, 0.0, 0.0),
    ("realsqrt", "abs(W)", 0.0, 0.0),
    ("reallog", "abs(W)", 3e-16, 1.0),
];

/// `R`/`H` device and host results over `X`, `Rs`/`Hs` the same in single: the largest
/// relative error where the host's answer is finite and nonzero, identical elsewhere (zeros
/// with their signs), classes equal; then fallbacks.
const COMPARE: &str = "ok = isfinite(H) & H ~= 0; rel = [0, abs(R(ok) - H(ok)) ./ max(abs(H(ok)), realmin)]; \
    same = isequal(class(R), class(H)) && isequaln(R(~ok), H(~ok)) && isequal(1 ./ R(H == 0), 1 ./ H(H == 0)); \
    oks = isfinite(Hs) & Hs ~= 0; us = [0, double(abs(Rs(oks) - Hs(oks))) ./ double(eps(Hs(oks)))]; \
    same = same && isequal(class(Rs), class(Hs)) && isequaln(Rs(~oks), Hs(~oks)) \
        && isequal(1 ./ Rs(Hs == 0), 1 ./ Hs(Hs == 0)); \
    s = gpuStats; fprintf('%d %g %d %g\\n', same, max(rel), s.Session.Fallbacks, max(us))";

/// Checks one function: prints and asserts specials, bounds, no fallback, laziness.
fn check(f: &str, code: &str, bound: f64, single_ulps: f64) -> String {
    let gpu = has_gpu();
    let text = out(code);
    let parts: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(parts.len(), 4, "{f}: {text}");
    assert_eq!(
        parts[0], "1",
        "{f}: classes or Inf/NaN/zeros differ: {text}"
    );
    let worst: f64 = parts[1].parse().expect("number");
    assert!(
        worst <= bound,
        "f64 {f} is {worst} relative from the host: {text}"
    );
    let single: f64 = parts[3].parse().expect("number");
    assert!(
        single <= single_ulps,
        "single {f} is {single} ulp off: {text}"
    );
    if gpu {
        assert_eq!(parts[2], "0", "{f} fell back to the host: {text}");
    }
    format!("{f}: f64 {worst:e}, single {single} ulp")
}

fn unary_code(f: &str, points: &str) -> String {
    // Odd sizes: the points as they come (thousands, odd), and a 3x5 block of them.
    format!(
        "W = {WIDE}; X = {points}; X = X(:)'; X = X(1:end - 1 + mod(numel(X), 2)); \
         G = gpuArray(X); R = {f}(G); assert(~strcmp(class(R), 'double')); R = gather(R); H = {f}(X); \
         S = single(X); Rs = gather({f}(gpuArray(S))); Hs = {f}(S); \
         B = reshape(X(1:15), 3, 5); Rb = gather({f}(gpuArray(B))); Hb = {f}(B); \
         assert(isequal(size(Rb), [3 5]) && isequaln(isnan(Rb), isnan(Hb)) \
             && all(Rb(:) == Hb(:) | abs(Rb(:) - Hb(:)) <= 1e-8 * abs(Hb(:)) | isnan(Hb(:)))); {COMPARE}"
    )
}

#[test]
fn unary_functions_match_the_host() {
    // Every function is checked and reported before the test fails on any.
    let mut report = Vec::new();
    let mut failed = Vec::new();
    for (f, points, bound, single) in UNARY {
        let code = unary_code(f, points);
        match std::panic::catch_unwind(|| check(f, &code, *bound, *single)) {
            Ok(line) => report.push(line),
            Err(_) => failed.push(*f),
        }
    }
    println!("{}", report.join("\n"));
    assert!(failed.is_empty(), "failed: {failed:?}");
}

#[test]
fn binary_functions_match_the_host() {
    let cases: &[(&str, &str, &str, f64, f64)] = &[
        // nthroot: odd roots of any sign, even and fractional roots of nonnegatives.
        (
            "nthroot",
            "[W, W, abs(W), abs(W)]",
            "[3 * ones(size(W)), -5 * ones(size(W)), 2 * ones(size(W)), 0.5 * ones(size(W))]",
            3e-16,
            1.0,
        ),
        ("atan2d", "[W, W(end:-1:1)]", "[W(end:-1:1), W]", 3e-16, 1.0),
        (
            "pow2",
            "W",
            "round(W(end:-1:1)) .* (abs(W(end:-1:1)) < 1100)",
            0.0,
            0.0,
        ),
        (
            "beta",
            "abs(W(abs(W) < 1e15)) + 0.01",
            "linspace(0.01, 30, nnz(abs(W) < 1e15))",
            1e-13,
            2.0,
        ),
        // Powers of negative bases by whole exponents held in an array.
        (
            "power",
            "[-abs(W), W]",
            "[round(linspace(-40, 40, numel(W))), round(W(end:-1:1)) .* (abs(W(end:-1:1)) < 1e3)]",
            3e-16,
            0.0,
        ),
        ("realpow", "abs(W)", "linspace(-3, 3, numel(W))", 3e-16, 0.0),
    ];
    let mut report = Vec::new();
    for (f, xs, ys, bound, single) in cases {
        let code = format!(
            "W = {WIDE}; X = {xs}; Y = {ys}; \
             R = gather({f}(gpuArray(X), gpuArray(Y))); H = {f}(X, Y); \
             S = single(X); T = single(Y); Rs = gather({f}(gpuArray(S), gpuArray(T))); Hs = {f}(S, T); {COMPARE}"
        );
        report.push(check(f, &code, *bound, *single));
    }
    println!("{}", report.join("\n"));
}

#[test]
fn domain_checks_keep_real_results_lazy_and_give_complex_ones_from_the_host() {
    // Inside the domain: lazy (one check kernel, then the function fused with what follows).
    let text = out(
        "x = gpuArray(linspace(-1, 1, 1001)); y = asin(x) + acos(x) + atanh(x * 0.5); \
         a = acosh(gpuArray(linspace(1, 9, 11))); l = log1p(gpuArray(linspace(-1, 3, 9))); \
         p = gpuArray([-2 -3 4]) .^ gpuArray([2 3 -1]); \
         fprintf('%d %d %d %d ', isreal(y), isreal(a), isreal(l), isreal(p)); \
         fprintf('%d ', isequal(gather(p), [4 -27 0.25])); \
         s = gpuStats; fprintf('%d', s.Session.Fallbacks)",
    );
    if has_gpu() {
        assert_eq!(text, "1 1 1 1 1 0");
    } else {
        assert!(text.starts_with("1 1 1 1 1"), "{text}");
    }
    // Outside: MATLAB's complex answers, as the host gives them.
    for (dev, host) in [
        ("asin(gpuArray([0.5 2]))", "asin([0.5 2])"),
        ("acos(gpuArray([-3 0.5]))", "acos([-3 0.5])"),
        ("atanh(gpuArray([0.5 -2]))", "atanh([0.5 -2])"),
        ("acosh(gpuArray([0.5 2]))", "acosh([0.5 2])"),
        ("log1p(gpuArray([-2 1]))", "log1p([-2 1])"),
        ("gpuArray([-8 4]) .^ gpuArray([0.5 2])", "[-8 4] .^ [0.5 2]"),
        ("gpuArray([-8 4]) .^ (1/3)", "[-8 4] .^ (1/3)"),
    ] {
        let text = out(&format!(
            "r = gather({dev}); h = {host}; fprintf('%d %d', isreal(r), isequaln(r, h))"
        ));
        assert_eq!(text, "0 1", "{dev}");
    }
    // Errors stay the host's: nthroot of a negative by an even root, realsqrt of negatives.
    let (id, _) = common::err("nthroot(gpuArray([-8 8]), 2)");
    assert_eq!(id, "MATLAB:nthroot:NegXNotOddIntegerN");
    let (_, msg) = common::err("realsqrt(gpuArray([-1 4]))");
    assert!(!msg.is_empty());
}

#[test]
fn black_scholes_with_erfc_is_one_kernel() {
    // The script: log, sqrt, exp and erfc over singles, then mean; every function
    // fuses with its neighbours (no host step, no fallback).
    let text = out(
        "n = 20001; S = gpuArray(single(100 + 20 * rand(1, n))); K = single(100); T = single(0.5); \
         r = single(0.02); v = single(0.3); gpuStats reset; \
         d1 = (log(S ./ K) + (r + v^2/2) * T) ./ (v * sqrt(T)); d2 = d1 - v * sqrt(T); \
         C = S .* 0.5 .* erfc(-d1 / sqrt(2)) - K * exp(-r * T) .* 0.5 .* erfc(-d2 / sqrt(2)); \
         m = gather(mean(C)); Sh = gather(S); \
         d1h = (log(Sh ./ K) + (r + v^2/2) * T) ./ (v * sqrt(T)); d2h = d1h - v * sqrt(T); \
         Ch = Sh .* 0.5 .* erfc(-d1h / sqrt(2)) - K * exp(-r * T) .* 0.5 .* erfc(-d2h / sqrt(2)); \
         s = gpuStats; fprintf('%s %d %d %d', class(m), abs(m - mean(Ch)) < 1e-3 * abs(m), \
         s.Session.Fallbacks, s.Session.Kernels)",
    );
    let parts: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(&parts[..3], &["single", "1", "0"], "{text}");
    if has_gpu() {
        // S ./ K computed for log's check that it has no negatives, the check, then one
        // kernel for C and mean's one or two.
        assert!(parts[3].parse::<u32>().expect("count") <= 5, "{text}");
        // Singles' erfc is the f32 one (shaders/erf_f32.wgsl), not f64's rounded.
        let k = out("G = gpuArray(single(1:8)); explain -wgsl y = erfc(G) + erf(G)");
        assert!(
            k.contains("fn erfc_tail32(") && !k.contains("fn m_erfc(a0: f32)"),
            "{k}"
        );
    }
}

/// Elementwise builtins (found below by what they do) that have no device form, and why.
/// docs/device-functions.md gives the same list.
const HOST_ONLY: &[(&str, &str)] = &[
    (
        "bitand",
        "bit operations: integers on the device are not built yet",
    ),
    (
        "bitcmp",
        "bit operations: integers on the device are not built yet",
    ),
    (
        "bitor",
        "bit operations: integers on the device are not built yet",
    ),
    (
        "bitset",
        "bit operations: integers on the device are not built yet",
    ),
    (
        "bitshift",
        "bit operations: integers on the device are not built yet",
    ),
    (
        "bitxor",
        "bit operations: integers on the device are not built yet",
    ),
    ("complex", "complex results"),
    (
        "eps",
        "not built yet (the spacing of doubles and singles, from their bits)",
    ),
    (
        "factorial",
        "errors on non-integers; exact integer products as the host rounds them",
    ),
    ("gcd", "Euclid's loop per element; integer results"),
    ("int16", "integer classes: not on the device yet"),
    ("int32", "integer classes: not on the device yet"),
    ("int64", "integer classes: not on the device yet"),
    ("int8", "integer classes: not on the device yet"),
    ("isprime", "trial division per element"),
    ("lcm", "Euclid's loop per element; integer results"),
    (
        "range",
        "range(A, B) of two arrays, a host extension (MATLAB takes a dimension)",
    ),
    ("uint16", "integer classes: not on the device yet"),
    ("uint32", "integer classes: not on the device yet"),
    ("uint64", "integer classes: not on the device yet"),
    ("uint8", "integer classes: not on the device yet"),
    ("weekday", "calendar arithmetic"),
];

/// Builtins the probe must not call (side effects, or waits).
const DO_NOT_CALL: &[&str] = &[
    "exit",
    "quit",
    "pause",
    "input",
    "keyboard",
    "system",
    "unix",
    "dos",
    "cd",
    "delete",
    "rmdir",
    "mkdir",
    "diary",
    "beep",
    "rng",
    "clc",
    "close",
    "figure",
    "error",
    "warning",
    "assert",
    "rethrow",
    "throw",
    "throwAsCaller",
    "eval",
    "evalin",
    "evalc",
    "run",
    "save",
    "load",
    "clear",
    "clearvars",
    "more",
    "format",
    "tic",
    "toc",
    "rand",
    "randn",
    "randi",
    "randperm",
    "gpuStats",
    "gpuCalibrate",
    "drawnow",
    "subplot",
    "hold",
    "print",
    "cla",
    "clf",
    "cputime",
    "now",
    "clock",
    "datetime",
    "tempname",
    "input",
    "gpuDevice",
    "reset",
    "dbstop",
    "profile",
    "exist",
    "which",
    "type",
    "edit",
    "open",
    "web",
    "setenv",
    "fclose",
    "fopen",
    "mlock",
    "munlock",
    "addpath",
    "rmpath",
    "path",
    "userpath",
    "cellfun",
    "arrayfun",
    "feval",
    "builtin",
    "onCleanup",
    "timer",
    "lasterr",
    "lastwarn",
    "dbquit",
    "gpuArray",
    "gather",
    "explain",
    "whos",
    "who",
    "disp",
    "display",
    "fprintf",
    "sprintf",
    "history",
    "help",
    "doc",
    "lookfor",
    "version",
    "ver",
    "license",
    "inputname",
    "nargin",
    "nargout",
    "narginchk",
    "nargoutchk",
    "mfilename",
    "dbstack",
    "waitbar",
    "uiwait",
];

/// The probes: fractions, numbers past 1, whole numbers, logicals (second arguments that
/// are not valid dimensions or digit counts where they can be).
const PROBES: [(&str, &str); 4] = [
    (
        "[0.3 0.7 0.1; 0.45 0.9 0.2]",
        "[2.5 3.5 0.5; 1.5 4.25 0.25]",
    ),
    ("[1.5 2.5 3; 1.25 2 1.75]", "[3.5 1.5 2.5; 2.25 5.5 3.5]"),
    ("[1 2 3; 4 5 6]", "[13 11 12; 12 17 11]"),
    (
        "[true false true; false true true]",
        "[true true false; false false true]",
    ),
];

/// Whether `f` is elementwise by what it does: on some probe it returns an array of the
/// argument's size, not the argument itself nor one value throughout, whose every element
/// is `f` of the arguments' elements.
fn elementwise(interp: &mut Interp, f: &str, args: usize) -> bool {
    PROBES.iter().any(|(a, b)| {
        let call = |x: &str, y: &str| match args {
            1 => format!("{f}({x})"),
            _ => format!("{f}({x}, {y})"),
        };
        let code = format!(
            "A = {a}; B = {b}; Y = {}; E = Y; ok = isequal(size(Y), size(A)) && (isnumeric(Y) || islogical(Y)) \
                 && ~isequal(Y, A) && ~isequal(Y, B) && numel(unique(double(Y))) > 1 && ~any(isnan(double(Y(:)))); \
             if ok, for k = 1:numel(A), E(k) = {}; end, ok = isequaln(E, Y); end",
            call("A", "B"),
            call("A(k)", "B(k)")
        );
        output::begin_capture();
        let r = interp.run_str(&code);
        output::end_capture();
        r.is_ok() && matches!(interp.var("ok"), Some(Value::Bool(true)))
    })
}

/// Whether `f` of gpuArrays (on either probe) appends a pending graph node, not a host result.
fn lazy(interp: &mut Interp, f: &str, args: usize) -> bool {
    PROBES.iter().any(|(a, b)| {
        let code = match args {
            1 => format!("A = gpuArray({a}); Y = {f}(A);"),
            _ => format!("A = gpuArray({a}); B = gpuArray({b}); Y = {f}(A, B);"),
        };
        output::begin_capture();
        let r = interp.run_str(&code);
        output::end_capture();
        r.is_ok() && matches!(interp.var("Y"), Some(Value::Device(d)) if !d.node.is_realised())
    })
}

#[test]
fn every_elementwise_builtin_has_a_device_form_or_a_reason() {
    let mut interp = Interp::new();
    let mut missing = Vec::new();
    let mut found = 0;
    for name in matfuse::builtins::names() {
        if DO_NOT_CALL.contains(&name)
            || name.starts_with("is")
                && name.len() > 2
                && name != "isnan"
                && name != "isinf"
                && name != "isfinite"
                && name != "isprime"
        {
            continue;
        }
        let Some(b) = matfuse::builtins::lookup(name) else {
            continue;
        };
        for args in [1usize, 2] {
            let takes = b.min_in <= args && b.max_in.is_none_or(|m| args <= m);
            if !takes || !elementwise(&mut interp, name, args) {
                continue;
            }
            found += 1;
            println!("elementwise: {name}/{args}");
            if !lazy(&mut interp, name, args) {
                missing.push(name);
            }
        }
    }
    missing.sort_unstable();
    missing.dedup();
    let allowed: Vec<&str> = HOST_ONLY.iter().map(|(n, _)| *n).collect();
    assert!(found > 80, "the probe found only {found} elementwise forms");
    assert_eq!(
        missing, allowed,
        "elementwise builtins without a device form (left) against the documented allow-list (right)"
    );
}
