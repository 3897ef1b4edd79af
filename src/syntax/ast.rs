//! The syntax tree. Every node carries a span. Identifiers carry a slot number that the
//! resolver fills in for the scope the code runs in (`u32::MAX` until then).

use super::span::Span;
use std::cell::Cell;
use std::rc::Rc;

pub type Name = Rc<str>;

pub const UNRESOLVED: u32 = u32::MAX;

#[derive(Debug, Clone)]
pub struct Ident {
    pub name: Name,
    pub slot: Cell<u32>,
}

impl Ident {
    pub fn new(name: Name) -> Ident {
        Ident {
            name,
            slot: Cell::new(UNRESOLVED),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    LeftDiv,
    Pow,
    ElemMul,
    ElemDiv,
    ElemLeftDiv,
    ElemPow,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    AndAnd,
    OrOr,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::LeftDiv => "\\",
            BinOp::Pow => "^",
            BinOp::ElemMul => ".*",
            BinOp::ElemDiv => "./",
            BinOp::ElemLeftDiv => ".\\",
            BinOp::ElemPow => ".^",
            BinOp::Eq => "==",
            BinOp::Ne => "~=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "&",
            BinOp::Or => "|",
            BinOp::AndAnd => "&&",
            BinOp::OrOr => "||",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Plus,
    Not,
    /// `'`
    CTranspose,
    /// `.'`
    Transpose,
}

#[derive(Debug, Clone)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
    /// The expression lowered to a scalar program (filled by the interpreter on first use,
    /// cleared whenever the expression is resolved again).
    pub scalar: std::cell::RefCell<ScalarCache>,
}

/// One instruction of a scalar program: an accumulator machine over f64 with a small spill
/// stack. `Const`/`Load` set the accumulator; plain binary operations take their left operand
/// from the stack (`acc = pop() op acc`); `K` variants take a constant right operand, `S`
/// variants a variable right operand, `RS` variants a variable left operand.
#[derive(Debug, Clone, Copy)]
pub enum ScalarOp {
    Const(f64),
    Load(u32),
    Push,
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
    AddK(f64),
    SubK(f64),
    MulK(f64),
    DivK(f64),
    PowK(f64),
    LtK(f64),
    LeK(f64),
    GtK(f64),
    GeK(f64),
    EqK(f64),
    NeK(f64),
    AddS(u32),
    SubS(u32),
    MulS(u32),
    DivS(u32),
    RSubS(u32),
    RDivS(u32),
    Neg,
    Not,
    ToBool,
    /// `&&` (true) or `||` (false): decides (leaving a logical in the accumulator) and jumps
    /// to the given position, or continues with the right operand.
    ShortCircuit(bool, u32),
}

/// A lowered scalar expression: its instructions and whether its result is logical.
#[derive(Debug)]
pub struct ScalarProgram {
    pub ops: Vec<ScalarOp>,
    pub logical: bool,
}

/// A statement of a loop body lowered to scalar programs, parallel to the syntax tree it
/// came from (so any statement can fall back to the general evaluator).
#[derive(Debug)]
pub enum ScalarStmt {
    Assign(u32, Rc<ScalarProgram>),
    /// `dst = src` between scalar variables.
    Copy(u32, u32),
    If(
        Vec<(Rc<ScalarProgram>, Vec<ScalarStmt>)>,
        Option<Vec<ScalarStmt>>,
    ),
    Break,
    Continue,
}

/// Cache of a loop body's lowered form, kept in the loop statement.
#[derive(Debug, Clone, Default)]
pub enum BlockCache {
    #[default]
    Unknown,
    NotScalar,
    Block(Rc<Vec<ScalarStmt>>),
}

#[derive(Debug, Clone, Default)]
pub enum ScalarCache {
    #[default]
    Unknown,
    NotScalar,
    Program(Rc<ScalarProgram>),
}

#[derive(Debug, Clone)]
pub enum ExprKind {
    Num(f64),
    Imag(f64),
    Char(Name),
    Str(Name),
    Ident(Ident),
    /// A parenthesized expression (kept so that function text prints as written, and so
    /// that `(c{:})` yields one value).
    Paren(Box<Expr>),
    /// `end` inside an index.
    End,
    /// A bare `:` as an index.
    Colon,
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Range(Box<Expr>, Option<Box<Expr>>, Box<Expr>),
    /// `base(args)`: a call or an index, decided at run time.
    Call(Box<Expr>, Vec<Expr>),
    /// `base{args}`
    CellIndex(Box<Expr>, Vec<Expr>),
    Field(Box<Expr>, Name),
    DynField(Box<Expr>, Box<Expr>),
    Matrix(Vec<Vec<Expr>>),
    CellLit(Vec<Vec<Expr>>),
    FuncHandle(Name),
    AnonFunc(Rc<AnonDef>),
}

/// The definition of an anonymous function: its parameters, body, the slot layout of its own
/// scope (parameters first, then every other name the body uses), and its text.
#[derive(Debug)]
pub struct AnonDef {
    pub params: Vec<Name>,
    pub body: Expr,
    /// The body's scope, filled by the resolver.
    pub scope: std::cell::OnceCell<Rc<super::resolve::Layout>>,
    pub text: String,
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr {
            kind,
            span,
            scalar: Default::default(),
        }
    }
    /// Whether `end` appears in this expression outside any nested index (so evaluating it
    /// needs the size of the value being indexed).
    pub fn uses_end(&self) -> bool {
        match &self.kind {
            ExprKind::End => true,
            ExprKind::Unary(_, a) | ExprKind::Paren(a) => a.uses_end(),
            ExprKind::Binary(_, a, b) => a.uses_end() || b.uses_end(),
            ExprKind::Range(a, s, b) => {
                a.uses_end() || b.uses_end() || s.as_ref().is_some_and(|s| s.uses_end())
            }
            ExprKind::Call(base, args) | ExprKind::CellIndex(base, args) => {
                // `x(end)` inside: that end belongs to x, unless base is a function call...
                base.uses_end() || args.iter().any(|a| a.uses_end())
            }
            ExprKind::Field(b, _) => b.uses_end(),
            ExprKind::DynField(b, n) => b.uses_end() || n.uses_end(),
            ExprKind::Matrix(rows) | ExprKind::CellLit(rows) => {
                rows.iter().flatten().any(|e| e.uses_end())
            }
            _ => false,
        }
    }
}

