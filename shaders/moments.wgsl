// The moments of lane parts, for `var` and `std` with the mean in the same pass (after
// moments_common.wgsl). Workgroup w folds part `w % parts` of lane `w / parts`, its threads
// taking the elements reduce.wgsl's would, in the same order: so the sums, folded as
// reduce.wgsl folds them, give the mean a plain `mean` gives. Beside its sum each thread keeps
// the squared deviations of its values about its first one, k: n*var = Σ(v-k)² - (Σ(v-k))²/n
// loses at most a factor n + 1 to cancellation (k is one of the n values), and parts then
// merge without it. The result is three planes of nout * parts values: sums, sums of squared
// deviations, counts.

struct Thread {
    n: T,
    s: T,
    k: T,
    d: T,
    q: T,
}

fn add(a: Thread, v: T) -> Thread {
    let k = select(a.k, v, a.n == T(0));
    let e = v - k;
    return Thread(a.n + T(1), a.s + v, k, a.d + e, a.q + e * e);
}

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    _ = consts[0];
{{INIT}}    let w = wid.x + wid.y * nwg.x;
    let l = lane_params();
    let o = w / l.parts;
    let part = w % l.parts;
    var st = Thread(T(0), T(0), T(0), T(0), T(0));
    if (o < l.nout) {
        let base = lane_start(l, o);
        var r = part * 256u + lid.x;
{{VECTOR_LOOP}}        loop {
            if (r >= l.len) {
                break;
            }
            st = add(st, value_at(l.shift + base + r * l.inner));
            r = r + l.parts * 256u;
        }
    }
    // (NaN stays NaN: the comparison is false.)
    var m = st.q - st.d * st.d / max(st.n, T(1));
    m = select(m, T(0), m < T(0));
    let whole = merge_workgroup(lid.x, Part(st.n, st.s, m));
    if (lid.x == 0u && o < l.nout) {
        let p = l.nout * l.parts;
        out[w] = whole.s;
        out[p + w] = whole.m;
        out[2u * p + w] = whole.n;
    }
}
