//! `A * B` of gpuArrays runs on the device (`gpu::matmul`): within rounding of the host's
//! product for every pair of layouts (`A*B`, `A'*B`, `A*B'`, `A'*B'`), in single and double,
//! at sizes that are no multiple of the tiles; a long inner dimension split along k; the
//! result resident (nothing read back) and the elementwise work after it fused into one
//! kernel. Must run on the device where an adapter exists; it must exist under
//! MATFUSE_REQUIRE_GPU=1.

use crate::common::{err, has_gpu, out as run};

/// Values the test products use: whole-number arithmetic, so every session makes the same.
const MAKE: &str = "mk = @(r, c, s) reshape(mod((1:r*c)' * s, 10007) / 10007 - 0.5, r, c);";

#[test]
fn products_of_every_layout_match_the_host_in_both_classes() {
    if !has_gpu() {
        return;
    }
    for (class, tol) in [("single", "2e-6"), ("double", "1e-14")] {
        // 131 x 77 times 77 x 45 (odd sizes: partial tiles in every direction), and the
        // transposed forms of the same products through pending transposes.
        let code = format!(
            "{MAKE} a = {class}(mk(131, 77, 7919)); b = {class}(mk(77, 45, 104729)); \
             at = {class}(mk(77, 131, 7919)); bt = {class}(mk(45, 77, 104729)); \
             A = gpuArray(a); B = gpuArray(b); AT = gpuArray(at); BT = gpuArray(bt); \
             gpuStats reset; \
             C1 = A * B; C2 = AT' * B; C3 = A * BT'; C4 = AT' * BT'; \
             s = gpuStats; k = s.Session.Kernels; d = s.Session.BytesDownloaded; \
             r = @(C, H) norm(double(gather(C)) - double(H), 'fro') / norm(double(H), 'fro'); \
             e = [r(C1, a*b), r(C2, at'*b), r(C3, a*bt'), r(C4, at'*bt')]; \
             s = gpuStats; \
             fprintf('%d %d %d %d %s %s %d\\n', k, d, all(e < {tol}), ~any(isnan(e)), \
               class(C4), classUnderlying(C4), s.Session.Fallbacks); \
             disp(size(C4));"
        );
        let out = run(&code);
        // Four kernels, one a product; nothing read back until the checks gather.
        let want = format!("4 0 1 1 gpuArray {class} 0\n   131    45\n");
        assert_eq!(out, want, "{class}: {out}");
    }
}

#[test]
fn a_long_inner_dimension_is_split_and_summed() {
    if !has_gpu() {
        return;
    }
    // The covariance of a tall matrix: one 64 x 64 tile over 20000 rows, split along k.
    let out = run(&format!(
        "{MAKE} x = single(mk(20000, 7, 7919) + 0.25); X = gpuArray(x); \
         gpuStats reset; Xc = X - mean(X); C = Xc' * Xc / (20000 - 1); c = gather(C); \
         s = gpuStats; xc = x - mean(x); h = xc' * xc / (20000 - 1); \
         e = norm(double(c) - double(h), 'fro') / norm(double(h), 'fro'); \
         fprintf('%d %d %d\\n', e < 1e-5, s.Session.Kernels > 3, s.Session.Fallbacks);"
    ));
    assert_eq!(out.trim(), "1 1 0", "{out}");
    // Doubles, where a wrong slice boundary would show far above rounding.
    let out = run(&format!(
        "{MAKE} x = mk(9001, 5, 7919); y = mk(9001, 3, 104729); \
         C = gpuArray(x)' * gpuArray(y); h = x' * y; \
         fprintf('%d\\n', norm(gather(C) - h, 'fro') / norm(h, 'fro') < 1e-14);"
    ));
    assert_eq!(out.trim(), "1", "{out}");
}

#[test]
fn the_work_after_a_product_fuses_and_nothing_is_read_back() {
    if !has_gpu() {
        return;
    }
    let out = run(&format!(
        "{MAKE} a = single(mk(100, 60, 7919)); b = single(mk(60, 90, 104729)); \
         bias = single(mod((1:90) * 31, 101) / 101 - 0.5); \
         A = gpuArray(a); B = gpuArray(b); Bias = gpuArray(bias); gpuStats reset; \
         C = max(A*B*0.5 + Bias, 0); s = gpuStats; k1 = s.Session.Kernels; \
         c = gather(C); s = gpuStats; h = max(a*b*0.5 + bias, 0); \
         fprintf('%d %d %d\\n', k1, s.Session.Kernels, max(abs(c(:) - h(:))) < 1e-5);"
    ));
    // The product is recorded when typed; the epilogue is one fused kernel at the gather.
    assert_eq!(out.trim(), "1 2 1", "{out}");
    // explain says so rather than planning a group for it.
    let plan = run("A = gpuArray(rand(20)); explain F = A * A");
    assert!(
        plan.contains("already computed: nothing is pending"),
        "{plan}"
    );
    assert!(!plan.contains("fused group"), "{plan}");
}

