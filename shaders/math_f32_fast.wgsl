// exp, sin and cos of singles in f32 arithmetic, the default where the device has f64
// (after math_f32_via_f64.wgsl): within 1 ulp of the host's results (CUDA documents 2 for
// its non-fast expf, sinf and cosf), checked on the host over every single in range with
// fused and with unfused multiply-adds, and on lavapipe and the H200 (tests/gpu_math.rs).
// math_f32_exact.wgsl computes them in double instead, for results identical to the host's
// at up to three times the GPU time. Vulkan lets a driver fuse or split any multiply-add and
// reassociate sums (NIR and NVIDIA do), so nothing here depends on an fma being fused, and
// sums whose order matters go through keep32 or keep. Arguments outside the reductions'
// range, NaN and infinities go to the f64 functions.

// x through an integer XOR with an unseen 0, so that no compiler can reassociate across it.
fn keep32(x: f32) -> f32 {
    return bitcast<f32>(bitcast<u32>(x) ^ u32(ZERO_BITS));
}

// sin or cos: r = x - n pi/2 as a sum of two singles, then cephes' minimax polynomials on
// |r| <= pi/4 with r's low part carried into both. Below 1024, all in f32: n = round(x 2/pi)
// by adding 1.5 2^23 (whose low bits then hold the quadrant), pi/2 in three parts (the first
// two of 14 bits, so n times them is exact; x less the first is exact by Sterbenz's lemma;
// a two-sum keeps what the second's subtraction rounds off). Up to 2^17, the same in double
// (kept apart: NVIDIA's compiler factored n out of the two products, 18 ulp off near
// multiples of pi/2; a conversion costs the GPU as much as eight f32 operations, so that
// range is off the common path); past it, NaN and infinities, the f64 functions. The sine
// of |x| < 2^-12 is x itself (NVIDIA flushes subnormal operands, so it must not go through
// arithmetic).
fn f_sin_cos(x: f32, cosine: bool) -> f32 {
    let a = abs(x);
    var r: f32;
    var r_lo: f32;
    var q: u32;
    if (a < 1024.0) {
        let t = keep32(x * 0.6366197466850281 + 12582912.0);
        let n = t - 12582912.0;
        let r1 = keep32(x - n * 1.57080078125);
        let b = -n * -4.454515874385834e-06;
        r = keep32(r1 + b);
        let bb = keep32(r - r1);
        r_lo = fma(-n, 6.07710062827671e-11, (r1 - keep32(r - bb)) + (b - bb));
        q = bitcast<u32>(t);
    } else if (a < 131072.0) {
        let xd = f64(x);
        let n = round(xd * 0.6366197723675814);
        let rd = keep(xd - n * 1.5707963267341256) - n * 6.077100506303966e-11;
        r = f32(rd);
        r_lo = f32(rd - f64(r));
        q = bitcast<u32>(i32(n));
    } else if (cosine) {
        return f32(d_cos(wide(x)));
    } else {
        return f32(d_sin(wide(x)));
    }
    // One polynomial, the sine's or the cosine's by the quadrant (selecting coefficients costs
    // less than evaluating both): sin r = r + (r z p_s + r_lo), cos r = 1 + (z^2 p_c - r r_lo
    // - z/2), with the same roundings as writing each out.
    q = (q + select(0u, 1u, cosine)) & 3u;
    let odd = (q & 1u) == 1u;
    let z = r * r;
    let p = fma(fma(select(-1.9515295891e-4, 2.443315711809948e-5, odd), z,
        select(8.3321608736e-3, -1.388731625493765e-3, odd)), z,
        select(-1.6666654611e-1, 4.166664568298827e-2, odd));
    let m = select(r * z, z * z, odd);
    let tail = select(r_lo, fma(-r, r_lo, -0.5 * z), odd);
    let v = select(r, 1.0, odd) + keep32(fma(m, p, tail));
    let s = select(v, -v, q >= 2u);
    return select(s, x, !cosine && a < 2.44140625e-4);
}

fn m_sin(x: f32) -> f32 {
    return f_sin_cos(x, false);
}

fn m_cos(x: f32) -> f32 {
    return f_sin_cos(x, true);
}

// exp for |x| < 87 (results normal singles): n = round(x / ln2) by adding 1.5 2^23 (whose
// low bits then are n), r = x - n ln2 in two steps (cephes' split: the first part has 9 bits,
// so n times it, and x less that, are exact), cephes' degree-7 polynomial, small terms first,
// times 2^n from its bits; the f64 function for the rest (overflow, subnormal results, NaN).
fn m_exp(x: f32) -> f32 {
    if (!(abs(x) < 87.0)) {
        return f32(d_exp(wide(x)));
    }
    let t = keep32(x * 1.4426950408889634 + 12582912.0);
    let n = t - 12582912.0;
    let r = fma(-n, -2.12194440e-4, keep32(x - n * 0.693359375));
    let p = fma(fma(fma(fma(fma(1.9875691500e-4, r, 1.3981999507e-3), r, 8.3334519073e-3), r,
        4.1665795894e-2), r, 1.6666665459e-1), r, 5.0000001201e-1);
    let e = keep32(fma(p * r, r, r)) + 1.0;
    return e * bitcast<f32>((bitcast<u32>(t) - 0x4b400000u + 127u) << 23u);
}
