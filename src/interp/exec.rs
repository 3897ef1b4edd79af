//! Statement execution: control flow, assignment, display of results.

use super::Interp;
use super::error::{MError, MResult};
use super::function::{Frame, Slot};
use super::spread::Spread;
use crate::syntax::ast::{Expr, ExprKind, LhsItem, Stmt, StmtKind};
use crate::values::containers::{CellArray, StructArray};
use crate::values::ops::colon::Range;
use crate::values::shape::Shape;
use crate::values::value::Value;
use std::sync::atomic::Ordering;

/// How a block finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Normal,
    Break,
    Continue,
    Return,
}

impl Interp {
    pub fn exec_block(&mut self, f: &mut Frame, stmts: &[Stmt]) -> MResult<Flow> {
        for s in stmts {
            self.check_interrupt()?;
            f.at = s.span.start;
            match self.exec_stmt(f, s) {
                Ok(Flow::Normal) => {}
                Ok(flow) => return Ok(flow),
                Err(e) => return Err(e.at(s.span, &f.unit.source)),
            }
        }
        Ok(Flow::Normal)
    }

    #[inline]
    pub fn check_interrupt(&self) -> MResult<()> {
        if self.interrupt.load(Ordering::Relaxed) {
            self.interrupt.store(false, Ordering::Relaxed);
            return Err(MError::interrupted());
        }
        Ok(())
    }

    /// Stores a value in a slot (following global/persistent declarations).
    #[inline]
    pub fn store(&mut self, f: &mut Frame, slot: usize, v: Value) {
        if let Value::Num(x) = v {
            if let Slot::Val(Value::Num(old)) = &mut f.vars[slot] {
                *old = x;
                std::mem::forget(v);
                return;
            }
        }
        self.store_general(f, slot, v)
    }

    #[inline(never)]
    fn store_general(&mut self, f: &mut Frame, slot: usize, v: Value) {
        let v = super::lower::host_value(v);
        match &mut f.vars[slot] {
            Slot::Global => {
                let name = f.name_of(slot).clone();
                self.globals.insert(name, v);
            }
            Slot::Persistent => {
                let key = self.persistent_key(f, slot);
                self.persistents.insert(key, v);
            }
            s => *s = Slot::Val(v),
        }
    }

    /// Executes one statement. Plain assignments are the hot path and stay small here.
    #[inline]
    pub fn exec_stmt(&mut self, f: &mut Frame, s: &Stmt) -> MResult<Flow> {
        crate::gpu::trace("statement");
        crate::gpu::batch::flush_if_old();
        if let StmtKind::Assign(lhs, rhs) = &s.kind {
            if lhs.steps.is_empty() && !s.display {
                if matches!(rhs.kind, ExprKind::Matrix(_)) {
                    if let Some(r) = self.try_append(f, lhs, rhs) {
                        return r.map(|()| Flow::Normal);
                    }
                }
                let slot = lhs.var.slot.get() as usize;
                let v = match super::scalar::try_eval(rhs, &f.vars) {
                    Some((x, false)) => Value::Num(x),
                    Some((x, true)) => Value::Bool(x != 0.0),
                    None => self.eval_assigned(f, rhs)?,
                };
                self.store(f, slot, v);
                return Ok(Flow::Normal);
            }
        }
        self.exec_general(f, s)
    }

    /// The right side of a one-target assignment: a comma-separated list (`x = c{:}`,
    /// `y = s.a` on a struct array) gives its first value, as in MATLAB.
    fn eval_assigned(&mut self, f: &mut Frame, rhs: &Expr) -> MResult<Value> {
        if matches!(
            rhs.kind,
            ExprKind::CellIndex(..) | ExprKind::Field(..) | ExprKind::DynField(..)
        ) {
            let mut vals = self.eval_outputs(f, rhs, 1)?;
            if !vals.is_empty() {
                return Ok(vals.swap_remove(0));
            }
        }
        self.eval(f, rhs)
    }

