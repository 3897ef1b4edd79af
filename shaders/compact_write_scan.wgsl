// The compaction's write pass (shaders/compact.wgsl) where the device has no subgroups of
// one size: thread t takes the part's elements t * PER to t * PER + PER - 1, and a scan of
// the threads' counts across the workgroup places them.

fn write_pass(t: u32, b: u32) {
    let base = b * PART + t * PER;
    var c = 0u;
    for (var k = 0u; k < PER; k = k + 1u) {
        c = c + flag(base + k);
    }
    sums[slot(t)] = c;
    workgroupBarrier();
    scan_sums(t);
    if (b >= params[2]) {
        return;
    }
    var at = part_start(b) + sums[slot(t)] - c;
    for (var k = 0u; k < PER; k = k + 1u) {
        if (flag(base + k) == 1u) {
            out[at] = written(base + k);
            at = at + 1u;
        }
    }
}
