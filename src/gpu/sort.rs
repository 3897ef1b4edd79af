//! Sorting on the device: a stable LSD radix sort, 8 bits a pass, reduce-then-scan
//! (shaders/sort_pass.wgsl: each tile's digit counts, their scan digit-major, then each
//! tile put in digit order in workgroup memory and written out in runs, coalesced), of
//! keys whose unsigned order is MATLAB's (shaders/sort_keys.wgsl: one word for singles, two
//! for doubles; complemented for 'descend'), carrying each element's place in lane order.
//! A tile is ranked by a warp-level multisplit where the device has subgroups
//! (shaders/sort_rank_subgroup.wgsl), else by two 4-bit splits (shaders/sort_rank_split.wgsl).
//! The lanes of a dimension sort are sorted together: after the value's bytes, the bytes of
//! the lane's number (only as many as the count of lanes needs, none for one lane), so each
//! lane's elements end up together and still in order. A key byte that is the same in every
//! element (the keys kernel ORs the keys and their complements) makes its pass do nothing,
//! decided on the device: doubles of small integers take 2 or 3 passes of 8. Then
//! shaders/sort_place.wgsl writes each lane's values and 1-based indices where they go; a
//! vector's values are decoded from its sorted keys rather than gathered at random.
//! Nothing is read back: 1e7 singles are 4 passes of three kernels each, and 4 more.

use super::buffers::{self, DeviceBuffer};
use super::device::Gpu;
use super::launch;
use super::scan::{Lanes, prelude};
use super::shader_files;
use crate::graph::Precision;
use crate::interp::error::MResult;

const KEYS: &str = include_str!("../../shaders/sort_keys.wgsl");
const PASS: &str = include_str!("../../shaders/sort_pass.wgsl");
const PLACE: &str = include_str!("../../shaders/sort_place.wgsl");
const DECODE_F32: &str = include_str!("../../shaders/sort_decode_f32.wgsl");
const DECODE_F64: &str = include_str!("../../shaders/sort_decode_f64.wgsl");
const RANK_SPLIT: &str = include_str!("../../shaders/sort_rank_split.wgsl");
const RANK_SUBGROUP: &str = include_str!("../../shaders/sort_rank_subgroup.wgsl");
/// Elements a workgroup of the keys kernel takes.
const KEYS_BLOCK: usize = 2048;

const KEYS_F32: &str = "let bits = bitcast<u32>(v);
    var kk = select(bits, 0u, (bits & 0x7fffffffu) == 0u);
    kk = select(kk | 0x80000000u, ~kk, (kk >> 31u) == 1u);
    kk = select(kk, 0xffffffffu, s_isnan(v));
    if (params[3] == 1u) {
        kk = ~kk;
    }
    let lo = kk;
    let hi = 0u;
    keys[t] = lo;";

const KEYS_F64: &str = "let bits = bitcast<u64>(v);
    var kk = select(bits, 0lu, (bits & 0x7ffffffffffffffflu) == 0lu);
    kk = select(kk | 0x8000000000000000lu, ~kk, (kk >> 63u) == 1lu);
    kk = select(kk, 0xfffffffffffffffflu, s_isnan(v));
    if (params[3] == 1u) {
        kk = ~kk;
    }
    let lo = u32(kk & 0xfffffffflu);
    let hi = u32(kk >> 32u);
    keys[2u * t] = lo;
    keys[2u * t + 1u] = hi;";

const CLEAR: &str = "@group(0) @binding(0) var<storage, read_write> words: array<u32>;
@group(0) @binding(1) var<storage, read> params: array<u32>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_id) lid: vec3<u32>) {
    _ = params[0];
    words[lid.x] = 0u;
}
";

fn key_words(p: Precision) -> usize {
    match p {
        Precision::F32 => 1,
        Precision::F64 => 2,
    }
}

