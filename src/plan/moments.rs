//! `var(x)` and `std(x)` on the device in one pass with `mean(x)`. `interp::dispersion`
//! builds the sum of squared deviations `sum((x - mean(x)) .* (x - mean(x)))` from the same
//! mean node a `mean(x)` of the same lanes is; realising either, while the other is pending,
//! runs `gpu::moments`, which reads `x` once for both. Elsewhere (the host, lanes a thread
//! per lane folds, values past one window) the two reductions run as written.

use super::{device_result, fitted_group, gpu_can_run};
use crate::graph::{self, Data, Node, Op};
use crate::interp::error::MResult;
use crate::values::ops::{Bin, Red};
use std::rc::Rc;

/// Realises `n` through the moments pass when it is a mean with a pending sum of squared
/// deviations beside it, or such a sum: its data, or None when the moments pass does not
/// apply (the caller reduces as usual).
pub fn realise(n: &Rc<Node>) -> MResult<Option<Data>> {
    if let Some(sum) = beside(n) {
        return Ok(match run(&sum)? {
            Some(_) => n.data.borrow().clone(),
            None => None,
        });
    }
    run(n)
}

/// The lanes (dim, all) of `n` when it is reduction `red` without 'omitnan'.
fn lanes_of(n: &Node, red: Red) -> Option<(usize, bool)> {
    match n.op {
        Op::Reduce {
            op,
            dim,
            all,
            omitnan: false,
        } if op == red => Some((dim, all)),
        _ => None,
    }
}

fn reduction(op: Red, (dim, all): (usize, bool)) -> Op {
    Op::Reduce {
        op,
        dim,
        all,
        omitnan: false,
    }
}

/// (x, mean(x), lanes) when `n` sums the squared deviations of pending `x - mean(x)` from
/// the mean of the same lanes.
fn deviations(n: &Node) -> Option<(Rc<Node>, Rc<Node>, (usize, bool))> {
    let lanes = lanes_of(n, Red::Sum)?;
    let square = &n.inputs[0];
    let pending_op = |m: &Node, op: Bin| !m.is_realised() && m.op == Op::Binary(op);
    if !pending_op(square, Bin::Mul) || !Rc::ptr_eq(&square.inputs[0], &square.inputs[1]) {
        return None;
    }
    let deviation = &square.inputs[0];
    if !pending_op(deviation, Bin::Sub) {
        return None;
    }
    let (x, mean) = (&deviation.inputs[0], &deviation.inputs[1]);
    let same = lanes_of(mean, Red::Mean) == Some(lanes) && Rc::ptr_eq(&mean.inputs[0], x);
    same.then(|| (x.clone(), mean.clone(), lanes))
}

/// The pending sum of squared deviations from mean node `mean` (as `var`/`std` build it).
fn beside(mean: &Rc<Node>) -> Option<Rc<Node>> {
    let lanes = lanes_of(mean, Red::Mean)?;
    let x = &mean.inputs[0];
    let (shape, class) = (&x.shape, x.class);
    let deviation = graph::find(&Op::Binary(Bin::Sub), &[x, mean], shape, class)?;
    let square = graph::find(
        &Op::Binary(Bin::Mul),
        &[&deviation, &deviation],
        shape,
        class,
    )?;
    let sum = graph::find(&reduction(Red::Sum, lanes), &[&square], &mean.shape, class)?;
    (!sum.is_realised()).then_some(sum)
}

/// Runs the moments pass for sum of squared deviations `n`: sets its data, and its mean's
/// if that is pending. None when it does not apply or the device refused it.
fn run(n: &Rc<Node>) -> MResult<Option<Data>> {
    let Some((x, mean, (dim, all))) = deviations(n) else {
        return Ok(None);
    };
    let g = fitted_group(&x)?;
    let (inner, len, nout) = super::reduce::lanes(&g.shape, dim, all);
    let fits = crate::gpu::device::ready()
        .is_some_and(|dev| crate::gpu::moments::fits(dev, g.shape.numel(), inner, len));
    if !fits || !gpu_can_run(&g) || nout == 0 {
        return Ok(None);
    }
    let r = crate::gpu::moments::run(&g, inner, len, nout);
    let Some((means, squares)) = device_result(r, "moments")? else {
        return Ok(None);
    };
    if !mean.is_realised() {
        *mean.data.borrow_mut() = Some(Data::Device(means));
    }
    let data = Data::Device(squares);
    *n.data.borrow_mut() = Some(data.clone());
    Ok(Some(data))
}
