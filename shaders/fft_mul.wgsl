// FFT 3 of 4 (`gpu::fft`): Bluestein's pointwise product of every work lane (m elements)
// with the transformed chirp filter (re at j, im at m + j).

@group(0) @binding(0) var<storage, read> filt: array<T>;
@group(0) @binding(1) var<storage, read_write> wr: array<T>;
@group(0) @binding(2) var<storage, read_write> wi: array<T>;
// total (lanes * m), m
@group(0) @binding(3) var<storage, read> params: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>) {
    let e = (wid.x + wid.y * nwg.x) * 256u + lid.x;
    if (e >= params[0]) {
        return;
    }
    let m = params[1];
    let j = e % m;
    let fr = filt[j];
    let fi = filt[m + j];
    let xr = wr[e];
    let xi = wi[e];
    wr[e] = xr * fr - xi * fi;
    wi[e] = xr * fi + xi * fr;
}
