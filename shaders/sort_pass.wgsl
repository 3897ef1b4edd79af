// One 8-bit digit of a stable LSD radix sort (`gpu::sort`), reduce-then-scan, in tiles of
// TILE elements (256 threads, ITEMS each). `hist_pass` counts each tile's digits (workgroup
// atomics), digit-major; `scan_pass` (a workgroup per digit) turns a digit's counts into
// where each tile's elements of that digit start among the digit's, and leaves the digit's
// total after the counts; `scatter_pass` sorts its tile by the digit in workgroup memory
// (two stable 4-bit splits, each thread counting its ITEMS consecutive elements in 16
// packed 16-bit counters, scanned over the threads) and then writes the tile out in that
// order, so consecutive threads write consecutive places of each digit's run (coalesced).
// Pass `q` < KP is a key digit (word q / 4, byte q % 4), later ones the lane's number's
// bytes (from the carried place). A pass whose digit is the same for every element
// (`andor`, from shaders/sort_keys.wgsl) does nothing, so the data of pass q lies in the
// buffers 0 or 1 by the parity of the passes done before it; `copy_pass` brings the
// places back to buffer 0 when they end in 1.

@group(0) @binding(0) var<storage, read_write> keys0: array<u32>;
@group(0) @binding(1) var<storage, read_write> vals0: array<u32>;
@group(0) @binding(2) var<storage, read_write> keys1: array<u32>;
@group(0) @binding(3) var<storage, read_write> vals1: array<u32>;
// 256 digits x tiles counts (digit-major), then the 256 digits' totals
@group(0) @binding(4) var<storage, read_write> hist: array<u32>;
// or0, or1, nor0, nor1 of the keys
@group(0) @binding(5) var<storage, read> andor: array<u32>;
// elements, tiles, pass, len
@group(0) @binding(6) var<storage, read> params: array<u32>;

const KW: u32 = {{KW}}u;
const KP: u32 = 4u * {{KW}}u;
const ITEMS: u32 = {{ITEMS}}u;
const TILE: u32 = 256u * {{ITEMS}}u;
// Tile arrays are padded a word every 32, so a thread's run of ITEMS words and the
// threads' consecutive words fall in distinct banks.
const PADDED: u32 = 256u * {{ITEMS}}u + 8u * {{ITEMS}}u;

var<workgroup> lh: array<atomic<u32>, 256>;
var<workgroup> sums: array<u32, 256>;
var<workgroup> runs: array<u32, 16>;
// Each thread's eight packed counter words (padded to nine so threads fall in distinct banks),
// and the 16 runs' totals of each word.
var<workgroup> cnt: array<u32, 2304>;
var<workgroup> cruns: array<u32, 128>;
var<workgroup> tot: array<u32, 8>;
var<workgroup> goff: array<u32, 256>;
var<workgroup> lstart: array<u32, 256>;
var<workgroup> nstart: array<u32, 16>;
var<workgroup> sd: array<u32, PADDED>;
var<workgroup> sd2: array<u32, PADDED>;

// Which buffers the pass reads (0 or 1); it writes the other.
var<private> src: u32;
// Whether a later pass reads the keys this one writes (the last pass moves places only).
var<private> keys_read: bool;

// Whether pass q changes anything: a lane pass always does, a key pass when its byte varies.
fn pass_runs(q: u32) -> bool {
    if (q >= KP) {
        return true;
    }
    let w = q / 4u;
    let varies = andor[w] & andor[2u + w];
    return ((varies >> ((q % 4u) * 8u)) & 255u) != 0u;
}

fn keys_read_after(q: u32) -> bool {
    for (var i = q + 1u; i < KP; i = i + 1u) {
        if (pass_runs(i)) {
            return true;
        }
    }
    return false;
}

// The buffers pass q reads: the parity of the passes done before it.
fn parity(q: u32) -> u32 {
    var c = 0u;
    for (var i = 0u; i < q; i = i + 1u) {
        if (pass_runs(i)) {
            c = c + 1u;
        }
    }
    return c & 1u;
}

fn key_in(i: u32) -> u32 {
    if (src == 0u) {
        return keys0[i];
    }
    return keys1[i];
}

fn val_in(i: u32) -> u32 {
    if (src == 0u) {
        return vals0[i];
    }
    return vals1[i];
}

fn put(i: u32, p: u32) {
    if (src == 0u) {
        if (keys_read) {
            for (var w = 0u; w < KW; w = w + 1u) {
                keys1[i * KW + w] = keys0[p * KW + w];
            }
        }
        vals1[i] = vals0[p];
    } else {
        if (keys_read) {
            for (var w = 0u; w < KW; w = w + 1u) {
                keys0[i * KW + w] = keys1[p * KW + w];
            }
        }
        vals0[i] = vals1[p];
    }
}

