//! Losing the device mid-session (wgpu's `destroy`, as a driver reset would): the session
//! continues on the CPU, a warning names the variables whose data was only on the device
//! (they are cleared), and variables with host data survive, as do pending ones that need
//! no device data (they now compute on the host).

mod common;
use common::has_gpu;
use matfuse::interp::Interp;
use matfuse::interp::output;

#[test]
fn after_the_device_is_lost_the_session_continues_on_the_cpu() {
    if !has_gpu() {
        return;
    }
    let mut i = Interp::new();
    output::begin_capture();
    i.run_str(
        "d = gpuArray(1:5) * 2; d = d + 0; disp(gather(d(1))); h = [1 2 3]; \
         rng(5); p = rand(1, 3, 'gpuArray') * 10; rng(5); e = rand(1, 3) * 10;",
    )
    .expect("runs");
    output::end_capture();
    matfuse::gpu::device::lose_for_test();
    output::begin_capture();
    let r = i.run_str("q = h * 2; disp(q); disp(isequal(gather(p), e)); disp(exist('d'))");
    let out = output::end_capture();
    r.expect("the session goes on");
    assert!(
        out.contains("Warning: The GPU was lost")
            && out.contains("cleared: d.")
            && out.contains("     2     4     6\n")
            && out.contains("   1\n")
            && out.ends_with("     0\n"),
        "{out}"
    );
    // Reported once; new arrays run on the CPU.
    output::begin_capture();
    i.run_str("z = sum(gpuArray(1:10) .^ 2); disp(z)")
        .expect("runs");
    let out = output::end_capture();
    assert_eq!(out, "   385\n");
}
