// The compaction's write pass (shaders/compact.wgsl) with subgroup operations: subgroup g
// takes the g-th run of PER * SGS elements of the part (of 1024), a subgroup-wide row of SGS at a
// time, so every load and store is one coalesced access. A ballot of each row's flags
// ranks a nonzero among the row's earlier lanes; the subgroups' totals, through workgroup
// memory, place the runs. One barrier a part, where the scan over threads takes five.

const SGS: u32 = {{SGS}}u;
var<workgroup> run_totals: array<u32, 256u / SGS>;
var<private> sg_lane: u32;
var<private> sg_id: u32;

// The bits of each word of a ballot that stand for the lanes below this one (selects, not
// branches: lanes differ here).
fn lanes_below() -> vec4<u32> {
    var m: vec4<u32>;
    for (var w = 0u; w < 4u; w = w + 1u) {
        let base = w * 32u;
        let part = select((1u << (sg_lane - base)) - 1u, 0xffffffffu, sg_lane >= base + 32u);
        m[w] = select(part, 0u, sg_lane <= base);
    }
    return m;
}

// The lanes of a ballot that voted, among those in `lanes`. A subgroup of up to 32 lanes
// votes in the first word only: the others are not looked at (SGS is a constant, so the
// compiler drops them).
fn voted_in(voted: vec4<u32>, lanes: vec4<u32>) -> u32 {
    var r = countOneBits(voted.x & lanes.x);
    if (SGS > 32u) {
        r = r + countOneBits(voted.y & lanes.y) + countOneBits(voted.z & lanes.z)
            + countOneBits(voted.w & lanes.w);
    }
    return r;
}

fn write_pass(t: u32, b: u32) {
    let base = b * PART + sg_id * (PER * SGS) + sg_lane;
    let lower = lanes_below();
    let every = vec4<u32>(0xffffffffu);
    // Each row's flag, and its element's place within the subgroup's run.
    var on: array<u32, PER>;
    var place: array<u32, PER>;
    var total = 0u;
    for (var k = 0u; k < PER; k = k + 1u) {
        let f = flag(base + k * SGS);
        let voted = subgroupBallot(f == 1u);
        on[k] = f;
        place[k] = total + voted_in(voted, lower);
        total = total + voted_in(voted, every);
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
        if (on[k] == 1u) {
            out[at + place[k]] = written(base + k * SGS);
        }
    }
}
