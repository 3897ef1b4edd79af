//! An embed's values read in the array's own index space, so the assignment is one kernel.
//! `u(2:end-1) = f(u(1:end-2), u(3:end))` writes element `i` of the new array: inside the
//! region, the values' element at `i`'s place in it. When the region's subscripts step by
//! one (forwards or back) and the values have the region's shape (up to singleton
//! dimensions), that place is affine in `i`'s subscripts, so each input the values read is a
//! strided read of the output element: the values fuse into the embed's kernel instead of
//! being computed into a buffer first. Outside the region the addresses are meaningless and
//! the kernel's select drops what they read (reads are bounds-checked on both sides).

use super::Access;
use crate::graph::{Node, Op, Region, folded_sizes};
use crate::values::shape::Shape;
use std::rc::Rc;

/// Most pending nodes walked to decide that values can be fused.
const WALK_CAP: usize = 512;

/// The values' subscripts as affine functions of the output's: per values dimension, a
/// coefficient per output dimension and a constant.
#[derive(Clone, Debug)]
pub struct Space {
    coef: Vec<Vec<i64>>,
    base: Vec<i64>,
    /// The values' shape, which accesses computed inside the space are relative to.
    pub values: Shape,
}

/// The space of `region`'s values of shape `values` in an output of shape `out`, when their
/// place is affine in the output's subscripts.
pub fn space(region: &Region, values: &Shape, out: &Shape) -> Option<Space> {
    let k = region.dims.len();
    let sizes = folded_sizes(out, k);
    let wide_region: Vec<usize> = (0..k).filter(|&d| region.dims[d].count > 1).collect();
    let wide_values: Vec<usize> = (0..values.ndims()).filter(|&e| values.dim(e) > 1).collect();
    if wide_region.len() != wide_values.len() {
        return None;
    }
    let rank = out.ndims();
    let mut coef = vec![vec![0i64; rank]; values.ndims()];
    let mut base = vec![0i64; values.ndims()];
    for (&d, &e) in wide_region.iter().zip(&wide_values) {
        let p = &region.dims[d];
        if p.count != values.dim(e) || !(p.step == 1 || p.step == -1) || d >= rank {
            return None;
        }
        // The region subscript's place along it: step * (subscript - start).
        base[e] = -p.step * p.start;
        if d + 1 < k {
            coef[e][d] = p.step;
        } else {
            // The last subscript folds the output's remaining dimensions.
            let mut scale = 1i64;
            for (j, c) in coef[e].iter_mut().enumerate().skip(d) {
                *c = p.step * scale;
                scale *= out.dim(j) as i64;
            }
            debug_assert_eq!(scale as usize, sizes[d]);
        }
    }
    Some(Space {
        coef,
        base,
        values: values.clone(),
    })
}

/// `how`, an access relative to the values' shape, as one relative to the output's.
pub fn compose(space: &Space, how: &Access) -> Option<Access> {
    let strides: Vec<i64> = match how {
        Access::Scalar => return Some(Access::Scalar),
        Access::Same => space.values.strides().iter().map(|&s| s as i64).collect(),
        Access::Strided(s, _) => s.iter().map(|&x| x as i32 as i64).collect(),
        Access::Region(_) => return None,
    };
    let mut offset = match how {
        Access::Strided(_, off) => *off as i64,
        _ => 0,
    };
    let rank = space.coef.first().map_or(0, |c| c.len());
    let mut out = vec![0i64; rank];
    for (e, s) in strides.iter().enumerate() {
        let (Some(coef), Some(base)) = (space.coef.get(e), space.base.get(e)) else {
            continue;
        };
        offset = offset.wrapping_add(s.wrapping_mul(*base));
        for (o, c) in out.iter_mut().zip(coef) {
            *o = o.wrapping_add(s.wrapping_mul(*c));
        }
    }
    // Two's complement words: the device adds them wrapping, to the element.
    Some(Access::Strided(
        out.iter().map(|&x| x as u32).collect(),
        offset as u32,
    ))
}

/// Whether pending work under `values` reads only by element (no random draws, subscripts
/// or embeds of its own, which are placed by the output's index), so it can run in the
/// space.
pub fn fusable(values: &Rc<Node>) -> bool {
    let mut stack: Vec<&Rc<Node>> = vec![values];
    let mut walked = 0usize;
    while let Some(x) = stack.pop() {
        if x.is_realised() {
            continue;
        }
        walked += 1;
        if walked > WALK_CAP {
            return false;
        }
        match x.op {
            Op::Rand(_) | Op::Iota(_) | Op::Embed(_) | Op::Gather(_) => return false,
            // Computed first and read as inputs.
            Op::Reduce { .. } | Op::Positions => continue,
            _ => stack.extend(x.inputs.iter()),
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Progression;

    fn address(a: &Access, out: &Shape, i: usize) -> u32 {
        let Access::Strided(s, off) = a else {
            panic!("strided")
        };
        let mut rem = i;
        let mut at = *off;
        for (d, x) in s.iter().enumerate() {
            let n = out.dim(d).max(1);
            at = at.wrapping_add(((rem % n) as u32).wrapping_mul(*x));
            rem /= n;
        }
        at
    }

    #[test]
    fn interior_of_a_column_reads_its_neighbours() {
        // u(2:9) = v(1:8) of a 10-element column: output element i reads v's element i - 1.
        let region = Region {
            dims: vec![Progression {
                start: 1,
                step: 1,
                count: 8,
            }],
        };
        let out = Shape::col(10);
        let values = Shape::col(8);
        let sp = space(&region, &values, &out).expect("affine");
        let a = compose(&sp, &Access::Same).expect("composed");
        for i in 1..9 {
            assert_eq!(address(&a, &out, i), (i - 1) as u32);
        }
    }

    #[test]
    fn a_row_of_a_matrix_takes_a_column_vector() {
        // A(3, :) = c with A 4x5 and c 5x1: element (3, j) reads c(j).
        let region = Region {
            dims: vec![
                Progression {
                    start: 2,
                    step: 1,
                    count: 1,
                },
                Progression {
                    start: 0,
                    step: 1,
                    count: 5,
                },
            ],
        };
        let out = Shape::new(&[4, 5]);
        let sp = space(&region, &Shape::col(5), &out).expect("affine");
        let a = compose(&sp, &Access::Same).expect("composed");
        for j in 0..5 {
            assert_eq!(address(&a, &out, 2 + 4 * j), j as u32);
        }
        // A linear region stepping back: A(20:-1:11) = v(1:10).
        let back = Region {
            dims: vec![Progression {
                start: 19,
                step: -1,
                count: 10,
            }],
        };
        let sp = space(&back, &Shape::new(&[1, 10]), &out).expect("affine");
        let a = compose(&sp, &Access::Same).expect("composed");
        for q in 0..10 {
            assert_eq!(address(&a, &out, 19 - q), q as u32);
        }
        // A step of two is not affine in the output's subscripts.
        let odd = Region {
            dims: vec![Progression {
                start: 0,
                step: 2,
                count: 10,
            }],
        };
        assert!(space(&odd, &Shape::col(10), &out).is_none());
    }
}
