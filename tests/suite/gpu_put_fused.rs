//! `x(idx) = f(x(idx), ...)` with a pending right-hand side, written as it is computed: one
//! kernel a step once the positions are known to be distinct (`interp::put_fused`). Values
//! equal to the host's in single and double, for vectors and matrices; and every case where
//! writing in place would change what something else sees goes the general way: another
//! variable holding the array, a pending read of it, the values held by a variable, values
//! reading the array elsewhere, repeated positions.

use crate::common::{has_gpu, out as run};

/// `x(idx) = x(idx) * 0.5 + w` ten times (the first two outside the count) on the device
/// and the host: whether they agree, then the kernels and bytes moved of the last eight.
fn scatter_loop(class: &str, shape: &str) -> (bool, u64, u64) {
    let text = run(&format!(
        "n = prod({shape}); m = 3001; xh = {class}(reshape(mod((1:n) * 7919, 1000) / 1000, {shape})); \
         ih = mod((0:m-1)' * 7919, n) + 1; wh = {class}(mod((1:m)' * 31, 97) / 97); \
         wh = reshape(wh, size(xh(ih))); \
         x = gpuArray(xh); idx = gpuArray(ih); w = gpuArray(wh); \
         for t = 1:2, x(idx) = x(idx) * 0.5 + w; xh(ih) = xh(ih) * 0.5 + wh; end; \
         gpuStats reset; \
         for t = 1:8, x(idx) = x(idx) * 0.5 + w; xh(ih) = xh(ih) * 0.5 + wh; end; \
         s = gpuStats; k = s.Session.Kernels; b = s.Session.BytesUploaded + s.Session.BytesDownloaded; \
         r = gather(x); \
         fprintf('%d %d %d\\n', isequal(r, xh) && strcmp(class(r), class(xh)) && isequal(size(r), size(xh)), k, b);"
    ));
    let w: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(w.len(), 3, "{text}");
    (
        w[0] == "1",
        w[1].parse().expect("kernels"),
        w[2].parse().expect("bytes"),
    )
}

#[test]
fn a_scatter_with_pending_values_is_one_kernel_a_step_and_matches_the_host() {
    for class in ["single", "double"] {
        for shape in ["[100003 1]", "[1 100003]", "[307 331]"] {
            let (same, kernels, bytes) = scatter_loop(class, shape);
            assert!(same, "{class} {shape}: device and host differ");
            if has_gpu() {
                assert!(
                    kernels <= 8,
                    "{class} {shape}: {kernels} kernels for 8 steps"
                );
                assert_eq!(bytes, 0, "{class} {shape}: bytes moved");
            }
        }
    }
}

#[test]
fn a_fused_scatter_never_changes_what_something_else_sees() {
    // Each case assigns through distinct device positions known as such (a first put
    // counted them), then checks every value involved against the host doing the same.
    let setup = "n = 5003; m = 701; xh = mod((1:n)' * 13, 101) / 7; ih = mod((0:m-1)' * 97, n) + 1; \
         i2h = mod(ih + 5, n) + 1; wh = (1:m)' / 3; x0 = gpuArray(xh); idx = gpuArray(ih); \
         idx2 = gpuArray(i2h); w = gpuArray(wh); t = x0; t(idx) = w; t(idx2) = w;";
    let cases = [
        // another variable holds the array
        (
            "x = x0; y = x; x(idx) = x(idx) * 0.5 + w; r = {x, y};",
            "x = xh; y = x; x(ih) = x(ih) * 0.5 + wh; r = {x, y};",
        ),
        // a pending read of the array in another variable
        (
            "x = x0 * 1; p = x(idx); x(idx) = p * 0.5 + w; r = {x, p};",
            "x = xh * 1; p = x(ih); x(ih) = p * 0.5 + wh; r = {x, p};",
        ),
        // the values held by a variable
        (
            "x = x0 * 1; v = x(idx) * 0.5 + w; x(idx) = v; v = v + 0; r = {x, v};",
            "x = xh * 1; v = x(ih) * 0.5 + wh; x(ih) = v; v = v + 0; r = {x, v};",
        ),
        // values reading the array at other positions
        (
            "x = x0 * 1; x(idx) = x(idx2) + w; r = {x};",
            "x = xh * 1; x(ih) = x(i2h) + wh; r = {x};",
        ),
        // values not reading the array at all
        (
            "x = x0 * 1; x(idx) = w * 2; r = {x};",
            "x = xh * 1; x(ih) = wh * 2; r = {x};",
        ),
        // repeated positions: the last write wins
        (
            "x = x0 * 1; k = gpuArray([ih; ih(1:7)]); u = [w; w(1:7) + 1]; x(k) = x(k) * 0.5 + u; x(k) = x(k) * 0.5 + u; r = {x};",
            "x = xh * 1; k = [ih; ih(1:7)]; u = [wh; wh(1:7) + 1]; x(k) = x(k) * 0.5 + u; x(k) = x(k) * 0.5 + u; r = {x};",
        ),
        // twice in a row, then a read of the old value through a copy made before
        (
            "x = x0 * 1; x(idx) = x(idx) + 1; c = x; x(idx) = x(idx) + 1; x(idx) = x(idx) .* w; r = {x, c};",
            "x = xh * 1; x(ih) = x(ih) + 1; c = x; x(ih) = x(ih) + 1; x(ih) = x(ih) .* wh; r = {x, c};",
        ),
    ];
    for (device, host) in cases {
        let text = run(&format!(
            "{setup} {device} rd = cellfun(@gather, r, 'UniformOutput', false); \
             {host} ok = isequal(rd, r) && all(cellfun(@(c) strcmp(class(c), 'double'), rd)); \
             fprintf('%d\\n', ok);"
        ));
        assert_eq!(text.trim(), "1", "{device}: {text}");
    }
}

#[test]
fn whos_shows_a_fused_scatters_result_on_the_device() {
    let text = run(
        "x = gpuArray(single(1:1e4)); idx = gpuArray((1:2:1e4)'); w = gpuArray(single(ones(1, 5000))); \
         x(idx) = x(idx) + w; x(idx) = x(idx) * 2 + w; \
         e = single(1:1e4); e(1:2:end) = (e(1:2:end) + 1) * 2 + 1; \
         fprintf('%d\\n', isequal(gather(x), e)); whos x",
    );
    assert!(text.starts_with("1\n"), "{text}");
    let row = text
        .lines()
        .find(|l| l.trim_start().starts_with("x "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        row.contains("1x10000") && row.contains("gpuArray"),
        "{text}"
    );
    if has_gpu() {
        assert!(row.trim_end().ends_with("device"), "{text}");
    }
}
