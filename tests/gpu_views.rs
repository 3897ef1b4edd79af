//! Views, conversions, positions and real-domain functions in the lazy graph: `x'`,
//! `reshape`, `single`/`double`, `[m, i] = max(x)`, `sqrt`/`log` of values without negatives.
//! Each form is checked against the host evaluator and must run on the device (no fallback,
//! kernels counted) where an adapter exists; it must exist under MATFUSE_REQUIRE_GPU=1.

mod common;
use common::{has_gpu, out as run};

/// Each `(device, host)` pair must agree in class, size and values (relative `tol`), with
/// `G`/`X` the device and host forms of the same data; then no kernel may have fallen back.
fn parity(setup: &str, pairs: &[(&str, &str)], tol: f64) -> String {
    let mut code = format!(
        "function ok = same(R, H, tol)
           ok = isequal(class(R), class(H)) && isequal(size(R), size(H));
           R = double(R); H = double(H);
           ok = ok && isequal(isnan(R), isnan(H));
           f = ~isnan(H); e = abs(R(f) - H(f)) ./ max(1, abs(H(f))); e(R(f) == H(f)) = 0;
           ok = ok && all(e <= tol);
         end
         {setup} bad = {{}};"
    );
    // Failures are named by their place in `pairs` (the forms themselves hold quotes).
    for (k, (dev, host)) in pairs.iter().enumerate() {
        code.push_str(&format!(
            "if ~same(gather({dev}), {host}, {tol}), bad{{end+1}} = '{k}'; end;"
        ));
    }
    code.push_str(
        "fprintf('%s;', bad{:}); s = gpuStats; fprintf('fallbacks %d\\n', s.Session.Fallbacks);",
    );
    run(&code)
}

#[test]
fn transposes_reshapes_and_casts_match_the_host() {
    has_gpu();
    let pairs = [
        ("G'", "X'"),
        ("G.' + 1", "X.' + 1"),
        ("sin(G') .* 2", "sin(X') .* 2"),
        ("G' + G(:, 1)'", "X' + X(:, 1)'"),
        ("sum(G', 2)", "sum(X', 2)"),
        ("max(G', [], 'all')", "max(X', [], 'all')"),
        ("(G(:, 2))'", "(X(:, 2))'"),
        // A reshape the group broadcasts (a row made of a column, against a matrix).
        (
            "reshape(G(:, 1), 1, []) + G'",
            "reshape(X(:, 1), 1, []) + X'",
        ),
        ("reshape(G, 1, [])", "reshape(X, 1, [])"),
        ("reshape(G * 2, [], 3)", "reshape(X * 2, [], 3)"),
        ("single(G)", "single(X)"),
        ("single(G) * 3 + 1", "single(X) * 3 + 1"),
        ("double(single(G) / 3)", "double(single(X) / 3)"),
        ("double(G > 0) + 0.5", "double(X > 0) + 0.5"),
        ("single(G > 0)'", "single(X > 0)'"),
        ("sum(double(single(G)'))", "sum(double(single(X)'))"),
    ];
    for (rows, cols) in [(7, 12), (300, 5), (1, 9)] {
        let setup = format!("rng(4); X = randn({rows}, {cols}); X(2) = NaN; G = gpuArray(X);");
        let out = parity(&setup, &pairs, 1e-6);
        assert_eq!(out.trim_end(), "fallbacks 0", "{rows}x{cols}: {out}");
    }
    // A transpose reads the computed matrix with strides: no copy kernel of its own.
    let out = run("G = gpuArray(rand(40, 30)); gpuStats reset; \
                   y = G' * 2 + 1; z = gather(y); s = gpuStats; fprintf('%d\\n', s.Session.Kernels);");
    if has_gpu() {
        assert_eq!(out.trim(), "1");
    }
    // They stay gpuArrays, as in MATLAB.
    let out = run(
        "G = gpuArray(magic(3)); disp(class(G')); disp(class(single(G))); \
                   disp(classUnderlying(single(G))); disp(class(reshape(G, 1, 9)))",
    );
    assert_eq!(out, "gpuArray\ngpuArray\nsingle\ngpuArray\n");
}

