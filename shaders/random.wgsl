// ---- The random stream: Philox4x32-10, the host's generator (src/values/rng.rs), so value
// n of a seed is the same number on both sides.

// m_mulhilo (the high and low words of a * b) comes before this file: mulhilo_u16.wgsl,
// or mulhilo_u64.wgsl where the device has 64-bit integers.

fn m_philox(ctr: vec4<u32>, key: vec2<u32>) -> vec4<u32> {
    var c = ctr;
    var k = key;
    for (var r = 0u; r < 10u; r = r + 1u) {
        if (r > 0u) {
            k = k + vec2<u32>(0x9E3779B9u, 0xBB67AE85u);
        }
        let p0 = m_mulhilo(0xD2511F53u, c.x);
        let p1 = m_mulhilo(0xCD9E8D57u, c.z);
        c = vec4<u32>(p1.x ^ c.y ^ k.x, p1.y, p0.x ^ c.w ^ k.y, p0.y);
    }
    return c;
}

// The four words for element i of the block whose seed and offset (low and high words) sit
// at shape_table[p .. p + 4].
fn m_rand_bits(p: u32, i: u32) -> vec4<u32> {
    let lo = shape_table[p + 2u] + i;
    let hi = shape_table[p + 3u] + select(0u, 1u, lo < i);
    return m_philox(vec4<u32>(lo, hi, 0u, 0u), vec2<u32>(shape_table[p], shape_table[p + 1u]));
}
