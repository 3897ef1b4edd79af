//! Sets: unique ismember setdiff intersect union setxor (sorting.rs sorts with the same keys).
//! Elements compare through one key type, so integers (exact to 64 bits), doubles, complex
//! numbers (by magnitude, then angle), text and whole rows all sort the same way.

use super::{Builtin, b, bad_arg, sort_keys, split_flags};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::class::Class;
use crate::values::containers::{CellArray, StrArray};
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;
use std::cmp::Ordering;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("unique", 1, 4, 3, "unique(A), unique(A, 'rows'|'stable'|'last'), [C, ia, ic] = unique(...): unique values.", unique),
        b("ismember", 2, 3, 2, "ismember(A, S), ismember(A, S, 'rows'), [tf, loc] = ismember(...): membership.", ismember),
        b("setdiff", 2, 4, 2, "setdiff(A, B), setdiff(A, B, 'rows'|'stable'): values of A not in B.", setdiff),
        b("intersect", 2, 4, 3, "intersect(A, B), [C, ia, ib] = intersect(...): values in both A and B.", intersect),
        b("union", 2, 4, 3, "union(A, B): values in A or B.", union),
        b("setxor", 2, 4, 3, "setxor(A, B): values in exactly one of A and B.", setxor),
    ]
}

#[derive(Clone, Debug)]
pub(super) enum Key {
    Int(i128),
    Num(f64),
    Cplx(f64, f64),
    Text(String),
    Row(Vec<Key>),
}

impl Key {
    fn is_nan(&self) -> bool {
        match self {
            Key::Num(x) => x.is_nan(),
            Key::Cplx(r, i) => r.is_nan() || i.is_nan(),
            Key::Row(v) => v.iter().any(|k| k.is_nan()),
            _ => false,
        }
    }
}

fn num_cmp(x: f64, y: f64) -> Ordering {
    match (x.is_nan(), y.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        _ => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
    }
}

/// Total order used by sorting and sets (NaN after everything).
pub(super) fn key_cmp(a: &Key, b: &Key) -> Ordering {
    match (a, b) {
        (Key::Int(x), Key::Int(y)) => x.cmp(y),
        (Key::Num(x), Key::Num(y)) => num_cmp(*x, *y),
        (Key::Int(x), Key::Num(y)) => {
            num_cmp(*x as f64, *y).then(if y.fract() == 0.0 && y.is_finite() {
                x.cmp(&(*y as i128))
            } else {
                Ordering::Equal
            })
        }
        (Key::Num(_), Key::Int(_)) => key_cmp(b, a).reverse(),
        (Key::Cplx(ar, ai), Key::Cplx(br, bi)) => {
            let (ma, mb) = (ar.hypot(*ai), br.hypot(*bi));
            num_cmp(ma, mb).then(num_cmp(ai.atan2(*ar), bi.atan2(*br)))
        }
        (Key::Text(x), Key::Text(y)) => x.cmp(y),
        // texts and rows sort after numbers (before the complex promotions, which would
        // otherwise recurse forever on a text)
        (Key::Text(_), _) => Ordering::Greater,
        (_, Key::Text(_)) => Ordering::Less,
        (Key::Cplx(..), Key::Int(_) | Key::Num(_)) => key_cmp(a, &as_cplx(b)),
        (Key::Int(_) | Key::Num(_), Key::Cplx(..)) => key_cmp(&as_cplx(a), b),
        (Key::Row(x), Key::Row(y)) => {
            for (p, q) in x.iter().zip(y) {
                let o = key_cmp(p, q);
                if o != Ordering::Equal {
                    return o;
                }
            }
            x.len().cmp(&y.len())
        }
        (Key::Row(_), _) => Ordering::Greater,
        (_, Key::Row(_)) => Ordering::Less,
    }
}

fn as_cplx(k: &Key) -> Key {
    match k {
        Key::Int(x) => Key::Cplx(*x as f64, 0.0),
        Key::Num(x) => Key::Cplx(*x, 0.0),
        other => other.clone(),
    }
}

/// Equality for sets: NaN is never equal to anything.
fn key_eq(a: &Key, b: &Key) -> bool {
    !a.is_nan() && !b.is_nan() && key_cmp(a, b) == Ordering::Equal
}

fn text_list(c: &CellArray) -> MResult<Vec<String>> {
    c.data
        .iter()
        .map(|v| {
            crate::interp::interrupt::poll();
            v.text().map_err(|_| {
                MError::new(
                    "MATLAB:sort:InputType",
                    "Only cell arrays of character vectors can be sorted.",
                )
            })
        })
        .collect()
}

