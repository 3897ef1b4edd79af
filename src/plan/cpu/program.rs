//! A group made ready for the host: each step's storage type, the steps that are one value
//! for the whole group (constants, scalar inputs and what is computed from them only), the
//! inputs read in place, and a block slot per remaining step, reused once its last reader
//! has run (an 11-step chain needs three or four).
//!
//! Types: a step stores exactly the value the host evaluator's f64 path would hold. Single
//! steps, and 0/1 results in a single group, store f32; inputs store their own type; the rest
//! f64. A step computes in f32 only where that gives the f64 path's bits (`exact_in_single`).

use super::super::{Access, Group, Step};
use crate::graph::Data;
use crate::graph::ops::{eval_binary, eval_unary};
use crate::graph::{RandSpec, Region};
use crate::interp::error::{MError, MResult};
use crate::values::ops::{Bin, Un};
use crate::values::shape::Shape;
use crate::values::tensor::{Data as TData, Tensor};
use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ty {
    F32,
    F64,
}

/// A leaf's values as the executor reads them.
#[derive(Clone, Copy)]
pub enum Leaf<'a> {
    F32(&'a [f32]),
    F64(&'a [f64]),
}

impl Leaf<'_> {
    pub fn len(&self) -> usize {
        match self {
            Leaf::F32(v) => v.len(),
            Leaf::F64(v) => v.len(),
        }
    }
    pub fn ty(&self) -> Ty {
        match self {
            Leaf::F32(_) => Ty::F32,
            Leaf::F64(_) => Ty::F64,
        }
    }
    pub fn get(&self, i: usize) -> Option<f64> {
        match self {
            Leaf::F32(v) => v.get(i).map(|&x| x as f64),
            Leaf::F64(v) => v.get(i).copied(),
        }
    }
}

/// What keeps a leaf's values alive: the host tensor itself (single and double data are read
/// in place), or a converted copy (device data, logical, integer and char data).
pub enum Held {
    Tensor(Rc<Tensor>),
    Copy(Vec<f64>),
}

impl Held {
    pub fn leaf(&self) -> Leaf<'_> {
        match self {
            Held::Tensor(t) => match &t.data {
                TData::F32(v) => Leaf::F32(v),
                TData::F64(v) => Leaf::F64(v),
                _ => Leaf::F64(&[]),
            },
            Held::Copy(v) => Leaf::F64(v),
        }
    }
}

/// The leaves of `g`, held for reading.
pub fn hold(g: &Group) -> MResult<Vec<Held>> {
    g.leaves
        .iter()
        .map(|l| {
            Ok(match &*l.data.borrow() {
                Some(Data::Host(t)) => match &t.data {
                    TData::F32(_) | TData::F64(_) => Held::Tensor(t.clone()),
                    _ => Held::Copy(t.to_f64().into_owned()),
                },
                Some(Data::Device(b)) => Held::Copy(crate::gpu::buffers::download(b)?),
                None => Held::Copy(Vec::new()),
            })
        })
        .collect()
}

/// How a step's value is found for a block.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Place {
    /// One value for every element (already rounded as the step is).
    Scalar(f64),
    /// Input `j` read in place at the block's own elements, from the offset on (a view
    /// whose elements lie in the input's order, `x(2:end)`, reads as a slice too).
    Leaf(usize, usize),
    /// A block slot of the step's type.
    Slot(usize),
}

/// The parts of a group the evaluation reads, shareable across threads.
pub struct Program<'a> {
    pub shape: &'a Shape,
    pub inputs: &'a [Access],
    pub rands: &'a [(RandSpec, usize)],
    pub steps: &'a [Step],
    pub single: &'a [bool],
    pub regions: &'a [(Region, Vec<usize>)],
    pub gathers: &'a [crate::plan::gathers::GatherPlan],
    pub leaves: Vec<Leaf<'a>>,
    pub ty: Vec<Ty>,
    pub place: Vec<Place>,
    pub slots32: usize,
    pub slots64: usize,
    /// Per input: the output's dimensions of more than one element, with the input's stride
    /// along each (strided inputs only).
    pub strided: Vec<Vec<(usize, u32)>>,
}

/// Results that are 0 or 1 whatever their operands.
fn zero_one(step: &Step) -> bool {
    use Bin::*;
    match step {
        Step::Binary(op, ..) => matches!(op, Eq | Ne | Lt | Le | Gt | Ge | And | Or | Xor),
        Step::Unary(op, _) => matches!(op, Un::Not | Un::IsNan | Un::IsInf | Un::IsFinite),
        _ => false,
    }
}

/// Operations whose f32 result from f32 operands is the f64 result rounded (IEEE operations
/// correctly rounded in both; comparisons, selections and integer roundings exact).
pub fn exact_in_single_bin(op: Bin) -> bool {
    use Bin::*;
    matches!(
        op,
        Add | Sub | Mul | Div | LDiv | Eq | Ne | Lt | Le | Gt | Ge | And | Or | Xor | Max | Min
    )
}

pub fn exact_in_single_un(op: Un) -> bool {
    use Un::*;
    matches!(
        op,
        Neg | Abs
            | Sign
            | Sqrt
            | Floor
            | Ceil
            | Round
            | Fix
            | Real
            | Conj
            | Not
            | IsNan
            | IsInf
            | IsFinite
    )
}

fn operands(step: &Step) -> Vec<usize> {
    match step {
        Step::Unary(_, a) => vec![*a],
        Step::Binary(_, a, b) | Step::Embed(a, b, _) => vec![*a, *b],
        Step::Select(m, a, b) => vec![*m, *a, *b],
        _ => Vec::new(),
    }
}

