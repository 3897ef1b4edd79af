// Sort keys (`gpu::sort`): each element as unsigned words whose order is MATLAB's (-0 equal
// to +0, NaN after every number and equal to NaN; complemented for 'descend', so NaN comes
// first and equal keys keep their order), lowest word first, and its place in lane order
// (`t = lane * len + k`), which the radix passes carry along. A workgroup takes 2048
// elements (8 a thread, coalesced) and ORs its keys and their complements into `andor`
// (or0, or1, nor0, nor1; cleared before): a key bit set in both varies over the array, and
// a radix pass whose digit has no varying bit is skipped (shaders/sort_pass.wgsl).

@group(0) @binding(0) var<storage, read> x: array<T>;
@group(0) @binding(1) var<storage, read_write> keys: array<u32>;
@group(0) @binding(2) var<storage, read_write> vals: array<u32>;
@group(0) @binding(3) var<storage, read_write> andor: array<atomic<u32>>;
// elements, inner, len, descend (1)
@group(0) @binding(4) var<storage, read> params: array<u32>;

var<workgroup> red: array<vec4<u32>, 256>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let b = wid.x + wid.y * nwg.x;
    let inner = params[1];
    let len = params[2];
    var acc = vec4<u32>(0u);
    for (var j = 0u; j < 8u; j = j + 1u) {
        let t = b * 2048u + j * 256u + lid.x;
        if (t < params[0]) {
            var at = t;
            // Several lanes: the element's address (one lane's is its place).
            if (len != params[0]) {
                let lane = t / len;
                let k = t % len;
                at = lane % inner + inner * (k + len * (lane / inner));
            }
            let v = x[at];
            {{KEYS}}
            vals[t] = t;
            acc = acc | vec4<u32>(lo, hi, ~lo, ~hi);
        }
    }
    red[lid.x] = acc;
    workgroupBarrier();
    for (var s = 128u; s > 0u; s = s >> 1u) {
        if (lid.x < s) {
            red[lid.x] = red[lid.x] | red[lid.x + s];
        }
        workgroupBarrier();
    }
    if (lid.x < 4u && red[0][lid.x] != 0u) {
        atomicOr(&andor[lid.x], red[0][lid.x]);
    }
}
