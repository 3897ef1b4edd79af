// Compaction (`find`, logical masks): the 1-based positions of a mask's nonzero elements, in
// order. Blocks of 1024 elements (256 threads, 4 consecutive elements each). Three passes:
// `count` writes each block's nonzeros; `offsets` (one workgroup, each thread a run of
// blocks) turns them into each block's first place in the result and writes the total after
// them (the size the host reads back); `write` puts each nonzero's position at its block's
// place plus its rank in the block (or, compacting values, the source's element there:
// `x(mask)` without positions). NaN is nonzero, as MATLAB's find says.

@group(0) @binding(0) var<storage, read> mask: array<{{MASK}}>;
@group(0) @binding(1) var<storage, read_write> counts: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<{{OUT}}>;
// Elements, blocks.
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
var<workgroup> block_count: atomic<u32>;

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

fn count_pass(t: u32, b: u32) {
    let base = b * 1024u + t * 4u;
    if (t == 0u) {
        atomicStore(&block_count, 0u);
    }
    workgroupBarrier();
    let c = flag(base) + flag(base + 1u) + flag(base + 2u) + flag(base + 3u);
    if (c != 0u) {
        atomicAdd(&block_count, c);
    }
    workgroupBarrier();
    if (t == 0u && b < params[1]) {
        counts[b] = atomicLoad(&block_count);
    }
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

fn write_pass(t: u32, b: u32) {
    let base = b * 1024u + t * 4u;
    let f0 = flag(base);
    let f1 = flag(base + 1u);
    let f2 = flag(base + 2u);
    let f3 = flag(base + 3u);
    let c = f0 + f1 + f2 + f3;
    sums[slot(t)] = c;
    workgroupBarrier();
    scan_sums(t);
    if (b >= params[1]) {
        return;
    }
    var at = counts[b] + sums[slot(t)] - c;
    if (f0 == 1u) {
        out[at] = written(base + 0u);
        at = at + 1u;
    }
    if (f1 == 1u) {
        out[at] = written(base + 1u);
        at = at + 1u;
    }
    if (f2 == 1u) {
        out[at] = written(base + 2u);
        at = at + 1u;
    }
    if (f3 == 1u) {
        out[at] = written(base + 3u);
    }
}

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    _ = mask[0];
    _ = counts[0];
    _ = out[0];
    {{TOUCH}}
    let b = wid.x + wid.y * nwg.x;
    {{PASS}}
}
