//! Loop kernels, the interpreter's side (issue 28). A `for` loop over a range whose body
//! only assigns variables (`y = a * X(:, t) + (1 - a) * y;`) runs its first iterations as
//! usual, lazily; after the second, the graph it appended is matched against the first's
//! (`plan::loops`). When they agree, the iterations up to the last but one run as one loop
//! kernel on the device (`gpu::loops`: a million EMA filters over 512 steps read `X` once),
//! and the last runs as usual again, so every variable, temporaries and the loop variable
//! included, ends as the loop leaves it.
//!
//! What the syntax must promise, since the skipped iterations are never interpreted: no
//! statement but `name = expr;` (nothing displayed, no control flow), calls only to pure
//! builtins (no output, no files, no user code), and the loop variable only in subscripts
//! of arrays the loop does not assign, affinely (`X(:, t)`, `X(2*t - 1, :)`), so a view's
//! start moves by the same amount each iteration. Everything else the walk of the graphs
//! checks: same operations, same constants, carried values on the device.

use super::Interp;
use super::function::{Frame, Slot};
use crate::graph;
use crate::plan::loops::{Carried, LoopTemplate, Place};
use crate::syntax::ast::{BinOp, Expr, ExprKind, Stmt, StmtKind, UnOp};
use crate::values::device::DeviceValue;
use crate::values::ops::colon::Range;
use crate::values::value::Value;
use std::rc::Rc;

/// Builtins a skipped iteration may call: they print nothing, touch no file and run no user
/// code (random draws advance the stream, which the loop kernel accounts for).
const PURE: &[&str] = &[
    "abs", "sign", "exp", "expm1", "log", "log1p", "log2", "log10", "sqrt", "sin", "cos", "tan",
    "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "sec",
    "csc", "cot", "floor", "ceil", "round", "fix", "mod", "rem", "max", "min", "hypot", "erf",
    "erfc", "erfinv", "erfcinv", "gamma", "gammaln", "cbrt", "isnan", "isinf", "isfinite", "not",
    "and", "or", "xor", "plus", "minus", "times", "rdivide", "ldivide", "power", "eq", "ne", "lt",
    "le", "gt", "ge", "uminus", "single", "double", "zeros", "ones", "rand", "randn", "randi",
    "numel", "size", "length", "pi", "eps", "Inf", "inf", "NaN", "nan", "true", "false", "sum",
    "mean", "prod", "realmax", "realmin", "sind", "cosd", "tand", "atand", "sech", "csch", "coth",
    "gpuArray",
];

/// The iterations a loop must have for a loop kernel to be worth it: two observed, the last
/// run as usual, and at least this many between.
const MIN_TRIPS: usize = 2;

/// A loop whose syntax allows a loop kernel, while its first iterations run.
pub(super) struct Fusion {
    carried: Vec<usize>,
    /// Per iteration run so far (up to three): the carried values before it, and the random
    /// stream's position.
    before: Vec<(Vec<Option<Value>>, u64)>,
    line: usize,
}

impl Fusion {
    /// Starts watching a `for` loop over `n` values, when its body's syntax allows a loop
    /// kernel and a device is there (None otherwise).
    pub(super) fn start(
        interp: &mut Interp,
        f: &Frame,
        stmt: &Stmt,
        var: usize,
        body: &[Stmt],
        n: usize,
    ) -> Option<Fusion> {
        if n < MIN_TRIPS + 3 || crate::gpu::device::ready().is_none() || !enabled() {
            return None;
        }
        // Only loops that carry device arrays (checked before anything costlier: inner loops
        // of scalars start millions of times).
        let on_device = body.iter().any(|s| match &s.kind {
            StmtKind::Assign(lhs, _) => matches!(
                f.vars.get(lhs.var.slot.get() as usize),
                Some(Slot::Val(Value::Device(_)))
            ),
            _ => false,
        });
        if !on_device {
            return None;
        }
        let line = f.unit.source.line_col(stmt.span.start as usize).0;
        match carried_slots(interp, f, var, body) {
            Ok(carried) => Some(Fusion {
                carried,
                before: Vec::new(),
                line,
            }),
            Err(why) => {
                debug(line, &why);
                None
            }
        }
    }

