//! Masks and `find` of gpuArrays as pending positions: `x(mask)` and `find(x)` count the
//! nonzeros (one value read back) and compact only when something reads the positions;
//! a reduction of `x(mask)` over all its elements reduces `x` where the mask is set instead
//! (`sum(x(x > t))` never compacts). Checked against the host evaluator in single and double
//! with NaN, Inf and -0, all-true and all-false masks, matrices and rows; and counts of
//! masks past 2^24 elements of singles, which a single cannot hold exactly.

use crate::common::{has_gpu, out_in, run_file_with};
use matfuse::interp::Interp;
use matfuse::values::value::Value;

/// Whether `name` in `interp`'s workspace is a gpuArray whose value was never computed.
fn pending(interp: &Interp, name: &str) -> bool {
    match interp.var(name) {
        Some(Value::Device(d)) => !d.node.is_realised(),
        _ => false,
    }
}

const SETUP: &str = "
    X = [3 -1 NaN 0 -0 Inf -Inf 2.5 7 -4 1e-3 5; 1 2 3 4 5 6 7 8 9 10 11 12];
    X = [X; -X; X(:, end:-1:1)];";

/// Reductions of masked gathers, device against host, for one class.
fn reductions(class: &str) {
    let mut i = Interp::new();
    let code = format!(
        "{SETUP}
         M = magic(12); M = M(1:6, :); X = {class}(X); G = gpuArray(X); H = gpuArray({class}(M));
         bad = {{}};
         exprs = {{'sum(V(V > 0))', 'sum(V(V > 100))', 'sum(V(~isnan(V)))', 'mean(V(V > 1))', ...
                   'max(V(V < 5))', 'min(V(V > -2))', 'prod(V(abs(V) < 3 & V ~= 0))', ...
                   'any(V(V > 8))', 'all(V(V > 0))', 'sum(V(V > 0), ''omitnan'')', ...
                   'sum(V(isnan(V)))', 'max(V(isnan(V)))', 'sum(V(W > 40))', 'mean(V(W > 200))', ...
                   'sum(V(1, V(1, :) > 0))', 'max(V(V > 0), [], ''all'')', 'sum(V(V > 0), 1)', ...
                   'mean(V(V(:) < 0))', 'numel(V(V > 1))', 'sum(V(true(size(V))))'}};
         for k = 1:numel(exprs)
           e = exprs{{k}};
           V = X; W = {class}(M); h = eval(e);
           V = G; W = H; d = eval(e);
           if isempty(h) ~= isempty(d) || ~isequal(class(gather(d)), class(h)) || ...
              ~isequal(size(d), size(h)) || ...
              (~isempty(h) && ~(isequaln(gather(d), h) || abs(double(gather(d)) - double(h)) <= 1e-5 * max(1, abs(double(h)))))
             bad{{end+1}} = e;
           end
         end
         fprintf('%s;', bad{{:}}); fprintf('done\\n');"
    );
    assert_eq!(out_in(&mut i, &code), "done\n", "{class}");
}

#[test]
fn reductions_of_masked_values_match_the_host_in_single() {
    if !has_gpu() {
        return;
    }
    reductions("single");
}

#[test]
fn reductions_of_masked_values_match_the_host_in_double() {
    if !has_gpu() {
        return;
    }
    reductions("double");
}

#[test]
fn a_reduced_mask_gather_is_never_compacted() {
    if !has_gpu() {
        return;
    }
    let mut i = Interp::new();
    let text = out_in(
        &mut i,
        "x = gpuArray(single(mod((1:100001)' * 7919, 1000) / 1000)); s = 0;
         for k = 1:4, v = x(x > k / 5); s = s + sum(v); end
         m = mean(v); p = find(x > 0.5); c = numel(p);
         h = gather(x); hs = 0; for k = 1:4, hs = hs + sum(h(h > k / 5)); end
         fprintf('%d %d %d\\n', abs(gather(s) - hs) <= 1e-3 * hs, ...
                 abs(gather(m) - mean(h(h > 0.8))) <= 1e-5, c == nnz(h > 0.5));",
    );
    assert_eq!(text, "1 1 1\n");
    // v was only summed and p only counted: neither was computed.
    assert!(pending(&i, "v"), "v was compacted");
    assert!(pending(&i, "p"), "p was compacted");
    // Read, they are the host's values.
    let text = out_in(
        &mut i,
        "fprintf('%d %d %d\\n', isequal(gather(v), h(h > 0.8)), isequal(gather(p), find(h > 0.5)), ...
                 isequal(size(p), size(find(h > 0.5))));",
    );
    assert_eq!(text, "1 1 1\n");
}

#[test]
fn pending_positions_keep_the_values_they_were_made_from() {
    if !has_gpu() {
        return;
    }
    let mut i = Interp::new();
    let text = out_in(
        &mut i,
        "x = gpuArray([4 -1 3 -2 5 0 7]); m = x > 0; v = x(m); f = find(m);
         m(1) = false; x(3) = 100; x = x * 2;
         fprintf('%s|%s|%g|%s\\n', mat2str(gather(v)), mat2str(gather(f)), gather(sum(v)), ...
                 mat2str(gather(x(m))));
         r = gpuArray([1 2; 3 4]); c = r(r > 1); e = r(r > 9); z = find(r > 9);
         fprintf('%s|%s|%s|%s\\n', mat2str(size(c)), mat2str(size(e)), mat2str(size(z)), ...
                 mat2str(gather(c)));",
    );
    assert_eq!(
        text,
        "[4 3 5 7]|[1 3 5 7]|19|[200 10 14]\n[3 1]|[0 1]|[0 1]|[3;2;4]\n"
    );
}

