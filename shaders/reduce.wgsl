// A reduction fused with its producer (after reduce_common.wgsl). Workgroup w reduces part
// `w % parts` of output element `w / parts`: each thread folds a strided share of the lane,
// then the workgroup folds the 256 partial values in shared memory. With parts > 1 a second
// pass folds the parts.

var<workgroup> scratch: array<T, 256>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    _ = consts[0];
{{INIT}}    let w = wid.x + wid.y * nwg.x;
    let l = lane_params();
    let o = w / l.parts;
    let part = w % l.parts;
    var acc = consts[{{IDENTITY}}];
    if (o < l.nout) {
        let base = lane_start(l, o);
        var r = part * 256u + lid.x;
{{VECTOR_LOOP}}        loop {
            if (r >= l.len) {
                break;
            }
            acc = combine(acc, {{MAP}});
            r = r + l.parts * 256u;
        }
    }
    scratch[lid.x] = acc;
    workgroupBarrier();
    var s = 128u;
    loop {
        if (s == 0u) {
            break;
        }
        if (lid.x < s) {
            scratch[lid.x] = combine(scratch[lid.x], scratch[lid.x + s]);
        }
        workgroupBarrier();
        s = s >> 1u;
    }
    if (lid.x == 0u && o < l.nout) {
        out[w] = scratch[0] / consts[{{DIVISOR}}];
    }
}
