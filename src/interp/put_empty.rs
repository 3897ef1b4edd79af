//! Indexed assignment into an empty array on the device: `x = gpuArray([]); x(3) = 5`,
//! `y = zeros(0, 1, 'gpuArray'); y(2:4) = v`, and `x = []; x(2) = gpuArray(1)` (a host empty
//! given a device value becomes a gpuArray, as in MATLAB). The new array is zeros with the
//! values put where the subscripts say: one clear and one put kernel, nothing read back but
//! the largest of device positions. The result's class and shape follow the host evaluator:
//! `[]` (0x0 double) takes the value's class; another empty keeps its own (single with a
//! double value, double with a single or logical one); one subscript grows a row, or a
//! column from an empty column. Other forms (a colon, an empty of more dimensions, classes
//! the host decides) are given back for the general path.

use super::put::{Held, Outcome, Sub, grown, resolve_growing, takes_rhs, value_of, values_of};
use crate::gpu::put::{self as gput, Values};
use crate::graph::{Precision, folded_sizes};
use crate::values::class::Class;
use crate::values::device::DeviceValue;
use crate::values::shape::Shape;
use crate::values::value::Value;
use std::rc::Rc;

/// The class of an empty array of `target` (shape `shape`) once `rhs` values are assigned.
fn class_after(target: Class, shape: &Shape, rhs: Class) -> Option<Class> {
    let plain = shape.ndims() == 2 && shape.dim(0) == 0 && shape.dim(1) == 0;
    if plain && target == Class::Double {
        return matches!(rhs, Class::Double | Class::Single | Class::Logical).then_some(rhs);
    }
    match (target, rhs) {
        (t, r) if t == r => Some(t),
        (Class::Single, Class::Double | Class::Logical) => Some(Class::Single),
        (Class::Double, Class::Single | Class::Logical) => Some(Class::Double),
        _ => None,
    }
}

/// The shape an empty array of `shape` grows to with subscripts needing `needs`.
fn shape_after(shape: &Shape, needs: &[usize]) -> Option<Shape> {
    if let [need] = needs {
        if shape.ndims() != 2 {
            return None;
        }
        // An empty column (0x1) grows as a column; every other 2-D empty as a row.
        return Some(if shape.dim(1) == 1 && shape.dim(0) == 0 {
            Shape::col(*need)
        } else {
            Shape::row(*need)
        });
    }
    grown(shape, needs).flatten()
}

/// `target(args) = rhs` for an empty `target`, or the operands back.
pub fn assign(target: Rc<DeviceValue>, args: &[Value], rhs: Value) -> Outcome {
    let Some(dev) = crate::gpu::device::ready() else {
        return Outcome::Declined(target, rhs);
    };
    let shape = target.node.shape.clone();
    let colon = args.iter().any(|a| a.is_char());
    let class = rhs
        .num_class()
        .and_then(|r| class_after(target.node.class, &shape, r));
    let (Some(class), false, true) = (class, colon, takes_rhs(&rhs)) else {
        return Outcome::Declined(target, rhs);
    };
    let precision = Precision::of(class);
    if precision == Precision::F64 && !dev.info.supports_double {
        return Outcome::Declined(target, rhs);
    }
    let k = args.len();
    let sizes = folded_sizes(&shape, k);
    let Some((subs, needs)) = resolve_growing(args, &sizes) else {
        return Outcome::Declined(target, rhs);
    };
    let counts: Vec<usize> = subs.iter().map(Sub::count).collect();
    let total: usize = counts.iter().product();
    let indices = subs
        .iter()
        .filter(|s| !matches!(s, Sub::Range { .. }))
        .count();
    if total == 0 || indices > 2 || !super::slices::fills(&rhs.shape(), &counts, k == 1) {
        return Outcome::Declined(target, rhs);
    }
    let Some(new_shape) = shape_after(&shape, &needs) else {
        return Outcome::Declined(target, rhs);
    };
    // past one device buffer the host makes it, held there (`host_held`)
    if new_shape.numel() > u32::MAX as usize / 2
        || super::host_held::exceeds(new_shape.numel(), class)
    {
        return Outcome::Declined(target, rhs);
    }
    if super::put::plan_only() {
        super::put::note(&format!(
            "indexed assignment into an empty array: a {} {} of zeros made on the GPU and \
             {total} element(s) written there by {} kernel(s)",
            new_shape.size_text(),
            class.name(),
            if indices > 0 { 2 } else { 1 }
        ));
        return Outcome::Done(Value::Device(target));
    }
    let Some(values) = values_of(&rhs) else {
        return Outcome::Declined(target, rhs);
    };
    drop(rhs);
    let out = match gput::zeros(new_shape.numel(), precision) {
        Ok(b) => b,
        Err(e) => return Outcome::Failed(e, Some(Value::Device(target))),
    };
    let new_sizes = folded_sizes(&new_shape, k);
    let put_subs: Vec<gput::Sub<'_>> = subs.iter().map(Sub::as_put).collect();
    let v = match &values {
        Held::Device(b) => Values::Device(b),
        Held::Host(v) => Values::Host(v.clone()),
    };
    match gput::put(&out, &new_sizes, &put_subs, v) {
        Ok(count) => Sub::remember(&subs, &put_subs, count),
        Err(e) => return Outcome::Failed(e, Some(Value::Device(target))),
    }
    // A gpuArray: the empty was one, or a host `[]` was given a device value.
    Outcome::Done(value_of(Rc::new(out), new_shape, class, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_and_shapes_follow_the_host() {
        let plain = Shape::matrix(0, 0);
        let col = Shape::matrix(0, 1);
        assert_eq!(
            class_after(Class::Double, &plain, Class::Single),
            Some(Class::Single)
        );
        assert_eq!(
            class_after(Class::Double, &col, Class::Single),
            Some(Class::Double)
        );
        assert_eq!(
            class_after(Class::Single, &col, Class::Double),
            Some(Class::Single)
        );
        assert_eq!(class_after(Class::Logical, &col, Class::Double), None);
        assert_eq!(shape_after(&plain, &[3]), Some(Shape::row(3)));
        assert_eq!(shape_after(&col, &[3]), Some(Shape::col(3)));
        assert_eq!(shape_after(&Shape::matrix(0, 3), &[2]), Some(Shape::row(2)));
        assert_eq!(shape_after(&col, &[2, 2]), Some(Shape::matrix(2, 2)));
        assert_eq!(shape_after(&Shape::new(&[0, 1, 2]), &[3]), None);
    }
}