#[test]
fn counts_past_two_to_the_24_are_exact_in_single() {
    if !has_gpu() {
        return;
    }
    let mut i = Interp::new();
    // 2^24 + 3 ones: a single sum of them would round to 2^24 + 4 (or 2^24).
    let text = out_in(
        &mut i,
        "x = gpuArray(ones(16777219, 1, 'single')); n = sum(x > 0); k = nnz(x > 0);
         v = x(x > 0); p = find(x);
         fprintf('%d %d %d %d %s\\n', gather(n), gather(k), numel(v), numel(p), class(gather(n)));",
    );
    assert_eq!(text, "16777219 16777219 16777219 16777219 double\n");
}

/// Lengths around the compaction's steps, against the host: blocks of 4096 elements are
/// counted, parts of 1024 written; past 256 blocks the offsets pass sums several blocks a
/// thread, past 1024 four at a time and then the rest. A deletion counts its kept elements
/// with the compaction's own passes and its compaction reuses them. A scalar's false mask
/// picks a 0x0 array.
const MANY_BLOCKS: &str = "ok = true;
     for n = [1 4095 4097 1048576 1048577 1049600 1053697 4198401]
       h = single(mod((1:n)' * 7919, 1000) / 1000); g = gpuArray(h);
       t = 0.3 + mod(n, 7) / 10;
       ok = ok && isequal(gather(g(g > t)), h(h > t)) && isequal(gather(find(g > t)), find(h > t));
       d = g; d(d > t) = []; e = h; e(e > t) = [];
       ok = ok && isequal(gather(d), e) && isequal(size(d), size(e));
       d(d < 0.1) = []; e(e < 0.1) = [];
       ok = ok && isequal(gather(d), e);
       r = g'; r(r > 2) = []; ok = ok && isequal(gather(r), h');
       r(r >= 0) = []; ok = ok && isequal(size(r), [1 0]);
       x = double(h); x(1:3:end) = NaN; c = gpuArray(x);
       ok = ok && isequal(gather(find(c)), find(x)) && isequaln(gather(c(c ~= 0.5)), x(x ~= 0.5));
     end
     st = gpuStats;
     fprintf('%d %d\\n', ok, st.Session.Fallbacks);";

#[test]
fn compactions_of_many_blocks_keep_order_and_count() {
    if !has_gpu() {
        return;
    }
    assert_eq!(out_in(&mut Interp::new(), MANY_BLOCKS), "1 0\n");
}

/// The same on the write pass that ranks by a scan over the workgroup's threads (devices
/// without subgroups of one size), in a session started with `MATFUSE_NO_SUBGROUPS=1`.
#[test]
fn compactions_without_subgroups_keep_order_and_count() {
    if !has_gpu() {
        return;
    }
    let (text, errors) = run_file_with(
        "compact_scan",
        MANY_BLOCKS,
        &[("MATFUSE_NO_SUBGROUPS", "1")],
    );
    assert_eq!(text, "1 0\n", "{errors}");
}

#[test]
fn single_against_double_compares_in_single_on_both_sides() {
    // MATLAB makes the double single first (as Octave does): single(0.2) == 0.2.
    let host = crate::common::out(
        "h = single([0.2 0.4 0.1 3]); d = [0.2 0.4 0.3 1e300];
         fprintf('%d', h == 0.2, h > 0.2, 0.2 < h, h >= d, d <= h, h ~= 0.1, h < 1e300); fprintf('\\n');",
    );
    assert_eq!(host, "1000010101011100110011011111\n");
    if !has_gpu() {
        return;
    }
    let device = crate::common::out(
        "h = gpuArray(single([0.2 0.4 0.1 3])); d = [0.2 0.4 0.3 1e300];
         fprintf('%d', gather(h == 0.2), gather(h > 0.2), gather(0.2 < h), gather(h >= d), ...
                 gather(d <= h), gather(h ~= 0.1), gather(h < 1e300)); fprintf('\\n');",
    );
    assert_eq!(device, host);
}

#[test]
fn reshapes_of_transposes_and_views_keep_their_elements() {
    if !has_gpu() {
        return;
    }
    // B(:) of a pending A .* A.' read the transpose under the column's shape.
    let text = crate::common::out(
        "a = magic(4); A = gpuArray(a); B = A .* A.'; C = A(2:3, 1:2) + A(1:2, 2:3)';
         fprintf('%d', isequal(gather(B(:)), reshape(a .* a.', [], 1)), ...
                 isequal(gather(reshape(B, 2, 8)), reshape(a .* a.', 2, 8)), ...
                 isequal(gather(C(:)'), reshape(a(2:3, 1:2) + a(1:2, 2:3)', 1, [])), ...
                 isequal(gather(reshape(A(:, end:-1:1) * 2, 8, 2)), reshape(a(:, end:-1:1) * 2, 8, 2)));
         fprintf('\\n');",
    );
    assert_eq!(text, "1111\n");
}
