// FFT 4 of 4 (`gpu::fft`): the first n_out elements of each work lane (m elements) written
// where the result keeps them (output element e is (i, j, o): lane i + inner * o, element j),
// times chirp[j] (re at j, im at n_out + j) for Bluestein, or by 1 / scale_n.

@group(0) @binding(0) var<storage, read> wr: array<T>;
@group(0) @binding(1) var<storage, read> wi: array<T>;
@group(0) @binding(2) var<storage, read> chirp: array<T>;
@group(0) @binding(3) var<storage, read_write> yr: array<T>;
@group(0) @binding(4) var<storage, read_write> yi: array<T>;
// total (lanes * n_out), m, inner, n_out, use_chirp, scale_n (0: none)
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
    let n_out = params[3];
    let i = e % inner;
    let rest = e / inner;
    let j = rest % n_out;
    let o = rest / n_out;
    let at = (i + inner * o) * m + j;
    var re = wr[at];
    var im = wi[at];
    if (params[4] != 0u) {
        let cr = chirp[j];
        let ci = chirp[n_out + j];
        let r = re * cr - im * ci;
        im = re * ci + im * cr;
        re = r;
    }
    if (params[5] != 0u) {
        let f = T(1) / T(params[5]);
        re = re * f;
        im = im * f;
    }
    yr[e] = re;
    yi[e] = im;
}