/// Two reshapes of one array differ only in their shape: each keeps its own (identical nodes
/// are shared, and the shape is part of what makes them identical).
#[test]
fn reshapes_of_one_array_keep_their_own_shapes() {
    has_gpu();
    let out = run(
        "x = gpuArray(single(1:6)); a = reshape(x, 2, 3); b = reshape(x, 3, 2); \
         c = reshape(x, [], 1) + 0; d = reshape(x, 1, []) + 0; \
         fprintf('%d %d %d %d %d %d %d %d\\n', size(a), size(b), size(c), size(d)); \
         fprintf('%g ', gather(b(3, :)), gather(a(2, :))); fprintf('\\n')",
    );
    assert_eq!(out, "2 3 3 2 6 1 1 6\n3 6 2 4 6 \n");
}

#[test]
fn max_and_min_give_positions_on_the_device() {
    has_gpu();
    let setup = "rng(6); X = round(randn(9, 14) * 3); X(1:4, 2) = NaN; X(:, 5) = NaN; \
                 X(3, 7) = Inf; X(4, 8) = -Inf; G = gpuArray(X); S = single(X); GS = gpuArray(S);";
    let mut pairs = Vec::new();
    let forms = [
        ("max", "", "m"),
        ("min", "", "m"),
        ("max", ", [], 2", "i"),
        ("min", ", [], 1", "i"),
        ("max", ", [], 'all'", "i"),
        ("min", ", [], 'all'", "m"),
    ];
    let mut code = String::new();
    for (k, (f, rest, _)) in forms.iter().enumerate() {
        code.push_str(&format!(
            "[dm{k}, di{k}] = {f}(G{rest}); [hm{k}, hi{k}] = {f}(X{rest}); \
             [sm{k}, si{k}] = {f}(GS{rest}); [tm{k}, ti{k}] = {f}(S{rest});"
        ));
        pairs.push((format!("dm{k}"), format!("hm{k}")));
        pairs.push((format!("di{k}"), format!("hi{k}")));
        pairs.push((format!("sm{k}"), format!("tm{k}")));
        pairs.push((format!("si{k}"), format!("ti{k}")));
    }
    let pairs: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let out = parity(&format!("{setup} {code}"), &pairs, 0.0);
    assert_eq!(out.trim_end(), "fallbacks 0", "{out}");
    // Both outputs come from the device: the index is a second reduction over the same
    // producer, and only the two 1×200 results are downloaded.
    // GPU time is not measured by default (tests/suite/gpu_device.rs times it when asked): NaN.
    let out = run(
        "G = gpuArray(rand(500, 200)); gpuStats reset; t = tic; [m, i] = max(sin(G) + G); \
                   a = gather(m); b = gather(i); wall = toc(t); s = gpuStats; d = gpuDevice; \
                   timed = isnan(s.Session.GPUTime); \
                   fprintf('%d %d %s %s %d\\n', s.Session.Kernels, s.Session.BytesDownloaded, \
                   class(i), classUnderlying(i), timed);",
    );
    if has_gpu() {
        assert_eq!(out.trim(), "2 3200 gpuArray double 1");
    }
}

