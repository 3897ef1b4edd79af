//! Reductions of a fused group over all its elements (or one lane holding them all):
//! `sum(sin(x).*x + 0.5)` evaluates the chain block by block and folds each block as it is
//! made, so the chain's values are never stored. The blocks are the eager reduction's own
//! (`reduce_fast`: 16384 elements, eight accumulators each, then the blocks in order), so the
//! result is the one reducing the stored values would give.

use super::num::Num;
use super::program::Program;
use super::scratch::Scratch;
use super::{eval_range, program};
use crate::interp::error::MResult;
use crate::plan::Group;
use crate::values::class::Class;
use crate::values::ops::Red;
use crate::values::ops::kernels::{BLOCK, PAR_MIN};
use crate::values::ops::reduce::out_class;
use crate::values::ops::reduce_fast::block_sum;
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Elem, Tensor};
use rayon::prelude::*;

/// What one block of values contributes.
fn part<R: Num + Elem + Default>(
    p: &Program<'_>,
    sc: &mut Scratch,
    buf: &mut [R],
    start: usize,
    omitnan: bool,
) -> f64 {
    // SAFETY: only initialised values are written through the view (`block::store`).
    let view = unsafe { &mut *(buf as *mut [R] as *mut [std::mem::MaybeUninit<R>]) };
    eval_range(p, sc, start, view);
    // (sums and means: any and all are `hit`'s)
    if omitnan {
        block_sum::<R, true>(buf)
    } else {
        block_sum::<R, false>(buf)
    }
}

/// Whether some element of the group is nonzero and not NaN (`zero` false: any) or zero
/// (`zero` true: all fails), tested as the blocks are made. Once a block has answered, no
/// further block is started (rayon's `any` stops the rest; a thread stops at its first
/// answering 4096 elements), so `any(x > t)` true early reads little of `x`.
fn hit(p: &Program<'_>, zero: bool) -> bool {
    let n = p.shape.numel();
    if n.saturating_mul(p.weight()) < super::PAR_WORK {
        let mut sc = Scratch::new(p);
        return super::test_range(p, &mut sc, 0, n, zero);
    }
    (0..n.div_ceil(BLOCK))
        .into_par_iter()
        .map_init(
            || Scratch::new(p),
            |sc, b| {
                let start = b * BLOCK;
                super::test_range(p, sc, start, BLOCK.min(n - start), zero)
            },
        )
        .any(|h| h)
}

fn parts<R: Num + Elem + Default>(p: &Program<'_>, omitnan: bool) -> Vec<f64> {
    let n = p.shape.numel();
    let one = |(sc, buf): &mut (Scratch, Vec<R>), b: usize| {
        let start = b * BLOCK;
        let len = BLOCK.min(n - start);
        part(p, sc, &mut buf[..len], start, omitnan)
    };
    if n.saturating_mul(p.weight()) < super::PAR_WORK {
        // little work: on this thread (the same blocks, so the same sums)
        let mut state = (Scratch::new(p), vec![R::default(); BLOCK]);
        return (0..n.div_ceil(BLOCK)).map(|b| one(&mut state, b)).collect();
    }
    (0..n.div_ceil(BLOCK))
        .into_par_iter()
        .map_init(|| (Scratch::new(p), vec![R::default(); BLOCK]), one)
        .collect()
}

/// `op` of all of `g`'s values (of `class`), as a tensor of `out` shape; None where this
/// does not apply (short or empty groups, prod, max and min, a mean omitting NaN): the
/// caller computes the values and reduces them.
pub fn all(g: &Group, class: Class, op: Red, omitnan: bool, out: Shape) -> MResult<Option<Tensor>> {
    let n = g.shape.numel();
    let fits = match op {
        Red::Sum | Red::Any | Red::All => true,
        Red::Mean => !omitnan,
        Red::Prod | Red::Max | Red::Min => false,
    };
    if !fits || n < PAR_MIN || g.steps.is_empty() {
        return Ok(None);
    }
    let held = program::hold(g)?;
    let p = Program::new(g, &held)?;
    if matches!(op, Red::Any | Red::All) {
        if !matches!(class, Class::Single | Class::Logical | Class::Double) {
            return Ok(None);
        }
        let zero = op == Red::All;
        return Ok(Some(Tensor::bools(out, vec![hit(&p, zero) != zero])));
    }
    let parts = match class {
        Class::Single | Class::Logical => parts::<f32>(&p, omitnan),
        Class::Double => parts::<f64>(&p, omitnan),
        _ => return Ok(None),
    };
    let s = parts.into_iter().fold(0.0, |a, b| a + b);
    let v = if op == Red::Mean { s / n as f64 } else { s };
    Ok(Some(Tensor::new(
        out,
        Data::from_f64(out_class(op, class), vec![v]),
    )))
}
