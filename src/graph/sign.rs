//! Which nodes hold no negative values, known from how they are made: `sqrt` and `log` of
//! such a node are real, so they can stay in the graph (of anything else they may be
//! complex, which only the host computes). NaN counts as not negative: its sqrt is NaN.

use super::{Data, Node, Op, RandKind};
use crate::values::class::Class;
use crate::values::ops::{Bin, Red, Un};
use std::rc::Rc;

/// Some(true) when no element of `n` can be negative, Some(false) when one is (found in its
/// data), None when only computing it would tell. Results are remembered on the node.
pub fn nonneg(n: &Node) -> Option<bool> {
    if let Some(known) = n.nonneg.get() {
        return Some(known);
    }
    let r = derive(n);
    if let Some(known) = r {
        n.nonneg.set(Some(known));
    }
    r
}

/// Whether host data has no negative element (the data of device leaves is not read here).
fn host_nonneg(n: &Node) -> Option<bool> {
    match &*n.data.borrow() {
        // singles and doubles scanned where they lie, in blocks (a vectorised test each, a
        // stop at the first block with a negative): a widened copy of the array was most of
        // `log(x)` of singles
        Some(Data::Host(t)) => Some(match &t.data {
            crate::values::tensor::Data::F64(v) => !v
                .chunks(4096)
                .any(|c| c.iter().fold(false, |a, &x| a | (x < 0.0))),
            crate::values::tensor::Data::F32(v) => !v
                .chunks(4096)
                .any(|c| c.iter().fold(false, |a, &x| a | (x < 0.0))),
            _ => !t.to_f64().iter().any(|&x| x < 0.0),
        }),
        _ => None,
    }
}

fn derive(n: &Node) -> Option<bool> {
    if n.class == Class::Logical {
        return Some(true);
    }
    let arg = |k: usize| nonneg(&n.inputs[k]) == Some(true);
    let known = match &n.op {
        Op::Leaf => false,
        Op::Const(c) => !(*c < 0.0),
        Op::Iota(_) | Op::Positions => true,
        Op::Rand(spec) => match spec.kind {
            RandKind::Uniform => true,
            RandKind::Normal => false,
            RandKind::Int { lo, .. } => lo >= 0.0,
        },
        Op::Reshape | Op::Transpose | Op::Cast | Op::View(_) => arg(0),
        Op::Embed(_) => arg(0) && arg(1),
        Op::Gather(_) => arg(0),
        Op::Select => arg(1) && arg(2),
        Op::Unary(op) => match op {
            Un::Abs | Un::Exp | Un::Cosh | Un::Sqrt => true,
            Un::Floor | Un::Ceil | Un::Round | Un::Fix | Un::Sign | Un::Expm1 => arg(0),
            Un::Sinh | Un::Tanh | Un::Atan | Un::Log1p => arg(0),
            _ => false,
        },
        Op::Binary(op) => match op {
            // x.*x (x.^2 is made so) is a square.
            Bin::Mul if std::rc::Rc::ptr_eq(&n.inputs[0], &n.inputs[1]) => true,
            Bin::Add | Bin::Mul | Bin::Div | Bin::LDiv | Bin::Min => arg(0) && arg(1),
            Bin::Max => arg(0) || arg(1),
            Bin::Hypot => true,
            // mod takes the divisor's sign (mod(x, 0) is x), rem the dividend's.
            Bin::Mod => arg(0) && arg(1),
            Bin::Rem => arg(0),
            // x.^k: an even k, or a base with no negatives.
            Bin::Pow => {
                let even = matches!(n.inputs[1].op, Op::Const(k) if k % 2.0 == 0.0);
                even || arg(0)
            }
            _ => false,
        },
        Op::Reduce { op, .. } => match op {
            Red::Any | Red::All => true,
            _ => arg(0),
        },
    };
    // Otherwise only data can tell: host data is read; device data is left unknown.
    if known { Some(true) } else { host_nonneg(n) }
}

/// Most computed nodes `deciding` returns, and most nodes it walks.
const DECIDING_CAP: usize = 4;
const DECIDING_WALK: usize = 64;

/// The computed nodes (leaves, or values computed before) whose signs alone leave `n`'s
/// unknown, where `n` has no negatives when none of them has (by `derive`'s rules that need
/// every input's: products, quotients and sums of them and of constants that are not
/// negative, views, rounding): `log(S / K)` depends on `S` alone. None where `n`'s sign does
/// not follow so, or takes more than a few of them.
pub fn deciding(n: &Rc<Node>) -> Option<Vec<Rc<Node>>> {
    let mut found = Vec::new();
    let mut walked = 0usize;
    collect(n, &mut found, &mut walked).then_some(found)
}

fn collect(n: &Rc<Node>, found: &mut Vec<Rc<Node>>, walked: &mut usize) -> bool {
    *walked += 1;
    if *walked > DECIDING_WALK {
        return false;
    }
    match nonneg(n) {
        Some(known) => return known,
        None => {}
    }
    if n.is_realised() {
        if !found.iter().any(|f| Rc::ptr_eq(f, n)) {
            found.push(n.clone());
        }
        return found.len() <= DECIDING_CAP;
    }
    let mut all = |ks: &[usize]| {
        ks.iter()
            .all(|&k| n.inputs.get(k).is_some_and(|i| collect(i, found, walked)))
    };
    match &n.op {
        Op::Reshape | Op::Transpose | Op::Cast | Op::View(_) | Op::Gather(_) => all(&[0]),
        Op::Embed(_) => all(&[0, 1]),
        Op::Select => all(&[1, 2]),
        Op::Unary(
            Un::Floor
            | Un::Ceil
            | Un::Round
            | Un::Fix
            | Un::Sign
            | Un::Expm1
            | Un::Sinh
            | Un::Tanh
            | Un::Atan
            | Un::Log1p,
        ) => all(&[0]),
        Op::Binary(Bin::Add | Bin::Mul | Bin::Div | Bin::LDiv | Bin::Min | Bin::Mod) => {
            all(&[0, 1])
        }
        Op::Binary(Bin::Rem | Bin::Pow) => all(&[0]),
        Op::Reduce { .. } => all(&[0]),
        _ => false,
    }
}