#[test]
fn sqrt_and_log_stay_lazy_where_results_are_real() {
    has_gpu();
    let pairs = [
        ("sqrt(G)", "sqrt(X)"),
        ("log(G)", "log(X)"),
        ("sqrt(abs(N))", "sqrt(abs(M))"),
        ("log(N .^ 2 + 1)", "log(M .^ 2 + 1)"),
        ("sqrt(hypot(N, G))", "sqrt(hypot(M, X))"),
        ("sum(log(G(:) + 1))", "sum(log(X(:) + 1))"),
        ("sqrt(single(G))", "sqrt(single(X))"),
    ];
    let setup = "rng(8); X = rand(33, 20) * 100; X(1) = 0; X(2) = -0; X(3) = Inf; X(4) = NaN; \
                 X(5) = 1e-310; M = randn(33, 20); G = gpuArray(X); N = gpuArray(M);";
    let out = parity(setup, &pairs, 4.5e-16 * 4.0);
    assert_eq!(out.trim_end(), "fallbacks 0", "{out}");
    // A single's log is computed in f32, within 1 ulp of the host's (tests/suite/gpu_math.rs).
    let singles = [("log(single(abs(N)))", "log(single(abs(M)))")];
    let out = parity(setup, &singles, f64::from(f32::EPSILON));
    assert_eq!(out.trim_end(), "fallbacks 0", "{out}");
    // Of values with negatives, results are complex, computed on the host as MATLAB's are.
    let out = run(
        "z = sqrt(gpuArray([-4 9])); disp(isreal(z)); disp(gather(z)); \
                   w = log(gpuArray(-1) * [1 2]); fprintf('%.4f %.4f\\n', imag(gather(w)));",
    );
    assert_eq!(
        out,
        "   0\n   0.0000 + 2.0000i   3.0000 + 0.0000i\n3.1416 3.1416\n"
    );
    // Known not negative from how it is made: no check, one fused kernel.
    let out = run(
        "N = gpuArray(randn(100, 1)); gpuStats reset; y = sqrt(N .^ 2 + 1) + log(abs(N) + 1); \
                   v = gather(y); s = gpuStats; fprintf('%d\\n', s.Session.Kernels);",
    );
    if has_gpu() {
        assert_eq!(out.trim(), "1");
    }
}

/// `x(k)` and `X(i, j, k)` of computed gpuArrays are gpuArrays (views: nothing is read back
/// until they are gathered), columns `X(:, k)` stay on the device, with MATLAB's answers,
/// classes and bounds errors.
#[test]
fn element_and_column_reads_of_gpu_arrays_read_nothing_back() {
    let out = run(
        "X = rand(300, 200, 2); G = gpuArray(X) + 0; S = single(X); GS = gpuArray(S) * 1; \
         l = G > 0.5; r = {X(5), X(7, 9), X(7, 9, 2), X(:, 3), X(:, 399), X(300, 400), S(11, 13), X(3, 4) > 0.5}; \
         gpuStats reset; g = {G(5), G(7, 9), G(7, 9, 2), G(:, 3), G(:, 399), G(300, 400), GS(11, 13), l(3, 4)}; \
         s = gpuStats; fprintf('%d %s %s %s ', s.Session.BytesDownloaded, class(g{1}), \
         classUnderlying(g{7}), classUnderlying(g{8})); \
         fprintf('%d', isequal(cellfun(@gather, g, 'UniformOutput', false), r)); \
         try, G(300, 401), catch e, fprintf(' %s', e.identifier), end",
    );
    // Nothing comes back before the gather: elements are views, columns stay on the device.
    assert_eq!(out, "0 gpuArray single logical 1 MATLAB:badsubscript");
}

