//! Reductions: sum prod mean median mode max min cumsum cumprod cummax cummin any all diff
//! range (dispersion.rs holds std and var).

use super::{Builtin, b, bad_arg, dim_arg, one, split_flags};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::class::Class;
use crate::values::ops::elementwise;
use crate::values::ops::reduce::{self as red, lanes};
use crate::values::ops::{Bin, Red, shape_ops};
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;
use std::borrow::Cow;
use std::rc::Rc;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("sum", 1, -1, 1, "sum(A), sum(A, dim), sum(A, 'all'), with 'omitnan': sum of elements.", sum),
        b("prod", 1, -1, 1, "prod(A, dim): product of elements.", prod),
        b("mean", 1, -1, 1, "mean(A, dim), mean(A, 'all'), with 'omitnan': average.", mean),
        b("median", 1, -1, 1, "median(A, dim): median value.", median),
        b("mode", 1, 2, 3, "mode(A, dim): most frequent value (the smallest among ties).", mode),
        b("max", 1, -1, 2, "max(A), max(A, [], dim), max(A, B), [m, i] = max(...): largest elements.", max),
        b("min", 1, -1, 2, "min(A), min(A, [], dim), min(A, B), [m, i] = min(...): smallest elements.", min),
        b("cumsum", 1, -1, 1, "cumsum(A, dim): cumulative sum.", cumsum),
        b("cumprod", 1, -1, 1, "cumprod(A, dim): cumulative product.", cumprod),
        b("any", 1, -1, 1, "any(A, dim): true if any element is nonzero.", any),
        b("all", 1, -1, 1, "all(A, dim): true if all elements are nonzero.", all),
        b("diff", 1, 3, 1, "diff(A, n, dim): differences between adjacent elements.", diff),
        b("cummax", 1, 3, 1, "cummax(A, dim): cumulative maximum.", cummax),
        b("cummin", 1, 3, 1, "cummin(A, dim): cumulative minimum.", cummin),
        b("range", 1, 2, 1, "range(A, dim): max(A) - min(A).", range),
    ]
}

/// Parsed (A, dim, flags) for the reductions. A vector of dimensions (or 'all') is handled
/// by moving those dimensions to the front and merging them into one; `out_shape` is then the
/// shape the result must take.
struct RedArgs {
    /// The argument, shared with the caller's value (never copied to be reduced).
    t: Rc<Tensor>,
    /// The shape its elements are reduced in (a column for 'all').
    shape: Shape,
    dim: Option<usize>,
    omitnan: bool,
    includenan_given: bool,
    native: Option<bool>,
    out_shape: Option<Shape>,
}

/// `t` with the dimensions `dims` merged into dimension 0, and the shape a reduction over them
/// leaves.
pub(super) fn merge_dims(t: &Tensor, dims: &[usize]) -> (Tensor, Shape) {
    let nd = t
        .shape
        .ndims()
        .max(dims.iter().map(|d| d + 1).max().unwrap_or(0));
    let mut order: Vec<usize> = dims.to_vec();
    order.sort();
    order.dedup();
    let rest: Vec<usize> = (0..nd).filter(|d| !order.contains(d)).collect();
    let perm: Vec<usize> = order.iter().chain(rest.iter()).copied().collect();
    let (pos, _) = shape_ops::permute_plan(&t.shape, &perm);
    let merged: usize = order.iter().map(|&d| t.shape.dim(d)).product();
    let mut new_dims = vec![merged];
    new_dims.extend(rest.iter().map(|&d| t.shape.dim(d)));
    let out: Vec<usize> = (0..nd)
        .map(|d| {
            if order.contains(&d) {
                1
            } else {
                t.shape.dim(d)
            }
        })
        .collect();
    (t.gather(&pos, Shape::new(&new_dims)), Shape::new(&out))
}

