//! Scans, sorts and sets of gpuArrays on the device (issue 25): cumsum/cumprod/cummax/cummin
//! (any dimension, 'reverse', 'omitnan'), diff, sort with indices (any dimension, descend,
//! stable, NaN placed as MATLAB does), sortrows, unique (ia, ic, 'stable', 'last'),
//! ismember (both outputs), histcounts (edges and bin counts), accumarray sums and nnz.
//! Each result must equal the host evaluator's (cumsum and cumprod within rounding: the
//! device adds long lanes as a tree) in class, size and values, stay a gpuArray, and come
//! with no fallback and no download but the few counts the functions read back.

use crate::common::{has_gpu, out as run};

/// Runs each `(device, host)` pair; returns the pairs that differ (by number), then the
/// fallbacks and the bytes downloaded while the device forms ran. `tol` > 0 compares
/// finite values to within `tol` times the host's magnitude (at least 1); 0 compares exactly.
fn parity(setup: &str, pairs: &[(&str, &str, f64)]) -> String {
    let mut code = format!(
        "function ok = same(R, H, tol)
           ok = strcmp(class(R), 'gpuArray');
           R = gather(R);
           ok = ok && isequal(class(R), class(H)) && isequal(size(R), size(H));
           if ~ok, return; end
           R = double(R); H = double(H);
           ok = isequal(isnan(R), isnan(H)) && isequal(R(isinf(H)), H(isinf(H)));
           f = isfinite(H);
           if tol == 0
             ok = ok && isequal(R(f), H(f)) && isequal(signbit(R(f)), signbit(H(f)));
           else
             ok = ok && all(abs(R(f) - H(f)) <= tol * max(1, abs(H(f))));
           end
         end
         {setup} bad = {{}}; gpuStats reset;"
    );
    for (k, (dev, _, _)) in pairs.iter().enumerate() {
        code.push_str(&format!("r{k} = {dev};"));
    }
    code.push_str("s = gpuStats; down = s.Session.BytesDownloaded;");
    for (k, (_, host, tol)) in pairs.iter().enumerate() {
        code.push_str(&format!(
            "if ~same(r{k}, {host}, {tol}), bad{{end+1}} = '{k}'; end;"
        ));
    }
    code.push_str(
        "fprintf('%s;', bad{:}); fprintf('fallbacks %d down %d\\n', s.Session.Fallbacks, down);",
    );
    run(&code)
}

fn check(setup: &str, pairs: &[(&str, &str, f64)], max_down: usize) {
    let out = parity(setup, pairs);
    let out = out.trim();
    assert!(out.starts_with("fallbacks 0 down"), "{setup}\n{out}");
    if has_gpu() {
        let down: usize = out
            .rsplit(' ')
            .next()
            .and_then(|d| d.parse().ok())
            .unwrap_or(usize::MAX);
        assert!(down <= max_down, "{setup}\ndownloaded {down} bytes: {out}");
    }
}

/// Values with NaN, infinities, -0, ties, for each class and size.
fn setup(class: &str, rows: usize, cols: usize) -> String {
    format!(
        "rng(7); X = {class}(round(randn({rows}, {cols}) * 8) / 4); n = numel(X);
         X(min(3, n)) = NaN; X(min(5, n)) = -0; X(min(8, n)) = Inf; X(min(9, n)) = -Inf;
         X(min(11, n)) = NaN; G = gpuArray(X);"
    )
}

const SCANS: [(&str, &str, f64); 14] = [
    ("cumsum(G)", "cumsum(X)", 1e-5),
    ("cumsum(G, 2)", "cumsum(X, 2)", 1e-5),
    ("cumsum(G, 'reverse')", "cumsum(X, 'reverse')", 1e-5),
    ("cumsum(G, 1, 'omitnan')", "cumsum(X, 1, 'omitnan')", 1e-5),
    ("cumsum(G(:))", "cumsum(X(:))", 1e-4),
    ("cumsum(G, 3)", "cumsum(X, 3)", 0.0),
    (
        "cumprod(G / 4 + 1, 2, 'reverse')",
        "cumprod(X / 4 + 1, 2, 'reverse')",
        1e-4,
    ),
    ("cumprod(G(:) / 64 + 1)", "cumprod(X(:) / 64 + 1)", 1e-4),
    ("cummax(G)", "cummax(X)", 0.0),
    ("cummin(G, 2, 'reverse')", "cummin(X, 2, 'reverse')", 0.0),
    ("cummax(G(:), 'reverse')", "cummax(X(:), 'reverse')", 0.0),
    ("diff(G)", "diff(X)", 0.0),
    ("diff(G, 2, 2)", "diff(X, 2, 2)", 0.0),
    ("nnz(G) + 0", "nnz(X)", 0.0),
];