#[test]
fn columns_starting_on_256_bytes_are_views_of_the_matrix() {
    if !has_gpu() {
        return;
    }
    // 64 singles a column (256 bytes): each column is a view, no device memory of its own;
    // 100 (400 bytes) puts some columns off the boundary: those are view nodes, read in place
    // by the kernels that use them (they were copies).
    let out = run(
        "X = single(reshape(mod((1:64*40)' * 7919, 10007) / 10007, 64, 40)); G = gpuArray(X); \
         s = gpuStats; before = s.DeviceBytes; c = G(:, 7); s = gpuStats; \
         fprintf('%d ', s.DeviceBytes - before); \
         y = zeros(64, 1, 'single', 'gpuArray'); h = zeros(64, 1, 'single'); \
         for t = 1:40, y = 0.05 * G(:, t) + 0.95 * y; h = 0.05 * X(:, t) + 0.95 * h; end; \
         fprintf('%d %d ', isequal(gather(c), X(:, 7)), max(abs(gather(y) - h)) < 1e-6); \
         Z = gpuArray(rand(100, 9)); s = gpuStats; before = s.DeviceBytes; d = Z(:, 2); \
         s = gpuStats; fprintf('%d ', s.DeviceBytes - before); \
         e = Z(:, 2:3); f = Z(:, 9) + sum(Z(:, 8)); g = gather(Z); \
         fprintf('%d %d', isequal(gather(d), g(:, 2)), \
           max(abs(gather(f) - (g(:, 9) + sum(g(:, 8))))) < 1e-12);",
    );
    // Neither view takes device memory.
    assert_eq!(out, "0 1 1 0 1 1", "{out}");
}

/// var and std of device arrays are two reductions on the device (mean, then the sum of
/// squared deviations), equal to the host's, and only their results are downloaded.
#[test]
fn var_and_std_run_on_the_device() {
    has_gpu();
    let setup = "X = rand(301, 7) * 10 - 3; G = gpuArray(X); S = single(X); GS = gpuArray(S); \
                 M = rand(1, 1000); GM = gpuArray(M);";
    let pairs = [
        ("std(G)", "std(X)"),
        ("var(G)", "var(X)"),
        ("var(G, 1)", "var(X, 1)"),
        ("std(G, [], 2)", "std(X, [], 2)"),
        ("var(G, 0, 1)", "var(X, 0, 1)"),
        ("std(G, 1, 'all')", "std(X, 1, 'all')"),
        ("std(GM)", "std(M)"),
        ("var(GS)", "var(S)"),
        ("std(GS, 0, 2)", "std(S, 0, 2)"),
        ("var(gpuArray(5))", "var(5)"),
        ("std(G(1, :))", "std(X(1, :))"),
    ];
    let out = parity(setup, &pairs[..7], 1e-12);
    assert_eq!(out.trim_end(), "fallbacks 0", "{out}");
    let out = parity(setup, &pairs[7..], 1e-6);
    assert_eq!(out.trim_end(), "fallbacks 0", "{out}");
    // Normalising images: 16 columns' mean and std, then the normalised matrix; only the
    // one element read comes back.
    let out = run("G = gpuArray(rand(4000, 16)); gpuStats reset; \
         Y = (G - mean(G)) ./ std(G) * 1.5 + 0.25; q = gather(Y(7)); s = gpuStats; \
         fprintf('%d %s\\n', s.Session.BytesDownloaded, class(std(G)));");
    if has_gpu() {
        assert_eq!(out.trim(), "8 gpuArray");
    }
}

/// A running average over the columns of a device matrix, iteration by iteration (not as a
/// loop kernel), stays on the device: each column is a view there, and a value whose kernel would bind more than MAX_INPUTS (8) arrays has
/// its widest operand computed, so 64 steps take one kernel per 7 columns, not one per step.
#[test]
fn column_loops_stay_on_the_device_within_the_binding_budget() {
    let gpu = has_gpu();
    let out = run("setenv('MATFUSE_LOOPS', 'off'); \
         X = rand(1000, 64, 'single'); G = gpuArray(X); y = zeros(1000, 1, 'single', 'gpuArray'); \
         h = zeros(1000, 1, 'single'); gpuStats reset; \
         for t = 1:64, y = 0.05 * G(:, t) + 0.95 * y; end; s = gpuStats; \
         k = s.Session.Kernels; moved = s.Session.BytesDownloaded + s.Session.BytesUploaded; \
         for t = 1:64, h = 0.05 * X(:, t) + 0.95 * h; end; \
         e = max(abs(gather(y) - h)); fprintf('%d %d %d %s', k, moved, e < 1e-5, class(y));");
    let expect = if gpu {
        "9 0 1 gpuArray"
    } else {
        "0 0 1 gpuArray"
    };
    assert_eq!(out, expect);
}

