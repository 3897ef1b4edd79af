// A fused elementwise kernel that reads and writes {{WIDTH}} elements per thread and vector,
// {{UNROLL}} vectors per thread (after common.wgsl): every input is read element for element
// or is one scalar, and the output is one binding, so inputs load and the result stores as
// whole vectors (16-byte accesses), and each thread has {{UNROLL}} vectors' loads in flight
// before it stores any. A workgroup covers 256 x {{UNROLL}} consecutive vectors, each pass
// of its threads 256 of them side by side. Workgroups take their blocks from the end first
// when {{GROUP}} says so (`gpu::order`).

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    // Every binding is used, so the derived layout matches the bind group.
    _ = consts[0];
{{INIT}}    let j = ({{GROUP}}) * (256u * {{UNROLL}}u) + lid.x;
    let n = shape_table[0];
    // The last vector may run past the end: buffers are whole powers of two of at least 256
    // bytes, so those lanes read and write padding.
    if ((j + 256u * ({{UNROLL}}u - 1u)) * {{WIDTH}}u < n) {
{{LOADS}}{{STORES}}        return;
    }
    for (var c = 0u; c < {{UNROLL}}u; c = c + 1u) {
        let k = j + 256u * c;
        if (k * {{WIDTH}}u < n) {
            out[k] = value_vector(k);
        }
    }
}
