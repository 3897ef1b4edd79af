//! Lowering array operations into the lazy graph. An elementwise operation whose operands are
//! graph values, or large host arrays (by the offload policy), appends a node and returns a
//! pending value instead of computing. Anything the graph does not take (integers, complex,
//! char, operations with complex results such as `sqrt(-1)`) returns None and the caller
//! computes it on the host as always.

use crate::graph::{self, Data, Node, Op};
use crate::interp::error::MResult;
use crate::values::class::Class;
use crate::values::device::DeviceValue;
use crate::values::ops::{Bin, Un};
use crate::values::value::Value;
use std::rc::Rc;

/// Host arrays with at least this many elements go to the graph under `MATFUSE_OFFLOAD=auto`
/// (a conservative default until calibration measures this machine).
pub const AUTO_THRESHOLD: usize = 1 << 20;

/// Host arrays with at least this many elements go to the graph under `auto` when there is
/// no device (below it, the eager kernels cost less than a group's set-up);
/// `MATFUSE_HOST_GRAPH_MIN` sets another (2 runs every array through the host executor).
pub const HOST_THRESHOLD: usize = 1 << 16;

fn graph_class(c: Class) -> bool {
    matches!(c, Class::Double | Class::Single | Class::Logical)
}

/// Whether a host array should enter the graph: by size under `auto`, any non-scalar array
/// under `always`, never under `never`.
pub fn offloads(numel: usize) -> bool {
    // Host arrays larger than one device buffer stay on the host: the device could not hold
    // them, and the host can.
    let fits =
        crate::gpu::device::current().is_none_or(|g| numel as u64 * 8 <= g.info.max_buffer_size);
    fits && match crate::gpu::offload_mode() {
        crate::gpu::Offload::Never => false,
        crate::gpu::Offload::Always => numel >= 2,
        // A calibrated adapter offloads from its measured crossover (or never). Without one,
        // only a real GPU takes host arrays: a software adapter (lavapipe) is no faster than
        // the host evaluator.
        // While the device is still starting, host arrays stay on the host: waiting for it
        // (seconds on lavapipe, with its start-up checks) held up host work that never
        // needed it, and Ctrl-C could not stop the wait.
        crate::gpu::Offload::Auto if crate::gpu::device::peek().is_none() => false,
        crate::gpu::Offload::Auto => match crate::gpu::calibrate::threshold() {
            Some(calibrated) => calibrated.is_some_and(|t| numel >= t),
            None => match crate::gpu::device::ready() {
                Some(g) => numel >= AUTO_THRESHOLD && g.info.device_type != "Cpu",
                // No device: the host executor runs the graph's fused groups (a chain reads
                // its inputs once and writes one result).
                None => {
                    numel
                        >= crate::settings::parsed("MATFUSE_HOST_GRAPH_MIN")
                            .unwrap_or(HOST_THRESHOLD)
                }
            },
        },
    }
}

/// A host array that entered the graph (not an explicit gpuArray), as a host array once a
/// variable takes it, when there is no device: the statement's chain ran as one fused group
/// on the host, and the variable reads (and `whos` shows) a plain array, as before.
pub fn host_value(v: Value) -> Value {
    let Value::Device(d) = &v else {
        return v;
    };
    if d.explicit || crate::gpu::device::ready().is_some() {
        return v;
    }
    match crate::plan::to_host(&d.node) {
        Ok(t) => Value::Tensor(t),
        // the sink that needs it reports the failure
        Err(_) => v,
    }
}

/// A scalar constant node.
pub(super) fn constant(x: f64, class: Class) -> Rc<Node> {
    let scalar = crate::values::shape::Shape::scalar();
    graph::intern(Op::Const(x), vec![], scalar, class)
}

