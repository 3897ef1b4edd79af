//! Arrays larger than one storage binding: the result is computed a window at a time (every
//! window one dispatch), with inputs read element for element bound at the same window and
//! broadcast ones whole. The binding limit is lowered with MATFUSE_MAX_BINDING so small
//! arrays split; one test uses the adapter's own limit. An array past one buffer and past the
//! host's memory is MATLAB's error and leaves the workspace usable.

mod common;
use common::{has_gpu, out_in as run};
use matfuse::interp::Interp;

#[test]
fn results_larger_than_a_binding_are_computed_in_windows() {
    // 64 KiB bindings: windows of 8192 elements. (Set before the device is first used.)
    unsafe { std::env::set_var("MATFUSE_MAX_BINDING", "65536") };
    if !has_gpu() {
        return;
    }
    let mut i = Interp::new();
    let out = run(
        &mut i,
        "rng(2); X = rand(50001, 3); r = rand(1, 3); G = gpuArray(X); gpuStats reset; \
         Y = gather(sin(G) .* 2 + r); s = gpuStats; \
         fprintf('%d %d %d\\n', s.Session.Kernels, s.Session.Fallbacks, max(abs(Y - (sin(X) .* 2 + r)), [], 'all') < 1e-15);",
    );
    // 150003 elements in windows of 8192: 19 dispatches of one kernel, the same as the host.
    assert_eq!(out.trim(), "19 0 1");
    // Random numbers keep their stream position across windows; a transposed (strided)
    // input is bound whole and indexed by the element's place in the whole result.
    let out = run(
        &mut i,
        "rng(9); a = gather(rand(20000, 1, 'gpuArray') * 1); rng(9); b = rand(20000, 1); \
         T = gpuArray(rand(90, 100)); t = gather(T' + 1); \
         fprintf('%d %d\\n', isequal(a, b), isequal(t, gather(T)' + 1));",
    );
    assert_eq!(out.trim(), "1 1");
    // A reduction over more than one binding runs a window at a time: a column of 50001 is
    // 7 segments of 8128 (the window less 64), so 3 x 7 partial folds and one pass over
    // the partials.
    let out = run(
        &mut i,
        "gpuStats reset; m = gather(sum(G)); s = gpuStats; \
         fprintf('%d %d %d\\n', s.Session.Kernels, s.Session.Fallbacks, max(abs(m - sum(X)) ./ sum(X)) < 1e-13);",
    );
    assert_eq!(out.trim(), "22 0 1");
}

/// Reductions over more than one binding, every way they split: whole outer blocks per
/// window, segments of long lanes (with parts and a pass over the partials), fused
/// producers with random numbers, NaN handling, positions; lanes too far apart for any
/// window run on the host. All against the host evaluator.
#[test]
fn reductions_larger_than_a_binding_are_split() {
    unsafe { std::env::set_var("MATFUSE_MAX_BINDING", "65536") };
    if !has_gpu() {
        return;
    }
    let mut i = Interp::new();
    let out = run(
        &mut i,
        "rng(2); X = rand(50001, 3); X(7, 2) = NaN; G = gpuArray(X); ok = []; \
         ok(end+1) = isequaln(gather(sum(G)) - sum(X) < 1e-9, sum(X) - sum(X) < 1); \
         a = gather(sum(G, 'all', 'omitnan')); b = sum(X, 'all', 'omitnan'); ok(end+1) = abs(a - b) / b < 1e-13; \
         a = gather(mean(G(:, [1 3]) .* 2)); b = mean(X(:, [1 3]) .* 2); ok(end+1) = max(abs(a - b) ./ b) < 1e-13; \
         a = gather(sum(G, 2)); b = sum(X, 2); ok(end+1) = isequaln(abs(a - b) < 1e-13, ~isnan(b)); \
         [m, k] = max(G); [hm, hk] = max(X); ok(end+1) = isequal(gather(m), hm) && isequal(gather(k), hk); \
         [m, k] = min(G(:)); [hm, hk] = min(X(:)); ok(end+1) = isequal(gather(m), hm) && isequal(gather(k), hk); \
         Y = rand(3, 40000); GY = gpuArray(Y); \
         a = gather(prod(GY .* 0 + 1.00001, 2)); b = prod(Y .* 0 + 1.00001, 2); ok(end+1) = max(abs(a - b) ./ b) < 1e-12; \
         ok(end+1) = isequal(gather(any(GY > 0.99999, 2)), any(Y > 0.99999, 2)); \
         ok(end+1) = isequal(gather(all(GY < 0.99999, 'all')), all(Y < 0.99999, 'all')); \
         Z = rand(50, 300, 7); GZ = gpuArray(Z); \
         a = gather(sum(GZ, 2)); b = sum(Z, 2); ok(end+1) = max(abs(a(:) - b(:))) < 1e-12; \
         a = gather(mean(GZ, 1)); b = mean(Z, 1); ok(end+1) = max(abs(a(:) - b(:))) < 1e-12; \
         rng(4); r = gather(sum(rand(30000, 1, 'gpuArray') .* (1:30000)')); \
         rng(4); h = sum(rand(30000, 1) .* (1:30000)'); ok(end+1) = abs(r - h) / h < 1e-12; \
         s = gpuStats; fprintf('%d', ok); fprintf(' %d\\n', s.Session.Fallbacks);",
    );
    assert_eq!(out.trim(), "111111111111 0");
    // Lanes 15000 apart (max along the third dimension of 50 x 300 x 7): no window holds a
    // row of them, so the host folds them; the answer is the same.
    let out = run(
        &mut i,
        "fprintf('%d\\n', isequal(gather(max(GZ, [], 3)), max(Z, [], 3)));",
    );
    assert_eq!(out.trim(), "1");
}

#[test]
fn an_array_past_one_device_buffer_and_host_memory_is_an_error_and_the_session_goes_on() {
    if !has_gpu() {
        return;
    }
    // 6e8 singles (2.4 GB) are past lavapipe's largest buffer: a gpuArray held on the host
    // (`interp::host_held`), where it used to be the device's out-of-memory error. Past the
    // host's array limit too (1 GB here), computing it is MATLAB's error, and the workspace
    // and the device are as they were.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_matfuse"))
        .arg("-e")
        .arg(
            "a = gpuArray(1:4) * 2; x = zeros(2e8, 1, 'single', 'gpuArray'); \
             y = x .* ones(1, 3, 'single', 'gpuArray') + 1; \
             disp(isgpuarray(y)); try, z = gather(y); catch err, disp(err.identifier), end; \
             disp(exist('z')); clear x y; disp(gather(a)); disp(gather(a + 1))",
        )
        .env("MATFUSE_MAX_ARRAY_BYTES", "1000000000")
        .output()
        .expect("matfuse runs");
    let (o, e) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(
        o,
        "   1\nMATLAB:array:SizeLimitExceeded\n     0\n     2     4     6     8\n     3     5     7     9\n",
        "{e}\n{:?}",
        out.status
    );
}
