//! Device address arithmetic against the host evaluator, where kernels skip divisions: an
//! element whose remaining linear place lies within a dimension takes no division (every
//! element of a column vector, the first column of a matrix), a region with step 1 divides
//! nothing, a subscript along the first dimension divides by nothing, and a scan computes its
//! lane's address once a thread. Views, region assignments, scatters and subscripts of
//! vectors, matrices and 3-D arrays with forward, backward and strided ranges; scans and sorts
//! along every dimension, forward and reverse, of odd sizes with ties, NaN and -0.

use crate::common::{has_gpu, out_in};
use matfuse::interp::Interp;

/// Each expression evaluated on host arrays and on their gpuArrays: the names of those whose
/// values, classes or sizes differ (empty when all agree).
fn mismatches(setup: &str, exprs: &[&str]) -> String {
    let mut i = Interp::new();
    let list: Vec<String> = exprs
        .iter()
        .map(|e| format!("'{}'", e.replace('\'', "''")))
        .collect();
    let code = format!(
        "{setup}
         names = who; bad = {{}};
         exprs = {{{}}};
         for k = 1:numel(exprs)
           e = exprs{{k}};
           h = eval(e);
           for j = 1:numel(names), eval([names{{j}} ' = gpuArray(' names{{j}} ');']); end
           d = eval(e);
           for j = 1:numel(names), eval([names{{j}} ' = gather(' names{{j}} ');']); end
           d = gather(d);
           if ~isequal(class(d), class(h)) || ~isequal(size(d), size(h)) || ~isequaln(d, h)
             bad{{end+1}} = e;
           end
         end
         fprintf('%s;', bad{{:}}); fprintf('done\\n');",
        list.join(", ")
    );
    out_in(&mut i, &code)
}

