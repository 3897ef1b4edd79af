//! Range subscripts of graph values as views, and indexed assignment over ranges as embeds.
//!
//! `u(2:end-1)`, `A(i, :)`, `A(r1:r2, c1:c2)`, `x(end:-1:1)` select elements at affine
//! addresses: a `View` node that kernels read where the data is stored, so
//! `u(1:end-2) - 2*u(2:end-1) + u(3:end)` is one kernel reading `u` three times and nothing
//! moves to the host. `u(a:b) = v` is an `Embed`: a new pending value that is the old one with
//! the region's elements replaced, so another variable holding the old array never sees the
//! write and the right-hand side reads the old values. Forms these do not take (index
//! vectors, masks, out-of-range subscripts, growth, deletion) go the general way, which
//! reports MATLAB's errors.

use super::error::MResult;
use crate::graph::{self, Affine, Op, Progression, Region};
use crate::syntax::ast::{BinOp, Expr, ExprKind, UnOp};
use crate::values::class::Class;
use crate::values::device::DeviceValue;
use crate::values::shape::Shape;
use crate::values::value::Value;
use std::rc::Rc;

/// One subscript as positions `start + k * step` (0-based) for `k < count`, all within
/// `0..extent`: a colon, a whole scalar, or a numeric vector in arithmetic progression.
/// None for any other form (and for empty selections).
fn progression(v: &Value, extent: usize) -> Option<Progression> {
    if v.is_char() {
        return v
            .text()
            .ok()
            .filter(|t| t == ":" && extent > 0)
            .map(|_| Progression {
                start: 0,
                step: 1,
                count: extent,
            });
    }
    let whole = |x: f64| x >= 1.0 && x <= extent as f64 && x.fract() == 0.0;
    match v {
        Value::Num(x) if whole(*x) => Some(Progression {
            start: *x as i64 - 1,
            step: 1,
            count: 1,
        }),
        Value::Tensor(t) => {
            if t.class() == Class::Logical || t.class() == Class::Char || t.is_complex() {
                return None;
            }
            let values = t.to_f64();
            let (&first, &last) = (values.first()?, values.last()?);
            if !whole(first) || !whole(last) {
                return None;
            }
            let step = values.get(1).map_or(1.0, |&x| x - first);
            if step == 0.0 && values.len() > 1 {
                return None;
            }
            // Every position must follow (the ends are in range, so all are).
            let exact = values
                .iter()
                .enumerate()
                .all(|(k, &x)| x == first + k as f64 * step);
            exact.then(|| Progression {
                start: first as i64 - 1,
                step: step as i64,
                count: values.len(),
            })
        }
        _ => None,
    }
}

/// The subscripts `args` as progressions over an array of `shape`, with the result's shape;
/// None when some subscript is not one.
fn region_of(shape: &Shape, args: &[Value]) -> Option<(Region, Shape)> {
    if args.is_empty() {
        return None;
    }
    let sizes = graph::folded_sizes(shape, args.len());
    let dims: Vec<Progression> = args
        .iter()
        .zip(&sizes)
        .map(|(a, &extent)| progression(a, extent))
        .collect::<Option<_>>()?;
    let out = if let [only] = args {
        // One subscript: the index's shape, but a vector indexed by a vector keeps its own
        // orientation; a colon gives a column.
        let count = dims[0].count;
        match only {
            _ if only.is_char() => Shape::col(count),
            _ if shape.is_vector() && only.shape().is_vector() => {
                if shape.dim(0) == 1 {
                    Shape::row(count)
                } else {
                    Shape::col(count)
                }
            }
            _ => only.shape(),
        }
    } else {
        Shape::new(&dims.iter().map(|p| p.count).collect::<Vec<_>>())
    };
    Some((Region { dims }, out))
}

/// The affine map of a region's elements laid out in `out` (column-major over the region).
fn affine_of(region: &Region, sizes: &[usize], out: &Shape) -> Affine {
    let (offset, along) = region.addresses(sizes);
    if let [p] = region.dims.as_slice() {
        // One subscript laid out in the index's shape: the k-th element in column-major
        // order is `k` steps along.
        let mut strides = Vec::with_capacity(out.ndims());
        let mut below = 1i64;
        for d in 0..out.ndims() {
            strides.push(p.step * below);
            below *= out.dim(d) as i64;
        }
        return Affine {
            offset,
            strides: if region.count() == 1 {
                vec![0; out.ndims()]
            } else {
                strides
            },
        };
    }
    Affine {
        offset,
        strides: along,
    }
}

