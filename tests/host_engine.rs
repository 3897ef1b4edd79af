//! The host engine's typed kernels and algorithms (issue 23): results must be MATLAB's on the
//! paths that large arrays take (blocked, multithreaded, radix-sorted, grown in place,
//! read as slices), with NaN placement, ties, signed zeros, stability and class rules.

mod common;
use common::{err, out};

#[test]
fn reductions_on_large_arrays() {
    unsafe_host_only();
    let code = "
        x = 1:5e5; fprintf('%d %d %g\\n', sum(x), sum(single(x) > 2.5e5), mean(x));
        y = single(x); y(7) = NaN; fprintf('%g %g %s\\n', sum(y, 'omitnan'), mean(y, 'omitnan'), class(sum(y)));
        fprintf('%d\\n', isnan(sum(y)));
        z = zeros(1, 2e5); z(1e5) = 5; z(1.5e5) = 5; z(3) = -0; [m, i] = max(z); fprintf('%g %d\\n', m, i);
        z(9) = NaN; [m, i] = max(z); fprintf('%g %d\\n', m, i); [m, i] = max(z, [], 'includenan'); fprintf('%g %d\\n', m, i);
        [m, i] = min(-z); fprintf('%g %d\\n', m, i);
        w = nan(1, 1e5); [m, i] = max(w); fprintf('%g %d\\n', m, i);
        fprintf('%d %d %d\\n', any(w), all([NaN 1]), any(z > 4));
        A = reshape(1:12, 3, 4); A(2, 3) = NaN;
        [m, i] = max(A, [], 2); fprintf('%g ', m, i); fprintf('\\n');
        fprintf('%g ', sum(A, 2), mean(A, 2, 'omitnan'), any(A > 10, 2), all(A, 1)); fprintf('\\n');
        fprintf('%g %s\\n', max(int8([5 -3 100])), class(max(true(1, 3))));
    ";
    assert_eq!(
        out(code),
        "125000250000 250000 250000\n1.25e+11 250001 single\n1\n5 100000\n5 100000\nNaN 9\n-5 100000\nNaN 1\n0 1 1\n10 11 12 4 4 4 \n22 NaN 30 5.5 6 7.5 0 1 1 1 1 1 1 \n100 double\n"
    );
}

#[test]
fn elementwise_classes_and_expansion() {
    unsafe_host_only();
    let code = "
        a = single(1:3) + 0.1; fprintf('%s %.7g\\n', class(a), a(3));
        b = (1:1e5)' .* 2 + true; fprintf('%s %g %g\\n', class(b), b(1), b(end));
        c = (1:300)' + (1:400); fprintf('%d %d %g %g\\n', size(c), c(300, 1), c(17, 400));
        d = single(1:1e5) > 99999.5; fprintf('%s %d\\n', class(d), nnz(d));
        e = sqrt([4 -4]); fprintf('%d %g\\n', isreal(e), imag(e(2)));
        f = -single([0 2]); fprintf('%g %g %s\\n', 1 / f(1), f(2), class(f));
        g = max(1:1e5, 5e4); fprintf('%g %g\\n', g(1), g(end));
    ";
    assert_eq!(
        out(code),
        "single 3.1\ndouble 3 200001\n300 400 301 417\nlogical 1\n0 2\n-Inf -2 single\n50000 100000\n"
    );
}

#[test]
fn sorts_keep_matlab_order() {
    unsafe_host_only();
    let code = "
        x = [3 NaN -0 0 5 5 -Inf 2 NaN 1];
        [s, i] = sort(x); fprintf('%g ', s, i); fprintf('\\n');
        [s, i] = sort(x, 'descend'); fprintf('%g ', s, i); fprintf('\\n');
        fprintf('%g ', 1 ./ sort([0 -0]), 1 ./ sort([-0 0])); fprintf('\\n');
        r = mod((1:1e5) * 0.618, 1); r(10) = NaN; [s, i] = sort(r);
        fprintf('%d %d %d\\n', issorted(s(1:end-1)), isnan(s(end)), isequaln(r(i), s));
        k = mod(1:1e5, 7); [~, i] = sort(k); fprintf('%d %d %d\\n', i(1), i(2), all(diff(i(k(i) == 3)) > 0));
        fprintf('%s %s\\n', class(sort(int8([3 -2]))), sort('hello'));
    ";
    assert_eq!(
        out(code),
        "-Inf -0 0 1 2 3 5 5 NaN NaN 7 3 4 10 8 1 5 6 2 9 \nNaN NaN 5 5 3 2 1 -0 0 -Inf 2 9 5 6 1 8 10 3 4 7 \nInf -Inf -Inf Inf \n1 1 1\n7 14 1\nint8 ehllo\n"
    );
}