/// A dimension argument that may be a vector of dimensions.
pub(super) fn dims_arg(v: &Value) -> MResult<Vec<usize>> {
    let t = v.tensor()?;
    if t.numel() == 0 {
        return Err(MError::new(
            "MATLAB:getdimarg:invalidDim",
            "Dimension argument must be a positive integer scalar or a vector of unique positive integers.",
        ));
    }
    let mut out = Vec::with_capacity(t.numel());
    for &x in t.to_f64().iter() {
        out.push(dim_arg(&Value::Num(x))?);
    }
    Ok(out)
}

fn red_args(a: A, skip_empty_second: bool) -> MResult<RedArgs> {
    let (pos, flags) = split_flags(a);
    let t = match &pos[0] {
        Value::Tensor(t) => t.clone(),
        v => Rc::new(v.tensor()?.into_owned()),
    };
    if !t.class().is_numeric() && !matches!(t.class(), Class::Logical | Class::Char) {
        return Err(bad_arg("sum", "Invalid data type."));
    }
    let mut dims = None;
    let mut k = 1;
    if skip_empty_second && pos.len() > 1 && pos[1].is_empty() {
        k = 2;
    }
    if let Some(d) = pos.get(k) {
        dims = Some(dims_arg(d)?);
    }
    if pos.len() > k + 1 {
        return Err(crate::interp::error::errors::too_many_inputs("sum"));
    }
    let mut r = RedArgs {
        shape: t.shape.clone(),
        t,
        dim: None,
        omitnan: false,
        includenan_given: false,
        native: None,
        out_shape: None,
    };
    let mut all = false;
    for f in flags {
        match f.as_str() {
            "all" => all = true,
            "omitnan" | "omitmissing" => r.omitnan = true,
            "includenan" | "includemissing" => r.includenan_given = true,
            "native" => r.native = Some(true),
            "double" => r.native = Some(false),
            "default" => {}
            other => return Err(bad_arg("sum", format!("Unrecognized option '{other}'."))),
        }
    }
    if all {
        r.shape = Shape::col(r.t.numel());
        r.dim = Some(0);
        r.out_shape = Some(Shape::scalar());
    } else if let Some(d) = dims {
        if d.len() == 1 {
            r.dim = Some(d[0]);
        } else {
            let (m, out) = merge_dims(&r.t, &d);
            r.shape = m.shape.clone();
            r.t = Rc::new(m);
            r.dim = Some(0);
            r.out_shape = Some(out);
        }
    }
    Ok(r)
}

impl RedArgs {
    /// The argument in the shape it is reduced in.
    fn shaped(&self) -> Cow<'_, Tensor> {
        if self.shape == self.t.shape {
            Cow::Borrowed(self.t.as_ref())
        } else {
            Cow::Owned(self.t.as_ref().clone().reshaped(self.shape.clone()))
        }
    }
    /// Puts a reduced result into the shape the caller asked for.
    fn finish(&self, t: Tensor) -> Tensor {
        match &self.out_shape {
            Some(s) if s.numel() == t.numel() => t.reshaped(s.clone()),
            _ => t,
        }
    }
}

fn simple(op: Red, a: A) -> MResult<Value> {
    let r = red_args(a, false)?;
    let mut out = red::reduce_shaped(op, &r.t, &r.shape, r.dim, r.omitnan)?;
    if let Some(native) = r.native {
        let cls = r.t.class();
        if native && cls != out.class() && matches!(op, Red::Sum | Red::Prod) {
            out = if cls.is_int() {
                // 'native' integer sums accumulate exactly and saturate
                red::reduce_native_int(op, &r.shaped(), r.dim)?
            } else {
                out.cast(cls)
            };
        } else if !native && out.class() != Class::Double {
            out = out.cast(Class::Double);
        }
    }
    Ok(Value::from(r.finish(out)))
}

fn sum(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(simple(Red::Sum, a)?)
}
fn prod(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(simple(Red::Prod, a)?)
}
fn mean(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(simple(Red::Mean, a)?)
}
fn any(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(simple(Red::Any, a)?)
}
fn all(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(simple(Red::All, a)?)
}

