//! Loop kernels (issue 28): a `for` loop whose iterations append the same graph runs its
//! middle iterations as one kernel with the loop inside; results equal the loop run
//! iteration by iteration (`MATFUSE_LOOPS=off`) and the host evaluator's; loops the kernel
//! cannot take run as before, with the same results and errors; Ctrl-C stops a long one
//! between dispatches with the workspace as of the last iteration done.

mod common;
use common::{has_gpu, out as run};

/// Runs `body` (which sets `r`, a host array of results) on the device with loop kernels,
/// then without, then on host arrays (`gpuArray` taken out); prints whether all agree
/// (relative `tol`) and the kernels of the first run. (Kept to cheap functions: a first
/// compile of f64 `sin` or of random normals takes seconds on lavapipe, and the loop run
/// iteration by iteration compiles a kernel per chain length.)
fn agree(setup: &str, body: &str, tol: f64) -> String {
    // `setenv('MATFUSE_LOOPS', 'off')` is the process's environment: a test running beside
    // this one would lose its loop kernels meanwhile (and its kernel counts with them).
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let host_setup = setup.replace(", 'gpuArray'", "").replace("gpuArray", "");
    let host_body = body.replace(", 'gpuArray'", "").replace("gpuArray", "");
    run(&format!(
        "function ok = near(a, b, tol)
           a = double(a); b = double(b);
           ok = isequal(size(a), size(b)) && all(abs(a(:) - b(:)) <= tol * max(1, abs(b(:))));
         end
         {setup} gpuStats reset; {body} s = gpuStats; k = s.Session.Kernels; r1 = gather(r);
         setenv('MATFUSE_LOOPS', 'off');
         {setup} gpuStats reset; {body} s = gpuStats; k0 = s.Session.Kernels; r0 = gather(r);
         setenv('MATFUSE_LOOPS', '');
         {host_setup} {host_body} rh = r;
         fprintf('agree %d %d kernels %d off %d\\n', near(r1, r0, {tol}), near(r1, rh, {tol}), k, k0);"
    ))
}

fn kernels(out: &str) -> (usize, usize) {
    let words: Vec<&str> = out.split_whitespace().collect();
    let at = |w: &str| {
        words
            .iter()
            .position(|x| *x == w)
            .and_then(|i| words.get(i + 1))
            .and_then(|x| x.parse().ok())
            .unwrap_or(usize::MAX)
    };
    (at("kernels"), at("off"))
}

#[test]
fn an_ema_over_columns_is_one_loop_kernel() {
    if !has_gpu() {
        return;
    }
    // 4096 rows: columns start on 256 bytes (views of the storage); 4097: view nodes.
    for (rows, class) in [(4096, "single"), (4097, "single"), (4097, "double")] {
        let setup = format!(
            "rng(2); X = rand({rows}, 64, '{class}', 'gpuArray'); y = zeros({rows}, 1, '{class}', 'gpuArray');"
        );
        let body = "for t = 1:64, y = 0.05 * X(:, t) + 0.95 * y; end; r = gather(y(1:50)); \
                    if t ~= 64, error('t'); end;";
        let out = agree(&setup, body, 1e-5);
        assert!(out.contains("agree 1 1"), "{rows} {class}: {out}");
        let (k, off) = kernels(&out);
        // Two iterations, the loop kernel, the last iteration with the read: not one a step.
        assert!(k <= 6 && off >= 8, "{rows} {class}: {out}");
    }
}

#[test]
fn monte_carlo_draws_continue_the_stream() {
    if !has_gpu() {
        return;
    }
    // Two carried variables, a temporary drawn each step; the draw after the loop must be
    // the stream's next value, as if every iteration had drawn.
    let setup = "rng(1); S = 100 * ones(101, 1, 'single', 'gpuArray'); \
                 V = zeros(101, 1, 'single', 'gpuArray');";
    let body = "for s = 1:200, z = randn(101, 1, 'single', 'gpuArray'); \
                S = S .* (1.0001 + 0.01 * z); V = 0.9 * V + abs(z); end; \
                r = [gather(S(1:20)); gather(V(1:20)); gather(z(1:5)); rand(3, 1); s];";
    let out = agree(setup, body, 1e-4);
    assert!(out.contains("agree 1 1"), "{out}");
    let (k, off) = kernels(&out);
    assert!(k <= 10 && off >= k + 4, "{out}");
}

#[test]
fn carried_values_passed_between_variables() {
    if !has_gpu() {
        return;
    }
    // `a = b` hands one carried value to another; `c` is a temporary, assigned each step.
    // (200 steps: a pending chain holds 30 of them whole, counting its shared work once,
    // so unrolled they took fewer kernels than the loop kernel's five.)
    let setup = "a = zeros(77, 1, 'gpuArray'); b = gpuArray((1:77)');";
    let body = "for t = 1:200, c = a + b; a = b; b = c * 0.5 - a .* a / 1000; end; \
                r = [gather(a); gather(b); gather(c)];";
    let out = agree(setup, body, 1e-12);
    assert!(out.contains("agree 1 1"), "{out}");
    let (k, off) = kernels(&out);
    assert!(k < off, "{out}");
}