/// The graph node for an operand, if it can be one. Scalars become constants.
pub(super) fn node_of(v: &Value) -> Option<Rc<Node>> {
    match v {
        // A computed value enters as a leaf of its data: new nodes never hold what an old
        // result was computed from (graph::memory).
        Value::Device(d) if graph_class(d.class()) => Some(graph::memory::settled(&d.node)),
        Value::Num(x) => Some(constant(*x, Class::Double)),
        Value::Bool(b) => Some(constant(*b as u8 as f64, Class::Logical)),
        Value::Tensor(t) if graph_class(t.class()) && !t.is_complex() && t.numel() > 0 => {
            Some(graph::memory::host_leaf(t))
        }
        _ => None,
    }
}

/// Whether an operation on these operands goes to the graph at all.
pub(super) fn wanted(vals: &[&Value]) -> bool {
    let device = vals.iter().any(|v| matches!(v, Value::Device(_)));
    device
        || vals.iter().any(|v| match v {
            Value::Tensor(t) => offloads(t.numel()),
            _ => false,
        })
}

/// Whether `v` is a plain host array and there is no device: it enters the graph for
/// elementwise chains only (its own reductions are the eager kernels' already, and one pass).
pub fn host_array_without_device(v: &Value) -> bool {
    matches!(v, Value::Tensor(_)) && crate::gpu::device::ready().is_none()
}

/// A plain host array as a graph value over its own storage (no copy), when there is no
/// device and the array enters the graph by size: range reads of it become views and range
/// assignments into it embeds written in place, so `u(2:end-1) = u(2:end-1) + k*(u(1:end-2)
/// - 2*u(2:end-1) + u(3:end))` is one fused pass and one copy, not three slice copies, index
/// vectors and a gather. None for other arrays (the general path).
pub fn host_graph_source(v: &Value) -> Option<DeviceValue> {
    let Value::Tensor(t) = v else {
        return None;
    };
    if !graph_class(t.class()) || t.is_complex() || t.numel() == 0 {
        return None;
    }
    if !host_array_without_device(v) || !offloads(t.numel()) {
        return None;
    }
    Some(DeviceValue {
        node: graph::memory::host_leaf(t),
        explicit: false,
    })
}

/// Whether any of these is an explicit gpuArray (made with `gpuArray`, class gpuArray).
pub fn explicit(vals: &[&Value]) -> bool {
    vals.iter().any(|v| {
        matches!(v, Value::Device(d) if d.explicit) || matches!(v, Value::DeviceComplex(_))
    })
}

pub(super) fn pending(node: Rc<Node>, explicit: bool) -> Value {
    // The budgets. A value is computed now when it ends a chain of `MAX_CHAIN` pending
    // operations (one kernel per budget's worth in `for k = 1:n, x = x + 1; end`), when its
    // work is more than twice that many operations in all (`S = S .* exp(a + b*randn(...))`
    // is five a step; past the group limit the sink would split it step by step), or when it
    // holds more data nothing else holds than the memory budget allows. One whose kernel
    // would bind more than MAX_INPUTS arrays has its operands computed first (`y = a*X(:, t)
    // + (1-a)*y` in a loop: one kernel per MAX_INPUTS columns). A failure here is left for
    // the sink that needs the value to report.
    if explicit {
        // a gpuArray past one device buffer is held on the host (the first one warns)
        super::host_held::made(node.numel(), node.class);
    }
    if node.bound_inputs() > crate::plan::MAX_INPUTS {
        // Its widest pending operands are computed (each is within the budget) until it
        // reads few enough values.
        let mut operands: Vec<&Rc<Node>> =
            node.inputs.iter().filter(|i| !i.is_realised()).collect();
        operands.sort_by_key(|i| std::cmp::Reverse(i.bound_inputs()));
        for operand in operands {
            if crate::plan::realise(operand).is_err() {
                break;
            }
            node.recount_inputs();
            if node.bound_inputs() <= crate::plan::MAX_INPUTS {
                break;
            }
        }
    }
    let over = node.depth >= crate::plan::MAX_CHAIN
        || node.size > 2 * crate::plan::MAX_CHAIN
        || node.bound_inputs() > crate::plan::MAX_INPUTS
        || graph::memory::pinned_bytes(&node) > graph::memory::pinned_budget();
    let node = if over && crate::plan::realise(&node).is_ok() {
        graph::memory::settled(&node)
    } else {
        node
    };
    Value::Device(Rc::new(DeviceValue { node, explicit }))
}

