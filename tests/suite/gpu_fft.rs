//! Transforms, convolution and filtering of gpuArrays (issue 25). `fft`, `ifft`, `fft2` and
//! `ifft2` of a gpuArray run on the device (`gpu::fft`: Stockham passes for powers of two,
//! Bluestein's algorithm for other lengths) and give complex gpuArrays; these check them
//! against the host's (rustfft) within a stated bound on the relative error, the norm of the
//! difference over the norm of the host's result: 1e-14 in double and 2e-6 in single
//! (measured on lavapipe: at most 2.4e-15 and 5.2e-7), at lengths 1 to 2^18, padded,
//! truncated, along rows and columns, real and complex inputs. `conv` and FIR `filter` run
//! on the device too; `fftshift` of a gpuArray stays one. Runs on the device where an
//! adapter exists (MATFUSE_REQUIRE_GPU=1: it must exist).

use crate::common::{has_gpu, out};

/// `close(D, H, tol)`: D is a gpuArray of H's size and underlying class whose values differ
/// from H's by at most tol in norm relative to H's norm. (A device transform is complex even
/// where the host's result has no imaginary part and is real: checked apart.)
const CLOSE: &str = "close = @(D, H, tol) isa(D, 'gpuArray') && isequal(size(D), size(H)) \
    && isequal(classUnderlying(D), class(H)) \
    && norm(double(gather(D(:))) - double(H(:))) <= tol * max(norm(double(H(:))), realmin);";

#[test]
fn transforms_of_gpuarrays_agree_with_the_hosts() {
    if !has_gpu() {
        return;
    }
    for (class, tol) in [("double", "1e-14"), ("single", "2e-6")] {
        for n in [1, 2, 3, 5, 7, 8, 97, 1000, 1024, 4096] {
            let code = format!(
                "{CLOSE} x = {class}(sin((1:{n})' * 0.37) + cos((1:{n})' / 7)); M = [x, 2 * x, x.^2]; \
                 Z = complex(M, {class}(cos((1:{n})' * [1 2 3]))); \
                 g = gpuArray(x); G = gpuArray(M); GZ = gpuArray(Z); t = {tol}; \
                 ok = [close(fft(g), fft(x), t), close(fft(G), fft(M), t), \
                   close(fft(GZ), fft(Z), t), close(ifft(GZ), ifft(Z), t), \
                   close(fft(G, [], 2), fft(M, [], 2), t), close(fft(g'), fft(x'), t), \
                   close(fft(G, 2 * {n}), fft(M, 2 * {n}), t), close(fft(G, max(1, {n} - 1)), fft(M, max(1, {n} - 1)), t), \
                   close(ifft(G, {n} + 3), ifft(M, {n} + 3), t), close(fft(GZ, 16, 1), fft(Z, 16, 1), t), \
                   close(fft2(G), fft2(M), t), close(ifft2(GZ), ifft2(Z), t), close(fft2(G, 4, 6), fft2(M, 4, 6), t), \
                   close(ifft(fft(g), 'symmetric'), ifft(fft(x), 'symmetric'), t), \
                   close(real(ifft(fft(G))), M, t), isa(fft(G), 'gpuArray') && ~isreal(fft(G)), \
                   isequal(gather(fftshift(G)), fftshift(M)) && isa(fftshift(G), 'gpuArray'), \
                   isequal(gather(ifftshift(g)), ifftshift(x))]; \
                 fprintf('%d', ok); fprintf('\\n')"
            );
            assert_eq!(out(&code), "111111111111111111\n", "{class}, n = {n}");
        }
    }
}

/// Long transforms: 2^18 (passes only) and 100003 (a prime, Bluestein with a work length of
/// 2^18) in both precisions.
#[test]
fn long_transforms_agree_with_the_hosts() {
    if !has_gpu() {
        return;
    }
    for (class, tol) in [("double", "1e-14"), ("single", "2e-6")] {
        for n in [262144, 100003] {
            let code = format!(
                "{CLOSE} x = {class}(sin((1:{n})' * 0.001) + mod((1:{n})' * 7919, 1000) / 1000); \
                 Z = complex(x, flipud(x)); g = gpuArray(x); gz = gpuArray(Z); \
                 fprintf('%d %d %d\\n', close(fft(g), fft(x), {tol}), close(ifft(gz), ifft(Z), {tol}), \
                   close(fft(gz'), fft(Z'), {tol}))"
            );
            assert_eq!(out(&code), "1 1 1\n", "{class}, n = {n}");
        }
    }
}

