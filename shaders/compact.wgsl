// Compaction (`find`, logical masks): the 1-based positions of a mask's nonzero elements, in
// order. Three passes: `count` writes the nonzeros of each block of 4096 elements and of its
// four parts of 1024; `offsets` (one workgroup, each thread a run of blocks) turns the
// blocks' counts into each block's first place in the result and writes the total after
// them (the size the host reads back); `write` (shaders/compact_write_subgroup.wgsl, or
// compact_write_scan.wgsl where the device has no subgroups of one size), a workgroup a part,
// puts each nonzero's position at its part's place plus its rank in the part (or, compacting
// values, the source's element there: `x(mask)` without positions). NaN is nonzero, as
// MATLAB's find says. Counting by blocks of 4096 keeps the offsets pass short (2442 blocks
// for 1e7 elements); writing by parts of 1024 keeps the write pass's threads light: four
// elements each.

// Elements a block has, a part has, and a thread of the write pass takes.
const BLOCK: u32 = 4096u;
const PART: u32 = 1024u;
const PER: u32 = 4u;

@group(0) @binding(0) var<storage, read> mask: array<{{MASK}}>;
@group(0) @binding(1) var<storage, read_write> counts: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<{{OUT}}>;
// Elements, blocks, parts. `counts` holds the blocks' counts (then offsets), the total,
// and each block's four parts' counts.
@group(0) @binding(3) var<storage, read> params: array<u32>;
{{SOURCE}}
// What the write pass puts at a nonzero element's place: its 1-based position, or (values)
// the source's element there.
fn written(i: u32) -> {{OUT}} {
    {{WRITTEN}}
}

// A thread's sum lives at `slot(t)`: each run of 16 is padded to 17 words, so the 16 threads
// that scan the runs read 16 different banks (at `t * 16` they all read two, one at a time:
// the scan was most of the write pass's time).
var<workgroup> sums: array<u32, 272>;
var<workgroup> runs: array<u32, 16>;
var<workgroup> part_counts: array<atomic<u32>, 4>;

fn flag(i: u32) -> u32 {
    if (i < params[0] && !(mask[i] == {{MASK}}(0))) {
        return 1u;
    }
    return 0u;
}

fn slot(t: u32) -> u32 {
    return t + t / 16u;
}

// Inclusive prefix sums of `sums` across the workgroup, in two levels (16 runs of 16 summed
// by a thread each, then the runs by one): four barriers where a step-doubling scan takes
// sixteen, and a block's barriers are most of its time.
fn scan_sums(t: u32) {
    workgroupBarrier();
    if (t < 16u) {
        var acc = 0u;
        for (var j = 0u; j < 16u; j = j + 1u) {
            acc = acc + sums[t * 17u + j];
            sums[t * 17u + j] = acc;
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
    let r = sums[slot(t)] + runs[t / 16u];
    workgroupBarrier();
    sums[slot(t)] = r;
    workgroupBarrier();
}

// Thread t counts the block's elements t, t + 256, ...: each load is one coalesced read
// across the workgroup, and the order within a part does not matter to its count (element
// t + 256 k is in part k / 4).
fn count_pass(t: u32, b: u32) {
    let base = b * BLOCK + t;
    if (t < 4u) {
        atomicStore(&part_counts[t], 0u);
    }
    workgroupBarrier();
    for (var q = 0u; q < 4u; q = q + 1u) {
        var c = 0u;
        for (var k = 0u; k < 4u; k = k + 1u) {
            c = c + flag(base + (q * 4u + k) * 256u);
        }
        if (c != 0u) {
            atomicAdd(&part_counts[q], c);
        }
    }
    workgroupBarrier();
    if (t == 0u && b < params[1]) {
        var total = 0u;
        for (var q = 0u; q < 4u; q = q + 1u) {
            let c = atomicLoad(&part_counts[q]);
            counts[params[1] + 1u + b * 4u + q] = c;
            total = total + c;
        }
        counts[b] = total;
    }
}

// Where part `p`'s nonzeros start in the result: its block's offset and the counts of the
// block's parts before it.
fn part_start(p: u32) -> u32 {
    let b = p / 4u;
    var at = counts[b];
    let parts = params[1] + 1u + b * 4u;
    for (var q = 0u; q < p % 4u; q = q + 1u) {
        at = at + counts[parts + q];
    }
    return at;
}

fn offsets_pass(t: u32) {
    let blocks = params[1];
    let per = (blocks + 255u) / 256u;
    let lo = min(t * per, blocks);
    let hi = min(lo + per, blocks);
    // Four loads at a time: one thread's run is read serially, so each load's latency was
    // paid in turn (a mask of 1e7 is 39 blocks a thread).
    var total = 0u;
    var b = lo;
    for (; b + 4u <= hi; b = b + 4u) {
        total = total + ((counts[b] + counts[b + 1u]) + (counts[b + 2u] + counts[b + 3u]));
    }
    for (; b < hi; b = b + 1u) {
        total = total + counts[b];
    }
    sums[slot(t)] = total;
    workgroupBarrier();
    scan_sums(t);
    var run = sums[slot(t)] - total;
    b = lo;
    for (; b + 4u <= hi; b = b + 4u) {
        let c0 = counts[b];
        let c1 = counts[b + 1u];
        let c2 = counts[b + 2u];
        let c3 = counts[b + 3u];
        counts[b] = run;
        counts[b + 1u] = run + c0;
        counts[b + 2u] = run + c0 + c1;
        counts[b + 3u] = run + c0 + c1 + c2;
        run = run + c0 + c1 + c2 + c3;
    }
    for (; b < hi; b = b + 1u) {
        let c = counts[b];
        counts[b] = run;
        run = run + c;
    }
    if (t == 255u) {
        counts[blocks] = sums[slot(255u)];
    }
}

{{WRITE}}

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>{{SUBGROUP_ARGS}}) {
    {{SUBGROUP_SET}}
    _ = mask[0];
    _ = counts[0];
    _ = out[0];
    {{TOUCH}}
    let b = wid.x + wid.y * nwg.x;
    {{PASS}}
}
