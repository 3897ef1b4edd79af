//! Expression evaluation. Scalar doubles take fast paths that never allocate; everything else
//! goes through the array primitives in `values::ops`.

use super::Interp;
use super::error::{MError, MResult, errors};
use super::function::Frame;
use super::function::{FuncHandle, Slot};
use crate::syntax::ast::{BinOp, Expr, ExprKind, Ident, UnOp};
use crate::syntax::resolve;
use crate::values::access;
use crate::values::containers::CellArray;
use crate::values::ops::{Bin, Un, colon, concat, elementwise, linalg, shape_ops};
use crate::values::shape::Shape;
use crate::values::tensor::Tensor;
use crate::values::value::Value;
use num_complex::Complex64;
use std::rc::Rc;

/// The array an `end` inside an index refers to: its shape, which subscript this is, and how
/// many subscripts there are.
#[derive(Debug, Clone)]
pub struct EndCtx {
    pub shape: Shape,
    pub pos: usize,
    pub count: usize,
}

impl EndCtx {
    pub fn value(&self) -> f64 {
        if self.count == 1 {
            self.shape.numel() as f64
        } else if self.pos == self.count - 1 {
            self.shape.dims()[self.pos.min(self.shape.ndims())..]
                .iter()
                .product::<usize>() as f64
        } else {
            self.shape.dim(self.pos) as f64
        }
    }
}

pub fn bin_of(op: BinOp) -> Option<Bin> {
    Some(match op {
        BinOp::Add => Bin::Add,
        BinOp::Sub => Bin::Sub,
        BinOp::ElemMul => Bin::Mul,
        BinOp::ElemDiv => Bin::Div,
        BinOp::ElemLeftDiv => Bin::LDiv,
        BinOp::ElemPow => Bin::Pow,
        BinOp::Eq => Bin::Eq,
        BinOp::Ne => Bin::Ne,
        BinOp::Lt => Bin::Lt,
        BinOp::Le => Bin::Le,
        BinOp::Gt => Bin::Gt,
        BinOp::Ge => Bin::Ge,
        BinOp::And => Bin::And,
        BinOp::Or => Bin::Or,
        _ => return None,
    })
}

/// Applies a binary operator of the language to two values.
pub fn binary_op(op: BinOp, a: &Value, b: &Value) -> MResult<Value> {
    if let (Value::Object(_), _) | (_, Value::Object(_)) = (a, b) {
        if let Some(r) = crate::dates::arith::binary(op, a, b) {
            return r;
        }
        if let Some(r) = crate::graphics::handle_ops::binary(op, a, b) {
            return r;
        }
    }
    if let Some(r) = super::complex::binary_op(op, a, b) {
        return r;
    }
    if let Some(bin) = bin_of(op) {
        if let Some(v) = super::lower::binary(bin, a, b) {
            return Ok(v);
        }
        if matches!(a, Value::Device(_)) || matches!(b, Value::Device(_)) {
            return super::lower::on_host(&[a, b], |h| elementwise::binary(bin, &h[0], &h[1]));
        }
        return elementwise::binary(bin, a, b);
    }
    // With a scalar operand, `*`, `/` and `\` are elementwise: they join the graph too.
    let elementwise_form = match op {
        BinOp::Mul if a.numel() == 1 || b.numel() == 1 => Some(Bin::Mul),
        BinOp::Div if b.numel() == 1 => Some(Bin::Div),
        BinOp::LeftDiv if a.numel() == 1 => Some(Bin::LDiv),
        _ => None,
    };
    if let Some(bin) = elementwise_form {
        if let Some(v) = super::lower::binary(bin, a, b) {
            return Ok(v);
        }
    }
    if op == BinOp::Mul {
        if let Some(product) = super::product::mtimes(a, b) {
            return product;
        }
    }
    if matches!(a, Value::Device(_)) || matches!(b, Value::Device(_)) {
        return super::lower::on_host(&[a, b], |h| binary_op(op, &h[0], &h[1]));
    }
    let matrix = |f: fn(&Tensor, &Tensor) -> MResult<Tensor>, name: &str| -> MResult<Value> {
        if !a.is_numeric_like() || !b.is_numeric_like() {
            let bad = if a.is_numeric_like() { b } else { a };
            return Err(MError::new(
                "MATLAB:UndefinedFunction",
                format!(
                    "Operator '{name}' is not supported for operands of type '{}'.",
                    bad.class_name()
                ),
            ));
        }
        Ok(Value::from(f(&*a.tensor()?, &*b.tensor()?)?))
    };
    match op {
        BinOp::Mul => {
            if a.is_string() || b.is_string() {
                return elementwise::binary(Bin::Mul, a, b);
            }
            matrix(linalg::mtimes, "*")
        }
        BinOp::Div => matrix(linalg::mrdivide, "/"),
        BinOp::LeftDiv => matrix(linalg::mldivide, "\\"),
        BinOp::Pow => matrix(linalg::mpower, "^"),
        _ => Err(MError::new(
            "MATLAB:internal",
            format!("Operator {op:?} is not a value operator."),
        )),
    }
}

