// C = op(A) * op(B) for column-major matrices (op: as stored, or transposed), one tile of C
// per workgroup, or one slice of the inner dimension of it where the product is split along
// K (`splits` > 1: each slice's partial tile goes to its own block of `c_out`, and the
// reduction kernels add them up).
//
// 256 threads as 16 x 16; thread (tx, ty) keeps TM x TN sums. The tiles are kept as vectors
// of W values (16 bytes, or one value): a thread's rows are the W values of the tile vectors
// tx, tx + 16, tx + 32, ... and its columns likewise from ty, so in the inner loop a half warp
// reads 16 consecutive vectors of the A tile (no bank conflict) and one broadcast vector of
// the B tile. The generator (codegen::matmul) fills in the element type, the tile sizes and
// the unrolled blocks: sums are plain variables, so the driver keeps them in registers.
//
// Table: m, n, k (op(A) is m x k, op(B) k x n), lda, ldb (stored rows of A and B), the
// slice length along k (a multiple of BK), and the number of slices.

alias T = {T};
alias V = {V};
const W: u32 = {W}u;
const BM: u32 = {BM}u;
const BN: u32 = {BN}u;
const BK: u32 = {BK}u;

@group(0) @binding(0) var<storage, read_write> c_out: array<T>;
@group(0) @binding(1) var<storage, read> table: array<u32>;
@group(0) @binding(2) var<storage, read> a_in: array<T>;
@group(0) @binding(3) var<storage, read> b_in: array<T>;

// Vector v of row p of a tile holds its elements W * v .. W * v + W - 1. Each thread fills
// whole vectors of the tiles from values next to each other in op(A) or op(B), consecutive
// threads stepping along the way the matrix is stored.
var<workgroup> a_tile: array<V, {A_TILE}>;
var<workgroup> b_tile: array<V, {B_TILE}>;

// Element (i, p) of op(A), 0 outside the matrix.
fn a_at(i: u32, p: u32, m: u32, k: u32, lda: u32) -> T {
    if (i >= m || p >= k) {
        return T(0);
    }
    return a_in[{A_INDEX}];
}

// Element (p, j) of op(B), 0 outside the matrix.
fn b_at(p: u32, j: u32, k: u32, n: u32, ldb: u32) -> T {
    if (p >= k || j >= n) {
        return T(0);
    }
    return b_in[{B_INDEX}];
}

@compute @workgroup_size(16, 16, 1)
fn main(
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(workgroup_id) wid: vec3<u32>,
) {
    let m = table[0];
    let n = table[1];
    let k = table[2];
    let lda = table[3];
    let ldb = table[4];
    let slice = table[5];
    let tx = lid.x;
    let ty = lid.y;
    let t = tx + 16u * ty;
    let row0 = wid.x * BM;
    let col0 = wid.y * BN;
    let k0 = wid.z * slice;
    let k1 = min(k, k0 + slice);
{DECLARE}
    // The tiles go through registers: the loads of the next tile are in flight while the
    // sums of this one are taken (the loop is otherwise bound by their latency).
{FETCH_FIRST}
    for (var p0 = k0; p0 < k1; p0 += BK) {
{PUT}
        workgroupBarrier();
        if (p0 + BK < k1) {
            let q0 = p0 + BK;
{FETCH_NEXT}
        }
        for (var p = 0u; p < BK; p++) {
{STEP}
        }
        workgroupBarrier();
    }
    // This slice's block of the output (the whole output when there is one slice).
    let base = wid.z * m * n;
{STORE}
}
