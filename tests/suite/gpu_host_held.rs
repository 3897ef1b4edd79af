//! gpuArrays larger than one device buffer, held on the host (`interp::host_held`). Each
//! session runs with `MATFUSE_MAX_BUFFER_BYTES=1048576` (a 1 MiB largest buffer, so 131072
//! doubles or 262144 singles) so small arrays take the path that a 4 GiB array takes on an
//! NVIDIA card. Every answer is compared with the host evaluator's on the same data in the
//! same session. Without a GPU the same code runs (every gpuArray computed on the host) and
//! gives the same values; residency and the warning are checked where there is a device.

use crate::common::{has_gpu, out};
use std::process::Output;

const LIMIT: &str = "1048576";

/// Runs `code` in a new matfuse process with a 1 MiB largest device buffer (and any other
/// settings): standard output, standard error, the status.
fn held(code: &str, env: &[(&str, &str)]) -> (String, String, Output) {
    let mut envs = vec![("MATFUSE_MAX_BUFFER_BYTES", LIMIT)];
    envs.extend_from_slice(env);
    let o = crate::common::run_code_with(code, &envs);
    (
        String::from_utf8_lossy(&o.stdout).to_string(),
        String::from_utf8_lossy(&o.stderr).to_string(),
        o,
    )
}

/// Runs `code`, which must succeed and print only ones (its checks), and returns stderr.
fn all_ones(code: &str) -> String {
    let (o, e, status) = held(code, &[]);
    assert!(status.status.success(), "failed: {o}\n{e}");
    let words: Vec<&str> = o.split_whitespace().collect();
    assert!(!words.is_empty(), "no checks printed: {e}");
    assert!(
        words.iter().all(|w| *w == "1"),
        "a check failed (0 marks it):\n{o}\n{e}"
    );
    e
}

#[test]
fn constructors_make_host_held_gpuarrays_with_one_warning() {
    let has = has_gpu();
    // 200000 doubles = 1.6 MB, past the 1 MiB buffer: made, not refused.
    let e = all_ones(
        "x = zeros(200000, 1, 'gpuArray'); o = ones(400, 500, 'gpuArray'); \
         r = rand(300000, 1, 'gpuArray'); n = randn(1, 200000, 'single', 'gpuArray'); \
         h = gpuArray((1:200000)'); f = 7 * ones(200000, 1, 'like', h); \
         c = {x, o, r, n, h, f}; \
         for k = 1:numel(c), v = c{k}; \
           disp([isgpuarray(v), isa(v, 'gpuArray'), strcmp(class(v), 'gpuArray'), \
                 existsOnGPU(v), ~isa(gather(v), 'gpuArray')]); end; \
         disp(strcmp(underlyingType(n), 'single')); disp(strcmp(classUnderlying(x), 'double')); \
         disp(isequal(gather(x), zeros(200000, 1))); disp(isequal(gather(o), ones(400, 500))); \
         disp(isequal(gather(h), (1:200000)')); disp(isequal(gather(f), 7 * ones(200000, 1))); \
         disp(all(gather(r) >= 0 & gather(r) < 1)); disp(isequal(size(n), [1 200000]))",
    );
    if has {
        // one warning, naming the limit, for the first of the six
        assert_eq!(e.matches("Warning:").count(), 1, "{e}");
        assert!(
            e.contains("MaxBufferSize") && e.contains("1048576 bytes"),
            "{e}"
        );
        assert!(e.contains("200000 elements (1600000 bytes)"), "{e}");
    } else {
        assert!(!e.contains("Warning:"), "{e}");
    }
}

#[test]
fn the_warning_has_its_identifier_and_can_be_switched_off() {
    if !has_gpu() {
        return;
    }
    let (o, e, _) = held(
        "x = gpuArray(rand(200000, 1)); [msg, id] = lastwarn; disp(id)",
        &[],
    );
    assert_eq!(o, "parallel:gpu:array:HostHeld\n", "{e}");
    let (o, e, _) = held(
        "warning('off', 'parallel:gpu:array:HostHeld'); x = zeros(200000, 1, 'gpuArray'); \
         disp(size(x))",
        &[],
    );
    assert_eq!(o, "      200000           1\n");
    assert!(!e.contains("Warning"), "{e}");
    // arrays within one buffer never warn
    let (_, e, _) = held("x = zeros(100000, 1, 'gpuArray') + 1; disp(sum(x))", &[]);
    assert!(!e.contains("Warning"), "{e}");
}

