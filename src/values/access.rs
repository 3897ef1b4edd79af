//! Indexing values of every kind with `()` and `{}`: reads, writes (growing with zero fill),
//! and deletion, all driven by the shape plans in `ops::index`.

use super::class::Class;
use super::containers::{CellArray, StrArray, StructArray};
use super::ops::index::{self, Sub};
use super::shape::Shape;
use super::tensor::{Data, Tensor};
use super::value::Value;
use crate::interp::error::{MError, MResult};
use std::rc::Rc;

/// `v(args...)`
pub fn paren(v: &Value, args: &[Value]) -> MResult<Value> {
    // fast path: scalar index into a numeric array
    if let [Value::Num(k)] = args {
        let k = *k;
        if k >= 1.0 && k.fract() == 0.0 {
            let i = k as usize - 1;
            match v {
                Value::Num(x) if i == 0 => return Ok(Value::Num(*x)),
                Value::Tensor(t) if i < t.numel() => {
                    if let Data::F64(d) = &t.data {
                        return Ok(Value::Num(d[i]));
                    }
                }
                _ => {}
            }
        }
    }
    if let Value::Tensor(t) = v {
        if let Some(r) = crate::values::ops::slices::read(t, args) {
            return Ok(Value::from(r));
        }
        if let Some(r) = crate::values::ops::linear_reads::read(t, args) {
            return r.map(Value::from);
        }
    }
    let subs = index::to_subs(args)?;
    let (pos, shape) = index::plan_read(&v.shape(), &subs)?;
    // a handle or object is a 1x1 that only its own element can be taken from
    if matches!(v, Value::Func(_) | Value::Object(_)) && pos != [0] {
        return Err(MError::new(
            "MATLAB:badsubscript",
            "Index exceeds the number of array elements. Index must not exceed 1.",
        ));
    }
    crate::values::ops::shape_ops::gather_value(v, &pos, shape)
}

/// `c{args...}`: the selected cell contents, as a comma-separated list.
pub fn brace(v: &Value, args: &[Value]) -> MResult<Vec<Value>> {
    // a string array's braces give its elements as character vectors
    if let Value::Str(s) = v {
        let subs = index::to_subs(args)?;
        let (pos, _) = index::plan_read(&s.shape, &subs)?;
        return Ok(pos.iter().map(|&i| Value::str(&s.data[i])).collect());
    }
    let Value::Cell(c) = v else {
        return Err(MError::new(
            "MATLAB:cellRefFromNonCell",
            format!(
                "Brace indexing is not supported for variables of this type ({}).",
                v.class_name()
            ),
        ));
    };
    if let [Value::Num(k)] = args {
        let k = *k;
        if k >= 1.0 && k.fract() == 0.0 && (k as usize) <= c.data.len() {
            return Ok(vec![c.data[k as usize - 1].clone()]);
        }
    }
    let subs = index::to_subs(args)?;
    let (pos, _) = index::plan_read(&c.shape, &subs)?;
    Ok(pos.iter().map(|&i| c.data[i].clone()).collect())
}

/// Class of an array after `A(idx) = B`: A's class (indexed assignment never changes it),
/// except that an empty `[]` takes on B's class and a real array receiving complex values
/// becomes complex.
fn assign_class(a: &Tensor, b: &Tensor) -> (Class, bool) {
    let (ac, bc) = (a.class(), b.class());
    if a.numel() == 0 && a.shape.dims() == [0, 0] && ac == Class::Double {
        return (bc, b.is_complex());
    }
    let complex = a.is_complex() || b.is_complex();
    (ac, complex && ac != Class::Logical && ac != Class::Char)
}

/// The error for a complex value that would have to become a complex integer array.
pub fn complex_integer() -> MError {
    MError::new(
        "MATLAB:complexInteger",
        "Complex integer arrays are not supported: convert to double (or single) first.",
    )
}