const ARRAYS: &str = "
    v = single(mod((1:1001)' * 37, 101)) - 50; v(7) = NaN; v(9) = -0;
    r = v';
    A = reshape(mod((1:35*17)' * 13, 97), 35, 17) - 40; A(3, 5) = NaN;
    B = single(reshape(mod((1:7*6*5)' * 11, 23), 7, 6, 5)) - 11;";

#[test]
fn views_and_broadcasts_match_the_host() {
    if !has_gpu() {
        return;
    }
    let got = mismatches(
        ARRAYS,
        &[
            "v(2:end) - v(1:end-1)",
            "v(end:-1:1) .* v",
            "v(1:3:end-1) + v(2:3:end)",
            "v(end:-7:3) * 2",
            "r(2:end-1) + r(3:end) - 2 * r(1:end-2)",
            "A(2:end, :) - A(1:end-1, :)",
            "A(:, end:-1:1) + A",
            "A(3:2:end, 2:3:end) .* 2",
            "A(end:-2:1, end:-3:1) - 1",
            "A + v(1:35)",
            "A + r(1:17)",
            "v(1:35) + r(1:17)",
            "B(2:end, :, :) - B(1:end-1, :, :)",
            "B(:, end:-1:1, 2:2:end) + 1",
            "B(end:-3:1, 2:5, end:-1:1) .* 3",
            "B + reshape(single(1:5), 1, 1, 5)",
            "B + single(r(1:6))",
            "sum(A(2:end, :) .* A(1:end-1, :), 1)",
            "sum(B(:, 2:end, :), 2)",
            "max(A(:, 2:2:end), [], 2)",
        ],
    );
    assert_eq!(got, "done\n");
}

#[test]
fn region_assignments_match_the_host() {
    if !has_gpu() {
        return;
    }
    let mut i = Interp::new();
    let got = out_in(
        &mut i,
        &format!(
            "{ARRAYS}
             ok = true;
             hv = v; gv = gpuArray(v);
             for k = 1:3
               hv(2:end-1) = hv(2:end-1) + 0.25 * (hv(1:end-2) - 2 * hv(2:end-1) + hv(3:end));
               gv(2:end-1) = gv(2:end-1) + 0.25 * (gv(1:end-2) - 2 * gv(2:end-1) + gv(3:end));
             end
             ok = ok && isequaln(gather(gv), hv);
             hv(end:-3:1) = hv(end:-3:1) * 2; gv(end:-3:1) = gv(end:-3:1) * 2;
             ok = ok && isequaln(gather(gv), hv);
             hA = A; gA = gpuArray(A);
             hA(2:3:end, end:-2:1) = hA(2:3:end, end:-2:1) + 1; gA(2:3:end, end:-2:1) = gA(2:3:end, end:-2:1) + 1;
             ok = ok && isequaln(gather(gA), hA);
             hA(:, 4) = hA(:, 5) - 1; gA(:, 4) = gA(:, 5) - 1;
             hA(7, :) = hA(8, :) * 3; gA(7, :) = gA(8, :) * 3;
             ok = ok && isequaln(gather(gA), hA);
             hB = B; gB = gpuArray(B);
             hB(2:end, 1:2:end, end:-1:2) = -hB(2:end, 1:2:end, end:-1:2);
             gB(2:end, 1:2:end, end:-1:2) = -gB(2:end, 1:2:end, end:-1:2);
             ok = ok && isequaln(gather(gB), hB);
             fprintf('%d\\n', ok);"
        ),
    );
    assert_eq!(got, "1\n");
}

#[test]
fn scans_and_sorts_along_every_dimension_match_the_host() {
    if !has_gpu() {
        return;
    }
    let got = mismatches(
        "C = single(reshape(mod((1:9*70*5)' * 7, 13), 9, 70, 5)) - 6; C(4) = NaN; C(20) = -0;
         D = reshape(mod((1:5000)' * 31, 17), 5000, 1) - 8;
         E = reshape(mod((1:33*129)' * 5, 7), 33, 129);",
        &[
            "cumsum(C)",
            "cumsum(C, 2)",
            "cumsum(C, 3)",
            "cumsum(C, 'reverse')",
            "cumsum(C, 2, 'reverse')",
            "cumsum(C, 3, 'reverse')",
            "cummax(C, 2)",
            "cummin(C, 3, 'reverse')",
            "cumprod(C(:, 1:3, :) / 4, 1)",
            "cumsum(D)",
            "cumsum(D, 'reverse')",
            "cumsum(D')",
            "cumsum(E, 2, 'reverse')",
            "sort(C)",
            "sort(C, 2)",
            "sort(C, 3, 'descend')",
            "sort(D)",
            "sort(D, 'descend')",
            "sort(E, 2)",
        ],
    );
    assert_eq!(got, "done\n");
    // The indices too: a stable sort keeps ties in order.
    let mut i = Interp::new();
    let got = out_in(
        &mut i,
        "E = reshape(mod((1:33*129)' * 5, 7), 33, 129); E(5) = NaN; D = single(E(:));
         [a, ia] = sort(E, 2); [b, ib] = sort(gpuArray(E), 2);
         [c, ic] = sort(D, 'descend'); [d, id] = sort(gpuArray(D), 'descend');
         [e, ie] = sort(E); [f, jf] = sort(gpuArray(E));
         fprintf('%d %d %d\\n', isequaln(gather(b), a) && isequal(gather(ib), ia), ...
           isequaln(gather(d), c) && isequal(gather(id), ic), ...
           isequaln(gather(f), e) && isequal(gather(jf), ie));",
    );
    assert_eq!(got, "1 1 1\n");
}

#[test]
fn views_gathers_and_placements_of_integer_arrays_keep_their_class() {
    // Integer gpuArrays read through a view, a gather, a concatenation, an assignment or a
    // sort stay of their class, with the values the host gives (they came back double).
    let got = crate::common::out(
        "ok = true;
         for c = {'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32'}
           x = cast([5 6 7; 8 9 10], c{1}); g = gpuArray(x);
           parts = {g(:, [2 1]), g(2:end), g', [g g], sort(g, 2, 'descend'), g([true false; false true])};
           want = {x(:, [2 1]), x(2:end), x', [x x], sort(x, 2, 'descend'), x([true false; false true])};
           h = g; h(1, 2) = 100; y = x; y(1, 2) = 100; parts{end+1} = h; want{end+1} = y;
           for k = 1:numel(parts)
             v = gather(parts{k});
             ok = ok && strcmp(class(v), c{1}) && isequal(v, want{k});
           end
           s = g(:, 1) + 200; ok = ok && isequal(gather(s), x(:, 1) + 200);
         end
         fprintf('%d\\n', ok);",
    );
    assert_eq!(got, "1\n");
}