#[test]
fn arithmetic_fusion_and_reductions_equal_the_hosts() {
    all_ones(
        "xh = (1:200000)' / 7; x = gpuArray(xh); yh = sin(xh) .* 2 + xh .^ 2 - 1; \
         y = sin(x) .* 2 + x .^ 2 - 1; \
         disp(max(abs(gather(y) - yh) ./ abs(yh)) < 1e-15); disp(isgpuarray(y)); \
         disp(isequal(gather(x + 1), xh + 1)); \
         disp(abs(gather(sum(y)) - sum(yh)) < 1e-12 * sum(yh)); disp(isgpuarray(sum(y))); \
         disp(isequal(gather(mean(x)), mean(xh))); disp(isequal(gather(max(x)), max(xh))); \
         [m, i] = min(-x); [mh, ih] = min(-xh); disp(isequal(gather([m i]), [mh ih])); \
         disp(abs(gather(var(x)) - var(xh)) <= 1e-9 * var(xh)); \
         disp(abs(gather(std(x)) - std(xh)) <= 1e-9 * std(xh)); \
         disp(isequal(gather(prod(x(1:10))), prod(xh(1:10)))); \
         disp(gather(any(x > 28571)) == any(xh > 28571)); disp(gather(all(x > 0))); \
         disp(isequal(gather(nnz(x > 5)), nnz(xh > 5))); \
         A = reshape(x, 400, 500); Ah = reshape(xh, 400, 500); \
         disp(isequal(gather(sum(A, 2)), sum(Ah, 2))); disp(isequal(gather(max(A, [], 2)), max(Ah, [], 2))); \
         disp(isequal(gather(A'), Ah')); disp(isequal(gather(A * ones(500, 3)), Ah * ones(500, 3))); \
         disp(isequal(gather(ones(3, 400) * A), ones(3, 400) * Ah)); \
         disp(isequal(gather(cumsum(x)), cumsum(xh))); disp(isequal(gather(diff(x)), diff(xh))); \
         disp(isequal(gather(mod(x, 3)), mod(xh, 3))); disp(isequal(gather(x > 100), xh > 100)); \
         s = single(x); disp(strcmp(underlyingType(s), 'single')); \
         disp(isequal(gather(s + 1), single(xh) + 1)); \
         k = int32(x); disp(isgpuarray(k) && strcmp(underlyingType(k), 'int32')); \
         disp(isequal(gather(k + 1), int32(xh) + 1))",
    );
}

#[test]
fn device_fusion_with_a_result_past_one_buffer_runs_on_the_host() {
    // Two gpuArrays that each fit (100000 doubles) broadcast to 100000x2 (1.6 MB): the
    // result would be larger than one buffer, so the group runs on the host, and the value
    // is a gpuArray held there; a reduction of it is small and ordinary.
    let e = all_ones(
        "a = gpuArray((1:100000)'); b = gpuArray([1 2]); ah = (1:100000)'; \
         c = a .* b + 1; disp(isgpuarray(c)); disp(isequal(gather(c), ah .* [1 2] + 1)); \
         s = sum(c); disp(isequal(gather(s), sum(ah .* [1 2] + 1))); \
         g = a + 1; disp(isequal(gather(g), ah + 1)); \
         r = repmat(gpuArray(1:1000), 200, 1); disp(isequal(gather(r), repmat(1:1000, 200, 1))); \
         k = kron(gpuArray(ones(1, 2)), a); disp(isequal(size(k), [100000 2]))",
    );
    if has_gpu() {
        assert_eq!(e.matches("Warning:").count(), 1, "{e}");
    }
    if has_gpu() {
        let (o, e, _) = held(
            "a = gpuArray((1:100000)'); b = gpuArray([1 2]); c = a .* b + 1; whos a c",
            &[],
        );
        assert!(
            o.lines()
                .any(|l| l.contains(" c ") && l.contains("host (> MaxBufferSize)")),
            "{o}\n{e}"
        );
        assert!(
            o.lines()
                .any(|l| l.contains(" a ") && !l.contains("MaxBufferSize")),
            "{o}\n{e}"
        );
    }
}

