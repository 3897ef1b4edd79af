//! Gathers and views of pending elementwise work read the arrays under the work instead of
//! computing it whole (`graph::sink`): `x(idx)` of a pending `x = a * 2 + 1`, `y(2:end) -
//! y(1:end-1)` of a pending `y = a .* b`, a loop gathering from an array it rescales every
//! step. Values equal the host's in every form (casts, logicals, two subscripts, broadcast
//! operands and masks, which keep their own paths), and the loop runs as one kernel. (The
//! values are chosen so that products are exact: a fused multiply-add on either side would
//! round as the separate operations do.)

use super::gpu_growth_repeats::{disagreements, moved};
use crate::common::{has_gpu, out};

#[test]
fn gathers_and_views_of_pending_work_match_the_host() {
    for class in ["double", "single"] {
        let setup = format!(
            "a = {class}(mod((1:2001)' * 37, 101)) / 128 - 0.25; a(9) = NaN; a(11) = -0;
             b = {class}(2 .^ (mod((1:2001)' * 13, 5) - 2)); A = reshape(a(1:600), 30, 20);
             p = mod((0:499)' * 7, 2001) + 1; q = [3 1 3 2000 2001 1]; r = a(1:20)';"
        );
        let got = disagreements(
            &setup,
            &[
                "x = a * 2 + 1; y = x(p)",
                "x = a * 2 + 1; y = x(p); z = x(q) + sum(x)",
                "x = abs(a) .* b - 1; y = x(q)",
                "x = a .* b; d = x(2:end) - x(1:end-1)",
                "x = a .* b; d = x(end:-3:1) + x(1:3:end)",
                "x = a .^ 2 - 1; d = x(5:2:end-1)",
                "x = single(a) * 3; y = x(p)",
                "m = a > 0.2; y = m(p); z = m(2:end) & m(1:end-1)",
                "B = A * 2 + 1; C = B([3 1 30], [2 2 20]); D = B(2:end, 1:2:end)",
                "B = A + r; C = B([3 1], [4 2])",
                "x = a * 2; s = sum(x(x > 0.5)); y = x(x > 0.5)",
                "x = a; y = a(1:500) * 0; for t = 1:6, y = x(p) .* b(p) + y; x = x * 0.999; end",
                "x = a; y = a * 0; for t = 1:6, y = x(p) .* b(p) + y(p); y = [y; a(1:1501)]; x = x * 0.999; end",
            ],
        );
        let bytes = moved(&got);
        if has_gpu() {
            // Index checks and masks' counts only.
            assert!(bytes <= 400, "{class}: {got}");
        }
    }
}

#[test]
fn a_loop_gathering_from_a_rescaled_array_is_one_kernel() {
    if !has_gpu() {
        return;
    }
    // The array is never computed: each step's gather reads the first one, scaled.
    let text = out(
        "n = 1e5; x = gpuArray(single(mod((1:n)' * 7919, 1000) / 1000)); w = gpuArray(single(mod((1:n)' * 31, 97) / 97));
         idx = gpuArray(mod((0:n-1)' * 7919, n) + 1); y = zeros(n, 1, 'single', 'gpuArray');
         xh = gather(x); wh = gather(w); ih = gather(idx); yh = gather(y);
         t0 = x(idx); wait(gpuDevice);
         gpuStats reset;
         for t = 1:10, y = x(idx) .* w + y; x = x * 0.999; end
         v = gather(sum(y)); s = gpuStats;
         for t = 1:10, yh = xh(ih) .* wh + yh; xh = xh * 0.999; end
         fprintf('%d %d\\n', s.Session.Kernels, max(abs(gather(y) - yh)) <= 1e-5 * max(abs(yh)));",
    );
    let w: Vec<u64> = text
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    // One kernel for y (and the sum), where computing x took one a step.
    assert!(w.len() == 2 && w[0] <= 3 && w[1] == 1, "{text}");
}

#[test]
fn a_pending_index_array_is_checked_once() {
    if !has_gpu() {
        return;
    }
    // Reading idx(1) reads through idx's pending work without computing idx; a gather by
    // idx then computes it, so that its check (one value) is kept with its data and not
    // read again at each gather.
    let text = out(
        "idx = gpuArray(mod((0:99)' * 7, 1000) + 1) + 0; x = gpuArray((1:1000)' / 7);
         q = gather(idx(1)); gpuStats reset;
         for k = 1:5, y = x(idx); q = gather(y(1)); end
         s = gpuStats; fprintf('%d %d\\n', s.Session.BytesDownloaded, isequal(gather(y), (mod((0:99)' * 7, 1000) + 1) / 7));",
    );
    let w: Vec<u64> = text
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    // One check (8 bytes) and five elements (8 bytes each); a check a gather was 88.
    assert!(w.len() == 2 && w[0] <= 48 && w[1] == 1, "{text}");
}