    #[inline(never)]
    fn exec_general(&mut self, f: &mut Frame, s: &Stmt) -> MResult<Flow> {
        match &s.kind {
            StmtKind::Assign(lhs, rhs) => {
                let slot = lhs.var.slot.get() as usize;
                if lhs.steps.is_empty() {
                    let v = self.eval_assigned(f, rhs)?;
                    self.store(f, slot, v);
                } else {
                    let delete = is_empty_literal(rhs);
                    let v = if delete {
                        Value::empty()
                    } else {
                        self.eval_assigned(f, rhs)?
                    };
                    self.assign_path(f, lhs, v, delete)?;
                }
                if s.display {
                    if let Some(v) = self.read_slot(f, slot) {
                        self.display(&lhs.var.name, &v);
                    }
                }
                Ok(Flow::Normal)
            }
            StmtKind::Expr(e) => {
                self.exec_expr_stmt(f, e, s.display)?;
                Ok(Flow::Normal)
            }
            StmtKind::If(arms, els) => {
                for (cond, body) in arms {
                    if self.condition(f, cond)? {
                        return self.exec_block(f, body);
                    }
                }
                match els {
                    Some(body) => self.exec_block(f, body),
                    None => Ok(Flow::Normal),
                }
            }
            StmtKind::While(cond, body) => {
                let fast = super::scalar::loop_body(s, body);
                loop {
                    self.check_interrupt()?;
                    if !self.condition(f, cond)? {
                        break;
                    }
                    let flow = match &fast {
                        Some(b) => self.run_scalar_block(f, body, b)?,
                        None => self.exec_block(f, body)?,
                    };
                    match flow {
                        Flow::Break => break,
                        Flow::Return => return Ok(Flow::Return),
                        _ => {}
                    }
                }
                Ok(Flow::Normal)
            }
            StmtKind::For(var, range, body) => {
                self.exec_for(f, s, var.slot.get() as usize, range, body)
            }
            StmtKind::Switch(subject, cases, other) => {
                let v = self.eval(f, subject)?;
                let valid = match &v {
                    Value::Cell(_) | Value::Struct(_) => false,
                    v if v.is_char() => v.shape().rows() <= 1,
                    v => v.numel() == 1,
                };
                if !valid {
                    return Err(MError::new(
                        "MATLAB:switch:invalidExpression",
                        "SWITCH expression must be a scalar or a character vector.",
                    )
                    .at(subject.span, &f.unit.source));
                }
                for (c, body) in cases {
                    let cv = self.eval(f, c)?;
                    if switch_matches(&v, &cv)? {
                        return self.exec_block(f, body);
                    }
                }
                match other {
                    Some(body) => self.exec_block(f, body),
                    None => Ok(Flow::Normal),
                }
            }
            StmtKind::Try(body, var, catch_body) => match self.exec_block(f, body) {
                Ok(flow) => Ok(flow),
                Err(e) if e.is_interrupt() => Err(e),
                Err(e) => {
                    self.last_error = Some(e.clone());
                    if let Some(v) = var {
                        let ex = super::objects::exception_value(&e);
                        self.store(f, v.slot.get() as usize, ex);
                    }
                    self.exec_block(f, catch_body)
                }
            },
            StmtKind::Break => Ok(Flow::Break),
            StmtKind::Continue => Ok(Flow::Continue),
            StmtKind::Return => Ok(Flow::Return),
            StmtKind::Global(ids) => {
                for id in ids {
                    let slot = id.slot.get() as usize;
                    let local = match std::mem::replace(&mut f.vars[slot], Slot::Global) {
                        Slot::Val(v) => Some(v),
                        _ => None,
                    };
                    let g = self
                        .globals
                        .entry(id.name.clone())
                        .or_insert_with(Value::empty);
                    if let (Some(v), true) = (local, g.is_empty()) {
                        *g = v;
                    }
                }
                Ok(Flow::Normal)
            }
            StmtKind::Persistent(ids) => {
                for id in ids {
                    let slot = id.slot.get() as usize;
                    f.vars[slot] = Slot::Persistent;
                    let key = self.persistent_key(f, slot);
                    self.persistents.entry(key).or_insert_with(Value::empty);
                }
                Ok(Flow::Normal)
            }
            StmtKind::Command(id, args) => {
                let vals: Vec<Value> = args.iter().map(|a| Value::str(a)).collect();
                let out = self.call_named(f, &id.name, vals, 0)?;
                if let Some(v) = out.into_iter().next() {
                    self.set_ans(f, v.clone());
                    if s.display {
                        self.display("ans", &v);
                    }
                }
                Ok(Flow::Normal)
            }
            StmtKind::MultiAssign(items, rhs) => {
                // a target like c{:} or s.f (struct array) takes several outputs
                let mut spreads: Vec<Option<Spread>> = Vec::with_capacity(items.len());
                for item in items {
                    spreads.push(match item {
                        LhsItem::Target(lhs) => self.spread_target(f, lhs)?,
                        LhsItem::Ignore => None,
                    });
                }
                if spreads.iter().any(|s| s.is_some()) {
                    return self.multi_assign_spread(f, items, spreads, rhs, s.display);
                }
                let n = items.len();
                let vals = self.eval_outputs(f, rhs, n)?;
                let needed = items
                    .iter()
                    .rposition(|i| matches!(i, LhsItem::Target(_)))
                    .map(|k| k + 1)
                    .unwrap_or(0);
                if vals.len() < needed {
                    return Err(
                        if matches!(rhs.kind, ExprKind::Call(..) | ExprKind::Ident(_))
                            && vals.len() <= 1
                            && !is_cs_list(rhs)
                        {
                            MError::new("MATLAB:TooManyOutputs", "Too many output arguments.")
                        } else {
                            MError::new(
                                "MATLAB:needMoreRhsOutputs",
                                "Insufficient number of outputs from right hand side of equal sign to satisfy assignment.",
                            )
                        },
                    );
                }
                for (item, v) in items.iter().zip(vals) {
                    if let LhsItem::Target(lhs) = item {
                        if lhs.steps.is_empty() {
                            self.store(f, lhs.var.slot.get() as usize, v);
                        } else {
                            self.assign_path(f, lhs, v, false)?;
                        }
                    }
                }
                if s.display {
                    for item in items {
                        if let LhsItem::Target(lhs) = item {
                            if let Some(v) = self.read_slot(f, lhs.var.slot.get() as usize) {
                                self.display(&lhs.var.name, &v);
                            }
                        }
                    }
                }
                Ok(Flow::Normal)
            }
            StmtKind::Function(def) => Err(MError::new(
                "MATLAB:parse:functionInBlock",
                format!(
                    "Function definitions are not permitted in this context ('{}').",
                    def.name
                ),
            )),
        }
    }

