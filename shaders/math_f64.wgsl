// Double-precision functions built from arithmetic alone: the drivers' f64 sin, exp, log,
// atan... compile but return garbage (shared/gpu/NOTES.md). Each reduces its argument
// exactly or in double-double, then sums a short series; tests hold every one within 2 ulp
// of Rust's std over wide ranges, with Inf, NaN and -0 as IEEE says.

// NaN and infinity are read from the bits (64-bit integers; naga has no f64 bitcast to
// vec2<u32>), since drivers may fold x != x to false.
fn m_isnan(x: f64) -> bool {
    return (bitcast<u64>(x) & 0x7ffffffffffffffflu) > 0x7ff0000000000000lu;
}

fn m_isinf(x: f64) -> bool {
    return (bitcast<u64>(x) & 0x7ffffffffffffffflu) == 0x7ff0000000000000lu;
}

fn m_nan() -> f64 {
    return bitcast<f64>(0x7ff8000000000000lu);
}

// Whether x is negative, -0 included.
fn m_signbit(x: f64) -> bool {
    return (bitcast<u64>(x) >> 63u) == 1lu;
}

// Compilers may simplify (a + b) - a to b (Mesa's NIR does: SPIR-V without NoContraction
// is inexact), which erases the rounding error that two-sums and splits measure. keep()
// passes a value through an integer XOR with a 0 the compiler cannot see (read from the
// shape table by m_init), so a rounded result stays as computed. (Multiplying by an unseen
// 1 was not enough: NIR factors x*1 + y*1 into (x + y)*1 and then cancels inside.)
var<private> ZERO_BITS: u64;

fn m_init(rank: u32) {
    ZERO_BITS = u64(1u - min(rank, 1u));
}

// x rounded toward zero from floor and ceil: lavapipe (LLVM 15, on some processors) left
// doubles past 2^23 unchanged in trunc.
fn trunc64(x: f64) -> f64 {
    return select(ceil(x), floor(x), x >= 0.0);
}

fn keep(x: f64) -> f64 {
    return bitcast<f64>(bitcast<u64>(x) ^ ZERO_BITS);
}

// Random doubles as the host makes them (src/values/rng.rs): 53 bits centred in their
// interval; Box-Muller from two of them; randi's integers from one.
fn m_u53(w0: u32, w1: u32) -> f64 {
    return (f64(w0) * 2097152.0 + f64(w1 >> 11u) + 0.5) * 1.1102230246251565e-16;
}

fn m_uniform(w: vec4<u32>) -> f64 {
    return m_u53(w.x, w.y);
}

fn m_normal(w: vec4<u32>) -> f64 {
    return sqrt(-2.0 * m_log(m_u53(w.x, w.y))) * m_cos(6.283185307179586 * m_u53(w.z, w.w));
}

fn m_randi(w: vec4<u32>, lo: f64, span: f64) -> f64 {
    return lo + min(floor(m_u53(w.x, w.y) * span), span - 1.0);
}

const PIO2_HI: f64 = 1.5707963267948966;
const PIO2_LO: f64 = 6.123233995736766e-17;
const PI_HI: f64 = 3.141592653589793;
const PI_LO: f64 = 1.2246467991473532e-16;
// ln 2 in two parts; k * LN2_HI is exact for any exponent k.
const LN2_HI: f64 = 6.93147180369123816490e-01;
const LN2_LO: f64 = 1.90821492927058770002e-10;

// s + err == a + b exactly (Knuth's two-sum).
fn two_sum(a: f64, b: f64) -> vec2<f64> {
    let s = keep(a + b);
    let bb = keep(s - a);
    return vec2<f64>(s, keep(a - keep(s - bb)) + keep(b - bb));
}

