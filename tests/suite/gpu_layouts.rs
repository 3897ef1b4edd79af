//! Kernel layouts chosen by shape: broadcast inputs read a vector at a time (a row vector's
//! element, or a column's run, per vector of the result) and reductions folded a thread per
//! lane (lanes side by side, or short). Each is checked against the host evaluator, bit for
//! bit where the arithmetic allows, and the layout is checked in the kernel `explain` shows.

use crate::common::{has_gpu, out};

/// Elementwise results with broadcast row and column vectors equal the host's exactly, at
/// row counts that hold whole vectors (4 singles, 2 doubles) and at ones that do not.
#[test]
fn broadcast_vectors_match_the_host_bit_for_bit() {
    for class in ["single", "double"] {
        for rows in [8, 12, 6, 7] {
            let text = out(&format!(
                "rng(4); A = {class}((rand({rows}, 9) - 0.5) * 10); r = {class}(rand(1, 9) + 0.5); \
                 c = {class}(rand({rows}, 1) - 0.5); B = {class}(rand({rows}, 9, 3)); \
                 G = gpuArray(A); \
                 R1 = gather((G - r) ./ r * 1.5 + 0.25); H1 = (A - r) ./ r * 1.5 + 0.25; \
                 R2 = gather(G .* c + G); H2 = A .* c + A; \
                 R3 = gather(gpuArray(B) - mean(gpuArray(B))); H3 = B - mean(B); \
                 R4 = gather(max(G - c, r)); H4 = max(A - c, r); \
                 fprintf('%d %d %d %d', isequal(R1, H1), isequal(R2, H2), \
                         max(abs(R3(:) - H3(:))) <= 8 * eps({class}(1)), isequal(R4, H4));"
            ));
            assert_eq!(text, "1 1 1 1", "{class} with {rows} rows");
        }
    }
    // Where the rows hold whole vectors the broadcast group is a vector kernel.
    let wgsl = out(
        "G = gpuArray(single(rand(8, 5))); r = gpuArray(single(rand(1, 5))); \
                    explain -wgsl z = G - r",
    );
    assert!(wgsl.contains("fn value_vector"), "{wgsl}");
    let odd = out(
        "G = gpuArray(single(rand(7, 5))); r = gpuArray(single(rand(1, 5))); \
                   explain -wgsl z = G - r",
    );
    assert!(!odd.contains("fn value_vector"), "{odd}");
}

/// Reductions along every dimension of tall, wide and three-dimensional arrays, and of
/// broadcast expressions, equal the host's (integer data, so sums are exact in any order),
/// with the per-thread kernel for lanes that lie side by side or are short.
#[test]
fn reductions_along_any_dimension_match_the_host() {
    let gpu = has_gpu();
    for class in ["single", "double"] {
        let text = out(&format!(
            "X = {class}(reshape(mod((1:600*40*3)' * 7919, 97) - 48, 600, 40, 3)); X(5, 7, 2) = NaN; \
             G = gpuArray(X); n = 0; \
             for d = 1:3 \
               n = n + isequaln(gather(sum(G, d)), sum(X, d)); \
               n = n + isequaln(gather(sum(G, d, 'omitnan')), sum(X, d, 'omitnan')); \
               n = n + isequaln(gather(max(G, [], d)), max(X, [], d)); \
               n = n + isequaln(gather(min(G .* 2, [], d)), min(X .* 2, [], d)); \
               n = n + isequaln(gather(any(G > 40, d)), any(X > 40, d)); \
               n = n + isequaln(gather(prod(sign(G), d)), prod(sign(X), d)); \
               M = gather(mean(G, d, 'omitnan')); H = mean(X, d, 'omitnan'); \
               n = n + (max(abs(M(:) - H(:))) <= 4 * eps({class}(48))); \
             end; \
             r = {class}(mod(1:40, 5)); c = {class}(mod((1:600)', 7)); Y = X(:, :, 1); H = gpuArray(Y); \
             n = n + isequaln(gather(sum((H - r) .^ 2)), sum((Y - r) .^ 2)); \
             n = n + isequaln(gather(max((H - c) .* r, [], 2)), max((Y - c) .* r, [], 2)); \
             T = {class}(mod((1:5*70000)' * 31, 13)); T = reshape(T, 5, 70000); \
             n = n + isequal(gather(sum(gpuArray(T))), sum(T)); \
             n = n + isequal(gather(sum(gpuArray(T), 2)), sum(T, 2)); \
             fprintf('%d', n);"
        ));
        assert_eq!(text, "25", "{class}");
    }
    let wide = out("G = gpuArray(single(rand(600, 40))); explain -wgsl s = sum(G, 2)");
    assert!(wide.contains("out[o * l.parts + part]"), "{wide}");
    let tall = out("G = gpuArray(single(rand(6000, 4))); explain -wgsl s = sum(G)");
    assert!(!tall.contains("out[o * l.parts + part]"), "{tall}");
    if gpu {
        // One kernel for a short-lane reduction that needs no second pass.
        let k = out(
            "G = gpuArray(single(rand(600, 40))); q = gather(G(1)); gpuStats reset; \
                     s = gather(sum(G, 2)); t = gpuStats; fprintf('%d', t.Session.Kernels);",
        );
        assert_eq!(k, "1");
    }
}
