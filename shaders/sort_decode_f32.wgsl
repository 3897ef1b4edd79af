// A sorted single decoded from its key (shaders/sort_keys.wgsl: the sign bit flipped for
// numbers >= 0, every bit for negatives; complemented for 'descend'). Zero and NaN are read
// from `x` at their place `t1`: their keys do not keep -0's sign or NaN's payload.
fn decoded(p: u32, t1: u32) -> T {
    var kk = keys[p];
    if (params[4] == 1u) {
        kk = ~kk;
    }
    let bits = select(~kk, kk & 0x7fffffffu, (kk >> 31u) == 1u);
    let mag = bits & 0x7fffffffu;
    if (mag == 0u || mag > 0x7f800000u) {
        return x[t1];
    }
    return bitcast<f32>(bits);
}
