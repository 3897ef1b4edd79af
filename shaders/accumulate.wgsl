// `accumarray(subs, vals)` summing on the device (`gpu::bins`): the subscripts sorted
// stably, a thread per group of equal subscripts adds its values from 0 in the order they
// came, in f64, as the host does (so the sums are the host's bit for bit). `zero` clears the
// result first; bins no subscript names stay 0.

@group(0) @binding(0) var<storage, read> vals: array<f64>;
@group(0) @binding(1) var<storage, read> sidx: array<I>;
@group(0) @binding(2) var<storage, read> ssub: array<S>;
@group(0) @binding(3) var<storage, read> starts: array<I>;
@group(0) @binding(4) var<storage, read_write> out: array<f64>;
// elements, groups, scalar value (1), result length
@group(0) @binding(5) var<storage, read> params: array<u32>;

fn zero_pass(p: u32) {
    if (p < params[3]) {
        out[p] = 0.0;
    }
}

fn sum_pass(j: u32) {
    let n = params[0];
    let groups = params[1];
    if (j >= groups) {
        return;
    }
    let lo = u32(starts[j]) - 1u;
    var hi = n;
    if (j + 1u < groups) {
        hi = u32(starts[j + 1u]) - 1u;
    }
    var acc = f64(0.0);
    for (var q = lo; q < hi; q = q + 1u) {
        if (params[2] == 1u) {
            acc = acc + vals[0];
        } else {
            acc = acc + vals[u32(sidx[q]) - 1u];
        }
    }
    out[u32(ssub[lo]) - 1u] = acc;
}

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    _ = vals[0];
    _ = sidx[0];
    _ = ssub[0];
    _ = starts[0];
    _ = out[0];
    let p = (wid.x + wid.y * nwg.x) * 256u + lid.x;
    {{PASS}}
}
