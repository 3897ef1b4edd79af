// Sort keys (`gpu::sort`): each element as unsigned words whose order is MATLAB's (-0 equal
// to +0, NaN after every number and equal to NaN; complemented for 'descend', so NaN comes
// first and equal keys keep their order), lowest word first, and its place in lane order
// (`t = lane * len + k`), which the radix passes carry along.

@group(0) @binding(0) var<storage, read> x: array<T>;
@group(0) @binding(1) var<storage, read_write> keys: array<u32>;
@group(0) @binding(2) var<storage, read_write> vals: array<u32>;
// elements, inner, len, descend (1)
@group(0) @binding(3) var<storage, read> params: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let t = (wid.x + wid.y * nwg.x) * 256u + lid.x;
    if (t >= params[0]) {
        return;
    }
    let inner = params[1];
    let len = params[2];
    let lane = t / len;
    let k = t % len;
    let v = x[lane % inner + inner * (k + len * (lane / inner))];
    {{KEYS}}
    vals[t] = t;
}
