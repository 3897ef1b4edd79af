//! Loop templates (issue 28): the graph one iteration of a `for` loop appended, matched
//! against the graph the iteration before it appended, becomes the body of one kernel whose
//! shader runs the loop (`codegen::loops`, `gpu::loops`).
//!
//! The interpreter (`interp::loops`) runs two iterations lazily and hands over, per carried
//! variable, its node before the first (`before`), after the first (`middle`) and after the
//! second (`after`). The second iteration's graph (from the `middle` nodes to the `after`
//! ones) is walked beside the first's (from `before` to `middle`): the same operations on the
//! same shapes and classes, the same constants, the same arrays read, where only these may
//! move from one iteration to the next by a fixed amount: where a view of an array starts
//! (`X(:, t)`, `X(t, :)`) and where a random block starts in the stream (`randn(n, 1)` drawn
//! each step). The walk is the proof that iteration k + 1 is iteration k with those moved
//! (the interpreter has checked that the loop variable only moves subscripts, affinely).

use super::{Access, Group, Step, access, view_access};
use crate::graph::{self, Data, Node, Op, Precision};
use crate::values::ops::{Bin, Red, Un};
use std::collections::HashMap;
use std::rc::Rc;

/// One carried variable's nodes at the iterations the walk compares.
pub struct Carried {
    pub before: Rc<Node>,
    pub middle: Rc<Node>,
    pub after: Rc<Node>,
}

/// A loop body as one kernel: `group`'s first `carried` inputs are the carried arrays'
/// values when the kernel starts (read element for element); step `roots[j]` is carried
/// array j's next value. Input k's view moves `input_deltas[k]` elements an iteration and
/// random block j `rand_deltas[j]` values; the group's accesses and random offsets are those
/// of the second iteration observed.
pub struct LoopTemplate {
    pub group: Group,
    pub carried: usize,
    pub roots: Vec<usize>,
    pub input_deltas: Vec<i64>,
    pub rand_deltas: Vec<u64>,
    /// Per input: the elements its reads span at the observed iteration (lowest, highest),
    /// and the length of the array it reads, for the bounds of the iterations to come.
    pub spans: Vec<(i64, i64, usize)>,
    /// Where each carried variable (in the order the interpreter gave them) lives.
    pub places: Vec<Place>,
    /// The carried values of one element computed from reductions of the arrays.
    pub scalar: ScalarSide,
}

/// A carried variable: an array of the loop's shape (`Array(j)`, the group's input j and
/// root j) or one value computed from reductions (`Scalar(j)`, the scalar side's root j).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Place {
    Array(usize),
    Scalar(usize),
}

