// The tiled apply pass of shaders/scan.wgsl, added to it only for that pass (its block in
// workgroup memory is declared by the code that adds it, with the block's size).

// `apply_pass` through workgroup memory: the block is read and written by consecutive
// threads at consecutive places (a thread's 16 consecutive elements read and written
// directly are 16 scattered accesses for each instruction of a warp: the stores went at a
// fraction of the bandwidth). The tile is padded a word every 32 so the threads' runs of 16
// fall in distinct banks.
fn tiled(i: u32) -> u32 {
    return i + (i >> 5u);
}

fn apply_tiled_pass(t: u32, w: u32) {
    let nb = max(params[3], 1u);
    let lane = w / nb;
    let b = w % nb;
    let k0 = b * 4096u;
    let l = lane_at(lane);
    for (var j = 0u; j < 16u; j = j + 1u) {
        let i = j * 256u + t;
        tile[tiled(i)] = load(l, k0 + i);
    }
    workgroupBarrier();
    let own = t * 16u;
    var acc = tile[tiled(own)];
    for (var j = 1u; j < 16u; j = j + 1u) {
        acc = combine(acc, tile[tiled(own + j)]);
    }
    part[t] = acc;
    workgroupBarrier();
    scan_part(t);
    // The lane is the workgroup's: this leaves every thread of it or none.
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
    for (var j = 0u; j < 16u; j = j + 1u) {
        run = combine(run, tile[tiled(own + j)]);
        tile[tiled(own + j)] = run;
    }
    workgroupBarrier();
    for (var j = 0u; j < 16u; j = j + 1u) {
        let i = j * 256u + t;
        if (k0 + i < l.len) {
            out[addr(l, k0 + i)] = tile[tiled(i)];
        }
    }
}

