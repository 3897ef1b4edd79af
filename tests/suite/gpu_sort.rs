//! The device radix sort (issue 25, `gpu::sort`: 8-bit digits, tiles sorted in workgroup
//! memory, passes of constant bytes skipped on the device) against the host's sort: sizes
//! around the tiles (2048 elements with subgroups or on lavapipe, else 4096) and
//! the keys kernel's blocks, many equal keys (stability shown by the indices), all NaN, -0
//! and +0, 'descend', dimension 2 and many short lanes (one, two and three bytes of lane
//! number), keys whose bytes are all constant or vary in one byte only (an odd count of
//! passes, so the places are copied back), and 1.2e6 elements. Every sort is with indices
//! and compared exactly (values, signs of zero, indices, class and size), and must stay on
//! the device (no fallback, nothing downloaded) where there is one. Both tile rankings run:
//! with subgroups where the device has them (lavapipe: 8 lanes), and by splits in a session
//! started with `MATFUSE_NO_SUBGROUPS=1`.

use crate::common::{has_gpu, out, run_file_with};

/// Sorts each `X` made by `make` (a MATLAB expression of `n`) on the device and the host,
/// for both classes and both directions, at `dims`; prints the cases that differ, then
/// the fallbacks and the bytes downloaded while the device sorts ran.
fn compare(make: &str, sizes: &[usize], dims: &[u32]) -> String {
    let mut code = String::from(
        "function ok = same(S, I, T, J)
           ok = strcmp(class(S), 'gpuArray') && strcmp(class(I), 'gpuArray');
           S = gather(S); I = gather(I);
           ok = ok && isequal(class(S), class(T)) && isequal(size(S), size(T)) ...
             && isequal(size(I), size(J)) && isequal(I, J) ...
             && isequal(isnan(S), isnan(T)) && isequal(S(~isnan(T)), T(~isnan(T))) ...
             && isequal(signbit(S(~isnan(T))), signbit(T(~isnan(T))));
         end
         rng(11); bad = {}; fb = 0; down = 0;",
    );
    for &n in sizes {
        for class in ["double", "single"] {
            for &dim in dims {
                for dir in ["ascend", "descend"] {
                    code.push_str(&format!(
                        "n = {n}; X = {class}({make}); G = gpuArray(X); gpuStats reset;
                         [S, I] = sort(G, {dim}, '{dir}'); st = gpuStats;
                         fb = fb + st.Session.Fallbacks; down = down + st.Session.BytesDownloaded;
                         [T, J] = sort(X, {dim}, '{dir}');
                         if ~same(S, I, T, J), bad{{end+1}} = '{n} {class} {dim} {dir}'; end\n"
                    ));
                }
            }
        }
    }
    code.push_str("fprintf('%s; ', bad{:}); fprintf('fallbacks %d down %d\\n', fb, down);");
    out(&code)
}

fn check(make: &str, sizes: &[usize], dims: &[u32]) {
    let got = compare(make, sizes, dims);
    let gpu = has_gpu();
    let want = "fallbacks 0 down 0\n";
    if gpu {
        assert_eq!(got, want, "{make}");
    } else {
        assert!(got.starts_with("fallbacks"), "{make}\n{got}");
    }
}

#[test]
fn sizes_around_the_tiles_sort_as_the_host() {
    let sizes = [
        1, 2, 3, 255, 256, 257, 2047, 2048, 2049, 4095, 4096, 4097, 6143, 8193, 12289,
    ];
    check("round(randn(n, 1) * 100) / 8", &sizes, &[1]);
}

#[test]
fn many_equal_keys_keep_their_order() {
    check("round(rand(1, n) * 3)", &[5000, 20001], &[2]);
    check("zeros(n, 1)", &[1, 4097, 9000], &[1]);
    check("sign(rand(n, 1) - 0.5) * 0", &[3000, 8195], &[1]);
    check("NaN(n, 1)", &[7, 4099], &[1]);
    check(
        "[NaN(n, 1); -zeros(n, 1); Inf(n, 1); zeros(n, 1); -Inf(n, 1); NaN(n, 1)]",
        &[1500],
        &[1],
    );
}

