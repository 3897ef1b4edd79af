//! `var`/`std` with `mean` of the same lanes: one pass over the values for both on the device
//! (`gpu::moments`), the mean identical to a plain `mean`'s, the results within rounding of
//! the host's two-pass ones. Must run on the device where an adapter exists; it must exist
//! under MATFUSE_REQUIRE_GPU=1.

use crate::common::{has_gpu, out as run};

#[test]
fn mean_and_std_of_the_same_lanes_read_the_values_once() {
    if !has_gpu() {
        return;
    }
    // 3 lanes of 50000: each lane in parts, so the fold merges several.
    let out = run("rng(2); G = gpuArray(single(randn(50000, 3) + 5)); \
         m1 = gather(mean(G)); gpuStats reset; \
         mu = mean(G); sd = std(G); v = var(G); y = gather(sd); s = gpuStats; \
         fprintf('%d ', s.Session.Kernels); a = gather(mu); b = gather(v); s = gpuStats; \
         fprintf('%d %d %d\\n', s.Session.Kernels, isequal(a, m1), s.Session.Fallbacks);");
    // One first pass and two folds, then std's square root (two passes each for the mean and
    // the squared deviations would make 5); the mean comes with them and var takes one more
    // kernel, its division.
    assert_eq!(out.trim(), "4 5 1 0", "{out}");
}

#[test]
fn a_computed_or_host_array_is_read_once_too() {
    if !has_gpu() {
        return;
    }
    // A computed variable enters new work as a leaf of its data, the same leaf each time
    // while one is in use: otherwise std's mean would be a node apart from mu's (10 kernels,
    // not 5), and `sin(G) .* 2` typed twice would run twice.
    let out = run(
        "rng(2); G = gpuArray(single(randn(50000, 3))) + 5; g = gather(G); m1 = gather(mean(G)); \
         gpuStats reset; mu = mean(G); sd = std(G); y = gather(sd); a = gather(mu); \
         p = sin(G) .* 2; q = sin(G) .* 2; b = gather(p); c = gather(q); s = gpuStats; \
         fprintf('%d %d %d\\n', s.Session.Kernels, isequal(a, m1), isequal(b, c));",
    );
    assert_eq!(out.trim(), "5 1 1", "{out}");
    // A host array in the graph (offloaded) is one leaf too: uploaded once, one pass.
    let code = "x = magic(200); gpuStats reset; mu = mean(x); sd = std(x); a = gather(sd); \
         b = gather(mu); s = gpuStats; fprintf('%d %d %d', s.Session.Kernels, \
         s.Session.BytesUploaded, isequal(b, mean(magic(200))));";
    let o = crate::common::run_code_with(code, &[("MATFUSE_OFFLOAD", "always")]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        text.trim(),
        "4 320000 1",
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn moments_match_the_host_within_rounding() {
    if !has_gpu() {
        return;
    }
    // Errors relative to the largest result: a lane of two values one ulp apart has a tiny
    // deviation that single arithmetic cannot resolve (two-pass or not).
    let cases = [
        // Lanes in parts, far from zero (cancellation would show), single and double.
        ("single(randn(70000, 2) * 3 + 1e3)", 2e-5),
        ("randn(70000, 2) * 3 + 1e6", 1e-12),
        // Short lanes (one part), rows, 'all', a lane of one value, w = 1.
        ("single(rand(5, 40))", 2e-6),
        ("rand(1, 900)", 1e-13),
        ("rand(1, 1) + zeros(1, 3)", 0.0),
    ];
    let forms = [
        "std(G)",
        "var(G)",
        "std(G, 1)",
        "var(G, 0, 'all')",
        "std(G, 0, 2)",
        "[mean(G); std(G)]",
    ];
    for (make, tol) in cases {
        let mut code = format!("rng(7); X = {make}; G = gpuArray(X); H = X; bad = '';");
        for (k, form) in forms.iter().enumerate() {
            let host = form.replace('G', "H");
            code.push_str(&format!(
                "mu = mean(G); r = double(gather({form})); h = double({host}); \
                 e = max(abs(r(:) - h(:))) / max(abs(h(:))); \
                 if ~isequal(size(r), size(h)) || e > {tol}, bad = [bad ' {k}:' num2str(e)]; end; \
                 clear mu r;"
            ));
        }
        code.push_str("s = gpuStats; fprintf('[%s] %d\\n', bad, s.Session.Fallbacks);");
        assert_eq!(run(&code).trim(), "[] 0", "{make}");
    }
}

#[test]
fn moments_keep_nan_and_inf_as_matlab_does() {
    if !has_gpu() {
        return;
    }
    // A NaN or an Inf in a lane makes its deviation NaN; other lanes are untouched.
    let out = run("X = [1 2 NaN 4; 5 6 7 8; 1 Inf 3 4]'; G = gpuArray(X); \
         mu = mean(G); s = gather(std(G)); m = gather(mu); \
         fprintf('%g ', s, m); fprintf('\\n');");
    assert_eq!(out.trim(), "NaN 1.29099 NaN NaN 6.5 Inf", "{out}");
}
