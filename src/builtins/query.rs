//! Questions about values: size and shape predicates, class predicates, isequal.

use super::{Builtin, b, dim_arg, one};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::class::Class;
use crate::values::tensor::Tensor;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("size", 1, -1, 64, "size(A), size(A, dim), [m, n, ...] = size(A): array dimensions.", size),
        b("numel", 1, -1, 1, "numel(A): number of elements.", numel),
        b("ndims", 1, 1, 1, "ndims(A): number of dimensions (at least 2).", ndims),
        b("length", 1, 1, 1, "length(A): the largest dimension (0 for empty arrays).", length),
        b("isempty", 1, 1, 1, "isempty(A): true when A has no elements.", isempty),
        b("isscalar", 1, 1, 1, "isscalar(A): true for 1-by-1 arrays.", isscalar),
        b("isvector", 1, 1, 1, "isvector(A): true for 1-by-N or N-by-1 arrays.", isvector),
        b("ismatrix", 1, 1, 1, "ismatrix(A): true when A has two dimensions.", ismatrix),
        b("isrow", 1, 1, 1, "isrow(A): true for 1-by-N arrays.", isrow),
        b("iscolumn", 1, 1, 1, "iscolumn(A): true for N-by-1 arrays.", iscolumn),
        b("issquare", 1, 1, 1, "issquare(A): true for N-by-N matrices.", issquare),
        b("class", 1, 1, 1, "class(A): the name of A's class.", class),
        b("isa", 2, 2, 1, "isa(A, name): true if A is of the class (or category 'numeric', 'float', 'integer').", isa),
        b("islogical", 1, 1, 1, "islogical(A): true for logical arrays.", islogical),
        b("isnumeric", 1, 1, 1, "isnumeric(A): true for numeric arrays (not logical or char).", isnumeric),
        b("ischar", 1, 1, 1, "ischar(A): true for char arrays.", ischar),
        b("isstring", 1, 1, 1, "isstring(A): true for string arrays.", isstring),
        b("isreal", 1, 1, 1, "isreal(A): true unless A is stored as complex.", isreal),
        b("isfloat", 1, 1, 1, "isfloat(A): true for double and single arrays.", isfloat),
        b("isinteger", 1, 1, 1, "isinteger(A): true for integer-class arrays.", isinteger),
        b("iscell", 1, 1, 1, "iscell(A): true for cell arrays.", iscell),
        b("isstruct", 1, 1, 1, "isstruct(A): true for structs.", isstruct),
        b("is_function_handle", 1, 1, 1, "is_function_handle(A): true for function handles.", isfh),
        b("isobject", 1, 1, 1, "isobject(A): true for objects.", isobject),
        b("isequal", 2, -1, 1, "isequal(A, B, ...): true if all arguments have equal sizes and values (NaN never equal).", isequal),
        b("isequaln", 2, -1, 1, "isequaln(A, B, ...): like isequal, but NaNs compare equal.", isequaln),
        b("sub2ind", 2, -1, 1, "sub2ind(sz, i, j, ...): linear indices from subscripts.", sub2ind),
        b("ind2sub", 2, 2, 8, "[i, j, ...] = ind2sub(sz, ind): subscripts from linear indices.", ind2sub),
    ]
}

/// A containers.Map measures as a Count-by-1 array for size, length and isempty.
fn measured_shape(v: &Value) -> crate::values::shape::Shape {
    match v {
        Value::Object(o) => match o.as_ref() {
            crate::values::containers::Object::Map(m) => {
                crate::values::shape::Shape::col(crate::interp::objects::count(&m.borrow()))
            }
            _ => v.shape(),
        },
        _ => v.shape(),
    }
}

fn size(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let shape = measured_shape(&a[0]);
    let dims = shape.dims();
    if a.len() > 1 {
        let mut out = Vec::new();
        for d in &a[1..] {
            let t = d.tensor()?;
            for x in t.to_f64().iter() {
                let k = dim_arg(&Value::Num(*x))?;
                out.push(shape.dim(k) as f64);
            }
        }
        if nargout <= 1 {
            return one(Value::row(out));
        }
        return Ok(out.into_iter().map(Value::Num).collect());
    }
    if nargout <= 1 {
        return one(Value::row(dims.iter().map(|&d| d as f64).collect()));
    }
    // [r, c] = size(A): the last output takes the product of the remaining dimensions
    let mut out = Vec::with_capacity(nargout);
    for k in 0..nargout {
        let v = if k + 1 == nargout {
            dims.get(k..)
                .map(|r| r.iter().product::<usize>())
                .unwrap_or(1)
        } else {
            shape.dim(k)
        };
        out.push(Value::Num(v as f64));
    }
    Ok(out)
}