#[test]
fn sets_by_sorting() {
    unsafe_host_only();
    let code = "
        [u, ia, ic] = unique([3 1 NaN 3 2 NaN 1]); fprintf('%g ', u, ia, ic); fprintf('\\n');
        [u, ia] = unique([3 1 3 1], 'stable'); fprintf('%g ', u, ia); fprintf('\\n');
        [~, ia] = unique([3 1 3 1], 'last'); fprintf('%g ', ia); fprintf('\\n');
        [tf, loc] = ismember([1 2 NaN 5 3], [3 5 5 1 NaN]); fprintf('%g ', tf, loc); fprintf('\\n');
        a = int32(mod((0:99999) * 7919, 100000)); b = int32(0:2:199999);
        fprintf('%d %d\\n', nnz(ismember(a, b)), numel(unique(a)));
        [c, ia, ib] = intersect([5 1 3 3 NaN], [3 5 7 NaN]); fprintf('%g ', c, ia, ib); fprintf('\\n');
        p = 1:20000; q = 10001:30000; fprintf('%d %d %d\\n', numel(intersect(p, q)), numel(union(p, q)), numel(setdiff(p, q)));
        fprintf('%s ', union({'b', 'a'}, {'c', 'a'}){:}); fprintf('\\n');
    ";
    assert_eq!(
        out(code),
        "1 2 3 NaN NaN 2 5 1 3 6 3 1 4 3 2 5 1 \n3 1 1 2 \n4 3 \n1 0 0 1 1 4 0 0 2 1 \n50000 100000\n3 5 3 1 1 2 \n10000 30000 10000\na b c \n"
    );
}

#[test]
fn growth_in_place_keeps_value_semantics() {
    unsafe_host_only();
    let code = "
        x = []; for i = 1:1000, x(end+1) = i; end; fprintf('%d %d %d\\n', size(x), sum(x));
        y = zeros(0, 1); for i = 1:5, y(end+1) = i; end; fprintf('%d %d\\n', size(y));
        s = ''; for i = 1:1000, s = [s 'ab']; end; fprintf('%d %s\\n', numel(s), s(end-3:end));
        q = [1 2]; r = q; q = [q 3]; q(end+1) = 4; fprintf('%g ', r, q); fprintf('\\n');
        t = int8([1 2]); t = [t 200]; fprintf('%d %s\\n', t(3), class(t));
        u = 'x'; u = [u 65]; fprintf('%s %s\\n', u, class(u));
    ";
    assert_eq!(
        out(code),
        "1 1000 500500\n1 5\n2000 abab\n1 2 1 2 3 4 \n127 int8\nxA char\n"
    );
    let (id, _) = err("s = [1 2]; s = [s [1; 2]];");
    assert_eq!(id, "MATLAB:catenate:dimensionMismatch");
}

#[test]
fn range_subscripts_read_blocks() {
    unsafe_host_only();
    let code = "
        x = 1:10; fprintf('%g ', x(2:end) - x(1:end-1), x(end-1:end)); fprintf('\\n');
        y = (1:5)'; fprintf('%d %d\\n', size(y(2:4)));
        A = magic(4); fprintf('%g ', A(:, 2), A(3, :), A(2:3, :), A(:, 3:4)); fprintf('\\n');
        fprintf('%d %d\\n', size(A(:, 3:2)));
    ";
    assert_eq!(
        out(code),
        "1 1 1 1 1 1 1 1 1 9 10 \n3 1\n2 11 7 14 9 7 6 12 5 9 11 7 10 6 8 12 3 10 6 15 13 8 12 1 \n4 0\n"
    );
    let (id, _) = err("x = 1:10; x(2:11)");
    assert_eq!(id, "MATLAB:badsubscript");
    let (id, _) = err("A = magic(3); A(:, 3:4)");
    assert_eq!(id, "MATLAB:badsubscript");
    let (id, _) = err("x = 1:10; x(2.5:4)");
    assert_eq!(id, "MATLAB:badsubscript");
}