/// Elements a thread of a radix pass takes. The subgroup ranking takes 8: its tile's entries
/// are the workgroup memory that bounds how many tiles an SM holds at once, and with 16 the
/// tile loads waited on memory (NVIDIA H200: 218 against 100 us a pass for the loads alone
/// with the tile array cut to 1 KiB). The splits take 16 where the workgroup memory holds
/// the 4096-element tile's two arrays (about 46 KiB; NVIDIA gives 48), else 8.
/// `MATFUSE_SORT_ITEMS` (8 or 16) sets it, for measurements.
fn items(g: &Gpu) -> usize {
    if let Some(k) = std::env::var("MATFUSE_SORT_ITEMS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|k| *k == 8 || (*k == 16 && g.info.max_workgroup_storage >= 48 * 1024))
    {
        return k;
    }
    if g.info.workgroup_subgroup().is_none() && g.info.max_workgroup_storage >= 48 * 1024 {
        16
    } else {
        8
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
    Ok(ordered(g, x, lanes, descend, false)?.0)
}

/// `order`, and with `keep_keys` for one lane the sorted keys too (the last radix pass moves
/// them as well), from which `place` decodes the values instead of gathering them.
fn ordered(
    g: &Gpu,
    x: &DeviceBuffer,
    lanes: Lanes,
    descend: bool,
    keep_keys: bool,
) -> MResult<(DeviceBuffer, Option<DeviceBuffer>)> {
    let keep = keep_keys && lanes.count() == 1;
    let p = x.precision;
    let n = lanes.numel();
    let kw = key_words(p);
    let keys = buffers::allocate(g, n * kw, Precision::F32)?;
    let vals = buffers::allocate(g, n, Precision::F32)?;
    if n == 0 {
        return Ok((vals, None));
    }
    let andor = buffers::allocate(g, 4, Precision::F32)?;
    launch::run(g, &[2, 3], || CLEAR.to_string(), &[&andor], &[], 1)?;
    let params = [
        n as u32,
        lanes.inner as u32,
        lanes.len as u32,
        u32::from(descend),
    ];
    launch::run(
        g,
        &[2, 0, p as u32, 1],
        || {
            let keys_text = match p {
                Precision::F32 => KEYS_F32,
                Precision::F64 => KEYS_F64,
            };
            format!(
                "{}{}",
                prelude(p),
                shader_files::text("sort_keys.wgsl", KEYS).replace("{{KEYS}}", keys_text)
            )
        },
        &[x, &keys, &vals, &andor],
        &params,
        n.div_ceil(KEYS_BLOCK),
    )?;
    if lanes.len <= 1 {
        return Ok((vals, keep.then_some(keys)));
    }
    let count = lanes.count();
    let lane_passes = if count > 1 {
        (32 - ((count - 1) as u32).leading_zeros()).div_ceil(8)
    } else {
        0
    };
    let passes = 4 * kw as u32 + lane_passes;
    let items = items(g);
    let sgs = g.info.workgroup_subgroup();
    let tiles = n.div_ceil(256 * items);
    let hist = buffers::allocate(g, 256 * tiles + 256, Precision::F32)?;
    let keys_b = buffers::allocate(g, n * kw, Precision::F32)?;
    let vals_b = buffers::allocate(g, n, Precision::F32)?;
    let bufs = [&keys, &vals, &keys_b, &vals_b, &hist, &andor];
    let stage = |stage: u32, pass: u32, groups: usize| {
        let params = [
            n as u32,
            tiles as u32,
            pass,
            lanes.len as u32,
            u32::from(keep),
        ];
        launch::run(
            g,
            &[2, 1, stage, kw as u32, items as u32, sgs.unwrap_or(0)],
            || pass_text(stage, kw, items, sgs),
            &bufs,
            &params,
            groups,
        )
    };
    for pass in 0..passes {
        stage(0, pass, tiles)?;
        stage(1, pass, 256)?;
        stage(2, pass, tiles)?;
    }
    // The places end in buffer 0 (copied there when an odd count of passes ran).
    stage(3, passes, tiles)?;
    Ok((vals, keep.then_some(keys)))
}

/// The text of a radix pass's kernel: `stage` 0 counts, 1 scans, 2 scatters, 3 copies back.
pub(crate) fn pass_text(stage: u32, kw: usize, items: usize, sgs: Option<u32>) -> String {
    let call = match stage {
        0 => "hist_pass(lid.x, b);",
        1 => "scan_pass(lid.x, b);",
        2 => "scatter_pass(lid.x, b);",
        _ => "copy_pass(lid.x, b);",
    };
    // Tiles are ranked by a warp-level multisplit where the device has subgroups, else by two
    // 4-bit splits.
    shader_files::with_subgroups(
        &shader_files::text("sort_pass.wgsl", PASS),
        "{{RANK}}",
        sgs,
        ("sort_rank_subgroup.wgsl", RANK_SUBGROUP),
        ("sort_rank_split.wgsl", RANK_SPLIT),
    )
    .replace("{{KW}}", &kw.to_string())
    .replace("{{ITEMS}}", &items.to_string())
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
    let (order, keys) = ordered(g, x, lanes, descend, true)?;
    let sorted = keys.as_ref().map(|k| SortedKeys { keys: k, descend });
    place_from(g, x, &order, sorted, lanes, index)
}

/// The values of `x` in the lanes' `order`, and their 1-based places as `index` values.
pub fn place(
    g: &Gpu,
    x: &DeviceBuffer,
    order: &DeviceBuffer,
    lanes: Lanes,
    index: Option<Precision>,
) -> MResult<(DeviceBuffer, Option<DeviceBuffer>)> {
    place_from(g, x, order, None, lanes, index)
}

/// One lane's keys in sorted order, as the keys kernel made them.
struct SortedKeys<'a> {
    keys: &'a DeviceBuffer,
    descend: bool,
}

/// `place`; with `sorted`, each value is decoded from its key (a coalesced read where the
/// gather of `x` by the order reads at random), and read from `x` only for a zero (the key
/// does not keep -0's sign) or NaN (nor its payload).
fn place_from(
    g: &Gpu,
    x: &DeviceBuffer,
    order: &DeviceBuffer,
    sorted: Option<SortedKeys>,
    lanes: Lanes,
    index: Option<Precision>,
) -> MResult<(DeviceBuffer, Option<DeviceBuffer>)> {
    let p = x.precision;
    let n = lanes.numel();
    let out = buffers::allocate(g, n, p)?;
    let ip = index.unwrap_or(p);
    let idx = buffers::allocate(g, if index.is_some() { n } else { 1 }, ip)?;
    let decode = sorted.is_some();
    let params = [
        n as u32,
        lanes.inner as u32,
        lanes.len as u32,
        u32::from(index.is_some()),
        u32::from(sorted.as_ref().is_some_and(|s| s.descend)),
    ];
    let keys = sorted.as_ref().map_or(order, |s| s.keys);
    launch::run(
        g,
        &[2, 2, p as u32, ip as u32, u32::from(decode)],
        || place_text(p, ip, decode),
        &[x, order, &out, &idx, keys],
        &params,
        n.div_ceil(256),
    )?;
    Ok((out, index.map(|_| idx)))
}

/// The text of the kernel that writes the sorted values of precision `p` and indices of
/// precision `ip`, decoding the values from their keys with `decode`.
pub(crate) fn place_text(p: Precision, ip: Precision, decode: bool) -> String {
    let decoder = match (decode, p) {
        (false, _) => "".into(),
        (true, Precision::F32) => shader_files::text("sort_decode_f32.wgsl", DECODE_F32),
        (true, Precision::F64) => shader_files::text("sort_decode_f64.wgsl", DECODE_F64),
    };
    format!(
        "{}{}{}",
        prelude(p),
        shader_files::text("sort_place.wgsl", PLACE)
            .replace("{{IDX}}", ip.wgsl())
            .replace("{{VALUE}}", if decode { "decoded(p, t1)" } else { "x[t1]" }),
        decoder
    )
}

#[cfg(test)]
mod tests {
    use super::{pass_text, place_text};
    use crate::gpu::shader_files::validate;
    use crate::graph::Precision;

    #[test]
    fn place_texts_validate() {
        for p in [Precision::F32, Precision::F64] {
            for ip in [Precision::F32, Precision::F64] {
                for decode in [false, true] {
                    validate(&place_text(p, ip, decode));
                }
            }
        }
    }

    /// Both tile rankings, every stage, as the device would get them, pass naga's checks
    /// with every capability, at the subgroup sizes devices have (lavapipe 8, NVIDIA 32,
    /// AMD 64): a device runs only its own size, so this is where the others are checked.
    #[test]
    fn radix_pass_texts_validate() {
        for sgs in [None, Some(8), Some(32), Some(64)] {
            for kw in [1, 2] {
                for items in [8, 16] {
                    for stage in 0..4 {
                        validate(&pass_text(stage, kw, items, sgs));
                    }
                }
            }
        }
    }
}
