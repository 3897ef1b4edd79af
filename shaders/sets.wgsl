// Small steps of `unique` on the device (`gpu::sets`), a thread per element:
// `starts`/`ends` flag where a group of equal sorted values begins or ends (-0 equal to 0,
// each NaN a group of its own); `take` reads `a` at 1-based places `b`; `spread` writes `a`
// (or, `iota`, 1, 2, ...) to 1-based places `b`.

@group(0) @binding(0) var<storage, read> a: array<{{A}}>;
@group(0) @binding(1) var<storage, read> b: array<{{B}}>;
@group(0) @binding(2) var<storage, read_write> out: array<{{O}}>;
// elements, rows, first element (take_rows)
@group(0) @binding(3) var<storage, read> params: array<u32>;

fn starts(p: u32) {
    let v = a[p];
    var flag = p == 0u || s_isnan(v);
    if (p > 0u) {
        let w = a[p - 1u];
        flag = flag || s_isnan(w) || w != v;
    }
    out[p] = {{O}}(select(0u, 1u, flag));
}

fn ends(p: u32) {
    let v = a[p];
    var flag = p + 1u == params[0] || s_isnan(v);
    if (p + 1u < params[0]) {
        let w = a[p + 1u];
        flag = flag || s_isnan(w) || w != v;
    }
    out[p] = {{O}}(select(0u, 1u, flag));
}

fn take(p: u32) {
    out[p] = {{O}}(a[u32(b[p]) - 1u]);
}

fn spread(p: u32) {
    out[u32(b[p]) - 1u] = {{O}}(a[p]);
}

// Rows of a matrix of `params[1]` rows in the order `b`, from element `params[2]` on.
fn take_rows(p: u32) {
    let rows = params[1];
    out[p] = {{O}}(a[u32(b[p % rows]) - 1u + (p / rows) * rows + params[2]]);
}

fn count(p: u32) {
    out[p] = {{O}}(p + 1u);
}

fn iota(p: u32) {
    out[u32(b[p]) - 1u] = {{O}}(p + 1u);
}

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    _ = a[0];
    _ = b[0];
    _ = out[0];
    let p = (wid.x + wid.y * nwg.x) * 256u + lid.x;
    if (p >= params[0]) {
        return;
    }
    {{PASS}}
}
