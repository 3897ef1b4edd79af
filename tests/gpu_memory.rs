//! What lazy values hold on to. A computed result keeps a leaf of its data, not what it was
//! computed from, so a long loop holds one array, not one per chain; and a pending value
//! holding data nothing else holds is computed once that passes `MATFUSE_PENDING_BYTES`.
//! gpuStats' DeviceBytes (bytes of device buffers held by arrays) shows both.

mod common;
use common::{has_gpu, out_in};
use matfuse::interp::Interp;

#[test]
fn computed_values_and_pending_budgets_let_go_of_their_inputs() {
    // 2 MB: the budget for data held only by pending values. (Set before any test runs a
    // statement; this file has one test.)
    unsafe { std::env::set_var("MATFUSE_PENDING_BYTES", "2000000") };
    if !has_gpu() {
        return;
    }
    let mut i = Interp::new();
    // 1000 steps are about 11 chains of 96; each chain's result used to hold the previous
    // one's buffer. Now the loop holds x alone (one 1 MiB size class), also with a sink
    // reading x inside the loop.
    // (`x(1)` in the second loop reads element 1 through the pending steps, `graph::sink`,
    // so x is computed only where its chain budget ends: still one array.)
    let out = out_in(
        &mut i,
        "x = gpuArray((1:1e5)'); for k = 1:1000, x = x * 0.5 + 1; end; \
         s = gpuStats; fprintf('%d ', s.DeviceBytes); \
         for k = 1:200, x = x * 0.5 + 1; if x(1) < 0, break; end; end; \
         s = gpuStats; fprintf('%d', s.DeviceBytes);",
    );
    assert_eq!(out, "1048576 1048576");
    let out = out_in(
        &mut i,
        "s = gpuStats; fprintf('%d %d', s.DeviceBytes, max(abs(gather(x) - 2)) < 1e-12);",
    );
    assert_eq!(out, "1048576 1");
    // Each y (800 kB of uploaded data) is held only by acc's pending sum once y is
    // reassigned: past 2 MB the sum is computed, so the loop holds a few arrays, not 40.
    let out = out_in(
        &mut i,
        "clear x; acc = gpuArray(zeros(1e5, 1)); gpuStats reset; \
         for k = 1:40, y = gpuArray((k:k + 99999)'); acc = acc + y; end; \
         s = gpuStats; fprintf('%d %d %d', s.Session.Kernels, s.DeviceBytes <= 4 * 1048576, \
         isequal(gather(acc(1:2))', [820 860]));",
    );
    assert_eq!(out, "13 1 1");
    // A computed variable named four times is four leaves over one array it still holds
    // (800 kB each time, 3.2 MB in all): nothing is let go by computing early, so the
    // expression stays one kernel; reading the element y(1) computes that element alone
    // through the pending work (`graph::sink`), so that one kernel is all.
    let out = out_in(
        &mut i,
        "x = gpuArray((1:1e5)') * 2; q = gather(x(1)); gpuStats reset; \
         y = x.*x + x.*x.*x + sin(x) + x; q = gather(y(1)); s = gpuStats; \
         fprintf('%d %d', s.Session.Kernels, abs(q - 14 - sin(2)) < 1e-12);",
    );
    assert_eq!(out, "1 1");
}
