//! Scalar fast path. Side-effect-free expressions over double and logical scalars are lowered
//! once to a small stack program (cached in the expression) and run without building
//! `Value`s; loop bodies made only of such assignments and `if`s are lowered as a whole, so a
//! scalar loop runs without the general statement machinery.
//!
//! A program gives up (returns None) as soon as a variable is not a real scalar. Nothing it
//! has evaluated by then has any effect, so the caller simply runs that one statement through
//! the general evaluator and carries on.

use super::Interp;
use super::error::MResult;
use super::exec::Flow;
use super::function::{Frame, Slot};
use crate::syntax::ast::{
    BinOp, BlockCache, Expr, ExprKind, ScalarCache, ScalarOp, ScalarProgram, ScalarStmt, Stmt,
    StmtKind, UnOp,
};
use crate::values::value::Value;
use std::rc::Rc;

/// Deepest evaluation stack a scalar program may use.
const MAX_STACK: usize = 8;

struct Compiler {
    ops: Vec<ScalarOp>,
    depth: usize,
    max_depth: usize,
}

fn strip(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Paren(a) => strip(a),
        _ => e,
    }
}

impl Compiler {
    fn push(&mut self, op: ScalarOp, delta: isize) {
        self.ops.push(op);
        self.depth = (self.depth as isize + delta).max(0) as usize;
        self.max_depth = self.max_depth.max(self.depth);
    }

    /// Emits code for `e`; returns whether its result is logical, or None if `e` is not a
    /// pure scalar expression.
    fn expr(&mut self, e: &Expr) -> Option<bool> {
        match &e.kind {
            ExprKind::Num(x) => {
                self.push(ScalarOp::Const(*x), 0);
                Some(false)
            }
            ExprKind::Ident(id) => {
                self.push(ScalarOp::Load(id.slot.get()), 0);
                Some(false)
            }
            ExprKind::Paren(a) => self.expr(a),
            ExprKind::Unary(UnOp::Neg, a) => {
                self.expr(a)?;
                self.push(ScalarOp::Neg, 0);
                Some(false)
            }
            ExprKind::Unary(UnOp::Not, a) => {
                self.expr(a)?;
                self.push(ScalarOp::Not, 0);
                Some(true)
            }
            ExprKind::Binary(op @ (BinOp::AndAnd | BinOp::OrOr), a, b) => {
                self.expr(a)?;
                let at = self.ops.len();
                self.push(ScalarOp::ShortCircuit(*op == BinOp::AndAnd, 0), 0);
                self.expr(b)?;
                self.push(ScalarOp::ToBool, 0);
                self.ops[at] = ScalarOp::ShortCircuit(*op == BinOp::AndAnd, self.ops.len() as u32);
                Some(true)
            }
            ExprKind::Binary(op, a, b) => {
                let logical = matches!(
                    op,
                    BinOp::Lt
                        | BinOp::Le
                        | BinOp::Gt
                        | BinOp::Ge
                        | BinOp::Eq
                        | BinOp::Ne
                        | BinOp::And
                        | BinOp::Or
                );
                // a\b is b/a
                let (a, b, op) = match op {
                    BinOp::LeftDiv | BinOp::ElemLeftDiv => (b, a, BinOp::Div),
                    _ => (a, b, *op),
                };
                let constant = match strip(b).kind {
                    ExprKind::Num(c) => Some(c),
                    _ => None,
                };
                // a variable operand folds into the operation
                let slot_of = |e: &Expr| match &strip(e).kind {
                    ExprKind::Ident(id) => Some(id.slot.get()),
                    _ => None,
                };
                if constant.is_none() {
                    if let Some(s) = slot_of(b) {
                        if let Some(op) = with_slot(op, s, false) {
                            self.expr(a)?;
                            self.push(op, 0);
                            return Some(logical);
                        }
                    }
                    if let (Some(s), None) = (slot_of(a), slot_of(b)) {
                        if !matches!(strip(b).kind, ExprKind::Num(_)) {
                            if let Some(op) = with_slot(op, s, true) {
                                self.expr(b)?;
                                self.push(op, 0);
                                return Some(logical);
                            }
                        }
                    }
                }
                self.expr(a)?;
                match (constant, with_constant(op, constant.unwrap_or(0.0))) {
                    (Some(_), Some(k)) => self.push(k, 0),
                    _ => {
                        let op = plain(op)?;
                        self.push(ScalarOp::Push, 1);
                        self.expr(b)?;
                        self.push(op, -1);
                    }
                }
                Some(logical)
            }
            _ => None,
        }
    }
}