/// Scalar double arithmetic and comparisons (None for the operators that need more care).
#[inline(always)]
fn scalar_binary(op: BinOp, x: f64, y: f64) -> Option<Value> {
    Some(match op {
        BinOp::Add => Value::Num(x + y),
        BinOp::Sub => Value::Num(x - y),
        BinOp::Mul | BinOp::ElemMul => Value::Num(x * y),
        BinOp::Div | BinOp::ElemDiv => Value::Num(x / y),
        BinOp::Lt => Value::Bool(x < y),
        BinOp::Le => Value::Bool(x <= y),
        BinOp::Gt => Value::Bool(x > y),
        BinOp::Ge => Value::Bool(x >= y),
        BinOp::Eq => Value::Bool(x == y),
        BinOp::Ne => Value::Bool(x != y),
        _ => return None,
    })
}

pub fn unary_op(op: UnOp, a: &Value) -> MResult<Value> {
    if let Some(r) = crate::dates::arith::unary(op, a) {
        return r;
    }
    if let Some(r) = super::complex::unary_op(op, a) {
        return r;
    }
    let lazy = match (op, a) {
        (UnOp::Neg, _) => super::lower::unary(Un::Neg, a),
        (UnOp::Not, _) => super::lower::unary(Un::Not, a),
        // A graph value's transpose is a view (its values are real: ' and .' agree).
        (UnOp::Transpose | UnOp::CTranspose, Value::Device(d)) => super::views::transposed(d),
        _ => None,
    };
    if let Some(v) = lazy {
        return Ok(v);
    }
    if let Value::Device(_) = a {
        return super::lower::on_host(&[a], |h| unary_op(op, &h[0]));
    }
    match op {
        UnOp::Neg => elementwise::unary(Un::Neg, a),
        UnOp::Not => elementwise::unary(Un::Not, a),
        UnOp::Plus => match a {
            Value::Bool(b) => Ok(Value::Num(*b as u8 as f64)),
            Value::Tensor(t)
                if matches!(
                    t.class(),
                    crate::values::class::Class::Logical | crate::values::class::Class::Char
                ) =>
            {
                Ok(Value::from(t.cast(crate::values::class::Class::Double)))
            }
            v if v.is_numeric_like() => Ok(v.clone()),
            v => Err(MError::new(
                "MATLAB:UndefinedFunction",
                format!(
                    "Operator '+' is not supported for operands of type '{}'.",
                    v.class_name()
                ),
            )),
        },
        UnOp::Transpose => shape_ops::transpose_value(a),
        UnOp::CTranspose => {
            let t = shape_ops::transpose_value(a)?;
            if t.is_complex() {
                elementwise::unary(Un::Conj, &t)
            } else {
                Ok(t)
            }
        }
    }
}