// p + err == a * b exactly (Dekker's product with Veltkamp's split). Not fma: SPIR-V lets
// drivers compute fma as a rounded multiply and add, and lavapipe does.
fn two_prod(a: f64, b: f64) -> vec2<f64> {
    let ca = keep(134217729.0 * a);
    let ah = keep(ca - keep(ca - a));
    let al = keep(a - ah);
    let cb = keep(134217729.0 * b);
    let bh = keep(cb - keep(cb - b));
    let bl = keep(b - bh);
    let p = keep(a * b);
    return vec2<f64>(p, ((ah * bh - p) + ah * bl + al * bh) + al * bl);
}

// exp: x = k ln2 + r with ln2 in two parts, a degree-10 rational form for exp(r) (the
// classic fdlibm scheme), then 2^k in two steps so results near the bottom keep their scale.
fn m_exp(x: f64) -> f64 {
    if (m_isnan(x)) {
        return x;
    }
    if (x > 709.782712893384) {
        return x * 1e308;
    }
    if (x < -745.1332191019412) {
        return f64(0.0);
    }
    return exp_of_finite(x);
}

// exp of an x within [-745.13, 709.78] (m_exp's range checks passed).
fn exp_of_finite(x: f64) -> f64 {
    let k = floor(x * 1.4426950408889634 + 0.5);
    let hi = x - k * LN2_HI;
    let lo = k * LN2_LO;
    let r = hi - lo;
    let t = r * r;
    let c = r - t * (1.66666666666666019037e-01 + t * (-2.77777777770155933842e-03
        + t * (6.61375632143793436117e-05 + t * (-1.65339022054652515390e-06
        + t * 4.13813679705723846039e-08))));
    let y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
    let k1 = i32(k) / 2;
    return ldexp(ldexp(y, k1), i32(k) - k1);
}

// expm1: the same reduction, the Taylor series of expm1(r) (|r| < 0.52, 16 terms), the
// reduction's rounding added back, then 2^k (1 + e) - 1 arranged to stay exact.
fn m_expm1(x: f64) -> f64 {
    if (m_isnan(x)) {
        return x;
    }
    if (x > 709.782712893384) {
        return x * 1e308;
    }
    if (x < -38.0) {
        return f64(-1.0);
    }
    if (abs(x) < 5.551115123125783e-17) {
        return x;
    }
    // Below 0.52 no reduction: 2 r + ... - 1 would cancel (the series is long enough).
    let k = select(floor(x * 1.4426950408889634 + 0.5), 0.0, abs(x) < 0.52);
    let hi = x - k * LN2_HI;
    let lo = k * LN2_LO;
    let r = keep(hi - lo);
    let c = (hi - r) - lo;
    let z = r * r;
    let p = 0.16666666666666666 + r * (0.041666666666666664 + r * (0.008333333333333333
        + r * (0.001388888888888889 + r * (0.0001984126984126984 + r * (2.48015873015873e-05
        + r * (2.7557319223985893e-06 + r * (2.755731922398589e-07 + r * (2.505210838544172e-08
        + r * (2.08767569878681e-09 + r * (1.6059043836821613e-10
        + r * (1.1470745597729725e-11 + r * (7.647163731819816e-13
        + r * 4.779477332387385e-14))))))))))));
    var e = r + (0.5 * z + z * r * p);
    e = e + c * (1.0 + e);
    let ki = i32(k);
    if (ki == 0) {
        return e;
    }
    if (ki < -1 || ki > 56) {
        let k1 = ki / 2;
        return ldexp(ldexp(1.0 + e, k1), ki - k1) - 1.0;
    }
    return ldexp(e, ki) + (ldexp(f64(1.0), ki) - 1.0);
}

// cosh from exp: (e + 1/e)/2; e/2 once 1/e no longer counts; near exp's overflow,
// exp(a - 709) * (exp(709)/2), where a - 709 is exact.
fn m_cosh(x: f64) -> f64 {
    let a = abs(x);
    if (a > 709.0) {
        return m_exp(a - 709.0) * 4.1092037307774862e307;
    }
    let e = m_exp(a);
    if (a > 20.0) {
        return 0.5 * e;
    }
    return 0.5 * (e + 1.0 / e);
}