fn digit(p: u32) -> u32 {
    let q = params[2];
    if (q >= KP) {
        return ((val_in(p) / params[3]) >> ((q - KP) * 8u)) & 255u;
    }
    return (key_in(p * KW + q / 4u) >> ((q % 4u) * 8u)) & 255u;
}

fn pad(i: u32) -> u32 {
    return i + (i >> 5u);
}

// Inclusive sum over the workgroup's threads, in two levels (16 runs of 16 summed by a
// thread each, then the runs' totals by one): four barriers where a step-doubling scan takes
// sixteen, and barriers are what a tile's time goes to.
fn scan256(t: u32, v: u32) -> u32 {
    sums[t] = v;
    workgroupBarrier();
    if (t < 16u) {
        var acc = 0u;
        for (var j = 0u; j < 16u; j = j + 1u) {
            acc = acc + sums[t * 16u + j];
            sums[t * 16u + j] = acc;
        }
        runs[t] = acc;
    }
    workgroupBarrier();
    if (t == 0u) {
        var acc = 0u;
        for (var j = 0u; j < 16u; j = j + 1u) {
            let c = runs[j];
            runs[j] = acc;
            acc = acc + c;
        }
    }
    workgroupBarrier();
    let r = sums[t] + runs[t / 16u];
    workgroupBarrier();
    return r;
}

fn hist_pass(t: u32, b: u32) {
    let nb = params[1];
    if (!pass_runs(params[2]) || b >= nb) {
        return;
    }
    src = parity(params[2]);
    atomicStore(&lh[t], 0u);
    workgroupBarrier();
    let n = params[0];
    for (var j = 0u; j < ITEMS; j = j + 1u) {
        let p = b * TILE + j * 256u + t;
        if (p < n) {
            atomicAdd(&lh[digit(p)], 1u);
        }
    }
    workgroupBarrier();
    hist[t * nb + b] = atomicLoad(&lh[t]);
}

fn scan_pass(t: u32, d: u32) {
    let nb = params[1];
    if (!pass_runs(params[2]) || d >= 256u) {
        return;
    }
    let per = (nb + 255u) / 256u;
    let lo = min(t * per, nb);
    let hi = min(lo + per, nb);
    let row = d * nb;
    var total = 0u;
    for (var i = lo; i < hi; i = i + 1u) {
        total = total + hist[row + i];
    }
    let incl = scan256(t, total);
    var run = incl - total;
    for (var i = lo; i < hi; i = i + 1u) {
        let c = hist[row + i];
        hist[row + i] = run;
        run = run + c;
    }
    if (t == 255u) {
        hist[256u * nb + d] = incl;
    }
}

// Counter d (16 bits, two to a word) of the eight words a, b, with selects rather than an
// index: a dynamically indexed vector goes to local memory.
fn bump(a: ptr<function, vec4<u32>>, b: ptr<function, vec4<u32>>, d: u32) {
    let inc = vec4<u32>(1u << ((d & 1u) * 16u));
    let w = vec4<u32>(d >> 1u);
    *a = *a + select(vec4<u32>(0u), inc, w == vec4<u32>(0u, 1u, 2u, 3u));
    *b = *b + select(vec4<u32>(0u), inc, w == vec4<u32>(4u, 5u, 6u, 7u));
}

fn count_of(a: vec4<u32>, b: vec4<u32>, d: u32) -> u32 {
    let w = vec4<u32>(d >> 1u);
    let m = select(vec4<u32>(0u), a, w == vec4<u32>(0u, 1u, 2u, 3u))
        | select(vec4<u32>(0u), b, w == vec4<u32>(4u, 5u, 6u, 7u));
    return ((m.x | m.y | m.z | m.w) >> ((d & 1u) * 16u)) & 0xffffu;
}

fn tile_get(forward: bool, i: u32) -> u32 {
    if (forward) {
        return sd[pad(i)];
    }
    return sd2[pad(i)];
}

fn tile_put(forward: bool, i: u32, e: u32) {
    if (forward) {
        sd2[pad(i)] = e;
    } else {
        sd[pad(i)] = e;
    }
}

