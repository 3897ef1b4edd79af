// The speculative sines' reduction where fma may not be fused (after math_f32_fast.wgsl):
// the general one.
fn reduce_fast32(x: f32) -> Reduced32 {
    return reduce_medium32(x);
}
