// Cumulative sums, products, maxima and minima (`gpu::scan`) along one dimension: lanes of
// `len` elements `inner` apart (`lane = i + inner * o`), from the end with 'reverse'. Long
// lanes go in blocks of 4096 (256 threads, 16 consecutive elements each, a quarter of the
// barriers per element that 4 took) in three passes:
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

// Where a lane's elements lie: element k of lane `lane` is at `first + inner * k` (from the
// lane's end with 'reverse'). Computed once a thread: a division costs the GPU tens of
// operations, and an address divided out per element made the passes compute-bound.
struct LaneAt {
    first: u32,
    inner: u32,
    len: u32,
    reverse: bool,
    live: bool,
}

fn lane_at(lane: u32) -> LaneAt {
    let inner = params[1];
    let len = params[2];
    return LaneAt(lane % inner + inner * len * (lane / inner), inner, len, params[4] == 1u, lane < params[0]);
}

fn addr(l: LaneAt, k: u32) -> u32 {
    return l.first + l.inner * select(k, l.len - 1u - k, l.reverse);
}

// Element k of a lane as the operation takes it; the identity past the lane's end.
fn load(l: LaneAt, k: u32) -> T {
    if (k >= l.len || !l.live) {
        return identity();
    }
    let v = x[addr(l, k)];
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

// Whether a block's total reads its elements coalesced (element j * 256 + t to thread t),
// for operations whose order may change; else each thread takes its 16 in order.
const SPREAD: bool = {{SPREAD}};

// A block's total: each thread's elements, then a tree over the threads with the earlier
// elements on the left (half the barriers of `scan_part`).
fn reduce_pass(t: u32, w: u32) {
    let nb = max(params[3], 1u);
    let lane = w / nb;
    let b = w % nb;
    let k0 = b * 4096u;
    let l = lane_at(lane);
    var acc = identity();
    if (SPREAD) {
        acc = load(l, k0 + t);
        for (var j = 1u; j < 16u; j = j + 1u) {
            acc = combine(acc, load(l, k0 + j * 256u + t));
        }
    } else {
        let k = k0 + t * 16u;
        acc = load(l, k);
        for (var j = 1u; j < 16u; j = j + 1u) {
            acc = combine(acc, load(l, k + j));
        }
    }
    part[t] = acc;
    workgroupBarrier();
    for (var s = 128u; s > 0u; s = s >> 1u) {
        if (t < s) {
            part[t] = combine(part[t], part[t + s]);
        }
        workgroupBarrier();
    }
    if (t == 0u && lane < params[0]) {
        agg[w] = part[0];
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
    let k = b * 4096u + t * 16u;
    let l = lane_at(lane);
    var acc = load(l, k);
    for (var j = 1u; j < 16u; j = j + 1u) {
        acc = combine(acc, load(l, k + j));
    }
    part[t] = acc;
    workgroupBarrier();
    scan_part(t);
    if (lane >= params[0]) {
        return;
    }
    var run = identity();
    if (params[3] > 1u) {
        run = agg[w];
    }
    if (t > 0u) {
        run = combine(run, part[t - 1u]);
    }
    // The thread's elements again (from the cache), each prefix written.
    let len = params[2];
    for (var j = 0u; j < 16u; j = j + 1u) {
        if (k + j < len) {
            run = combine(run, load(l, k + j));
            out[addr(l, k + j)] = run;
        }
    }
}

fn lane_pass(t: u32, w: u32) {
    let lane = w * 256u + t;
    if (lane >= params[0]) {
        return;
    }
    var acc = identity();
    let len = params[2];
    let l = lane_at(lane);
    for (var k = 0u; k < len; k = k + 1u) {
        acc = combine(acc, load(l, k));
        out[addr(l, k)] = acc;
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
