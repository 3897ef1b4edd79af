//! Index vectors, masks and `find` of device arrays (issue 24): gathers read inside the
//! consuming kernel, masks compact on the device, and nothing moves between host and device
//! but the few bytes that size a mask's result or check device indices. Values, classes and
//! shapes equal the host evaluator's; bad subscripts give MATLAB's errors.

use crate::common::{has_gpu, out as run};

/// Each `(device, host)` pair must agree in class, size and values (to 1e-6: sums), NaN for NaN; then the
/// fallbacks and the bytes moved while the device forms were built and read by `sum`.
fn parity(setup: &str, pairs: &[(&str, &str)]) -> String {
    let mut code = format!(
        "function ok = same(R, H)
           ok = isequal(class(R), class(H)) && isequal(size(R), size(H));
           R = double(R); H = double(H);
           ok = ok && isequal(isnan(R), isnan(H));
           f = ~isnan(H); ok = ok && all(abs(R(f) - H(f)) <= 1e-6 * max(1, abs(H(f))));
         end
         {setup} bad = {{}}; gpuStats reset;"
    );
    for (k, (dev, _)) in pairs.iter().enumerate() {
        code.push_str(&format!("r{k} = {dev};"));
    }
    code.push_str("s = gpuStats; moved = s.Session.BytesUploaded + s.Session.BytesDownloaded;");
    for (k, (_, host)) in pairs.iter().enumerate() {
        code.push_str(&format!(
            "if ~same(gather(r{k}), {host}), bad{{end+1}} = '{k}'; end;"
        ));
    }
    code.push_str(
        "fprintf('%s;', bad{:}); s = gpuStats; \
         fprintf('fallbacks %d moved %d\\n', s.Session.Fallbacks, moved);",
    );
    run(&code)
}

const HOST_INDEX: [(&str, &str); 14] = [
    ("G([3 1 2 2 1])", "X([3 1 2 2 1])"),
    ("G([3 1 2 2 1]')", "X([3 1 2 2 1]')"),
    ("G([1 2; 5 4])", "X([1 2; 5 4])"),
    ("G(:, [3 1 2])", "X(:, [3 1 2])"),
    ("G([2 end 1], [end 1])", "X([2 end 1], [end 1])"),
    ("G(end, [4 2 4])", "X(end, [4 2 4])"),
    ("G([5 1 3], 2)", "X([5 1 3], 2)"),
    ("G([7 7 7])", "X([7 7 7])"),
    ("G([end 1]) * 2 + 1", "X([end 1]) * 2 + 1"),
    ("sum(G([1 4 2], :), 1)", "sum(X([1 4 2], :), 1)"),
    ("G(X > 0.2)", "X(X > 0.2)"),
    ("G(logical([1 0 1 1]))", "X(logical([1 0 1 1]))"),
    ("G(1, :)'", "X(1, :)'"),
    ("max(G(:, [2 1]), [], 2)", "max(X(:, [2 1]), [], 2)"),
];

#[test]
fn host_index_vectors_and_masks_match_the_host() {
    let gpu = has_gpu();
    for class in ["double", "single"] {
        for (rows, cols) in [(7, 5), (301, 4)] {
            let setup =
                format!("rng(4); X = {class}(rand({rows}, {cols})); X(6) = NaN; G = gpuArray(X);");
            let out = parity(&setup, &HOST_INDEX);
            // Host subscripts go up with the kernels that read them (no data comes back).
            assert!(
                out.starts_with("fallbacks 0 moved"),
                "{class} {rows}x{cols}: {out}"
            );
            if gpu {
                let down = run(&format!(
                    "{setup} gpuStats reset; a = G([3 1 2]); b = G(:, [2 1]); c = gather(a(1)); \
                     s = gpuStats; fprintf('%d', s.Session.BytesDownloaded);"
                ));
                let elem = if class == "single" { "4" } else { "8" };
                assert_eq!(down, elem, "{class}: only the element read comes back");
            }
        }
    }
}

