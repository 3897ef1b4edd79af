//! Range assignment in place. An embed (`x(a:b) = v`) is a new value, so whatever holds the
//! old array keeps seeing it; but when nothing but the embed itself can still reach the old
//! array (the variable was reassigned, no other variable or pending value holds it), the
//! values are written into the old array's buffer by a kernel over the region alone: a loop
//! of `A(i, :) = row` costs its rows, not a copy of the matrix each time.

use super::{Data, Node, Op};
use crate::graph::{Precision, Region};
use crate::interp::error::MResult;
use crate::values::shape::Shape;
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// Most nodes walked to decide that the old array is out of everyone else's reach.
const WALK_CAP: usize = 4096;

/// The computed data of embed `n`, written in place into its old array when that is
/// allowed and the device can run it; None to compute it the ordinary way.
pub fn embed(n: &Rc<Node>) -> MResult<Option<Data>> {
    let Op::Embed(region) = &n.op else {
        return Ok(None);
    };
    let (old, values) = (&n.inputs[0], &n.inputs[1]);
    // A chain of assignments (`A(i, :) = ...` in a loop) is computed from its start, each
    // link in place where it may be.
    if !old.is_realised() && matches!(old.op, Op::Embed(_)) {
        super::realise(old)?;
    }
    // On the host: the values are computed and copied into the old array (plan::cpu::scatter).
    if matches!(&*old.data.borrow(), Some(Data::Host(_))) {
        if old.shape != n.shape || old.class != n.class || !private(n, old) {
            return Ok(None);
        }
        return super::cpu::scatter::embed(n, region, old, values);
    }
    let buf = match &*old.data.borrow() {
        Some(Data::Device(b)) => b.clone(),
        _ => return Ok(None),
    };
    // The buffer is the old node's alone (ours is the one other reference), not a view.
    if old.shape != n.shape
        || old.class != n.class
        || buf.parent.is_some()
        || buf.precision != n.precision()
        || Rc::strong_count(&buf) != 2
        || region.count() * 2 > n.numel()
        || !private(n, old)
    {
        return Ok(None);
    }
    // Values that read the old array are computed first (a kernel writing what other
    // threads read would race), unless they read it only where they write it
    // (`A(i, :) = A(i, :) * 0.5 + i`): each thread then reads its element before writing it.
    let sizes = region.folded_sizes(&n.shape);
    if !values.is_realised()
        && values.numel() > 1
        && reaches(values, old, &|v| {
            same_place(v, region, &sizes, &values.shape)
        })
    {
        super::realise(values)?;
    }
    if !values.is_realised() && values.numel() == 1 && !matches!(values.op, Op::Const(_)) {
        super::realise(values)?;
    }
    let mut g = super::group(values);
    if let Some(e) = g.error.take() {
        return Err(e);
    }
    let counts: Vec<usize> = region.dims.iter().map(|p| p.count).collect();
    // The values' accesses were planned against their own shape, whose column-major order
    // is the region's; one value is spread over the region's shape.
    if values.numel() != region.count() {
        g.shape = Shape::new(&counts);
    }
    g.precision = Precision::of(n.class);
    if !super::gpu_can_run(&g) {
        return Ok(None);
    }
    // Address steps along the region's subscripts over the array's folded dimensions.
    let (offset, steps) = region.addresses(&sizes);
    // Index values checked before no longer hold once the array is written.
    super::gathers::forget(&buf);
    match crate::gpu::scatter::run(&g, &buf, offset, &counts, &steps) {
        Ok(()) => {
            // The array moves to the embed: nothing can read the old node any more, and the
            // next assignment in a chain finds the buffer held once.
            old.data.borrow_mut().take();
            Ok(Some(Data::Device(buf)))
        }
        Err(e) if e.identifier() == crate::gpu::buffers::OOM => Err(e),
        Err(_) => Ok(None),
    }
}