/// Reductions that feed only carried values of one element (`acc = acc + sum(y)`,
/// `m = max(m, max(y))`, a mean, a min of an expression, a NaN-skipping sum) are carried in
/// the loop kernel: a handful of kernels for the loop, not a few an iteration; the results
/// are the host's (NaN where the host's sum meets a NaN, skipped where max and 'omitnan' skip
/// it). A reduction read back into the elements (normalising by a sum) runs iteration by
/// iteration with the same results.
#[test]
fn carried_reductions_stay_in_the_loop_kernel() {
    if !has_gpu() {
        return;
    }
    for (class, tol) in [("single", 1e-4), ("double", 1e-12)] {
        let setup = format!(
            "rng(2); X = rand(301, 120, '{class}', 'gpuArray'); X(7, 50) = NaN; \
             y = zeros(301, 1, '{class}', 'gpuArray'); acc = 0; m = -Inf; mu = 0; lo = Inf; sk = 0;"
        );
        let body = "for t = 1:120, y = 0.05 * X(:, t) + 0.95 * y; acc = acc + sum(y); \
                    m = max(m, max(y)); mu = 0.5 * mu + mean(X(:, t)); lo = min(lo, -min(y) * 2); \
                    sk = sk + sum(X(:, t), 'omitnan'); end; \
                    r = [gather(y(8:27)); isnan(gather(acc)); gather(m); isnan(gather(mu)); gather(lo); gather(sk)];";
        let out = agree(&setup, body, tol);
        assert!(out.contains("agree 1 1"), "{class}: {out}");
        let (k, off) = kernels(&out);
        // Three iterations as usual, the loop kernel's three, the last iteration's: against
        // about seven an iteration without.
        assert!(k * 10 < off && k <= 45, "{class}: {out}");
    }
    // Without NaN the sums themselves agree.
    let setup = "rng(4); X = rand(257, 90, 'gpuArray'); y = zeros(257, 1, 'gpuArray'); acc = 0;";
    let body = "for t = 1:90, y = 0.1 * X(:, t) + 0.9 * y; acc = acc + sum(y .* y); end; \
                r = [gather(acc); gather(y(1:5))];";
    let out = agree(setup, body, 1e-12);
    assert!(out.contains("agree 1 1"), "{out}");
    let feedback =
        "z = gpuArray((1:100)'); for t = 1:50, z = z / sum(z) + 0.001; end; r = gather(z);";
    let out = agree("", feedback, 1e-12);
    assert!(out.contains("agree 1 1"), "{out}");
}

#[test]
fn loops_a_kernel_cannot_take_run_as_before() {
    if !has_gpu() {
        return;
    }
    // sqrt of values whose sign the iterations decide; a row read moving backwards with an
    // integer power; a subscript that leaves its array at iteration 41 (the error and the
    // workspace at that iteration must be the host's).
    let cases = [
        (
            "y = 4 * ones(50, 1, 'gpuArray');",
            "for t = 1:10, y = sqrt(y) - 0.1; end; r = gather(y);",
        ),
        (
            "rng(3); X = rand(50, 40, 'gpuArray'); y = zeros(1, 40, 'gpuArray');",
            "for t = 50:-1:1, y = 0.5 * y + X(t, :) .^ 2; end; r = gather(y);",
        ),
        (
            "rng(3); X = rand(50, 40, 'gpuArray'); y = zeros(50, 1, 'gpuArray');",
            "try, for t = 1:45, y = y + X(:, t); end; catch e, end; \
             r = [gather(y); t; numel(e.message)];",
        ),
    ];
    for (setup, body) in cases {
        let out = agree(setup, body, 1e-12);
        assert!(out.contains("agree 1 1"), "{setup} {body}: {out}");
    }
    // A body that prints runs every iteration.
    let printed = run(
        "y = zeros(8, 1, 'gpuArray'); for t = 1:6, y = y + 1; fprintf('.'); end; \
         fprintf('%d\\n', gather(y(1)));",
    );
    assert_eq!(printed.trim(), "......6");
}

#[test]
fn ctrl_c_stops_a_long_loop_kernel_with_the_iterations_done() {
    if !has_gpu() {
        return;
    }
    use std::sync::atomic::Ordering;
    let mut interp = matfuse::interp::Interp::new();
    common::out_in(
        &mut interp,
        "rng(5); X = rand(20000, 40, 'single', 'gpuArray'); y = zeros(20000, 1, 'single', 'gpuArray');",
    );
    let flag = interp.interrupt.clone();
    let raiser = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(400));
        flag.store(true, Ordering::SeqCst);
    });
    matfuse::interp::output::begin_capture();
    // About 2e9 element-steps: minutes on lavapipe, were it not stopped.
    let r = interp
        .run_str("for t = 1:1000000, y = 0.999 * y + 0.001 * X(:, mod(0, 40) + 1) .* cos(y); end");
    matfuse::interp::output::end_capture();
    let _ = raiser.join();
    let e = r.expect_err("the loop is interrupted");
    assert!(e.data().interrupt, "{}", e.report());
    // The workspace is the loop's after t - 1 iterations (t is the first not run): the same
    // recurrence on the host agrees.
    let check = common::out_in(
        &mut interp,
        "Xh = gather(X(:, 1)); yh = zeros(20000, 1, 'single'); \
         for k = 1:t - 1, yh = 0.999 * yh + 0.001 * Xh .* cos(yh); end; \
         d = max(abs(double(gather(y)) - double(yh)) ./ max(1, abs(double(yh)))); \
         fprintf('t %d ok %d\\n', t, d < 1e-3 || t < 3);",
    );
    assert!(check.contains("ok 1"), "{check}");
    let t: usize = check
        .split_whitespace()
        .nth(1)
        .and_then(|x| x.parse().ok())
        .unwrap_or(0);
    assert!(t > 2 && t < 1_000_000, "{check}");
}
