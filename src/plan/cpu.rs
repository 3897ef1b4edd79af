//! The host executor: runs a fused group a block of elements at a time, with the host evaluator's own
//! scalar functions (so results equal the eager path's), rounding to single where a step is
//! single. Large groups are split across the cores. It is the no-GPU fallback and the oracle
//! for GPU parity tests.

use super::{Access, Group, Step};
use crate::graph::Data;
use crate::graph::ops::{eval_binary, eval_unary};
use crate::interp::error::MResult;
use crate::values::class::Class;
use crate::values::shape::Shape;
use crate::values::tensor::{Data as TData, Tensor};
use std::borrow::Cow;

/// Elements per thread below which splitting is not worth a thread.
const CHUNK: usize = 1 << 16;

/// A tensor of `class` from f64 values (logical results are 0/1).
pub fn tensor_of(values: Vec<f64>, shape: Shape, class: Class) -> Tensor {
    match class {
        Class::Single => Tensor::new(
            shape,
            TData::F32(values.iter().map(|&x| x as f32).collect()),
        ),
        Class::Logical => Tensor::bools(shape, values.iter().map(|&x| x != 0.0).collect()),
        _ => Tensor::f64(shape, values),
    }
}

fn leaf_values(d: &Data) -> MResult<Vec<f64>> {
    Ok(match d {
        Data::Host(t) => t.to_f64().into_owned(),
        Data::Device(b) => crate::gpu::buffers::download(b)?,
    })
}

fn index_of(access: &Access, i: usize, g: &Program<'_>) -> usize {
    match access {
        Access::Same => i,
        Access::Scalar => 0,
        // The device's arithmetic: 32-bit words, wrapping (strides that step back are two's
        // complement).
        Access::Strided(strides, offset) => {
            let mut rem = i;
            let mut at = *offset;
            for (d, s) in strides.iter().enumerate() {
                let n = g.shape.dim(d).max(1);
                at = at.wrapping_add(((rem % n) as u32).wrapping_mul(*s));
                rem /= n;
            }
            at as usize
        }
        Access::Region(r) => g
            .regions
            .get(*r)
            .and_then(|(region, sizes)| region.index_of(i, sizes))
            .unwrap_or(0),
    }
}

/// The 1-based subscript of element `i` of `shape` along `dim` (linear index + 1 without).
pub fn subscript(shape: &Shape, i: usize, dim: Option<usize>) -> f64 {
    match dim {
        None => (i + 1) as f64,
        Some(d) => {
            let below: usize = (0..d).map(|k| shape.dim(k)).product();
            ((i / below.max(1)) % shape.dim(d).max(1) + 1) as f64
        }
    }
}

/// Gather `j`'s value at element `i`, addressed as the device does (`codegen::regions`).
fn gathered(g: &Program<'_>, leaves: &[Cow<'_, [f64]>], j: usize, i: usize) -> f64 {
    let Some(plan) = g.gathers.get(j) else {
        return f64::NAN;
    };
    let linear = plan.subs.len() == 1;
    let mut at = 0u32;
    for (d, sub) in plan.subs.iter().enumerate() {
        let position = match (sub.input, sub.pick) {
            (Some(k), _) => {
                let v = g
                    .inputs
                    .get(k)
                    .and_then(|a| leaves.get(k)?.get(index_of(a, i, g)).copied())
                    .unwrap_or(0.0);
                (v as u32).wrapping_sub(1)
            }
            (None, crate::graph::Pick::Range { start, step }) => {
                let along = if linear {
                    i as u32
                } else {
                    subscript(g.shape, i, Some(d)) as u32 - 1
                };
                (start as u32).wrapping_add(along.wrapping_mul(step as u32))
            }
            (None, crate::graph::Pick::Index) => 0,
        };
        at = at.wrapping_add(position.wrapping_mul(sub.stride as u32));
    }
    leaves
        .get(plan.source)
        .and_then(|l| l.get(at as usize))
        .copied()
        .unwrap_or(f64::NAN)
}

/// The parts of a group the evaluation reads (no graph nodes, so threads can share it).
struct Program<'a> {
    shape: &'a Shape,
    inputs: &'a [Access],
    consts: &'a [f64],
    rands: &'a [(crate::graph::RandSpec, usize)],
    steps: &'a [Step],
    single: &'a [bool],
    regions: &'a [(crate::graph::Region, Vec<usize>)],
    gathers: &'a [super::gathers::GatherPlan],
}

/// Elements evaluated together: each step runs over a block before the next, so the step
/// list is walked once per block, not once per element.
const BLOCK: usize = 512;

