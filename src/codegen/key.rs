//! A kernel's canonical form as a few words: everything its text depends on (operations,
//! precision, each input's access kind and element type, constants' places), nothing that
//! varies between runs (buffers, sizes, constant values). Launches look compiled kernels up
//! by it, so a repeated statement neither generates nor hashes WGSL text.

use super::single_math;
use crate::graph::{Precision, RandKind};
use crate::plan::{Access, Group, Step};
use crate::values::ops::Red;

/// Which kernel of a group: elementwise (vector kernels allowed or not), a reduction pass (a
/// workgroup or a thread per lane part) or a moments pass.
#[derive(Clone, Copy)]
pub enum Kind {
    Elementwise {
        vector: bool,
        /// Blocks taken from the end first (`gpu::order`; vector kernels only).
        reversed: bool,
    },
    Reduce {
        op: Red,
        omitnan: bool,
        first: bool,
        per_thread: bool,
    },
    /// `gpu::moments`: the partial moments of lane parts, or (`fold`) their fold.
    Moments { fold: bool },
    /// `gpu::scatter`: values written into an array at affine addresses, or (`index`: that
    /// input + 1, 0 for affine) at the positions an index input holds; `aliased` has a bit
    /// per input that is that array itself (read through the output binding).
    Scatter { aliased: u32, index: u32 },
    /// `gpu::loops`: a loop kernel over `carried` variables; `moving` has a bit per input
    /// whose view moves each iteration (the roots follow the steps in the key).
    Loop { carried: u32, moving: u32 },
}

#[derive(Clone, Debug, Hash, PartialEq, Eq)]
pub struct KernelKey(Vec<u32>);

impl KernelKey {
    /// The key's words (for naming a kernel in per-kernel timings).
    pub fn words(&self) -> &[u32] {
        &self.0
    }
    /// This key with `words` after it (a loop kernel's roots).
    pub fn with(mut self, words: impl IntoIterator<Item = u32>) -> KernelKey {
        self.0.extend(words);
        self
    }
    /// The key of a compaction pass (`gpu::compact`) for mask and result element types.
    pub fn compact(pass: u32, mask: u32, out: u32) -> KernelKey {
        KernelKey(vec![5, pass, mask, out])
    }
    /// The key of an indexed-assignment pass (`gpu::put`) for its element types.
    pub fn put(words: [u32; 5]) -> KernelKey {
        let mut w = vec![9];
        w.extend(words);
        KernelKey(w)
    }
    /// The key of a scan, sort or set kernel (`gpu::launch`): a family number past those
    /// above, then the words its text depends on.
    pub fn custom(words: &[u32]) -> KernelKey {
        let mut w = vec![100];
        w.extend_from_slice(words);
        KernelKey(w)
    }
    /// The key of a matrix product kernel (its form's words after a kind no group key has).
    pub fn matmul(form: &super::MatmulForm) -> KernelKey {
        let mut w = vec![3];
        w.extend(form.words());
        KernelKey(w)
    }
}

fn precision_word(p: Precision) -> u32 {
    match p {
        Precision::F32 => 0,
        Precision::F64 => 1,
    }
}

pub fn key(g: &Group, kind: Kind) -> KernelKey {
    let mut w = Vec::with_capacity(8 + 2 * g.inputs.len() + 4 * g.steps.len());
    match kind {
        Kind::Elementwise { vector, reversed } => {
            w.extend([0, u32::from(vector), u32::from(reversed)])
        }
        Kind::Reduce {
            op,
            omitnan,
            first,
            per_thread,
        } => w.extend([
            1,
            op as u32,
            u32::from(omitnan) | u32::from(first) << 1 | u32::from(per_thread) << 2,
        ]),
        Kind::Moments { fold } => w.extend([2, u32::from(fold), 0]),
        Kind::Scatter { aliased, index } => w.extend([4, aliased, index]),
        Kind::Loop { carried, moving } => w.extend([6, carried, moving]),
    }
    w.push(
        precision_word(g.precision)
            | (single_math() as u32) << 1
            | u32::from(super::fma_sqrt()) << 3,
    );
    w.push(g.consts.len() as u32);
    w.push(g.inputs.len() as u32);
    for (k, a) in g.inputs.iter().enumerate() {
        let access = match (a, super::vector_lanes(g, a)) {
            (Access::Same, _) => 0,
            (Access::Scalar, _) => 1,
            (Access::Strided(..), None) => 2,
            (Access::Strided(..), Some(super::vector::Lanes::Splat)) => 3,
            (Access::Strided(..), Some(super::vector::Lanes::Run)) => 4,
            (Access::Region(r), _) => 5 | (*r as u32) << 8,
        };
        let binding = precision_word(g.bindings.get(k).copied().unwrap_or(g.precision));
        let shifted = u32::from(super::shifted(g, a));
        w.push(access | binding << 3 | shifted << 6);
    }
    for s in &g.steps {
        match *s {
            Step::Input(j) => w.extend([1, j as u32]),
            Step::Const(j) => w.extend([2, j as u32]),
            Step::Unary(op, a) => w.extend([3, op as u32, a as u32]),
            Step::Binary(op, a, b) => w.extend([4, op as u32, a as u32, b as u32]),
            Step::Iota(None) => w.push(5),
            Step::Iota(Some(d)) => w.extend([6, d as u32, u32::from(d < g.shape.ndims())]),
            Step::Rand(j) => {
                let (spec, at) = &g.rands[j];
                let kind = match spec.kind {
                    RandKind::Uniform => 0,
                    RandKind::Normal => 1,
                    RandKind::Int { .. } => 2,
                };
                w.extend([7, j as u32, kind, *at as u32]);
            }
            Step::Embed(old, new, r) => {
                let subscripts = g.regions.get(r).map_or(0, |(region, _)| region.dims.len());
                w.extend([8, old as u32, new as u32, r as u32, subscripts as u32]);
            }
            Step::Select(m, a, b) => w.extend([10, m as u32, a as u32, b as u32]),
            Step::Gather(j) => {
                w.push(9);
                if let Some(plan) = g.gathers.get(j) {
                    w.extend([j as u32, plan.source as u32, plan.subs.len() as u32]);
                    w.extend(
                        plan.subs
                            .iter()
                            .map(|s| s.input.map_or(0, |k| k as u32 + 1)),
                    );
                }
            }
        }
    }
    KernelKey(w)
}