fn plain(op: BinOp) -> Option<ScalarOp> {
    Some(match op {
        BinOp::Add => ScalarOp::Add,
        BinOp::Sub => ScalarOp::Sub,
        BinOp::Mul | BinOp::ElemMul => ScalarOp::Mul,
        BinOp::Div | BinOp::ElemDiv => ScalarOp::Div,
        BinOp::Pow | BinOp::ElemPow => ScalarOp::Pow,
        BinOp::Lt => ScalarOp::Lt,
        BinOp::Le => ScalarOp::Le,
        BinOp::Gt => ScalarOp::Gt,
        BinOp::Ge => ScalarOp::Ge,
        BinOp::Eq => ScalarOp::Eq,
        BinOp::Ne => ScalarOp::Ne,
        BinOp::And => ScalarOp::And,
        BinOp::Or => ScalarOp::Or,
        _ => return None,
    })
}

/// `top op slot` (or, with `left`, `slot op top`) as one instruction.
fn with_slot(op: BinOp, s: u32, left: bool) -> Option<ScalarOp> {
    Some(match (op, left) {
        (BinOp::Add, _) => ScalarOp::AddS(s),
        (BinOp::Mul | BinOp::ElemMul, _) => ScalarOp::MulS(s),
        (BinOp::Sub, false) => ScalarOp::SubS(s),
        (BinOp::Sub, true) => ScalarOp::RSubS(s),
        (BinOp::Div | BinOp::ElemDiv, false) => ScalarOp::DivS(s),
        (BinOp::Div | BinOp::ElemDiv, true) => ScalarOp::RDivS(s),
        _ => return None,
    })
}

fn with_constant(op: BinOp, c: f64) -> Option<ScalarOp> {
    Some(match op {
        BinOp::Add => ScalarOp::AddK(c),
        BinOp::Sub => ScalarOp::SubK(c),
        BinOp::Mul | BinOp::ElemMul => ScalarOp::MulK(c),
        BinOp::Div | BinOp::ElemDiv => ScalarOp::DivK(c),
        BinOp::Pow | BinOp::ElemPow => ScalarOp::PowK(c),
        BinOp::Lt => ScalarOp::LtK(c),
        BinOp::Le => ScalarOp::LeK(c),
        BinOp::Gt => ScalarOp::GtK(c),
        BinOp::Ge => ScalarOp::GeK(c),
        BinOp::Eq => ScalarOp::EqK(c),
        BinOp::Ne => ScalarOp::NeK(c),
        _ => return None,
    })
}

/// Lowers `e` to a scalar program, if it is a pure scalar expression.
pub fn compile(e: &Expr) -> Option<ScalarProgram> {
    let mut c = Compiler {
        ops: Vec::new(),
        depth: 0,
        max_depth: 0,
    };
    let logical = c.expr(e)?;
    if c.max_depth > MAX_STACK {
        return None;
    }
    Some(ScalarProgram {
        ops: c.ops,
        logical,
    })
}

/// The cached program of `e` (compiled on first use).
fn program(e: &Expr) -> Option<Rc<ScalarProgram>> {
    {
        let cache = e.scalar.borrow();
        match &*cache {
            ScalarCache::Program(p) => return Some(p.clone()),
            ScalarCache::NotScalar => return None,
            ScalarCache::Unknown => {}
        }
    }
    let compiled = compile(e).map(Rc::new);
    *e.scalar.borrow_mut() = match &compiled {
        Some(p) => ScalarCache::Program(p.clone()),
        None => ScalarCache::NotScalar,
    };
    compiled
}

/// Evaluates `e` through its scalar program: Some((value, is_logical)), or None when the
/// general path must be used. Bare variables and literals are left to the general path.
#[inline]
pub fn try_eval(e: &Expr, vars: &[Slot]) -> Option<(f64, bool)> {
    {
        let cache = e.scalar.borrow();
        match &*cache {
            ScalarCache::Program(p) => return run(p, vars).map(|x| (x, p.logical)),
            ScalarCache::NotScalar => return None,
            ScalarCache::Unknown => {}
        }
    }
    if matches!(strip(e).kind, ExprKind::Ident(_) | ExprKind::Num(_)) {
        *e.scalar.borrow_mut() = ScalarCache::NotScalar;
        return None;
    }
    let p = program(e)?;
    run(&p, vars).map(|x| (x, p.logical))
}