/// Applies `f` to each lane along the reduction dimension, giving one value per lane.
fn per_lane(
    t: &Tensor,
    dim: Option<usize>,
    empty00: f64,
    f: impl Fn(&mut Vec<f64>) -> f64,
) -> Tensor {
    if dim.is_none() && t.shape.dims() == [0, 0] {
        return Tensor::scalar_f64(empty00);
    }
    let d = dim.unwrap_or_else(|| red::default_dim(&t.shape));
    let (inner, len, outer) = lanes(&t.shape, d);
    let x = t.to_f64();
    let mut out = Vec::with_capacity(inner * outer);
    for o in 0..outer {
        for i in 0..inner {
            let mut lane: Vec<f64> = (0..len)
                .map(|k| {
                    crate::interp::interrupt::poll();
                    x[i + k * inner + o * inner * len]
                })
                .collect();
            out.push(f(&mut lane));
        }
    }
    // median and mode keep integer and single classes
    let cls = if t.class() == Class::Single || t.class().is_int() {
        t.class()
    } else {
        Class::Double
    };
    Tensor::new(t.shape.with_dim(d, 1), Data::from_f64(cls, out))
}

fn median_of(v: &mut Vec<f64>, omitnan: bool) -> f64 {
    if omitnan {
        v.retain(|x| !x.is_nan());
    } else if v.iter().any(|x| x.is_nan()) {
        return f64::NAN;
    }
    if v.is_empty() {
        return f64::NAN;
    }
    // the middle by selection, not a sort (linear; the comparator looks at Ctrl-C)
    let n = v.len();
    let (lower, mid, _) = v.select_nth_unstable_by(n / 2, |a, b| {
        crate::interp::interrupt::poll();
        a.total_cmp(b)
    });
    let hi = *mid;
    if n % 2 == 1 {
        hi
    } else {
        let lo = lower.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (lo + hi) / 2.0
    }
}

fn median(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let r = red_args(a, false)?;
    let omit = r.omitnan;
    let out = per_lane(&r.shaped(), r.dim, f64::NAN, |v| median_of(v, omit));
    one(r.finish(out))
}

/// The most frequent values of a lane (ascending), how often they occur.
fn modes_of(v: &mut Vec<f64>) -> (Vec<f64>, usize) {
    v.retain(|x| !x.is_nan());
    v.sort_by(|a, b| {
        crate::interp::interrupt::poll();
        a.total_cmp(b)
    });
    let (mut best, mut best_n) = (Vec::new(), 0);
    let mut i = 0;
    while i < v.len() {
        let mut j = i;
        while j < v.len() && v[j] == v[i] {
            j += 1;
        }
        if j - i > best_n {
            best_n = j - i;
            best = vec![v[i]];
        } else if j - i == best_n {
            best.push(v[i]);
        }
        i = j;
    }
    (best, best_n)
}

fn mode(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let r = red_args(a, false)?;
    let t = r.shaped();
    let m = per_lane(&t, r.dim, f64::NAN, |v| {
        modes_of(v).0.first().copied().unwrap_or(f64::NAN)
    });
    if nargout < 2 {
        return one(m);
    }
    let freq = per_lane(&t, r.dim, 0.0, |v| modes_of(v).1 as f64);
    let freq = Tensor::f64(freq.shape.clone(), freq.to_f64().into_owned());
    let mut out = vec![Value::from(m.clone()), Value::from(freq)];
    if nargout > 2 {
        let lists = std::cell::RefCell::new(Vec::new());
        per_lane(&t, r.dim, f64::NAN, |v| {
            lists.borrow_mut().push(modes_of(v).0);
            0.0
        });
        let cells: Vec<Value> = lists
            .into_inner()
            .into_iter()
            .map(|l| {
                let n = l.len();
                Value::from(Tensor::new(Shape::col(n), Data::from_f64(m.class(), l)))
            })
            .collect();
        let cells = if cells.is_empty() {
            vec![Value::from(Tensor::f64(Shape::matrix(0, 1), vec![]))]
        } else {
            cells
        };
        out.push(Value::from(crate::values::containers::CellArray::new(
            m.shape.clone(),
            cells,
        )));
    }
    Ok(out)
}

