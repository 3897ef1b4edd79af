// Direct convolution along lanes (`gpu::conv`): each thread one output element. A lane of
// `na` elements lies `inner` apart (`lane i + inner * o`, element j at i + inner * (j + na * o));
// its output of `n_out` elements is laid out the same way.
// conv: output k is element `start + k` of the full convolution, a sum over u's elements in
// order (as the host sums it). filter: output k is b(1) x(k) + ... + b(m) x(k - m + 1), the
// last tap first (the order of the host's transposed form).

@group(0) @binding(0) var<storage, read> x: array<T>;
@group(0) @binding(1) var<storage, read> h: array<T>;
@group(0) @binding(2) var<storage, read_write> out: array<T>;
// outputs in all, inner, na, nb, n_out, start, filter (1)
@group(0) @binding(3) var<storage, read> params: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_id) lid: vec3<u32>) {
    let e = (wid.x + wid.y * nwg.x) * 256u + lid.x;
    if (e >= params[0]) {
        return;
    }
    let inner = params[1];
    let na = params[2];
    let nb = params[3];
    let n_out = params[4];
    let i = e % inner;
    let rest = e / inner;
    let k = rest % n_out;
    let o = rest / n_out;
    let base = i + inner * na * o;
    var s = T(0);
    if (params[6] == 1u) {
        var t = min(k, nb - 1u);
        loop {
            s = h[t] * x[base + inner * (k - t)] + s;
            if (t == 0u) {
                break;
            }
            t = t - 1u;
        }
    } else {
        let full = params[5] + k;
        let lo = select(0u, full - (nb - 1u), full >= nb - 1u);
        let hi = min(full, na - 1u);
        for (var j = lo; j <= hi; j = j + 1u) {
            s = s + x[base + inner * j] * h[full - j];
        }
    }
    out[e] = s;
}