/// The keys of a value's elements (or rows, with `rows`).
pub(super) fn keys_of(v: &Value, rows: bool) -> MResult<Vec<Key>> {
    let elems: Vec<Key> = match v {
        Value::Cell(c) => text_list(c)?.into_iter().map(Key::Text).collect(),
        Value::Str(s) => s
            .data
            .iter()
            .inspect(|_| crate::interp::interrupt::poll())
            .cloned()
            .map(Key::Text)
            .collect(),
        v if v.is_numeric_like() => {
            let t = v.tensor()?;
            let mut tick = crate::interp::interrupt::Ticker::new();
            if t.is_complex() {
                t.to_c64()
                    .iter()
                    .map(|z| {
                        tick.tick();
                        Key::Cplx(z.re, z.im)
                    })
                    .collect()
            } else if let Some(ints) = t.data.as_i128() {
                ints.into_iter()
                    .map(|i| {
                        tick.tick();
                        Key::Int(i)
                    })
                    .collect()
            } else {
                t.to_f64()
                    .iter()
                    .map(|&x| {
                        tick.tick();
                        Key::Num(x)
                    })
                    .collect()
            }
        }
        other => {
            return Err(bad_arg(
                "unique",
                format!("Sets of {} values are not supported.", other.class_name()),
            ));
        }
    };
    if !rows {
        return Ok(elems);
    }
    let s = v.shape();
    if s.ndims() > 2 {
        return Err(bad_arg("unique", "'rows' needs a 2-D matrix."));
    }
    let (r, c) = (s.rows(), s.cols());
    let mut tick = crate::interp::interrupt::Ticker::new();
    Ok((0..r)
        .map(|i| {
            tick.add(c);
            Key::Row((0..c).map(|j| elems[i + j * r].clone()).collect())
        })
        .collect())
}

/// Builds a value of the same kind as `like` from element keys, in `shape`.
fn from_keys(like: &Value, keys: &[Key], shape: Shape) -> Value {
    let flat: Vec<Key> = keys
        .iter()
        .inspect(|_| crate::interp::interrupt::poll())
        .flat_map(|k| match k {
            Key::Row(v) => v.clone(),
            other => vec![other.clone()],
        })
        .collect();
    // rows come out row-major: transpose into column-major storage
    let flat = if matches!(keys.first(), Some(Key::Row(_))) {
        let (r, c) = (shape.rows(), shape.cols());
        let mut cm = vec![Key::Num(0.0); r * c];
        for i in 0..r {
            for j in 0..c {
                cm[i + j * r] = flat[i * c + j].clone();
            }
        }
        cm
    } else {
        flat
    };
    match like {
        Value::Cell(_) => Value::from(CellArray::new(
            shape,
            flat.into_iter()
                .map(|k| {
                    crate::interp::interrupt::poll();
                    if let Key::Text(s) = k {
                        Value::str(&s)
                    } else {
                        Value::empty()
                    }
                })
                .collect(),
        )),
        Value::Str(_) => Value::from(StrArray::new(
            shape,
            flat.into_iter()
                .map(|k| {
                    if let Key::Text(s) = k {
                        s
                    } else {
                        String::new()
                    }
                })
                .collect(),
        )),
        v => {
            let cls = v.num_class().unwrap_or(Class::Double);
            let data = if flat.iter().any(|k| matches!(k, Key::Cplx(..))) {
                let z: Vec<num_complex::Complex64> = flat
                    .iter()
                    .map(|k| match k {
                        Key::Cplx(r, i) => num_complex::Complex64::new(*r, *i),
                        Key::Num(x) => num_complex::Complex64::new(*x, 0.0),
                        Key::Int(x) => num_complex::Complex64::new(*x as f64, 0.0),
                        _ => num_complex::Complex64::new(0.0, 0.0),
                    })
                    .collect();
                Data::from_c64(cls, z)
            } else if cls.is_int() {
                Data::from_i128(
                    cls,
                    flat.iter().map(|k| match k {
                        Key::Int(x) => *x,
                        Key::Num(x) => *x as i128,
                        _ => 0,
                    }),
                )
            } else {
                Data::from_f64(
                    cls,
                    flat.iter()
                        .map(|k| match k {
                            Key::Num(x) => *x,
                            Key::Int(x) => *x as f64,
                            _ => 0.0,
                        })
                        .collect(),
                )
            };
            Value::from(Tensor::new(shape, data))
        }
    }
}

