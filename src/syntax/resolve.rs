//! Name resolution: gives every identifier a slot number in the layout of the scope it runs
//! in, so that reading a variable is an array access rather than a hash lookup.
//! Anonymous functions and function definitions get layouts of their own.

use super::ast::*;
use std::collections::HashMap;
use std::rc::Rc;

/// The names of a scope in slot order.
#[derive(Debug, Clone, Default)]
pub struct Layout {
    pub names: Vec<Name>,
    pub index: HashMap<Name, u32>,
}

impl Layout {
    pub fn slot(&mut self, name: &Name) -> u32 {
        if let Some(&s) = self.index.get(name) {
            return s;
        }
        let s = self.names.len() as u32;
        self.names.push(name.clone());
        self.index.insert(name.clone(), s);
        s
    }
    pub fn get(&self, name: &str) -> Option<u32> {
        self.index.get(name).copied()
    }
    pub fn len(&self) -> usize {
        self.names.len()
    }
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// Resolves statements against `layout`, adding names as needed.
pub fn stmts(body: &[Stmt], layout: &mut Layout) {
    for s in body {
        stmt(s, layout);
    }
}

/// The layout of a function: parameters, then outputs, then every other name in the body.
pub fn function(def: &FunctionDef) -> Layout {
    let mut l = Layout::default();
    for p in def.params.iter().chain(def.outputs.iter()) {
        l.slot(p);
    }
    stmts(&def.body, &mut l);
    l
}

fn ident(id: &Ident, layout: &mut Layout) {
    id.slot.set(layout.slot(&id.name));
}

fn lhs(l: &Lhs, layout: &mut Layout) {
    ident(&l.var, layout);
    for st in &l.steps {
        match st {
            LhsStep::Paren(a) | LhsStep::Brace(a) => a.iter().for_each(|e| expr(e, layout)),
            LhsStep::Field(_) => {}
            LhsStep::DynField(e) => expr(e, layout),
        }
    }
}

fn stmt(s: &Stmt, layout: &mut Layout) {
    *s.fast.borrow_mut() = BlockCache::Unknown;
    match &s.kind {
        StmtKind::Expr(e) => expr(e, layout),
        StmtKind::Assign(l, e) => {
            lhs(l, layout);
            expr(e, layout);
        }
        StmtKind::MultiAssign(items, e) => {
            for it in items {
                if let LhsItem::Target(l) = it {
                    lhs(l, layout);
                }
            }
            expr(e, layout);
        }
        StmtKind::If(arms, els) => {
            for (c, b) in arms {
                expr(c, layout);
                stmts(b, layout);
            }
            if let Some(b) = els {
                stmts(b, layout);
            }
        }
        StmtKind::For(v, e, b) => {
            ident(v, layout);
            expr(e, layout);
            stmts(b, layout);
        }
        StmtKind::While(c, b) => {
            expr(c, layout);
            stmts(b, layout);
        }
        StmtKind::Switch(e, cases, other) => {
            expr(e, layout);
            for (c, b) in cases {
                expr(c, layout);
                stmts(b, layout);
            }
            if let Some(b) = other {
                stmts(b, layout);
            }
        }
        StmtKind::Try(b, v, c) => {
            stmts(b, layout);
            if let Some(v) = v {
                ident(v, layout);
            }
            stmts(c, layout);
        }
        StmtKind::Global(ids) | StmtKind::Persistent(ids) => {
            ids.iter().for_each(|i| ident(i, layout))
        }
        StmtKind::Command(id, _) => ident(id, layout),
        StmtKind::Break | StmtKind::Continue | StmtKind::Return | StmtKind::Function(_) => {}
    }
}

fn expr(e: &Expr, layout: &mut Layout) {
    // slots may change: any lowered program of this expression is stale
    *e.scalar.borrow_mut() = ScalarCache::Unknown;
    match &e.kind {
        ExprKind::Ident(id) => ident(id, layout),
        ExprKind::Paren(a) | ExprKind::Unary(_, a) | ExprKind::Field(a, _) => expr(a, layout),
        ExprKind::Binary(_, a, b) | ExprKind::DynField(a, b) => {
            expr(a, layout);
            expr(b, layout);
        }
        ExprKind::Range(a, s, b) => {
            expr(a, layout);
            if let Some(s) = s {
                expr(s, layout);
            }
            expr(b, layout);
        }
        ExprKind::Call(b, args) | ExprKind::CellIndex(b, args) => {
            expr(b, layout);
            args.iter().for_each(|a| expr(a, layout));
        }
        ExprKind::Matrix(rows) | ExprKind::CellLit(rows) => {
            rows.iter().flatten().for_each(|a| expr(a, layout))
        }
        ExprKind::AnonFunc(def) => {
            anon(def);
            // A nested anonymous function captures from this scope when it is made, so the
            // names it uses belong here too: `@(x) @(y) x + y + a` must capture `a` (and `x`)
            // for the inner one to find.
            if let Some(inner) = def.scope.get() {
                for name in inner.names.iter().skip(def.params.len()) {
                    layout.slot(name);
                }
            }
        }
        ExprKind::Num(_)
        | ExprKind::Imag(_)
        | ExprKind::Char(_)
        | ExprKind::Str(_)
        | ExprKind::End
        | ExprKind::Colon
        | ExprKind::FuncHandle(_) => {}
    }
}

/// An anonymous function's own scope: its parameters, then the names its body mentions
/// (which are captured from the defining scope when they are variables there).
pub fn anon(def: &Rc<AnonDef>) {
    if def.scope.get().is_some() {
        return;
    }
    let mut l = Layout::default();
    for p in &def.params {
        l.slot(p);
    }
    expr(&def.body, &mut l);
    let _ = def.scope.set(Rc::new(l));
}

/// The layout of a function definition, computed once.
pub fn function_layout(def: &FunctionDef) -> Rc<Layout> {
    def.scope.get_or_init(|| Rc::new(function(def))).clone()
}