const DEVICE_INDEX: [(&str, &str); 12] = [
    ("G(I)", "X(i)"),
    ("G(I')", "X(i')"),
    ("G(I, 1)", "X(i, 1)"),
    ("G(:, J)", "X(:, j)"),
    ("G(I, J)", "X(i, j)"),
    ("G(G > 0.5)", "X(X > 0.5)"),
    ("G(G > 2)", "X(X > 2)"),
    ("G(G < 2)", "X(X < 2)"),
    ("find(G > 0.5)", "find(X > 0.5)"),
    ("find(G(1, :) > 0.3)", "find(X(1, :) > 0.3)"),
    ("find(G(:, 1) > 5)", "find(X(:, 1) > 5)"),
    ("sum(G(G > 0.25)) * 2", "sum(X(X > 0.25)) * 2"),
];

#[test]
fn device_indices_masks_and_find_stay_on_the_device() {
    let gpu = has_gpu();
    for class in ["double", "single"] {
        let setup = format!(
            "rng(5); X = {class}(rand(301, 6)); X(9) = NaN; G = gpuArray(X); \
             i = [7 1 301 4 4]; j = [6 1 2]; I = gpuArray(i); J = gpuArray(j);"
        );
        let out = parity(&setup, &DEVICE_INDEX);
        // Each device index check reads one value back (at most one for each of the six
        // device subscripts: an index array checked before is not checked again), each mask
        // its count (a sum: 8 bytes); nothing else moves.
        if gpu {
            let moved: u64 = out
                .trim_end()
                .strip_prefix("fallbacks 0 moved ")
                .and_then(|m| m.parse().ok())
                .unwrap_or_else(|| panic!("{class}: {out}"));
            assert!((7 * 8..=6 * 8 + 7 * 8).contains(&moved), "{class}: {out}");
        } else {
            assert!(out.starts_with("fallbacks 0"), "{class}: {out}");
        }
    }
    // A mask and a find over ten million singles: one count (8 bytes) read back each.
    let out = run(
        "N = 1e7 + 3; Y = gpuArray(single(mod((1:N)' * 7919, 1000) / 1000)); y = gather(Y); \
         gpuStats reset; w = Y(Y > 0.7); k = find(Y < 0.001); s = gpuStats; \
         fprintf('%d %d %d', isequal(gather(w), y(y > 0.7)), isequal(gather(k), find(y < 0.001)), \
         s.Session.BytesDownloaded);",
    );
    let down = if gpu { "16" } else { "0" };
    assert_eq!(out, format!("1 1 {down}"));
}

#[test]
fn bad_subscripts_give_matlab_errors_and_keep_the_workspace() {
    has_gpu();
    let out = run(
        "G = gpuArray(magic(4)); I = gpuArray([1 17]); Z = gpuArray([0 1]); F = gpuArray(1.5); \
         N = gpuArray([1 NaN]); M = gpuArray(true(1, 17)); \
         for c = {'G([1 17])', 'G(I)', 'G(Z)', 'G(F)', 'G(N)', 'G(M)', 'G([2 5], [1 9])', 'G(I, 1)'} \
           try, eval([c{1} ';']); fprintf('no error '); catch e, fprintf('%s ', e.identifier); end; end; \
         M(17) = false; fprintf('| %d %d', isequal(gather(G(M)), reshape(magic(4), 1, [])), sum(gather(G(:))));",
    );
    assert_eq!(
        out,
        "MATLAB:badsubscript MATLAB:badsubscript MATLAB:badsubscript MATLAB:badsubscript \
         MATLAB:badsubscript MATLAB:badsubscript MATLAB:badsubscript MATLAB:badsubscript | 1 136"
    );
}

#[test]
fn masked_assignment_of_one_value_is_a_select_on_the_device() {
    has_gpu();
    for class in ["double", "single"] {
        let out = run(&format!(
            "rng(3); X = {class}(randn(301, 7)); X(5) = NaN; G = gpuArray(X) * 1; G(1); H0 = G; \
             gpuStats reset; G(G < 0) = 0; X(X < 0) = 0; H = G; H(isnan(H)) = -1; \
             Y = X; Y(isnan(Y)) = -1; K = G; K(G > 1) = 7; Z = X; Z(X > 1) = 7; \
             s = gpuStats; fprintf('%d %d %d %d %d %s', isequaln(gather(G), X), \
             isequaln(gather(H), Y), isequaln(gather(K), Z), \
             s.Session.BytesUploaded + s.Session.BytesDownloaded, \
             isequaln(gather(H0), X) == 0, classUnderlying(K));"
        ));
        assert_eq!(out, format!("1 1 1 0 1 {class}"), "{class}");
    }
}