/// Carried reductions (`acc = acc + sum(y)`, `m = max(m, max(y))`): each iteration the
/// loop kernel reduces `reductions[r]` (an operation over a step of the group, and whether
/// NaN is skipped) across the elements, and a program of single values (`steps`) takes the
/// scalar carried values to the next iteration's from those results. Nothing of it feeds
/// back into the elements, so the reductions can run beside the elementwise loop.
#[derive(Default)]
pub struct ScalarSide {
    pub steps: Vec<ScalarStep>,
    pub roots: Vec<usize>,
    pub reductions: Vec<(Red, usize, bool)>,
    /// The scalar carried values the kernel starts from (realised, one element each).
    pub starts: Vec<Rc<Node>>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ScalarStep {
    Carried(usize),
    Reduced(usize),
    Const(f64),
    Unary(Un, usize),
    Binary(Bin, usize, usize),
}

impl LoopTemplate {
    /// Whether the reads of iterations `1..=trips` after the observed one stay inside their
    /// arrays (an affine move checked at both ends covers the ones between).
    pub fn in_bounds(&self, trips: usize) -> bool {
        self.spans
            .iter()
            .zip(&self.input_deltas)
            .all(|(&(lo, hi, len), &d)| {
                let ok = |k: i64| {
                    let (a, b) = (lo + k * d, hi + k * d);
                    a >= 0 && b < len as i64
                };
                ok(1) && ok(trips as i64)
            })
    }
    /// The words of arithmetic an iteration costs an element (random draws and
    /// transcendental functions weigh more), to size the dispatches of a long loop.
    pub fn cost(&self) -> usize {
        self.group
            .steps
            .iter()
            .map(|s| match s {
                Step::Rand(_) => 48,
                Step::Unary(..) => 8,
                _ => 1,
            })
            .sum::<usize>()
            .saturating_add(16 * self.scalar.reductions.len())
            .max(1)
    }
}

/// The template of the loop whose carried variables moved as `carried` says, or why there is
/// none.
pub fn template(carried: &[Carried]) -> Result<LoopTemplate, String> {
    // The arrays set the kernel's shape; variables of one element beside them are the
    // scalar side's.
    let largest = carried
        .iter()
        .max_by_key(|c| c.after.numel())
        .ok_or("no variable is carried")?;
    let shape = largest.after.shape.clone();
    let class = largest.after.class;
    if !class.is_float() {
        return Err(format!("the carried values are {}", class.name()));
    }
    let precision = Precision::of(class);
    let mut arrays = Vec::new();
    let mut scalars = Vec::new();
    let mut places = Vec::with_capacity(carried.len());
    for c in carried {
        let one = |n: &Node| n.numel() == 1;
        let scalar = shape.numel() > 1 && one(&c.after) && one(&c.middle) && one(&c.before);
        if !scalar && (c.after.shape != shape || c.middle.shape != shape || c.before.shape != shape)
        {
            return Err("the carried variables change shape or differ in shape".into());
        }
        if Precision::of(c.after.class) != precision || !c.after.class.is_float() {
            return Err("the carried variables differ in class".into());
        }
        let copy = Carried {
            before: c.before.clone(),
            middle: c.middle.clone(),
            after: c.after.clone(),
        };
        if scalar {
            places.push(Place::Scalar(scalars.len()));
            scalars.push(copy);
        } else {
            places.push(Place::Array(arrays.len()));
            arrays.push(copy);
        }
    }
    let mut group = Group::empty(shape.clone(), precision);
    // The carried arrays the kernel starts from are its first inputs.
    for c in &arrays {
        group.leaves.push(c.after.clone());
        group.inputs.push(Access::Same);
        group.bindings.push(precision);
    }
    let n = arrays.len();
    let mut walk = Walk {
        g: group,
        carried: &arrays,
        scalars: &scalars,
        seen: HashMap::new(),
        seen_scalar: HashMap::new(),
        input_deltas: vec![0; n],
        rand_deltas: Vec::new(),
        spans: vec![(0, shape.numel() as i64 - 1, shape.numel()); n],
        scalar: ScalarSide::default(),
    };
    let mut roots = Vec::with_capacity(n);
    for c in &arrays {
        roots.push(walk.step(&c.after, &c.middle)?);
    }
    for c in &scalars {
        let root = walk.scalar_step(&c.after, &c.middle)?;
        walk.scalar.roots.push(root);
        walk.scalar.starts.push(c.after.clone());
    }
    if !walk.g.uniform_precision {
        return Err("it mixes single and double values".into());
    }
    if n == 0 {
        return Err("no array is carried".into());
    }
    Ok(LoopTemplate {
        group: walk.g,
        carried: n,
        roots,
        input_deltas: walk.input_deltas,
        rand_deltas: walk.rand_deltas,
        spans: walk.spans,
        places,
        scalar: walk.scalar,
    })
}

struct Walk<'a> {
    g: Group,
    carried: &'a [Carried],
    scalars: &'a [Carried],
    /// Steps made, by the pair of nodes (this iteration's, the last one's) they stand for.
    seen: HashMap<(*const Node, *const Node), usize>,
    seen_scalar: HashMap<(*const Node, *const Node), usize>,
    scalar: ScalarSide,
    input_deltas: Vec<i64>,
    rand_deltas: Vec<u64>,
    spans: Vec<(i64, i64, usize)>,
}

/// A short name of what a node does, for the reasons a loop is not fused.
fn op_name(op: &Op) -> String {
    match op {
        Op::Unary(u) => format!("{u:?}"),
        Op::Binary(b) => format!("{b:?}"),
        Op::Reduce { op, .. } => format!("a reduction ({op:?})"),
        Op::Embed(_) => "an indexed assignment".into(),
        Op::Gather(_) | Op::Positions => "an index by a vector or mask".into(),
        Op::Transpose => "a transpose".into(),
        Op::Leaf => "a value computed apart each iteration".into(),
        other => format!("{other:?}")
            .split(['(', ' ', '{'])
            .next()
            .unwrap_or("an operation")
            .to_string(),
    }
}

