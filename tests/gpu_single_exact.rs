//! `MATFUSE_SINGLE_MATH=exact`: single-precision exp, sin and cos on the device computed in
//! double and rounded once (math_f32_exact.wgsl), identical to the host's bit for bit. Its own
//! test binary: the setting is read once per process.

mod common;
use common::{has_gpu, out};

#[test]
fn exact_single_functions_match_the_host_bit_for_bit() {
    // SAFETY: set before this process starts any thread that reads the environment.
    unsafe { std::env::set_var("MATFUSE_SINGLE_MATH", "exact") };
    let gpu = has_gpu();
    let args = "rng(5); X = single([(rand(1, 3e5) - 0.5) * 2e5, (rand(1, 2e5) - 0.5) * 20, \
        linspace(-10, 10, 2e5), single(pi) * (-1000:1000), 1e-8, -3e-9, 131071.99, 131072, \
        2e5, 1e30, Inf, -Inf, NaN, 0, -0]); \
        E = single([linspace(-104, 89, 3e5), -87.5, 88.7, 88.8, -103.9, Inf, -Inf, NaN, 0]);";
    let text = out(&format!(
        "{args} for c = {{{{@sin, X}}, {{@cos, X}}, {{@exp, E}}}} \
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
