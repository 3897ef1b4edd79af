// exp, sin and cos of singles in f32 arithmetic, the default where the device has f64
// (after math_f32_via_f64.wgsl): within 1 ulp of the host's results
// (CUDA documents 2 for its non-fast expf, sinf and cosf), checked on the host over every
// single in range with fused and with unfused multiply-adds, and on lavapipe and the H200
// (tests/gpu_math.rs). math_f32_exact.wgsl computes them in double instead, for results
// identical to the host's at up to three times the GPU time. Vulkan lets a driver fuse or
// split any multiply-add and reassociate sums (NIR and NVIDIA do), so nothing here depends
// on an fma being fused, and sums whose order matters go through keep32 or keep. Sines and
// cosines of large arguments are reduced in integers; exp's outside its range, and its NaN
// and infinities, go to the f64 function.

// x through an integer XOR with an unseen 0, so that no compiler can reassociate across it.
fn keep32(x: f32) -> f32 {
    return bitcast<f32>(bitcast<u32>(x) ^ u32(ZERO_BITS));
}

// x 2/pi = q + f for finite |x| >= 2^10 (Payne and Hanek's reduction, in integers only, so
// it is exact whatever the driver does with floating point and costs the common path no f64
// registers): x = m 2^e with m a 24-bit integer, times the 96 bits of 2/pi from the first
// whose product with m is not a multiple of 4; the integer part mod 4 is q, the next 64 bits
// f (rounded to the nearest quadrant, so |f| <= 1/2), and r = f pi/2 from the high half of
// f times pi/2 in 64-bit fixed point, as a single and what rounding it left.
struct Reduced32 {
    r: f32,
    r_lo: f32,
    q: u32,
}

fn reduce_large32(x: f32) -> Reduced32 {
    // 2/pi in binary, bits 1 to 256.
    var bits = array<u32, 8>(0xa2f9836eu, 0x4e441529u, 0xfc2757d1u, 0xf534ddc0u, 0xdb629599u,
        0x3c439041u, 0xfe5163abu, 0xdebbc561u);
    let b = bitcast<u32>(x) & 0x7fffffffu;
    let m = u64((b & 0x7fffffu) | 0x800000u);
    let e = i32(b >> 23u) - 150;
    let s = u32(max(e - 2, 0));
    let j = s >> 5u;
    let shift = 32u - (s & 31u);
    let w0 = u32(((u64(bits[j]) << 32u) | u64(bits[j + 1u])) >> shift);
    let w1 = u32(((u64(bits[j + 1u]) << 32u) | u64(bits[j + 2u])) >> shift);
    let w2 = u32(((u64(bits[j + 2u]) << 32u) | u64(bits[j + 3u])) >> shift);
    // m times the window: 120 bits, as top (bits 64 up) and low64. The binary point of
    // x 2/pi falls at bit s + 96 - e, k bits into top; f is the 64 bits below it.
    let p2 = m * u64(w2);
    let p1 = m * u64(w1) + (p2 >> 32u);
    let top = m * u64(w0) + (p1 >> 32u);
    let low64 = (p1 << 32u) | (p2 & 0xfffffffflu);
    let k = u32(i32(s) + 32 - e);
    let f = (low64 >> k) | (top << (64u - k));
    var q = (u32(top >> k) + u32(f >> 63u)) & 3u;
    let fs = bitcast<i64>(f);
    let a = select(u64(fs), u64(-fs), fs < 0li);
    // The high 64 bits of a (2^-64 units) times pi/2 (2^-62 units): r in 2^-62 units.
    let pio2 = 0x6487ed5110b4611alu;
    let a1 = a >> 32u;
    let a0 = a & 0xfffffffflu;
    let c1 = pio2 >> 32u;
    let c0 = pio2 & 0xfffffffflu;
    let cross = ((a0 * c0) >> 32u) + ((a0 * c1) & 0xfffffffflu) + ((a1 * c0) & 0xfffffffflu);
    let rn = a1 * c1 + ((a0 * c1) >> 32u) + ((a1 * c0) >> 32u) + (cross >> 32u);
    // As a single and the single that follows it: 24 bits each from the leading one, exact.
    let hi32 = u32(rn >> 32u);
    let lz = select(countLeadingZeros(hi32), 32u + countLeadingZeros(u32(rn)), hi32 == 0u);
    let n = rn << min(lz, 63u);
    let rh = ldexp(f32(u32(n >> 40u)), -22 - i32(lz));
    let rl = ldexp(f32(u32(n >> 16u) & 0xffffffu), -46 - i32(lz));
    var r = keep32(rh + rl);
    var r_lo = rl - keep32(r - rh);
    if (fs < 0li) != (x < 0.0) {
        r = -r;
        r_lo = -r_lo;
    }
    if (x < 0.0) {
        q = (0u - q) & 3u;
    }
    return Reduced32(r, r_lo, q);
}