/// `a op b` into the graph, or None when the host must compute it.
pub fn binary(op: Bin, a: &Value, b: &Value) -> Option<Value> {
    if !graph::ops::lazy_binary(op) || !wanted(&[a, b]) {
        return None;
    }
    let (na, nb) = (node_of(a)?, node_of(b)?);
    if crate::codegen::has_binary(op)
        && !crate::codegen::functions_available(
            na.class == Class::Single || nb.class == Class::Single,
        )
    {
        return None;
    }
    match op {
        // x.^y is real for an integer constant y, a base without negatives, or whole
        // exponents wherever the base is negative (checked once on the device).
        Bin::Pow => match b {
            Value::Num(k) if k.fract() == 0.0 => {}
            _ if no_negatives(&na) || whole_where_negative(&na, &nb) => {}
            _ => return None,
        },
        // A negative x needs an odd whole n (else the host reports MATLAB's error).
        Bin::Nthroot => match b {
            Value::Num(k) if k.fract() == 0.0 && k.abs() < 2f64.powi(53) && k % 2.0 != 0.0 => {}
            _ if no_negatives(&na) => {}
            _ => return None,
        },
        // Logical operators need logical operands: NaN has no truth value.
        Bin::And | Bin::Or | Bin::Xor
            if na.class != Class::Logical || nb.class != Class::Logical =>
        {
            return None;
        }
        _ => {}
    }
    let shape = graph::broadcast(&na.shape, &nb.shape)?;
    if shape.numel() == 0 {
        return None;
    }
    let class = graph::ops::binary_class(op, na.class, nb.class);
    // x.^2 is x.*x: one correctly rounded product, as pow gives, without pow's work.
    if op == Bin::Pow && matches!(b, Value::Num(k) if *k == 2.0) {
        let node = graph::intern(Op::Binary(Bin::Mul), vec![na.clone(), na], shape, class);
        return Some(pending(node, explicit(&[a, b])));
    }
    let node = graph::intern(Op::Binary(op), vec![na, nb], shape, class);
    Some(pending(node, explicit(&[a, b])))
}

/// Whether no element of `n` is negative: known from how it is made, or else computed and
/// checked (one `any(x < 0)` on the device), so `sqrt` and `log` know their results are real.
fn no_negatives(n: &Rc<Node>) -> bool {
    if let Some(known) = graph::sign::nonneg(n) {
        return known;
    }
    // Where `n`'s sign follows from a few computed values' (`log(S / K)` from `S`'s), those
    // are checked, each once while it lives, and `n` stays pending: a variable read by many
    // such expressions (in a loop) is checked once, and `n` is not computed into an array
    // of its own for the check.
    if let Some(deciding) = graph::sign::deciding(n)
        && deciding.iter().all(|d| {
            let leaf = graph::memory::settled(d);
            let known = never(compare(Bin::Lt, &leaf, constant(0.0, Class::Double)));
            d.nonneg.set(Some(known));
            known
        })
        && graph::sign::nonneg(n) == Some(true)
    {
        return true;
    }
    if crate::plan::realise(n).is_err() {
        return false;
    }
    if let Some(known) = graph::sign::nonneg(n) {
        return known;
    }
    let negative = compare(Bin::Lt, n, constant(0.0, Class::Double));
    let known = never(negative);
    n.nonneg.set(Some(known));
    known
}

fn compare(op: Bin, a: &Rc<Node>, b: Rc<Node>) -> Rc<Node> {
    let shape = graph::broadcast(&a.shape, &b.shape).unwrap_or_else(|| a.shape.clone());
    graph::intern(Op::Binary(op), vec![a.clone(), b], shape, Class::Logical)
}

