// Start-up check of sqrt_f32_fma.wgsl (src/gpu/sqrt_check.rs): counts the singles with bit
// patterns base[0] to base[1] whose corrected driver sqrt differs from the f64 route's.

@group(0) @binding(0) var<storage, read_write> count: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read> base: array<u32>;

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
}
