//! Concatenation: `[a, b; c, d]`, `cat`, `horzcat`, `vertcat` for every kind of array.

use crate::interp::error::{MError, MResult};
use crate::values::class::{self, Class};
use crate::values::containers::{CellArray, StrArray, StructArray};
use crate::values::shape::Shape;
use crate::values::strings::to_string_array;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;

fn mismatch(_dim: usize) -> MError {
    MError::new(
        "MATLAB:catenate:dimensionMismatch",
        "Dimensions of arrays being concatenated are not consistent.",
    )
}

/// Output shape of concatenating `shapes` along `dim`, skipping empty arrays as MATLAB does.
/// Returns the shape and which parts take part.
fn cat_shape(shapes: &[Shape], dim: usize) -> MResult<(Shape, Vec<usize>)> {
    let nonempty: Vec<usize> = (0..shapes.len())
        .filter(|&i| shapes[i].numel() > 0)
        .collect();
    let parts: Vec<usize> = if nonempty.is_empty() {
        // all empty: keep those that are not 0x0, if their other dimensions agree
        let not00: Vec<usize> = (0..shapes.len())
            .filter(|&i| shapes[i].dims() != [0, 0])
            .collect();
        if not00.is_empty() {
            return Ok((shapes.first().cloned().unwrap_or_else(Shape::empty), vec![]));
        }
        not00
    } else {
        nonempty
    };
    let first = &shapes[parts[0]];
    let nd = parts
        .iter()
        .map(|&i| shapes[i].ndims())
        .max()
        .unwrap_or(2)
        .max(dim + 1);
    let mut out: Vec<usize> = (0..nd).map(|d| first.dim(d)).collect();
    out[dim] = 0;
    for &i in &parts {
        let s = &shapes[i];
        for d in 0..nd {
            if d != dim && s.dim(d) != first.dim(d) {
                if shapes.iter().all(|s| s.numel() == 0) {
                    return Ok((Shape::empty(), vec![]));
                }
                return Err(mismatch(dim));
            }
        }
        out[dim] += s.dim(dim);
    }
    Ok((Shape::new(&out), parts))
}

/// Positions of each part's elements in the output, in the part's column-major order.
fn cat_positions(shapes: &[&Shape], out: &Shape, dim: usize) -> Vec<Vec<usize>> {
    let inner: usize = out.dims()[..dim.min(out.ndims())].iter().product();
    let outer: usize = (dim + 1..out.ndims().max(dim + 1))
        .map(|d| out.dim(d))
        .product();
    let out_block = inner * out.dim(dim);
    let mut offset = 0;
    let mut res = Vec::with_capacity(shapes.len());
    for s in shapes {
        let block = inner * s.dim(dim);
        let mut pos = Vec::with_capacity(block * outer);
        for o in 0..outer {
            let base = o * out_block + offset;
            pos.extend(base..base + block);
        }
        offset += block;
        res.push(pos);
    }
    res
}

