// Matrix-vector product, columns form (`gpu::matvec`): out[j + p * cols] is the sum over the
// rows i of slice p of m[i + j * ld] * x[i], a dot product of a stored column with x. A
// workgroup per column (and slice): its threads stride down the column together, so reads
// are coalesced, then add their sums in workgroup memory.

@group(0) @binding(0) var<storage, read> m: array<T>;
@group(0) @binding(1) var<storage, read> x: array<T>;
@group(0) @binding(2) var<storage, read_write> out: array<T>;
// rows (the column length), cols, ld, slice
@group(0) @binding(3) var<storage, read> params: array<u32>;

var<workgroup> sums: array<T, 256>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>) {
    let cols = params[1];
    let wg = wid.x + wid.y * nwg.x;
    let j = wg % cols;
    let p = wg / cols;
    let i0 = p * params[3];
    let i1 = min(params[0], i0 + params[3]);
    let base = j * params[2];
    var s = T(0);
    // Past the last workgroup (a 2-D grid rounds up) the slice is empty: i0 >= rows.
    for (var i = i0 + lid.x; i < i1; i = i + 256u) {
        s = s + m[base + i] * x[i];
    }
    sums[lid.x] = s;
    workgroupBarrier();
    for (var half = 128u; half > 0u; half = half >> 1u) {
        if (lid.x < half) {
            sums[lid.x] = sums[lid.x] + sums[lid.x + half];
        }
        workgroupBarrier();
    }
    if (lid.x == 0u && i0 < params[0]) {
        out[j + p * cols] = sums[0];
    }
}
