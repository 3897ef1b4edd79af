//! Complex gpuArrays (issue 25): a complex value on the device is its two real parts, and
//! complex arithmetic lowers to real graph nodes on them. These check that each operation
//! gives the host's values (within rounding: the device's products and sums are its own),
//! MATLAB's classes (`gpuArray`, complex or real, single or double), and that what has no
//! device form falls back honestly: read back, computed on the host, a gpuArray again.
//! Runs on the device where an adapter exists (MATFUSE_REQUIRE_GPU=1: it must exist); the
//! last test runs the same script with MATFUSE_DEVICE=cpu through the binary and compares.

use crate::common::{err, has_gpu, out, run_file_with};

/// `near(D, H, tol)`: D is a gpuArray of H's size and underlying class whose values are
/// within tol of H's, relative to H's largest magnitude.
const NEAR: &str = "near = @(D, H, tol) isa(D, 'gpuArray') && isequal(size(D), size(H)) \
    && isequal(classUnderlying(D), class(H)) && isreal(D) == isreal(H) \
    && max(abs(double(gather(D(:))) - double(H(:)))) <= tol * max(1, max(abs(double(H(:)))));";

#[test]
fn complex_gpuarrays_are_made_gathered_and_described() {
    if !has_gpu() {
        return;
    }
    let code = "z = gpuArray(1+2i); Z = gpuArray([1+2i, 3-4i; 5i, -6]); s = gpuArray(single([1i 2])); \
        fprintf('%s %d %d %s %s\\n', class(z), isreal(z), isreal(gpuArray(3)), classUnderlying(Z), classUnderlying(s)); \
        fprintf('%d %d %d\\n', isequal(gather(z), 1+2i), isequal(gather(Z), [1+2i, 3-4i; 5i, -6]), isequal(gather(s), single([1i 2]))); \
        fprintf('%d %d %d %d %d\\n', size(Z), numel(Z), isgpuarray(Z), ~isreal(gather(s))); \
        w = gpuArray(complex(1, 0)); fprintf('%d %d\\n', isreal(w), isreal(gather(w)));";
    assert_eq!(
        out(code),
        "gpuArray 0 1 double single\n1 1 1\n2 2 4 1 1\n0 0\n"
    );
    // display: the gpuArray header and the host's complex numbers
    let shown = out("Z = gpuArray([1+2i, 3-4i])");
    assert!(shown.contains("gpuArray"), "{shown}");
    assert!(shown.contains("1.0000 + 2.0000i"), "{shown}");
    // whos counts both parts
    let w =
        out("Z = gpuArray(complex(rand(10), rand(10))); s = whos; fprintf('%d\\n', s(1).bytes)");
    assert_eq!(w, "1600\n");
}

#[test]
fn complex_arithmetic_gives_the_hosts_values() {
    if !has_gpu() {
        return;
    }
    for (class, tol) in [("double", "1e-14"), ("single", "1e-6")] {
        let code = format!(
            "{NEAR} n = 1000; a = {class}(sin(1:n)' + 1i * cos(2 * (1:n)')); b = {class}(cos(1:n)' - 0.5i * sin((1:n)')); \
             r = {class}((1:n)' / n); A = gpuArray(a); B = gpuArray(b); R = gpuArray(r); \
             ok = [near(A + B, a + b, {tol}), near(A - B, a - b, {tol}), near(A .* B, a .* b, {tol}), \
               near(A ./ B, a ./ b, {tol}), near(A .* R, a .* r, {tol}), near(R .* A, r .* a, {tol}), \
               near(R - A, r - a, {tol}), near(A - R, a - r, {tol}), near(A ./ R, a ./ r, {tol}), \
               near(R ./ A, r ./ a, {tol}), near(A * (2 - 3i), a * (2 - 3i), {tol}), near(A / 2i, a / 2i, {tol}), \
               near(R + 1i, r + 1i, {tol}), near(1i - R, 1i - r, {tol}), near(R * 1i, r * 1i, {tol}), \
               near(-A, -a, {tol}), near(A.^2, a.^2, {tol}), near(A', a', {tol}), near(A.', a.', {tol}), \
               near(real(A), real(a), {tol}), near(imag(A), imag(a), {tol}), near(conj(A), conj(a), {tol}), \
               near(abs(A), abs(a), {tol}), near(angle(A), angle(a), 4 * {tol}), near(exp(A), exp(a), 4 * {tol}), \
               near(sum(A), sum(a), {tol}), near(mean(A), mean(a), {tol}), near(A(3:7), a(3:7), 0), \
               near(A([5 1 2]), a([5 1 2]), 0), near(reshape(A, 10, []), reshape(a, 10, []), 0), \
               near(flipud(A), flipud(a), 0), near(complex(R, 2 * R), complex(r, 2 * r), 0), \
               near(A + a, 2 * a, {tol}), near(A .* b, a .* b, {tol}), near(sqrt(A), sqrt(a), {tol}), \
               near(A * B.', a * b.', 100 * {tol}), near(cumsum(A), cumsum(a), 1000 * {tol})]; \
             fprintf('%d', ok); fprintf('\\n')"
        );
        let got = out(&code);
        assert_eq!(got.trim().len(), 37, "{class}: {got}");
        assert!(!got.contains('0'), "{class}: {got}");
    }
}