impl Interp {
    /// Evaluates an expression to exactly one value. This is the interpreter's hot path:
    /// literals, variables and scalar arithmetic are handled here without allocating; every
    /// other case goes to `eval_general`.
    #[inline]
    pub fn eval(&mut self, f: &mut Frame, e: &Expr) -> MResult<Value> {
        match &e.kind {
            ExprKind::Num(x) => Ok(Value::Num(*x)),
            ExprKind::Ident(id) => match f.vars.get(id.slot.get() as usize) {
                Some(Slot::Val(Value::Num(x))) => Ok(Value::Num(*x)),
                Some(Slot::Val(v)) => Ok(v.clone()),
                _ => self.eval_ident_slow(f, id, e),
            },
            ExprKind::Binary(op, a, b) if !matches!(op, BinOp::AndAnd | BinOp::OrOr) => {
                if *op == BinOp::Mul {
                    if let ExprKind::Unary(t @ (UnOp::Transpose | UnOp::CTranspose), inner) =
                        &a.kind
                    {
                        return self.transposed_product(f, *t, inner, a, b, e);
                    }
                }
                let va = self.eval(f, a)?;
                let vb = self.eval(f, b)?;
                if let (Value::Num(x), Value::Num(y)) = (&va, &vb) {
                    if let Some(r) = scalar_binary(*op, *x, *y) {
                        return Ok(r);
                    }
                }
                self.binary_general(f, *op, va, vb, e)
            }
            _ => self.eval_general(f, e),
        }
    }

    /// `x' * b`: a real host matrix times a host matrix of its storage type is multiplied
    /// with `x` read transposed where it is stored (`linalg::mtimes_transposed`); anything
    /// else transposes `x` and multiplies as usual (the same values, evaluated once each).
    #[inline(never)]
    fn transposed_product(
        &mut self,
        f: &mut Frame,
        t: UnOp,
        inner: &Expr,
        a: &Expr,
        b: &Expr,
        e: &Expr,
    ) -> MResult<Value> {
        let vx = self.eval(f, inner)?;
        let vb = self.eval(f, b)?;
        if let (Value::Tensor(x), Value::Tensor(y)) = (&vx, &vb) {
            if let Some(r) = linalg::mtimes_transposed(x, y) {
                return Ok(Value::from(r));
            }
        }
        let va = unary_op(t, &vx).map_err(|err| err.at(a.span, &f.unit.source))?;
        self.binary_general(f, BinOp::Mul, va, vb, e)
    }

    #[inline(never)]
    fn binary_general(
        &mut self,
        f: &mut Frame,
        op: BinOp,
        va: Value,
        vb: Value,
        e: &Expr,
    ) -> MResult<Value> {
        binary_op(op, &va, &vb).map_err(|err| err.at(e.span, &f.unit.source))
    }