/// Whether a function's real result exists for every element of `n` (MATLAB's answer is
/// complex otherwise, which the host computes): checked once on the device, with `n`
/// computed first, as `sqrt` and `log` are.
fn real_domain(op: Un, n: &Rc<Node>) -> bool {
    let outside: fn(&Rc<Node>) -> Rc<Node> = match op {
        Un::Sqrt | Un::Log | Un::Log2 | Un::Log10 => return no_negatives(n),
        Un::Log1p if graph::sign::nonneg(n) == Some(true) => return true,
        Un::Log1p => |n: &Rc<Node>| compare(Bin::Lt, n, constant(-1.0, Class::Double)),
        Un::Asin | Un::Acos | Un::Atanh => |n: &Rc<Node>| {
            let abs = graph::intern(
                Op::Unary(Un::Abs),
                vec![n.clone()],
                n.shape.clone(),
                n.class,
            );
            compare(Bin::Gt, &abs, constant(1.0, Class::Double))
        },
        Un::Acosh => |n: &Rc<Node>| compare(Bin::Lt, n, constant(1.0, Class::Double)),
        _ => return true,
    };
    if crate::plan::realise(n).is_err() {
        return false;
    }
    never(outside(&graph::memory::settled(n)))
}

/// Whether `base.^exponent` is real: every exponent whole where the base is negative
/// (one `any(base < 0 & exponent ~= round(exponent))` on the device).
fn whole_where_negative(base: &Rc<Node>, exponent: &Rc<Node>) -> bool {
    if crate::plan::realise(base).is_err() || crate::plan::realise(exponent).is_err() {
        return false;
    }
    let (base, exponent) = (
        graph::memory::settled(base),
        graph::memory::settled(exponent),
    );
    let negative = compare(Bin::Lt, &base, constant(0.0, Class::Double));
    let rounded = graph::intern(
        Op::Unary(Un::Round),
        vec![exponent.clone()],
        exponent.shape.clone(),
        exponent.class,
    );
    let fractional = compare(Bin::Ne, &exponent, rounded);
    let Some(shape) = graph::broadcast(&negative.shape, &fractional.shape) else {
        return false;
    };
    let both = graph::intern(
        Op::Binary(Bin::And),
        vec![negative, fractional],
        shape,
        Class::Logical,
    );
    never(both)
}

/// Whether no element of the logical node `cond` is true (one `any` on the device).
fn never(cond: Rc<Node>) -> bool {
    let any = graph::intern(
        Op::Reduce {
            op: crate::values::ops::Red::Any,
            dim: 0,
            all: true,
            omitnan: false,
        },
        vec![cond],
        crate::values::shape::Shape::scalar(),
        Class::Logical,
    );
    match crate::plan::to_host(&any) {
        Ok(t) => t.to_f64().first() == Some(&0.0),
        Err(_) => false,
    }
}

/// A unary operation into the graph, or None.
pub fn unary(op: Un, a: &Value) -> Option<Value> {
    if !graph::ops::lazy_unary(op) || !wanted(&[a]) {
        return None;
    }
    let na = node_of(a)?;
    if op == Un::Not && na.class != Class::Logical {
        return None;
    }
    // real, imag, conj and angle of logicals keep MATLAB's classes on the host.
    if matches!(op, Un::Real | Un::Conj | Un::Imag | Un::Angle) && na.class == Class::Logical {
        return None;
    }
    if crate::codegen::has_unary(op)
        && !crate::codegen::functions_available(na.class == Class::Single)
    {
        return None;
    }
    // Real only inside the function's real domain (else complex, on the host).
    if !real_domain(op, &na) {
        return None;
    }
    let class = graph::ops::unary_class(op, na.class);
    let shape = na.shape.clone();
    let node = graph::intern(Op::Unary(op), vec![na], shape, class);
    Some(pending(node, explicit(&[a])))
}

