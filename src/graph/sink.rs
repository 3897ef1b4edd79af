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
    if !collect(source, &source.shape, &mut bases, &mut seen) {
        return None;
    }
    if bases.len() > 1 && shape.numel().saturating_mul(bases.len()) > source.numel() {
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
fn collect(n: &Rc<Node>, shape: &Shape, bases: &mut Vec<*const Node>, seen: &mut usize) -> bool {
    *seen += 1;
    if *seen > MOST_NODES {
        return false;
    }
    if !sinks(n) {
        let p = Rc::as_ptr(n);
        if !bases.contains(&p) {
            bases.push(p);
        }
        return true;
    }
    n.inputs.iter().all(|a| {
        if scalar(a) {
            true
        } else {
            a.shape == *shape && collect(a, shape, bases, seen)
        }
    })
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
