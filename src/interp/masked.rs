//! Reductions of masked gathers: `sum(x(mask))`, `mean(x(x > t))`, `max(v(v < 0))` reduce
//! the masked values where they are (`x` where the mask is set, else the reduction's
//! identity) instead of compacting them first. The mask's count was read back when
//! `x(mask)` was made (it is the gather's size); its positions are never computed unless
//! something else reads the gathered values.

use super::lower::{constant, pending};
use crate::graph::{self, Node, Op, Pick};
use crate::values::class::Class;
use crate::values::ops::{Bin, Red};
use crate::values::shape::Shape;
use crate::values::value::Value;
use std::rc::Rc;

/// The reduction `op` of gather `node` over all its elements (`all`, or along the only
/// dimension a vector has), when `node` gathers a whole array's elements at a mask's
/// positions; None otherwise.
pub(super) fn reduction(
    op: Red,
    node: &Rc<Node>,
    dim: usize,
    all: bool,
    omitnan: bool,
    explicit: bool,
) -> Option<Value> {
    let Op::Gather(picks) = &node.op else {
        return None;
    };
    if picks.as_slice() != [Pick::Index] || node.inputs.len() != 2 {
        return None;
    }
    if !all && node.shape.dim(dim) != node.numel() {
        return None;
    }
    let mut at = &node.inputs[1];
    while let Op::Reshape = at.op {
        at = &at.inputs[0];
    }
    if at.op != Op::Positions {
        return None;
    }
    let (mask, source) = (&at.inputs[0], &node.inputs[0]);
    if mask.numel() != source.numel() {
        return None;
    }
    // What the unselected elements hold: nothing changes the sum, the product or any/all;
    // max and min omit NaN (with 'includenan' they would not: those compact).
    let fill = match op {
        Red::Sum | Red::Mean | Red::Any => 0.0,
        Red::Prod | Red::All => 1.0,
        Red::Max | Red::Min if omitnan => f64::NAN,
        Red::Max | Red::Min => return None,
    };
    let mask = if mask.shape == source.shape {
        mask.clone()
    } else {
        graph::intern(
            Op::Reshape,
            vec![mask.clone()],
            source.shape.clone(),
            mask.class,
        )
    };
    let selected = graph::intern(
        Op::Select,
        vec![mask, source.clone(), constant(fill, Class::Double)],
        source.shape.clone(),
        source.class,
    );
    let folded = if op == Red::Mean { Red::Sum } else { op };
    let class = crate::values::ops::reduce::out_class(op, node.class);
    let reduced = graph::intern(
        Op::Reduce {
            op: folded,
            dim: 0,
            all: true,
            omitnan,
        },
        vec![selected],
        Shape::scalar(),
        class,
    );
    let result = if op == Red::Mean {
        let count = constant(node.numel() as f64, Class::Double);
        graph::intern(
            Op::Binary(Bin::Div),
            vec![reduced, count],
            Shape::scalar(),
            class,
        )
    } else {
        reduced
    };
    Some(pending(result, explicit))
}