    fn set_ans(&mut self, f: &mut Frame, v: Value) {
        let slot = f.slot_of("ans");
        self.store(f, slot, v);
    }

    /// An expression statement: a plain variable displays under its own name; anything else
    /// goes to `ans` (a call that returns nothing leaves `ans` alone).
    fn exec_expr_stmt(&mut self, f: &mut Frame, e: &Expr, display: bool) -> MResult<()> {
        if let ExprKind::Ident(id) = &e.kind {
            if let Some(v) = self.read_slot(f, id.slot.get() as usize) {
                if display {
                    self.display(&id.name, &v);
                }
                return Ok(());
            }
        }
        let vals = match &e.kind {
            ExprKind::Call(..) | ExprKind::Ident(_) => {
                let mut v = self.eval_outputs(f, e, 0)?;
                v.truncate(1);
                v
            }
            ExprKind::CellIndex(..) | ExprKind::Field(..) | ExprKind::DynField(..) => {
                self.eval_outputs(f, e, 1)?
            }
            _ => vec![self.eval(f, e)?],
        };
        for v in vals {
            self.set_ans(f, v.clone());
            if display {
                self.display("ans", &v);
            }
        }
        Ok(())
    }

    /// MATLAB truth for `if`/`while`: nonempty and all nonzero.
    pub fn condition(&mut self, f: &mut Frame, cond: &Expr) -> MResult<bool> {
        if let Some((x, _)) = super::scalar::try_eval(cond, &f.vars) {
            if !x.is_nan() {
                return Ok(x != 0.0);
            }
        }
        match self.condition_value(f, cond)? {
            Value::Bool(b) => Ok(b),
            Value::Num(x) if !x.is_nan() => Ok(x != 0.0),
            v => v.truthy().map_err(|e| e.at(cond.span, &f.unit.source)),
        }
    }

