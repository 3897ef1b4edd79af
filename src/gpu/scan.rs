//! Cumulative sums, products, maxima and minima on the device (shaders/scan.wgsl), along any
//! dimension, forward or from the end. Lanes of up to `SHORT` elements, and lanes that lie
//! side by side (`inner > 1`) when there are many of them, take a thread each and are summed
//! in the host's order; long lanes are scanned in blocks of 4096 in three passes (block
//! totals, each lane's carries, the blocks from their carries). Nothing is read back.
//!
//! Rounding: a thread per lane adds in the host's order (doubles then equal the host's bit
//! for bit; singles are added in single where the host adds in double and rounds each
//! prefix). Blocks add as a tree: each prefix is the exact one within about
//! (log2(len) + 16) * eps * (sum of |x| up to it) in the array's precision. Maxima and minima
//! are exact (the first of equal values, NaN skipped, as the host).

use super::buffers::{self, DeviceBuffer};
use super::device::Gpu;
use super::launch;
use super::shader_files;
use crate::graph::Precision;
use crate::interp::error::MResult;

const SCAN: &str = include_str!("../../shaders/scan.wgsl");
const SCAN_TILED: &str = include_str!("../../shaders/scan_tiled.wgsl");
/// Elements a workgroup takes in the block passes.
const BLOCK: usize = 4096;
/// Words of the tiled apply pass's block in workgroup memory (padded a word every 32).
const TILE_WORDS: usize = BLOCK + BLOCK / 32;
/// Lanes this short always take a thread each.
const SHORT: usize = 64;

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum ScanOp {
    Sum,
    Prod,
    Max,
    Min,
}

/// How the elements run: `lanes` lanes (`inner` side by side) of `len` elements.
#[derive(Clone, Copy, Debug)]
pub struct Lanes {
    pub inner: usize,
    pub len: usize,
    pub outer: usize,
}

impl Lanes {
    pub fn count(&self) -> usize {
        self.inner * self.outer
    }
    pub fn numel(&self) -> usize {
        self.count() * self.len
    }
}

#[derive(Clone, Copy)]
enum Pass {
    Reduce,
    Carry,
    Apply,
    Lane,
    ApplyTiled,
}

/// The helpers every kernel of this file and `gpu::sort` shares for an element type.
pub fn prelude(p: Precision) -> String {
    match p {
        Precision::F32 => "alias T = f32;
fn s_isnan(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }
fn s_nan() -> f32 { return bitcast<f32>(0x7fc00000u); }
"
        .to_string(),
        Precision::F64 => "alias T = f64;
fn s_isnan(x: f64) -> bool { return (bitcast<u64>(x) & 0x7ffffffffffffffflu) > 0x7ff0000000000000lu; }
fn s_nan() -> f64 { return bitcast<f64>(0x7ff8000000000000lu); }
"
        .to_string(),
    }
}

fn text(pass: Pass, op: ScanOp, p: Precision, omitnan: bool) -> String {
    let (identity, combine) = match op {
        ScanOp::Sum => ("T(0)", "a + b"),
        ScanOp::Prod => ("T(1)", "a * b"),
        // NaN is the identity: skipped, unless every element so far is NaN.
        ScanOp::Max => (
            "s_nan()",
            "select(a, b, s_isnan(a) || (!s_isnan(b) && b > a))",
        ),
        ScanOp::Min => (
            "s_nan()",
            "select(a, b, s_isnan(a) || (!s_isnan(b) && b < a))",
        ),
    };
    let load = if omitnan && matches!(op, ScanOp::Sum | ScanOp::Prod) {
        "return select(v, identity(), s_isnan(v));"
    } else {
        "return v;"
    };
    // A block total of sums or products may be taken in any order (within the rounding
    // bound above), so it reads the block coalesced; maxima and minima keep the first of
    // equal values (-0 before 0) and read each thread's run of 16 in order.
    let spread = matches!(op, ScanOp::Sum | ScanOp::Prod);
    let call = match pass {
        Pass::Reduce => "reduce_pass(lid.x, w);",
        Pass::Carry => "carry_pass(lid.x, w);",
        Pass::Apply => "apply_pass(lid.x, w);",
        Pass::ApplyTiled => "apply_tiled_pass(lid.x, w);",
        Pass::Lane => "lane_pass(lid.x, w);",
    };
    let tiled = match pass {
        Pass::ApplyTiled => {
            format!(
                "var<workgroup> tile: array<T, {TILE_WORDS}>;\n{}",
                shader_files::text("scan_tiled.wgsl", SCAN_TILED)
            )
        }
        _ => String::new(),
    };
    format!(
        "{}fn identity() -> T {{ return {identity}; }}\nfn combine(a: T, b: T) -> T {{ return {combine}; }}\n{}{}",
        prelude(p),
        shader_files::text("scan.wgsl", SCAN)
            .replace("{{LOAD}}", load)
            .replace("{{SPREAD}}", if spread { "true" } else { "false" })
            .replace("{{PASS}}", call),
        tiled
    )
}

/// Whether `lanes` of `p` can be scanned on `g` (every buffer within one binding and
/// positions within u32).
pub fn fits(g: &Gpu, lanes: Lanes, p: Precision) -> bool {
    let n = lanes.numel();
    n < u32::MAX as usize / 2
        && lanes.count() < u32::MAX as usize / 2
        && (n * p.bytes()) as u64 <= super::kernels::binding_limit(g)
}

/// The cumulative `op` of `x`'s lanes (`reverse`: from each lane's end), a new buffer.
pub fn run(
    g: &Gpu,
    x: &DeviceBuffer,
    lanes: Lanes,
    op: ScanOp,
    omitnan: bool,
    reverse: bool,
) -> MResult<DeviceBuffer> {
    let p = x.precision;
    let n = lanes.numel();
    let out = buffers::allocate(g, n, p)?;
    if n == 0 {
        return Ok(out);
    }
    let count = lanes.count();
    let per_thread = lanes.len <= SHORT || (lanes.inner > 1 && count >= 2048);
    let nb = if per_thread {
        1
    } else {
        lanes.len.div_ceil(BLOCK)
    };
    let agg = buffers::allocate(g, count * nb, p)?;
    let params = [
        count as u32,
        lanes.inner as u32,
        lanes.len as u32,
        nb as u32,
        u32::from(reverse),
    ];
    let dispatch = |pass: Pass, groups: usize| {
        let key = [1, pass as u32, op as u32, p as u32, u32::from(omitnan)];
        launch::run(
            g,
            &key,
            || text(pass, op, p, omitnan),
            &[x, &out, &agg],
            &params,
            groups,
        )
    };
    if per_thread {
        dispatch(Pass::Lane, count.div_ceil(256))?;
    } else {
        if nb > 1 {
            dispatch(Pass::Reduce, count * nb)?;
            dispatch(Pass::Carry, count)?;
        }
        // The tiled pass where the device's workgroup memory holds a block and the scan's
        // 256 partials.
        let tiled = (TILE_WORDS + 256) * p.bytes() <= g.info.max_workgroup_storage as usize;
        let apply = if tiled { Pass::ApplyTiled } else { Pass::Apply };
        dispatch(apply, count * nb)?;
    }
    Ok(out)
}
