//! Arrays larger than one storage binding: the result is computed a window at a time (every
//! window one dispatch), with inputs read element for element bound at the same window and
//! broadcast ones whole. The binding limit is lowered with MATFUSE_MAX_BINDING so small
//! arrays split; one test uses the adapter's own limit. Out of device memory is MATLAB's
//! error and leaves the workspace usable.

mod common;
use common::{has_gpu, out_in as run};
use matfuse::interp::Interp;
use matfuse::interp::output;

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
    // A reduction over more than one binding runs on the host, with the same answer.
    let out = run(
        &mut i,
        "m = gather(sum(G)); fprintf('%d\\n', max(abs(m - sum(X))) < 1e-9);",
    );
    assert_eq!(out.trim(), "1");
}

#[test]
fn running_out_of_device_memory_is_an_error_and_the_session_goes_on() {
    if !has_gpu() {
        return;
    }
    let mut i = Interp::new();
    run(
        &mut i,
        "a = gpuArray(1:4) * 2; x = rand(2e9, 1, 'single', 'gpuArray');",
    );
    output::begin_capture();
    let r = i.run_str("y = x + 1; disp(y(1))");
    output::end_capture();
    let e = r.expect_err("an 8 GB array cannot fit");
    assert_eq!(e.identifier(), "parallel:gpu:array:OOM");
    // The workspace is as it was, and the device still works.
    let out = run(&mut i, "clear x y; disp(gather(a)); disp(gather(a + 1))");
    assert_eq!(out, "     2     4     6     8\n     3     5     7     9\n");
}