    /// In an `if`/`while` condition (and only there) `&` and `|` short-circuit when the left
    /// operand is a scalar that already decides the result.
    fn condition_value(&mut self, f: &mut Frame, e: &Expr) -> MResult<Value> {
        use crate::syntax::ast::BinOp;
        let ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) = &e.kind else {
            return self.eval(f, e);
        };
        let va = self.condition_value(f, a)?;
        if va.numel() == 1 && va.is_numeric_like() {
            let t = va.truthy()?;
            if *op == BinOp::And && !t {
                return Ok(Value::Bool(false));
            }
            if *op == BinOp::Or && t {
                return Ok(Value::Bool(true));
            }
        }
        let vb = self.condition_value(f, b)?;
        super::eval::binary_op(*op, &va, &vb).map_err(|err| err.at(e.span, &f.unit.source))
    }

    fn exec_for(
        &mut self,
        f: &mut Frame,
        stmt: &Stmt,
        slot: usize,
        range: &Expr,
        body: &[Stmt],
    ) -> MResult<Flow> {
        // ranges iterate without building the vector
        if let ExprKind::Range(a, s, b) = &range.kind {
            let va = self.eval(f, a)?;
            let vs = match s {
                Some(s) => Some(self.eval(f, s)?),
                None => None,
            };
            let vb = self.eval(f, b)?;
            let plain = |v: &Value| matches!(v, Value::Num(_));
            if plain(&va) && plain(&vb) && vs.as_ref().is_none_or(plain) {
                let (x, y) = (va.scalar_f64()?, vb.scalar_f64()?);
                let st = match &vs {
                    Some(v) => v.scalar_f64()?,
                    None => 1.0,
                };
                let r = Range::new(x, st, y);
                if r.n == 0 {
                    self.store(
                        f,
                        slot,
                        Value::from(crate::values::tensor::Tensor::f64(
                            Shape::matrix(1, 0),
                            vec![],
                        )),
                    );
                }
                let fast = super::scalar::loop_body(stmt, body);
                return match &fast {
                    Some(b) => self.range_loop_scalar(f, stmt, slot, r, body, b),
                    None => self.range_loop(f, stmt, slot, r, body),
                };
            }
        }
        let v = self.eval(f, range)?;
        let shape = v.shape();
        let rows = shape.rows();
        let ncols = if shape.numel() == 0 && shape.dims() == [0, 0] {
            0
        } else {
            shape.cols()
        };
        if ncols == 0 {
            self.store(f, slot, Value::empty());
        }
        for k in 0..ncols {
            self.check_interrupt()?;
            let item = column(&v, k, rows)?;
            self.store(f, slot, item);
            match self.exec_block(f, body)? {
                Flow::Break => break,
                Flow::Return => return Ok(Flow::Return),
                _ => {}
            }
        }
        Ok(Flow::Normal)
    }
}

impl Interp {
    /// `for v = a:s:b` over a body lowered to scalar programs.
    fn range_loop_scalar(
        &mut self,
        f: &mut Frame,
        stmt: &Stmt,
        slot: usize,
        r: Range,
        body: &[Stmt],
        fast: &[crate::syntax::ast::ScalarStmt],
    ) -> MResult<Flow> {
        let interrupt = self.interrupt.clone();
        // A body of arithmetic on device arrays lowers to scalar programs too (each falls back
        // to the general evaluator): it may run as a loop kernel all the same.
        let mut fusion = super::loops::Fusion::start(self, f, stmt, slot, body, r.n);
        let mut k = 0;
        while k < r.n {
            if interrupt.load(Ordering::Relaxed) {
                self.check_interrupt()?;
            }
            if let Some(fu) = fusion.as_mut() {
                fu.before(self, f);
            }
            let x = r.get(k);
            match &mut f.vars[slot] {
                Slot::Val(Value::Num(old)) => *old = x,
                _ => self.store(f, slot, Value::Num(x)),
            }
            match self.run_scalar_block(f, body, fast)? {
                Flow::Break => break,
                Flow::Return => return Ok(Flow::Return),
                _ => {}
            }
            k = match fusion {
                Some(_) => match self.loop_kernel_after(&mut fusion, f, slot, &r, k)? {
                    Some(next) => next,
                    None => k + 1,
                },
                None => k + 1,
            };
        }
        Ok(Flow::Normal)
    }

