// What both moments kernels have (after reduce_common.wgsl, before moments.wgsl or
// moments_fold.wgsl): a part's count, sum and sum of squared deviations from its mean, and
// their merge, in a thread and across a workgroup.

struct Part {
    n: T,
    s: T,
    m: T,
}

// Two parts together, by Chan, Golub and LeVeque's update (an empty part leaves the other as
// it is, with its sum plus zero as a plain fold adds it).
fn merge(a: Part, b: Part) -> Part {
    if (b.n == T(0)) {
        return Part(a.n, a.s + b.s, a.m);
    }
    if (a.n == T(0)) {
        return Part(b.n, a.s + b.s, b.m);
    }
    let n = a.n + b.n;
    let delta = b.s / b.n - a.s / a.n;
    return Part(n, a.s + b.s, a.m + b.m + delta * delta * (a.n * b.n / n));
}

var<workgroup> part_n: array<T, 256>;
var<workgroup> part_s: array<T, 256>;
var<workgroup> part_m: array<T, 256>;

// The workgroup's 256 parts merged pairwise as reduce.wgsl folds its scratch; every thread
// calls it, thread 0 gets the whole.
fn merge_workgroup(t: u32, own: Part) -> Part {
    part_n[t] = own.n;
    part_s[t] = own.s;
    part_m[t] = own.m;
    workgroupBarrier();
    var s = 128u;
    loop {
        if (s == 0u) {
            break;
        }
        if (t < s) {
            let a = Part(part_n[t], part_s[t], part_m[t]);
            let c = merge(a, Part(part_n[t + s], part_s[t + s], part_m[t + s]));
            part_n[t] = c.n;
            part_s[t] = c.s;
            part_m[t] = c.m;
        }
        workgroupBarrier();
        s = s >> 1u;
    }
    return Part(part_n[0], part_s[0], part_m[0]);
}
