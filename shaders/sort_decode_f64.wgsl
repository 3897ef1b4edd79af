// A sorted double decoded from its two key words (shaders/sort_keys.wgsl: the sign bit
// flipped for numbers >= 0, every bit for negatives; complemented for 'descend'). Zero and
// NaN are read from `x` at their place `t1`: their keys do not keep -0's sign or NaN's payload.
fn decoded(p: u32, t1: u32) -> T {
    var kk = (u64(keys[2u * p + 1u]) << 32u) | u64(keys[2u * p]);
    if (params[4] == 1u) {
        kk = ~kk;
    }
    let bits = select(~kk, kk & 0x7ffffffffffffffflu, (kk >> 63u) == 1lu);
    let mag = bits & 0x7ffffffffffffffflu;
    if (mag == 0lu || mag > 0x7ff0000000000000lu) {
        return x[t1];
    }
    return bitcast<f64>(bits);
}