    #[inline(never)]
    fn eval_general(&mut self, f: &mut Frame, e: &Expr) -> MResult<Value> {
        match &e.kind {
            ExprKind::Num(_) | ExprKind::Ident(_) => self.eval(f, e),
            ExprKind::Binary(op, a, b) => match op {
                BinOp::AndAnd | BinOp::OrOr => self.short_circuit(f, *op, a, b, e),
                _ => self.eval(f, e),
            },
            ExprKind::Paren(x) => self.eval(f, x),
            ExprKind::Unary(op, x) => {
                let v = self.eval(f, x)?;
                if let (UnOp::Neg, Value::Num(y)) = (op, &v) {
                    return Ok(Value::Num(-y));
                }
                unary_op(*op, &v).map_err(|err| err.at(e.span, &f.unit.source))
            }
            ExprKind::Imag(x) => Ok(Value::complex(Complex64::new(0.0, *x))),
            // the literal '' is 0×0 (other empty texts are 1×0)
            ExprKind::Char(s) if s.is_empty() => Ok(Value::from(Tensor::new(
                Shape::empty(),
                crate::values::tensor::Data::Char(vec![]),
            ))),
            ExprKind::Char(s) => Ok(Value::str(s)),
            ExprKind::Str(s) => Ok(Value::string(s)),
            ExprKind::End => match self.end_stack.last() {
                Some(ctx) => Ok(Value::Num(ctx.value())),
                None => Err(MError::new(
                    "MATLAB:parse:endOutsideIndex",
                    "'end' is only valid inside an index expression.",
                )
                .at(e.span, &f.unit.source)),
            },
            ExprKind::Colon => Ok(Value::str(":")),
            ExprKind::Range(a, s, b) => {
                let va = self.eval(f, a)?;
                let vs = match s {
                    Some(s) => Some(self.eval(f, s)?),
                    None => None,
                };
                let vb = self.eval(f, b)?;
                colon::colon(&va, vs.as_ref(), &vb).map_err(|err| err.at(e.span, &f.unit.source))
            }
            ExprKind::Call(..)
            | ExprKind::CellIndex(..)
            | ExprKind::Field(..)
            | ExprKind::DynField(..) => {
                let mut vals = self.eval_outputs(f, e, 1)?;
                match vals.len() {
                    1 => Ok(vals.pop().unwrap_or_else(Value::empty)),
                    0 => Err(self.no_value_error(e).at(e.span, &f.unit.source)),
                    n => {
                        if matches!(e.kind, ExprKind::Call(..)) {
                            // a function returned extra values: the first one is the result
                            Ok(vals.swap_remove(0))
                        } else {
                            Err(MError::new(
                                "MATLAB:index:expected_one_output_from_expression",
                                format!("Expected one output from a curly brace or dot indexing expression, but there were {n} results."),
                            )
                            .at(e.span, &f.unit.source))
                        }
                    }
                }
            }
            ExprKind::Matrix(rows) => {
                let mut vrows = Vec::with_capacity(rows.len());
                for r in rows {
                    let mut vals = Vec::with_capacity(r.len());
                    for x in r {
                        self.eval_into(f, x, &mut vals)?;
                    }
                    vrows.push(vals);
                }
                // With a graph value in it: joined in the graph, nothing read back.
                if let Some(v) = super::joins::matrix_literal(&vrows) {
                    return Ok(v);
                }
                // Otherwise on the host; a gpuArray among the pieces makes the result one
                // (integer and mixed-class joins, `[gpuArray(1:5) int8(1) 2]`).
                let explicit = vrows
                    .iter()
                    .any(|r| super::lower::explicit(&r.iter().collect::<Vec<_>>()));
                let vrows = vrows
                    .into_iter()
                    .map(super::lower::host_args)
                    .collect::<MResult<Vec<_>>>()?;
                let v =
                    concat::matrix_literal(vrows).map_err(|err| err.at(e.span, &f.unit.source))?;
                Ok(if explicit {
                    super::lower::rewrap_value(v)
                } else {
                    v
                })
            }
            ExprKind::CellLit(rows) => {
                let mut vrows = Vec::with_capacity(rows.len());
                for r in rows {
                    let mut vals = Vec::with_capacity(r.len());
                    for x in r {
                        self.eval_into(f, x, &mut vals)?;
                    }
                    vrows.push(Value::from(CellArray::row(vals)));
                }
                if vrows.is_empty() {
                    return Ok(Value::from(CellArray::new(Shape::empty(), vec![])));
                }
                if vrows.len() == 1 {
                    return Ok(vrows.pop().unwrap_or_else(Value::empty));
                }
                concat::cat(0, &vrows).map_err(|err| err.at(e.span, &f.unit.source))
            }
            ExprKind::FuncHandle(name) => {
                let unit = if f.unit.functions.contains_key(name) {
                    Some(f.unit.clone())
                } else {
                    None
                };
                Ok(Value::Func(Rc::new(FuncHandle::Named {
                    name: name.clone(),
                    unit,
                })))
            }
            ExprKind::AnonFunc(def) => {
                resolve::anon(def);
                let scope = def.scope.get().cloned().unwrap_or_default();
                let mut captures = Vec::with_capacity(scope.len().saturating_sub(def.params.len()));
                for name in &scope.names[def.params.len()..] {
                    captures.push(self.lookup_var(f, name));
                }
                Ok(Value::Func(Rc::new(FuncHandle::Anon {
                    def: def.clone(),
                    captures,
                    unit: f.unit.clone(),
                })))
            }
        }
    }