/// Values that have no conversion into the receiving array's class.
fn check_assignable(t: &Tensor, rhs: &Tensor) -> MResult<()> {
    // MATLAB would make the integer array complex; matfuse has no complex integer arrays, and
    // dropping the imaginary part would be a silently wrong result.
    if t.class().is_int() && rhs.is_complex() && t.numel() > 0 {
        return Err(complex_integer());
    }
    if t.class() == Class::Logical && rhs.class() != Class::Logical {
        if rhs.is_complex() {
            return Err(MError::new(
                "MATLAB:nologicalcomplex",
                "Complex values cannot be converted to logicals.",
            ));
        }
        if rhs.to_f64().iter().any(|x| x.is_nan()) {
            return Err(MError::new(
                "MATLAB:nologicalnan",
                "NaN's cannot be converted to logicals.",
            ));
        }
    }
    Ok(())
}

fn convert(t: &Tensor, class: Class, complex: bool) -> Tensor {
    let mut out = t.cast(class);
    if complex && !out.is_complex() {
        let z = out.to_c64().into_owned();
        out = Tensor::new(out.shape.clone(), Data::from_c64(class, z));
    }
    out
}

/// Writes `rhs` into `t` at the planned positions (growing `t` first).
fn scatter_tensor(t: &mut Tensor, plan: &index::WritePlan, rhs: &Tensor) {
    let (class, complex) = assign_class(t, rhs);
    if t.class() != class || (complex && !t.is_complex()) {
        *t = convert(t, class, complex);
    }
    let rhs = if rhs.class() != class || rhs.is_complex() != complex {
        convert(rhs, class, complex)
    } else {
        rhs.clone()
    };
    if grows_in_place(&t.shape, &plan.shape) {
        // the old elements keep their positions: extend the storage, whose spare capacity
        // doubles as it grows, so `x(end+1) = v` in a loop is amortised O(1)
        let n = plan.shape.numel();
        crate::with_data!(&mut t.data, v => v.resize(n, Default::default()));
    } else if let Some(map) = index::relayout(&t.shape, &plan.shape) {
        let mut grown = Tensor::zeros(class, plan.shape.clone());
        if complex {
            grown = convert(&grown, class, true);
        }
        scatter_data(&mut grown.data, &map, &t.data);
        *t = grown;
    }
    t.shape = plan.shape.clone();
    if rhs.numel() == 1 {
        let idx0 = vec![0usize; plan.positions.len()];
        let expanded = rhs.gather(&idx0, Shape::row(plan.positions.len()));
        scatter_data(&mut t.data, &plan.positions, &expanded.data);
    } else {
        scatter_data(&mut t.data, &plan.positions, &rhs.data);
    }
}

/// Whether growing from `old` to `new` keeps every old element at its linear position (the
/// same number of rows, or vectors along the first dimension, or nothing yet).
fn grows_in_place(old: &Shape, new: &Shape) -> bool {
    old != new
        && new.numel() > old.numel()
        && old.ndims() <= 2
        && new.ndims() <= 2
        && (old.numel() == 0 || old.rows() == new.rows() || old.cols() == 1 && new.cols() == 1)
}

/// dst[pos[k]] = src[k] for storages of the same variant.
fn scatter_data(dst: &mut Data, pos: &[usize], src: &Data) {
    macro_rules! go {
        ($($v:ident),*) => {
            match (dst, src) {
                $( (Data::$v(d), Data::$v(s)) => { for (k, &p) in pos.iter().enumerate() { d[p] = s[k]; } } )*
                _ => {}
            }
        };
    }
    go!(
        F64, F32, C64, C32, I8, I16, I32, I64, U8, U16, U32, U64, Bool, Char
    );
}

/// A fresh container of the kind `like` names, for assignment into an undefined variable.
fn empty_like(rhs: &Value) -> Value {
    match rhs {
        Value::Cell(_) => Value::from(CellArray::new(Shape::empty(), vec![])),
        Value::Str(_) => Value::from(StrArray::new(Shape::empty(), vec![])),
        Value::Struct(s) => Value::from(StructArray::empty_with(s.fields.clone(), Shape::empty())),
        _ => Value::empty(),
    }
}

