// A fused elementwise kernel that reads and writes {{WIDTH}} elements per thread (after
// common.wgsl): every input is read element for element or is one scalar, and the output is
// one binding, so inputs load and the result stores as whole vectors (16-byte accesses for
// singles), and each thread has {{WIDTH}} independent elements in flight.

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    // Every binding is used, so the derived layout matches the bind group.
    _ = consts[0];
{{INIT}}    let j = gid.x + gid.y * nwg.x * 256u;
    if (j * {{WIDTH}}u >= shape_table[0]) {
        return;
    }
    // The last vector may run past the end: buffers are whole powers of two of at least 256
    // bytes, so those lanes read and write padding.
    out[j] = value_vector(j);
}