/// `d(args)` as a view when every subscript is a range within bounds; None otherwise.
pub fn view(d: &DeviceValue, args: &[Value]) -> Option<Value> {
    let n = graph::memory::settled(&d.node);
    if n.numel() == 0 || n.numel() > u32::MAX as usize {
        return None;
    }
    let (region, out) = region_of(&n.shape, args)?;
    view_of(d, region, out)
}

/// The view of `d`'s elements in `region`, laid out in `out`.
pub(super) fn view_of(d: &DeviceValue, region: Region, out: Shape) -> Option<Value> {
    let n = graph::memory::settled(&d.node);
    if out.numel() == 0 || n.numel() == 0 || n.numel() > u32::MAX as usize {
        return None;
    }
    // Every element in order (`x(:)`, `A(:, :)`): a reshape, which fuses with whatever
    // computes the value instead of needing it computed.
    let sizes = region.folded_sizes(&n.shape);
    let whole = region
        .dims
        .iter()
        .zip(&sizes)
        .all(|(p, &size)| p.step == 1 && p.start == 0 && p.count == size);
    if whole {
        return Some(super::views::reshaped(d, out));
    }
    let affine = affine_of(&region, &sizes, &out);
    // A view of pending elementwise work over one array is that work over the array's view.
    if let Some(node) = graph::sink::view(&n, &affine, &out) {
        return Some(super::lower::pending(node, d.explicit));
    }
    // A view reads its input computed: computing a pending one now (recorded, not waited
    // for) keeps a chain of steps that each read the last (a stencil's
    // `u(2:end-1) = f(u(1:end-2), u(3:end))`) at one kernel a step, where the budgets would
    // otherwise cut the pending chain at its values and compute those apart.
    let n = super::views::computed(n);
    let node = graph::intern(Op::View(affine), vec![n.clone()], out, n.class);
    Some(super::lower::pending(node, d.explicit))
}

/// The class an array of `target` has after `rhs` values are assigned into it, where the
/// graph can keep it (None: the host decides).
pub(super) fn assigned_class(target: Class, rhs: Class) -> Option<Class> {
    match (target, rhs) {
        (t, r) if t == r => Some(t),
        (Class::Single, Class::Double | Class::Logical) => Some(Class::Single),
        (Class::Double, Class::Logical) => Some(Class::Double),
        _ => None,
    }
}

/// Whether values of `rhs` fill a region of `counts` (MATLAB: the same sizes once singleton
/// dimensions are dropped; one subscript takes any vector of its length).
pub(super) fn fills(rhs: &Shape, counts: &[usize], linear: bool) -> bool {
    let total: usize = counts.iter().product();
    if rhs.numel() == 1 {
        return true;
    }
    if rhs.numel() != total {
        return false;
    }
    if linear {
        return true;
    }
    let squeeze = |v: &[usize]| v.iter().copied().filter(|&x| x != 1).collect::<Vec<_>>();
    squeeze(rhs.dims()) == squeeze(counts)
}

/// `target(args) = rhs` for a graph value as a pending embed; the operands back when the
/// form is not a range assignment within bounds that the graph takes (the general path
/// does it). Both are let go before the budgets may compute the embed, so that an array only
/// the embed can reach is written in place (`plan::in_place`).
pub fn assign(
    target: Rc<DeviceValue>,
    args: &[Value],
    rhs: Value,
) -> Result<Value, (Rc<DeviceValue>, Value)> {
    if let [mask] = args {
        if let Some(node) = masked(&target, mask, &rhs) {
            let explicit = target.explicit;
            drop(target);
            drop(rhs);
            return Ok(super::lower::pending(node, explicit));
        }
    }
    let region = region_of(&target.node.shape, args).map(|(r, _)| r);
    assign_region(target, region, args.len() == 1, rhs)
}