    fn no_value_error(&self, e: &Expr) -> MError {
        let name = match &e.kind {
            ExprKind::Call(b, _) => match &b.kind {
                ExprKind::Ident(id) => Some(id.name.to_string()),
                _ => None,
            },
            _ => None,
        };
        match name {
            Some(n) => errors::too_many_outputs(&n),
            None => MError::new(
                "MATLAB:index:expected_one_output_from_expression",
                "Expected one output from a curly brace or dot indexing expression, but there were 0 results.",
            ),
        }
    }

    /// A variable's value by name in a frame (following global/persistent declarations).
    pub fn lookup_var(&self, f: &Frame, name: &str) -> Option<Value> {
        let slot = f.layout.get(name)? as usize;
        self.read_slot(f, slot)
    }

    pub fn read_slot(&self, f: &Frame, slot: usize) -> Option<Value> {
        match f.vars.get(slot)? {
            Slot::Val(v) => Some(v.clone()),
            Slot::Empty => None,
            Slot::Global => self.globals.get(f.name_of(slot)).cloned(),
            Slot::Persistent => self.persistents.get(&self.persistent_key(f, slot)).cloned(),
        }
    }

    pub fn persistent_key(&self, f: &Frame, slot: usize) -> (usize, crate::syntax::ast::Name) {
        let id = f
            .function
            .as_ref()
            .map(|d| Rc::as_ptr(d) as usize)
            .unwrap_or(0);
        (id, f.name_of(slot).clone())
    }

    fn eval_ident_slow(&mut self, f: &mut Frame, id: &Ident, e: &Expr) -> MResult<Value> {
        let slot = id.slot.get() as usize;
        if let Some(v) = self.read_slot(f, slot) {
            return Ok(v);
        }
        if slot < f.nparams {
            return Err(
                errors::not_enough_inputs(f.function_name().unwrap_or("anonymous"))
                    .at(e.span, &f.unit.source),
            );
        }
        let mut out = self
            .call_named(f, &id.name, Vec::new(), 1)
            .map_err(|err| err.at(e.span, &f.unit.source))?;
        if out.is_empty() {
            return Err(errors::too_many_outputs(&id.name).at(e.span, &f.unit.source));
        }
        Ok(out.swap_remove(0))
    }

    fn short_circuit(
        &mut self,
        f: &mut Frame,
        op: BinOp,
        a: &Expr,
        b: &Expr,
        e: &Expr,
    ) -> MResult<Value> {
        let side = |interp: &mut Interp, f: &mut Frame, x: &Expr| -> MResult<bool> {
            let v = interp.eval(f, x)?;
            match v {
                Value::Bool(b) => Ok(b),
                Value::Num(n) if !n.is_nan() => Ok(n != 0.0),
                v => {
                    if v.numel() != 1 || !v.is_numeric_like() {
                        return Err(MError::new(
                            "MATLAB:nonLogicalConditional",
                            format!(
                                "Operands to the {} operator must be convertible to logical scalar values.",
                                op.symbol()
                            ),
                        )
                        .at(x.span, &f.unit.source));
                    }
                    v.truthy().map_err(|err| err.at(x.span, &f.unit.source))
                }
            }
        };
        let _ = e;
        let l = side(self, f, a)?;
        if op == BinOp::AndAnd && !l {
            return Ok(Value::Bool(false));
        }
        if op == BinOp::OrOr && l {
            return Ok(Value::Bool(true));
        }
        Ok(Value::Bool(side(self, f, b)?))
    }