/// `sum prod mean max min any all` of a graph value (or a large array) as a reduction node:
/// `f(x)`, `f(x, dim)`, `f(x, 'all')`, with `'omitnan'`/`'includenan'`; `max(x, [], dim)`.
/// Other forms (index outputs, 'native', two-array max) return None.
pub fn reduction(name: &str, args: &[Value]) -> Option<Value> {
    use crate::values::ops::Red;
    let op = match name {
        "sum" => Red::Sum,
        "prod" => Red::Prod,
        "mean" => Red::Mean,
        "max" => Red::Max,
        "min" => Red::Min,
        "any" => Red::Any,
        "all" => Red::All,
        _ => return None,
    };
    let x = args.first()?;
    if !wanted(&[x]) || host_array_without_device(x) {
        return None;
    }
    let mut rest: Vec<&Value> = args[1..].iter().collect();
    let mut omitnan = matches!(op, Red::Max | Red::Min);
    while let Some(last) = rest.last() {
        match last.text().ok().map(|t| t.to_ascii_lowercase()).as_deref() {
            Some("omitnan")
                if matches!(op, Red::Sum | Red::Mean | Red::Prod | Red::Max | Red::Min) =>
            {
                omitnan = true
            }
            Some("includenan") if matches!(op, Red::Sum | Red::Mean | Red::Prod) => omitnan = false,
            _ => break,
        }
        rest.pop();
    }
    // mean with 'omitnan' divides by the count of non-NaN values: the host does that.
    if op == Red::Mean && omitnan {
        return None;
    }
    if matches!(op, Red::Max | Red::Min) {
        // max(x) or max(x, [], dim) only: max(x, y) is elementwise, handled elsewhere.
        match rest.first() {
            None => {}
            Some(v) if v.is_empty_double_literal() => {
                rest.remove(0);
            }
            Some(_) => return None,
        }
    }
    let node = node_of(x)?;
    if matches!(node.op, Op::Const(_)) || node.numel() == 0 {
        return None;
    }
    let shape = node.shape.clone();
    let (dim, all) = match rest.as_slice() {
        [] => (crate::values::ops::reduce::default_dim(&shape), false),
        [d] if d.text().is_ok_and(|t| t.eq_ignore_ascii_case("all")) => (0, true),
        [d] => {
            let k = d.scalar_f64().ok()?;
            if k.fract() != 0.0 || k < 1.0 || k as usize > shape.ndims() {
                return None;
            }
            (k as usize - 1, false)
        }
        _ => return None,
    };
    let out_shape = if all {
        crate::values::shape::Shape::scalar()
    } else {
        let mut dims = shape.dims().to_vec();
        dims[dim] = 1;
        crate::values::shape::Shape::new(&dims)
    };
    if let Some(masked) = super::masked::reduction(op, &node, dim, all, omitnan, explicit(&[x])) {
        return Some(masked);
    }
    let class = crate::values::ops::reduce::out_class(op, node.class);
    let reduced = graph::intern(
        Op::Reduce {
            op,
            dim,
            all,
            omitnan,
        },
        vec![node],
        out_shape,
        class,
    );
    Some(pending(reduced, explicit(&[x])))
}

