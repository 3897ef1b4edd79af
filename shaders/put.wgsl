// Indexed assignment on the device (`x(idx) = v`, `A(rows, cols) = V`, the old array's copy
// when an assignment grows it): values written into an array at the places its subscripts
// pick, one thread per value. A subscript is a progression or the 1-based positions of an
// index array. Repeated positions: MATLAB's last write wins, decided without a race by a
// first pass (`mark`) that keeps, for each position an index subscript names, the last place
// along the subscript that names it (atomicMax); the write pass writes an element only from
// those places. (In column-major order the last write to an element is the one whose place
// along every subscript is the last.)

@group(0) @binding(0) var<storage, read_write> out: array<{{OUT}}>;
@group(0) @binding(1) var<storage, read> vals: array<{{VAL}}>;
@group(0) @binding(2) var<storage, read> idx0: array<{{I0}}>;
@group(0) @binding(3) var<storage, read> idx1: array<{{I1}}>;
@group(0) @binding(4) var<storage, read_write> marks: array<atomic<u32>>;
// Threads, subscripts, one value for all (1) or one per thread (0), the word of `marks`
// where the mark pass counts repeated positions (NO_MARKS: not counted); then six words per
// subscript: kind (0 a progression, 1 positions in idx0, 2 in idx1), count, start, step
// (two's complement), stride in `out`, its first word in `marks` (NO_MARKS: its positions are
// known to be distinct, or one value is written everywhere, so nothing is marked).
@group(0) @binding(5) var<storage, read> params: array<u32>;

const NO_MARKS: u32 = 0xffffffffu;

fn position(d: u32, j: u32) -> u32 {
    let at = 4u + d * 6u;
    let kind = params[at];
    if (kind == 1u) {
        return u32(idx0[j]) - 1u;
    }
    if (kind == 2u) {
        return u32(idx1[j]) - 1u;
    }
    return u32(i32(params[at + 2u]) + i32(j) * i32(params[at + 3u]));
}

fn mark_pass(t: u32) {
    let k = params[1];
    for (var d = 0u; d < k; d = d + 1u) {
        let at = 4u + d * 6u;
        if (params[at] != 0u && params[at + 5u] != NO_MARKS && t < params[at + 1u]) {
            // A position named before (by any thread, in any order) is a repeat.
            let before = atomicMax(&marks[params[at + 5u] + position(d, t)], t + 1u);
            if (before != 0u && params[3] != NO_MARKS) {
                atomicAdd(&marks[params[3]], 1u);
            }
        }
    }
}

fn write_pass(t: u32) {
    if (t >= params[0]) {
        return;
    }
    let k = params[1];
    var rem = t;
    var addr = 0u;
    for (var d = 0u; d < k; d = d + 1u) {
        let at = 4u + d * 6u;
        var j = rem;
        if (d + 1u < k) {
            let c = params[at + 1u];
            j = rem % c;
            rem = rem / c;
        }
        let p = position(d, j);
        let m = params[at + 5u];
        if (params[at] != 0u && m != NO_MARKS && atomicLoad(&marks[m + p]) != j + 1u) {
            return;
        }
        addr = addr + p * params[at + 4u];
    }
    var v = t;
    if (params[2] == 1u) {
        v = 0u;
    }
    out[addr] = {{OUT}}(vals[v]);
}

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    _ = out[0];
    _ = vals[0];
    _ = idx0[0];
    _ = idx1[0];
    _ = atomicLoad(&marks[0]);
    let t = (wid.x + wid.y * nwg.x) * 256u + lid.x;
    {{PASS}}
}
