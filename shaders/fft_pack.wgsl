// FFT 1 of 4 (`gpu::fft`): lanes of an array (re, and im unless has_im is 0) copied into
// contiguous work lanes of `m` elements, zero past the transform's first `ncopy`. Bluestein
// multiplies element j < n by chirp[j] (re at j, im at n + j). 'symmetric' reads element
// j > n/2 as the conjugate of element n - j (the inverse of a conjugate-symmetric array).
// The source lane l is (i, o) = (l % inner, l / inner): element j at i + inner * (j + len * o).

@group(0) @binding(0) var<storage, read> xr: array<T>;
@group(0) @binding(1) var<storage, read> xi: array<T>;
@group(0) @binding(2) var<storage, read> chirp: array<T>;
@group(0) @binding(3) var<storage, read_write> wr: array<T>;
@group(0) @binding(4) var<storage, read_write> wi: array<T>;
// total (lanes * m), m, inner, len, ncopy, has_im, use_chirp, n, symmetric
@group(0) @binding(5) var<storage, read> params: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>) {
    let e = (wid.x + wid.y * nwg.x) * 256u + lid.x;
    if (e >= params[0]) {
        return;
    }
    let m = params[1];
    let inner = params[2];
    let len = params[3];
    let ncopy = params[4];
    let n = params[7];
    let l = e / m;
    let j = e % m;
    let i = l % inner;
    let o = l / inner;
    var src = j;
    var sign = T(1);
    if (params[8] != 0u && j > n / 2u && j < n) {
        src = n - j;
        sign = T(-1);
    }
    var re = T(0);
    var im = T(0);
    if (src < ncopy) {
        let at = i + inner * (src + len * o);
        re = xr[at];
        if (params[5] != 0u) {
            im = sign * xi[at];
        }
    }
    if (params[6] != 0u) {
        if (j < n) {
            let cr = chirp[j];
            let ci = chirp[n + j];
            let r = re * cr - im * ci;
            im = re * ci + im * cr;
            re = r;
        } else {
            re = T(0);
            im = T(0);
        }
    }
    wr[e] = re;
    wi[e] = im;
}