// sinh: its series below 1, then (E + E/(E+1))/2 with E = expm1(|x|), then exp(|x|)/2.
fn m_sinh(x: f64) -> f64 {
    if (m_isnan(x)) {
        return x;
    }
    let a = abs(x);
    var s: f64;
    if (a < 7.450580596923828e-09) {
        return x;
    } else if (a < 1.0) {
        // The Taylor series (to a^21) is more exact here than any form from expm1.
        let z = a * a;
        s = a + a * z * (0.16666666666666666 + z * (0.008333333333333333
            + z * (0.0001984126984126984 + z * (2.7557319223985893e-06
            + z * (2.505210838544172e-08 + z * (1.6059043836821613e-10
            + z * (7.647163731819816e-13 + z * (2.8114572543455206e-15
            + z * (8.22063524662433e-18 + z * 1.9572941063391263e-20)))))))));
    } else if (a < 22.0) {
        let e = m_expm1(a);
        s = 0.5 * (e + e / (e + 1.0));
    } else if (a <= 709.0) {
        s = 0.5 * m_exp(a);
    } else {
        s = m_exp(a - 709.0) * 4.1092037307774862e307;
    }
    return select(s, -s, x < 0.0);
}

// tanh from expm1: 1 - 2/(expm1(2a) + 2) for a >= 1, E/(E + 2) with E = expm1(2a) below.
fn m_tanh(x: f64) -> f64 {
    if (m_isnan(x)) {
        return x;
    }
    let a = abs(x);
    var t: f64;
    if (a < 7.450580596923828e-09) {
        return x;
    } else if (a >= 22.0) {
        t = 1.0;
    } else if (a >= 1.0) {
        t = 1.0 - 2.0 / (m_expm1(2.0 * a) + 2.0);
    } else {
        // e / (e + 2) with the sum and the quotient's roundings corrected.
        let e = m_expm1(2.0 * a);
        let dh = keep(e + 2.0);
        let dl = (2.0 - dh) + e;
        let q = e / dh;
        let qd = two_prod(q, dh);
        t = q + (((e - qd.x) - qd.y) - q * dl) / dh;
    }
    return select(t, -t, x < 0.0);
}

// log: x = 2^k m with m in [sqrt(2)/2, sqrt(2)), f = m - 1 (exact), s = f/(2 + f);
// log(1 + f) = f - f^2/2 + s (f^2/2 + R), R the series of 2 atanh(s)/s - 2 in s^2.
// x = 2^k m with m in (sqrt(1/2), sqrt(2)], for finite x > 0 (subnormals scaled first):
// (m, k). The reduction of every logarithm here.
fn log_reduce(x: f64) -> vec2<f64> {
    var bits = bitcast<u64>(x);
    var k = 0;
    if (bits < 0x0010000000000000lu) {
        bits = bitcast<u64>(x * 18014398509481984.0);
        k = -54;
    }
    k = k + i32(bits >> 52u) - 1023;
    var m = bitcast<f64>((bits & 0x000ffffffffffffflu) | 0x3ff0000000000000lu);
    if (m > 1.4142135623730951) {
        m = m * 0.5;
        k = k + 1;
    }
    return vec2<f64>(m, f64(k));
}

fn m_log(x: f64) -> f64 {
    if (m_isnan(x) || m_isinf(x) && x > 0.0) {
        return x;
    }
    if (x < 0.0) {
        return m_nan();
    }
    if (x == 0.0) {
        return bitcast<f64>(0xfff0000000000000lu);
    }
    let mk = log_reduce(x);
    let f = mk.x - 1.0;
    let s = f / (2.0 + f);
    let z = s * s;
    let r = z * (0.6666666666666666 + z * (0.4 + z * (0.2857142857142857 + z * (0.2222222222222222
        + z * (0.18181818181818182 + z * (0.15384615384615385 + z * (0.13333333333333333
        + z * (0.11764705882352941 + z * (0.10526315789473684 + z * (0.09523809523809523
        + z * (0.08695652173913043 + z * 0.08)))))))))));
    let hfsq = 0.5 * f * f;
    let dk = mk.y;
    return dk * LN2_HI - ((hfsq - (s * (hfsq + r) + dk * LN2_LO)) - f);
}

