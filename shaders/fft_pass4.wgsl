// FFT 2b (`gpu::fft`): one radix-4 Stockham pass over contiguous lanes of `m` (a power of
// two) elements, a thread per 4-point butterfly: pass `ns` reads elements j + r m/4
// (r = 0..3), turns element r by the twiddle of r k (k = j mod ns) over 4 ns, takes their
// 4-point transform and writes it at (j / ns) * 4 ns + k + r ns. The twiddle table holds
// cos(2 pi t / m) at t and sin at m/2 + t for t < m/2 (the other half by symmetry). The
// last pass of an inverse may scale by 1 / scale_n.

@group(0) @binding(0) var<storage, read> ar: array<T>;
@group(0) @binding(1) var<storage, read> ai: array<T>;
@group(0) @binding(2) var<storage, read> tw: array<T>;
@group(0) @binding(3) var<storage, read_write> br: array<T>;
@group(0) @binding(4) var<storage, read_write> bi: array<T>;
// total (lanes * m / 4), m, ns, inverse, scale_n (0: none)
@group(0) @binding(5) var<storage, read> params: array<u32>;

// (cos, sin) of 2 pi t / m for t < m
fn twiddle(t: u32, half: u32) -> vec2<T> {
    if (t < half) {
        return vec2<T>(tw[t], tw[half + t]);
    }
    let u = t - half;
    return vec2<T>(-tw[u], -tw[half + u]);
}

fn turn(x: vec2<T>, w: vec2<T>) -> vec2<T> {
    return vec2<T>(x.x * w.x - x.y * w.y, x.x * w.y + x.y * w.x);
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>) {
    let e = (wid.x + wid.y * nwg.x) * 256u + lid.x;
    if (e >= params[0]) {
        return;
    }
    let m = params[1];
    let half = m / 2u;
    let quarter = m / 4u;
    let ns = params[2];
    let inverse = params[3] != 0u;
    let l = e / quarter;
    let j = e % quarter;
    let base = l * m;
    let k = j & (ns - 1u);
    let step = quarter / ns;
    var a0 = vec2<T>(ar[base + j], ai[base + j]);
    var a1 = vec2<T>(ar[base + j + quarter], ai[base + j + quarter]);
    var a2 = vec2<T>(ar[base + j + half], ai[base + j + half]);
    var a3 = vec2<T>(ar[base + j + half + quarter], ai[base + j + half + quarter]);
    var sgn = T(-1);
    if (inverse) {
        sgn = T(1);
    }
    if (k != 0u) {
        let w1 = twiddle(k * step, half);
        let w2 = twiddle(2u * k * step, half);
        let w3 = twiddle(3u * k * step, half);
        a1 = turn(a1, vec2<T>(w1.x, sgn * w1.y));
        a2 = turn(a2, vec2<T>(w2.x, sgn * w2.y));
        a3 = turn(a3, vec2<T>(w3.x, sgn * w3.y));
    }
    let b0 = a0 + a2;
    let b1 = a0 - a2;
    let b2 = a1 + a3;
    let d = a1 - a3;
    // (a1 - a3) times -i (forward) or +i (inverse)
    let b3 = vec2<T>(-sgn * d.y, sgn * d.x);
    var f = T(1);
    if (params[4] != 0u) {
        f = T(1) / T(params[4]);
    }
    let out = base + (j / ns) * 4u * ns + k;
    let y0 = (b0 + b2) * f;
    let y1 = (b1 + b3) * f;
    let y2 = (b0 - b2) * f;
    let y3 = (b1 - b3) * f;
    br[out] = y0.x;
    bi[out] = y0.y;
    br[out + ns] = y1.x;
    bi[out + ns] = y1.y;
    br[out + 2u * ns] = y2.x;
    bi[out + 2u * ns] = y2.y;
    br[out + 3u * ns] = y3.x;
    bi[out + 3u * ns] = y3.y;
}