/// Runs a program over a frame's slots; None when a variable is not a real scalar (or the
/// result would not be real, like a negative number to a fractional power).
#[inline(always)]
pub fn run(prog: &ScalarProgram, vars: &[Slot]) -> Option<f64> {
    let mut acc = 0f64;
    let mut st = [0f64; MAX_STACK];
    let mut sp = 0usize;
    let mut pc = 0usize;
    let ops = &prog.ops[..];
    macro_rules! load {
        ($s:expr) => {
            match vars.get($s as usize) {
                Some(Slot::Val(Value::Num(x))) => *x,
                Some(Slot::Val(Value::Bool(b))) => *b as u8 as f64,
                _ => return None,
            }
        };
    }
    macro_rules! pop {
        () => {{
            sp = sp.wrapping_sub(1);
            *st.get(sp)?
        }};
    }
    let b = |c: bool| if c { 1.0 } else { 0.0 };
    while let Some(&op) = ops.get(pc) {
        match op {
            ScalarOp::Const(x) => acc = x,
            ScalarOp::Load(s) => acc = load!(s),
            ScalarOp::Push => {
                *st.get_mut(sp)? = acc;
                sp += 1;
            }
            ScalarOp::Add => acc = pop!() + acc,
            ScalarOp::Sub => acc = pop!() - acc,
            ScalarOp::Mul => acc = pop!() * acc,
            ScalarOp::Div => acc = pop!() / acc,
            ScalarOp::Pow => {
                let x = pop!();
                if x < 0.0 && acc.fract() != 0.0 && acc.is_finite() {
                    return None;
                }
                acc = crate::values::ops::whole_power::real_pow(x, acc);
            }
            ScalarOp::Lt => acc = b(pop!() < acc),
            ScalarOp::Le => acc = b(pop!() <= acc),
            ScalarOp::Gt => acc = b(pop!() > acc),
            ScalarOp::Ge => acc = b(pop!() >= acc),
            ScalarOp::Eq => acc = b(pop!() == acc),
            ScalarOp::Ne => acc = b(pop!() != acc),
            ScalarOp::And | ScalarOp::Or => {
                let x = pop!();
                if x.is_nan() || acc.is_nan() {
                    return None;
                }
                acc = b(if matches!(op, ScalarOp::And) {
                    x != 0.0 && acc != 0.0
                } else {
                    x != 0.0 || acc != 0.0
                });
            }
            ScalarOp::AddK(c) => acc += c,
            ScalarOp::SubK(c) => acc -= c,
            ScalarOp::MulK(c) => acc *= c,
            ScalarOp::DivK(c) => acc /= c,
            ScalarOp::PowK(c) => {
                if acc < 0.0 && c.fract() != 0.0 && c.is_finite() {
                    return None;
                }
                acc = if c == 2.0 {
                    acc * acc
                } else {
                    crate::values::ops::whole_power::real_pow(acc, c)
                };
            }
            ScalarOp::LtK(c) => acc = b(acc < c),
            ScalarOp::LeK(c) => acc = b(acc <= c),
            ScalarOp::GtK(c) => acc = b(acc > c),
            ScalarOp::GeK(c) => acc = b(acc >= c),
            ScalarOp::EqK(c) => acc = b(acc == c),
            ScalarOp::NeK(c) => acc = b(acc != c),
            ScalarOp::AddS(s) => acc += load!(s),
            ScalarOp::SubS(s) => acc -= load!(s),
            ScalarOp::MulS(s) => acc *= load!(s),
            ScalarOp::DivS(s) => acc /= load!(s),
            ScalarOp::RSubS(s) => acc = load!(s) - acc,
            ScalarOp::RDivS(s) => acc = load!(s) / acc,
            ScalarOp::Neg => acc = -acc,
            ScalarOp::Not | ScalarOp::ToBool => {
                if acc.is_nan() {
                    return None;
                }
                acc = b((acc != 0.0) != matches!(op, ScalarOp::Not));
            }
            ScalarOp::ShortCircuit(is_and, end) => {
                if acc.is_nan() {
                    return None;
                }
                let l = acc != 0.0;
                if l != is_and {
                    acc = b(l);
                    pc = end as usize;
                    continue;
                }
            }
        }
        pc += 1;
    }
    if sp == 0 { Some(acc) } else { None }
}

/// Lowers a loop body: every statement must be a plain scalar assignment (shown nowhere), an
/// `if` with scalar conditions and lowerable branches, `break` or `continue`.
fn compile_block(stmts: &[Stmt]) -> Option<Vec<ScalarStmt>> {
    stmts.iter().map(compile_stmt).collect()
}