// ---- sin, cos, tan: x = q pi/2 + (r + rl) with |r| <= pi/4, then a Taylor kernel.

struct Reduced {
    r: f64,
    rl: f64,
    q: u32,
}

// pi/2 in four parts of 33, 33, 33 and 53 bits: n * part is exact for n < 2^20.
const RP1: f64 = 1.5707963267341256;
const RP2: f64 = 6.077100506303966e-11;
const RP3: f64 = 2.0222662487111665e-21;
const RP4: f64 = 8.4784276603689e-32;

// The bits of 2/pi after the point, 32 at a time (enough for any double's exponent).
const TWO_OVER_PI: array<u32, 40> = array<u32, 40>(
    0xa2f9836eu, 0x4e441529u, 0xfc2757d1u, 0xf534ddc0u, 0xdb629599u, 0x3c439041u,
    0xfe5163abu, 0xdebbc561u, 0xb7246e3au, 0x424dd2e0u, 0x06492eeau, 0x09d1921cu,
    0xfe1deb1cu, 0xb129a73eu, 0xe88235f5u, 0x2ebb4484u, 0xe99c7026u, 0xb45f7e41u,
    0x3991d639u, 0x835339f4u, 0x9c845f8bu, 0xbdf9283bu, 0x1ff897ffu, 0xde05980fu,
    0xef2f118bu, 0x5a0a6d1fu, 0x6d367ecfu, 0x27cb09b7u, 0x4f463f66u, 0x9e5fea2du,
    0x7527bac7u, 0xebe5f17bu, 0x3d0739f7u, 0x8a5292eau, 0x6bfb5fb1u, 0x1f8d5d08u,
    0x56033046u, 0xfc7b6babu, 0xf0cfbc20u, 0x9af4361du);

// |x| < 2^20 pi/2: n = round(x 2/pi), x - n pi/2 with the four parts and two-sums.
fn rem_pio2_medium(ax: f64) -> Reduced {
    let n = floor(ax * 0.6366197723675814 + 0.5);
    let y = ax - n * RP1;
    let s1 = two_sum(y, -(n * RP2));
    let s2 = two_sum(s1.x, -(n * RP3));
    let tail = (s1.y + s2.y) - n * RP4;
    let r = keep(s2.x + tail);
    return Reduced(r, tail - (r - s2.x), u32(n) & 3u);
}

// Bits pos .. pos+31 of a 288-bit number held in nine 32-bit limbs, lowest first.
fn limb_bits(l: ptr<function, array<u32, 9>>, pos: u32) -> u32 {
    let w = pos / 32u;
    let sh = pos % 32u;
    let lo = (*l)[w] >> sh;
    if (sh == 0u || w >= 8u) {
        return lo;
    }
    return lo | ((*l)[w + 1u] << (32u - sh));
}

