//! Indexed assignment into device arrays (issue 24): index vectors with many values, repeated
//! positions (the last write wins), masks with a value per true element, deletion and
//! growth. Each form runs on a gpuArray and on the same host array: results equal in class,
//! size and values, the result stays a gpuArray, nothing but a mask's count or one index
//! check comes back, and bad subscripts give the host's error and keep the workspace.

use crate::common::{has_gpu, out as run};

/// Runs each form (a statement changing `A`, reading index arrays `I`, `J` and values `W`)
/// on the device arrays and on the host ones, and prints the forms whose results differ
/// (or are not gpuArrays), then the fallbacks, bytes moved and kernels of the device runs.
fn parity(setup: &str, forms: &[&str]) -> String {
    let mut code = format!(
        "function ok = same(R, H)
           ok = strcmp(class(R), 'gpuArray') && isequal(class(gather(R)), class(H)) && isequal(size(R), size(H));
           R = double(gather(R)); H = double(H);
           ok = ok && isequal(isnan(R), isnan(H)) && isequal(R(~isnan(H)), H(~isnan(H)));
         end
         {setup} bad = {{}}; R = {{}}; gpuStats reset;"
    );
    for f in forms {
        code.push_str(&format!(
            "A = G0; I = Id; J = Jd; W = Wd; {f}; R{{end+1}} = A; clear A;"
        ));
    }
    code.push_str(
        "s = gpuStats; moved = s.Session.BytesUploaded + s.Session.BytesDownloaded; \
         kernels = s.Session.Kernels;",
    );
    for (k, f) in forms.iter().enumerate() {
        code.push_str(&format!(
            "A = X0; I = Ih; J = Jh; W = Wh; {f}; if ~same(R{{{}}}, A), bad{{end+1}} = '{k}'; end;",
            k + 1
        ));
    }
    code.push_str(
        "fprintf('%s;', bad{:}); s = gpuStats; \
         fprintf('fallbacks %d moved %d kernels %d\\n', s.Session.Fallbacks, moved, kernels);",
    );
    run(&code)
}

/// The fallbacks, bytes moved and kernels `parity` printed, once every form agreed.
fn counts(out: &str) -> (u64, u64, u64) {
    let words: Vec<u64> = out
        .trim_end()
        .strip_prefix("fallbacks ")
        .unwrap_or_else(|| panic!("forms differ from the host: {out}"))
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    match words.as_slice() {
        [f, m, k] => (*f, *m, *k),
        _ => panic!("{out}"),
    }
}

const MATRIX_FORMS: [&str; 22] = [
    "A([3 1 3]) = [10 20 30]",
    "A([3 1 3]') = [10; 20; 30]",
    "A([end 2 end]) = 5",
    "A(:, [2 1 2]) = reshape(1:3*size(A, 1), [], 3)",
    "A([2 end 2], [1 end]) = [1 2; 3 4; 5 6]",
    "A(I) = W",
    "A(I) = -1",
    "A(J, J) = reshape(1:9, 3, 3)",
    "A(:, J) = 0.25",
    "m = A > 0.5; A(m) = -(1:sum(m(:)))",
    "A(A < 0.5) = (1:sum(A(:) < 0.5)) / 8",
    "A(end+1, :) = 1:size(A, 2)",
    "A(:, end+2) = 1",
    "A(size(A, 1) + 2, size(A, 2) + 1) = 9",
    "A(:, 2) = []",
    "A([1 3 3], :) = []",
    "A(:, [end 1]) = []",
    "A(:, 2:3) = []",
    "A([2 5 7]) = []",
    "A(A > 0.5) = []",
    "A(:) = []",
    "A(I) = []",
];