/// Shape of a set result holding `n` elements (or rows of `width`).
fn result_shape(a: &Value, n: usize, rows: bool, width: usize, force_col: bool) -> Shape {
    if rows {
        Shape::matrix(n, width)
    } else if force_col
        || (!a.shape().is_row() && a.numel() > 0)
        || matches!(a, Value::Cell(_)) && !a.shape().is_row()
    {
        Shape::col(n)
    } else {
        Shape::row(n)
    }
}

struct SetOpts {
    rows: bool,
    stable: bool,
    last: bool,
}

fn set_opts(flags: &[String], name: &str) -> MResult<SetOpts> {
    let mut o = SetOpts {
        rows: false,
        stable: false,
        last: false,
    };
    for f in flags {
        match f.as_str() {
            "rows" => o.rows = true,
            "stable" => o.stable = true,
            "sorted" => o.stable = false,
            "last" => o.last = true,
            "first" | "legacy" => {}
            other => return Err(bad_arg(name, format!("Unrecognized option '{other}'."))),
        }
    }
    Ok(o)
}

fn width_of(v: &Value) -> usize {
    v.shape().cols()
}

fn unique(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let (pos, flags) = split_flags(a);
    let o = set_opts(&flags, "unique")?;
    if !o.rows {
        if let Some(keys) = sort_keys::real_keys(&pos[0]) {
            return unique_real(&pos[0], &keys, &o, nargout);
        }
    }
    let keys = keys_of(&pos[0], o.rows)?;
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by(|&i, &j| {
        crate::interp::interrupt::poll();
        key_cmp(&keys[i], &keys[j]).then(i.cmp(&j))
    });
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &i in &order {
        match groups.last_mut() {
            Some(g) if key_eq(&keys[g[0]], &keys[i]) => g.push(i),
            _ => groups.push(vec![i]),
        }
    }
    if o.stable {
        groups.sort_by_key(|g| *g.iter().min().unwrap_or(&0));
    }
    let uniq: Vec<Key> = groups.iter().map(|g| keys[g[0]].clone()).collect();
    let shape = result_shape(&pos[0], uniq.len(), o.rows, width_of(&pos[0]), false);
    let mut out = vec![from_keys(&pos[0], &uniq, shape)];
    if nargout > 1 {
        let ia: Vec<f64> = groups
            .iter()
            .map(|g| {
                (if o.last {
                    *g.iter().max().unwrap_or(&0)
                } else {
                    *g.iter().min().unwrap_or(&0)
                } + 1) as f64
            })
            .collect();
        out.push(Value::col(ia));
    }
    if nargout > 2 {
        let mut ic = vec![0.0; keys.len()];
        for (gi, g) in groups.iter().enumerate() {
            for &i in g {
                ic[i] = (gi + 1) as f64;
            }
        }
        out.push(Value::col(ic));
    }
    Ok(out)
}

fn ismember(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    // text sets and numbers do not mix
    let texty = |v: &Value| matches!(v, Value::Cell(_) | Value::Str(_));
    let numeric = |v: &Value| v.is_numeric_like() && !v.is_char();
    if (texty(&a[0]) && numeric(&a[1])) || (numeric(&a[0]) && texty(&a[1])) {
        return Err(MError::new(
            "MATLAB:ISMEMBER:InputClass",
            format!(
                "Input A of class {} and input B of class {} must be cell arrays of character vectors, unless one is a character vector.",
                a[0].class_name(),
                a[1].class_name()
            ),
        ));
    }
    let rows = match a.get(2) {
        Some(v) => v.text()? == "rows",
        None => false,
    };
    if !rows && numeric(&a[0]) && numeric(&a[1]) {
        if let Some(r) = super::set_table::ismember(&a[0], &a[1], nargout) {
            return r;
        }
    }
    // one text against a cell of texts is a scalar question
    let scalar_text = a[0].is_text() && matches!(a[1], Value::Cell(_) | Value::Str(_)) && !rows;
    if !rows && !scalar_text {
        if let (Some(ka), Some(ks)) = (sort_keys::real_keys(&a[0]), sort_keys::real_keys(&a[1])) {
            return ismember_real(&a[0], &ka, &ks, nargout);
        }
    }
    let ka = if scalar_text {
        vec![Key::Text(a[0].text()?)]
    } else {
        keys_of(&a[0], rows)?
    };
    let ks = keys_of(&a[1], rows)?;
    let mut sorted: Vec<usize> = (0..ks.len()).collect();
    sorted.sort_by(|&i, &j| {
        crate::interp::interrupt::poll();
        key_cmp(&ks[i], &ks[j]).then(i.cmp(&j))
    });
    let mut tf = Vec::with_capacity(ka.len());
    let mut loc = Vec::with_capacity(ka.len());
    for k in &ka {
        // binary search for the lowest index among equal keys
        let p = sorted.partition_point(|&i| key_cmp(&ks[i], k) == Ordering::Less);
        match sorted.get(p) {
            Some(&i) if key_eq(&ks[i], k) => {
                tf.push(true);
                loc.push((i + 1) as f64);
            }
            _ => {
                tf.push(false);
                loc.push(0.0);
            }
        }
    }
    let shape = if scalar_text {
        Shape::scalar()
    } else if rows {
        Shape::col(ka.len())
    } else {
        a[0].shape()
    };
    let mut out = vec![Value::from(Tensor::bools(shape.clone(), tf))];
    if nargout > 1 {
        out.push(Value::from(Tensor::f64(shape, loc)));
    }
    Ok(out)
}