impl Walk<'_> {
    fn push(&mut self, n: &Node, step: Step) -> usize {
        let numeric = super::is_numeric(n);
        if numeric && n.precision() != self.g.precision {
            self.g.uniform_precision = false;
        }
        self.g.steps.push(step);
        self.g
            .single
            .push(numeric && n.precision() == Precision::F32);
        self.g.steps.len() - 1
    }

    /// An input read with `how`, moving `delta` elements an iteration.
    fn input(
        &mut self,
        n: &Rc<Node>,
        leaf: Rc<Node>,
        how: Access,
        delta: i64,
        span: (i64, i64, usize),
    ) -> usize {
        let precision = super::binding_precision(&leaf, self.g.precision);
        let same = (0..self.g.leaves.len()).find(|&k| {
            k >= self.carried.len()
                && self.g.inputs[k] == how
                && self.g.bindings[k] == precision
                && self.input_deltas[k] == delta
                && super::same_data(&self.g.leaves[k], &leaf)
        });
        let k = match same {
            Some(k) => k,
            None => {
                self.g.leaves.push(leaf);
                self.g.inputs.push(how);
                self.g.bindings.push(precision);
                self.input_deltas.push(delta);
                self.spans.push(span);
                self.g.leaves.len() - 1
            }
        };
        self.push(n, Step::Input(k))
    }

    fn step(&mut self, a: &Rc<Node>, b: &Rc<Node>) -> Result<usize, String> {
        let key = (Rc::as_ptr(a), Rc::as_ptr(b));
        if let Some(&k) = self.seen.get(&key) {
            return Ok(k);
        }
        let k = self.fresh_step(a, b)?;
        self.seen.insert(key, k);
        Ok(k)
    }

    fn fresh_step(&mut self, a: &Rc<Node>, b: &Rc<Node>) -> Result<usize, String> {
        if self.scalars.iter().any(|c| Rc::ptr_eq(&c.middle, a)) {
            return Err("a value reduced in the loop is read back into its elements".into());
        }
        // A carried variable's value as the iteration found it.
        if let Some(j) = self.carried.iter().position(|c| Rc::ptr_eq(&c.middle, a)) {
            if !Rc::ptr_eq(&self.carried[j].before, b) {
                return Err("a carried variable is read in place of another".into());
            }
            return Ok(self.push(a, Step::Input(j)));
        }
        // The same node in both iterations: computed before the loop (or from such values
        // only), read as it is.
        if Rc::ptr_eq(a, b) {
            return self.invariant(a);
        }
        let out = self.g.shape.clone();
        if a.shape != b.shape || a.class != b.class {
            return Err("a value changes shape or class from one iteration to the next".into());
        }
        if a.numel() != out.numel() && a.numel() != 1 {
            return Err(format!(
                "a value of size {} is computed inside a loop over {} elements",
                a.shape.size_text(),
                out.size_text()
            ));
        }
        match (&a.op, &b.op) {
            (Op::Const(x), Op::Const(y)) => {
                if x.to_bits() != y.to_bits() && !(x.is_nan() && y.is_nan()) {
                    return Err(
                        "a host value changes from one iteration to the next (made from the \
                         loop variable outside a subscript, or carried on the host)"
                            .into(),
                    );
                }
                self.g.consts.push(*x);
                let j = self.g.consts.len() - 1;
                Ok(self.push(a, Step::Const(j)))
            }
            (Op::Unary(p), Op::Unary(q)) if p == q => {
                if !total(*p) {
                    return Err(format!(
                        "the loop body takes {p:?} of a value whose sign changes with the \
                         iterations (negative values would make it complex)"
                    ));
                }
                let x = self.step(&a.inputs[0], &b.inputs[0])?;
                Ok(self.push(a, Step::Unary(*p, x)))
            }
            (Op::Binary(p), Op::Binary(q)) if p == q => {
                use crate::values::ops::Bin;
                let integer_power = matches!(a.inputs[1].op, Op::Const(e) if e.fract() == 0.0);
                if matches!(p, Bin::Nthroot | Bin::Beta) || (*p == Bin::Pow && !integer_power) {
                    return Err(format!(
                        "the loop body takes {p:?} with operands whose signs change with the \
                         iterations"
                    ));
                }
                let x = self.step(&a.inputs[0], &b.inputs[0])?;
                let y = self.step(&a.inputs[1], &b.inputs[1])?;
                Ok(self.push(a, Step::Binary(*p, x, y)))
            }
            (Op::Select, Op::Select) => {
                let m = self.step(&a.inputs[0], &b.inputs[0])?;
                let x = self.step(&a.inputs[1], &b.inputs[1])?;
                let y = self.step(&a.inputs[2], &b.inputs[2])?;
                Ok(self.push(a, Step::Select(m, x, y)))
            }
            (Op::Iota(d), Op::Iota(e)) if d == e && a.shape == out => {
                Ok(self.push(a, Step::Iota(*d)))
            }
            // A cast within one precision, or of logical values, changes nothing computed; a
            // reshape of as many elements reads them in the same order.
            (Op::Cast, Op::Cast) | (Op::Reshape, Op::Reshape) => {
                let (ia, ib) = (&a.inputs[0], &b.inputs[0]);
                let same_precision = ia.class == crate::values::class::Class::Logical
                    || ia.precision() == a.precision();
                if ia.numel() != a.numel() || (a.op == Op::Cast && !same_precision) {
                    return Err("a conversion between single and double".into());
                }
                self.step(ia, ib)
            }
            (Op::Rand(sa), Op::Rand(sb))
                if sa.kind == sb.kind && sa.seed == sb.seed && a.numel() == out.numel() =>
            {
                let at = self.g.consts.len();
                if let graph::RandKind::Int { lo, span } = sa.kind {
                    self.g.consts.extend([lo, span]);
                }
                self.g.rands.push((*sa, at));
                self.rand_deltas.push(sa.offset.wrapping_sub(sb.offset));
                let j = self.g.rands.len() - 1;
                Ok(self.push(a, Step::Rand(j)))
            }
            (Op::View(fa), Op::View(fb))
                if fa.strides == fb.strides && Rc::ptr_eq(&a.inputs[0], &b.inputs[0]) =>
            {
                let source = a.inputs[0].clone();
                self.computed(&source)?;
                let how =
                    view_access(fa, &a.shape, &out).ok_or("a view is read under another shape")?;
                let span = view_span(fa, &a.shape, source.numel());
                Ok(self.input(a, source, how, fa.offset - fb.offset, span))
            }
            (Op::Leaf, Op::Leaf) => match (host_scalar(a), host_scalar(b)) {
                // A host scalar made again each iteration (`1 - a` of a single `a`).
                (Some(x), Some(y)) if same_value(x, y) => {
                    self.g.consts.push(x);
                    let j = self.g.consts.len() - 1;
                    Ok(self.push(a, Step::Const(j)))
                }
                (Some(_), Some(_)) => {
                    Err("a host value changes from one iteration to the next".into())
                }
                _ => self.moving_column(a, b),
            },
            _ if std::mem::discriminant(&a.op) != std::mem::discriminant(&b.op) => {
                Err("the iterations compute different operations".into())
            }
            (Op::Reduce { .. }, _) => Err(
                "a reduction's result is read into the loop's elements (each iteration needs \
                 the whole reduction first), or the reduction is not of a whole carried array"
                    .into(),
            ),
            _ => Err(format!(
                "the loop body has {}, which a loop kernel does not take",
                op_name(&a.op)
            )),
        }
    }

    /// The scalar side's step for node `a` of this iteration (`b` of the last one).
    fn scalar_step(&mut self, a: &Rc<Node>, b: &Rc<Node>) -> Result<usize, String> {
        let key = (Rc::as_ptr(a), Rc::as_ptr(b));
        if let Some(&k) = self.seen_scalar.get(&key) {
            return Ok(k);
        }
        let step = self.fresh_scalar_step(a, b)?;
        self.scalar.steps.push(step);
        let k = self.scalar.steps.len() - 1;
        self.seen_scalar.insert(key, k);
        Ok(k)
    }

    fn fresh_scalar_step(&mut self, a: &Rc<Node>, b: &Rc<Node>) -> Result<ScalarStep, String> {
        if let Some(j) = self.scalars.iter().position(|c| Rc::ptr_eq(&c.middle, a)) {
            if !Rc::ptr_eq(&self.scalars[j].before, b) {
                return Err("a carried variable is read in place of another".into());
            }
            return Ok(ScalarStep::Carried(j));
        }
        if a.numel() != 1 || b.numel() != 1 || a.class != b.class {
            return Err("a value of one element is computed from the loop's arrays".into());
        }
        if super::is_numeric(a) && a.precision() != self.g.precision {
            return Err("it mixes single and double values".into());
        }
        match (&a.op, &b.op) {
            (Op::Const(x), Op::Const(y)) => {
                if !same_value(*x, *y) {
                    return Err("a host value changes from one iteration to the next".into());
                }
                Ok(ScalarStep::Const(*x))
            }
            (Op::Leaf, Op::Leaf) if host_scalar(a).is_some() => {
                match (host_scalar(a), host_scalar(b)) {
                    (Some(x), Some(y)) if same_value(x, y) => Ok(ScalarStep::Const(x)),
                    _ => Err("a host value changes from one iteration to the next".into()),
                }
            }
            _ if Rc::ptr_eq(a, b) => Err(
                "the loop's reductions are combined with a device value computed before it".into(),
            ),
            (Op::Unary(p), Op::Unary(q)) if p == q && matches!(p, Un::Neg | Un::Abs) => {
                let x = self.scalar_step(&a.inputs[0], &b.inputs[0])?;
                Ok(ScalarStep::Unary(*p, x))
            }
            (Op::Binary(p), Op::Binary(q))
                if p == q
                    && matches!(
                        p,
                        Bin::Add | Bin::Sub | Bin::Mul | Bin::Div | Bin::Max | Bin::Min
                    ) =>
            {
                let x = self.scalar_step(&a.inputs[0], &b.inputs[0])?;
                let y = self.scalar_step(&a.inputs[1], &b.inputs[1])?;
                Ok(ScalarStep::Binary(*p, x, y))
            }
            (Op::Cast, Op::Cast) | (Op::Reshape, Op::Reshape)
                if a.inputs[0].precision() == a.precision() =>
            {
                // (A step of its own, x * 1: the memo is per node pair.)
                let x = self.scalar_step(&a.inputs[0], &b.inputs[0])?;
                self.scalar.steps.push(ScalarStep::Const(1.0));
                let one = self.scalar.steps.len() - 1;
                Ok(ScalarStep::Binary(Bin::Mul, x, one))
            }
            (
                Op::Reduce { op, omitnan, .. },
                Op::Reduce {
                    op: op_b,
                    omitnan: omitnan_b,
                    ..
                },
            ) if op == op_b && omitnan == omitnan_b => {
                let (ia, ib) = (&a.inputs[0], &b.inputs[0]);
                if ia.numel() != self.g.shape.numel() {
                    return Err(
                        "a reduction inside the loop is not over a whole carried-size array".into(),
                    );
                }
                let op = match op {
                    Red::Sum | Red::Prod | Red::Max | Red::Min | Red::Mean => *op,
                    other => {
                        return Err(format!(
                            "the loop body has a reduction ({other:?}) a loop kernel does not carry"
                        ));
                    }
                };
                let k = self.step(ia, ib)?;
                let reduced = match op {
                    Red::Mean => Red::Sum,
                    other => other,
                };
                self.scalar.reductions.push((reduced, k, *omitnan));
                let r = self.scalar.reductions.len() - 1;
                if op != Red::Mean {
                    return Ok(ScalarStep::Reduced(r));
                }
                if *omitnan {
                    return Err("a mean that skips NaN inside the loop".into());
                }
                // The mean: the sum over the element count.
                self.scalar.steps.push(ScalarStep::Reduced(r));
                let sum = self.scalar.steps.len() - 1;
                self.scalar.steps.push(ScalarStep::Const(ia.numel() as f64));
                let count = self.scalar.steps.len() - 1;
                Ok(ScalarStep::Binary(Bin::Div, sum, count))
            }
            _ => Err(format!(
                "the loop's work on single values has {}, which a loop kernel does not carry",
                op_name(&a.op)
            )),
        }
    }

    /// Two computed arrays that are views of one array's storage (columns `X(:, t)` of a
    /// device matrix): that array, read where this iteration's view starts.
    fn moving_column(&mut self, a: &Rc<Node>, b: &Rc<Node>) -> Result<usize, String> {
        let (da, db) = (a.data.borrow().clone(), b.data.borrow().clone());
        let (Some(Data::Device(va)), Some(Data::Device(vb))) = (da, db) else {
            return Err(format!(
                "the loop body has a value of size {} computed on the host each iteration",
                a.shape.size_text()
            ));
        };
        let (Some(pa), Some(pb)) = (&va.parent, &vb.parent) else {
            return Err(format!(
                "the loop body has a value of size {} computed apart each iteration",
                a.shape.size_text()
            ));
        };
        if !Rc::ptr_eq(pa, pb) || va.precision != pa.precision || va.precision != vb.precision {
            return Err("the loop body reads a different array each iteration".into());
        }
        let bytes = va.precision.bytes() as i64;
        let start =
            |v: &crate::gpu::buffers::DeviceBuffer| (v.offset as i64 - pa.offset as i64) / bytes;
        let (sa, sb) = (start(&va), start(&vb));
        let out = self.g.shape.clone();
        let source = graph::leaf(
            Data::Device(pa.clone()),
            crate::values::shape::Shape::col(pa.len),
            a.class,
        );
        let how = match access(&a.shape, &out) {
            Access::Scalar => Access::Strided(vec![0; out.ndims()], sa as u32),
            Access::Same => {
                let mut strides = Vec::with_capacity(out.ndims());
                let mut stride = 1u32;
                for d in 0..out.ndims() {
                    strides.push(if out.dim(d) == 1 { 0 } else { stride });
                    stride = stride.saturating_mul(out.dim(d) as u32);
                }
                Access::Strided(strides, sa as u32)
            }
            Access::Strided(s, _) => Access::Strided(s, sa as u32),
            Access::Region(_) => return Err("a region read".into()),
        };
        let span = (sa, sa + a.numel() as i64 - 1, pa.len);
        Ok(self.input(a, source, how, sa - sb, span))
    }

    /// A node computed before the loop (or pending from such values only): computed now and
    /// read as an input; a constant stays a constant.
    fn invariant(&mut self, a: &Rc<Node>) -> Result<usize, String> {
        if let Op::Const(x) = a.op {
            self.g.consts.push(x);
            let j = self.g.consts.len() - 1;
            return Ok(self.push(a, Step::Const(j)));
        }
        self.computed(a)?;
        let how = access(&a.shape, &self.g.shape);
        let span = (0, a.numel() as i64 - 1, a.numel());
        Ok(self.input(a, a.clone(), how, 0, span))
    }

    fn computed(&self, n: &Rc<Node>) -> Result<(), String> {
        super::realise(n).map_err(|e| e.message().to_string())
    }
}