fn numel(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    if a.len() > 1 {
        // numel(A, idx...): number of elements A(idx...) would have
        let mut n = 1usize;
        for (k, i) in a[1..].iter().enumerate() {
            n *= if i.is_char() && i.text().ok().as_deref() == Some(":") {
                a[0].shape().dim(k)
            } else {
                i.numel()
            };
        }
        return one(Value::Num(n as f64));
    }
    one(Value::Num(a[0].numel() as f64))
}
fn ndims(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Num(a[0].shape().ndims() as f64))
}
fn length(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let s = measured_shape(&a[0]);
    one(Value::Num(if s.numel() == 0 {
        0.0
    } else {
        *s.dims().iter().max().unwrap_or(&0) as f64
    }))
}
fn isempty(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Bool(measured_shape(&a[0]).numel() == 0))
}
fn isscalar(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Bool(a[0].numel() == 1))
}
fn isvector(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Bool(a[0].shape().is_vector()))
}
fn ismatrix(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Bool(a[0].shape().is_matrix()))
}
fn isrow(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Bool(a[0].shape().is_row()))
}
fn iscolumn(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Bool(a[0].shape().is_col()))
}
fn issquare(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let s = a[0].shape();
    one(Value::Bool(s.is_matrix() && s.rows() == s.cols()))
}
fn class(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::str(&a[0].class_name()))
}

pub fn isa_name(v: &Value, name: &str) -> bool {
    let c = v.num_class();
    match name {
        "numeric" => c.is_some_and(|c| c.is_numeric()),
        "float" => c.is_some_and(|c| c.is_float()),
        "integer" => c.is_some_and(|c| c.is_int()),
        // containers.Map is a handle class
        "handle" => v.class_name() == "containers.Map",
        _ => v.class_name() == name,
    }
}

fn isa(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let name = a[1].text().map_err(|_| {
        MError::new(
            "MATLAB:isa:InvalidClassName",
            "The class name must be a character vector or string scalar.",
        )
    })?;
    one(Value::Bool(isa_name(&a[0], &name)))
}
fn islogical(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Bool(a[0].num_class() == Some(Class::Logical)))
}
fn isnumeric(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Bool(
        a[0].num_class().is_some_and(|c| c.is_numeric()),
    ))
}
fn ischar(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Bool(a[0].is_char()))
}
fn isstring(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Bool(a[0].is_string()))
}
fn isreal(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Bool(
        !a[0].is_complex()
            && !matches!(
                a[0],
                Value::Cell(_) | Value::Struct(_) | Value::Func(_) | Value::Object(_)
            ),
    ))
}
fn isfloat(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Bool(a[0].num_class().is_some_and(|c| c.is_float())))
}
fn isinteger(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Bool(a[0].num_class().is_some_and(|c| c.is_int())))
}
fn iscell(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Bool(matches!(a[0], Value::Cell(_))))
}
fn isstruct(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Bool(matches!(a[0], Value::Struct(_))))
}
fn isfh(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Bool(matches!(a[0], Value::Func(_))))
}
fn isobject(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Bool(matches!(a[0], Value::Object(_))))
}

/// MATLAB's isequal: same size and equal values, across numeric classes and text kinds.
pub fn values_equal(a: &Value, b: &Value, nan_equal: bool) -> bool {
    match (a, b) {
        (Value::Cell(x), Value::Cell(y)) => {
            x.shape == y.shape
                && x.data
                    .iter()
                    .zip(&y.data)
                    .all(|(p, q)| values_equal(p, q, nan_equal))
        }
        (Value::Struct(x), Value::Struct(y)) => {
            if x.shape != y.shape || x.fields.len() != y.fields.len() {
                return false;
            }
            x.fields.iter().all(|f| {
                y.field_index(f).is_some_and(|_| {
                    (0..x.numel()).all(|i| match (x.get(i, f), y.get(i, f)) {
                        (Some(p), Some(q)) => values_equal(p, q, nan_equal),
                        _ => false,
                    })
                })
            })
        }
        (Value::Str(x), Value::Str(y)) => x.shape == y.shape && x.data == y.data,
        (Value::Str(x), other) | (other, Value::Str(x)) => {
            other.is_char()
                && x.data.len() == 1
                && other.text().ok().as_deref() == Some(x.data[0].as_str())
        }
        (Value::Func(x), Value::Func(y)) => {
            std::rc::Rc::ptr_eq(x, y)
                || x.text() == y.text()
                    && matches!(**x, crate::interp::function::FuncHandle::Named { .. })
        }
        (Value::Object(x), Value::Object(y)) => {
            std::rc::Rc::ptr_eq(x, y) || crate::graphics::handle_ops::same(a, b) == Some(true)
        }
        (x, y) if x.is_numeric_like() && y.is_numeric_like() => {
            let (Ok(p), Ok(q)) = (x.tensor(), y.tensor()) else {
                return false;
            };
            tensors_equal(&p, &q, nan_equal)
        }
        _ => false,
    }
}

