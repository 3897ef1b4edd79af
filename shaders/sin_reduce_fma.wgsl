// The speculative sines' reduction, x - n pi/2 = r + r_lo for |x| < 1024 (after
// math_f32_fast.wgsl), on devices whose fma is fused (those that passed the sqrt check,
// src/gpu/sqrt_check.rs): five operations fewer than `reduce_medium32`, which made
// workload 1 (a mean of sines of 1e8 singles) 11% faster on an H100. (The general functions
// keep `reduce_medium32`: with this one behind their branch, workload 2's kernel, which has
// a cosine, was 4% slower there.) n = round(x 2/pi) by adding 1.5 2^23 (whose low bits then
// hold the quadrant); pi/2 = C1 + C2 + C3 with C1 the nearest single (24 bits) and C2 of 14
// bits:
// - fma(-n, C1, x) is exact: x and n C1 are multiples of 2^-24 once |x| >= pi/4 (n = 0
//   below), and the difference is below 1;
// - n C2 is exact (n has at most 10 bits);
// - the difference of those two, r, leaves its rounding error in a fast two-sum: either
//   |r_hi| >= |n C2|, or both are below 2^-14 and multiples of 2^-38, so r is exact.
// Within 1 ulp with sin_cos_of for every single below 1024 (fused multiply-adds, the magic
// rounding fused or not), checked on the host by tests/sin_reduction.rs.
fn reduce_fast32(x: f32) -> Reduced32 {
    let t = keep32(x * 0.6366197466850281 + 12582912.0);
    let n = t - 12582912.0;
    let r_hi = fma(-n, 1.5707963705062866, x);
    let c2 = n * -4.371031536720693e-08;
    let r = keep32(r_hi - c2);
    let r_lo = fma(-n, -1.074634630414406e-12, (r_hi - r) - c2);
    return Reduced32(r, r_lo, bitcast<u32>(t));
}