#[test]
fn indexing_assignment_growth_and_deletion_equal_the_hosts() {
    all_ones(
        "xh = (1:200000)' / 7; x = gpuArray(xh); \
         disp(isequal(gather(x(5:10)), xh(5:10))); disp(isgpuarray(x(5:10))); \
         disp(isequal(gather(x(end)), xh(end))); \
         g = gpuArray((1:2:100000)'); disp(isequal(gather(x(g)), xh(1:2:100000))); \
         disp(isequal(gather(x([3 1 2])), xh([3 1 2]))); \
         disp(isequal(gather(x(x > 20000)), xh(xh > 20000))); \
         disp(isequal(gather(find(x > 28000)), find(xh > 28000))); \
         x(3) = 7; xh(3) = 7; disp(isequal(gather(x), xh)); disp(isgpuarray(x)); \
         x(10:20) = gpuArray(1:11); xh(10:20) = 1:11; disp(isequal(gather(x), xh)); \
         x(x > 28000) = 0; xh(xh > 28000) = 0; disp(isequal(gather(x), xh)); \
         x([5 1 5]) = [1 2 3]; xh([5 1 5]) = [1 2 3]; disp(isequal(gather(x), xh)); \
         x(end + 1) = 9; xh(end + 1) = 9; disp(isequal(gather(x), xh)); \
         x(1:2) = []; xh(1:2) = []; disp(isequal(gather(x), xh)); disp(isgpuarray(x)); \
         x(x == 0) = []; xh(xh == 0) = []; disp(isequal(gather(x), xh)); \
         t = gpuArray(1:100000); t(150000) = 3; th = 1:100000; th(150000) = 3; \
         disp(isequal(gather(t), th)); disp(isgpuarray(t)); \
         e = gpuArray([]); e(200000) = 1; disp(isequal(gather(e), [zeros(1, 199999) 1])); \
         A = gpuArray(reshape(1:200000, 400, 500)); Ah = reshape(1:200000, 400, 500); \
         A(:, 2) = []; Ah(:, 2) = []; disp(isequal(gather(A), Ah)); \
         A(2, :) = 5; Ah(2, :) = 5; disp(isequal(gather(A), Ah)); \
         disp(isequal(gather(A(7, 3:9)), Ah(7, 3:9)))",
    );
}

#[test]
fn concatenation_sort_and_other_builtins_equal_the_hosts() {
    all_ones(
        "sh = rand(1, 100000); s = gpuArray(sh); \
         b = [s s s]; disp(isgpuarray(b)); disp(isequal(gather(b), [sh sh sh])); \
         v = [b; b]; disp(isequal(gather(v), [sh sh sh; sh sh sh])); \
         w = cat(1, b', 5); disp(isequal(gather(w), [sh sh sh 5]')); \
         h = [b 1 2]; disp(isgpuarray(h)); disp(isequal(gather(h), [sh sh sh 1 2])); \
         [q, i] = sort(b, 'descend'); [qh, ih] = sort([sh sh sh], 'descend'); \
         disp(isequal(gather(q), qh)); disp(isequal(gather(i), ih)); \
         u = unique(round(b * 100)); disp(isequal(gather(u), unique(round([sh sh sh] * 100)))); \
         disp(isequal(gather(cummax(b)), cummax([sh sh sh]))); \
         disp(isequal(gather(fliplr(b)), fliplr([sh sh sh]))); \
         disp(isequal(gather(circshift(b, 3)), circshift([sh sh sh], 3))); \
         disp(isequal(gather(histcounts(b, 10)), histcounts([sh sh sh], 10))); \
         disp(isequal(gather(ismember(b(1:5), s)), true(1, 5))); \
         disp(max(abs(gather(fft(b)) - fft([sh sh sh]))) < 1e-8); \
         disp(isequal(b, gpuArray([sh sh sh]))); disp(~isgpuarray(isequal(b, b))); \
         disp(numel(b) == 300000); disp(isequal(size(b), [1 300000]))",
    );
}