// sin or cos of x from x - n pi/2 = r + r_lo (|r| <= pi/4) and the quadrant q = n mod 4
// (f_sin_cos reduces), with cephes' minimax
// polynomials and r's low part carried into both: one polynomial, the sine's or the cosine's
// by the quadrant (selecting coefficients costs less than evaluating both): sin r = r +
// (r z p_s + r_lo), cos r = 1 + (z^2 p_c - r r_lo - z/2), with the same roundings as writing
// each out. The sine of |x| < 2^-12 is x itself (NVIDIA flushes subnormal operands, so it
// must not go through arithmetic).
fn sin_cos_of(x: f32, r: f32, r_lo: f32, quadrant: u32, cosine: bool) -> f32 {
    let q = (quadrant + select(0u, 1u, cosine)) & 3u;
    let odd = (q & 1u) == 1u;
    let z = r * r;
    let p = fma(fma(select(-1.9515295891e-4, 2.443315711809948e-5, odd), z,
        select(8.3321608736e-3, -1.388731625493765e-3, odd)), z,
        select(-1.6666654611e-1, 4.166664568298827e-2, odd));
    let m = select(r * z, z * z, odd);
    let tail = select(r_lo, fma(-r, r_lo, -0.5 * z), odd);
    let v = select(r, 1.0, odd) + keep32(fma(m, p, tail));
    let s = select(v, -v, q >= 2u);
    return select(s, x, !cosine && abs(x) < 2.44140625e-4);
}

// x - n pi/2 = r + r_lo for |x| < 1024, whatever the driver does with multiply-adds:
// n = round(x 2/pi) by adding 1.5 2^23 (whose low bits then hold the quadrant), pi/2 in three
// parts (the first two of 14 bits, so n times them is exact; x less the first is exact by
// Sterbenz's lemma; a two-sum keeps what the second's subtraction rounds off).
fn reduce_medium32(x: f32) -> Reduced32 {
    let t = keep32(x * 0.6366197466850281 + 12582912.0);
    let n = t - 12582912.0;
    let r1 = keep32(x - n * 1.57080078125);
    let b = -n * -4.454515874385834e-06;
    let r = keep32(r1 + b);
    let bb = keep32(r - r1);
    let r_lo = fma(-n, 6.07710062827671e-11, (r1 - keep32(r - bb)) + (b - bb));
    return Reduced32(r, r_lo, bitcast<u32>(t));
}

// sin or cos: below 1024 with `reduce_medium32`, past it with `reduce_large32`; NaN and
// infinities give NaN.
fn f_sin_cos(x: f32, cosine: bool) -> f32 {
    let a = abs(x);
    if (a < 1024.0) {
        let reduced = reduce_medium32(x);
        return sin_cos_of(x, reduced.r, reduced.r_lo, reduced.q, cosine);
    }
    if (a <= 3.4028234663852886e38) {
        let reduced = reduce_large32(x);
        return sin_cos_of(x, reduced.r, reduced.r_lo, reduced.q, cosine);
    }
    return bitcast<f32>(0x7fc00000u);
}

// Speculative forms, for reductions that fold a thread's values with them first and again
// with the general functions when FAST_OK has turned false (src/codegen/vector.rs): no
// branch, only the reduction below 1024 (`reduce_fast32`: sin_reduce_fma.wgsl on devices
// whose fma is fused, else `reduce_medium32`), and FAST_OK cleared for any other argument
// (NaN and infinities included). A branch per element, with the large reduction beside it,
// cost workload 1 (a mean of sines) 11% of its GPU time on an H100.
var<private> FAST_OK: bool;

fn f_sin_cos_fast(x: f32, cosine: bool) -> f32 {
    FAST_OK = FAST_OK && abs(x) < 1024.0;
    let reduced = reduce_fast32(x);
    return sin_cos_of(x, reduced.r, reduced.r_lo, reduced.q, cosine);
}

fn m_sin_fast(x: f32) -> f32 {
    return f_sin_cos_fast(x, false);
}

fn m_cos_fast(x: f32) -> f32 {
    return f_sin_cos_fast(x, true);
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
    return exp_in_range(x);
}

fn exp_in_range(x: f32) -> f32 {
    return exp_split(x, 0.0);
}

// exp(x - tail) for |x| < 87 and |tail| small (erfc's exp(-a^2) in two parts): tail joins
// the reduced argument, so only x needs to be a single.
fn exp_split(x: f32, tail: f32) -> f32 {
    let t = keep32(x * 1.4426950408889634 + 12582912.0);
    let n = t - 12582912.0;
    let r = fma(-n, -2.12194440e-4, keep32(x - n * 0.693359375)) - tail;
    let p = fma(fma(fma(fma(fma(1.9875691500e-4, r, 1.3981999507e-3), r, 8.3334519073e-3), r,
        4.1665795894e-2), r, 1.6666665459e-1), r, 5.0000001201e-1);
    let e = keep32(fma(p * r, r, r)) + 1.0;
    return e * bitcast<f32>((bitcast<u32>(t) - 0x4b400000u + 127u) << 23u);
}

