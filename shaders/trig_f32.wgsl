// sin and cos of singles within 1 ulp whatever the driver does with multiply-adds (the
// default; after math_f32_fast.wgsl). r = x - n pi/2 as a sum of two singles: below 1024,
// n = round(x 2/pi) by adding 1.5 2^23 (whose low bits then hold the quadrant), pi/2 in three
// parts (the first two of 14 bits, so n times them is exact; x less the first is exact by
// Sterbenz's lemma; a two-sum keeps what the second's subtraction rounds off). Past it,
// `reduce_large32`; NaN and infinities give NaN.
fn f_sin_cos(x: f32, cosine: bool) -> f32 {
    let a = abs(x);
    if (a < 1024.0) {
        let t = keep32(x * 0.6366197466850281 + 12582912.0);
        let n = t - 12582912.0;
        let r1 = keep32(x - n * 1.57080078125);
        let b = -n * -4.454515874385834e-06;
        let r = keep32(r1 + b);
        let bb = keep32(r - r1);
        let r_lo = fma(-n, 6.07710062827671e-11, (r1 - keep32(r - bb)) + (b - bb));
        return sin_cos_of(x, r, r_lo, bitcast<u32>(t), cosine);
    }
    if (a <= 3.4028234663852886e38) {
        let reduced = reduce_large32(x);
        return sin_cos_of(x, reduced.r, reduced.r_lo, reduced.q, cosine);
    }
    return bitcast<f32>(0x7fc00000u);
}