fn eval_range(
    g: &Program<'_>,
    leaves: &[Cow<'_, [f64]>],
    range: std::ops::Range<usize>,
    out: &mut [f64],
) {
    let nsteps = g.steps.len();
    let mut vals = vec![0.0f64; nsteps * BLOCK];
    let mut start = range.start;
    for chunk in out.chunks_mut(BLOCK) {
        let len = chunk.len();
        for (k, step) in g.steps.iter().enumerate() {
            // Operands are earlier steps: their blocks sit before this one's.
            let (before, rest) = vals.split_at_mut(k * BLOCK);
            let dst = &mut rest[..len];
            let block = |a: usize| &before[a * BLOCK..a * BLOCK + len];
            match step {
                Step::Input(j) => match &g.inputs[*j] {
                    Access::Same => dst.copy_from_slice(&leaves[*j][start..start + len]),
                    Access::Scalar => dst.fill(leaves[*j][0]),
                    access => {
                        for (e, d) in dst.iter_mut().enumerate() {
                            let at = index_of(access, start + e, g);
                            *d = leaves[*j].get(at).copied().unwrap_or(f64::NAN);
                        }
                    }
                },
                Step::Const(j) => dst.fill(g.consts[*j]),
                Step::Unary(op, a) => {
                    for (d, &x) in dst.iter_mut().zip(block(*a)) {
                        *d = eval_unary(*op, x);
                    }
                }
                Step::Binary(op, a, b) => {
                    for ((d, &x), &y) in dst.iter_mut().zip(block(*a)).zip(block(*b)) {
                        *d = eval_binary(*op, x, y);
                    }
                }
                Step::Rand(j) => {
                    for (e, d) in dst.iter_mut().enumerate() {
                        *d = g.rands[*j].0.value((start + e) as u64, g.single[k]);
                    }
                }
                Step::Iota(dim) => {
                    for (e, d) in dst.iter_mut().enumerate() {
                        *d = subscript(g.shape, start + e, *dim);
                    }
                }
                Step::Select(m, a, b) => {
                    let (m, a, b) = (block(*m), block(*a), block(*b));
                    for (e, d) in dst.iter_mut().enumerate() {
                        *d = if m[e] != 0.0 { a[e] } else { b[e] };
                    }
                }
                Step::Gather(j) => {
                    for (e, d) in dst.iter_mut().enumerate() {
                        *d = gathered(g, leaves, *j, start + e);
                    }
                }
                Step::Embed(old, new, r) => {
                    let (region, sizes) = &g.regions[*r];
                    let (old, new) = (block(*old), block(*new));
                    for (e, d) in dst.iter_mut().enumerate() {
                        let inside = region.index_of(start + e, sizes).is_some();
                        *d = if inside { new[e] } else { old[e] };
                    }
                }
            }
            if g.single[k] {
                for d in dst.iter_mut() {
                    *d = *d as f32 as f64;
                }
            }
        }
        let last = (nsteps - 1) * BLOCK;
        chunk.copy_from_slice(&vals[last..last + len]);
        start += len;
    }
}

/// Runs a group on the host.
pub fn run(g: &Group, class: Class) -> MResult<Tensor> {
    let owned: Vec<Vec<f64>> = g
        .leaves
        .iter()
        .map(|l| match &*l.data.borrow() {
            Some(d) => leaf_values(d),
            None => Ok(Vec::new()),
        })
        .collect::<MResult<_>>()?;
    let leaves: Vec<Cow<'_, [f64]>> = owned.iter().map(|v| Cow::Borrowed(v.as_slice())).collect();
    let n = g.shape.numel();
    let short = g.inputs.iter().zip(&leaves).any(|(a, l)| match a {
        Access::Same => l.len() < n,
        _ => l.is_empty() && n > 0,
    });
    if short {
        return Err(crate::interp::error::MError::new(
            "matfuse:internal",
            "A kernel input was not computed.",
        ));
    }
    let n = g.shape.numel();
    let mut out = vec![0.0f64; n];
    let prog = Program {
        shape: &g.shape,
        inputs: &g.inputs,
        consts: &g.consts,
        rands: &g.rands,
        steps: &g.steps,
        single: &g.single,
        regions: &g.regions,
        gathers: &g.gathers,
    };
    let g = &prog;
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
    if n < 2 * CHUNK || threads < 2 || g.steps.is_empty() {
        if !g.steps.is_empty() {
            eval_range(g, &leaves, 0..n, &mut out);
        }
    } else {
        let per = n.div_ceil(threads);
        std::thread::scope(|s| {
            for (t, part) in out.chunks_mut(per).enumerate() {
                let leaves = &leaves;
                s.spawn(move || {
                    let start = t * per;
                    eval_range(g, leaves, start..start + part.len(), part)
                });
            }
        });
    }
    Ok(tensor_of(out, g.shape.clone(), class))
}