fn compile_stmt(s: &Stmt) -> Option<ScalarStmt> {
    match &s.kind {
        StmtKind::Assign(lhs, rhs) if lhs.steps.is_empty() && !s.display => {
            match &strip(rhs).kind {
                // a copy keeps the class of what it copies, so it is not a numeric program
                ExprKind::Ident(src) => Some(ScalarStmt::Copy(lhs.var.slot.get(), src.slot.get())),
                _ => Some(ScalarStmt::Assign(lhs.var.slot.get(), program(rhs)?)),
            }
        }
        StmtKind::If(arms, els) => {
            let arms = arms
                .iter()
                .map(|(c, b)| Some((program(c)?, compile_block(b)?)))
                .collect::<Option<Vec<_>>>()?;
            let els = match els {
                Some(b) => Some(compile_block(b)?),
                None => None,
            };
            Some(ScalarStmt::If(arms, els))
        }
        StmtKind::Break => Some(ScalarStmt::Break),
        StmtKind::Continue => Some(ScalarStmt::Continue),
        _ => None,
    }
}

/// The lowered body of a loop statement (compiled on first use, cached in the statement).
pub fn loop_body(s: &Stmt, body: &[Stmt]) -> Option<Rc<Vec<ScalarStmt>>> {
    {
        let cache = s.fast.borrow();
        match &*cache {
            BlockCache::Block(b) => return Some(b.clone()),
            BlockCache::NotScalar => return None,
            BlockCache::Unknown => {}
        }
    }
    let compiled = compile_block(body).map(Rc::new);
    *s.fast.borrow_mut() = match &compiled {
        Some(b) => BlockCache::Block(b.clone()),
        None => BlockCache::NotScalar,
    };
    compiled
}

impl Interp {
    /// Runs a lowered block; a statement whose program gives up runs through the general
    /// evaluator instead.
    pub fn run_scalar_block(
        &mut self,
        f: &mut Frame,
        ast: &[Stmt],
        fast: &[ScalarStmt],
    ) -> MResult<Flow> {
        for (s, fs) in ast.iter().zip(fast) {
            match fs {
                ScalarStmt::Assign(slot, prog) => match run(prog, &f.vars) {
                    Some(x) => {
                        let slot = *slot as usize;
                        match &mut f.vars[slot] {
                            Slot::Val(Value::Num(old)) if !prog.logical => *old = x,
                            _ => self.store(
                                f,
                                slot,
                                if prog.logical {
                                    Value::Bool(x != 0.0)
                                } else {
                                    Value::Num(x)
                                },
                            ),
                        }
                    }
                    None => match self
                        .exec_stmt(f, s)
                        .map_err(|e| e.at(s.span, &f.unit.source))?
                    {
                        Flow::Normal => {}
                        flow => return Ok(flow),
                    },
                },
                ScalarStmt::Copy(dst, src) => match f.vars.get(*src as usize) {
                    Some(Slot::Val(v @ (Value::Num(_) | Value::Bool(_)))) => {
                        let v = v.clone();
                        self.store(f, *dst as usize, v);
                    }
                    _ => match self
                        .exec_stmt(f, s)
                        .map_err(|e| e.at(s.span, &f.unit.source))?
                    {
                        Flow::Normal => {}
                        flow => return Ok(flow),
                    },
                },
                ScalarStmt::If(arms, els) => {
                    let StmtKind::If(ast_arms, ast_els) = &s.kind else {
                        continue;
                    };
                    let mut taken = None;
                    let mut fallback = false;
                    for (k, (cond, _)) in arms.iter().enumerate() {
                        match run(cond, &f.vars) {
                            Some(x) if !x.is_nan() => {
                                if x != 0.0 {
                                    taken = Some(k);
                                    break;
                                }
                            }
                            _ => {
                                fallback = true;
                                break;
                            }
                        }
                    }
                    let flow = if fallback {
                        // conditions have no effects: evaluate the whole if generally
                        self.exec_stmt(f, s)
                            .map_err(|e| e.at(s.span, &f.unit.source))?
                    } else if let Some(k) = taken {
                        self.run_scalar_block(f, &ast_arms[k].1, &arms[k].1)?
                    } else if let (Some(b), Some(ab)) = (els, ast_els) {
                        self.run_scalar_block(f, ab, b)?
                    } else {
                        Flow::Normal
                    };
                    if flow != Flow::Normal {
                        return Ok(flow);
                    }
                }
                ScalarStmt::Break => return Ok(Flow::Break),
                ScalarStmt::Continue => return Ok(Flow::Continue),
            }
        }
        Ok(Flow::Normal)
    }
}
