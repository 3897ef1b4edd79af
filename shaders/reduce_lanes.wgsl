// A reduction in which each thread folds its own lane, or one of `parts` segments of it
// (after reduce_common.wgsl). For lanes whose elements lie `inner` apart, consecutive threads
// read consecutive elements, where a workgroup per lane reads one element per memory sector;
// and many short lanes keep every thread busy. Thread t folds segment `t / nout` of lane
// `t % nout`, and its result goes where reduce.wgsl puts it: out[lane * parts + segment].

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    _ = consts[0];
{{INIT}}    let t = (wid.x + wid.y * nwg.x) * 256u + lid.x;
    let l = lane_params();
    let o = t % l.nout;
    let part = t / l.nout;
    if (part >= l.parts) {
        return;
    }
    let seg = (l.len + l.parts - 1u) / l.parts;
    let base = lane_start(l, o);
    var acc = consts[{{IDENTITY}}];
    var r = part * seg;
    let end = min(l.len, r + seg);
    loop {
        if (r >= end) {
            break;
        }
        acc = combine(acc, {{MAP}});
        r = r + 1u;
    }
    out[o * l.parts + part] = acc / consts[{{DIVISOR}}];
}