/// The transforms run on the device: after a first run (which uploads the twiddle tables),
/// bench/fft's low-pass pipeline moves nothing between host and device but the sum.
#[test]
fn the_lowpass_pipeline_stays_on_the_device() {
    if !has_gpu() {
        return;
    }
    let code = "n = 2^12; t = (0:n-1)' / n; X = gpuArray(single(sin(2*pi*50*t) + 0.5*sin(2*pi*300*t) + 0.01*(1:4))); \
        f = [0:n/2, -n/2+1:-1]'; H = gpuArray(single(abs(f) <= 100)); \
        Y = real(ifft(fft(X) .* H)); v = gather(sum(Y(:))); gpuStats reset; \
        Y = real(ifft(fft(X) .* H)); v = gather(sum(Y(:))); k = gpuStats; \
        fprintf('%d %d %d %d\\n', k.Session.BytesUploaded, k.Session.BytesDownloaded, isreal(Y), isa(Y, 'gpuArray'));";
    assert_eq!(out(code), "0 4 1 1\n");
}

/// `conv` and FIR `filter` of gpuArrays run on the device (`gpu::conv`, a direct sum in the
/// array's precision) and stay gpuArrays; they agree with the host's (which sums singles in
/// double, and long convolutions by transforms) within a few units of rounding of the
/// largest output; IIR filters and the forms the kernel does not take are the host's.
#[test]
fn conv_and_filter_of_gpuarrays_equal_the_hosts() {
    if !has_gpu() {
        return;
    }
    for (class, tol) in [("double", "1e-12"), ("single", "2e-6")] {
        for n in [5, 97, 4096, 100000] {
            let code = format!(
                "x = {class}(sin((1:{n}) * 0.01) + 0.1 * cos((1:{n}) * 0.7)); b = {class}([1 2 3 2 1] / 9); \
                 g = gpuArray(x); h = gpuArray(b); \
                 near = @(D, H) isa(D, 'gpuArray') && isequal(size(D), size(H)) \
                   && isequal(classUnderlying(D), class(H)) \
                   && max(abs(double(gather(D(:))) - double(H(:)))) <= {tol} * max(1, max(abs(double(H(:))))); \
                 M = [x', 2 * x', x'.^2]; G = gpuArray(M); \
                 ok = [near(conv(g, h), conv(x, b)), near(conv(g, b, 'same'), conv(x, b, 'same')), \
                   near(conv(h, g), conv(b, x)), near(conv(g', h, 'valid'), conv(x', b, 'valid')), \
                   near(conv(g, g(1:min(end, 300))), conv(x, x(1:min(end, 300)))), \
                   near(filter(h, 1, g), filter(b, 1, x)), near(filter(b, 2, g), filter(b, 2, x)), \
                   near(filter(h, [4 0 0], g'), filter(b, [4 0 0], x')), \
                   near(filter(h, 1, G), filter(b, 1, M)), near(filter(b, 1, G, [], 2), filter(b, 1, M, [], 2)), \
                   near(filter(1, [1 -0.9], g), filter(1, [1 -0.9], x))]; \
                 fprintf('%d', ok); fprintf('\\n')"
            );
            assert_eq!(out(&code), "11111111111\n", "{class}, n = {n}");
        }
    }
    // The filters ran on the device: nothing was read back but the answers.
    let code = "x = gpuArray(rand(1e5, 1, 'single')); b = gpuArray(single(ones(31, 1) / 31)); \
                y = filter(b, 1, x); z = conv(x, b, 'same'); gpuStats reset; \
                y = filter(b, 1, x); z = conv(x, b, 'same'); s = sum(y) + sum(z); \
                k = gpuStats; fprintf('%d\\n', k.Session.BytesDownloaded)";
    assert_eq!(out(code), "0\n");
}

#[test]
fn an_fft_filter_of_a_gpuarray_gives_the_hosts_values() {
    if !has_gpu() {
        return;
    }
    // the low-pass filter of bench/fft: a mask applied to the spectrum, back to a real signal
    let code = "n = 2^14; t = (0:n-1)' / n; x = sin(2*pi*50*t) + 0.5 * sin(2*pi*3000*t); \
        f = [0:n/2, -n/2+1:-1]'; H = double(abs(f) <= 200); \
        g = gpuArray(x); y = real(ifft(fft(g) .* H)); yh = real(ifft(fft(x) .* H)); \
        fprintf('%d %d\\n', max(abs(gather(y) - yh)) < 1e-12, max(abs(gather(y) - sin(2*pi*50*t))) < 1e-9)";
    assert_eq!(out(code), "1 1\n");
}