    /// Notes the carried values before iteration `k` runs.
    pub(super) fn before(&mut self, interp: &Interp, f: &Frame) {
        let values = self
            .carried
            .iter()
            .map(|&s| interp.read_slot(f, s))
            .collect();
        self.before.push((values, interp.rng.offset));
    }
}

/// What `explain` says of a `for` statement (already resolved in `f`): whether its syntax
/// allows a loop kernel and what it carries, or why it runs iteration by iteration. The
/// graphs are only compared when the loop runs (`MATFUSE_DEBUG=1` says what happened).
pub fn explain(interp: &mut Interp, f: &Frame, stmt: &Stmt) -> String {
    let StmtKind::For(var, _, body) = &stmt.kind else {
        return "  not a for loop\n".into();
    };
    let slot = var.slot.get() as usize;
    if !enabled() {
        return "  runs iteration by iteration: MATFUSE_LOOPS=off\n".into();
    }
    match carried_slots(interp, f, slot, body) {
        Ok(carried) => {
            let names: Vec<String> = carried.iter().map(|&s| f.name_of(s).to_string()).collect();
            let device = carried
                .iter()
                .all(|&s| matches!(f.vars.get(s), Some(Slot::Val(Value::Device(_)))));
            let mut text = format!(
                "  loop over {}: its syntax allows a loop kernel; carried from one iteration to \
                 the next: {}\n  the first two iterations run as usual; when they compute the \
                 same graph (same operations, constants and arrays; views and random draws \
                 moving by a fixed amount), the iterations up to the last but one run as one \
                 loop kernel on the GPU, and the last as usual\n",
                var.name,
                names.join(", ")
            );
            if crate::gpu::device::ready().is_none() {
                text.push_str("  there is no GPU: it runs iteration by iteration\n");
            } else if !device {
                text.push_str(
                    "  a carried variable is not a device array now: unless the first \
                     iteration makes it one, the loop runs iteration by iteration\n",
                );
            }
            text
        }
        Err(why) => format!("  runs iteration by iteration: {why}\n"),
    }
}

/// Loop kernels are on unless `MATFUSE_LOOPS=off` (to compare with the loop run iteration
/// by iteration).
fn enabled() -> bool {
    crate::settings::get("MATFUSE_LOOPS").is_none_or(|v| !v.trim().eq_ignore_ascii_case("off"))
}

/// Why the loop takes no loop kernel, when `MATFUSE_DEBUG` asks.
fn debug(line: usize, why: &str) {
    if std::env::var_os("MATFUSE_DEBUG").is_some() {
        eprintln!("matfuse: the loop at line {line} runs iteration by iteration: {why}");
    }
}

/// The slots carried from one iteration to the next (read before the body assigns them),
/// when the body's syntax allows a loop kernel; why not otherwise.
fn carried_slots(
    interp: &mut Interp,
    f: &Frame,
    var: usize,
    body: &[Stmt],
) -> Result<Vec<usize>, String> {
    let mut assigned_anywhere = Vec::new();
    for s in body {
        match &s.kind {
            StmtKind::Assign(lhs, _) if lhs.steps.is_empty() && !s.display => {
                let slot = lhs.var.slot.get() as usize;
                if slot == var {
                    return Err("the body assigns the loop variable".into());
                }
                assigned_anywhere.push(slot);
            }
            StmtKind::Assign(lhs, _) if !lhs.steps.is_empty() => {
                return Err("the body assigns into part of an array".into());
            }
            StmtKind::Assign(..) | StmtKind::Expr(_) | StmtKind::Command(..) if s.display => {
                return Err("the body displays a value".into());
            }
            StmtKind::If(..)
            | StmtKind::For(..)
            | StmtKind::While(..)
            | StmtKind::Switch(..)
            | StmtKind::Try(..)
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Return => return Err("the body has control flow".into()),
            _ => return Err("the body has a statement other than `name = expr;`".into()),
        }
    }
    let mut check = Check {
        interp,
        f,
        var,
        assigned_anywhere: &assigned_anywhere,
        assigned: Vec::new(),
        carried: Vec::new(),
    };
    for s in body {
        if let StmtKind::Assign(lhs, e) = &s.kind {
            check.value(e)?;
            let slot = lhs.var.slot.get() as usize;
            if !check.assigned.contains(&slot) {
                check.assigned.push(slot);
            }
        }
    }
    let carried = check.carried;
    for &s in &carried {
        if !matches!(f.vars.get(s), Some(Slot::Val(_))) {
            return Err("a carried variable is global, persistent or not yet defined".into());
        }
    }
    if carried.is_empty() {
        return Err("no variable is carried from one iteration to the next".into());
    }
    Ok(carried)
}

