// The compaction's write pass (shaders/compact.wgsl) with subgroup operations: subgroup g
// takes the g-th run of PER * SGS elements of the part (of 1024), a subgroup-wide row of SGS at a
// time, so every load and store is one coalesced access. A ballot of each row's flags
// ranks a nonzero among the row's earlier lanes; the subgroups' totals, through workgroup
// memory, place the runs. One barrier a part, where the scan over threads takes five.

const SGS: u32 = {{SGS}}u;
var<workgroup> run_totals: array<u32, 256u / SGS>;
var<private> sg_lane: u32;
var<private> sg_id: u32;

// The nonzero lanes of a ballot below this lane, and all of them.
fn below(voted: vec4<u32>) -> u32 {
    let word = sg_lane / 32u;
    var r = countOneBits(voted[word] & ((1u << (sg_lane % 32u)) - 1u));
    for (var j = 0u; j < word; j = j + 1u) {
        r = r + countOneBits(voted[j]);
    }
    return r;
}

fn all_of(voted: vec4<u32>) -> u32 {
    return countOneBits(voted.x) + countOneBits(voted.y) + countOneBits(voted.z) + countOneBits(voted.w);
}

// No place: the row's element is zero.
const NONE: u32 = 0xffffffffu;

fn write_pass(t: u32, b: u32) {
    let base = b * PART + sg_id * (PER * SGS) + sg_lane;
    // Each row's element's place within the subgroup's run, or NONE.
    var placed: array<u32, PER>;
    var total = 0u;
    for (var k = 0u; k < PER; k = k + 1u) {
        let on = flag(base + k * SGS) == 1u;
        let voted = subgroupBallot(on);
        placed[k] = select(NONE, total + below(voted), on);
        total = total + all_of(voted);
    }
    if (sg_lane == 0u) {
        run_totals[sg_id] = total;
    }
    workgroupBarrier();
    if (b >= params[2]) {
        return;
    }
    var at = part_start(b);
    for (var j = 0u; j < sg_id; j = j + 1u) {
        at = at + run_totals[j];
    }
    for (var k = 0u; k < PER; k = k + 1u) {
        if (placed[k] != NONE) {
            out[at + placed[k]] = written(base + k * SGS);
        }
    }
}