#[test]
fn one_varying_byte_and_integer_valued_keys_sort_as_the_host() {
    // 1 and 1.5 differ in one key byte: one pass runs, and its places are copied back.
    check("1 + (rand(n, 1) > 0.5) / 2", &[4500, 30000], &[1]);
    check("randi(100, n, 1) - 50", &[7001], &[1]);
    check("randi(2^20, n, 1)", &[9999], &[1]);
}

#[test]
fn lanes_of_a_matrix_sort_as_the_host() {
    // 300 lanes (two bytes of lane number), and 70000 lanes of 2 (three bytes).
    let code = "reshape(round(randn(n, 1) * 4) / 2, 300, [])";
    check(code, &[300 * 37], &[1, 2]);
    check("reshape(round(randn(n, 1) * 4), 2, [])", &[140000], &[1, 2]);
    check("reshape(randn(n, 1), 5, 7, [])", &[5 * 7 * 11], &[3]);
}

#[test]
fn a_million_elements_sort_as_the_host() {
    check("round(randn(n, 1) * 1e4) / 16", &[1_200_001], &[1]);
    if has_gpu() {
        // Singles sorted with indices, as the benchmark sorts them: 4 passes, nothing back.
        let got = out(
            "x = gpuArray(single(mod((1:2e6)' * 7919, 1000003) / 1000003));
             [s, i] = sort(x + 1/8); y = gather(x) + 1/8; [t, j] = sort(y);
             fprintf('%d %d\\n', isequal(gather(s), t), isequal(gather(i), j));",
        );
        assert_eq!(got, "1 1\n");
    }
}

#[test]
fn values_of_every_magnitude_come_back_exactly() {
    // A vector's sorted values are decoded from their keys (zeros and NaN read back from the
    // array): every exponent, subnormals, infinities, both signs.
    let make = "[realmin / 2^20; -Inf; Inf; -realmin / 3; \
                randn(n - 4, 1) .* 10 .^ randi([-300 300], n - 4, 1)]";
    check(make, &[9001], &[1]);
    if has_gpu() {
        // Without indices too, singles and doubles, both directions.
        let got = out("rng(3); n = 50001; ok = true;
             x = randn(n, 1) .* 10 .^ randi([-40 40], n, 1); x(1:7:end) = -0; x(2:11:end) = NaN;
             for c = {'double', 'single'}
               y = cast(x, c{1});
               for d = {'ascend', 'descend'}
                 s = gather(sort(gpuArray(y), d{1})); t = sort(y, d{1});
                 ok = ok && isequaln(s, t) && isequal(signbit(s), signbit(t)) ...
                   && strcmp(class(s), c{1});
               end
             end
             fprintf('%d\\n', ok);");
        assert_eq!(got, "1\n");
    }
}

#[test]
fn tiles_ranked_by_splits_sort_as_the_host() {
    // Where the device has subgroups (lavapipe does) the tiles are ranked with them; the
    // splits every other device uses are run here in a session without them.
    if !has_gpu() {
        return;
    }
    let script = "rng(5); ok = true;
        for n = [1 255 2049 4097 12289 100003]
          for c = {'double', 'single'}
            x = cast(round(randn(n, 1) * 50) / 4, c{1}); x(1:13:end) = NaN; x(2:17:end) = -0;
            for d = {'ascend', 'descend'}
              [s, i] = sort(gpuArray(x), d{1}); [t, j] = sort(x, d{1});
              ok = ok && isequaln(gather(s), t) && isequal(gather(i), j) ...
                && isequal(signbit(gather(s)), signbit(t));
            end
          end
        end
        X = round(randn(300, 41) * 3); [s, i] = sort(gpuArray(X), 2); [t, j] = sort(X, 2);
        ok = ok && isequal(gather(s), t) && isequal(gather(i), j);
        st = gpuStats; d = gpuDevice;
        fprintf('%d %d %d\\n', ok, st.Session.Fallbacks, d.SubgroupSize);";
    let (text, errors) = run_file_with("sort_splits", script, &[("MATFUSE_NO_SUBGROUPS", "1")]);
    assert_eq!(text, "1 0 0\n", "{errors}");
}
