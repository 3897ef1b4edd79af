// Single sqrt from the driver's, corrected to the correctly rounded result with fused
// multiply-adds; only on devices where it matched s_sqrt_wide for every single at start-up
// (src/gpu/sqrt_check.rs): there the driver's sqrt is within 1 ulp and fma is fused. Its
// f64 route costs the H200 about four times as much (two conversions and a double sqrt).
// With s within 1 ulp and u, d the singles above and below it, the result is u when
// x > s u and d when x <= s d (x, s^2 and s u are multiples of the square of s's ulp, so
// the midpoints' tests reduce to these); a fused fma gives the exact sign of x - s u.
// Below 2^-64 the residuals x - s u are smaller than the least normal single, which
// NVIDIA flushes to zero (and its sign with it): those, zero, infinity and NaN take the f64
// route. (Checked on the host by emulation: from 2^-64 up, exact from any s within 1 ulp.)
fn m_sqrt(x: f32) -> f32 {
    if (!(x >= 5.421010862427522e-20 && x < 3.4028234663852886e38)) {
        return s_sqrt_wide(x);
    }
    let s = sqrt(x);
    let up = bitcast<f32>(bitcast<u32>(s) + 1u);
    let down = bitcast<f32>(bitcast<u32>(s) - 1u);
    let r = select(s, up, fma(-s, up, x) > 0.0);
    return select(r, down, fma(-s, down, x) <= 0.0);
}