/// `[m, i] = max(x, ...)` (or min) of a graph value: `m` is the reduction above and `i` a
/// second one over the same producer, the least subscript where the lane reaches `m`
/// (`min(iota ./ ((x == m) | isnan(m)))`: non-matches divide to Inf, an all-NaN lane gives
/// 1, ties give the first), so both stay on the device. None for other forms.
pub fn reduction_with_index(name: &str, args: &[Value]) -> Option<Vec<Value>> {
    use crate::values::ops::Red;
    if !matches!(name, "max" | "min") || args.len() == 2 || args.len() > 3 {
        return None;
    }
    let m = reduction(name, args)?;
    let Value::Device(md) = &m else {
        return None;
    };
    let reduced = md.node.clone();
    let Op::Reduce { dim, all, .. } = reduced.op else {
        return None;
    };
    let x = reduced.inputs[0].clone();
    let lane = if all { x.numel() } else { x.shape.dim(dim) };
    let class = if x.class == Class::Single {
        Class::Single
    } else {
        Class::Double
    };
    // Subscripts are exact in single up to 2^24.
    if class == Class::Single && lane > 1 << 24 {
        return None;
    }
    let shape = x.shape.clone();
    let logical = |op, a: &Rc<Node>, b: &Rc<Node>| {
        graph::intern(
            Op::Binary(op),
            vec![a.clone(), b.clone()],
            shape.clone(),
            Class::Logical,
        )
    };
    let hit = logical(Bin::Eq, &x, &reduced);
    let nan = graph::intern(
        Op::Unary(Un::IsNan),
        vec![reduced.clone()],
        reduced.shape.clone(),
        Class::Logical,
    );
    let wanted = logical(Bin::Or, &hit, &nan);
    let iota = graph::intern(
        Op::Iota((!all).then_some(dim)),
        vec![],
        shape.clone(),
        class,
    );
    let positions = graph::intern(Op::Binary(Bin::Div), vec![iota, wanted], shape, class);
    let first = graph::intern(
        Op::Reduce {
            op: Red::Min,
            dim,
            all,
            omitnan: true,
        },
        vec![positions],
        reduced.shape.clone(),
        class,
    );
    let index = if class == Class::Double {
        first
    } else {
        graph::intern(Op::Cast, vec![first], reduced.shape.clone(), Class::Double)
    };
    let i = pending(index, md.explicit);
    Some(vec![m, i])
}

/// The elementwise builtins that lower to a unary node.
pub fn unary_builtin(name: &str) -> Option<Un> {
    Some(match name {
        "abs" => Un::Abs,
        "sign" => Un::Sign,
        "exp" => Un::Exp,
        "sqrt" => Un::Sqrt,
        "log" => Un::Log,
        "log1p" => Un::Log1p,
        "log2" => Un::Log2,
        "log10" => Un::Log10,
        "expm1" => Un::Expm1,
        "sec" => Un::Sec,
        "csc" => Un::Csc,
        "cot" => Un::Cot,
        "sin" => Un::Sin,
        "cos" => Un::Cos,
        "tan" => Un::Tan,
        "atan" => Un::Atan,
        "sinh" => Un::Sinh,
        "cosh" => Un::Cosh,
        "tanh" => Un::Tanh,
        "floor" => Un::Floor,
        "ceil" => Un::Ceil,
        "round" => Un::Round,
        "fix" => Un::Fix,
        "isnan" => Un::IsNan,
        "isinf" => Un::IsInf,
        "isfinite" => Un::IsFinite,
        "not" => Un::Not,
        "uminus" => Un::Neg,
        // realsqrt and reallog are sqrt and log where the result is real (the domain check
        // sends anything else to the host, which reports their errors).
        "realsqrt" => Un::Sqrt,
        "reallog" => Un::Log,
        "erf" => Un::Erf,
        "erfc" => Un::Erfc,
        "erfinv" => Un::Erfinv,
        "erfcinv" => Un::Erfcinv,
        "gamma" => Un::Gamma,
        "gammaln" => Un::GammaLn,
        "asin" => Un::Asin,
        "acos" => Un::Acos,
        "asinh" => Un::Asinh,
        "acosh" => Un::Acosh,
        "atanh" => Un::Atanh,
        "sind" => Un::Sind,
        "cosd" => Un::Cosd,
        "tand" => Un::Tand,
        "secd" => Un::Secd,
        "cscd" => Un::Cscd,
        "cotd" => Un::Cotd,
        "asind" => Un::Asind,
        "acosd" => Un::Acosd,
        "atand" => Un::Atand,
        "asec" => Un::Asec,
        "acsc" => Un::Acsc,
        "acot" => Un::Acot,
        "sech" => Un::Sech,
        "csch" => Un::Csch,
        "coth" => Un::Coth,
        "asech" => Un::Asech,
        "acsch" => Un::Acsch,
        "acoth" => Un::Acoth,
        "deg2rad" => Un::Deg2rad,
        "rad2deg" => Un::Rad2deg,
        "sinpi" => Un::Sinpi,
        "cospi" => Un::Cospi,
        "nextpow2" => Un::Nextpow2,
        "pow2" => Un::Pow2,
        "signbit" => Un::Signbit,
        "real" => Un::Real,
        "conj" => Un::Conj,
        "imag" => Un::Imag,
        "angle" => Un::Angle,
        _ => return None,
    })
}

