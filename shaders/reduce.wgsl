// A reduction fused with its producer (after common.wgsl). Workgroup w reduces part
// `w % parts` of output element `w / parts`: each thread folds a strided share of the lane,
// then the workgroup folds the 256 partial values in shared memory. With parts > 1 a second
// pass folds the parts. Parameters after the shape table: inner, len, nout, parts, shift
// (where this window's first element sits in the inputs' bindings: they are bound from a
// 256-byte boundary at or before it). value_at(i) reads element i of the bindings; the
// table's last word is where they start in the whole array.

var<workgroup> scratch: array<T, 256>;

fn value_at(i: u32) -> T {
{{BODY}}
}

fn combine(a: T, b: T) -> T {
    return {{COMBINE}};
}

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    _ = consts[0];
{{INIT}}    let w = wid.x + wid.y * nwg.x;
    let p = 2u + shape_table[1] * ({{NINPUTS}}u + 1u);
    let inner = shape_table[p];
    let len = shape_table[p + 1u];
    let nout = shape_table[p + 2u];
    let parts = shape_table[p + 3u];
    let shift = shape_table[p + 4u];
    let o = w / parts;
    let part = w % parts;
    var acc = consts[{{IDENTITY}}];
    if (o < nout) {
        let base = (o % inner) + (o / inner) * inner * len;
        var r = part * 256u + lid.x;
{{VECTOR_LOOP}}        loop {
            if (r >= len) {
                break;
            }
            acc = combine(acc, {{MAP}});
            r = r + parts * 256u;
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
    if (lid.x == 0u && o < nout) {
        out[w] = scratch[0] / consts[{{DIVISOR}}];
    }
}