    /// `for v = a:s:b` over any body.
    /// Its iterations up to the last but one may run as a loop kernel (`interp::loops`).
    fn range_loop(
        &mut self,
        f: &mut Frame,
        stmt: &Stmt,
        slot: usize,
        r: Range,
        body: &[Stmt],
    ) -> MResult<Flow> {
        let mut fusion = super::loops::Fusion::start(self, f, stmt, slot, body, r.n);
        let mut k = 0;
        while k < r.n {
            self.check_interrupt()?;
            if let Some(fu) = fusion.as_mut() {
                fu.before(self, f);
            }
            self.store(f, slot, Value::Num(r.get(k)));
            match self.exec_block(f, body)? {
                Flow::Break => break,
                Flow::Return => return Ok(Flow::Return),
                _ => {}
            }
            k = match self.loop_kernel_after(&mut fusion, f, slot, &r, k)? {
                Some(next) => next,
                None => k + 1,
            };
        }
        Ok(Flow::Normal)
    }
}

/// Column `k` of a value viewed as rows×(rest), as a for loop hands it out.
fn column(v: &Value, k: usize, rows: usize) -> MResult<Value> {
    let pos: Vec<usize> = (k * rows..(k + 1) * rows).collect();
    let shape = Shape::col(rows);
    match v {
        Value::Device(_) | Value::DeviceComplex(_) => column(&v.clone().host()?, k, rows),
        Value::Num(_) | Value::Bool(_) | Value::Func(_) | Value::Object(_) => Ok(v.clone()),
        Value::Tensor(t) => {
            if rows == 1 {
                if let crate::values::tensor::Data::F64(d) = &t.data {
                    return Ok(Value::Num(d[k]));
                }
            }
            Ok(Value::from(t.gather(&pos, shape)))
        }
        Value::Cell(c) => Ok(Value::from(CellArray::new(
            shape,
            pos.iter().map(|&i| c.data[i].clone()).collect(),
        ))),
        Value::Str(s) => Ok(Value::from(crate::values::containers::StrArray::new(
            shape,
            pos.iter().map(|&i| s.data[i].clone()).collect(),
        ))),
        Value::Struct(s) => Ok(Value::from(StructArray {
            shape,
            fields: s.fields.clone(),
            elems: pos.iter().map(|&i| s.elems[i].clone()).collect(),
        })),
    }
}

fn is_empty_literal(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Matrix(rows) => rows.iter().all(|r| r.is_empty()),
        ExprKind::Paren(x) => is_empty_literal(x),
        _ => false,
    }
}

fn is_cs_list(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::CellIndex(..) | ExprKind::Field(..))
}

/// Whether a `case` value matches the `switch` value: text compares as text, numbers with
/// `==`; a cell case matches if any element does.
pub fn switch_matches(v: &Value, case: &Value) -> MResult<bool> {
    if let Value::Cell(c) = case {
        for x in &c.data {
            if switch_matches(v, x)? {
                return Ok(true);
            }
        }
        return Ok(false);
    }
    let text = |x: &Value| x.is_char() || x.is_string();
    if text(v) || text(case) {
        if text(v) && text(case) {
            return Ok(v.text().ok() == case.text().ok());
        }
        return Ok(false);
    }
    if v.is_numeric_like() && case.is_numeric_like() {
        if case.is_empty() || v.is_empty() {
            return Ok(false);
        }
        if case.numel() != 1 {
            return Ok(false);
        }
        let eq = crate::values::ops::elementwise::binary(crate::values::ops::Bin::Eq, v, case)?;
        return Ok(eq.numel() == 1 && eq.truthy().unwrap_or(false));
    }
    Ok(false)
}
