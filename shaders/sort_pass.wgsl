// One 4-bit digit of a stable LSD radix sort (`gpu::sort`), in blocks of 4096 elements (256
// threads, 16 consecutive elements each). `hist_pass` counts each block's digits;
// `offsets_pass` (one workgroup) turns the counts, digit-major, into where each block's
// elements of each digit go; `scatter_pass` moves each element there, after the block's
// earlier elements of its digit (so equal digits keep their order). A thread's counts of
// the 16 digits are packed 16 bits each in 8 words (two vectors), scanned together. The
// digit is a key word's bits, or (`mode` 1) the lane's number's, from the carried place.

@group(0) @binding(0) var<storage, read> keys_in: array<u32>;
@group(0) @binding(1) var<storage, read> vals_in: array<u32>;
@group(0) @binding(2) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(3) var<storage, read_write> vals_out: array<u32>;
@group(0) @binding(4) var<storage, read_write> hist: array<u32>;
// elements, blocks, mode, word, shift, len
@group(0) @binding(5) var<storage, read> params: array<u32>;

const KW: u32 = {{KW}}u;

var<workgroup> wa: array<vec4<u32>, 256>;
var<workgroup> wb: array<vec4<u32>, 256>;
var<workgroup> offsets: array<u32, 16>;
var<workgroup> sums: array<u32, 256>;

fn digit(p: u32) -> u32 {
    if (params[2] == 1u) {
        return ((vals_in[p] / params[5]) >> params[4]) & 15u;
    }
    return (keys_in[p * KW + params[3]] >> params[4]) & 15u;
}

fn bump(a: ptr<function, vec4<u32>>, b: ptr<function, vec4<u32>>, d: u32) {
    let w = d >> 1u;
    let inc = 1u << ((d & 1u) * 16u);
    if (w < 4u) {
        (*a)[w] = (*a)[w] + inc;
    } else {
        (*b)[w - 4u] = (*b)[w - 4u] + inc;
    }
}

fn count_of(a: vec4<u32>, b: vec4<u32>, d: u32) -> u32 {
    let w = d >> 1u;
    var v = 0u;
    if (w < 4u) {
        v = a[w];
    } else {
        v = b[w - 4u];
    }
    return (v >> ((d & 1u) * 16u)) & 0xffffu;
}

// A thread's packed digit counts.
fn thread_counts(t: u32, b: u32) {
    var ca = vec4<u32>(0u);
    var cb = vec4<u32>(0u);
    let base = b * 4096u + t * 16u;
    let n = params[0];
    for (var j = 0u; j < 16u; j = j + 1u) {
        let p = base + j;
        if (p < n) {
            bump(&ca, &cb, digit(p));
        }
    }
    wa[t] = ca;
    wb[t] = cb;
}

fn hist_pass(t: u32, b: u32) {
    thread_counts(t, b);
    workgroupBarrier();
    for (var s = 128u; s > 0u; s = s >> 1u) {
        if (t < s) {
            wa[t] = wa[t] + wa[t + s];
            wb[t] = wb[t] + wb[t + s];
        }
        workgroupBarrier();
    }
    if (t < 16u && b < params[1]) {
        hist[t * params[1] + b] = count_of(wa[0], wb[0], t);
    }
}

fn offsets_pass(t: u32) {
    let total_n = params[1] * 16u;
    let per = (total_n + 255u) / 256u;
    let lo = min(t * per, total_n);
    let hi = min(lo + per, total_n);
    var total = 0u;
    for (var i = lo; i < hi; i = i + 1u) {
        total = total + hist[i];
    }
    sums[t] = total;
    workgroupBarrier();
    for (var s = 1u; s < 256u; s = s << 1u) {
        var v = 0u;
        if (t >= s) {
            v = sums[t - s];
        }
        workgroupBarrier();
        sums[t] = sums[t] + v;
        workgroupBarrier();
    }
    var run = sums[t] - total;
    for (var i = lo; i < hi; i = i + 1u) {
        let c = hist[i];
        hist[i] = run;
        run = run + c;
    }
}

fn scatter_pass(t: u32, b: u32) {
    thread_counts(t, b);
    let own_a = wa[t];
    let own_b = wb[t];
    if (t < 16u && b < params[1]) {
        offsets[t] = hist[t * params[1] + b];
    }
    workgroupBarrier();
    for (var s = 1u; s < 256u; s = s << 1u) {
        var va = vec4<u32>(0u);
        var vb = vec4<u32>(0u);
        if (t >= s) {
            va = wa[t - s];
            vb = wb[t - s];
        }
        workgroupBarrier();
        wa[t] = wa[t] + va;
        wb[t] = wb[t] + vb;
        workgroupBarrier();
    }
    if (b >= params[1]) {
        return;
    }
    // Counts of each digit in the block before this thread's elements.
    var ra = wa[t] - own_a;
    var rb = wb[t] - own_b;
    let base = b * 4096u + t * 16u;
    let n = params[0];
    for (var j = 0u; j < 16u; j = j + 1u) {
        let p = base + j;
        if (p < n) {
            let d = digit(p);
            let at = offsets[d] + count_of(ra, rb, d);
            bump(&ra, &rb, d);
            for (var w = 0u; w < KW; w = w + 1u) {
                keys_out[at * KW + w] = keys_in[p * KW + w];
            }
            vals_out[at] = vals_in[p];
        }
    }
}

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    _ = keys_in[0];
    _ = vals_in[0];
    _ = keys_out[0];
    _ = vals_out[0];
    _ = hist[0];
    let b = wid.x + wid.y * nwg.x;
    {{PASS}}
}
