// The high and low words of a * b through one 64-bit product (one wide multiply on GPUs
// that have it; the 16-bit halves of mulhilo_u16.wgsl take about ten operations).
fn m_mulhilo(a: u32, b: u32) -> vec2<u32> {
    let p = u64(a) * u64(b);
    return vec2<u32>(u32(p >> 32u), u32(p & 0xfffffffflu));
}