/// Concatenates values along `dim` (0 = vertical, 1 = horizontal, 2 = pages...).
pub fn cat(dim: usize, vals: &[Value]) -> MResult<Value> {
    if vals.len() == 1 {
        return Ok(vals[0].clone());
    }
    if vals.iter().any(crate::dates::is_time) {
        return crate::dates::array::concat(dim, vals);
    }
    if let Some(r) = crate::graphics::handle_ops::concat(dim, vals) {
        return r;
    }
    if vals.iter().any(|v| matches!(v, Value::Cell(_))) {
        let cells: Vec<CellArray> = vals
            .iter()
            .filter(|v| !(v.is_numeric_like() && v.shape().dims() == [0, 0]))
            .map(|v| match v {
                Value::Cell(c) => (**c).clone(),
                other => CellArray::new(Shape::scalar(), vec![other.clone()]),
            })
            .collect();
        let shapes: Vec<Shape> = cells.iter().map(|c| c.shape.clone()).collect();
        let (out, parts) = cat_shape(&shapes, dim)?;
        let refs: Vec<&Shape> = parts.iter().map(|&i| &shapes[i]).collect();
        let pos = cat_positions(&refs, &out, dim);
        let mut data = vec![Value::empty(); out.numel()];
        for (k, &i) in parts.iter().enumerate() {
            for (j, &p) in pos[k].iter().enumerate() {
                data[p] = cells[i].data[j].clone();
            }
        }
        return Ok(Value::from(CellArray::new(out, data)));
    }
    if vals.iter().any(|v| v.is_string()) {
        let strs: Vec<StrArray> = vals.iter().map(to_string_array).collect::<MResult<_>>()?;
        let shapes: Vec<Shape> = strs.iter().map(|s| s.shape.clone()).collect();
        let (out, parts) = cat_shape(&shapes, dim)?;
        let refs: Vec<&Shape> = parts.iter().map(|&i| &shapes[i]).collect();
        let pos = cat_positions(&refs, &out, dim);
        let mut data = vec![String::new(); out.numel()];
        for (k, &i) in parts.iter().enumerate() {
            for (j, &p) in pos[k].iter().enumerate() {
                data[p] = strs[i].data[j].clone();
            }
        }
        return Ok(Value::from(StrArray::new(out, data)));
    }
    if vals.iter().any(|v| matches!(v, Value::Struct(_))) {
        return cat_structs(dim, vals);
    }
    if let Some(bad) = vals.iter().find(|v| !v.is_numeric_like()) {
        return Err(MError::new(
            "MATLAB:catenate:unsupported",
            format!(
                "Concatenation of values of class {} is not supported.",
                bad.class_name()
            ),
        ));
    }
    let tensors: Vec<std::borrow::Cow<Tensor>> = vals
        .iter()
        .map(|v| {
            crate::interp::interrupt::poll();
            v.tensor()
        })
        .collect::<MResult<_>>()?;
    let shapes: Vec<Shape> = tensors.iter().map(|t| t.shape.clone()).collect();
    let (out, parts) = cat_shape(&shapes, dim)?;
    let classes: Vec<Class> = tensors.iter().map(|t| t.class()).collect();
    let cls = class::concat_result(&classes);
    let complex = tensors.iter().any(|t| t.is_complex());
    if complex && cls.is_int() {
        return Err(crate::values::access::complex_integer());
    }
    crate::values::limits::check_dims(out.dims(), 8)?;
    // Each part gives the result one block of inner x its length along `dim` per outer
    // index: the result is those blocks in turn, copied a chunk at a time with a look at
    // Ctrl-C between chunks (no position list: 3e7 positions per part were seconds).
    let inner: usize = out.dims()[..dim.min(out.ndims())].iter().product();
    let outer: usize = (dim + 1..out.ndims().max(dim + 1))
        .map(|d| out.dim(d))
        .product();
    let mut converted: Vec<std::borrow::Cow<Data>> = Vec::with_capacity(parts.len());
    let mut blocks = Vec::with_capacity(parts.len());
    for &i in &parts {
        let t = &tensors[i];
        blocks.push(inner * shapes[i].dim(dim));
        if t.class() == cls && t.is_complex() == complex {
            converted.push(std::borrow::Cow::Borrowed(&t.data));
            continue;
        }
        let mut part = t.cast(cls);
        if complex && !part.is_complex() {
            part = Tensor::new(
                part.shape.clone(),
                Data::from_c64(cls, part.to_c64().into_owned()),
            );
        }
        converted.push(std::borrow::Cow::Owned(part.data));
    }
    let refs: Vec<&Data> = converted.iter().map(|d| d.as_ref()).collect();
    match interleave(&refs, &blocks, outer, out.numel()) {
        Some(data) if data.len() == out.numel() => Ok(Value::from(Tensor::new(out, data))),
        _ if parts.is_empty() => Ok(Value::from(Tensor::zeros(cls, out))),
        _ => Err(MError::new(
            "matfuse:internal",
            "Concatenated parts did not fill the result.",
        )),
    }
}

