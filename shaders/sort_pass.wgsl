// One 8-bit digit of a stable LSD radix sort (`gpu::sort`), reduce-then-scan, in tiles of
// TILE elements (256 threads, ITEMS each). `hist_pass` counts each tile's digits (workgroup
// atomics), digit-major; `scan_pass` (a workgroup per digit) turns a digit's counts into
// where each tile's elements of that digit start among the digit's, and leaves the digit's
// total after the counts; `scatter_pass` orders its tile by the digit in workgroup memory
// (`rank_and_write`: shaders/sort_rank_subgroup.wgsl where the device has subgroups, else
// shaders/sort_rank_split.wgsl) and then writes the tile out in that order, so consecutive
// threads write consecutive places of each digit's run (coalesced). With `params[4]` the
// keys are moved by every pass, so one lane's values can be decoded from them afterwards.
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
// elements, tiles, pass, len, keys kept (1: the last pass moves the keys too, and they
// end in buffer 0 like the places)
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
var<workgroup> goff: array<u32, 256>;
var<workgroup> lstart: array<u32, 256>;

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

fn scatter_pass(t: u32, b: u32) {
    let nb = params[1];
    if (!pass_runs(params[2]) || b >= nb) {
        return;
    }
    src = parity(params[2]);
    keys_read = params[4] == 1u || keys_read_after(params[2]);
    let n = params[0];
    // Where each digit's run of this tile starts in the output.
    let total = hist[256u * nb + t];
    let before = scan256(t, total) - total;
    goff[t] = before + hist[t * nb + b];
    let base = b * TILE;
    // Each element of the tile to its place in its digit's run of the output.
    rank_and_write(t, base, n);
}

// The digit of the tile's element i (255 past the end, which keeps such elements last).
fn tile_digit(base: u32, n: u32, i: u32) -> u32 {
    if (base + i < n) {
        return digit(base + i);
    }
    return 255u;
}

{{RANK}}
fn copy_pass(t: u32, b: u32) {
    if (parity(params[2]) == 0u) {
        return;
    }
    let n = params[0];
    for (var j = 0u; j < ITEMS; j = j + 1u) {
        let i = b * TILE + j * 256u + t;
        if (i < n) {
            vals0[i] = vals1[i];
            if (params[4] == 1u) {
                for (var w = 0u; w < KW; w = w + 1u) {
                    keys0[i * KW + w] = keys1[i * KW + w];
                }
            }
        }
    }
}

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>{{SUBGROUP_ARGS}}) {
    {{SUBGROUP_SET}}
    _ = keys0[0];
    _ = vals0[0];
    _ = keys1[0];
    _ = vals1[0];
    _ = hist[0];
    _ = andor[0];
    let b = wid.x + wid.y * nwg.x;
    {{PASS}}
}
