// A reduction in which each thread folds its own lane, or one of `parts` segments of it
// (after common.wgsl). For lanes whose elements lie `inner` apart, consecutive threads read
// consecutive elements, where a workgroup per lane reads one element per memory sector; and
// many short lanes keep every thread busy. Thread t folds segment `t / nout` of lane
// `t % nout`, and its result goes where reduce.wgsl puts it: out[lane * parts + segment].
// Parameters after the shape table: inner, len, nout, parts, shift (as reduce.wgsl's).

fn value_at(i: u32) -> T {
{{BODY}}
}

fn combine(a: T, b: T) -> T {
    return {{COMBINE}};
}

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    _ = consts[0];
{{INIT}}    let t = (wid.x + wid.y * nwg.x) * 256u + lid.x;
    let p = 2u + shape_table[1] * ({{NINPUTS}}u + 1u);
    let inner = shape_table[p];
    let len = shape_table[p + 1u];
    let nout = shape_table[p + 2u];
    let parts = shape_table[p + 3u];
    let shift = shape_table[p + 4u];
    let o = t % nout;
    let part = t / nout;
    if (part >= parts) {
        return;
    }
    let seg = (len + parts - 1u) / parts;
    let base = (o % inner) + (o / inner) * inner * len;
    var acc = consts[{{IDENTITY}}];
    var r = part * seg;
    let end = min(len, r + seg);
    loop {
        if (r >= end) {
            break;
        }
        acc = combine(acc, {{MAP}});
        r = r + 1u;
    }
    out[o * parts + part] = acc / consts[{{DIVISOR}}];
}