/// Input step `step` as (input, offset) when its elements are the input's own from an
/// offset on, in order and of the step's type: read in place, not copied into a slot.
fn in_place(g: &Group, leaves: &[Leaf<'_>], step: &Step, ty: Ty) -> Option<(usize, usize)> {
    let Step::Input(j) = step else {
        return None;
    };
    let leaf = leaves.get(*j)?;
    if leaf.ty() != ty {
        return None;
    }
    match g.inputs.get(*j)? {
        Access::Same => Some((*j, 0)),
        Access::Strided(strides, off) => {
            // dense: each dimension of more than one element steps by the elements below it
            let mut below = 1usize;
            for d in 0..g.shape.ndims() {
                let size = g.shape.dim(d);
                if size > 1 && strides.get(d).copied().map(|s| s as usize) != Some(below) {
                    return None;
                }
                below *= size;
            }
            let off = *off as usize;
            (off + g.shape.numel() <= leaf.len()).then_some((*j, off))
        }
        _ => None,
    }
}

impl<'a> Program<'a> {
    /// Rough cost of one element of the group, in units of one arithmetic step: what decides
    /// whether handing blocks to other threads pays for their wake-up.
    pub fn weight(&self) -> usize {
        self.steps
            .iter()
            .zip(&self.place)
            .map(|(step, place)| match (step, place) {
                (_, Place::Scalar(_)) => 0,
                (Step::Input(_), Place::Leaf(..)) => 0,
                (Step::Unary(op, _), _) if super::elementwise::is_vmath(*op) => 12,
                (Step::Unary(op, _), _) if !exact_in_single_un(*op) => 24,
                (Step::Binary(op, ..), _) if !exact_in_single_bin(*op) => 24,
                _ => 1,
            })
            .sum::<usize>()
            .max(1)
    }

    pub fn new(g: &'a Group, held: &'a [Held]) -> MResult<Program<'a>> {
        let leaves: Vec<Leaf<'a>> = held.iter().map(|h| h.leaf()).collect();
        let n = g.shape.numel();
        let short = g.inputs.iter().zip(&leaves).any(|(a, l)| match a {
            Access::Same => l.len() < n,
            _ => l.len() == 0 && n > 0,
        });
        if short {
            return Err(MError::new(
                "matfuse:internal",
                "A kernel input was not computed.",
            ));
        }
        let single_group = g.precision == crate::graph::Precision::F32;
        let nsteps = g.steps.len();
        let mut ty = Vec::with_capacity(nsteps);
        let mut scalar: Vec<Option<f64>> = Vec::with_capacity(nsteps);
        let round = |k: usize, v: f64| if g.single[k] { v as f32 as f64 } else { v };
        for (k, step) in g.steps.iter().enumerate() {
            let t = match step {
                _ if g.single[k] => Ty::F32,
                Step::Input(j) => leaves[*j].ty(),
                s if zero_one(s) && single_group => Ty::F32,
                _ => Ty::F64,
            };
            ty.push(t);
            let s = match step {
                Step::Const(j) => Some(round(k, g.consts.get(*j).copied().unwrap_or(f64::NAN))),
                Step::Input(j) if g.inputs[*j] == Access::Scalar => {
                    Some(round(k, leaves[*j].get(0).unwrap_or(f64::NAN)))
                }
                Step::Unary(op, a) => scalar[*a].map(|x| round(k, eval_unary(*op, x))),
                Step::Binary(op, a, b) => match (scalar[*a], scalar[*b]) {
                    (Some(x), Some(y)) => Some(round(k, eval_binary(*op, x, y))),
                    _ => None,
                },
                _ => None,
            };
            scalar.push(s);
        }
        // last reader of each step (the result is read at the end)
        let mut last = vec![0usize; nsteps];
        for (k, step) in g.steps.iter().enumerate() {
            for a in operands(step) {
                last[a] = k;
            }
        }
        if let Some(l) = last.last_mut() {
            *l = usize::MAX;
        }
        let (mut free32, mut free64) = (Vec::new(), Vec::new());
        let (mut slots32, mut slots64) = (0usize, 0usize);
        let mut place = Vec::with_capacity(nsteps);
        for (k, step) in g.steps.iter().enumerate() {
            let p = if let Some(v) = scalar[k] {
                Place::Scalar(v)
            } else if let Some((j, off)) = in_place(g, &leaves, step, ty[k]) {
                Place::Leaf(j, off)
            } else {
                let (free, count) = match ty[k] {
                    Ty::F32 => (&mut free32, &mut slots32),
                    Ty::F64 => (&mut free64, &mut slots64),
                };
                Place::Slot(free.pop().unwrap_or_else(|| {
                    *count += 1;
                    *count - 1
                }))
            };
            place.push(p);
            for a in operands(step) {
                if last[a] == k {
                    if let Place::Slot(s) = place[a] {
                        match ty[a] {
                            Ty::F32 => free32.push(s),
                            Ty::F64 => free64.push(s),
                        }
                    }
                    // read by no later step: a second operand naming it frees nothing more
                    last[a] = usize::MAX - 1;
                }
            }
        }
        let strided = g
            .inputs
            .iter()
            .map(|a| match a {
                Access::Strided(strides, _) => (0..g.shape.ndims())
                    .filter(|&d| g.shape.dim(d) > 1)
                    .map(|d| (g.shape.dim(d), strides.get(d).copied().unwrap_or(0)))
                    .collect(),
                _ => Vec::new(),
            })
            .collect();
        Ok(Program {
            shape: &g.shape,
            inputs: &g.inputs,
            rands: &g.rands,
            steps: &g.steps,
            single: &g.single,
            regions: &g.regions,
            gathers: &g.gathers,
            leaves,
            ty,
            place,
            slots32,
            slots64,
            strided,
        })
    }
}