/// The two-argument elementwise builtins that lower to a binary node.
pub fn binary_builtin(name: &str) -> Option<Bin> {
    Some(match name {
        "plus" => Bin::Add,
        "minus" => Bin::Sub,
        "times" => Bin::Mul,
        "rdivide" => Bin::Div,
        "ldivide" => Bin::LDiv,
        "eq" => Bin::Eq,
        "ne" => Bin::Ne,
        "lt" => Bin::Lt,
        "le" => Bin::Le,
        "gt" => Bin::Gt,
        "ge" => Bin::Ge,
        "max" => Bin::Max,
        "min" => Bin::Min,
        "atan2" => Bin::Atan2,
        "hypot" => Bin::Hypot,
        "and" => Bin::And,
        "or" => Bin::Or,
        "xor" => Bin::Xor,
        "mod" => Bin::Mod,
        "rem" => Bin::Rem,
        "power" => Bin::Pow,
        "realpow" => Bin::Pow,
        "nthroot" => Bin::Nthroot,
        "atan2d" => Bin::Atan2d,
        "pow2" => Bin::Pow2,
        "beta" => Bin::Beta,
        _ => return None,
    })
}

/// Builtins that read only a graph value's size and class, so need not compute it.
/// Builtins whose answer about gpuArrays is a host value in MATLAB (comparisons of whole
/// arrays and class predicates give a plain logical), though they read the data.
pub fn answers_on_host(name: &str) -> bool {
    matches!(
        name,
        "isequal"
            | "isequaln"
            | "isnumeric"
            | "isfloat"
            | "isinteger"
            | "islogical"
            | "ischar"
            | "iscell"
            | "isstruct"
            | "isobject"
            | "issparse"
            | "isstring"
            | "iscellstr"
    )
}

pub fn reads_metadata_only(name: &str) -> bool {
    matches!(
        name,
        "class"
            | "size"
            | "numel"
            | "ndims"
            | "isempty"
            | "length"
            | "isscalar"
            | "isvector"
            | "isrow"
            | "iscolumn"
            | "ismatrix"
            | "gather"
            | "gpuArray"
            | "isgpuarray"
            | "existsOnGPU"
            | "classUnderlying"
            | "underlyingType"
            | "isa"
            | "isreal"
    )
}

/// Host forms of a call's arguments (graph values computed and read back).
pub fn host_args(args: Vec<Value>) -> MResult<Vec<Value>> {
    args.into_iter().map(Value::host).collect()
}

/// A builtin's numeric results, made gpuArrays again when an input was one (MATLAB keeps
/// gpuArray in, gpuArray out). The data stays on the host until a kernel needs it.
pub fn rewrap(results: Vec<Value>) -> Vec<Value> {
    results.into_iter().map(rewrap_value).collect()
}

/// One result made a gpuArray again (numeric and logical values; others as they are).
pub fn rewrap_value(v: Value) -> Value {
    match &v {
        Value::Num(_) | Value::Bool(_) => to_graph_value(&v, true).unwrap_or(v),
        // Integers too: MATLAB's integer gpuArrays stay gpuArrays (their data on the host,
        // as the graph computes in floating point only).
        Value::Tensor(_) if device_storable(&v) => to_graph_value(&v, true).unwrap_or(v),
        // Complex results are complex gpuArrays (interp::complex).
        Value::Tensor(t)
            if t.is_complex() && matches!(t.class(), Class::Single | Class::Double) =>
        {
            super::complex::rewrap(t)
        }
        _ => v,
    }
}

/// Computes `f` on the host forms of `vals` (graph values read back); the result is a gpuArray
/// again when one of them was. The host path for operations the graph does not take.
pub fn on_host(vals: &[&Value], f: impl FnOnce(&[Value]) -> MResult<Value>) -> MResult<Value> {
    let host: Vec<Value> = vals
        .iter()
        .map(|v| (*v).clone().host())
        .collect::<MResult<_>>()?;
    let r = f(&host)?;
    Ok(if explicit(vals) { rewrap_value(r) } else { r })
}

