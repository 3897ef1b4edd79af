// erf and erfc of singles in f32 arithmetic, under MATFUSE_SINGLE_MATH=fast (the default
// where the device has f64): they replace the widening wrappers of the erf block of
// functions_f64.wgsl in single kernels (src/codegen/functions.rs), which stay for NaN,
// erfc's results below the normals and erf's subnormal arguments. After
// math_f32_fast.wgsl (keep32, exp_split). erfc is within 4 ulp of the host's (libm's f64
// erfc rounded once; CUDA documents 4 for its erfcf) where multiply-adds are fused, as on
// NVIDIA's, and 5 where a driver splits them (lavapipe); erf within 1 either way.
// tests/suite/single_erf.rs mirrors them on the host both ways.

// erf(a)/a - 1 of z = a^2 <= 0.84375^2, a polynomial of degree 6 fitted to it (1.2e-10).
fn erf_ratio32(z: f32) -> f32 {
    var p = fma(8.897223597159609e-05, z, -0.000825674447696656);
    p = fma(p, z, 0.005210250616073608);
    p = fma(p, z, -0.026862816885113716);
    p = fma(p, z, 0.1128375232219696);
    p = fma(p, z, -0.37612637877464294);
    return fma(p, z, 0.12837916612625122);
}

// erfc(a) for 0.84375 <= a <= 9.1: exp(-a^2) erfcx(a), erfcx a polynomial of degree 10 in
// t = (a - 3)/(a + 3) (Shepherd and Laframboise's variable; fitted, 1.3e-9 relative), and
// exp(-a^2) with a^2 split exactly: ah keeps a's first 12 bits, so ah^2 is a single, and
// al (a + ah) = a^2 - ah^2 joins exp's reduced argument instead of rounding a^2 (which at
// a = 9 would cost 80 ulp).
fn erfc_tail32(a: f32) -> f32 {
    let t = (a - 3.0) / (a + 3.0);
    var p = fma(5.518926263903268e-05, t, 2.712310742936097e-05);
    p = fma(p, t, -0.0005954863736405969);
    p = fma(p, t, 0.0007164136040955782);
    p = fma(p, t, 0.004269493743777275);
    p = fma(p, t, -0.024394284933805466);
    p = fma(p, t, 0.07166575640439987);
    p = fma(p, t, -0.15011578798294067);
    p = fma(p, t, 0.2456037998199463);
    p = fma(p, t, -0.32623356580734253);
    p = fma(p, t, 0.17900115251541138);
    let ah = bitcast<f32>(bitcast<u32>(a) & 0xfffff000u);
    let al = keep32(a - ah);
    return exp_split(-keep32(ah * ah), al * (a + ah)) * p;
}

fn m_erfc(x: f32) -> f32 {
    if (!erfc_serves32(x)) {
        return f32(d_erfc(wide(x)));
    }
    return erfc_below32(x);
}

// The speculative forms (see m_sin_fast in math_f32_fast.wgsl): FAST_OK cleared where the
// general functions call the f64 ones.
fn m_erfc_fast(x: f32) -> f32 {
    FAST_OK = FAST_OK && erfc_serves32(x);
    return erfc_below32(x);
}

fn m_erf_fast(x: f32) -> f32 {
    FAST_OK = FAST_OK && erf_serves32(x);
    return erf_normal32(x);
}

// Whether erfc_below32 serves x alone: below 9.1 and not NaN (NaN told by its bits: a
// compiler may assume that comparisons see none).
fn erfc_serves32(x: f32) -> bool {
    return (bitcast<u32>(x) & 0x7fffffffu) <= 0x7f800000u && x < 9.1;
}

// Whether erf_normal32 serves x alone: a normal single or an infinity.
fn erf_serves32(x: f32) -> bool {
    let bits = bitcast<u32>(x) & 0x7fffffffu;
    return bits >= 0x00800000u && bits <= 0x7f800000u;
}

// erfc of x < 9.1 (NaN excluded): below 0.84375, 1 - erf(a) as fdlibm arranges it (a - 1/2
// exact from 1/4 on); above, the tail; negative x 2 - erfc(-x) (from -9.1 down, 2 whatever
// a is).
fn erfc_below32(x: f32) -> f32 {
    let a = min(abs(x), 9.1);
    var r: f32;
    if (a < 0.84375) {
        let y = a * erf_ratio32(a * a);
        let h = select(0.5, 1.0, a < 0.25);
        r = h - (keep32(a - (1.0 - h)) + y);
    } else {
        r = erfc_tail32(a);
    }
    return select(r, 2.0 - r, x < 0.0);
}

fn m_erf(x: f32) -> f32 {
    if (!erf_serves32(x)) {
        return f32(d_erf(wide(x)));
    }
    return erf_normal32(x);
}

// erf of a normal single or an infinity: a (1 + ratio) below 0.84375, 1 - erfc above (1
// from a = 9.1 on).
fn erf_normal32(x: f32) -> f32 {
    let a = min(abs(x), 9.1);
    var r: f32;
    if (a < 0.84375) {
        r = fma(a, erf_ratio32(a * a), a);
    } else {
        r = 1.0 - erfc_tail32(a);
    }
    return select(r, -r, x < 0.0);
}
