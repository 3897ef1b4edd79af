// Cumulative sums, products, maxima and minima (`gpu::scan`) along one dimension: lanes of
// `len` elements `inner` apart (`lane = i + inner * o`), from the end with 'reverse'. Long
// lanes go in blocks of 1024 (256 threads, 4 consecutive elements each) in three passes:
// `reduce` writes each block's total, `carry` turns a lane's totals into what comes before
// each block, `apply` scans each block from its carry. Short lanes or many lanes side by
// side take a thread each (`lane_pass`), in the host's order. `combine(a, b)` always has the
// earlier elements on the left, so a maximum keeps the first of equal values (-0 before 0)
// as the host does.

@group(0) @binding(0) var<storage, read> x: array<T>;
@group(0) @binding(1) var<storage, read_write> out: array<T>;
@group(0) @binding(2) var<storage, read_write> agg: array<T>;
// lanes, inner, len, blocks per lane, reverse (1)
@group(0) @binding(3) var<storage, read> params: array<u32>;

var<workgroup> part: array<T, 256>;

fn addr(lane: u32, k: u32) -> u32 {
    let inner = params[1];
    let len = params[2];
    let kk = select(k, len - 1u - k, params[4] == 1u);
    return lane % inner + inner * (kk + len * (lane / inner));
}

// Element k of a lane as the operation takes it; the identity past the lane's end.
fn load(lane: u32, k: u32) -> T {
    if (k >= params[2] || lane >= params[0]) {
        return identity();
    }
    let v = x[addr(lane, k)];
    {{LOAD}}
}

// Inclusive scan of `part` across the workgroup, earlier values on the left.
fn scan_part(t: u32) {
    for (var s = 1u; s < 256u; s = s << 1u) {
        var v = identity();
        if (t >= s) {
            v = part[t - s];
        }
        workgroupBarrier();
        if (t >= s) {
            part[t] = combine(v, part[t]);
        }
        workgroupBarrier();
    }
}

fn reduce_pass(t: u32, w: u32) {
    let nb = max(params[3], 1u);
    let lane = w / nb;
    let b = w % nb;
    let k = b * 1024u + t * 4u;
    part[t] = combine(combine(combine(load(lane, k), load(lane, k + 1u)), load(lane, k + 2u)), load(lane, k + 3u));
    workgroupBarrier();
    scan_part(t);
    if (t == 255u && lane < params[0]) {
        agg[w] = part[255];
    }
}

fn carry_pass(t: u32, lane: u32) {
    let nb = params[3];
    let per = (nb + 255u) / 256u;
    let lo = min(t * per, nb);
    let hi = min(lo + per, nb);
    let live = lane < params[0];
    var total = identity();
    if (live) {
        for (var b = lo; b < hi; b = b + 1u) {
            total = combine(total, agg[lane * nb + b]);
        }
    }
    part[t] = total;
    workgroupBarrier();
    scan_part(t);
    var run = identity();
    if (t > 0u) {
        run = part[t - 1u];
    }
    if (live) {
        for (var b = lo; b < hi; b = b + 1u) {
            let c = agg[lane * nb + b];
            agg[lane * nb + b] = run;
            run = combine(run, c);
        }
    }
}

fn apply_pass(t: u32, w: u32) {
    let nb = max(params[3], 1u);
    let lane = w / nb;
    let b = w % nb;
    let k = b * 1024u + t * 4u;
    let c0 = load(lane, k);
    let c1 = combine(c0, load(lane, k + 1u));
    let c2 = combine(c1, load(lane, k + 2u));
    let c3 = combine(c2, load(lane, k + 3u));
    part[t] = c3;
    workgroupBarrier();
    scan_part(t);
    if (lane >= params[0]) {
        return;
    }
    var before = identity();
    if (params[3] > 1u) {
        before = agg[w];
    }
    if (t > 0u) {
        before = combine(before, part[t - 1u]);
    }
    let len = params[2];
    if (k < len) {
        out[addr(lane, k)] = combine(before, c0);
    }
    if (k + 1u < len) {
        out[addr(lane, k + 1u)] = combine(before, c1);
    }
    if (k + 2u < len) {
        out[addr(lane, k + 2u)] = combine(before, c2);
    }
    if (k + 3u < len) {
        out[addr(lane, k + 3u)] = combine(before, c3);
    }
}

fn lane_pass(t: u32, w: u32) {
    let lane = w * 256u + t;
    if (lane >= params[0]) {
        return;
    }
    var acc = identity();
    let len = params[2];
    for (var k = 0u; k < len; k = k + 1u) {
        acc = combine(acc, load(lane, k));
        out[addr(lane, k)] = acc;
    }
}

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    _ = x[0];
    _ = out[0];
    _ = agg[0];
    let w = wid.x + wid.y * nwg.x;
    {{PASS}}
}