// A stable sort of the tile's entries (digit << 16 | place in the tile) by the 4 digit bits
// at `shift`, from sd to sd2 (`forward`) or back. Thread t moves entries t * ITEMS.. .
fn split(t: u32, shift: u32, forward: bool) {
    var ca = vec4<u32>(0u);
    var cb = vec4<u32>(0u);
    for (var j = 0u; j < ITEMS; j = j + 1u) {
        bump(&ca, &cb, (tile_get(forward, t * ITEMS + j) >> (16u + shift)) & 15u);
    }
    // The counts' exclusive sums over the threads, word by word, in two levels: thread
    // (run c, word w) sums its run of 16 threads' word w, then eight threads the runs.
    for (var w = 0u; w < 4u; w = w + 1u) {
        cnt[t * 9u + w] = ca[w];
        cnt[t * 9u + 4u + w] = cb[w];
    }
    workgroupBarrier();
    if (t < 128u) {
        let w = t % 8u;
        let c = t / 8u;
        var acc = 0u;
        for (var j = 0u; j < 16u; j = j + 1u) {
            let at = (c * 16u + j) * 9u + w;
            acc = acc + cnt[at];
            cnt[at] = acc;
        }
        cruns[c * 8u + w] = acc;
    }
    workgroupBarrier();
    if (t < 8u) {
        var acc = 0u;
        for (var c = 0u; c < 16u; c = c + 1u) {
            let x = cruns[c * 8u + t];
            cruns[c * 8u + t] = acc;
            acc = acc + x;
        }
        tot[t] = acc;
    }
    workgroupBarrier();
    var ia = vec4<u32>(0u);
    var ib = vec4<u32>(0u);
    let g = (t / 16u) * 8u;
    for (var w = 0u; w < 4u; w = w + 1u) {
        ia[w] = cnt[t * 9u + w] + cruns[g + w];
        ib[w] = cnt[t * 9u + 4u + w] + cruns[g + 4u + w];
    }
    if (t < 16u) {
        let ta = vec4<u32>(tot[0], tot[1], tot[2], tot[3]);
        let tb = vec4<u32>(tot[4], tot[5], tot[6], tot[7]);
        var start = 0u;
        for (var d = 0u; d < t; d = d + 1u) {
            start = start + count_of(ta, tb, d);
        }
        nstart[t] = start;
    }
    workgroupBarrier();
    var ra = ia - ca;
    var rb = ib - cb;
    for (var j = 0u; j < ITEMS; j = j + 1u) {
        let e = tile_get(forward, t * ITEMS + j);
        let d = (e >> (16u + shift)) & 15u;
        tile_put(forward, nstart[d] + count_of(ra, rb, d), e);
        bump(&ra, &rb, d);
    }
    workgroupBarrier();
}

fn scatter_pass(t: u32, b: u32) {
    let nb = params[1];
    if (!pass_runs(params[2]) || b >= nb) {
        return;
    }
    src = parity(params[2]);
    keys_read = keys_read_after(params[2]);
    let n = params[0];
    // Where each digit's run of this tile starts in the output.
    let total = hist[256u * nb + t];
    let before = scan256(t, total) - total;
    goff[t] = before + hist[t * nb + b];
    let base = b * TILE;
    for (var j = 0u; j < ITEMS; j = j + 1u) {
        let i = j * 256u + t;
        var d = 255u;
        if (base + i < n) {
            d = digit(base + i);
        }
        sd[pad(i)] = (d << 16u) | i;
    }
    workgroupBarrier();
    split(t, 0u, true);
    split(t, 4u, false);
    for (var j = 0u; j < ITEMS; j = j + 1u) {
        let i = j * 256u + t;
        let d = sd[pad(i)] >> 16u;
        if (i == 0u || (sd[pad(i - 1u)] >> 16u) != d) {
            lstart[d] = i;
        }
    }
    workgroupBarrier();
    for (var j = 0u; j < ITEMS; j = j + 1u) {
        let i = j * 256u + t;
        let e = sd[pad(i)];
        let p = base + (e & 0xffffu);
        if (p < n) {
            let d = e >> 16u;
            put(goff[d] + i - lstart[d], p);
        }
    }
}

fn copy_pass(t: u32, b: u32) {
    if (parity(params[2]) == 0u) {
        return;
    }
    let n = params[0];
    for (var j = 0u; j < ITEMS; j = j + 1u) {
        let i = b * TILE + j * 256u + t;
        if (i < n) {
            vals0[i] = vals1[i];
        }
    }
}

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    _ = keys0[0];
    _ = vals0[0];
    _ = keys1[0];
    _ = vals1[0];
    _ = hist[0];
    _ = andor[0];
    let b = wid.x + wid.y * nwg.x;
    {{PASS}}
}