struct Check<'a> {
    interp: &'a mut Interp,
    f: &'a Frame,
    var: usize,
    assigned_anywhere: &'a [usize],
    assigned: Vec<usize>,
    carried: Vec<usize>,
}

impl Check<'_> {
    /// A variable read: carried when the body assigns it later in the iteration only.
    fn read(&mut self, slot: usize) {
        if self.assigned_anywhere.contains(&slot)
            && !self.assigned.contains(&slot)
            && !self.carried.contains(&slot)
        {
            self.carried.push(slot);
        }
    }

    fn is_variable(&self, slot: usize) -> bool {
        self.assigned_anywhere.contains(&slot)
            || matches!(self.f.vars.get(slot), Some(Slot::Val(_)))
    }

    fn plain_variable(&self, slot: usize) -> Result<(), String> {
        match self.f.vars.get(slot) {
            Some(Slot::Val(Value::Func(_) | Value::Object(_))) => {
                Err("the body calls a function handle or an object".into())
            }
            _ => Ok(()),
        }
    }

    /// An expression computing a value (the loop variable may not appear).
    fn value(&mut self, e: &Expr) -> Result<(), String> {
        match &e.kind {
            ExprKind::Num(_) | ExprKind::Char(_) | ExprKind::Str(_) | ExprKind::Imag(_) => Ok(()),
            ExprKind::Ident(id) => {
                let slot = id.slot.get() as usize;
                if slot == self.var {
                    return Err("the loop variable is used outside a subscript".into());
                }
                if self.is_variable(slot) {
                    self.plain_variable(slot)?;
                    self.read(slot);
                    Ok(())
                } else {
                    self.builtin(&id.name)
                }
            }
            ExprKind::Paren(a) | ExprKind::Unary(_, a) => self.value(a),
            ExprKind::Binary(_, a, b) => {
                self.value(a)?;
                self.value(b)
            }
            ExprKind::Matrix(rows) => rows.iter().flatten().try_for_each(|x| self.value(x)),
            ExprKind::Call(base, args) => match &base.kind {
                ExprKind::Ident(id) if self.is_variable(id.slot.get() as usize) => {
                    let slot = id.slot.get() as usize;
                    self.plain_variable(slot)?;
                    self.read(slot);
                    let invariant = !self.assigned_anywhere.contains(&slot);
                    args.iter().try_for_each(|a| self.subscript(a, invariant))
                }
                ExprKind::Ident(id) => {
                    self.builtin(&id.name)?;
                    args.iter().try_for_each(|a| self.value(a))
                }
                _ => Err("the body calls through an expression".into()),
            },
            ExprKind::Field(base, _) => match &base.kind {
                ExprKind::Ident(id)
                    if matches!(
                        self.f.vars.get(id.slot.get() as usize),
                        Some(Slot::Val(Value::Struct(_)))
                    ) && !self.assigned_anywhere.contains(&(id.slot.get() as usize)) =>
                {
                    Ok(())
                }
                _ => Err("the body reads a field of something other than a struct".into()),
            },
            _ => Err("the body has an expression a loop kernel does not take".into()),
        }
    }

    /// A subscript of a variable: the loop variable may appear (affinely) in subscripts of
    /// an array the loop does not assign.
    fn subscript(&mut self, e: &Expr, invariant: bool) -> Result<(), String> {
        if !uses(e, self.var) {
            return match &e.kind {
                ExprKind::Colon | ExprKind::End => Ok(()),
                ExprKind::Range(a, s, b) => {
                    self.subscript(a, invariant)?;
                    if let Some(s) = s {
                        self.subscript(s, invariant)?;
                    }
                    self.subscript(b, invariant)
                }
                ExprKind::Binary(_, a, b) => {
                    self.subscript(a, invariant)?;
                    self.subscript(b, invariant)
                }
                ExprKind::Paren(a) | ExprKind::Unary(_, a) => self.subscript(a, invariant),
                _ => self.value(e),
            };
        }
        if !invariant {
            return Err("the loop variable indexes an array the loop assigns".into());
        }
        if !self.affine(e) {
            return Err("the loop variable is in a subscript that does not move evenly".into());
        }
        Ok(())
    }

    /// Whether `e` is affine in the loop variable (its other names are values that do not
    /// change: numbers, `end`, arrays the loop does not assign).
    fn affine(&mut self, e: &Expr) -> bool {
        let var = self.var;
        match &e.kind {
            ExprKind::Ident(id) if id.slot.get() as usize == var => true,
            ExprKind::Num(_) | ExprKind::End | ExprKind::Colon => true,
            ExprKind::Ident(id) => {
                let slot = id.slot.get() as usize;
                !self.assigned_anywhere.contains(&slot) && self.value(e).is_ok()
            }
            ExprKind::Paren(a) => self.affine(a),
            ExprKind::Unary(UnOp::Neg | UnOp::Plus, a) => self.affine(a),
            ExprKind::Binary(BinOp::Add | BinOp::Sub, a, b) => self.affine(a) && self.affine(b),
            ExprKind::Binary(BinOp::Mul | BinOp::ElemMul, a, b) => {
                self.affine(a) && self.affine(b) && !(uses(a, var) && uses(b, var))
            }
            ExprKind::Range(a, s, b) => {
                self.affine(a)
                    && self.affine(b)
                    && s.as_ref()
                        .is_none_or(|s| !uses(s, var) && self.value(s).is_ok())
            }
            _ => !uses(e, var) && self.value(e).is_ok(),
        }
    }

    fn builtin(&mut self, name: &str) -> Result<(), String> {
        if PURE.contains(&name) && self.interp.is_builtin(self.f, name) {
            Ok(())
        } else {
            Err(format!(
                "the body calls `{name}`, which a loop kernel does not take"
            ))
        }
    }
}