#[test]
fn cumulative_functions_diff_and_nnz_match_the_host() {
    for class in ["double", "single"] {
        for (rows, cols) in [(7, 5), (1, 3001), (1500, 3), (3, 700)] {
            check(&setup(class, rows, cols), &SCANS, 0);
        }
    }
}

const SORTS: [(&str, &str, f64); 10] = [
    ("sort(G)", "sort(X)", 0.0),
    ("sort(G, 'descend')", "sort(X, 'descend')", 0.0),
    ("sort(G, 2)", "sort(X, 2)", 0.0),
    ("sort(G(:))", "sort(X(:))", 0.0),
    ("sort(G, 3)", "sort(X, 3)", 0.0),
    ("I1", "J1", 0.0),
    ("I2", "J2", 0.0),
    ("I3", "J3", 0.0),
    ("S3", "T3", 0.0),
    ("sortrows(G, [2 -1])", "sortrows(X, [2 -1])", 0.0),
];

#[test]
fn sorts_with_indices_are_stable_and_match_the_host() {
    for class in ["double", "single"] {
        for (rows, cols) in [(7, 5), (1, 5001), (4099, 2), (2, 9)] {
            let s = format!(
                "{} [~, I1] = sort(G); [~, J1] = sort(X); [~, I2] = sort(G, 2, 'descend');
                 [~, J2] = sort(X, 2, 'descend'); [S3, I3] = sortrows(G, 'descend');
                 [T3, J3] = sortrows(X, 'descend');",
                setup(class, rows, cols)
            );
            check(&s, &SORTS, 0);
        }
    }
}

const SETS: [(&str, &str, f64); 12] = [
    ("C1", "D1", 0.0),
    ("A1", "B1", 0.0),
    ("K1", "L1", 0.0),
    ("C2", "D2", 0.0),
    ("A2", "B2", 0.0),
    ("K2", "L2", 0.0),
    ("A3", "B3", 0.0),
    ("K4", "L4", 0.0),
    ("T", "U", 0.0),
    ("P", "Q", 0.0),
    ("ismember(G, gpuArray(S))", "ismember(X, S)", 0.0),
    ("unique(G')", "unique(X')", 0.0),
];

#[test]
fn unique_and_ismember_match_the_host() {
    for class in ["double", "single"] {
        for (rows, cols) in [(7, 5), (1, 3001), (1000, 3)] {
            let s = format!(
                "{} S = {class}([0.25 3 NaN 7 7 -Inf 0 2.5 -0.5]);
                 [C1, A1, K1] = unique(G); [D1, B1, L1] = unique(X);
                 [C2, A2, K2] = unique(G, 'stable'); [D2, B2, L2] = unique(X, 'stable');
                 [~, A3] = unique(G, 'last'); [~, B3] = unique(X, 'last');
                 [~, ~, K4] = unique(G, 'stable', 'last'); [~, ~, L4] = unique(X, 'stable', 'last');
                 [T, P] = ismember(G, S); [U, Q] = ismember(X, S);",
                setup(class, rows, cols)
            );
            // Each unique reads back the count of groups (and 'last' the count of ends).
            check(&s, &SETS, 64);
        }
    }
}