/// `target(mask) = v` with a mask of the array's size (host or device) and one value: an
/// elementwise select, fused with what computes the mask and what reads the result.
fn masked(target: &DeviceValue, mask: &Value, rhs: &Value) -> Option<Rc<graph::Node>> {
    let is_mask = match mask {
        Value::Tensor(t) => t.class() == Class::Logical,
        Value::Device(d) => d.class() == Class::Logical,
        _ => false,
    };
    let n = graph::memory::settled(&target.node);
    if !is_mask || mask.numel() != n.numel() || n.numel() == 0 || rhs.numel() != 1 {
        return None;
    }
    if matches!(&*n.data.borrow(), Some(graph::Data::Host(_))) {
        return None;
    }
    let values = assigned_values(&n, rhs)?;
    let class = n.class;
    let mask = super::lower::node_of(mask)?;
    let mask = if mask.shape == n.shape {
        mask
    } else {
        graph::intern(Op::Reshape, vec![mask.clone()], n.shape.clone(), mask.class)
    };
    Some(graph::intern(
        Op::Select,
        vec![mask, values, n.clone()],
        n.shape.clone(),
        class,
    ))
}

/// `target(region) = rhs` as `assign` does it (`linear`: one subscript); None for region
/// gives the operands back.
pub fn assign_region(
    target: Rc<DeviceValue>,
    region: Option<Region>,
    linear: bool,
    rhs: Value,
) -> Result<Value, (Rc<DeviceValue>, Value)> {
    let node = region.and_then(|r| embed_of(&target, r, linear, &rhs));
    match node {
        Some(node) => {
            let explicit = target.explicit;
            drop(target);
            drop(rhs);
            // Into an array on the host: written now, in place (plan::cpu::scatter), while
            // nothing else holds it; a chain of pending embeds would keep every step's array.
            let host = matches!(&*node.inputs[0].data.borrow(), Some(graph::Data::Host(_)));
            if host {
                // a failure is left for the sink that needs the value to report
                let _ = crate::plan::realise(&node);
            }
            Ok(super::lower::pending(node, explicit))
        }
        None => Err((target, rhs)),
    }
}

/// The values `rhs` writes into array `n`, as a node of `n`'s class (a constant kept as it
/// is); None when the graph does not take them or the assignment would change the class.
fn assigned_values(n: &graph::Node, rhs: &Value) -> Option<Rc<graph::Node>> {
    let rhs_node = match rhs {
        Value::Device(_) | Value::Num(_) | Value::Bool(_) => super::lower::node_of(rhs)?,
        Value::Tensor(t) if !t.is_complex() && t.numel() > 0 => super::lower::node_of(rhs)?,
        _ => return None,
    };
    let class = assigned_class(n.class, rhs_node.class)?;
    if class != n.class {
        return None;
    }
    if rhs_node.class == class || matches!(rhs_node.op, Op::Const(_)) {
        return Some(rhs_node);
    }
    let shape = rhs_node.shape.clone();
    Some(graph::intern(Op::Cast, vec![rhs_node], shape, class))
}