/// Whether `e` mentions the slot `var`.
fn uses(e: &Expr, var: usize) -> bool {
    match &e.kind {
        ExprKind::Ident(id) => id.slot.get() as usize == var,
        ExprKind::Paren(a) | ExprKind::Unary(_, a) | ExprKind::Field(a, _) => uses(a, var),
        ExprKind::Binary(_, a, b) => uses(a, var) || uses(b, var),
        ExprKind::Range(a, s, b) => {
            uses(a, var) || uses(b, var) || s.as_ref().is_some_and(|s| uses(s, var))
        }
        ExprKind::Call(b, args) | ExprKind::CellIndex(b, args) => {
            uses(b, var) || args.iter().any(|a| uses(a, var))
        }
        ExprKind::DynField(a, b) => uses(a, var) || uses(b, var),
        ExprKind::Matrix(rows) | ExprKind::CellLit(rows) => {
            rows.iter().flatten().any(|a| uses(a, var))
        }
        _ => false,
    }
}

impl Interp {
    /// After iteration `k` of a watched loop: when the last two iterations match, runs the
    /// iterations up to the last but one as a loop kernel and says where the loop goes on
    /// (None: on with iteration `k + 1`, as usual).
    pub(super) fn loop_kernel_after(
        &mut self,
        fusion: &mut Option<Fusion>,
        f: &mut Frame,
        slot: usize,
        r: &Range,
        k: usize,
    ) -> super::error::MResult<Option<usize>> {
        let Some(fu) = fusion.as_mut() else {
            return Ok(None);
        };
        if k == 0 {
            return Ok(None);
        }
        let trips = r.n.saturating_sub(k + 2);
        let attempt = self.try_loop_kernel(fu, f, trips);
        let (template, carried) = match attempt {
            Ok(t) => t,
            Err(why) => {
                // The first iteration may start from host values; one more try.
                if k >= 2 || trips < MIN_TRIPS + 1 {
                    debug(fu.line, &why);
                    *fusion = None;
                }
                return Ok(None);
            }
        };
        let line = fu.line;
        let per_iteration = self
            .rng
            .offset
            .wrapping_sub(fu.before.last().map_or(self.rng.offset, |b| b.1));
        *fusion = None;
        let interrupt = self.interrupt.clone();
        let stop = move || interrupt.load(std::sync::atomic::Ordering::Relaxed);
        let run = match crate::gpu::loops::run(&template, trips, &stop) {
            Ok(run) => run,
            Err(e) if e.identifier() == crate::gpu::buffers::OOM || e.data().interrupt => {
                return Err(e);
            }
            Err(e) => {
                debug(line, &format!("the loop kernel failed ({})", e.message()));
                return Ok(None);
            }
        };
        let n = template.group.shape.numel();
        for (j, (s, explicit)) in carried.iter().enumerate() {
            let (buf, shape, class) = match template.places.get(j) {
                Some(&Place::Scalar(k)) => (
                    crate::gpu::loops::scalar_part(&run, k)?,
                    crate::values::shape::Shape::scalar(),
                    template.scalar.starts[k].class,
                ),
                Some(&Place::Array(a)) => (
                    crate::gpu::loops::part(&run, a, n)?,
                    template.group.shape.clone(),
                    template.group.leaves[a].class,
                ),
                None => continue,
            };
            let node = graph::leaf(graph::Data::Device(buf), shape, class);
            let v = Value::Device(Rc::new(DeviceValue {
                node,
                explicit: *explicit,
            }));
            self.store(f, *s, v);
        }
        self.rng.offset = self
            .rng
            .offset
            .wrapping_add(per_iteration.wrapping_mul(run.done as u64));
        if std::env::var_os("MATFUSE_DEBUG").is_some() {
            eprintln!(
                "matfuse: the loop at line {line}: iterations {} to {} ran as one loop kernel",
                k + 2,
                k + 1 + run.done
            );
        }
        if run.done < trips {
            // Stopped between dispatches: the workspace as of the last iteration done, the
            // loop variable at the first not run.
            self.store(f, slot, Value::Num(r.get(k + 1 + run.done)));
            self.check_interrupt()?;
        }
        Ok(Some(k + 1 + run.done))
    }

