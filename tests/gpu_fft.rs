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

#[test]
fn conv_and_filter_of_gpuarrays_equal_the_hosts() {
    if !has_gpu() {
        return;
    }
    for class in ["double", "single"] {
        for n in [5, 97, 4096, 100000] {
            let code = format!(
                "x = {class}(sin((1:{n}) * 0.01) + 0.1 * cos((1:{n}) * 0.7)); b = {class}([1 2 3 2 1] / 9); \
                 g = gpuArray(x); h = gpuArray(b); \
                 ok = isequal(gather(conv(g, h)), conv(x, b)) && isa(conv(g, h), 'gpuArray') \
                   && isequal(gather(conv(g, b, 'same')), conv(x, b, 'same')) \
                   && isequal(gather(conv(g, g(1:min(end, 300)))), conv(x, x(1:min(end, 300)))) \
                   && isequal(gather(filter(h, 1, g)), filter(b, 1, x)) && isa(filter(h, 1, g), 'gpuArray') \
                   && isequal(gather(filter(1, [1 -0.9], g)), filter(1, [1 -0.9], x)) \
                   && isequal(classUnderlying(conv(g, h)), '{class}'); \
                 fprintf('%d\\n', ok)"
            );
            assert_eq!(out(&code), "1\n", "{class}, n = {n}");
        }
    }
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
