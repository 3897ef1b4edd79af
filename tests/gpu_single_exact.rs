//! `MATFUSE_SINGLE_MATH=exact`: single-precision exp, sin and cos on the device computed in
//! double and rounded once (math_f32_exact.wgsl), identical to the host's bit for bit. Its own
//! test binary: the setting is read once per process.

mod common;
use common::{SINGLE_ARGS, has_gpu, out};

#[test]
fn exact_single_functions_match_the_host_bit_for_bit() {
    // SAFETY: set before this process starts any thread that reads the environment.
    unsafe { std::env::set_var("MATFUSE_SINGLE_MATH", "exact") };
    let gpu = has_gpu();
    let text = out(&format!(
        "{SINGLE_ARGS} for c = {{{{@sin, X}}, {{@cos, X}}, {{@exp, E}}}} \
           f = c{{1}}{{1}}; A = c{{1}}{{2}}; R = gather(f(gpuArray(A))); H = f(A); \
           fprintf('%d ', isequaln(R, H) && isequal(1 ./ R(H == 0), 1 ./ H(H == 0))); \
         end"
    ));
    assert_eq!(text, "1 1 1 ");
    if gpu {
        let k = out("G = gpuArray(single(1:8)); explain -wgsl y = sin(G)");
        assert!(
            k.contains("fn s_sin_cos") && !k.contains("fn keep32"),
            "{k}"
        );
    }
}