#[test]
fn index_vectors_masks_growth_and_deletion_match_the_host() {
    let gpu = has_gpu();
    for class in ["double", "single"] {
        for (rows, cols) in [(7, 5), (301, 4)] {
            let setup = format!(
                "rng(7); X0 = {class}(rand({rows}, {cols})); X0(6) = NaN; G0 = gpuArray(X0); \
                 Ih = [4 2 4 1 {last} 4]; Jh = [3 1 3]; Wh = {class}([1.5 2.5 3.5 4.5 5.5 6.5]); \
                 Id = gpuArray(Ih); Jd = gpuArray(Jh); Wd = gpuArray(Wh);",
                last = rows * cols
            );
            let out = parity(&setup, &MATRIX_FORMS);
            let (fallbacks, moved, _) = counts(&out);
            assert_eq!(fallbacks, 0, "{class} {rows}x{cols}: {out}");
            if gpu {
                // Device index checks (8 bytes each, remembered per index array) and masks'
                // counts (4 bytes each); no array comes back or goes up.
                assert!(moved <= 200, "{class} {rows}x{cols}: {out}");
            }
        }
    }
}

const VECTOR_FORMS: [&str; 16] = [
    "A(end+1) = 3",
    "A(end+5) = 1",
    "A(numel(A) + [2 4]) = [7 8]",
    "A(1) = []",
    "A(end) = []",
    "A([2 2 4]) = []",
    "A(A > 0.5) = []",
    "A(A > 5) = []",
    "A(A < 5) = []",
    "A(I) = W",
    "A(I) = []",
    "A([I I]) = [W -W]",
    "A(logical(mod(1:numel(A), 2))) = 1:ceil(numel(A) / 2)",
    "A(end:-1:1) = 1:numel(A)",
    "A(:) = []",
    "A([]) = 4",
];

#[test]
fn vectors_grow_shrink_and_take_repeated_indices_like_the_host() {
    let gpu = has_gpu();
    for class in ["double", "single"] {
        for n in [9, 1001] {
            for orient in ["", "'"] {
                let setup = format!(
                    "rng(8); X0 = {class}(rand(1, {n})){orient}; G0 = gpuArray(X0); \
                     Ih = [3 {n} 3 1 3]; Jh = 1; Wh = {class}([1 2 3 4 5]); \
                     Id = gpuArray(Ih); Jd = gpuArray(Jh); Wd = gpuArray(Wh);"
                );
                let out = parity(&setup, &VECTOR_FORMS);
                let (fallbacks, moved, _) = counts(&out);
                assert_eq!(fallbacks, 0, "{class} {n}{orient}: {out}");
                if gpu {
                    assert!(moved <= 100, "{class} {n}{orient}: {out}");
                }
            }
        }
    }
}

#[test]
fn the_last_of_repeated_device_indices_wins() {
    // Many writes to few places: which thread runs last must not decide.
    let out = run(
        "i = mod((1:4096) * 7, 5) + 1; v = 1:4096; x = zeros(1, 5); x(i) = v; \
         G = gpuArray(zeros(1, 5)); G(gpuArray(i)) = gpuArray(v); \
         A = zeros(3); A([1 1 2 1], [3 3 1]) = reshape(1:12, 4, 3); \
         B = gpuArray(zeros(3)); B(gpuArray([1 1 2 1]), gpuArray([3 3 1])) = gpuArray(reshape(1:12, 4, 3)); \
         fprintf('%d %d\\n', isequal(gather(G), x), isequal(gather(B), A));",
    );
    assert_eq!(out.trim(), "1 1", "{out}");
}

