// FFT 2 of 4 (`gpu::fft`): one radix-2 Stockham pass over contiguous lanes of `m` (a power
// of two) elements, a thread per butterfly: pass `ns` (1, 2, 4, ... m/2) reads elements j and
// j + m/2, turns the second by the twiddle of k = j mod ns, and writes the pair at
// (j / ns) * 2 ns + k and ns past it; after log2(m) passes the lane is the transform in
// natural order. Twiddles come from a table computed in f64 on the host: cos(2 pi t / m) at
// t, sin at m/2 + t. The last pass of an inverse may scale by 1 / scale_n.

@group(0) @binding(0) var<storage, read> ar: array<T>;
@group(0) @binding(1) var<storage, read> ai: array<T>;
@group(0) @binding(2) var<storage, read> tw: array<T>;
@group(0) @binding(3) var<storage, read_write> br: array<T>;
@group(0) @binding(4) var<storage, read_write> bi: array<T>;
// total (lanes * m / 2), m, ns, inverse, scale_n (0: none)
@group(0) @binding(5) var<storage, read> params: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>) {
    let e = (wid.x + wid.y * nwg.x) * 256u + lid.x;
    if (e >= params[0]) {
        return;
    }
    let m = params[1];
    let half = m / 2u;
    let ns = params[2];
    let l = e / half;
    let j = e % half;
    let base = l * m;
    let k = j & (ns - 1u);
    let t = k * (half / ns);
    let c = tw[t];
    var s = tw[half + t];
    if (params[3] == 0u) {
        s = -s;
    }
    let xr = ar[base + j];
    let xi = ai[base + j];
    let yr0 = ar[base + j + half];
    let yi0 = ai[base + j + half];
    let yr = yr0 * c - yi0 * s;
    let yi = yr0 * s + yi0 * c;
    var f = T(1);
    if (params[4] != 0u) {
        f = T(1) / T(params[4]);
    }
    let out = base + (j / ns) * 2u * ns + k;
    br[out] = (xr + yr) * f;
    bi[out] = (xi + yi) * f;
    br[out + ns] = (xr - yr) * f;
    bi[out + ns] = (xi - yi) * f;
}
