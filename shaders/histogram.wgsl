// `histcounts` on the device (`gpu::bins`): each element's bin by binary search in the
// edges (edges[k] <= v < edges[k+1], the last bin closed on the right; NaN and values
// outside counted nowhere), compared in f64 as the host does; counts as u32 atomics, exact.
// `zero` clears the counts; `count` adds them (`{{LOCAL}}`: through a workgroup's own
// counts first when there are few bins); `convert` writes them as doubles.

@group(0) @binding(0) var<storage, read> x: array<T>;
@group(0) @binding(1) var<storage, read> edges: array<f64>;
@group(0) @binding(2) var<storage, read_write> counts: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> out: array<f64>;
// elements, edges
@group(0) @binding(4) var<storage, read> params: array<u32>;

var<workgroup> local: array<atomic<u32>, 1024>;

// The bin of element p, or the number of bins when it falls in none.
fn bin_of(p: u32) -> u32 {
    let ne = params[1];
    let bins = ne - 1u;
    let raw = x[p];
    if (s_isnan(raw)) {
        return bins;
    }
    let v = f64(raw);
    if (v == edges[ne - 1u]) {
        return ne - 2u;
    }
    var lo = 0u;
    var hi = ne;
    while (lo < hi) {
        let mid = (lo + hi) / 2u;
        if (edges[mid] <= v) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    if (lo == 0u || lo >= ne) {
        return bins;
    }
    return lo - 1u;
}

fn zero_pass(p: u32) {
    if (p < params[1] - 1u) {
        atomicStore(&counts[p], 0u);
    }
}

fn count_global(t: u32, b: u32) {
    let n = params[0];
    let bins = params[1] - 1u;
    for (var j = 0u; j < 16u; j = j + 1u) {
        let p = b * 4096u + j * 256u + t;
        if (p < n) {
            let k = bin_of(p);
            if (k < bins) {
                atomicAdd(&counts[k], 1u);
            }
        }
    }
}

fn count_local(t: u32, b: u32) {
    let n = params[0];
    let bins = params[1] - 1u;
    for (var k = t; k < 1024u; k = k + 256u) {
        atomicStore(&local[k], 0u);
    }
    workgroupBarrier();
    for (var j = 0u; j < 16u; j = j + 1u) {
        let p = b * 4096u + j * 256u + t;
        if (p < n) {
            let k = bin_of(p);
            if (k < bins && k < 1024u) {
                atomicAdd(&local[k], 1u);
            }
        }
    }
    workgroupBarrier();
    for (var k = t; k < min(bins, 1024u); k = k + 256u) {
        let c = atomicLoad(&local[k]);
        if (c > 0u) {
            atomicAdd(&counts[k], c);
        }
    }
}

fn convert_pass(p: u32) {
    if (p < params[1] - 1u) {
        out[p] = f64(atomicLoad(&counts[p]));
    }
}

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    _ = x[0];
    _ = edges[0];
    _ = atomicLoad(&counts[0]);
    _ = out[0];
    let b = wid.x + wid.y * nwg.x;
    let p = b * 256u + lid.x;
    {{PASS}}
}
