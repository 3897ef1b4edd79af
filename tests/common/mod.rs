//! Helpers shared by the integration tests: run code in a fresh session and look at what it
//! printed or left in the workspace.
#![allow(dead_code)]

use matfuse::interp::Interp;
use matfuse::interp::output;
use matfuse::values::value::Value;

/// Runs `code` in a fresh session; returns everything printed (errors as the prompt shows them).
pub fn run(code: &str) -> String {
    let mut interp = Interp::new();
    matfuse::cli::transcript::run_entry(&mut interp, code)
}

/// Runs `code`, which must succeed, and returns what it printed.
pub fn out(code: &str) -> String {
    out_in(&mut Interp::new(), code)
}

/// Runs `code` in `interp`'s session (so a test can go on in it), which must succeed, and
/// returns what it printed.
pub fn out_in(interp: &mut Interp, code: &str) -> String {
    output::begin_capture();
    let r = interp.run_str(code);
    let text = output::end_capture();
    if let Err(e) = r {
        panic!("code failed: {code}\n{}", e.report());
    }
    text
}

/// Whether a GPU adapter exists; under MATFUSE_REQUIRE_GPU=1 (CI) a missing one fails the
/// test instead of letting its GPU assertions be skipped.
pub fn has_gpu() -> bool {
    let ok = matfuse::gpu::device::ready().is_some();
    if !ok && std::env::var("MATFUSE_REQUIRE_GPU").is_ok_and(|v| v == "1") {
        panic!("MATFUSE_REQUIRE_GPU=1 but no GPU adapter was found");
    }
    ok
}

/// Runs `code` and returns the error it raises (identifier, message).
pub fn err(code: &str) -> (String, String) {
    let mut interp = Interp::new();
    output::begin_capture();
    let r = interp.run_str(code);
    output::end_capture();
    match r {
        Ok(()) => panic!("expected an error from: {code}"),
        Err(e) => (e.identifier().to_string(), e.message().to_string()),
    }
}

/// Runs `code` and returns a base-workspace variable.
pub fn var(code: &str, name: &str) -> Value {
    let mut interp = Interp::new();
    output::begin_capture();
    let r = interp.run_str(code);
    output::end_capture();
    if let Err(e) = r {
        panic!("code failed: {code}\n{}", e.report());
    }
    interp
        .var(name)
        .unwrap_or_else(|| panic!("no variable {name} after: {code}"))
}

/// A real scalar variable.
pub fn num(code: &str, name: &str) -> f64 {
    var(code, name).scalar_f64().expect("a numeric scalar")
}

/// Checks each (code, expected printed text) pair.
pub fn check_all(cases: &[(&str, &str)]) {
    let mut failures = Vec::new();
    for (code, want) in cases {
        let got = run(code);
        if got != *want {
            failures.push(format!(
                "--- code:\n{code}\n--- want:\n{want}\n--- got:\n{got}"
            ));
        }
    }
    if !failures.is_empty() {
        panic!(
            "{} of {} cases failed:\n{}",
            failures.len(),
            cases.len(),
            failures.join("\n")
        );
    }
}

/// The arguments single-precision function tests cover (gpu_math, gpu_single_exact): random over the f64-reduction range
/// and near zero, dense, near multiples of pi, both sides of the f32 and f64 reductions'
/// limits, subnormals and specials, huge ones (integer reduction), singles closest to
/// multiples of pi/2 between 2^7 and 2^17 (a factored reduction is 25 ulp off there); and
/// exp's from underflow to overflow.
pub const SINGLE_ARGS: &str = "rng(5); X = single([(rand(1, 3e5) - 0.5) * 2e5, \
    (rand(1, 2e5) - 0.5) * 20, linspace(-10, 10, 2e5), single(pi) * (-1000:1000), \
    single(pi) * (-30000:7:30000), 1e-8, -3e-9, 1e-40, -1e-40, 1023.99, 1024, 131071.99, \
    131072, 2e5, 1e30, Inf, -Inf, NaN, 0, -0, 10 .^ (4 + 34 * rand(1, 3e4)) .* sign(rand(1, 3e4) - 0.5), \
    16367173 * 2^72, -16367173 * 2^72, 3.4028e38, 2^25, 2^25 - 2, \
    typecast(uint32([1132258801 1149036017 1174201841 1203964245]), 'single')]); \
    E = single([linspace(-104, 89, 3e5), 1e-40, -1e-40, -87.5, 87.5, 88.7, 88.8, -103.9, \
    -200, Inf, -Inf, NaN, 0, -0]);";

/// The decimal literals (those with a point) of WGSL function `name`'s body in `text`, in
/// order: a shader's constants, for host mirrors of its arithmetic.
pub fn shader_literals(text: &str, name: &str) -> Vec<f32> {
    let start = text
        .find(&format!("fn {name}("))
        .unwrap_or_else(|| panic!("{name} in its shader"));
    let body = &text[start..];
    let body = &body[..body.find("\n}\n").expect("the function's end")];
    body.split(|c: char| !(c.is_ascii_digit() || ".-+e".contains(c)))
        .filter(|t| t.contains('.'))
        .map(|t| t.parse::<f64>().expect("a number") as f32)
        .collect()
}

/// Runs `code` through `matfuse -e` in a process of its own with `envs` set (settings read
/// once a process need one): what it printed and how it ended.
pub fn run_code_with(code: &str, envs: &[(&str, &str)]) -> std::process::Output {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_matfuse"));
    cmd.arg("-e").arg(code);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd.output().expect("matfuse runs")
}

/// Runs `script` as a file through the matfuse binary, in a process of its own with `envs`
/// set (settings read once a process, such as the device's, need one); returns what it
/// printed on stdout and on stderr. `name` keeps concurrent tests' files apart.
pub fn run_file_with(name: &str, script: &str, envs: &[(&str, &str)]) -> (String, String) {
    let dir = std::env::temp_dir().join(format!("matfuse_{name}_{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let file = dir.join(format!("{name}.m"));
    std::fs::write(&file, script).expect("the script written");
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_matfuse"));
    cmd.arg(&file);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let got = cmd.output().expect("matfuse runs");
    let _ = std::fs::remove_dir_all(&dir);
    (
        String::from_utf8_lossy(&got.stdout).into_owned(),
        String::from_utf8_lossy(&got.stderr).into_owned(),
    )
}
