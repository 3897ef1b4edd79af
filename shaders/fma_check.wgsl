// Start-up check of the code that needs fused multiply-adds (src/gpu/fma_check.rs), over the
// singles with bit patterns base[0] to base[1]: count[0] counts those whose corrected driver
// sqrt (sqrt_f32_fma.wgsl) differs from the f64 route's, count[1] those whose sin or cos
// (trig_f32_fma.wgsl) is more than 2 ulp from the f64 route's or not odd or even in x.

@group(0) @binding(0) var<storage, read_write> count: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read> base: array<u32>;

// Whether a and b are at most 2 singles apart (zeros of either sign alike).
fn within_two_ulp(a: f32, b: f32) -> bool {
    let ia = bitcast<u32>(a);
    let ib = bitcast<u32>(b);
    if ((ia >> 31u) != (ib >> 31u)) {
        return ((ia | ib) << 1u) == 0u;
    }
    return select(ib - ia, ia - ib, ia > ib) <= 2u;
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    d_init(1u);
    let b = base[0] + gid.x + gid.y * nwg.x * 256u;
    if (b > base[1] || b < base[0]) {
        return;
    }
    let x = bitcast<f32>(b);
    if (bitcast<u32>(m_sqrt(x)) != bitcast<u32>(s_sqrt_wide(x))) {
        atomicAdd(&count[0], 1u);
    }
    // Finite arguments; the sine below 2^-12 is x itself by construction (and the f64
    // route's rounded result may flush there).
    if (b < 0x7f800000u) {
        let s = m_sin(x);
        let c = m_cos(x);
        let wide_x = wide(x);
        let sine_ok = b < 0x39800000u || within_two_ulp(s, f32(d_sin(wide_x)));
        let ok = sine_ok && within_two_ulp(c, f32(d_cos(wide_x)))
            && bitcast<u32>(m_sin(-x)) == bitcast<u32>(-s)
            && bitcast<u32>(m_cos(-x)) == bitcast<u32>(c);
        if (!ok) {
            atomicAdd(&count[1], 1u);
        }
    }
}