#[test]
fn mixing_host_held_normal_and_host_values() {
    all_ones(
        "xh = (1:200000)'; x = gpuArray(xh); g = gpuArray(2); small = gpuArray((1:10)'); \
         y = x * g + 3; disp(isgpuarray(y)); disp(isequal(gather(y), xh * 2 + 3)); \
         z = x(1:10) + small; disp(isgpuarray(z)); disp(isequal(gather(z), xh(1:10) + (1:10)')); \
         zz = small + 1; disp(isequal(gather(zz), (2:11)')); \
         m = x + xh; disp(isgpuarray(m)); disp(isequal(gather(m), 2 * xh)); \
         p = xh' * x; disp(isgpuarray(p)); disp(isequal(gather(p), xh' * xh)); \
         c = [x; small]; disp(isequal(gather(c), [xh; (1:10)'])); \
         t = sum(x) + small; disp(isequal(gather(t), sum(xh) + (1:10)'))",
    );
}

#[test]
fn display_whos_gather_and_reset() {
    if !has_gpu() {
        return;
    }
    let (o, e, status) = held(
        "x = gpuArray((1:200000)'); y = x + 1; s = sum(y); disp(y(1:3)); y(2:3), \
         whos x y s; S = whos('y'); disp(S.residency); disp(S.class); \
         reset(gpuDevice); disp(existsOnGPU(y)); disp(gather(y(4))); disp(class(y)); \
         disp(gather(s))",
        &[],
    );
    assert!(status.status.success(), "{o}\n{e}");
    assert!(o.starts_with("     2\n     3\n     4\n"), "{o}");
    assert!(
        o.contains("ans =\n\n  2×1 gpuArray double column vector\n\n     3\n     4\n"),
        "{o}"
    );
    let row = |name: &str| {
        o.lines()
            .find(|l| l.trim_start().starts_with(&format!("{name} ")))
            .unwrap_or_default()
            .to_string()
    };
    assert!(
        row("x").contains("gpuArray") && row("x").contains("host (> MaxBufferSize)"),
        "{o}"
    );
    assert!(row("y").contains("host (> MaxBufferSize)"), "{o}");
    assert!(!row("s").contains("MaxBufferSize"), "{o}");
    assert!(o.contains("host (> MaxBufferSize)\ngpuArray\n"), "{o}");
    assert!(
        o.ends_with("   1\n     5\ngpuArray\n   2.0000e+10\n"),
        "{o}"
    );
    assert!(!e.contains("DataNoLongerExists"), "{e}");
}

#[test]
fn a_host_held_array_the_host_cannot_hold_is_matlabs_memory_error() {
    if !has_gpu() {
        return;
    }
    // A 64 MB host array limit: `x .* [1 2]` (80 MB, past the 1 MiB device buffer too) is
    // refused where the host executor would compute it, `rand` of 160 MB when it is made,
    // each with MATLAB's error; the workspace is intact.
    let (o, e, _) = held(
        "a = gpuArray(1:4); x = zeros(5e6, 1, 'gpuArray'); disp(isgpuarray(x)); \
         try, y = gather(x .* [1 2]); catch err, disp(err.identifier), end; \
         try, r = rand(2e7, 1, 'gpuArray'); catch err, disp(err.identifier), end; \
         disp(gather(a) * 2); disp([exist('y') exist('r')]); disp(gather(sum(a)))",
        &[("MATFUSE_MAX_ARRAY_BYTES", "67108864")],
    );
    assert_eq!(
        o,
        "   1\nMATLAB:array:SizeLimitExceeded\nMATLAB:array:SizeLimitExceeded\n     2     4     6     8\n     0     0\n    10\n",
        "{e}"
    );
}

#[test]
fn without_the_override_small_arrays_are_ordinary_gpuarrays() {
    // The in-process session has the driver's own limit: nothing here is held on the host.
    let got = out("x = gpuArray((1:200000)'); y = x + 1; s = whos('y'); \
         disp(strcmp(s.residency, 'host (> MaxBufferSize)')); disp(gather(sum(y)))");
    assert_eq!(got, "   0\n   2.0000e+10\n");
}