#[derive(Clone, Copy, PartialEq)]
enum SetOp {
    Diff,
    Intersect,
    Union,
    Xor,
}

fn set_op(a: A, op: SetOp, nargout: usize, name: &str) -> R {
    let (pos, flags) = split_flags(a);
    if pos.len() < 2 {
        return Err(crate::interp::error::errors::not_enough_inputs(name));
    }
    let o = set_opts(&flags, name)?;
    if op == SetOp::Intersect && !o.rows {
        if let Some(out) = super::set_table::intersect_sorted(&pos, o.stable, nargout) {
            return Ok(out);
        }
    }
    let ka = keys_of(&pos[0], o.rows)?;
    let kb = keys_of(&pos[1], o.rows)?;
    // membership by binary search in each side's sorted order (equal keys by position)
    let sorted = |ks: &[Key]| {
        let mut o: Vec<usize> = (0..ks.len()).collect();
        o.sort_by(|&i, &j| {
            crate::interp::interrupt::poll();
            key_cmp(&ks[i], &ks[j]).then(i.cmp(&j))
        });
        o
    };
    let (sa, sb) = (sorted(&ka), sorted(&kb));
    let find = |set: &[Key], order: &[usize], k: &Key| -> Option<usize> {
        let p = order.partition_point(|&i| key_cmp(&set[i], k) == Ordering::Less);
        order.get(p).copied().filter(|&i| key_eq(&set[i], k))
    };
    let member = |set: &[Key], k: &Key| {
        let order = if std::ptr::eq(set, kb.as_slice()) {
            &sb
        } else {
            &sa
        };
        find(set, order, k).is_some()
    };
    // candidates with their origin (false: A, true: B) and index
    let mut picked: Vec<(Key, bool, usize)> = Vec::new();
    let consider = |k: &Key, from_b: bool, i: usize, picked: &mut Vec<(Key, bool, usize)>| {
        let keep = match op {
            SetOp::Diff => !from_b && !member(&kb, k),
            SetOp::Intersect => !from_b && member(&kb, k),
            SetOp::Union => true,
            SetOp::Xor => {
                if from_b {
                    !member(&ka, k)
                } else {
                    !member(&kb, k)
                }
            }
        };
        if keep {
            picked.push((k.clone(), from_b, i));
        }
    };
    for (i, k) in ka.iter().enumerate() {
        consider(k, false, i, &mut picked);
    }
    if matches!(op, SetOp::Union | SetOp::Xor) {
        for (i, k) in kb.iter().enumerate() {
            consider(k, true, i, &mut picked);
        }
    }
    // each key once, at its first candidate (NaNs are all distinct): a stable sort by key
    // keeps the first of equal keys in front
    picked.sort_by(|x, y| key_cmp(&x.0, &y.0));
    picked.dedup_by(|later, first| key_eq(&first.0, &later.0));
    if o.stable {
        picked.sort_by_key(|p| (p.1, p.2));
    }
    let keys: Vec<Key> = picked.iter().map(|p| p.0.clone()).collect();
    // a row result only when both inputs are rows (or one is a row and the other scalar/empty)
    let is_row = |v: &Value| v.shape().is_row() || v.numel() <= 1 && !v.shape().is_col();
    let row = is_row(&pos[0]) && is_row(&pos[1])
        || (op == SetOp::Diff || op == SetOp::Intersect)
            && pos[0].shape().is_row()
            && pos[0].numel() > 1;
    let n = keys.len();
    let shape = if o.rows {
        Shape::matrix(n, width_of(&pos[0]))
    } else if row {
        Shape::row(n)
    } else {
        Shape::col(n)
    };
    let mut out = vec![from_keys(&pos[0], &keys, shape)];
    let from = |b: bool| -> Value {
        Value::col(
            picked
                .iter()
                .filter(|p| p.1 == b)
                .map(|p| (p.2 + 1) as f64)
                .collect(),
        )
    };
    if nargout > 1 {
        // union and setxor: C is A(ia) together with B(ib); the others index A for all of C
        out.push(from(false));
    }
    if nargout > 2 {
        if matches!(op, SetOp::Union | SetOp::Xor) {
            out.push(from(true));
        } else {
            out.push(Value::col(
                picked
                    .iter()
                    .map(|p| find(&kb, &sb, &p.0).map(|i| (i + 1) as f64).unwrap_or(0.0))
                    .collect(),
            ));
        }
    }
    Ok(out)
}

