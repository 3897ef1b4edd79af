//! Range subscripts and range assignment of gpuArrays as graph operations: views read where
//! the data is stored and embeds that write a new value, checked against the host evaluator
//! in single and double, on odd sizes, with `end` arithmetic, steps and reversal, and with
//! nothing moved between host and device. Under MATFUSE_REQUIRE_GPU=1 an adapter must exist.

use crate::common;
use crate::common::{has_gpu, out as run};

/// Each `(device, host)` pair must agree in class, size and values (exactly, but for the
/// rounding of sums taken in another order), with `G`/`X` the device and host forms of the
/// same data; a failure is named by its place in `pairs`.
fn parity(setup: &str, pairs: &[(&str, &str)]) -> String {
    let mut code = format!(
        "function ok = same(R, H)
           ok = isequal(class(R), class(H)) && isequal(size(R), size(H));
           R = double(R); H = double(H);
           ok = ok && isequal(isnan(R), isnan(H));
           f = ~isnan(H); e = abs(R(f) - H(f)) ./ max(1, abs(H(f)));
           ok = ok && all(e <= 1e-5);
         end
         {setup} bad = {{}};"
    );
    for (k, (dev, host)) in pairs.iter().enumerate() {
        code.push_str(&format!(
            "if ~same(gather({dev}), {host}), bad{{end+1}} = '{k}'; end;"
        ));
    }
    code.push_str(
        "fprintf('%s;', bad{:}); s = gpuStats; fprintf('fallbacks %d\\n', s.Session.Fallbacks);",
    );
    run(&code)
}

const READS: [(&str, &str); 16] = [
    ("G(2:end-1)", "X(2:end-1)"),
    ("G(end:-1:1)", "X(end:-1:1)"),
    ("G(1:2:end)", "X(1:2:end)"),
    ("G(2, :)", "X(2, :)"),
    ("G(:, end)", "X(:, end)"),
    ("G(end, end:-1:1)", "X(end, end:-1:1)"),
    ("G(2:end, 2:3)", "X(2:end, 2:3)"),
    ("G(end-1:-1:1, :)", "X(end-1:-1:1, :)"),
    ("G(3:7)'", "X(3:7)'"),
    ("G(2:end, 1) + G(1:end-1, 2)", "X(2:end, 1) + X(1:end-1, 2)"),
    ("G(2, :) + G", "X(2, :) + X"),
    ("G(:, 2) .* G", "X(:, 2) .* X"),
    (
        "sum(G(2:end, :) - G(1:end-1, :))",
        "sum(X(2:end, :) - X(1:end-1, :))",
    ),
    (
        "max(G(1:2:end, 2:end), [], 2)",
        "max(X(1:2:end, 2:end), [], 2)",
    ),
    (
        "reshape(G(1:end-1, 1:2), 1, [])",
        "reshape(X(1:end-1, 1:2), 1, [])",
    ),
    ("G(1, 1:end)", "X(1, 1:end)"),
];

#[test]
fn range_subscripts_match_the_host() {
    has_gpu();
    for class in ["double", "single"] {
        for (rows, cols) in [(7, 5), (300, 3), (9, 9)] {
            let setup =
                format!("rng(3); X = {class}(randn({rows}, {cols})); X(4) = NaN; G = gpuArray(X);");
            let out = parity(&setup, &READS);
            assert_eq!(
                out.trim_end(),
                "fallbacks 0",
                "{class} {rows}x{cols}: {out}"
            );
        }
    }
    // Vectors keep their orientation; a matrix indexed by a row gives a row.
    let out = parity(
        "X = (1:11)'; G = gpuArray(X); Y = magic(4); H = gpuArray(Y);",
        &[
            ("G(2:2:end)", "X(2:2:end)"),
            ("G(end:-3:1)", "X(end:-3:1)"),
            ("H(2:5)", "Y(2:5)"),
            ("H((2:5)')", "Y((2:5)')"),
            ("H(:, 2:3)'", "Y(:, 2:3)'"),
            ("G(4)", "X(4)"),
        ],
    );
    assert_eq!(out.trim_end(), "fallbacks 0", "{out}");
}

