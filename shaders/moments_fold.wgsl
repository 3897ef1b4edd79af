// Folds the partial moments moments.wgsl wrote (after moments_common.wgsl; value_at reads
// them): workgroup o merges lane o's parts, each thread taking every 256th as reduce.wgsl's
// second pass does, so the sum is folded in a plain mean's order. Writes the lane's mean (sum
// / consts[0]) when consts[1] is 0, else its sum of squared deviations.

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    _ = consts[0];
{{INIT}}    let o = wid.x + wid.y * nwg.x;
    let l = lane_params();
    var acc = Part(T(0), T(0), T(0));
    if (o < l.nout) {
        let p = l.nout * l.len;
        var r = lid.x;
        loop {
            if (r >= l.len) {
                break;
            }
            let i = o * l.len + r;
            acc = merge(acc, Part(value_at(2u * p + i), value_at(i), value_at(p + i)));
            r = r + 256u;
        }
    }
    let whole = merge_workgroup(lid.x, acc);
    if (lid.x == 0u && o < l.nout) {
        out[o] = select(whole.m, whole.s / consts[0], consts[1] == T(0));
    }
}
