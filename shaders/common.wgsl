// Shared by every generated kernel: the element type (T), the bindings every kernel has, the
// precision-specific helpers with MATLAB's semantics, and implicit-expansion indexing.
//
// Bindings: 0 the output, 1 the shape table (element count, rank, dims, then the strides of
// each broadcast input, then kernel-specific parameters), 2 the scalar constants, 3.. the
// inputs.

alias T = {{TYPE}};

@group(0) @binding(0) var<storage, read_write> out: array<T>;
@group(0) @binding(1) var<storage, read> shape_table: array<u32>;
@group(0) @binding(2) var<storage, read> consts: array<T>;
{{INPUTS}}

// Precision-specific functions (shaders/math_f32.wgsl or math_f64.wgsl).
{{MATH}}

fn m_bool(b: bool) -> T {
    return select(T(0), T(1), b);
}

// MATLAB's sign: -1, 0 or 1, NaN for NaN.
fn m_sign(x: T) -> T {
    return select(select(select(T(0), T(1), x > T(0)), T(-1), x < T(0)), x, m_isnan(x));
}

// MATLAB rounds halves away from zero (WGSL's round goes to even). x - trunc(x) is exact.
fn m_round(x: T) -> T {
    let t = trunc(x);
    return select(t, t + sign(x), abs(x - t) >= T(0.5));
}

// max and min ignore a NaN operand, as MATLAB's do.
fn m_max(a: T, b: T) -> T {
    return select(select(max(a, b), a, m_isnan(b)), b, m_isnan(a));
}

fn m_min(a: T, b: T) -> T {
    return select(select(min(a, b), a, m_isnan(b)), b, m_isnan(a));
}

fn m_hypot(x: T, y: T) -> T {
    let ax = abs(x);
    let ay = abs(y);
    // An infinite operand wins even over NaN, as in MATLAB; otherwise NaN gives NaN.
    if (m_isinf(ax) || m_isinf(ay)) {
        return select(ay, ax, m_isinf(ax));
    }
    if (m_isnan(ax) || m_isnan(ay)) {
        return ax + ay;
    }
    let m = max(ax, ay);
    let s = min(ax, ay);
    if (m == T(0)) {
        return select(T(0), ax + ay, m_isnan(ax) || m_isnan(ay));
    }
    let r = s / m;
    return m * sqrt(T(1) + r * r);
}

// x^k for an integer k, by repeated squaring (exact where MATLAB's is).
fn m_pow_int(x: T, k: T) -> T {
    var n = u32(abs(k));
    var base = x;
    var acc = T(1);
    loop {
        if (n == 0u) {
            break;
        }
        if ((n & 1u) == 1u) {
            acc = acc * base;
        }
        base = base * base;
        n = n >> 1u;
    }
    return select(acc, T(1) / acc, k < T(0));
}

// ---- The random stream: Philox4x32-10, the host's generator (src/values/rng.rs), so value
// n of a seed is the same number on both sides.

// The high and low words of a * b, from 16-bit halves (no 64-bit integers needed).
fn m_mulhilo(a: u32, b: u32) -> vec2<u32> {
    let al = a & 0xffffu;
    let ah = a >> 16u;
    let bl = b & 0xffffu;
    let bh = b >> 16u;
    let ll = al * bl;
    let lh = al * bh;
    let hl = ah * bl;
    let mid = (ll >> 16u) + (lh & 0xffffu) + (hl & 0xffffu);
    let hi = ah * bh + (lh >> 16u) + (hl >> 16u) + (mid >> 16u);
    return vec2<u32>(hi, (mid << 16u) | (ll & 0xffffu));
}

fn m_philox(ctr: vec4<u32>, key: vec2<u32>) -> vec4<u32> {
    var c = ctr;
    var k = key;
    for (var r = 0u; r < 10u; r = r + 1u) {
        if (r > 0u) {
            k = k + vec2<u32>(0x9E3779B9u, 0xBB67AE85u);
        }
        let p0 = m_mulhilo(0xD2511F53u, c.x);
        let p1 = m_mulhilo(0xCD9E8D57u, c.z);
        c = vec4<u32>(p1.x ^ c.y ^ k.x, p1.y, p0.x ^ c.w ^ k.y, p0.y);
    }
    return c;
}

// The four words for element i of the block whose seed and offset (low and high words) sit
// at shape_table[p .. p + 4].
fn m_rand_bits(p: u32, i: u32) -> vec4<u32> {
    let lo = shape_table[p + 2u] + i;
    let hi = shape_table[p + 3u] + select(0u, 1u, lo < i);
    return m_philox(vec4<u32>(lo, hi, 0u, 0u), vec2<u32>(shape_table[p], shape_table[p + 1u]));
}

// The linear index of input `k`'s element for output element `i` under implicit expansion:
// the output's subscripts with broadcast dimensions (stride 0) dropped.
fn bcast(i: u32, k: u32) -> u32 {
    let rank = shape_table[1];
    var rem = i;
    var at = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {
        let size = shape_table[2u + d];
        at = at + (rem % size) * shape_table[2u + rank * (k + 1u) + d];
        rem = rem / size;
    }
    return at;
}