#[test]
fn single_products_are_single() {
    unsafe_host_only();
    let code = "
        A = single(reshape(mod((1:200^2) * 0.618, 1), 200, 200));
        C = A * A'; D = double(A) * double(A');
        fprintf('%s %d\\n', class(C), max(abs(C(:) - D(:))) < 1e-3);
    ";
    assert_eq!(out(code), "single 1\n");
}

/// The host executor of fused groups against the eager host path: every case is computed on
/// host arrays (eagerly, one operation at a time) and on gpuArray values, which become graph
/// values the host executor runs in blocks (no device here: MATFUSE_DEVICE=cpu). Exact
/// cases must agree bit for bit (isequaln, class, size); sin, cos, exp and log within 1 ulp.
/// Sizes are odd (not multiples of a block), with NaN, infinities and signed zeros.
fn host_graph_parity(class: &str) -> String {
    unsafe_host_only();
    let exact = [
        "r = a + b;",
        "r = a - b;",
        "r = a .* b;",
        "r = a ./ b;",
        "r = b .\\ a;",
        "r = a .^ 3;",
        "r = abs(a) .^ b;",
        "r = a > b;",
        "r = a <= b;",
        "r = a == b;",
        "r = a ~= b;",
        "r = p & q;",
        "r = (a > 0) | q;",
        "r = xor(p, q > 0);",
        "r = max(a, b);",
        "r = min(a, b);",
        "r = mod(a, b);",
        "r = rem(a, b);",
        "r = atan2(a, b);",
        "r = hypot(a, b);",
        "r = -a;",
        "r = abs(a);",
        "r = sqrt(abs(a));",
        "r = floor(a) + ceil(b);",
        "r = round(a) - fix(b);",
        "r = sign(a);",
        "r = ~p + ~(a > 1);",
        "r = isnan(a) + isinf(b) + isfinite(a);",
        "r = tanh(a) + atan(b);",
        "r = a * 0.1 + 3;",
        "r = a .* (a > 0.5) + b;",
        "r = (a > 0) .* b - (b < 0);",
        "r = a .* b + 0.1 - a ./ (b + 2);",
        "r = single(a) .* b + 0.1;",
        "r = a(1:301) + b(1:257)';",
        "r = a + b(3);",
        "r = a(2:end) - a(1:end-1);",
        "r = a(end:-1:1) .* 2 + b;",
        "r = a(3:7:end) + 1;",
        "A = reshape(a(1:301*229), 301, 229); r = A' + 1;",
        "A = reshape(a(1:301*229), 301, 229); r = A(2:3:end, :) - 1;",
        "A = reshape(a(1:301*229), 301, 229); r = A(:, 5:9) .* 2;",
        "A = reshape(a(1:301*229), 301, 229); r = A(7, :) + A(8, :);",
        "A = reshape(b(1:301*229), 301, 229); r = A - A(:, 1);",
        "A = reshape(b(1:301*229), 301, 229); B = reshape(a(1:229*301), 229, 301); r = A' .* B;",
        "r = a * 1; r(2:end-1) = r(2:end-1) + 0.25 * (r(1:end-2) - 2 * r(2:end-1) + r(3:end));",
        "r = a * 1; for t = 1:3, r(2:end-1) = r(2:end-1) + 0.25 * (r(1:end-2) - 2 * r(2:end-1) + r(3:end)); end",
        "r = reshape(a(1:301*229), 301, 229) + 1; r(2:100, 30:200) = 5;",
        "A = reshape(b(1:301*229), 301, 229); r = A * 1; r(3:4:end, :) = A(3:4:end, :) .* 2;",
        "r = a * 1; r(1:3:end) = b(1:3:end);",
        "r = a * 1; r(end:-2:1) = 0.5;",
        "r = b(1:70000) * 1; r = reshape(r, 350, 200); r(:, 7) = r(:, 8) - 1;",
        "r = sum(p .* q + 1);",
        "r = mean(p * 2 - q);",
        "r = sum(p > 0);",
        "r = any(p > 3.9);",
        "r = a > 0.1;",
        "r = 0.3 < a;",
        "r = a == 0.1;",
        "r = a ~= 0.1;",
        "r = (a >= 1e300) + (a <= -1e300);",
        "r = all(a ~= 0.2);",
        "r = any(a(2:end) > b(1:end-1));",
        "r = all(a(3:end) < 3.7);",
        "r = all(p < 100);",
        "r = any(q > 100);",
        "r = sum(p .* q, 'all');",
        "r = sum(a .* b, 'omitnan');",
    ];
    // one function: within 1 ulp; composed: within 4 ulp of the larger of the result and 1
    let close = [
        ("r = sin(a);", 1),
        ("r = cos(b);", 1),
        ("r = exp(a);", 1),
        ("r = log(abs(a));", 1),
        ("r = sin(a * 1e5);", 1),
        ("r = sin(a) .* a + 0.5;", 4),
        ("r = exp(-a .^ 2) + cos(a .* b);", 4),
        ("r = sum(sin(p) .* q);", 4),
    ];
    let mut code = format!(
        "x = {class}(mod((1:70001)' * 0.618, 1) * 8 - 4); x(5) = NaN; x(9) = Inf; x(11) = -Inf; x(13) = -0; x(17) = 0;
         y = {class}(mod((1:70001)' * 0.377, 1) * 3 - 1); y(7) = NaN; y(20) = 0;
         p0 = {class}(mod((1:70001)' * 0.919, 1) * 8 - 4); q0 = {class}(mod((1:70001)' * 0.233, 1) - 0.5);
         gx = gpuArray(x); gy = gpuArray(y); gp = gpuArray(p0); gq = gpuArray(q0);
"
    );
    let case = |code: &mut String, k: usize, snippet: &str, check: &str| {
        code.push_str(&format!(
            "a = x; b = y; p = p0; q = q0; {snippet} r1 = r;
             a = gx; b = gy; p = gp; q = gq; {snippet} r2 = gather(r);
             same = strcmp(class(r1), class(r2)) && isequal(size(r1), size(r2));
             fprintf('%d %d\\n', {k}, same && ({check}));
"
        ));
    };
    for (k, s) in exact.iter().enumerate() {
        case(&mut code, k, s, "isequaln(r1, r2)");
    }
    for (k, (s, ulps)) in close.iter().enumerate() {
        let within = if *ulps == 1 {
            "all(r1(:) == r2(:) | (isnan(r1(:)) & isnan(r2(:))) | abs(r1(:) - r2(:)) <= eps(r1(:)))"
        } else {
            "all(r1(:) == r2(:) | (isnan(r1(:)) & isnan(r2(:))) | abs(r1(:) - r2(:)) <= 4 * eps(max(abs(r1(:)), 1)))"
        };
        case(&mut code, 100 + k, s, within);
    }
    let text = out(&code);
    let bad: Vec<&str> = text.lines().filter(|l| !l.ends_with(" 1")).collect();
    assert!(bad.is_empty(), "{class}: cases differ: {bad:?}\n{text}");
    assert_eq!(text.lines().count(), exact.len() + close.len());
    text
}

/// Every test here runs without a device, so graph values run on the host executor, and
/// with host arrays kept out of the graph, so the eager path is the eager path.
fn unsafe_host_only() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    // SAFETY: set once, before any session of this binary starts a thread that reads them.
    ONCE.call_once(|| unsafe {
        std::env::set_var("MATFUSE_DEVICE", "cpu");
        std::env::set_var("MATFUSE_OFFLOAD", "never");
    });
}

#[test]
fn host_executor_matches_the_eager_path_in_double() {
    unsafe_host_only();
    host_graph_parity("double");
}

#[test]
fn host_executor_matches_the_eager_path_in_single() {
    unsafe_host_only();
    host_graph_parity("single");
}