// Payne-Hanek for large |x| = m 2^s (m a 53-bit integer): the product of m with a 224-bit
// window of 2/pi, in integers, gives the quadrant and 128 bits of the fraction exactly.
fn rem_pio2_large(ax: f64) -> Reduced {
    let bits = bitcast<u64>(ax);
    let s = i32((bits >> 52u) & 0x7fflu) - 1075;
    let m = (bits & 0x000ffffffffffffflu) | 0x0010000000000000lu;
    let a0 = u32(m & 0xfffffffflu);
    let a1 = u32(m >> 32u);
    var k0 = 0;
    if (s > 2) {
        k0 = (s - 2) / 32;
    }
    let t = s - 32 * k0;
    var l: array<u32, 9>;
    var carry = 0lu;
    for (var j = 0; j < 7; j = j + 1) {
        let p = u64(a0) * u64(TWO_OVER_PI[k0 + 6 - j]) + u64(l[j]) + carry;
        l[j] = u32(p & 0xfffffffflu);
        carry = p >> 32u;
    }
    l[7] = u32(carry);
    carry = 0lu;
    for (var j = 0; j < 7; j = j + 1) {
        let p = u64(a1) * u64(TWO_OVER_PI[k0 + 6 - j]) + u64(l[j + 1]) + carry;
        l[j + 1] = u32(p & 0xfffffffflu);
        carry = p >> 32u;
    }
    l[8] = u32(carry);
    // The product times 2^(t - 224): its units bit is bit 224 - t.
    let b0 = u32(224 - t);
    var q = limb_bits(&l, b0) & 3u;
    var f3 = limb_bits(&l, b0 - 32u);
    var f2 = limb_bits(&l, b0 - 64u);
    var f1 = limb_bits(&l, b0 - 96u);
    var f0 = limb_bits(&l, b0 - 128u);
    let negative = f3 >= 0x80000000u;
    if (negative) {
        // A fraction of 1/2 or more becomes -(1 - f) in the next quadrant.
        q = (q + 1u) & 3u;
        f0 = ~f0 + 1u;
        f1 = ~f1 + select(0u, 1u, f0 == 0u);
        f2 = ~f2 + select(0u, 1u, f0 == 0u && f1 == 0u);
        f3 = ~f3 + select(0u, 1u, f0 == 0u && f1 == 0u && f2 == 0u);
    }
    let v3 = f64(f3) * 2.3283064365386963e-10;
    let v2 = f64(f2) * 5.421010862427522e-20;
    let v1 = f64(f1) * 1.262177448353619e-29;
    let v0 = f64(f0) * 2.938735877055719e-39;
    let hi = keep(v3 + v2);
    let lo = ((v3 - hi) + v2) + (v1 + v0);
    // (hi + lo) pi/2 in double-double.
    let ph = keep(hi * PIO2_HI);
    let pl = two_prod(hi, PIO2_HI).y + (hi * PIO2_LO + lo * PIO2_HI);
    let r = keep(ph + pl);
    let rl = pl - (r - ph);
    return Reduced(select(r, -r, negative), select(rl, -rl, negative), q);
}

fn rem_pio2(x: f64) -> Reduced {
    let ax = abs(x);
    if (ax <= 0.7853981633974483) {
        return Reduced(x, f64(0.0), 0u);
    }
    var red: Reduced;
    if (ax < 1647099.3291652855) {
        red = rem_pio2_medium(ax);
    } else {
        red = rem_pio2_large(ax);
    }
    if (x < 0.0) {
        red.r = -red.r;
        red.rl = -red.rl;
        red.q = (4u - red.q) & 3u;
    }
    return red;
}

// sin(r + rl) for |r| <= pi/4 as a double-double: Taylor to r^17 (the next term is under
// 1e-19), r plus a small correction.
fn k_sin2(r: f64, rl: f64) -> vec2<f64> {
    let z = r * r;
    let p = 0.008333333333333333 + z * (-0.0001984126984126984 + z * (2.7557319223985893e-06
        + z * (-2.505210838544172e-08 + z * (1.6059043836821613e-10 + z * (-7.647163731819816e-13
        + z * 2.8114572543455206e-15)))));
    let corr = rl * (1.0 - 0.5 * z) + z * r * (-0.16666666666666666 + z * p);
    let h = keep(r + corr);
    return vec2<f64>(h, corr - (h - r));
}

// cos(r + rl) for |r| <= pi/4 as a double-double: 1 - r^2/2 formed exactly (r^2 and its
// rounding error), then Taylor to r^18.
fn k_cos2(r: f64, rl: f64) -> vec2<f64> {
    let z = r * r;
    let hz = 0.5 * z;
    let w = keep(1.0 - hz);
    let q = 0.041666666666666664 + z * (-0.001388888888888889 + z * (2.48015873015873e-05
        + z * (-2.755731922398589e-07 + z * (2.08767569878681e-09 + z * (-1.1470745597729725e-11
        + z * (4.779477332387385e-14 + z * -1.5619206968586225e-16))))));
    // r^2 is rounded: its error (exact, by two_prod) goes into the tail.
    let zl = two_prod(r, r).y;
    let tail = ((1.0 - w) - hz) + (z * z * q - (r * rl + 0.5 * zl));
    let h = keep(w + tail);
    return vec2<f64>(h, tail - (h - w));
}