#[test]
fn assignment_keeps_value_semantics_and_writes_in_place_when_it_may() {
    let out = run(
        "G = gpuArray(1:10); H = G; G([2 5 2]) = [7 8 9]; K = G; G(end+1) = 4; G(1) = []; \
         fprintf('%s|%s|%s\\n', mat2str(gather(H)), mat2str(gather(K)), mat2str(gather(G)));",
    );
    assert_eq!(
        out.trim(),
        "[1 2 3 4 5 6 7 8 9 10]|[1 9 3 4 8 6 7 8 9 10]|[9 3 4 8 6 7 8 9 10 4]",
        "{out}"
    );
    if has_gpu() {
        // A scatter loop: the values' kernel, the marks and the writes each step, nothing
        // read back but the one index check and the one count of its repeated positions
        // (read at the second step; these have repeats, so the marks stay).
        let out = run(
            "x = gpuArray(rand(1, 1e5)); idx = gpuArray(randi(1e5, 1, 1000)); \
             v = gpuArray(rand(1, 1000)); xh = gather(x); ih = gather(idx); vh = gather(v); \
             gpuStats reset; for k = 1:20, x(idx) = x(idx) + v; end; s = gpuStats; \
             for k = 1:20, xh(ih) = xh(ih) + vh; end; \
             fprintf('%d %d %d\\n', s.Session.Kernels, s.Session.BytesDownloaded + s.Session.BytesUploaded, \
                     max(abs(gather(x) - xh)) < 1e-12);",
        );
        let w: Vec<u64> = out
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        assert!(
            w.len() == 3 && w[0] <= 3 * 20 + 2 && w[1] <= 16 && w[2] == 1,
            "{out}"
        );
        // Appending in a loop stays on the device and reads nothing back.
        let out = run(
            "x = gpuArray(0); gpuStats reset; for k = 1:500, x(end+1) = k; end; s = gpuStats; \
             fprintf('%d %d %s\\n', s.Session.BytesDownloaded, isequal(gather(x), 0:500), class(x));",
        );
        assert_eq!(out.trim(), "0 1 gpuArray", "{out}");
    }
}

#[test]
fn wrong_subscripts_raise_the_hosts_errors_and_keep_the_workspace() {
    let cases = [
        "A(0) = 1",
        "A(1.5) = 1",
        "A([1 2]) = [1 2 3]",
        "A(1:2, :) = ones(3)",
        "A([1 2], [1 2]) = ones(3, 2)",
        "A(:, 7) = []",
        "A([1 2], [1 2]) = []",
        "A(30) = []",
        "A(gpuArray([1 0])) = 5",
        "A(gpuArray([1 2.5])) = [1 2]",
        "A(gpuArray([1 40])) = []",
        "A(-1, 2) = 3",
        "A(50) = 1",
        "A(2, :) = [1 2]",
    ];
    for c in cases {
        let dev = run(&format!(
            "A = gpuArray(magic(5)); B = A; try, {c}; catch e, disp(e.identifier); end; \
             fprintf('%s %d\\n', class(A), isequal(gather(A), gather(B)));"
        ));
        let host = run(&format!(
            "A = magic(5); B = A; try, {}; catch e, disp(e.identifier); end; \
             fprintf('%s %d\\n', class(A), isequal(A, B));",
            c.replace("gpuArray", "")
        ));
        assert_eq!(
            dev.replace("gpuArray", "double"),
            host,
            "{c}: device and host disagree"
        );
        assert!(host.contains("MATLAB:"), "{c}: {host}");
    }
}

#[test]
fn explain_shows_an_assignments_whole_plan() {
    let out = run("u = gpuArray(rand(1, 101)); x = gpuArray(rand(1, 50));\n\
         explain u(2:end-1) = u(1:end-2) + u(3:end)\n\
         explain x([3 1 3]) = [1 2 3]\n\
         explain x(2) = []\n\
         explain x(x > 0.5) = 0\n\
         disp(size(x))");
    assert!(out.contains("assignment u(2:end-1)"), "{out}");
    assert!(out.contains("assignment x(x > 0.5)"), "{out}");
    if has_gpu() {
        assert!(out.contains("fused group"), "{out}");
        assert!(out.contains("indexed assignment by index"), "{out}");
        assert!(out.contains("deletion"), "{out}");
    } else {
        assert!(out.contains("computed on the host"), "{out}");
    }
    // Nothing was assigned.
    assert!(out.trim_end().ends_with("1    50"), "{out}");
}
