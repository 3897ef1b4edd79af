//! Transforms, convolution and filtering of gpuArrays (issue 25). Complex gpuArrays are not
//! built yet, so a transform of a gpuArray is computed on the host (rustfft, all cores) and
//! its complex result is a host array (so what is computed from it stays on the host); real
//! results of gpuArray inputs (`ifft(G, 'symmetric')`, `conv`, `filter`, `fftshift`) come
//! back as gpuArrays. docs/device-functions.md records why. These
//! check that every such result equals the host's for the same data, in double and single,
//! at odd and power-of-two sizes. Runs on the device where an adapter exists
//! (MATFUSE_REQUIRE_GPU=1: it must exist).

mod common;
use common::{has_gpu, out};

#[test]
fn transforms_of_gpuarrays_equal_the_hosts() {
    if !has_gpu() {
        return;
    }
    for class in ["double", "single"] {
        for n in [1, 7, 64, 97, 1000, 4096] {
            let code = format!(
                "x = {class}(sin((1:{n})' * 0.37) + cos((1:{n})' / 7)); M = [x, 2 * x, x.^2]; \
                 g = gpuArray(x); G = gpuArray(M); \
                 ok = isequal(fft(g), fft(x)) && isequal(fft(G), fft(M)) \
                   && isequal(fft(G, [], 2), fft(M, [], 2)) && isequal(ifft(fft(g)), ifft(fft(x))) \
                   && isequal(fft2(G), fft2(M)) && isequal(fftn(G), fftn(M)) \
                   && isequal(ifft(G, 2 * {n}), ifft(M, 2 * {n})) \
                   && isequal(classUnderlying(fft(g)), '{class}') \
                   && isequal(gather(ifft(fft(g), 'symmetric')), ifft(fft(x), 'symmetric')) \
                   && isa(ifft(G, [], 1, 'symmetric'), 'gpuArray') && ~isa(fft(G), 'gpuArray') \
                   && isequal(gather(fftshift(G)), fftshift(M)) && isa(fftshift(G), 'gpuArray') \
                   && isequal(gather(ifftshift(g)), ifftshift(x)); \
                 fprintf('%d\\n', ok)"
            );
            assert_eq!(out(&code), "1\n", "{class}, n = {n}");
        }
    }
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
        fprintf('%d %d\\n', isequal(gather(y), yh), max(abs(gather(y) - sin(2*pi*50*t))) < 1e-9)";
    assert_eq!(out(code), "1 1\n");
}
