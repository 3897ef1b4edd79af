// The sorted lanes written out (`gpu::sort`): sorted place p holds the element that was at
// `vals[p]` in lane order; it goes to rank `p % len` of its lane, with its 1-based place in
// the lane as the index. A single lane's values may be decoded from its sorted keys
// (`decoded`, shaders/sort_decode_f32.wgsl / _f64.wgsl) instead of gathered from `x`.

@group(0) @binding(0) var<storage, read> x: array<T>;
@group(0) @binding(1) var<storage, read> vals: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<T>;
@group(0) @binding(3) var<storage, read_write> idx: array<{{IDX}}>;
// the sorted keys (with decoding; else `vals` again)
@group(0) @binding(4) var<storage, read> keys: array<u32>;
// elements, inner, len, indices wanted (1), descend (1)
@group(0) @binding(5) var<storage, read> params: array<u32>;

fn addr(lane: u32, k: u32) -> u32 {
    let inner = params[1];
    let len = params[2];
    return lane % inner + inner * (k + len * (lane / inner));
}

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    _ = idx[0];
    _ = keys[0];
    let p = (wid.x + wid.y * nwg.x) * 256u + lid.x;
    if (p >= params[0]) {
        return;
    }
    let len = params[2];
    // One lane (a vector): no divisions.
    if (len == params[0]) {
        let t1 = vals[p];
        out[p] = {{VALUE}};
        if (params[3] == 1u) {
            idx[p] = {{IDX}}(t1 + 1u);
        }
        return;
    }
    let lane = p / len;
    let t = vals[p];
    let k = t % len;
    let dst = addr(lane, p % len);
    out[dst] = x[addr(lane, k)];
    if (params[3] == 1u) {
        idx[dst] = {{IDX}}(k + 1u);
    }
}
