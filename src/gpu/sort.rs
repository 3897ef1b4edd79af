//! Sorting on the device: a stable LSD radix sort, 4 bits a pass (shaders/sort_pass.wgsl),
//! of keys whose unsigned order is MATLAB's (shaders/sort_keys.wgsl: one word for singles,
//! two for doubles; complemented for 'descend'), carrying each element's place in lane order.
//! The lanes of a dimension sort are sorted together: after the value's digits, the lane's
//! number's digits, so each lane's elements end up together and still in order. Then
//! shaders/sort_place.wgsl writes each lane's values and 1-based indices where they go.
//! Nothing is read back: 1e7 singles are 8 passes of three kernels each.

use super::buffers::{self, DeviceBuffer};
use super::device::Gpu;
use super::launch;
use super::scan::{Lanes, prelude};
use crate::graph::Precision;
use crate::interp::error::MResult;

const KEYS: &str = include_str!("../../shaders/sort_keys.wgsl");
const PASS: &str = include_str!("../../shaders/sort_pass.wgsl");
const PLACE: &str = include_str!("../../shaders/sort_place.wgsl");
/// Elements a workgroup of a radix pass takes.
const BLOCK: usize = 4096;

const KEYS_F32: &str = "let bits = bitcast<u32>(v);
    var kk = select(bits, 0u, (bits & 0x7fffffffu) == 0u);
    kk = select(kk | 0x80000000u, ~kk, (kk >> 31u) == 1u);
    kk = select(kk, 0xffffffffu, s_isnan(v));
    if (params[3] == 1u) {
        kk = ~kk;
    }
    keys[t] = kk;";

const KEYS_F64: &str = "let bits = bitcast<u64>(v);
    var kk = select(bits, 0lu, (bits & 0x7ffffffffffffffflu) == 0lu);
    kk = select(kk | 0x8000000000000000lu, ~kk, (kk >> 63u) == 1lu);
    kk = select(kk, 0xfffffffffffffffflu, s_isnan(v));
    if (params[3] == 1u) {
        kk = ~kk;
    }
    keys[2u * t] = u32(kk & 0xfffffffflu);
    keys[2u * t + 1u] = u32(kk >> 32u);";

fn key_words(p: Precision) -> usize {
    match p {
        Precision::F32 => 1,
        Precision::F64 => 2,
    }
}

/// Whether `lanes` of `p` can be sorted on `g`: places fit u32, buffers one binding.
pub fn fits(g: &Gpu, lanes: Lanes, p: Precision) -> bool {
    let n = lanes.numel();
    n < (u32::MAX as usize) / 2
        && (n * 8) as u64 <= super::kernels::binding_limit(g)
        && (n * p.bytes()) as u64 <= super::kernels::binding_limit(g)
}

/// The stable order of each lane of `x`: a buffer of `numel` u32 words (sorted place →
/// place in lane order `lane * len + k`), lanes one after another.
pub fn order(g: &Gpu, x: &DeviceBuffer, lanes: Lanes, descend: bool) -> MResult<DeviceBuffer> {
    let p = x.precision;
    let n = lanes.numel();
    let kw = key_words(p);
    let mut keys = buffers::allocate(g, n * kw, Precision::F32)?;
    let mut vals = buffers::allocate(g, n, Precision::F32)?;
    let params = [
        n as u32,
        lanes.inner as u32,
        lanes.len as u32,
        u32::from(descend),
    ];
    launch::run(
        g,
        &[2, 0, p as u32],
        || {
            let keys_text = match p {
                Precision::F32 => KEYS_F32,
                Precision::F64 => KEYS_F64,
            };
            format!("{}{}", prelude(p), KEYS.replace("{{KEYS}}", keys_text))
        },
        &[x, &keys, &vals],
        &params,
        n.div_ceil(256),
    )?;
    if lanes.len <= 1 {
        return Ok(vals);
    }
    // (mode, word, shift) of each pass, least significant first.
    let mut passes: Vec<(u32, u32, u32)> = (0..kw as u32)
        .flat_map(|w| (0..8).map(move |s| (0, w, s * 4)))
        .collect();
    let count = lanes.count();
    if count > 1 {
        let bits = 32 - ((count - 1) as u32).leading_zeros();
        passes.extend((0..bits.div_ceil(4)).map(|s| (1, 0, s * 4)));
    }
    let blocks = n.div_ceil(BLOCK);
    let hist = buffers::allocate(g, 16 * blocks, Precision::F32)?;
    let mut keys_b = buffers::allocate(g, n * kw, Precision::F32)?;
    let mut vals_b = buffers::allocate(g, n, Precision::F32)?;
    for (mode, word, shift) in passes {
        let params = [n as u32, blocks as u32, mode, word, shift, lanes.len as u32];
        for (stage, groups) in [(0u32, blocks), (1, 1), (2, blocks)] {
            launch::run(
                g,
                &[2, 1, stage, kw as u32],
                || pass_text(stage, kw),
                &[&keys, &vals, &keys_b, &vals_b, &hist],
                &params,
                groups,
            )?;
        }
        std::mem::swap(&mut keys, &mut keys_b);
        std::mem::swap(&mut vals, &mut vals_b);
    }
    Ok(vals)
}

fn pass_text(stage: u32, kw: usize) -> String {
    let call = match stage {
        0 => "hist_pass(lid.x, b);",
        1 => "offsets_pass(lid.x);",
        _ => "scatter_pass(lid.x, b);",
    };
    PASS.replace("{{KW}}", &kw.to_string())
        .replace("{{PASS}}", call)
}

/// Each lane of `x` sorted (stable; NaN last, or first with `descend`), and with `index`
/// the 1-based places in the lane the values came from, as values of `index`.
pub fn sort(
    g: &Gpu,
    x: &DeviceBuffer,
    lanes: Lanes,
    descend: bool,
    index: Option<Precision>,
) -> MResult<(DeviceBuffer, Option<DeviceBuffer>)> {
    let order = order(g, x, lanes, descend)?;
    place(g, x, &order, lanes, index)
}

/// The values of `x` in the lanes' `order`, and their 1-based places as `index` values.
pub fn place(
    g: &Gpu,
    x: &DeviceBuffer,
    order: &DeviceBuffer,
    lanes: Lanes,
    index: Option<Precision>,
) -> MResult<(DeviceBuffer, Option<DeviceBuffer>)> {
    let p = x.precision;
    let n = lanes.numel();
    let out = buffers::allocate(g, n, p)?;
    let ip = index.unwrap_or(p);
    let idx = buffers::allocate(g, if index.is_some() { n } else { 1 }, ip)?;
    let params = [
        n as u32,
        lanes.inner as u32,
        lanes.len as u32,
        u32::from(index.is_some()),
    ];
    launch::run(
        g,
        &[2, 2, p as u32, ip as u32],
        || format!("{}{}", prelude(p), PLACE.replace("{{IDX}}", ip.wgsl())),
        &[x, order, &out, &idx],
        &params,
        n.div_ceil(256),
    )?;
    Ok((out, index.map(|_| idx)))
}