fn k_sin(r: f64, rl: f64) -> f64 {
    return k_sin2(r, rl).x;
}

fn k_cos(r: f64, rl: f64) -> f64 {
    return k_cos2(r, rl).x;
}

// sin (quadrant offset 0) or cos (1) for 2^-27 <= |x| < 1e5, within 1 ulp, not double-double:
// x - n pi/2 with three of the parts above (each n RPk exact), its rounding error kept as a
// tail t, then Taylor-like kernels with the tail's first-order term (fdlibm's coefficients).
// Both kernels run and one is chosen, since neighbouring elements fall in different
// quadrants. Half the GPU time of the double-double path (H200: 0.44 against 0.86 ms for 1e8
// values), which stays for larger x and, where .y is 0, for x within 1e-9 of a multiple of
// pi/2 (the fourth part, up to 6e-27 here, would then matter).
fn sin_cos_near(x: f64, offset: u32) -> vec2<f64> {
    let n = floor(x * 0.6366197723675814 + 0.5);
    let y = x - n * RP1;
    let w = n * RP2;
    let r0 = y - w;
    let t0 = ((y - r0) - w) - n * RP3;
    let r = r0 + t0;
    let t = t0 - (r - r0);
    let z = r * r;
    let v = z * r;
    let p = 8.33333333332248946124e-03 + z * (-1.98412698298579493134e-04
        + z * (2.75573137070700676789e-06 + z * (-2.50507602534068634195e-08
        + z * 1.58969099521155010221e-10)));
    let s = r - ((z * (0.5 * t - v * p) - t) + v * 1.66666666666666324348e-01);
    let cq = z * (4.16666666666666019037e-02 + z * (-1.38888888888741095749e-03
        + z * (2.48015872894767294178e-05 + z * (-2.75573143513906633035e-07
        + z * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11)))));
    let hz = 0.5 * z;
    let hw = 1.0 - hz;
    let c = hw + (((1.0 - hw) - hz) + (z * cq - r * t));
    let q = (bitcast<u32>(i32(n)) + offset) & 3u;
    let sc = select(s, c, (q & 1u) == 1u);
    return vec2<f64>(select(sc, -sc, q >= 2u), select(f64(0.0), f64(1.0), abs(r) > 1e-9));
}

fn m_sin(x: f64) -> f64 {
    if (m_isnan(x) || m_isinf(x)) {
        return m_nan();
    }
    if (abs(x) < 7.450580596923828e-09) {
        return x;
    }
    if (abs(x) < 100000.0) {
        let near = sin_cos_near(x, 0u);
        if (near.y == 1.0) {
            return near.x;
        }
    }
    let d = rem_pio2(x);
    switch d.q {
        case 0u: { return k_sin(d.r, d.rl); }
        case 1u: { return k_cos(d.r, d.rl); }
        case 2u: { return -k_sin(d.r, d.rl); }
        default: { return -k_cos(d.r, d.rl); }
    }
}

fn m_cos(x: f64) -> f64 {
    if (m_isnan(x) || m_isinf(x)) {
        return m_nan();
    }
    if (abs(x) < 7.450580596923828e-09) {
        return f64(1.0);
    }
    if (abs(x) < 100000.0) {
        let near = sin_cos_near(x, 1u);
        if (near.y == 1.0) {
            return near.x;
        }
    }
    let d = rem_pio2(x);
    switch d.q {
        case 0u: { return k_cos(d.r, d.rl); }
        case 1u: { return -k_sin(d.r, d.rl); }
        case 2u: { return -k_cos(d.r, d.rl); }
        default: { return k_sin(d.r, d.rl); }
    }
}

