// sin and cos of singles within 2 ulp (CUDA's documented bound for sinf and cosf), for
// devices whose multiply-adds are fused (after math_f32_fast.wgsl): used only where the
// start-up check (src/gpu/fma_check.rs) found every single within 2 ulp of the f64 route.
// Below 1024, r = x - n pi/2 with pi/2 in three singles, each step one fused multiply-add
// (x less n times the first is exact: both are multiples of 2^-23 and the difference is
// below 2), no low part; past it, `reduce_large32` rounded to one single; NaN and infinities
// give NaN.
fn f_sin_cos(x: f32, cosine: bool) -> f32 {
    let a = abs(x);
    var r: f32;
    var q: u32;
    if (a < 1024.0) {
        let t = keep32(x * 0.6366197466850281 + 12582912.0);
        let n = t - 12582912.0;
        r = fma(-n, 1.5707963705062866, x);
        r = fma(-n, -4.371138828673793e-08, r);
        r = fma(-n, -1.7151245100058819e-15, r);
        q = bitcast<u32>(t);
    } else if (a <= 3.4028234663852886e38) {
        let reduced = reduce_large32(x);
        r = reduced.r;
        q = reduced.q;
    } else {
        return bitcast<f32>(0x7fc00000u);
    }
    return sin_cos_of(x, r, 0.0, q, cosine);
}