/// Whether a value can be a gpuArray: numeric or logical, real.
pub fn device_storable(v: &Value) -> bool {
    match v.num_class() {
        Some(c) => (graph_class(c) || c.is_int()) && !v.is_complex(),
        None => false,
    }
}

/// Whether `dev` takes an array of `class` with `numel` elements: a class the graph holds, in
/// a precision the device has, offload allowed, not empty.
pub(super) fn device_takes(dev: &crate::gpu::device::Gpu, class: Class, numel: usize) -> bool {
    graph_class(class)
        && (graph::Precision::of(class) == graph::Precision::F32 || dev.info.supports_double)
        && crate::gpu::offload_allowed()
        && numel > 0
}

/// A block of random numbers as a pending value (generated where it is used).
pub fn random(
    spec: graph::RandSpec,
    shape: crate::values::shape::Shape,
    class: Class,
    explicit: bool,
) -> Value {
    let node = graph::intern(graph::Op::Rand(spec), Vec::new(), shape, class);
    pending(node, explicit)
}

/// A host numeric value as a graph value (for gpuArray and rewrapping).
pub fn to_graph_value(v: &Value, explicit: bool) -> Option<Value> {
    if !device_storable(v) {
        return None;
    }
    // A host array is shared with the leaf, not copied (copy-on-write keeps the variable's
    // own later changes apart): copying 1e8 singles cost 127 ms of a 140 ms gpuArray.
    let host = match v {
        Value::Tensor(t) => t.clone(),
        _ => Rc::new(v.tensor().ok()?.into_owned()),
    };
    let (shape, class) = (host.shape.clone(), host.class());
    let node = graph::leaf(Data::Host(host), shape, class);
    Some(pending(node, explicit))
}

/// A host numeric value as an explicit gpuArray with its data uploaded now (gpuArray(x) and
/// constructors with 'gpuArray'). Doubles stay on the host where the device lacks f64, and
/// everything stays there under MATFUSE_OFFLOAD=never; the class is gpuArray either way.
pub fn to_device(v: Value) -> MResult<Value> {
    let g = match &v {
        Value::Device(d) => {
            // gpuArray asks for a resident array: pending work (host values computed
            // lazily) runs now, once, instead of inside every kernel that reads the value.
            // A pending fill stays one (it costs nothing to make again).
            let fill = matches!(d.node.op, graph::Op::Binary(_))
                && d.node
                    .inputs
                    .iter()
                    .all(|i| matches!(i.op, graph::Op::Const(_)));
            if !fill {
                crate::plan::realise(&d.node)?;
            }
            Value::Device(Rc::new(DeviceValue {
                node: d.node.clone(),
                explicit: true,
            }))
        }
        _ => match to_graph_value(&v, true) {
            Some(g) => g,
            None => return Ok(v),
        },
    };
    if let (Value::Device(d), Some(dev)) = (&g, crate::gpu::device::ready()) {
        let n = &d.node;
        if device_takes(dev, n.class, n.numel()) {
            let host = n.data.borrow().clone();
            if let Some(Data::Host(t)) = host {
                // Past one device buffer it stays on the host (`host_held`), uploaded never.
                if super::host_held::exceeds(t.numel(), n.class) {
                    super::host_held::made(t.numel(), n.class);
                    return Ok(g);
                }
                crate::gpu::trace("upload: fill check");
                if let Some(filled) = super::fill::uniform(&t) {
                    return Ok(filled);
                }
                crate::gpu::trace("upload: not a fill");
                let buf = crate::gpu::buffers::upload_tensor(dev, &t, n.precision())?;
                crate::gpu::trace("upload: done");
                *n.data.borrow_mut() = Some(Data::Device(Rc::new(buf)));
            }
        }
    }
    Ok(g)
}
