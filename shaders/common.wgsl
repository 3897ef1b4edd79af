// Shared by every generated kernel: the element type (T), the bindings every kernel has, the
// precision-specific helpers with MATLAB's semantics, and implicit-expansion indexing.
//
// Bindings: 0 the output, 1 the shape table (element count, rank, dims, then the strides of
// each broadcast input, then kernel-specific parameters), 2 the scalar constants, 3.. the
// inputs.

alias T = {{TYPE}};

@group(0) @binding(0) var<storage, read_write> out: {{OUT}};
@group(0) @binding(1) var<storage, read> shape_table: array<u32>;
@group(0) @binding(2) var<storage, read> consts: array<T>;
{{INPUTS}}

// Precision-specific functions (shaders/math_f32.wgsl or math_f64.wgsl), and the random
// stream (shaders/random.wgsl) in kernels that draw from it.
{{MATH}}

// x, through a choice the compiler cannot decide: the second operand of `x - x`, `x == x`
// and the like, which drivers fold to 0 and true (NIR's rules for inexact arithmetic) where
// NaN and infinities must give NaN and false.
fn m_opaque(x: T) -> T {
    return select(x, T(0), shape_table[1] == 0xffffffffu);
}

fn m_bool(b: bool) -> T {
    return select(T(0), T(1), b);
}

// MATLAB's sign: -1, 0 or 1, NaN for NaN.
fn m_sign(x: T) -> T {
    return select(select(select(T(0), T(1), x > T(0)), T(-1), x < T(0)), x, m_isnan(x));
}

// x rounded toward zero from floor and ceil: lavapipe (LLVM 15, on some processors) left
// doubles past 2^23 unchanged in trunc.
fn m_fix(x: T) -> T {
    return select(ceil(x), floor(x), x >= T(0));
}

// MATLAB rounds halves away from zero (WGSL's round goes to even). x - m_fix(x) is exact.
fn m_round(x: T) -> T {
    let t = m_fix(x);
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

// The linear index of input `k`'s element for output element `i` under implicit expansion
// and views: the input's first element plus the output's subscripts times its strides
// (0 for broadcast dimensions; two's complement for views that step back, so the sum wraps
// to the element). Each input's words: `rank` strides, then the first element.
fn bcast(i: u32, k: u32) -> u32 {
    let rank = shape_table[1];
    let base = 2u + rank + k * (rank + 1u);
    var at = shape_table[base + rank];
    if (rank == 0u) {
        return at;
    }
    var rem = i;
    // The last subscript is what remains (a division costs the GPU tens of operations, so
    // none where the rest is within the dimension: every element of a column vector).
    for (var d = 0u; d + 1u < rank; d = d + 1u) {
        let size = shape_table[2u + d];
        if (rem < size) {
            return at + rem * shape_table[base + d];
        }
        at = at + (rem % size) * shape_table[base + d];
        rem = rem / size;
    }
    return at + rem * shape_table[base + rank - 1u];
}

// Whether output element `i` is in the region whose words start at `p` (x: 1 or 0), and its
// place in the region's column-major order (y). The words: the number of subscripts, then
// per subscript the array's size along it (the last folds the rest), the first position,
// the step (two's complement) and the count.
fn m_region(i: u32, p: u32) -> vec2<u32> {
    let k = shape_table[p];
    var rem = i;
    var j = 0u;
    var scale = 1u;
    for (var d = 0u; d < k; d = d + 1u) {
        let q = p + 1u + 4u * d;
        var s = rem;
        if (d + 1u < k) {
            // (no division where the rest is within the dimension)
            if (rem < shape_table[q]) {
                rem = 0u;
            } else {
                s = rem % shape_table[q];
                rem = rem / shape_table[q];
            }
        }
        let off = i32(s) - i32(shape_table[q + 1u]);
        let step = bitcast<i32>(shape_table[q + 2u]);
        var at = off;
        if (step != 1) {
            at = off / step;
        }
        if (off - at * step != 0 || at < 0 || u32(at) >= shape_table[q + 3u]) {
            return vec2<u32>(0u, 0u);
        }
        j = j + u32(at) * scale;
        scale = scale * shape_table[q + 3u];
    }
    return vec2<u32>(1u, j);
}

// The 1-based subscript of output element `i` along dimension `d`.
fn m_iota(i: u32, d: u32) -> T {
    var below = 1u;
    for (var k = 0u; k < d; k = k + 1u) {
        below = below * shape_table[2u + k];
    }
    return T(m_div_mod(i, below, shape_table[2u + d]) + 1u);
}

// The 0-based subscript of output element `i` along dimension `d` (0 past the last).
fn m_sub(i: u32, d: u32) -> u32 {
    if (d >= shape_table[1]) {
        return 0u;
    }
    var below = 1u;
    for (var k = 0u; k < d; k = k + 1u) {
        below = below * shape_table[2u + k];
    }
    return m_div_mod(i, below, shape_table[2u + d]);
}

// (i / below) % size, without the divisions where they change nothing.
fn m_div_mod(i: u32, below: u32, size: u32) -> u32 {
    var q = i;
    if (below != 1u) {
        q = i / below;
    }
    if (q < size) {
        return q;
    }
    return q % size;
}

// Where a scatter writes its element `i` (`gpu::scatter`): the words at `p` are the number
// of subscripts, the first address, then per subscript its count and the address step
// (two's complement; the sum wraps to the element).
fn m_scatter(i: u32, p: u32) -> u32 {
    let k = shape_table[p];
    var at = shape_table[p + 1u];
    var rem = i;
    for (var d = 0u; d < k; d = d + 1u) {
        let count = shape_table[p + 2u + 2u * d];
        var s = rem;
        if (d + 1u < k) {
            if (rem < count) {
                rem = 0u;
            } else {
                s = rem % count;
                rem = rem / count;
            }
        }
        at = at + s * shape_table[p + 3u + 2u * d];
    }
    return at;
}
