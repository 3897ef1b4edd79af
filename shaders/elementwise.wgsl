// A fused elementwise kernel (after common.wgsl): one `let` per fused operation.

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    // Every binding is used, so the derived layout matches the bind group.
    _ = consts[0];
{{INIT}}    let i = gid.x + gid.y * nwg.x * 256u;
    if (i >= shape_table[0]) {
        return;
    }
    // The element of the whole result: a large one is computed a window at a time, and the
    // table's last word is this window's start.
    let gi = i + shape_table[arrayLength(&shape_table) - 1u];
{{BODY}}
}
