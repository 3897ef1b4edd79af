//! Direct convolution on the device (shaders/conv.wgsl): `conv` of vectors and the FIR form
//! of `filter` along any dimension, a thread per output. A 31-tap filter of 1e7 singles is
//! a few hundred million multiply-adds: microseconds here, against the host's seconds of
//! gather, compute and upload (bench/fft f2). Nothing is read back.

use super::buffers::{self, DeviceBuffer};
use super::device::Gpu;
use super::launch;
use crate::interp::error::MResult;

const CONV: &str = include_str!("../../shaders/conv.wgsl");

/// How a convolution runs: lanes of `na` elements `inner` apart, `outer` blocks of them,
/// convolved with `nb` taps into `n_out` outputs a lane, from full index `start` (conv) or
/// as a causal filter (`filter`).
#[derive(Clone, Copy, Debug)]
pub struct ConvShape {
    pub inner: usize,
    pub outer: usize,
    pub na: usize,
    pub nb: usize,
    pub n_out: usize,
    pub start: usize,
    pub filter: bool,
}

/// Whether the buffers of a convolution of this shape fit the kernel (positions within u32,
/// each buffer one binding).
pub fn fits(g: &Gpu, s: &ConvShape, bytes: usize) -> bool {
    let limit = (u32::MAX / 2) as usize;
    let n_in = s.inner * s.outer * s.na;
    let n_out = s.inner * s.outer * s.n_out;
    n_in < limit
        && n_out < limit
        && s.nb < limit
        && s.nb > 0
        && (n_in.max(n_out) * bytes) as u64 <= super::kernels::binding_limit(g)
}

/// The convolution of `x`'s lanes with taps `h` (both of one precision), a new buffer.
pub fn run(g: &Gpu, x: &DeviceBuffer, h: &DeviceBuffer, s: &ConvShape) -> MResult<DeviceBuffer> {
    let p = x.precision;
    let n = s.inner * s.outer * s.n_out;
    let out = buffers::allocate(g, n, p)?;
    if n == 0 {
        return Ok(out);
    }
    let params = [
        n as u32,
        s.inner as u32,
        s.na as u32,
        s.nb as u32,
        s.n_out as u32,
        s.start as u32,
        u32::from(s.filter),
    ];
    let key = [7, p as u32];
    launch::run(
        g,
        &key,
        || format!("alias T = {};\n{CONV}", p.wgsl()),
        &[x, h, &out],
        &params,
        n.div_ceil(256),
    )?;
    Ok(out)
}