// log of a positive normal single: x = m 2^e with m in [sqrt(1/2), sqrt(2)) (from the bits,
// less sqrt(1/2)'s), f = m - 1 (exact), log(1 + f) = f - f^2/2 + f^3 P(f) with P of degree
// 7 fitted to it on that interval (0.12 ulp), and e ln2 in two parts (the first has 15
// bits, so e times it is exact). Over every positive normal single, with fused and with
// unfused multiply-adds, it is within 0.92 ulp of log (so at most 1 ulp from the host's
// result; tests/suite/single_log.rs mirrors it). Zero, negatives, subnormals, Inf and NaN
// go to the f64 function.
fn m_log(x: f32) -> f32 {
    if (!log_serves32(x)) {
        return f32(d_log(wide(x)));
    }
    return log_normal32(x);
}

// log's speculative form (see m_sin_fast).
fn m_log_fast(x: f32) -> f32 {
    FAST_OK = FAST_OK && log_serves32(x);
    return log_normal32(x);
}

// Whether log_normal32 serves x alone: a positive normal single.
fn log_serves32(x: f32) -> bool {
    return bitcast<u32>(x) - 0x00800000u < 0x7f000000u;
}

fn log_normal32(x: f32) -> f32 {
    let ix = bitcast<u32>(x);
    let shifted = ix - 0x3f3504f3u;
    let e = f32(bitcast<i32>(shifted) >> 23u);
    let f = bitcast<f32>((shifted & 0x007fffffu) + 0x3f3504f3u) - 1.0;
    var p = fma(-0.07362867891788483, f, 0.1262032687664032);
    p = fma(p, f, -0.13202103972434998);
    p = fma(p, f, 0.14227114617824554);
    p = fma(p, f, -0.16621370613574982);
    p = fma(p, f, 0.19999825954437256);
    p = fma(p, f, -0.2500085234642029);
    p = fma(p, f, 0.3333335518836975);
    let tail = (f * f) * fma(f, p, -0.5);
    let t = keep32(f + fma(e, 1.4286067653e-06, tail));
    return fma(e, 0.693145751953125, t);
}

// exp's speculative form (see m_sin_fast): no branch to the f64 function.
fn m_exp_fast(x: f32) -> f32 {
    FAST_OK = FAST_OK && abs(x) < 87.0;
    return exp_in_range(x);
}

// A single normal as the host makes it (Box-Muller from two 53-bit uniforms in double, then
// rounded), with the double functions cut to what a single needs: log(u1) from u1 = m 2^e
// with m in [sqrt(1/2), sqrt(2)) as e ln2 + 2 atanh((m - 1)/(m + 1)) to s^11, the division
// and the square root from f32 estimates and one Newton step in f64 (2^-44), cos(2 pi u2)
// from the octant of u2 by Taylor polynomials in f64 (2^-33). Over 4e6 draws (NumPy, the
// same arithmetic) one in a million differs from the host's by 1 ulp; the rest are
// identical. It takes GBM's 1e6 paths x 256 steps from 3.9 to 2.9 ms on the H200 (the f64
// library's general log and cos are most of the rest; bench/loops/RESULTS.md).
fn m_normal(w: vec4<u32>) -> f32 {
    let u1 = d_u53(w.x, w.y);
    let u2 = d_u53(w.z, w.w);
    let bits = bitcast<u64>(u1);
    var e = i32(u32(bits >> 52u) & 0x7ffu) - 1023;
    var m = bitcast<f64>((bits & 0x000ffffffffffffflu) | 0x3ff0000000000000lu);
    if (m > 1.4142135623730951) { m = m * 0.5; e = e + 1; }
    let d = m + 1.0;
    var inv = f64(1.0 / f32(d));
    inv = inv * fma(-d, inv, 2.0);
    let s = (m - 1.0) * inv;
    let z = s * s;
    let p = fma(fma(fma(fma(fma(0.15384615384615385, z, 0.18181818181818182), z, 0.2222222222222222), z, 0.2857142857142857), z, 0.4), z, 0.6666666666666666);
    let x = -2.0 * (f64(e) * 0.6931471805599453 + fma(s * z, p, 2.0 * s));
    var y = f64(inverseSqrt(f32(x)));
    y = y * fma(-0.5 * x * y, y, 1.5);
    let r = x * y;
    let a = abs(u2 - round(u2));
    var c: f64;
    if (a <= 0.125) {
        let q = a * a;
        c = fma(fma(fma(fma(fma(fma(7.903536371318465, q, -26.426256783374388), q, 60.24464137187664), q, -85.45681720669371), q, 64.93939402266828), q, -19.739208802178716), q, 1.0);
    } else if (a <= 0.375) {
        let b = 0.25 - a;
        let q = b * b;
        c = b * fma(fma(fma(fma(fma(fma(3.8199525848482803, q, -15.094642576822984), q, 42.058693944897634), q, -76.70585975306136), q, 81.60524927607504), q, -41.341702240399755), q, 6.283185307179586);
    } else {
        let b = 0.5 - a;
        let q = b * b;
        c = -fma(fma(fma(fma(fma(fma(7.903536371318465, q, -26.426256783374388), q, 60.24464137187664), q, -85.45681720669371), q, 64.93939402266828), q, -19.739208802178716), q, 1.0);
    }
    return f32(r * c);
}