/// `target(args...) = rhs`, where `target` may be undefined (None). Deletes when `rhs` is `[]`.
pub fn assign_paren(
    target: Option<&mut Value>,
    args: &[Value],
    rhs: Value,
    delete: bool,
) -> MResult<Value> {
    let mut fresh;
    let t: &mut Value = match target {
        Some(t) => t,
        None => {
            fresh = empty_like(&rhs);
            &mut fresh
        }
    };
    let subs = index::to_subs(args)?;
    if delete {
        let (shape, keep) = index::plan_delete(&t.shape(), &subs)?;
        if let other @ (Value::Func(_) | Value::Object(_)) = &*t {
            return Err(MError::new(
                "MATLAB:index:deleteUnsupported",
                format!(
                    "Deleting elements of a {} is not supported.",
                    other.class_name()
                ),
            ));
        }
        // the kept elements, gathered like any read
        let out = crate::values::ops::shape_ops::gather_value(t, &keep, shape)?;
        *t = out;
        return Ok(t.clone());
    }
    let plan = index::plan_write(&t.shape(), &subs, &rhs.shape())?;
    match (&mut *t, &rhs) {
        (Value::Cell(c), Value::Cell(r)) => {
            let c = Rc::make_mut(c);
            grow_values(&mut c.data, &c.shape, &plan.shape, || Value::empty());
            c.shape = plan.shape.clone();
            put_values(&mut c.data, &plan.positions, &r.data);
        }
        (Value::Cell(_), other) => {
            return Err(MError::new(
                "MATLAB:invalidConversion",
                format!(
                    "Conversion to cell from {} is not possible.",
                    other.class_name()
                ),
            ));
        }
        (Value::Str(s), r) if r.is_string() || r.is_char() || r.is_numeric_like() => {
            let strs = super::strings::to_string_array(r)?;
            let s = Rc::make_mut(s);
            grow_values(&mut s.data, &s.shape, &plan.shape, String::new);
            s.shape = plan.shape.clone();
            put_values(&mut s.data, &plan.positions, &strs.data);
        }
        (Value::Struct(s), Value::Struct(r)) => {
            let s = Rc::make_mut(s);
            let mut r = (**r).clone();
            // the field sets must match (in any order) unless the target has no fields yet
            let same = s.fields.len() == r.fields.len()
                && s.fields.iter().all(|f| r.field_index(f).is_some());
            if !same && !(s.fields.is_empty() && s.elems.is_empty()) {
                return Err(MError::new(
                    "MATLAB:heterogeneousStrucAssignment",
                    "Subscripted assignment between dissimilar structures.",
                ));
            }
            if s.elems.is_empty() && s.fields.is_empty() {
                s.fields = r.fields.clone();
            }
            for f in r.fields.clone() {
                s.ensure_field(&f);
            }
            for f in s.fields.clone() {
                r.ensure_field(&f);
            }
            let order: Vec<usize> = s
                .fields
                .iter()
                .map(|f| r.field_index(f).unwrap_or(0))
                .collect();
            let recs: Vec<Vec<Value>> = r
                .elems
                .iter()
                .map(|e| order.iter().map(|&k| e[k].clone()).collect())
                .collect();
            let nf = s.fields.len();
            grow_values(&mut s.elems, &s.shape, &plan.shape, || {
                vec![Value::empty(); nf]
            });
            s.shape = plan.shape.clone();
            put_values(&mut s.elems, &plan.positions, &recs);
        }
        (tv, r) if tv.is_numeric_like() && r.is_numeric_like() => {
            let mut tt = std::mem::replace(tv, Value::Num(0.0)).into_tensor()?;
            let rt = match r.tensor() {
                Ok(rt) => rt,
                Err(e) => {
                    *tv = Value::from(tt);
                    return Err(e);
                }
            };
            if let Err(e) = check_assignable(&tt, &rt) {
                *tv = Value::from(tt);
                return Err(e);
            }
            scatter_tensor(&mut tt, &plan, &rt);
            *tv = Value::from(tt);
        }
        (tv, r @ (Value::Func(_) | Value::Object(_)))
            if tv.is_empty() && tv.is_numeric_like() && plan.shape.numel() == 1 =>
        {
            // `f(1) = @sin` on nothing makes the scalar handle (or object)
            *tv = r.clone();
        }
        (tv, r @ (Value::Cell(_) | Value::Str(_) | Value::Struct(_)))
            if tv.is_empty() && tv.is_numeric_like() =>
        {
            // [] receiving cells, strings or structs becomes that kind of array (a value of
            // another kind would come back here as [] again: it falls to the error below)
            let mut fresh = empty_like(r);
            let out = assign_paren(Some(&mut fresh), args, rhs.clone(), false)?;
            *tv = out;
        }
        (tv, r) => {
            return Err(MError::new(
                "MATLAB:invalidConversion",
                format!(
                    "Conversion to {} from {} is not possible.",
                    tv.class_name(),
                    r.class_name()
                ),
            ));
        }
    }
    Ok(t.clone())
}

