// Tile ranking for the radix sort's scatter (shaders/sort_pass.wgsl) without subgroup
// operations: two stable 4-bit splits of the tile in workgroup memory, each thread counting
// its ITEMS consecutive entries in 16 packed 16-bit counters, scanned over the threads. The
// entries are digit << 16 | place in the tile; `sd` ends in digit order.

// Each thread's eight packed counter words (padded to nine so threads fall in distinct banks),
// and the 16 runs' totals of each word.
var<workgroup> cnt: array<u32, 2304>;
var<workgroup> cruns: array<u32, 128>;
var<workgroup> tot: array<u32, 8>;
var<workgroup> nstart: array<u32, 16>;
var<workgroup> sd: array<u32, PADDED>;
var<workgroup> sd2: array<u32, PADDED>;

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

fn rank_and_write(t: u32, base: u32, n: u32) {
    for (var j = 0u; j < ITEMS; j = j + 1u) {
        let i = j * 256u + t;
        sd[pad(i)] = (tile_digit(base, n, i) << 16u) | i;
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