// tan = sin/cos of the reduced argument (-cos/sin in odd quadrants), both double-doubles,
// divided in double-double.
fn m_tan(x: f64) -> f64 {
    if (m_isnan(x) || m_isinf(x)) {
        return m_nan();
    }
    if (abs(x) < 7.450580596923828e-09) {
        return x;
    }
    let d = rem_pio2(x);
    let s = k_sin2(d.r, d.rl);
    let c = k_cos2(d.r, d.rl);
    let odd = (d.q & 1u) == 1u;
    let num = select(s, -c, odd);
    let den = select(c, s, odd);
    let t = num.x / den.x;
    let td = two_prod(t, den.x);
    return t + ((((num.x - td.x) - td.y) + num.y) - t * den.y) / den.x;
}

// ---- atan, atan2: t in [0, 1] is split at the nearest c = k/8; atan(t) = atan(c) +
// atan((t - c)/(1 + t c)), the second a Taylor series in |u| <= 1/16.

const ATAN_HI: array<f64, 9> = array<f64, 9>(0.0, 0.12435499454676144,
    0.24497866312686414, 0.35877067027057225, 0.4636476090008061, 0.5585993153435624,
    0.6435011087932844, 0.7188299996216245, 0.7853981633974483);
const ATAN_LO: array<f64, 9> = array<f64, 9>(0.0, -3.1253241424539383e-18,
    1.0698755618734451e-17, -2.4623815582638635e-17, 2.2698777452961687e-17,
    -5.4556305485916264e-18, 1.5834785051444286e-17, -2.1478388444456983e-17,
    3.061616997868383e-17);

// atan(t) for t in [0, 1] as a leading part and a small tail.
fn atan_core(t: f64) -> vec2<f64> {
    let k = i32(floor(t * 8.0 + 0.5));
    let c = f64(k) * 0.125;
    let u = (t - c) / (1.0 + t * c);
    let z = u * u;
    let p = u * z * (-0.3333333333333333 + z * (0.2 + z * (-0.14285714285714285
        + z * (0.1111111111111111 + z * (-0.09090909090909091 + z * (0.07692307692307693
        + z * -0.06666666666666667))))));
    return vec2<f64>(ATAN_HI[k], (u + p) + ATAN_LO[k]);
}

fn m_atan(x: f64) -> f64 {
    if (m_isnan(x)) {
        return x;
    }
    let a = abs(x);
    if (a < 7.450580596923828e-09) {
        return x;
    }
    var r: f64;
    if (a <= 1.0) {
        let v = atan_core(a);
        r = v.x + v.y;
    } else {
        let v = atan_core(1.0 / a);
        r = (PIO2_HI - v.x) + (PIO2_LO - v.y);
    }
    return select(r, -r, x < 0.0);
}

fn m_atan2(y: f64, x: f64) -> f64 {
    if (m_isnan(x) || m_isnan(y)) {
        return x + y;
    }
    let ax = abs(x);
    let ay = abs(y);
    var h: f64;
    var l = f64(0.0);
    if (m_isinf(ax) && m_isinf(ay)) {
        h = PIO2_HI * 0.5;
        l = PIO2_LO * 0.5;
    } else if (m_isinf(ay) || ax == 0.0 && ay != 0.0) {
        h = PIO2_HI;
        l = PIO2_LO;
    } else if (m_isinf(ax) || ay == 0.0) {
        h = 0.0;
    } else if (ay <= ax) {
        let v = atan_core(ay / ax);
        h = v.x;
        l = v.y;
    } else {
        let v = atan_core(ax / ay);
        h = PIO2_HI - v.x;
        l = PIO2_LO - v.y;
    }
    if (m_signbit(x)) {
        h = PI_HI - h;
        l = PI_LO - l;
    }
    let r = h + l;
    return select(r, -r, m_signbit(y));
}

// The f64 square root is one of the operations drivers get right (IEEE, correctly rounded).
fn m_sqrt(x: f64) -> f64 {
    return sqrt(x);
}