/// Large constructors of one value with 'gpuArray' upload nothing: they are pending fills,
/// made inside the kernel that reads them, with -0, NaN and classes kept.
#[test]
fn uniform_constructors_are_fills_not_uploads() {
    has_gpu();
    let out = run(
        "gpuStats reset; z = zeros(5000, 1, 'single', 'gpuArray'); o = 3 * ones(100, 100, 'gpuArray'); \
         n = -0 * ones(5000, 1, 'gpuArray'); q = NaN(5000, 1, 'gpuArray'); l = true(5000, 1, 'gpuArray'); \
         s = gpuStats; up = s.Session.BytesUploaded; \
         fprintf('%d %s %s %g %g %d %s %d %s', up, classUnderlying(z), class(z), gather(sum(z)), \
         gather(sum(o(:))), 1 / gather(n(9)) < 0, class(gather(q(3))), all(isnan(gather(q))), \
         classUnderlying(l));",
    );
    assert_eq!(out, "0 single gpuArray 0 30000 1 double 1 logical");
}

/// A loop whose steps are wide but shallow (`S = S .* exp(a + b*randn(...))`: five pending
/// operations a step) is computed every so many operations, not split step by step at the
/// sink: 256 steps take 6 kernels and the mean a seventh, and the paths equal the host's
/// (the device draws the host's Philox stream).
#[test]
fn wide_loops_are_computed_within_the_group_budget() {
    let gpu = has_gpu();
    let out = run("setenv('MATFUSE_LOOPS', 'off'); \
         n = 1000; rng(3); S = 100 * ones(n, 1, 'single', 'gpuArray'); gpuStats reset; \
         for s = 1:256, S = S .* exp(0.001 + 0.01 * randn(n, 1, 'single', 'gpuArray')); end; \
         m = gather(mean(S)); st = gpuStats; \
         rng(3); H = 100 * ones(n, 1, 'single'); \
         for s = 1:256, H = H .* exp(0.001 + 0.01 * randn(n, 1, 'single')); end; \
         e = max(abs(gather(S) - H) ./ H); fprintf('%d %d', st.Session.Kernels, e < 1e-5);");
    let expect = if gpu { "7 1" } else { "0 1" };
    assert_eq!(out, expect);
}

/// Class predicates and whole-array comparisons of gpuArrays answer with host logicals, as
/// MATLAB's do; `isa(g, 'gpuArray')` names a class and constructs nothing.
#[test]
fn predicates_of_gpu_arrays_answer_on_the_host() {
    let out = run(
        "g = gpuArray([1 2 3]); r = {isa(g, 'gpuArray'), isequal(g, [1 2 3]), isnumeric(g), \
         isfloat(g), islogical(g > 1), isa(g, 'double')}; \
         c = cellfun(@class, r, 'UniformOutput', false); fprintf('%s ', c{:}); \
         fprintf('%d', cellfun(@(v) v, r));",
    );
    assert_eq!(
        out,
        "logical logical logical logical logical logical 111110"
    );
}

/// The 'gpuArray' and 'like' options of constructors are options whether written as char
/// vectors or as string scalars (`zeros(2, "gpuArray")` made a host double).
#[test]
fn constructor_options_as_strings_make_gpu_arrays() {
    let out = run(
        "a = rand(3, 1, \"single\", \"gpuArray\"); b = zeros(2, \"gpuArray\"); \
         c = ones(2, 2, \"like\", gpuArray(single(1))); d = randn(2, 'gpuArray'); \
         fprintf('%s %s %s %s ', class(a), class(b), class(c), class(d)); \
         fprintf('%s %s %s', underlyingType(a), underlyingType(b), underlyingType(c));",
    );
    assert_eq!(
        out,
        "gpuArray gpuArray gpuArray gpuArray single double single"
    );
}
