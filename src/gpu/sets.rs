//! The steps of `unique` and `ismember` on the device that sorting (`gpu::sort`) and
//! compaction (`gpu::compact`) leave: group flags over sorted values, reads and writes at
//! 1-based places (shaders/sets.wgsl), and binary search in a sorted set
//! (shaders/member.wgsl). A thread per element; nothing is read back here.

use super::buffers::{self, DeviceBuffer};
use super::device::Gpu;
use super::launch;
use super::scan::prelude;
use crate::graph::Precision;
use crate::interp::error::MResult;

const SETS: &str = include_str!("../../shaders/sets.wgsl");
const MEMBER: &str = include_str!("../../shaders/member.wgsl");

#[derive(Clone, Copy)]
enum Step {
    Starts,
    Ends,
    Take,
    Spread,
    Iota,
    TakeRows,
    Count,
}

fn step(
    g: &Gpu,
    s: Step,
    a: &DeviceBuffer,
    b: &DeviceBuffer,
    out: &DeviceBuffer,
    n: usize,
) -> MResult<()> {
    step_with(g, s, a, b, out, &[n as u32])
}

fn step_with(
    g: &Gpu,
    s: Step,
    a: &DeviceBuffer,
    b: &DeviceBuffer,
    out: &DeviceBuffer,
    params: &[u32],
) -> MResult<()> {
    let n = params.first().copied().unwrap_or(0) as usize;
    let (pa, pb, po) = (a.precision, b.precision, out.precision);
    let call = match s {
        Step::Starts => "starts(p);",
        Step::Ends => "ends(p);",
        Step::Take => "take(p);",
        Step::Spread => "spread(p);",
        Step::Iota => "iota(p);",
        Step::TakeRows => "take_rows(p);",
        Step::Count => "count(p);",
    };
    launch::run(
        g,
        &[3, s as u32, pa as u32, pb as u32, po as u32],
        || {
            let text = SETS
                .replace("{{A}}", pa.wgsl())
                .replace("{{B}}", pb.wgsl())
                .replace("{{O}}", po.wgsl())
                .replace("{{PASS}}", call);
            format!("{}{text}", prelude(pa))
        },
        &[a, b, out],
        params,
        n.div_ceil(256),
    )
}

/// 1 where a group of equal values of sorted `s` (its first `n`) starts (or, `ends`, ends),
/// else 0, as values of `p`.
pub fn group_flags(
    g: &Gpu,
    s: &DeviceBuffer,
    n: usize,
    ends: bool,
    p: Precision,
) -> MResult<DeviceBuffer> {
    let out = buffers::allocate(g, n, p)?;
    let which = if ends { Step::Ends } else { Step::Starts };
    step(g, which, s, s, &out, n)?;
    Ok(out)
}

/// `a` at the 1-based places `at` (its first `n`), as values of `p`.
pub fn take(
    g: &Gpu,
    a: &DeviceBuffer,
    at: &DeviceBuffer,
    n: usize,
    p: Precision,
) -> MResult<DeviceBuffer> {
    let out = buffers::allocate(g, n, p)?;
    step(g, Step::Take, a, at, &out, n)?;
    Ok(out)
}

/// A buffer of `len` values of `p` with `a`'s first `n` values (None: 1, 2, ...) written at
/// the 1-based places `at`; places nothing is written to are left as they were.
pub fn spread(
    g: &Gpu,
    a: Option<&DeviceBuffer>,
    at: &DeviceBuffer,
    n: usize,
    len: usize,
    p: Precision,
) -> MResult<DeviceBuffer> {
    let out = buffers::allocate(g, len, p)?;
    match a {
        Some(a) => step(g, Step::Spread, a, at, &out, n)?,
        None => step(g, Step::Iota, at, at, &out, n)?,
    }
    Ok(out)
}

/// For each of the first `n` values of `x`: whether sorted `s` (its first `m`) holds it, and
/// (with `want_loc`) the `sidx` value of the first equal one, else 0. Both as `sidx`'s type.
pub fn member(
    g: &Gpu,
    x: &DeviceBuffer,
    n: usize,
    s: &DeviceBuffer,
    sidx: &DeviceBuffer,
    m: usize,
    want_loc: bool,
) -> MResult<(DeviceBuffer, Option<DeviceBuffer>)> {
    let (p, ip) = (x.precision, sidx.precision);
    let tf = buffers::allocate(g, n, ip)?;
    let loc = buffers::allocate(g, if want_loc { n } else { 1 }, ip)?;
    launch::run(
        g,
        &[4, p as u32, ip as u32],
        || format!("{}alias I = {};\n{MEMBER}", prelude(p), ip.wgsl()),
        &[x, s, sidx, &tf, &loc],
        &[n as u32, m as u32, u32::from(want_loc)],
        n.div_ceil(256),
    )?;
    Ok((tf, want_loc.then_some(loc)))
}

/// 1, 2, ..., n as values of `p`.
pub fn count(g: &Gpu, n: usize, p: Precision) -> MResult<DeviceBuffer> {
    let out = buffers::allocate(g, n, p)?;
    let dummy = buffers::allocate(g, 1, p)?;
    step(g, Step::Count, &dummy, &dummy, &out, n)?;
    Ok(out)
}

/// `n` elements of the matrix `a` (`rows` rows) from element `first` on, its rows taken in
/// the order of the 1-based row numbers `order`: a column (`n == rows`) or all columns.
pub fn take_rows(
    g: &Gpu,
    a: &DeviceBuffer,
    order: &DeviceBuffer,
    rows: usize,
    first: usize,
    n: usize,
) -> MResult<DeviceBuffer> {
    let out = buffers::allocate(g, n, a.precision)?;
    step_with(
        g,
        Step::TakeRows,
        a,
        order,
        &out,
        &[n as u32, rows as u32, first as u32],
    )?;
    Ok(out)
}