#[test]
fn a_stencil_is_one_kernel_and_moves_nothing() {
    let out = run("u = gpuArray(single(rand(1, 1001))); gpuStats reset; \
         d = u(1:end-2) - 2*u(2:end-1) + u(3:end); y = d * 3; \
         s = gpuStats; fprintf('%d %d %d\\n', s.Session.Kernels, \
         s.Session.BytesUploaded, s.Session.BytesDownloaded); \
         whos d");
    if has_gpu() {
        let first = out.lines().next().unwrap_or_default();
        assert_eq!(first, "0 0 0", "views are pending, nothing moved: {out}");
        assert!(out.contains("pending"), "{out}");
        let out = run(
            "u = gpuArray(single(rand(1, 1001))); z = u * 1; z = gather(z); \
             gpuStats reset; d = u(1:end-2) - 2*u(2:end-1) + u(3:end); \
             m = max(d(:)); s = gpuStats; \
             fprintf('%d %d\\n', s.Session.Kernels, s.Session.BytesUploaded)",
        );
        // One reduction kernel reads u through three views (a split reduction adds a fold).
        let kernels: Vec<u64> = out
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        assert!(kernels[0] <= 2 && kernels[1] == 0, "{out}");
    }
}

#[test]
fn range_assignment_matches_the_host_and_keeps_value_semantics() {
    has_gpu();
    let steps = "r = 0.25; for t = 1:5, \
        G(2:end-1) = G(2:end-1) + r*(G(1:end-2) - 2*G(2:end-1) + G(3:end)); \
        X(2:end-1) = X(2:end-1) + r*(X(1:end-2) - 2*X(2:end-1) + X(3:end)); end;";
    for class in ["double", "single"] {
        let setup = format!(
            "rng(5); X = {class}(rand(1, 37)); G = gpuArray(X); {steps} \
             A = {class}(magic(6)); B = gpuArray(A); C = B; A0 = A; \
             A(2:3, :) = 0; B(2:3, :) = 0; \
             A(:, end) = A(:, 1); B(:, end) = B(:, 1); \
             A(end:-1:5) = [1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32]; \
             B(end:-1:5) = [1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32]; \
             A(1, 2:4) = [true false true]; B(1, 2:4) = [true false true]; \
             A(6, 1:2:5) = single([1.5 2.5 3.5]) * 2; B(6, 1:2:5) = gpuArray(single([1.5 2.5 3.5])) * 2;"
        );
        let out = parity(
            &setup,
            &[
                ("G", "X"),
                ("B", "A"),
                ("C", "A0"),
                ("B(2:4, :) + 1", "A(2:4, :) + 1"),
            ],
        );
        assert_eq!(out.trim_end(), "fallbacks 0", "{class}: {out}");
    }
    // The assignment is pending and moves nothing; the old array is untouched.
    let out = run("x = gpuArray(zeros(1, 300)); y = x; gpuStats reset; \
         x(10:20) = 5; x(end) = x(10) / 5; s = gpuStats; \
         fprintf('%d %d %d\\n', s.Session.Kernels, s.Session.BytesUploaded, \
         s.Session.BytesDownloaded); fprintf('%g %g %g\\n', sum(x), sum(y), x(end)); \
         disp(class(x))");
    if has_gpu() {
        // An element of a gpuArray is a view of it (a gpuArray): nothing is read back.
        assert_eq!(out, "1 0 0\n56 0 1\ngpuArray\n", "{out}");
    }
}

#[test]
fn other_subscripts_still_work_and_errors_keep_the_workspace() {
    // Index vectors, masks, growth and deletion go the general way, with the same results.
    let out = run(
        "G = gpuArray(1:6); a = G([3 1 2]); b = G(G > 3); G(8) = 1; \
         H = gpuArray(1:6); H(2:3) = []; disp(gather(a)); disp(gather(b)); \
         disp(gather(G)); disp(gather(H))",
    );
    assert_eq!(
        out,
        "     3     1     2\n     4     5     6\n     1     2     3     4     5     6     0     1\n     1     4     5     6\n"
    );
    let (id, _) = common::err("G = gpuArray(1:6); y = G(0:2)");
    assert_eq!(id, "MATLAB:badsubscript");
    let (id, _) = common::err("G = gpuArray(1:6); y = G(2:9)");
    assert_eq!(id, "MATLAB:badsubscript");
    let (id, _) = common::err("G = gpuArray(magic(4)); G(1:2, 1:3) = ones(3, 2)");
    assert!(!id.is_empty());
    let out = run("G = gpuArray(1:6); try, G(1:2) = [1 2 3]; catch, end; disp(gather(G))");
    assert_eq!(out, "     1     2     3     4     5     6\n");
}

