// The compaction's write pass (shaders/compact.wgsl) with subgroup operations: subgroup g
// takes the g-th run of PER * SGS elements of the part (of 1024), a subgroup-wide row of SGS at a
// time, so every load and store is one coalesced access. A ballot of each row's flags
// ranks a nonzero among the row's earlier lanes; the subgroups' totals, through workgroup
// memory, place the runs. One barrier a part, where the scan over threads takes five.

const SGS: u32 = {{SGS}}u;
var<workgroup> run_totals: array<u32, 256u / SGS>;
var<private> sg_lane: u32;
var<private> sg_id: u32;

// The bits of a ballot's word `word` that stand for lanes below this one.
fn lanes_below(word: u32) -> u32 {
    let base = word * 32u;
    if (sg_lane <= base) {
        return 0u;
    }
    if (sg_lane >= base + 32u) {
        return 0xffffffffu;
    }
    return (1u << (sg_lane - base)) - 1u;
}

// The nonzero lanes of a ballot below this lane, and all of them. A subgroup of up to 32
// lanes votes in the first word only: the others are not looked at (SGS is a constant, so
// the compiler drops them), and no word is picked by a computed index.
fn below(voted: vec4<u32>) -> u32 {
    var r = countOneBits(voted.x & lanes_below(0u));
    if (SGS > 32u) {
        r = r + countOneBits(voted.y & lanes_below(1u)) + countOneBits(voted.z & lanes_below(2u))
            + countOneBits(voted.w & lanes_below(3u));
    }
    return r;
}

fn all_of(voted: vec4<u32>) -> u32 {
    var r = countOneBits(voted.x);
    if (SGS > 32u) {
        r = r + countOneBits(voted.y) + countOneBits(voted.z) + countOneBits(voted.w);
    }
    return r;
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