    /// Evaluates an expression that may be a comma-separated list (`c{:}`, `s.f` on a struct
    /// array), appending every value.
    pub fn eval_into(&mut self, f: &mut Frame, e: &Expr, out: &mut Vec<Value>) -> MResult<()> {
        match &e.kind {
            ExprKind::CellIndex(..) | ExprKind::Field(..) | ExprKind::DynField(..) => {
                let vals = self.eval_outputs(f, e, 1)?;
                out.extend(vals);
                Ok(())
            }
            ExprKind::Call(..) => {
                let mut vals = self.eval_outputs(f, e, 1)?;
                if vals.is_empty() {
                    return Err(self.no_value_error(e).at(e.span, &f.unit.source));
                }
                vals.truncate(1);
                out.extend(vals);
                Ok(())
            }
            _ => {
                out.push(self.eval(f, e)?);
                Ok(())
            }
        }
    }

    /// Evaluates index or call arguments (expanding comma-separated lists). When the
    /// arguments index a value of shape `end_shape`, `end` inside them refers to it.
    pub fn eval_args(
        &mut self,
        f: &mut Frame,
        args: &[Expr],
        end_shape: Option<&Shape>,
    ) -> MResult<Vec<Value>> {
        let mut out = Vec::with_capacity(args.len());
        for (k, a) in args.iter().enumerate() {
            match (&a.kind, end_shape) {
                (ExprKind::Num(x), _) => out.push(Value::Num(*x)),
                (_, Some(shape)) if a.uses_end() => {
                    self.end_stack.push(EndCtx {
                        shape: shape.clone(),
                        pos: k,
                        count: args.len(),
                    });
                    let r = self.eval_into(f, a, &mut out);
                    self.end_stack.pop();
                    r?;
                }
                _ => self.eval_into(f, a, &mut out)?,
            }
        }
        Ok(out)
    }

    /// `v(args)`: indexing (or a lookup for a map object).
    pub fn index_value(&mut self, v: &Value, args: &[Value]) -> MResult<Value> {
        if let Value::Object(o) = v {
            return super::objects::index(o, args);
        }
        if let Value::DeviceComplex(z) = v {
            return super::complex::index(self, z, args);
        }
        // Device subscripts of a graph value: a gather, checked on the device.
        if let Value::Device(d) = v {
            if args.iter().any(|a| matches!(a, Value::Device(_))) {
                if let Some(g) = super::gathers::read(d, args) {
                    return Ok(g);
                }
            }
        }
        // Subscripts are read on the host (a mask from a comparison may be a graph value).
        if args.iter().any(|a| matches!(a, Value::Device(_))) {
            let args = super::lower::host_args(args.to_vec())?;
            return self.index_value(v, &args);
        }
        if let Value::Device(d) = v {
            // x(:) is a reshape in the graph: it fuses with what produces and consumes it.
            if let [c] = args {
                if c.is_char() && c.text().is_ok_and(|t| t == ":") {
                    return Ok(super::views::reshaped(d, Shape::col(d.node.numel())));
                }
            }
            if let Some(part) = super::part_read::read(d, args) {
                return part;
            }
            // Ranges in every subscript: a view, read where the data is.
            if let Some(view) = super::slices::view(d, args) {
                return Ok(view);
            }
            // Index vectors and masks: a gather.
            if let Some(g) = super::gathers::read(d, args) {
                return Ok(g);
            }
            return super::lower::on_host(&[v], |h| access::paren(&h[0], args));
        }
        // A large host array by a large index vector, without a device: a gather that the
        // consuming fused group reads in its blocks, as gpuArray sources go.
        if let Some(g) = super::gathers::host_read(v, args) {
            return Ok(g);
        }
        access::paren(v, args)
    }

    /// `v.name`: one value per struct element (a comma-separated list for struct arrays).
    pub fn field_values(&mut self, v: &Value, name: &str) -> MResult<Vec<Value>> {
        match v {
            Value::Struct(s) => {
                let Some(k) = s.field_index(name) else {
                    return Err(crate::values::containers::StructArray::missing_field(name));
                };
                Ok(s.elems.iter().map(|e| e[k].clone()).collect())
            }
            Value::Object(o) => Ok(vec![super::objects::property(o, name)?]),
            other => Err(MError::new(
                "MATLAB:structRefFromNonStruct",
                format!(
                    "Dot indexing is not supported for variables of this type ({}).",
                    other.class_name()
                ),
            )),
        }
    }
}