/// The embed node of `target(region) = rhs`, or None.
fn embed_of(
    target: &DeviceValue,
    region: Region,
    linear: bool,
    rhs: &Value,
) -> Option<Rc<graph::Node>> {
    let n = graph::memory::settled(&target.node);
    if n.numel() == 0 || n.numel() > u32::MAX as usize {
        return None;
    }
    // An array computed on the host is assigned into there, in place (the general path),
    // unless the region is most of it: then the embed is one pass of the host executor.
    if matches!(&*n.data.borrow(), Some(graph::Data::Host(_))) && region.count() * 2 <= n.numel() {
        return None;
    }
    let counts: Vec<usize> = region.dims.iter().map(|p| p.count).collect();
    let values = assigned_values(&n, rhs)?;
    if !fills(&values.shape, &counts, linear) {
        return None;
    }
    let class = n.class;
    // A constant scalar keeps its value exactly; one of another class rounds as the
    // array's class does when the kernel writes it.
    Some(graph::intern(
        Op::Embed(region),
        vec![n.clone(), values],
        n.shape.clone(),
        class,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progressions_and_regions() {
        let shape = Shape::matrix(4, 5);
        let colon = Value::str(":");
        let (r, out) = region_of(&shape, &[Value::Num(2.0), colon.clone()]).expect("a row");
        assert_eq!(out, Shape::matrix(1, 5));
        assert_eq!(r.dims[0].start, 1);
        assert_eq!(r.dims[1].count, 5);
        let sizes = r.folded_sizes(&shape);
        let a = affine_of(&r, &sizes, &out);
        assert_eq!((a.offset, a.strides.clone()), (1, vec![1, 4]));
        // Reversed linear range of a row vector.
        let row = Shape::row(6);
        let back = Value::row(vec![6.0, 5.0, 4.0, 3.0, 2.0, 1.0]);
        let (r, out) = region_of(&row, &[back]).expect("reversed");
        assert_eq!(out, Shape::row(6));
        let a = affine_of(&r, &r.folded_sizes(&row), &out);
        assert_eq!((a.offset, a.strides), (5, vec![-1, -1]));
        // Not progressions: out of range, repeated, uneven.
        assert!(region_of(&row, &[Value::row(vec![0.0, 1.0])]).is_none());
        assert!(region_of(&row, &[Value::row(vec![1.0, 7.0])]).is_none());
        assert!(region_of(&row, &[Value::row(vec![1.0, 1.0])]).is_none());
        assert!(region_of(&row, &[Value::row(vec![1.0, 2.0, 4.0])]).is_none());
        // A region finds its elements.
        let (r, _) = region_of(&shape, &[Value::row(vec![2.0, 3.0]), colon]).expect("rows");
        let sizes = r.folded_sizes(&shape);
        assert_eq!(r.index_of(1, &sizes), Some(0));
        assert_eq!(r.index_of(2, &sizes), Some(1));
        assert_eq!(r.index_of(5, &sizes), Some(2));
        assert_eq!(r.index_of(0, &sizes), None);
        assert_eq!(r.index_of(3, &sizes), None);
    }
}

/// A subscript evaluated without building its index array.
enum Compact {
    Colon,
    Scalar(Progression),
    Range(Progression),
}

/// Whether evaluating `e` has no effect but its value: numbers, `end`, variables, and
/// arithmetic and parentheses of those (so evaluating it here, and again on the general path
/// if this one declines, is what the general path alone would do).
fn pure(interp: &super::Interp, f: &super::function::Frame, e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Num(_) | ExprKind::End => true,
        ExprKind::Ident(id) => interp.read_slot(f, id.slot.get() as usize).is_some(),
        ExprKind::Paren(a) => pure(interp, f, a),
        ExprKind::Unary(UnOp::Neg | UnOp::Plus, a) => pure(interp, f, a),
        ExprKind::Binary(op, a, b) => {
            matches!(
                op,
                BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::ElemMul | BinOp::ElemDiv
            ) && pure(interp, f, a)
                && pure(interp, f, b)
        }
        _ => false,
    }
}

impl super::Interp {
    /// `e` (pure) as a real double scalar, with `end` the extent of subscript `pos`.
    fn compact_scalar(
        &mut self,
        f: &mut super::function::Frame,
        e: &Expr,
        ctx: &super::eval::EndCtx,
    ) -> Option<MResult<f64>> {
        self.end_stack.push(super::eval::EndCtx {
            shape: ctx.shape.clone(),
            pos: ctx.pos,
            count: ctx.count,
        });
        let v = self.eval(f, e);
        self.end_stack.pop();
        match v {
            Ok(Value::Num(x)) => Some(Ok(x)),
            Ok(_) => None,
            Err(err) => Some(Err(err)),
        }
    }

    /// The subscripts `args` of a graph value of `shape` as progressions within bounds,
    /// evaluated without building index arrays (`u(2:end-1)` of 1e7 elements made an 80 MB
    /// index array for each use). None when some subscript is not a colon, a whole scalar or a
    /// range of whole numbers within bounds made of pure arithmetic, or when all are scalars
    /// or it is a column `X(:, k)` (read as a buffer of its own): the general path does those.
    fn compact_subscripts(
        &mut self,
        f: &mut super::function::Frame,
        args: &[Expr],
        shape: &Shape,
        grow: bool,
    ) -> Option<MResult<Vec<Compact>>> {
        let count = args.len();
        if count == 0 {
            return None;
        }
        let sizes = graph::folded_sizes(shape, count);
        let mut out = Vec::with_capacity(count);
        for (pos, a) in args.iter().enumerate() {
            // An assignment may write past the end (`x(end+1:end+m) = w` grows the array).
            let limit = match grow {
                true => (u32::MAX / 2) as f64,
                false => sizes[pos] as f64,
            };
            let ctx = super::eval::EndCtx {
                shape: shape.clone(),
                pos,
                count,
            };
            let whole = |x: f64| x >= 1.0 && x <= limit && x.fract() == 0.0;
            let c = match &a.kind {
                ExprKind::Colon => Compact::Colon,
                ExprKind::Range(lo, step, hi) => {
                    let parts = [Some(lo), step.as_ref(), Some(hi)];
                    if !parts.iter().flatten().all(|p| pure(self, f, p)) {
                        return None;
                    }
                    let lo = match self.compact_scalar(f, lo, &ctx)? {
                        Ok(x) => x,
                        Err(e) => return Some(Err(e)),
                    };
                    let step = match step {
                        Some(s) => match self.compact_scalar(f, s, &ctx)? {
                            Ok(x) => x,
                            Err(e) => return Some(Err(e)),
                        },
                        None => 1.0,
                    };
                    let hi = match self.compact_scalar(f, hi, &ctx)? {
                        Ok(x) => x,
                        Err(e) => return Some(Err(e)),
                    };
                    if step == 0.0 || step.fract() != 0.0 || !whole(lo) {
                        return None;
                    }
                    let n = ((hi - lo) / step).floor() + 1.0;
                    if !(n >= 1.0) || !whole(lo + (n - 1.0) * step) {
                        return None;
                    }
                    Compact::Range(Progression {
                        start: lo as i64 - 1,
                        step: step as i64,
                        count: n as usize,
                    })
                }
                _ => {
                    if !pure(self, f, a) {
                        return None;
                    }
                    let x = match self.compact_scalar(f, a, &ctx)? {
                        Ok(x) => x,
                        Err(e) => return Some(Err(e)),
                    };
                    if !whole(x) {
                        return None;
                    }
                    Compact::Scalar(Progression {
                        start: x as i64 - 1,
                        step: 1,
                        count: 1,
                    })
                }
            };
            out.push(c);
        }
        let scalars = out.iter().all(|c| matches!(c, Compact::Scalar(_)));
        let column = matches!(out.as_slice(), [Compact::Colon, Compact::Scalar(_)]);
        if scalars || column {
            return None;
        }
        Some(Ok(out))
    }

    /// `d(args)` of a graph value as a view when the subscripts are compact ranges; None to
    /// take the general path.
    pub fn compact_view(
        &mut self,
        f: &mut super::function::Frame,
        d: &DeviceValue,
        args: &[Expr],
    ) -> Option<MResult<Value>> {
        let shape = d.shape().clone();
        let subs = match self.compact_subscripts(f, args, &shape, false)? {
            Ok(s) => s,
            Err(e) => return Some(Err(e)),
        };
        let (region, out) = compact_region(&shape, &subs);
        view_of(d, region, out).map(Ok)
    }

    /// The subscripts of `d(args) = ...` as a region when they are compact ranges; where
    /// `grow`, ranges may reach past the array's end (the region then does not fit it).
    pub fn compact_region(
        &mut self,
        f: &mut super::function::Frame,
        shape: &Shape,
        args: &[Expr],
        grow: bool,
    ) -> Option<MResult<Region>> {
        let subs = match self.compact_subscripts(f, args, shape, grow)? {
            Ok(s) => s,
            Err(e) => return Some(Err(e)),
        };
        Some(Ok(compact_region(shape, &subs).0))
    }
}

/// The region compact subscripts select from an array of `shape`, and the result's shape.
fn compact_region(shape: &Shape, subs: &[Compact]) -> (Region, Shape) {
    let sizes = graph::folded_sizes(shape, subs.len());
    let dims: Vec<Progression> = subs
        .iter()
        .zip(&sizes)
        .map(|(c, &extent)| match c {
            Compact::Colon => Progression {
                start: 0,
                step: 1,
                count: extent,
            },
            Compact::Scalar(p) | Compact::Range(p) => *p,
        })
        .collect();
    let out = match (subs, dims.as_slice()) {
        ([only], [p]) => match only {
            Compact::Colon => Shape::col(p.count),
            _ if shape.is_vector() && shape.dim(0) != 1 => Shape::col(p.count),
            _ => Shape::row(p.count),
        },
        _ => Shape::new(&dims.iter().map(|p| p.count).collect::<Vec<_>>()),
    };
    (Region { dims }, out)
}

/// The region's positions as index values, for the general path.
pub fn region_args(region: &Region) -> Vec<Value> {
    region
        .dims
        .iter()
        .map(|p| {
            Value::row(
                (0..p.count)
                    .map(|k| (p.start + k as i64 * p.step + 1) as f64)
                    .collect(),
            )
        })
        .collect()
}
