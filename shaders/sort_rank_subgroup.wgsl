// Tile ranking for the radix sort's scatter (shaders/sort_pass.wgsl) with subgroup
// operations (a warp-level multisplit): subgroup g takes the g-th run of SGS * ITEMS
// elements of the tile, SGS at a time; the lanes holding the same digit find each other
// with eight ballots (one per digit bit), the lowest of them adds their count to the
// subgroup's counter of that digit (16-bit counters, two to a word) and hands the old count
// to the others, each adding the lanes below it. The counters are then summed over the
// subgroups (their runs are in tile order) and over the digits, and each element's place in
// the tile goes straight to its place in digit order (`order16`, 16 bits each: the tile's
// workgroup memory bounds how many tiles a multiprocessor holds, and the loads waited for
// want of them). The write-out reads each element's key again for its digit.

const SGS: u32 = {{SGS}}u;
const NSG: u32 = 256u / {{SGS}}u;

// Subgroup g's 256 counters, two to a word; then, summed, where its elements of a digit
// start among the tile's elements of that digit.
var<workgroup> wh: array<atomic<u32>, NSG * 128u>;
var<workgroup> dcount: array<u32, 256>;
// The tile in digit order: each place's element (its place in the tile), two to a word.
var<workgroup> order16: array<atomic<u32>, TILE / 2u>;

var<private> sg_lane: u32;
var<private> sg_id: u32;

// The lanes of a ballot below this one's.
fn lanes_below() -> vec4<u32> {
    let c = vec4<u32>(0u, 32u, 64u, 96u);
    let l = vec4<u32>(sg_lane);
    let partial = (vec4<u32>(1u) << (l - c)) - vec4<u32>(1u);
    return select(select(partial, vec4<u32>(0u), l <= c), vec4<u32>(0xffffffffu), l >= c + vec4<u32>(32u));
}

fn ones(m: vec4<u32>) -> u32 {
    let c = countOneBits(m);
    return c.x + c.y + c.z + c.w;
}

// The lowest lane set in a non-empty ballot.
fn lowest(m: vec4<u32>) -> u32 {
    if (m.x != 0u) {
        return firstTrailingBit(m.x);
    }
    if (m.y != 0u) {
        return 32u + firstTrailingBit(m.y);
    }
    if (m.z != 0u) {
        return 64u + firstTrailingBit(m.z);
    }
    return 96u + firstTrailingBit(m.w);
}

fn rank_and_write(t: u32, base: u32, n: u32) {
    for (var w = t; w < NSG * 128u; w = w + 256u) {
        atomicStore(&wh[w], 0u);
    }
    for (var w = t; w < TILE / 2u; w = w + 256u) {
        atomicStore(&order16[w], 0u);
    }
    workgroupBarrier();
    let below_mask = lanes_below();
    let first = sg_id * SGS * ITEMS;
    // Each item's digit << 16 | its rank among the subgroup's earlier elements of that digit.
    var ranked: array<u32, ITEMS>;
    for (var j = 0u; j < ITEMS; j = j + 1u) {
        let d = tile_digit(base, n, first + j * SGS + sg_lane);
        var same = subgroupBallot(true);
        for (var bit = 0u; bit < 8u; bit = bit + 1u) {
            let on = ((d >> bit) & 1u) == 1u;
            let voted = subgroupBallot(on);
            same = same & select(~voted, voted, on);
        }
        let below = ones(same & below_mask);
        let shift = (d & 1u) * 16u;
        var earlier = 0u;
        if (below == 0u) {
            earlier = atomicAdd(&wh[sg_id * 128u + (d >> 1u)], ones(same) << shift);
        }
        earlier = subgroupShuffle(earlier, lowest(same));
        ranked[j] = (d << 16u) | (((earlier >> shift) & 0xffffu) + below);
    }
    workgroupBarrier();
    // Over the subgroups, word by word: where subgroup g's elements of each digit start.
    if (t < 128u) {
        var acc = 0u;
        for (var g = 0u; g < NSG; g = g + 1u) {
            let c = atomicLoad(&wh[g * 128u + t]);
            atomicStore(&wh[g * 128u + t], acc);
            acc = acc + c;
        }
        dcount[2u * t] = acc & 0xffffu;
        dcount[2u * t + 1u] = acc >> 16u;
    }
    workgroupBarrier();
    let c = dcount[t];
    lstart[t] = scan256(t, c) - c;
    workgroupBarrier();
    for (var j = 0u; j < ITEMS; j = j + 1u) {
        let e = ranked[j];
        let d = e >> 16u;
        let shift = (d & 1u) * 16u;
        let sub = (atomicLoad(&wh[sg_id * 128u + (d >> 1u)]) >> shift) & 0xffffu;
        let at = lstart[d] + sub + (e & 0xffffu);
        atomicOr(&order16[at >> 1u], (first + j * SGS + sg_lane) << ((at & 1u) * 16u));
    }
    workgroupBarrier();
    for (var j = 0u; j < ITEMS; j = j + 1u) {
        let at = j * 256u + t;
        let i = (atomicLoad(&order16[at >> 1u]) >> ((at & 1u) * 16u)) & 0xffffu;
        let p = base + i;
        if (p < n) {
            let d = digit(p);
            put(goff[d] + at - lstart[d], p);
        }
    }
}