fn extreme(a: A, nargout: usize, is_max: bool) -> R {
    // max(A, B): elementwise with expansion
    // a char second argument is data (max('a', 'b')) unless it is one of the option words
    let is_flag = |v: &Value| {
        v.text().is_ok_and(|t| {
            matches!(
                t.to_ascii_lowercase().as_str(),
                "omitnan" | "includenan" | "omitmissing" | "includemissing" | "all" | "linear"
            )
        })
    };
    let two_arg = a.len() >= 2 && !a[1].is_empty() && !(a[1].is_text() && is_flag(&a[1]));
    if two_arg {
        if nargout > 1 {
            return Err(MError::new(
                "MATLAB:max:TwoInTwoOutCaseNotSupported",
                "MAX with two matrices to compare and two output arguments is not supported.",
            ));
        }
        let mut a = a;
        let rest = a.split_off(2);
        let (_, flags) = split_flags([vec![Value::empty()], rest].concat());
        let pos = a;
        let includenan = flags.iter().any(|f| f == "includenan");
        let op = if is_max { Bin::Max } else { Bin::Min };
        let v = elementwise::binary(op, &pos[0], &pos[1])?;
        if includenan {
            let nan_a = elementwise::unary(crate::values::ops::Un::IsNan, &pos[0])?;
            let nan_b = elementwise::unary(crate::values::ops::Un::IsNan, &pos[1])?;
            let any_nan = elementwise::binary(Bin::Or, &nan_a, &nan_b)?;
            let t = v.tensor()?;
            let mask = any_nan.tensor()?;
            let r: Vec<f64> = t
                .to_f64()
                .iter()
                .enumerate()
                .map(|(i, &x)| if mask.nonzero(i) { f64::NAN } else { x })
                .collect();
            return one(Tensor::new(t.shape.clone(), Data::from_f64(t.class(), r)));
        }
        return one(v);
    }
    let r = red_args(a, true)?;
    let omitnan = !r.includenan_given;
    if nargout <= 1 {
        return one(red::extreme_shaped(&r.t, &r.shape, r.dim, is_max, omitnan)?);
    }
    let (vals, idx) = red::extreme_with_index_shaped(&r.t, &r.shape, r.dim, is_max, omitnan)?;
    Ok(vec![Value::from(vals), Value::from(idx)])
}

fn max(_: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    extreme(a, n, true)
}
fn min(_: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    extreme(a, n, false)
}

fn cumulative(a: A, product: bool) -> R {
    let r = red_args(a, false)?;
    one(red::cumulative(&r.shaped(), r.dim, product, r.omitnan)?)
}
/// Runs a cumulative function forward, or (with 'reverse') from the end of each lane, by
/// flipping the input and the result along the working dimension.
fn directional(a: A, f: impl Fn(A) -> R) -> R {
    let is_dir = |v: &Value| {
        v.is_text()
            && v.text()
                .is_ok_and(|t| matches!(t.to_ascii_lowercase().as_str(), "reverse" | "forward"))
    };
    let reverse = a
        .iter()
        .any(|v| is_dir(v) && v.text().is_ok_and(|t| t.eq_ignore_ascii_case("reverse")));
    let mut a: A = a.into_iter().filter(|v| !is_dir(v)).collect();
    if !reverse {
        return f(a);
    }
    let shape = a[0].shape();
    let d = match a.get(1) {
        Some(v) if !v.is_text() && !v.is_empty() => dim_arg(v)?,
        _ => red::default_dim(&shape),
    };
    let flip = |v: &Value| -> MResult<Value> {
        let s = v.shape();
        let pos = crate::values::ops::shape_ops::shift_plan(&s, &[], Some(d));
        crate::values::ops::shape_ops::gather_value(v, &pos, s)
    };
    a[0] = flip(&a[0])?;
    f(a)?.iter().map(flip).collect()
}