#[test]
fn joins_and_rearrangements_match_the_host() {
    has_gpu();
    let pairs = [
        ("[G, G]", "[X, X]"),
        ("[G; G * 2]", "[X; X * 2]"),
        (
            "[G, G(:, 1), ones(size(G, 1), 1)]",
            "[X, X(:, 1), ones(size(X, 1), 1)]",
        ),
        ("[G(1, :) 5; G(2, :) 6]", "[X(1, :) 5; X(2, :) 6]"),
        ("[G, []]", "[X, []]"),
        ("[G > 0, G < 0]", "[X > 0, X < 0]"),
        ("[G > 0, G]", "[X > 0, X]"),
        ("cat(3, G, G + 1)", "cat(3, X, X + 1)"),
        ("cat(1, G, G)", "cat(1, X, X)"),
        ("horzcat(G, G)", "horzcat(X, X)"),
        ("vertcat(G, -G)", "vertcat(X, -X)"),
        ("fliplr(G)", "fliplr(X)"),
        ("flipud(G) + 1", "flipud(X) + 1"),
        ("flip(G(:, 1))", "flip(X(:, 1))"),
        ("flip(G, 2)", "flip(X, 2)"),
        ("rot90(G)", "rot90(X)"),
        ("rot90(G, 2)", "rot90(X, 2)"),
        ("rot90(G, -1)", "rot90(X, -1)"),
        ("permute(G, [2 1])", "permute(X, [2 1])"),
        (
            "permute(cat(3, G, G), [3 1 2])",
            "permute(cat(3, X, X), [3 1 2])",
        ),
        ("circshift(G, 2)", "circshift(X, 2)"),
        ("circshift(G, -1, 2)", "circshift(X, -1, 2)"),
        ("repmat(G, 2, 3)", "repmat(X, 2, 3)"),
        ("sum([G; G], 1)", "sum([X; X], 1)"),
    ];
    for class in ["double", "single"] {
        for (rows, cols) in [(5, 3), (64, 7)] {
            let setup =
                format!("rng(6); X = {class}(randn({rows}, {cols})); X(3) = NaN; G = gpuArray(X);");
            let out = parity(&setup, &pairs);
            assert_eq!(
                out.trim_end(),
                "fallbacks 0",
                "{class} {rows}x{cols}: {out}"
            );
        }
    }
    // Single and double joined are single; a host piece joins too; nothing moves.
    let out = run(
        "a = gpuArray(single([1 2])); b = gpuArray([3 4]); gpuStats reset; \
         c = [a, b, [5 6]]; d = flip(c); s = gpuStats; \
         fprintf('%d %d %d\\n', s.Session.Kernels, s.Session.BytesUploaded, \
         s.Session.BytesDownloaded); disp(classUnderlying(c)); disp(gather(d))",
    );
    if has_gpu() {
        assert_eq!(
            out, "0 0 0\nsingle\n     6     5     4     3     2     1\n",
            "{out}"
        );
    }
}

#[test]
fn assignment_in_place_keeps_value_semantics() {
    has_gpu();
    // Rows updated in a loop: in place where nothing else holds the array, a copy for the
    // first update where another variable does; either way the values are the host's.
    let out = parity(
        "rng(8); X = single(rand(40, 30)); G = gpuArray(X); G0 = G; X0 = X; \
         for i = 1:12, G(i, :) = G(i, :) * 0.5 + i; X(i, :) = X(i, :) * 0.5 + i; end; \
         H = G; Y = X; for i = 2:2:20, G(:, i) = -G(:, i); X(:, i) = -X(:, i); end; \
         G(3:5, 3:5) = 0; X(3:5, 3:5) = 0; v = G(1, 1); w = X(1, 1); \
         D = gpuArray(zeros(1, 50)); E = zeros(1, 50); \
         for k = 1:50, D(k) = k; E(k) = k; D(1:k) = D(1:k) + 1; E(1:k) = E(1:k) + 1; end;",
        &[("G", "X"), ("G0", "X0"), ("H", "Y"), ("v", "w"), ("D", "E")],
    );
    assert_eq!(out.trim_end(), "fallbacks 0", "{out}");
}

#[test]
fn all_of_nan_is_true_on_the_device() {
    // NaN is nonzero: all() holds for it, any() ignores it (MATLAB).
    let out = run(
        "disp([all(gpuArray(nan(1, 10))), all(gpuArray(single(nan(1, 1e5)))), \
         any(gpuArray(nan(1, 1e5))), all(gpuArray([NaN 0]))])",
    );
    assert_eq!(out, "   1   1   0   0\n", "{out}");
}
