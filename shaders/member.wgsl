// `ismember` on the device (`gpu::sets`): each element of `x` looked up by binary search in
// the sorted set `s` (NaN last, never a member; -0 equal to 0); the first of equal set
// values is the one the stable sort left first, so `loc` is the lowest index, as MATLAB's.

@group(0) @binding(0) var<storage, read> x: array<T>;
@group(0) @binding(1) var<storage, read> s: array<T>;
@group(0) @binding(2) var<storage, read> sidx: array<I>;
@group(0) @binding(3) var<storage, read_write> tf: array<I>;
@group(0) @binding(4) var<storage, read_write> loc: array<I>;
// elements, set size, locations wanted (1)
@group(0) @binding(5) var<storage, read> params: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    _ = sidx[0];
    _ = loc[0];
    let p = (wid.x + wid.y * nwg.x) * 256u + lid.x;
    if (p >= params[0]) {
        return;
    }
    let v = x[p];
    let m = params[1];
    var lo = 0u;
    var hi = m;
    while (lo < hi) {
        let mid = (lo + hi) / 2u;
        if (s[mid] < v) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    var found = false;
    if (lo < m && !s_isnan(v)) {
        found = s[lo] == v;
    }
    tf[p] = I(select(0u, 1u, found));
    if (params[2] == 1u) {
        var at = I(0);
        if (found) {
            at = sidx[lo];
        }
        loc[p] = at;
    }
}