/// Whether pending work under `from` reads `target` (computed nodes are read as they are),
/// other than through views `harmless` accepts.
fn reaches(from: &Rc<Node>, target: &Rc<Node>, harmless: &dyn Fn(&Node) -> bool) -> bool {
    let mut stack: Vec<&Rc<Node>> = vec![from];
    let mut seen = 0usize;
    while let Some(x) = stack.pop() {
        if Rc::ptr_eq(x, target) {
            return true;
        }
        seen += 1;
        if seen > WALK_CAP {
            return true;
        }
        if let Op::View(_) = x.op
            && x.inputs.first().is_some_and(|i| Rc::ptr_eq(i, target))
            && harmless(x)
        {
            continue;
        }
        if !x.is_realised() {
            stack.extend(x.inputs.iter());
        }
    }
    false
}

/// Whether view `v`, read element for element by values of shape `values`, reads each
/// element at the address the region writes it to.
fn same_place(v: &Node, region: &Region, sizes: &[usize], values: &Shape) -> bool {
    let Op::View(affine) = &v.op else {
        return false;
    };
    if v.shape != *values {
        return false;
    }
    let (offset, steps) = region.addresses(sizes);
    if offset != affine.offset {
        return false;
    }
    // The wide subscripts of each, in order, move by the same steps.
    let wide_region = region
        .dims
        .iter()
        .zip(&steps)
        .filter(|(p, _)| p.count > 1)
        .map(|(p, &s)| (p.count, s));
    let wide_view = (0..v.shape.ndims())
        .filter(|&e| v.shape.dim(e) > 1)
        .map(|e| (v.shape.dim(e), affine.strides.get(e).copied().unwrap_or(0)));
    wide_region.eq(wide_view)
}

/// Whether every reference to `target` comes from `root` or from nodes under it that only
/// `root`'s work refers to: then nothing else can read `target` again once `root` is computed.
fn private(root: &Rc<Node>, target: &Rc<Node>) -> bool {
    unseen(root, target, 0)
}

/// `private`, with `held` more references to `target` that the caller knows of and accounts
/// for itself (`interp::put_fused`: the variable being assigned, and the group computing
/// `root`).
pub(crate) fn unseen(root: &Rc<Node>, target: &Rc<Node>, held: usize) -> bool {
    // Each node under `root` (walked without taking references: the counts must be the
    // graph's own), with the number of edges into it from nodes under `root`.
    let mut edges: FxHashMap<*const Node, usize> = FxHashMap::default();
    let mut order: Vec<&Rc<Node>> = Vec::new();
    let mut stack: Vec<&Rc<Node>> = vec![root];
    edges.insert(Rc::as_ptr(root), 0);
    while let Some(x) = stack.pop() {
        order.push(x);
        if order.len() > WALK_CAP {
            return false;
        }
        for i in &x.inputs {
            let e = edges.entry(Rc::as_ptr(i)).or_insert(0);
            *e += 1;
            if *e == 1 {
                stack.push(i);
            }
        }
    }
    // Out of `root`'s reach, only the caller's references may hold it.
    if !edges.contains_key(&Rc::as_ptr(target)) {
        return Rc::strong_count(target) <= held;
    }
    // A node is visible from outside when something beyond these edges holds it; what such
    // a node holds is visible too.
    let mut visible: FxHashMap<*const Node, bool> = FxHashMap::default();
    let mut changed = true;
    while changed {
        changed = false;
        for x in &order {
            let p = Rc::as_ptr(x);
            if Rc::ptr_eq(x, root) || visible.get(&p).copied().unwrap_or(false) {
                continue;
            }
            let known =
                edges.get(&p).copied().unwrap_or(0) + if Rc::ptr_eq(x, target) { held } else { 0 };
            if Rc::strong_count(x) > known {
                visible.insert(p, true);
                changed = true;
            }
        }
        for x in &order {
            if visible.get(&Rc::as_ptr(x)).copied().unwrap_or(false) {
                for i in &x.inputs {
                    if visible.insert(Rc::as_ptr(i), true) != Some(true) {
                        changed = true;
                    }
                }
            }
        }
    }
    !visible.get(&Rc::as_ptr(target)).copied().unwrap_or(false)
}