fn setdiff(_: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    set_op(a, SetOp::Diff, n, "setdiff")
}
fn intersect(_: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    set_op(a, SetOp::Intersect, n, "intersect")
}
fn union(_: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    set_op(a, SetOp::Union, n, "union")
}
fn setxor(_: &mut Interp, _: &mut Frame, a: A, n: usize) -> R {
    set_op(a, SetOp::Xor, n, "setxor")
}

/// unique of a real array by typed keys: one radix sort, groups of equal keys.
fn unique_real(v: &Value, keys: &[u64], o: &SetOpts, nargout: usize) -> R {
    let order = sort_keys::order(keys);
    // groups as ranges of `order`; NaNs are each their own group
    let mut groups: Vec<(usize, usize)> = Vec::new();
    let mut s = 0;
    while s < order.len() {
        crate::interp::interrupt::poll();
        let k = keys[order[s]];
        let mut e = s + 1;
        if k != sort_keys::NAN_KEY {
            while e < order.len() && keys[order[e]] == k {
                e += 1;
            }
        }
        groups.push((s, e));
        s = e;
    }
    // the stable sort leaves each group's first position in front, its last at the back
    if o.stable {
        groups.sort_by_key(|g| order[g.0]);
    }
    let firsts: Vec<usize> = groups.iter().map(|g| order[g.0]).collect();
    let shape = result_shape(v, groups.len(), false, width_of(v), false);
    let mut out = vec![crate::values::ops::shape_ops::gather_value(
        v, &firsts, shape,
    )?];
    if nargout > 1 {
        let ia = groups
            .iter()
            .map(|g| (if o.last { order[g.1 - 1] } else { order[g.0] } + 1) as f64);
        out.push(Value::col(ia.collect()));
    }
    if nargout > 2 {
        let mut ic = vec![0.0; keys.len()];
        for (gi, g) in groups.iter().enumerate() {
            for &i in &order[g.0..g.1] {
                ic[i] = (gi + 1) as f64;
            }
        }
        out.push(Value::col(ic));
    }
    Ok(out)
}

/// ismember of real arrays by typed keys: both sides sorted, then one merge.
fn ismember_real(a: &Value, ka: &[u64], ks: &[u64], nargout: usize) -> R {
    let (oa, os) = (sort_keys::order(ka), sort_keys::order(ks));
    let mut tf = vec![false; ka.len()];
    let mut loc = vec![0.0; ka.len()];
    let mut j = 0;
    for &p in &oa {
        crate::interp::interrupt::poll();
        let k = ka[p];
        if k == sort_keys::NAN_KEY {
            break;
        }
        while j < os.len() && ks[os[j]] < k {
            j += 1;
        }
        // the first of equal keys in S is its lowest position (the sort is stable)
        if let Some(&q) = os.get(j).filter(|&&q| ks[q] == k) {
            tf[p] = true;
            loc[p] = (q + 1) as f64;
        }
    }
    let shape = a.shape();
    let mut out = vec![Value::from(Tensor::bools(shape.clone(), tf))];
    if nargout > 1 {
        out.push(Value::from(Tensor::f64(shape, loc)));
    }
    Ok(out)
}
