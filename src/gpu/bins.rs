//! Counting into bins on the device: `histcounts` (shaders/histogram.wgsl: u32 atomics,
//! through a workgroup's own counts when there are at most 1024 bins) and the sums of
//! `accumarray` (shaders/accumulate.wgsl: a thread per group of equal sorted subscripts,
//! adding in the host's order). Both give doubles; nothing is read back here.

use super::buffers::{self, DeviceBuffer};
use super::device::Gpu;
use super::launch;
use super::scan::prelude;
use crate::graph::Precision;
use crate::interp::error::MResult;

const HISTOGRAM: &str = include_str!("../../shaders/histogram.wgsl");
const ACCUMULATE: &str = include_str!("../../shaders/accumulate.wgsl");
/// Elements a workgroup counts.
const BLOCK: usize = 4096;
/// The most bins counted through workgroup memory.
const LOCAL_BINS: usize = 1024;

/// The counts of the first `n` values of `x` in the bins between `edges` (f64, sorted,
/// at least two), as doubles.
pub fn histogram(
    g: &Gpu,
    x: &DeviceBuffer,
    n: usize,
    edges: &DeviceBuffer,
) -> MResult<DeviceBuffer> {
    let p = x.precision;
    let bins = edges.len - 1;
    let counts = buffers::allocate(g, bins, Precision::F32)?;
    let out = buffers::allocate(g, bins, Precision::F64)?;
    let params = [n as u32, edges.len as u32];
    let local = bins <= LOCAL_BINS;
    let run = |stage: u32, groups: usize| {
        launch::run(
            g,
            &[5, stage, p as u32],
            || {
                let call = match stage {
                    0 => "zero_pass(p);",
                    1 => "count_local(lid.x, b);",
                    2 => "count_global(lid.x, b);",
                    _ => "convert_pass(p);",
                };
                format!("{}{}", prelude(p), HISTOGRAM.replace("{{PASS}}", call))
            },
            &[x, edges, &counts, &out],
            &params,
            groups,
        )
    };
    run(0, bins.div_ceil(256))?;
    run(if local { 1 } else { 2 }, n.div_ceil(BLOCK))?;
    run(3, bins.div_ceil(256))?;
    Ok(out)
}

/// The sums of `vals` (f64; one value for all with `scalar`) by subscript: `ssub` the
/// sorted subscripts (`n`), `sidx` where each came from (1-based), `starts` the 1-based
/// places where each of `groups` runs of equal subscripts starts; `len` bins.
#[allow(clippy::too_many_arguments)]
pub fn accumulate(
    g: &Gpu,
    vals: &DeviceBuffer,
    scalar: bool,
    sidx: &DeviceBuffer,
    ssub: &DeviceBuffer,
    starts: &DeviceBuffer,
    n: usize,
    groups: usize,
    len: usize,
) -> MResult<DeviceBuffer> {
    let out = buffers::allocate(g, len, Precision::F64)?;
    let (ip, sp) = (sidx.precision, ssub.precision);
    let params = [n as u32, groups as u32, u32::from(scalar), len as u32];
    for (stage, count) in [(0u32, len), (1, groups)] {
        launch::run(
            g,
            &[6, stage, ip as u32, sp as u32],
            || {
                let call = if stage == 0 {
                    "zero_pass(p);"
                } else {
                    "sum_pass(p);"
                };
                format!(
                    "alias I = {};\nalias S = {};\n{}",
                    ip.wgsl(),
                    sp.wgsl(),
                    ACCUMULATE.replace("{{PASS}}", call)
                )
            },
            &[vals, sidx, ssub, starts, &out],
            &params,
            count.div_ceil(256),
        )?;
    }
    Ok(out)
}