fn grow_values<T: Clone>(data: &mut Vec<T>, old: &Shape, new: &Shape, fill: impl Fn() -> T) {
    if let Some(map) = index::relayout(old, new) {
        let mut grown: Vec<T> = (0..new.numel()).map(|_| fill()).collect();
        for (k, &p) in map.iter().enumerate() {
            grown[p] = data[k].clone();
        }
        *data = grown;
    }
}

fn put_values<T: Clone>(data: &mut [T], pos: &[usize], src: &[T]) {
    if src.len() == 1 {
        for &p in pos {
            data[p] = src[0].clone();
        }
    } else {
        for (k, &p) in pos.iter().enumerate() {
            data[p] = src[k].clone();
        }
    }
}

/// `c{args...} = rhs`: one cell's contents (creating or growing the cell array).
pub fn assign_brace(target: Option<&mut Value>, args: &[Value], rhs: Value) -> MResult<Value> {
    let mut fresh = Value::from(CellArray::new(Shape::empty(), vec![]));
    if let Some(t @ Value::Str(_)) = target {
        // s{k} = text replaces one element of a string array
        let text = rhs.text().map_err(|_| {
            MError::new(
                "MATLAB:invalidConversion",
                format!(
                    "Conversion to string from {} is not possible.",
                    rhs.class_name()
                ),
            )
        })?;
        return assign_paren(Some(t), args, Value::string(&text), false);
    }
    let t: &mut Value = match target {
        Some(t) if matches!(t, Value::Cell(_)) => t,
        Some(t) if t.is_empty() && t.is_numeric_like() => t,
        Some(t) => {
            return Err(MError::new(
                "MATLAB:cellAssignToNonCell",
                format!(
                    "Unable to perform assignment because brace indexing is not supported for variables of this type ({}).",
                    t.class_name()
                ),
            ));
        }
        None => &mut fresh,
    };
    if !matches!(t, Value::Cell(_)) {
        *t = Value::from(CellArray::new(Shape::empty(), vec![]));
    }
    let subs = index::to_subs(args)?;
    let plan = index::plan_write(&t.shape(), &subs, &Shape::scalar())?;
    if plan.positions.len() != 1 {
        if plan.positions.is_empty() {
            return Ok(t.clone());
        }
        return Err(MError::new(
            "MATLAB:index:expected_one_output",
            "Unable to perform assignment with brace indexing into more than one cell.",
        ));
    }
    let Value::Cell(c) = t else {
        return Err(MError::new(
            "MATLAB:cellAssignToNonCell",
            "Brace assignment needs a cell array.",
        ));
    };
    let c = Rc::make_mut(c);
    grow_values(&mut c.data, &c.shape, &plan.shape, Value::empty);
    c.shape = plan.shape;
    c.data[plan.positions[0]] = rhs;
    Ok(t.clone())
}

/// The single element position `args` selects in a container of `shape` (for `s(2).f = v` and
/// `c{3}.x = v`), and the shape the container must grow to.
pub fn single_position(shape: &Shape, args: &[Value]) -> MResult<(usize, Shape)> {
    let subs: Vec<Sub> = index::to_subs(args)?;
    let plan = index::plan_write(shape, &subs, &Shape::scalar())?;
    if plan.positions.len() != 1 {
        return Err(MError::new(
            "MATLAB:index:expected_one_output",
            "Assignment through an index that selects several elements is not supported here; index a single element.",
        ));
    }
    Ok((plan.positions[0], plan.shape))
}

/// Grows a struct array to `shape`, filling new elements with empty fields.
pub fn grow_struct(s: &mut StructArray, shape: &Shape) {
    let nf = s.fields.len();
    let old = s.shape.clone();
    grow_values(&mut s.elems, &old, shape, || vec![Value::empty(); nf]);
    s.shape = shape.clone();
}

pub fn grow_cell(c: &mut CellArray, shape: &Shape) {
    let old = c.shape.clone();
    grow_values(&mut c.data, &old, shape, Value::empty);
    c.shape = shape.clone();
}