/// One step of an assignment target after the variable name.
#[derive(Debug, Clone)]
pub enum LhsStep {
    Paren(Vec<Expr>),
    Brace(Vec<Expr>),
    Field(Name),
    DynField(Expr),
}

#[derive(Debug, Clone)]
pub struct Lhs {
    pub var: Ident,
    pub steps: Vec<LhsStep>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum LhsItem {
    Target(Lhs),
    /// `~` in `[~, i] = max(x)`.
    Ignore,
}

#[derive(Debug, Clone)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
    /// False when the statement ends with `;`.
    pub display: bool,
    /// For loops: the body lowered to scalar programs (filled on first run).
    pub fast: std::cell::RefCell<BlockCache>,
}

#[derive(Debug, Clone)]
pub enum StmtKind {
    Expr(Expr),
    Assign(Lhs, Expr),
    MultiAssign(Vec<LhsItem>, Expr),
    If(Vec<(Expr, Vec<Stmt>)>, Option<Vec<Stmt>>),
    For(Ident, Expr, Vec<Stmt>),
    While(Expr, Vec<Stmt>),
    Switch(Expr, Vec<(Expr, Vec<Stmt>)>, Option<Vec<Stmt>>),
    Try(Vec<Stmt>, Option<Ident>, Vec<Stmt>),
    Break,
    Continue,
    Return,
    Global(Vec<Ident>),
    Persistent(Vec<Ident>),
    /// Command syntax: `name arg1 arg2`, a call with char arguments.
    Command(Ident, Vec<String>),
    /// A function definition met among statements (script-local, or in a function file).
    Function(Rc<FunctionDef>),
}

#[derive(Debug)]
pub struct FunctionDef {
    pub name: Name,
    pub params: Vec<Name>,
    pub outputs: Vec<Name>,
    pub body: Vec<Stmt>,
    pub span: Span,
    /// Whether the definition was closed by `end` (at the prompt it must be).
    pub has_end: bool,
    /// The function's scope, filled by the resolver on first use.
    pub scope: std::cell::OnceCell<Rc<super::resolve::Layout>>,
}

/// A parsed program: statements to run, and the function definitions found in it.
#[derive(Debug, Default)]
pub struct Program {
    pub stmts: Vec<Stmt>,
    pub functions: Vec<Rc<FunctionDef>>,
}