const BINS: [(&str, &str, f64); 7] = [
    (
        "histcounts(G, [-2 -1 -0.5 0 0.5 1 3])",
        "histcounts(X, [-2 -1 -0.5 0 0.5 1 3])",
        0.0,
    ),
    (
        "histcounts(G, [-Inf 0 Inf])",
        "histcounts(X, [-Inf 0 Inf])",
        0.0,
    ),
    ("N1", "M1", 0.0),
    ("E1", "F1", 0.0),
    ("histcounts(G, 7)", "histcounts(X, 7)", 0.0),
    ("accumarray(GS, GV)", "accumarray(SU, V)", 0.0),
    (
        "accumarray(GS, 2.5, [30 1])",
        "accumarray(SU, 2.5, [30 1])",
        0.0,
    ),
];

#[test]
fn histcounts_and_accumarray_match_the_host() {
    for class in ["double", "single"] {
        for (rows, cols) in [(7, 5), (1, 5001)] {
            let s = format!(
                "{} [N1, E1] = histcounts(G); [M1, F1] = histcounts(X);
                 SU = ceil(rand(n, 1) * 17); SU(1) = 21; V = randn(n, 1);
                 GS = gpuArray(SU); GV = gpuArray(V);",
                setup(class, rows, cols)
            );
            // histcounts with a bin count reads back the finite range and count; accumarray
            // whether its subscripts are valid and the largest; compactions their counts.
            // (Single subscripts make a single accumarray on the host: it computes those.)
            check(&s, &BINS, 128);
        }
    }
}

#[test]
fn the_device_forms_run_kernels_and_leave_the_host_forms_alone() {
    if !has_gpu() {
        return;
    }
    // Kernels ran (the host would run none), nothing came back, and the results are resident.
    let out = run("G = gpuArray(single(rand(1, 1000))); gpuStats reset;
         [s, i] = sort(G); c = cumsum(G); u = unique(G); t = ismember(G, s);
         st = gpuStats; fprintf('%d %d %d', st.Session.Kernels > 10, st.Session.Fallbacks, \
         st.Session.BytesDownloaded <= 8);");
    assert_eq!(out.trim(), "1 0 1");
    let out = run("G = gpuArray(rand(300, 1)); explain y = sort(G)");
    assert!(out.contains("(device)") && !out.contains("(host)"), "{out}");
    let out = run("G = gpuArray(rand(300, 1)); explain y = cumsum(G)");
    assert!(out.contains("(device)") && !out.contains("(host)"), "{out}");
}

#[test]
fn empty_and_other_forms_still_give_the_host_results() {
    // Empty arrays, integer classes and options the device forms do not take go the host
    // way and give gpuArrays as before.
    let out = run("G = gpuArray(zeros(0, 3)); a = cumsum(G); [s, i] = sort(G); u = unique(G);
         fprintf('%s %s %s %s\\n', mat2str(size(a)), mat2str(size(s)), mat2str(size(i)), mat2str(size(u)));
         G = gpuArray(int8([3 -1 3 2])); [s, i] = sort(G, 'descend'); c = cumsum(G);
         fprintf('%s %s %s %s\\n', class(gather(s)), mat2str(gather(s)), mat2str(gather(i)), mat2str(gather(c)));
         G = gpuArray([3 1 2]); s = sort(G, 'ComparisonMethod', 'abs'); disp(gather(s));");
    assert_eq!(
        out,
        "[0 3] [0 3] [0 3] [1 0]\nint8 [3 3 2 -1] [1 3 4 2] [3 2 5 7]\n     1     2     3\n"
    );
}

#[test]
fn long_lanes_scan_in_blocks_with_carries() {
    // Lanes past one block (4096) take the three passes: each block's total, the lane's
    // carries, the blocks from their carries.
    for class in ["double", "single"] {
        for (rows, cols) in [(100_001, 1), (9000, 3), (2, 20_000)] {
            check(
                &setup(class, rows, cols),
                &[
                    ("cumsum(G)", "cumsum(X)", 1e-4),
                    ("cumsum(G, 2, 'reverse')", "cumsum(X, 2, 'reverse')", 1e-4),
                    ("cummax(G)", "cummax(X)", 0.0),
                    ("cummin(G(:), 'reverse')", "cummin(X(:), 'reverse')", 0.0),
                    ("cumsum(G(:), 'reverse')", "cumsum(X(:), 'reverse')", 1e-4),
                ],
                0,
            );
        }
    }
}
