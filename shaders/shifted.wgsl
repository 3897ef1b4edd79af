// The linear index of input `k`'s element for output element `i` where the input is a view
// in the output's own layout (each stride the output's own, `codegen::shifted`): its first
// element plus `i`, no subscripts to find. Added only to kernels that read one.
fn m_shifted(i: u32, k: u32) -> u32 {
    let rank = shape_table[1];
    return shape_table[2u + rank + k * (rank + 1u) + rank] + i;
}