    /// The loop kernel for the iterations after `k`, from the carried values before the
    /// last two iterations and now; with each carried slot and whether it is a gpuArray.
    fn try_loop_kernel(
        &mut self,
        fu: &Fusion,
        f: &Frame,
        trips: usize,
    ) -> Result<(LoopTemplate, Vec<(usize, bool)>), String> {
        if trips < MIN_TRIPS {
            return Err("too few iterations are left".into());
        }
        let [.., before, middle] = fu.before.as_slice() else {
            return Err("too few iterations ran".into());
        };
        let node = |v: &Option<Value>| match v {
            Some(Value::Device(d)) => Some(d.node.clone()),
            _ => None,
        };
        let mut carried = Vec::with_capacity(fu.carried.len());
        let mut slots = Vec::with_capacity(fu.carried.len());
        for (j, &s) in fu.carried.iter().enumerate() {
            let now = self.read_slot(f, s);
            let (Some(b), Some(m), Some(Value::Device(a))) =
                (node(&before.0[j]), node(&middle.0[j]), &now)
            else {
                return Err("a carried variable is not a device array".into());
            };
            slots.push((s, a.explicit));
            carried.push(Carried {
                before: b,
                middle: m,
                after: a.node.clone(),
            });
        }
        let template = crate::plan::loops::template(&carried)?;
        // A short loop's iterations fuse into one kernel lazily anyway (the loop kernel would
        // add kernels: the carried values first, then the last iteration's).
        if trips.saturating_mul(template.group.steps.len()) < crate::plan::MAX_CHAIN {
            return Err("few iterations are left: they fuse lazily into one kernel".into());
        }
        if let Some(why) = crate::plan::host_reason(&template.group) {
            return Err(format!("its kernel would run on the host: {why}"));
        }
        if !template.in_bounds(trips) {
            return Err("a subscript leaves its array before the loop ends".into());
        }
        for c in &carried {
            crate::plan::realise(&c.after).map_err(|e| e.message().to_string())?;
        }
        Ok((template, slots))
    }
}