/// The blocks of `parts` (all of one kind of data), `blocks[k]` elements of part k for each
/// of `outer` turns, one after another; None when the parts differ in kind or length.
fn interleave(parts: &[&Data], blocks: &[usize], outer: usize, total: usize) -> Option<Data> {
    use crate::interp::interrupt::{CHUNK, Ticker};
    macro_rules! go {
        ($($v:ident),*) => {
            match parts.first()? {
                $( Data::$v(_) => {
                    let mut out = Vec::with_capacity(total);
                    let mut tick = Ticker::new();
                    for o in 0..outer {
                        for (d, &b) in parts.iter().zip(blocks) {
                            let Data::$v(src) = d else { return None };
                            for chunk in src.get(o * b..(o + 1) * b)?.chunks(CHUNK) {
                                tick.add(chunk.len());
                                out.extend_from_slice(chunk);
                            }
                        }
                    }
                    Some(Data::$v(out))
                } )*
            }
        };
    }
    go!(
        F64, F32, C64, C32, I8, I16, I32, I64, U8, U16, U32, U64, Bool, Char
    )
}

fn cat_structs(dim: usize, vals: &[Value]) -> MResult<Value> {
    let mut structs = Vec::new();
    for v in vals {
        match v {
            Value::Struct(s) => structs.push((**s).clone()),
            v if v.is_numeric_like() && v.is_empty() => {}
            other => {
                return Err(MError::new(
                    "MATLAB:catenate:structAndNonStruct",
                    format!(
                        "Concatenation of struct with {} is not supported.",
                        other.class_name()
                    ),
                ));
            }
        }
    }
    let fields = structs[0].fields.clone();
    for s in &structs {
        let mut a = s.fields.clone();
        let mut b = fields.clone();
        a.sort();
        b.sort();
        if a != b {
            return Err(MError::new(
                "MATLAB:catenate:structFieldBad",
                "Concatenation of structures requires that they have the same field names.",
            ));
        }
    }
    let shapes: Vec<Shape> = structs.iter().map(|s| s.shape.clone()).collect();
    let (out, parts) = cat_shape(&shapes, dim)?;
    let refs: Vec<&Shape> = parts.iter().map(|&i| &shapes[i]).collect();
    let pos = cat_positions(&refs, &out, dim);
    let mut elems = vec![vec![]; out.numel()];
    for (k, &i) in parts.iter().enumerate() {
        let s = &structs[i];
        let order: Vec<usize> = fields
            .iter()
            .map(|f| s.field_index(f).unwrap_or(0))
            .collect();
        for (j, &p) in pos[k].iter().enumerate() {
            elems[p] = order.iter().map(|&f| s.elems[j][f].clone()).collect();
        }
    }
    Ok(Value::from(StructArray {
        shape: out,
        fields,
        elems,
    }))
}

/// `[a b; c d]`: each row concatenated horizontally, then the rows vertically.
pub fn matrix_literal(rows: Vec<Vec<Value>>) -> MResult<Value> {
    // a row that is an empty comma-separated list (`[c{:}]` with c = {}) contributes nothing
    let rows: Vec<Vec<Value>> = rows.into_iter().filter(|r| !r.is_empty()).collect();
    // fast path: all real double scalars
    let all_num = rows
        .iter()
        .all(|r| r.iter().all(|v| matches!(v, Value::Num(_))));
    if all_num && !rows.is_empty() {
        let nr = rows.len();
        let nc = rows[0].len();
        if rows.iter().all(|r| r.len() == nc) {
            let mut data = vec![0.0; nr * nc];
            for (i, r) in rows.iter().enumerate() {
                for (j, v) in r.iter().enumerate() {
                    if let Value::Num(x) = v {
                        data[i + j * nr] = *x;
                    }
                }
            }
            return Ok(Value::from(Tensor::f64(Shape::matrix(nr, nc), data)));
        }
    }
    if rows.is_empty() {
        return Ok(Value::empty());
    }
    let mut row_vals = Vec::with_capacity(rows.len());
    for r in rows {
        row_vals.push(if r.len() == 1 {
            r.into_iter().next().unwrap_or_else(Value::empty)
        } else {
            cat(1, &r)?
        });
    }
    if row_vals.len() == 1 {
        return Ok(row_vals.pop().unwrap_or_else(Value::empty));
    }
    // char rows of different lengths get a MATLAB-specific message
    cat(0, &row_vals)
}
