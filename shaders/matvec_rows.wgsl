// Matrix-vector product, rows form (`gpu::matvec`): out[i + p * rows] is the sum over the
// columns j of slice p of m[i + j * ld] * x[j]. A thread per output row (and slice), so a
// warp reads 32 neighbouring values of a column at each step: every element of m is read
// once, in coalesced runs, and x's value is the same across the warp.

@group(0) @binding(0) var<storage, read> m: array<T>;
@group(0) @binding(1) var<storage, read> x: array<T>;
@group(0) @binding(2) var<storage, read_write> out: array<T>;
// rows, cols, ld, slice, groups a slice
@group(0) @binding(3) var<storage, read> params: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>) {
    let rows = params[0];
    let wg = wid.x + wid.y * nwg.x;
    let p = wg / params[4];
    let i = (wg % params[4]) * 256u + lid.x;
    // Past the last workgroup (a 2-D grid rounds up) p is past the last slice.
    if (i >= rows || p * params[3] >= params[1]) {
        return;
    }
    let ld = params[2];
    let j0 = p * params[3];
    let j1 = min(params[1], j0 + params[3]);
    var s = T(0);
    var j = j0;
    // Four loads in flight a step; the sum is still taken in column order.
    loop {
        if (j + 4u > j1) {
            break;
        }
        let a0 = m[i + j * ld];
        let a1 = m[i + (j + 1u) * ld];
        let a2 = m[i + (j + 2u) * ld];
        let a3 = m[i + (j + 3u) * ld];
        s = s + a0 * x[j];
        s = s + a1 * x[j + 1u];
        s = s + a2 * x[j + 2u];
        s = s + a3 * x[j + 3u];
        j = j + 4u;
    }
    for (; j < j1; j = j + 1u) {
        s = s + m[i + j * ld] * x[j];
    }
    out[i + p * rows] = s;
}
