//! Gathers and views moved through the pending elementwise work that computes their source:
//! `x(idx)` of a pending `x = x0 * c` reads `x0` at the positions and multiplies there, so
//! the source is not computed whole for the gather. A loop `y = x(idx) .* w + y; x = x * 0.999`
//! then fuses into one kernel instead of computing `x` every step, `v(idx)` of a long chain
//! computes only the elements it picks, and `d = y(2:end) - y(1:end-1)` of a pending
//! `y = a .* b` is one kernel reading `a` and `b`.

use super::{Affine, Node, Op, Pick, intern};
use crate::values::shape::Shape;
use std::collections::HashMap;
use std::rc::Rc;

/// Nodes one gather may rebuild; past them it reads its source as it is.
const MOST_NODES: usize = 256;
/// Arrays under the work a gather or view may be moved to (half a kernel's bindings).
const MOST_BASES: usize = crate::plan::MAX_INPUTS / 2;

/// What is taken from the source: the elements a gather picks, or a view's.
enum Take<'a> {
    Gather(&'a [Pick], &'a [Rc<Node>]),
    View(&'a Affine),
}

/// The gather `Op::Gather(picks)` of `source` at the index nodes `indices`, shaped `shape`,
/// moved through the source's pending elementwise work where that reads less (`sunk`).
pub fn gather(source: &Rc<Node>, picks: &[Pick], indices: &[Rc<Node>], shape: &Shape) -> Rc<Node> {
    // A mask's gather keeps its own forms (a masked reduction, one compaction of values).
    let masked = indices.iter().any(|i| {
        let mut at = i;
        while let Op::Reshape = at.op {
            at = &at.inputs[0];
        }
        at.op == Op::Positions
    });
    let take = Take::Gather(picks, indices);
    match masked {
        true => taken(source, &take, shape),
        false => sunk(source, &take, shape).unwrap_or_else(|| taken(source, &take, shape)),
    }
}

/// The view `Op::View(affine)` of `source`, shaped `shape`, moved through the source's
/// pending elementwise work; None where it is not (the view reads the source computed).
pub fn view(source: &Rc<Node>, affine: &Affine, shape: &Shape) -> Option<Rc<Node>> {
    sunk(source, &Take::View(affine), shape)
}

/// `take` of `source` moved through its pending elementwise operations (unary, binary and
/// casts whose operands have the source's shape or are scalars) down to the arrays they
/// read. Taken where it reads no more than computing the source would: one array under the
/// work, or few elements per array (`count * arrays <= numel`); None otherwise.
fn sunk(source: &Rc<Node>, take: &Take<'_>, shape: &Shape) -> Option<Rc<Node>> {
    if !sinks(source) || source.numel() <= 1 {
        return None;
    }
    let mut bases = Vec::new();
    let mut seen = 0usize;
    let mut costly = false;
    if !collect(source, &source.shape, &mut bases, &mut seen, &mut costly) {
        return None;
    }
    // Views come several to an array (`y(2:end) - y(1:end-1)`) and each computes the work
    // again where it reads: taken through arithmetic, or where a view reads few elements,
    // but a wide view of functions (`sin`, `exp`) reads the computed array instead.
    if costly && matches!(take, Take::View(_)) && shape.numel().saturating_mul(4) > source.numel() {
        return None;
    }
    if bases.len() > 1 && shape.numel().saturating_mul(bases.len()) > source.numel() {
        return None;
    }
    // A view reads its input computed (`interp::slices::view_of` computes a pending one
    // first, keeping a stencil's chain at one kernel a step), and a gather of several
    // pending arrays would compute each apart: computed arrays only, but for one. And few
    // of them: each taken array binds apart (a chain reading eight columns of a matrix,
    // read three elements at a time, was split into a kernel per column).
    let computed = bases.iter().all(|b| b.is_realised());
    if bases.len() > MOST_BASES || (!computed && (bases.len() > 1 || matches!(take, Take::View(_))))
    {
        return None;
    }
    let mut memo = HashMap::new();
    Some(rebuild(source, take, shape, &mut memo))
}

/// `take` of `n` as it is.
fn taken(n: &Rc<Node>, take: &Take<'_>, shape: &Shape) -> Rc<Node> {
    match take {
        Take::Gather(picks, indices) => {
            let mut inputs = Vec::with_capacity(indices.len() + 1);
            inputs.push(n.clone());
            inputs.extend(indices.iter().cloned());
            intern(Op::Gather(picks.to_vec()), inputs, shape.clone(), n.class)
        }
        Take::View(affine) => intern(
            Op::View((*affine).clone()),
            vec![n.clone()],
            shape.clone(),
            n.class,
        ),
    }
}

/// Whether `n` is pending elementwise work a gather moves through.
fn sinks(n: &Node) -> bool {
    n.data.borrow().is_none() && matches!(n.op, Op::Unary(_) | Op::Binary(_) | Op::Cast)
}

/// Whether an operand of a node of `shape` is a scalar (kept as it is under the gather).
fn scalar(n: &Node) -> bool {
    n.numel() == 1
}

/// The distinct arrays under `n`'s elementwise work into `bases`; false where some operand
/// is broadcast (neither the source's shape nor a scalar) or the work is too large.
/// `costly` is set where some operation is more than a few instructions (`cheap`).
fn collect(
    n: &Rc<Node>,
    shape: &Shape,
    bases: &mut Vec<Rc<Node>>,
    seen: &mut usize,
    costly: &mut bool,
) -> bool {
    *seen += 1;
    if *seen > MOST_NODES {
        return false;
    }
    if !sinks(n) {
        if !bases.iter().any(|b| Rc::ptr_eq(b, n)) {
            bases.push(n.clone());
        }
        return true;
    }
    *costly |= !cheap(&n.op);
    n.inputs.iter().all(|a| {
        if scalar(a) {
            true
        } else {
            a.shape == *shape && collect(a, shape, bases, seen, costly)
        }
    })
}

/// Whether an elementwise operation is arithmetic, a comparison or a cast: computing it
/// again costs less than reading it back from memory.
fn cheap(op: &Op) -> bool {
    use crate::values::ops::{Bin, Un};
    match op {
        Op::Cast => true,
        Op::Unary(u) => matches!(
            u,
            Un::Neg | Un::Not | Un::Abs | Un::Sign | Un::Floor | Un::Ceil | Un::Round | Un::Fix
        ),
        Op::Binary(b) => !matches!(
            b,
            Bin::Pow
                | Bin::Atan2
                | Bin::Hypot
                | Bin::Mod
                | Bin::Rem
                | Bin::Nthroot
                | Bin::Atan2d
                | Bin::Pow2
                | Bin::Beta
        ),
        _ => false,
    }
}

/// `n` rebuilt over what `take` takes of the arrays it reads (scalars kept), each node once.
fn rebuild(
    n: &Rc<Node>,
    take: &Take<'_>,
    shape: &Shape,
    memo: &mut HashMap<*const Node, Rc<Node>>,
) -> Rc<Node> {
    if let Some(done) = memo.get(&Rc::as_ptr(n)) {
        return done.clone();
    }
    let out = if !sinks(n) {
        taken(n, take, shape)
    } else {
        let inputs = n
            .inputs
            .iter()
            .map(|a| match scalar(a) {
                true => a.clone(),
                false => rebuild(a, take, shape, memo),
            })
            .collect();
        intern(n.op.clone(), inputs, shape.clone(), n.class)
    };
    memo.insert(Rc::as_ptr(n), out.clone());
    out
}