#[test]
fn real_of_a_complex_result_is_a_real_gpuarray() {
    if !has_gpu() {
        return;
    }
    let code = "x = gpuArray(single(1:8)'); y = real(x * 1i + 2); a = abs(x + 1i); \
        fprintf('%d %d %s %d %d\\n', isreal(y), isa(y, 'gpuArray'), classUnderlying(y), isreal(a), isa(a, 'gpuArray')); \
        v = imag(x * 3i); fprintf('%g %g\\n', gather(sum(y)), gather(v(2)));";
    assert_eq!(out(code), "1 1 single 1 1\n16 6\n");
}

#[test]
fn what_has_no_device_form_falls_back_to_the_host() {
    if !has_gpu() {
        return;
    }
    // a function of a complex gpuArray, an assignment into one, a matrix product,
    // concatenation: the host's values, gpuArrays again (cumprod 'reverse' has no device
    // form for complex values: it falls back; the rest lower, tests/suite/gpu_complex_device.rs)
    let code = "a = [1+2i, 3-1i, -2+0.5i]; A = gpuArray(a); \
        s = sqrt(A); A(2) = 7i; a(2) = 7i; m = A * A.'; c = [A, A]; l = cumprod(A, 'reverse'); \
        fprintf('%d %d %d %d %d\\n', isa(s, 'gpuArray') && ~isreal(s), isequal(gather(A), a), \
           abs(gather(m) - a * a.') < 1e-12, isequal(gather(c), [a, a]), isa(l, 'gpuArray')); \
        k = gpuStats; fprintf('%d\\n', k.Session.Fallbacks > 0)";
    assert_eq!(out(code), "1 1 1 1 1\n1\n");
    // the host's errors for bad operations
    let (id, _) = err("A = gpuArray([1+2i, 3]); B = A + [1 2 3];");
    assert!(
        id.contains("sizeDimensionsMustMatch") || id.contains("dimagree"),
        "{id}"
    );
}

/// Without a device (MATFUSE_DEVICE=cpu) complex gpuArrays and their transforms are the
/// host's: the same script, through the binary, gives the host's values.
#[test]
fn the_host_path_gives_the_same_results() {
    let script = format!(
        "{NEAR} n = 1000; a = sin(1:n)' + 1i * cos(2 * (1:n)'); r = (1:n)' / n; A = gpuArray(a); R = gpuArray(r); \
         X = gpuArray(single([sin((1:256)' / 9), cos((1:256)' / 5)])); x = gather(X); H = single((1:256)' < 40); \
         ok = [near(A .* R + 2i, a .* r + 2i, 1e-14), near(abs(A), abs(a), 1e-14), near(sum(A), sum(a), 1e-14), \
           near(fft(A), fft(a), 1e-12), near(real(ifft(fft(R))), ifft(fft(r)), 1e-12), \
           near(real(ifft(fft(X) .* H)), real(ifft(fft(x) .* H)), 1e-5), near(fft2(A(1:100)), fft2(a(1:100)), 1e-12), \
           isa(fft(R), 'gpuArray'), isequal(gather(gpuArray(1+2i)), 1+2i)]; \
         fprintf('%d', ok); fprintf('\\n');"
    );
    let (text, errors) = run_file_with("complex_host_path", &script, &[("MATFUSE_DEVICE", "cpu")]);
    assert_eq!(text, "111111111\n", "{errors}");
}