fn cumsum(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    directional(a, |a| cumulative(a, false))
}
fn cumprod(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    directional(a, |a| cumulative(a, true))
}

fn cum_extreme(a: A, is_max: bool) -> R {
    let r = red_args(a, false)?;
    let t = r.shaped();
    let d = r.dim.unwrap_or_else(|| red::default_dim(&t.shape));
    let (inner, len, outer) = lanes(&t.shape, d);
    let mut x = crate::interp::interrupt::copied(&t.to_f64());
    let mut tick = crate::interp::interrupt::Ticker::new();
    for o in 0..outer {
        for i in 0..inner {
            let mut acc = f64::NAN;
            for k in 0..len {
                tick.tick();
                let p = i + k * inner + o * inner * len;
                if acc.is_nan() || (is_max && x[p] > acc) || (!is_max && x[p] < acc) {
                    if !x[p].is_nan() {
                        acc = x[p];
                    }
                }
                x[p] = acc;
            }
        }
    }
    one(Tensor::new(t.shape.clone(), Data::from_f64(t.class(), x)))
}
fn cummax(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    directional(a, |a| cum_extreme(a, true))
}
fn cummin(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    directional(a, |a| cum_extreme(a, false))
}

fn diff(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    // the input is read where it is (a copy of 3e7 elements was a third of the time)
    let mut t = a[0].tensor()?;
    let n = match a.get(1) {
        Some(v) if !v.is_empty() => {
            let n = v.scalar_f64()?;
            if n < 0.0 || n.fract() != 0.0 {
                return Err(bad_arg(
                    "diff",
                    "Difference order N must be a positive integer scalar.",
                ));
            }
            n as usize
        }
        _ => 1,
    };
    // the dimension is chosen once, from the input's shape
    let d = match a.get(2) {
        Some(v) => dim_arg(v)?,
        None => red::default_dim(&t.shape),
    };
    let cls = if t.class() == Class::Single || t.class().is_int() {
        t.class()
    } else {
        Class::Double
    };
    for _ in 0..n {
        let (inner, len, outer) = lanes(&t.shape, d);
        if len == 0 {
            break;
        }
        let pairs = |f: &mut dyn FnMut(usize, usize)| {
            let mut tick = crate::interp::interrupt::Ticker::new();
            for o in 0..outer {
                for k in 0..len - 1 {
                    for i in 0..inner {
                        tick.tick();
                        let p = i + k * inner + o * inner * len;
                        f(p, p + inner);
                    }
                }
            }
        };
        let data = if let Some(v) = t.data.as_i128() {
            // integer differences are exact and saturate in the class
            let mut out = Vec::with_capacity(inner * (len - 1) * outer);
            pairs(&mut |p, q| out.push(v[q] - v[p]));
            Data::from_i128(cls, out.into_iter())
        } else if t.is_complex() {
            let z = t.to_c64();
            let mut out = Vec::with_capacity(inner * (len - 1) * outer);
            pairs(&mut |p, q| out.push(z[q] - z[p]));
            Data::from_c64(cls, out)
        } else {
            let x = t.to_f64();
            let mut out = Vec::with_capacity(inner * (len - 1) * outer);
            pairs(&mut |p, q| out.push(x[q] - x[p]));
            Data::from_f64(cls, out)
        };
        t = std::borrow::Cow::Owned(Tensor::new(t.shape.with_dim(d, len - 1), data));
    }
    one(t.into_owned())
}

fn range(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let mx = extreme(a.clone(), 1, true)?;
    let mn = extreme(a, 1, false)?;
    one(elementwise::binary(Bin::Sub, &mx[0], &mn[0])?)
}