/// Whether a unary operation is real for every real operand: the others (`sqrt`, `log`,
/// `asin`, ...) are taken lazily only of values known not to leave their domain, which an
/// iteration to come need not respect.
fn total(op: crate::values::ops::Un) -> bool {
    use crate::values::ops::Un::*;
    matches!(
        op,
        Neg | Not
            | Abs
            | Sign
            | Exp
            | Expm1
            | Sin
            | Cos
            | Tan
            | Atan
            | Sinh
            | Cosh
            | Tanh
            | Asinh
            | Sec
            | Csc
            | Cot
            | Floor
            | Ceil
            | Round
            | Fix
            | IsNan
            | IsInf
            | IsFinite
            | Gamma
            | Erf
            | Erfc
            | Cbrt
            | Sind
            | Cosd
            | Tand
            | Secd
            | Cscd
            | Cotd
            | Atand
            | Acot
            | Sech
            | Csch
            | Coth
    )
}

/// The lowest and highest elements a view reads in its input of `len` elements.
fn view_span(
    f: &graph::Affine,
    shape: &crate::values::shape::Shape,
    len: usize,
) -> (i64, i64, usize) {
    let (mut lo, mut hi) = (f.offset, f.offset);
    for (d, &s) in f.strides.iter().enumerate() {
        let reach = s * (shape.dim(d) as i64 - 1).max(0);
        if reach < 0 {
            lo += reach;
        } else {
            hi += reach;
        }
    }
    (lo, hi, len)
}

/// A real host value of one element held by a leaf.
fn host_scalar(n: &Node) -> Option<f64> {
    if n.numel() != 1 {
        return None;
    }
    match &*n.data.borrow() {
        Some(Data::Host(t)) if !t.is_complex() => t.to_f64().first().copied(),
        _ => None,
    }
}

/// Whether two constants are the same value (bit for bit, or both NaN).
fn same_value(x: f64, y: f64) -> bool {
    x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())
}