#[test]
fn a_host_matrix_times_a_gpu_array_is_uploaded_not_the_other_way() {
    if !has_gpu() {
        return;
    }
    let out = run(&format!(
        "{MAKE} w = mk(40, 30, 7919); h = mk(30, 20, 104729); W = gpuArray(w); gpuStats reset; \
         C = W * h; D = h' * W'; s = gpuStats; \
         fprintf('%d %d %d %s %s %d %d\\n', s.Session.Kernels, s.Session.BytesUploaded, \
           s.Session.BytesDownloaded, class(C), class(D), \
           norm(gather(C) - w * h, 'fro') < 1e-12, norm(gather(D) - h' * w', 'fro') < 1e-12);"
    ));
    // Two products; h (and h', made on the host) go up, W never comes down.
    assert_eq!(out.trim(), "2 9600 0 gpuArray gpuArray 1 1", "{out}");
}

#[test]
fn what_the_device_does_not_take_goes_to_the_host_with_matlab_errors() {
    if !has_gpu() {
        return;
    }
    // Single times double is a single product on the device (the double converted first);
    // empty operands are the host's product, still a gpuArray.
    let out = run(&format!(
        "{MAKE} a = single(mk(50, 40, 7919)); b = mk(40, 30, 104729); \
         gpuStats reset; C = gpuArray(a) * gpuArray(b); D = gpuArray(b') * a'; s = gpuStats; \
         E = gpuArray(zeros(3, 0)) * gpuArray(zeros(0, 2)); h = double(a) * double(single(b)); \
         fprintf('%s %s %s %d %d %d %s %d\\n', class(C), classUnderlying(C), \
           classUnderlying(D), s.Session.Kernels, \
           norm(double(gather(C)) - h, 'fro') / norm(h, 'fro') < 1e-6, \
           norm(double(gather(D)) - h', 'fro') / norm(h, 'fro') < 1e-6, \
           mat2str(size(E)), isequal(gather(E), zeros(3, 2)));"
    ));
    // Two conversions and two products.
    assert_eq!(out.trim(), "gpuArray single single 4 1 1 [3 2] 1", "{out}");
    // Integers are not multiplied as matrices, on the device or off it.
    let (id, _) = err("D = gpuArray(int32(magic(3))) * gpuArray(int32(eye(3)));");
    assert_eq!(id, "MATLAB:mixedClasses");
    let (id, _) = err("A = gpuArray(rand(3, 4)); B = gpuArray(rand(3, 4)); C = A * B;");
    assert_eq!(id, "MATLAB:innerdim");
}

#[test]
fn vector_products_dots_and_outer_products_match_the_host_and_stay_on_the_device() {
    if !has_gpu() {
        return;
    }
    for (class, tol) in [("single", "1e-6"), ("double", "1e-14")] {
        // Errors are relative to the sum of the terms' magnitudes. Every layout of a matrix-vector product (`gpu::matvec`), short and long sums
        // (the 2000 x 3000 and 3 x 200000 products are split into slices), a dot product
        // and an outer product (lazy graph nodes), at odd sizes.
        let code = format!(
            "{MAKE} x = {class}(mk(1001, 37, 7919)); w = {class}(mk(37, 1, 104729)); \
             v = {class}(mk(1001, 1, 31)); u = {class}(mk(1, 1001, 17)); \
             a = {class}(mk(2000, 3000, 7919)); p = {class}(mk(3000, 1, 104729)); \
             b = {class}(mk(3, 200000, 31)); q = {class}(mk(200000, 1, 17)); \
             X = gpuArray(x); W = gpuArray(w); V = gpuArray(v); U = gpuArray(u); \
             A = gpuArray(a); P = gpuArray(p); B = gpuArray(b); Q = gpuArray(q); \
             gpuStats reset; \
             C = {{X*W, X'*V, U*X, W'*X', V'*X, A*P, A'*A(:, 1), B*Q, Q'*B', V'*V, V*W', U*V}}; \
             s = gpuStats; moved = s.Session.BytesDownloaded + s.Session.BytesUploaded; \
             d = @(t) double(t); m = @(t) abs(double(t)); \
             H = {{d(x)*d(w), d(x)'*d(v), d(u)*d(x), d(w)'*d(x)', d(v)'*d(x), d(a)*d(p), \
               d(a)'*d(a(:, 1)), d(b)*d(q), d(q)'*d(b)', d(v)'*d(v), d(v)*d(w)', d(u)*d(v)}}; \
             M = {{m(x)*m(w), m(x)'*m(v), m(u)*m(x), m(w)'*m(x)', m(v)'*m(x), m(a)*m(p), \
               m(a)'*m(a(:, 1)), m(b)*m(q), m(q)'*m(b)', m(v)'*m(v), m(v)*m(w)', m(u)*m(v)}}; \
             e = cellfun(@(c, h, g) max(abs(double(gather(c)) - h) ./ g, [], 'all'), C, H, M); \
             same = all(cellfun(@(c, h) isequal(size(c), size(h)), C, H)); \
             fprintf('%d %d %d %s %s\\n', moved, all(e < {tol}), same, class(C{{6}}), \
               classUnderlying(C{{12}}));"
        );
        let out = run(&code);
        assert_eq!(out, format!("0 1 1 gpuArray {class}\n"), "{class}: {out}");
    }
    // A dot product is a reduction of the lazy graph: the update before it fuses with it.
    let out = run(
        "r = gpuArray(single(1:1000)'); gpuStats reset; r = r - 0.5; rr = r' * r; \
         g = gather(rr); s = gpuStats; h = single(1:1000)' - 0.5; \
         fprintf('%d %d\\n', s.Session.Kernels <= 2, abs(g - h'*h) / (h'*h) < 1e-6);",
    );
    assert_eq!(out.trim(), "1 1", "{out}");
}