fn tensors_equal(p: &Tensor, q: &Tensor, nan_equal: bool) -> bool {
    if p.shape != q.shape {
        return false;
    }
    if p.is_complex() || q.is_complex() {
        let (x, y) = (p.to_c64(), q.to_c64());
        return x
            .iter()
            .zip(y.iter())
            .all(|(a, b)| a == b || nan_equal && (a.re.is_nan() && b.re.is_nan()));
    }
    if let (Some(x), Some(y)) = (p.data.as_i128(), q.data.as_i128()) {
        return x == y;
    }
    // one side integer: compare exactly (an integer never equals a fraction)
    let exact = |t: &Tensor, other: &Tensor| -> Option<bool> {
        let ints = t.data.as_i128()?;
        let xs = other.to_f64();
        Some(ints.iter().zip(xs.iter()).all(|(&i, &x)| {
            x.fract() == 0.0 && x.is_finite() && x.abs() < 1.8e38 && i == x as i128
        }))
    };
    if let Some(r) = exact(p, q).or_else(|| exact(q, p)) {
        return r;
    }
    let (x, y) = (p.to_f64(), q.to_f64());
    x.iter()
        .zip(y.iter())
        .all(|(a, b)| a == b || nan_equal && a.is_nan() && b.is_nan())
}

fn isequal(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Bool(
        a.windows(2).all(|w| values_equal(&w[0], &w[1], false)),
    ))
}
fn isequaln(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Bool(
        a.windows(2).all(|w| values_equal(&w[0], &w[1], true)),
    ))
}

fn dims_of(v: &Value) -> MResult<Vec<usize>> {
    Ok(v.tensor()?
        .to_f64()
        .iter()
        .map(|&x| x.max(0.0) as usize)
        .collect())
}

fn sub2ind(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let dims = dims_of(&a[0])?;
    let subs: Vec<Tensor> = a[1..]
        .iter()
        .map(|v| v.tensor().map(|t| t.into_owned()))
        .collect::<MResult<_>>()?;
    let n = subs[0].numel();
    if subs.iter().any(|s| s.numel() != n) {
        return Err(MError::new(
            "MATLAB:sub2ind:SubscriptVectorSize",
            "The subscript vectors must all be of the same size.",
        ));
    }
    let k = subs.len();
    // the last subscript covers the remaining dimensions
    let mut ext: Vec<usize> = (0..k).map(|d| dims.get(d).copied().unwrap_or(1)).collect();
    if k < dims.len() {
        ext[k - 1] = dims[k - 1..].iter().product();
    }
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let mut lin = 0usize;
        let mut stride = 1usize;
        for d in 0..k {
            let s = subs[d].get_f64(i);
            if s < 1.0 || s.fract() != 0.0 || s as usize > ext[d] {
                return Err(MError::new(
                    "MATLAB:sub2ind:IndexOutOfRange",
                    "Out of range subscript.",
                ));
            }
            lin += (s as usize - 1) * stride;
            stride *= ext[d];
        }
        out.push((lin + 1) as f64);
    }
    one(Tensor::f64(subs[0].shape.clone(), out))
}

fn ind2sub(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let dims = dims_of(&a[0])?;
    let idx = a[1].tensor()?;
    let k = nargout.max(1);
    let mut ext: Vec<usize> = (0..k).map(|d| dims.get(d).copied().unwrap_or(1)).collect();
    if k < dims.len() {
        ext[k - 1] = dims[k - 1..].iter().product();
    }
    let total: usize = ext.iter().product();
    let mut outs: Vec<Vec<f64>> = vec![Vec::with_capacity(idx.numel()); k];
    let mut tick = crate::interp::interrupt::Ticker::new();
    for &x in idx.to_f64().iter() {
        tick.add(k);
        if x < 1.0 || x.fract() != 0.0 || x as usize > total {
            return Err(MError::new(
                "MATLAB:ind2sub:IndexOutOfRange",
                "Index out of range.",
            ));
        }
        let mut rem = x as usize - 1;
        for d in 0..k {
            outs[d].push((rem % ext[d] + 1) as f64);
            rem /= ext[d];
        }
    }
    Ok(outs
        .into_iter()
        .map(|v| Value::from(Tensor::f64(idx.shape.clone(), v)))
        .collect())
}
