//! Cell arrays: cell cellfun arrayfun cell2mat num2cell deal.

use super::{Builtin, b, bad_arg, one, size_args, text_arg};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::containers::CellArray;
use crate::values::ops::{concat, shape_ops};
use crate::values::shape::Shape;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("cell", 0, -1, 1, "cell(m, n): a cell array of empty matrices.", cell),
        b("cellfun", 2, -1, 16, "cellfun(f, C, ..., 'UniformOutput', tf, 'ErrorHandler', h): apply f to each cell.", cellfun),
        b("arrayfun", 2, -1, 16, "arrayfun(f, A, ..., 'UniformOutput', tf): apply f to each element.", arrayfun),
        b("cell2mat", 1, 1, 1, "cell2mat(C): concatenate the contents of a cell array into a matrix.", cell2mat),
        b("num2cell", 1, 2, 1, "num2cell(A): put each element of A into its own cell.", num2cell),
        b("structfun", 2, -1, 16, "structfun(f, S, 'UniformOutput', tf): apply f to each field of a scalar struct.", structfun),
        b("mat2cell", 2, -1, 1, "mat2cell(A, r, c, ...): split A into blocks of r rows and c columns.", mat2cell),
        b("celldisp", 1, 2, 0, "celldisp(C, name): display each cell's contents as name{k}.", celldisp),
        b("deal", 1, -1, 64, "[a, b, ...] = deal(x, y, ...) or deal(x): copy inputs to outputs.", deal),
    ]
}

fn cell(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    if a.is_empty() {
        return one(CellArray::new(Shape::empty(), vec![]));
    }
    let sa = size_args(&a)?;
    crate::values::limits::check_dims(sa.shape.dims(), std::mem::size_of::<Value>())?;
    one(CellArray::empties(sa.shape))
}

struct MapOpts {
    uniform: bool,
    handler: Option<Value>,
}

/// Splits trailing 'UniformOutput'/'ErrorHandler' options from the data arguments.
fn map_opts(args: &[Value]) -> MResult<(Vec<Value>, MapOpts)> {
    let mut data = Vec::new();
    let mut opts = MapOpts {
        uniform: true,
        handler: None,
    };
    let mut i = 0;
    while i < args.len() {
        if let Ok(name) = args[i].text() {
            if i + 1 < args.len() && args[i].is_text() {
                // parameter names may be abbreviated ('Uni', 'Un')
                let key = name.to_lowercase();
                let is = |full: &str| key.len() >= 2 && full.starts_with(key.as_str());
                let key = if !data.is_empty() && is("uniformoutput") {
                    "uniformoutput"
                } else if !data.is_empty() && is("errorhandler") {
                    "errorhandler"
                } else {
                    ""
                };
                match key {
                    "uniformoutput" => {
                        opts.uniform = args[i + 1].truthy()?;
                        i += 2;
                        continue;
                    }
                    "errorhandler" => {
                        opts.handler = Some(args[i + 1].clone());
                        i += 2;
                        continue;
                    }
                    _ => {}
                }
            }
        }
        data.push(args[i].clone());
        i += 1;
    }
    Ok((data, opts))
}

/// The shared loop of cellfun/arrayfun: calls `f` on element k of every input, collecting
/// `nout` outputs, uniform (scalars concatenated) or in cells.
fn apply(
    interp: &mut Interp,
    frame: &mut Frame,
    f: &Value,
    inputs: Vec<Vec<Value>>,
    shape: Shape,
    opts: MapOpts,
    nargout: usize,
) -> R {
    let n = shape.numel();
    let nout = nargout.max(1);
    let mut outs: Vec<Vec<Value>> = vec![Vec::with_capacity(n); nout];
    for k in 0..n {
        crate::interp::interrupt::poll_now();
        let args: Vec<Value> = inputs.iter().map(|inp| inp[k].clone()).collect();
        // With no outputs requested the function is called for nothing (`cellfun(@disp, c)`);
        // whatever it returns anyway becomes `ans`.
        let want = nargout;
        let r = match interp.call_value(frame, f, args.clone(), want) {
            Ok(r) => r,
            Err(e) if !e.is_interrupt() && opts.handler.is_some() => {
                let h = opts.handler.clone().unwrap_or_else(Value::empty);
                let mut info = crate::values::containers::StructArray::scalar();
                info.set(0, "message", Value::str(e.message()));
                info.set(0, "identifier", Value::str(e.identifier()));
                info.set(0, "index", Value::Num((k + 1) as f64));
                let mut hargs = vec![Value::from(info)];
                hargs.extend(args);
                interp.call_value(frame, &h, hargs, want)?
            }
            Err(e) => return Err(e),
        };
        if r.len() < want && nargout > 0 {
            return Err(MError::new(
                "MATLAB:TooManyOutputs",
                "Too many output arguments.",
            ));
        }
        if nargout == 0 && r.is_empty() {
            continue;
        }
        for (j, v) in r.into_iter().take(nout).enumerate() {
            if opts.uniform && v.numel() != 1 {
                return Err(MError::new(
                    "MATLAB:cellfun:NotAScalarOutput",
                    format!(
                        "Non-scalar in Uniform output, at index {}, output {}. Set 'UniformOutput' to false.",
                        k + 1,
                        j + 1
                    ),
                ));
            }
            if opts.uniform && !(v.is_numeric_like() || matches!(v, Value::Struct(_))) {
                return Err(MError::new(
                    "MATLAB:cellfun:NotAScalarOutput",
                    format!(
                        "Uniform output must be numeric, logical or char; output {} at index {} is a {}. Set 'UniformOutput' to false.",
                        j + 1,
                        k + 1,
                        v.class_name()
                    ),
                ));
            }
            if opts.uniform {
                if let Some(first) = outs[j].first() {
                    if first.class_name() != v.class_name() {
                        return Err(MError::new(
                            "MATLAB:cellfun:MismatchInOutputTypes",
                            format!(
                                "Mismatch in type of outputs, at index {}, output {} ({} versus {}). Set 'UniformOutput' to false.",
                                k + 1,
                                j + 1,
                                v.class_name(),
                                first.class_name()
                            ),
                        ));
                    }
                }
            }
            outs[j].push(v);
        }
    }
    if nargout == 0 && outs[0].is_empty() {
        return Ok(vec![]);
    }
    outs.into_iter()
        .map(|vals| {
            if opts.uniform {
                if vals.is_empty() {
                    return Ok(Value::from(crate::values::tensor::Tensor::zeros(
                        crate::values::class::Class::Double,
                        shape.clone(),
                    )));
                }
                let row = concat::cat(1, &vals)?;
                let pos: Vec<usize> = (0..n).collect();
                shape_ops::gather_value(&row, &pos, shape.clone())
            } else {
                Ok(Value::from(CellArray::new(shape.clone(), vals)))
            }
        })
        .collect()
}

/// Function names cellfun accepts as text for speed and compatibility.
fn legacy_name(f: &Value) -> Option<String> {
    f.text().ok().filter(|n| {
        matches!(
            n.as_str(),
            "isempty"
                | "length"
                | "ndims"
                | "prodofsize"
                | "isreal"
                | "isclass"
                | "islogical"
                | "numel"
        )
    })
}

/// The two legacy forms that take an extra argument: cellfun('size', C, k) and
/// cellfun('isclass', C, name).
fn legacy_with_arg(a: &A) -> MResult<Option<Value>> {
    let (Some(name), Some(Value::Cell(c)), Some(arg)) = (
        a[0].text().ok().filter(|_| a[0].is_text()),
        a.get(1),
        a.get(2),
    ) else {
        return Ok(None);
    };
    match name.as_str() {
        "size" => {
            let k = arg.scalar_f64()?;
            if k < 1.0 || k.fract() != 0.0 {
                return Err(bad_arg(
                    "cellfun",
                    "The dimension must be a positive integer.",
                ));
            }
            let d = k as usize - 1;
            Ok(Some(Value::from(crate::values::tensor::Tensor::f64(
                c.shape.clone(),
                c.data.iter().map(|v| v.shape().dim(d) as f64).collect(),
            ))))
        }
        "isclass" => {
            let cls = text_arg(arg, "cellfun")?;
            Ok(Some(Value::from(crate::values::tensor::Tensor::bools(
                c.shape.clone(),
                c.data.iter().map(|v| v.class_name() == cls).collect(),
            ))))
        }
        _ => Ok(None),
    }
}

fn cellfun(interp: &mut Interp, frame: &mut Frame, a: A, nargout: usize) -> R {
    if a.len() == 3 {
        if let Some(v) = legacy_with_arg(&a)? {
            return one(v);
        }
    }
    let f = a[0].clone();
    let (data, opts) = map_opts(&a[1..])?;
    if data.is_empty() {
        return Err(bad_arg(
            "cellfun",
            "At least one cell array input is required.",
        ));
    }
    let mut inputs = Vec::new();
    let mut shape = None;
    for d in &data {
        let Value::Cell(c) = d else {
            return Err(MError::new(
                "MATLAB:cellfun:NotACell",
                "cellfun works only on cells.",
            ));
        };
        if let Some(s) = &shape {
            if *s != c.shape {
                return Err(MError::new(
                    "MATLAB:cellfun:AllInputsSameSize",
                    "All of the input arguments must be of the same size and shape.",
                ));
            }
        }
        shape = Some(c.shape.clone());
        inputs.push(c.data.clone());
    }
    let f = match legacy_name(&f) {
        Some(n) if n == "prodofsize" => Value::str("numel"),
        Some(n) => Value::str(&n),
        None => f,
    };
    apply(
        interp,
        frame,
        &f,
        inputs,
        shape.unwrap_or_else(Shape::empty),
        opts,
        nargout,
    )
}

fn arrayfun(interp: &mut Interp, frame: &mut Frame, a: A, nargout: usize) -> R {
    let f = a[0].clone();
    let (data, opts) = map_opts(&a[1..])?;
    let mut inputs = Vec::new();
    let mut shape = None;
    for d in &data {
        let s = d.shape();
        if let Some(prev) = &shape {
            if *prev != s {
                return Err(MError::new(
                    "MATLAB:arrayfun:AllInputsSameSize",
                    "All of the input arguments must be of the same size and shape.",
                ));
            }
        }
        let n = s.numel();
        let elems: Vec<Value> = (0..n)
            .map(|k| {
                crate::interp::interrupt::poll();
                shape_ops::gather_value(d, &[k], Shape::scalar())
            })
            .collect::<MResult<_>>()?;
        shape = Some(s);
        inputs.push(elems);
    }
    apply(
        interp,
        frame,
        &f,
        inputs,
        shape.unwrap_or_else(Shape::empty),
        opts,
        nargout,
    )
}

fn structfun(interp: &mut Interp, frame: &mut Frame, a: A, nargout: usize) -> R {
    let f = a[0].clone();
    let (data, opts) = map_opts(&a[1..])?;
    let s = match data.as_slice() {
        [Value::Struct(s)] if s.numel() == 1 => s.clone(),
        _ => {
            return Err(MError::new(
                "MATLAB:structfun:NotAScalarStructure",
                "Inputs to STRUCTFUN must be scalar structures.",
            ));
        }
    };
    let fields = s.fields.clone();
    let values: Vec<Value> = s.elems[0].clone();
    let uniform = opts.uniform;
    let outs = apply(
        interp,
        frame,
        &f,
        vec![values],
        Shape::col(fields.len()),
        opts,
        nargout,
    )?;
    if uniform {
        return Ok(outs);
    }
    // non-uniform results come back as a struct with the input's fields
    outs.into_iter()
        .map(|v| {
            let Value::Cell(c) = v else {
                return Ok(v);
            };
            let mut out = crate::values::containers::StructArray::scalar();
            for (name, x) in fields.iter().zip(c.data.iter()) {
                out.set(0, name, x.clone());
            }
            Ok(Value::from(out))
        })
        .collect()
}

fn mat2cell(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let x = &a[0];
    let shape = x.shape();
    let nd = (a.len() - 1).max(2);
    // block sizes along each dimension; a missing one takes the whole dimension
    let mut splits: Vec<Vec<usize>> = Vec::with_capacity(nd);
    for d in 0..nd {
        let sizes: Vec<usize> = match a.get(d + 1) {
            Some(v) => {
                let t = v.tensor()?;
                t.to_f64()
                    .iter()
                    .map(|&n| {
                        if n >= 0.0 && n.fract() == 0.0 {
                            Ok(n as usize)
                        } else {
                            Err(bad_arg(
                                "mat2cell",
                                "Block sizes must be nonnegative integers.",
                            ))
                        }
                    })
                    .collect::<MResult<_>>()?
            }
            None => vec![shape.dim(d)],
        };
        if sizes.iter().sum::<usize>() != shape.dim(d) {
            return Err(MError::new(
                "MATLAB:mat2cell:dimensionMismatch",
                format!(
                    "Input arguments, D1 through D{}, must sum to each dimension of the input matrix size, [{}].",
                    nd,
                    shape
                        .dims()
                        .iter()
                        .map(|d| d.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
            ));
        }
        splits.push(sizes);
    }
    let counts: Vec<usize> = splits.iter().map(|s| s.len()).collect();
    let out_shape = Shape::new(&counts);
    let total = out_shape.numel();
    let mut cells = Vec::with_capacity(total);
    for k in 0..total {
        // the block's position along each dimension, column-major
        let mut rem = k;
        let mut subs = Vec::with_capacity(nd);
        for (d, sizes) in splits.iter().enumerate() {
            let j = rem % counts[d];
            rem /= counts[d];
            let start: usize = sizes[..j].iter().sum();
            let idx: Vec<f64> = (start..start + sizes[j]).map(|i| (i + 1) as f64).collect();
            subs.push(Value::row(idx));
        }
        cells.push(crate::values::access::paren(x, &subs)?);
    }
    one(CellArray::new(out_shape, cells))
}

fn celldisp(interp: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let Value::Cell(c) = &a[0] else {
        return Err(bad_arg("celldisp", "Input must be a cell array."));
    };
    let name = match a.get(1) {
        Some(v) => text_arg(v, "celldisp")?,
        None => "ans".to_string(),
    };
    celldisp_into(interp, c, &name, 0);
    Ok(vec![])
}

/// Shows each element of a cell under its label, going into nested cells (`c{2}{1}`).
fn celldisp_into(interp: &mut Interp, c: &CellArray, name: &str, depth: usize) {
    let vector = c.shape.ndims() == 2 && (c.shape.rows() == 1 || c.shape.cols() == 1);
    for (k, v) in c.data.iter().enumerate() {
        // vectors are labelled by position, matrices by subscripts
        let label = if vector {
            format!("{name}{{{}}}", k + 1)
        } else {
            let mut rem = k;
            let subs: Vec<String> = c
                .shape
                .dims()
                .iter()
                .map(|&d| {
                    let s = rem % d.max(1) + 1;
                    rem /= d.max(1);
                    s.to_string()
                })
                .collect();
            format!("{name}{{{}}}", subs.join(","))
        };
        match v {
            Value::Cell(inner) if depth < 64 && !inner.data.is_empty() => {
                celldisp_into(interp, inner, &label, depth + 1)
            }
            _ => interp.display(&label, v),
        }
    }
}

fn cell2mat(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let Value::Cell(c) = &a[0] else {
        return Err(MError::new(
            "MATLAB:cell2mat:WrongInputType",
            "cell2mat requires a cell array input.",
        ));
    };
    if c.data.is_empty() {
        return one(Value::empty());
    }
    if c.data.iter().any(|v| matches!(v, Value::Cell(_))) {
        return Err(MError::new(
            "MATLAB:cell2mat:UnsupportedCellContent",
            "Cannot support cell arrays containing cell arrays or objects.",
        ));
    }
    // MATLAB requires one class throughout
    let kind = |v: &Value| v.class_name();
    let first = kind(&c.data[0]);
    if c.data.iter().any(|v| kind(v) != first) {
        return Err(MError::new(
            "MATLAB:cell2mat:MixedDataTypes",
            "All contents of the input cell array must be of the same data type.",
        ));
    }
    let (r, cols) = (c.shape.rows(), c.shape.cols());
    let mut rows = Vec::with_capacity(r);
    for i in 0..r {
        crate::interp::interrupt::poll();
        let row: Vec<Value> = (0..cols).map(|j| c.data[i + j * r].clone()).collect();
        rows.push(concat::cat(1, &row)?);
    }
    one(concat::cat(0, &rows)?)
}

fn num2cell(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let v = &a[0];
    let s = v.shape();
    let Some(dims_arg) = a.get(1) else {
        let data: Vec<Value> = (0..s.numel())
            .map(|k| {
                crate::interp::interrupt::poll();
                shape_ops::gather_value(v, &[k], Shape::scalar())
            })
            .collect::<MResult<_>>()?;
        return one(CellArray::new(s, data));
    };
    // num2cell(A, dims): each cell holds the whole extent of A along `dims`
    let mut collapse = Vec::new();
    for d in dims_arg.tensor()?.to_f64().iter() {
        if *d < 1.0 || d.fract() != 0.0 {
            return Err(bad_arg("num2cell", "Dimensions must be positive integers."));
        }
        // collapsing a trailing singleton dimension changes nothing
        if (*d as usize) <= s.ndims() {
            collapse.push(*d as usize - 1);
        }
    }
    let nd = s.ndims();
    let full: Vec<usize> = (0..nd).map(|d| s.dim(d)).collect();
    let strides: Vec<usize> = (0..nd).map(|d| full[..d].iter().product()).collect();
    let outer: Vec<usize> = (0..nd)
        .map(|d| if collapse.contains(&d) { 1 } else { full[d] })
        .collect();
    let inner: Vec<usize> = (0..nd)
        .map(|d| if collapse.contains(&d) { full[d] } else { 1 })
        .collect();
    let (n_out, n_in) = (
        outer.iter().product::<usize>(),
        inner.iter().product::<usize>(),
    );
    let coords = |mut k: usize, ext: &[usize]| -> Vec<usize> {
        ext.iter()
            .map(|&e| {
                let c = k % e.max(1);
                k /= e.max(1);
                c
            })
            .collect()
    };
    let mut data = Vec::with_capacity(n_out);
    for o in 0..n_out {
        let oc = coords(o, &outer);
        let pos: Vec<usize> = (0..n_in)
            .map(|i| {
                let ic = coords(i, &inner);
                (0..nd).map(|d| (oc[d] + ic[d]) * strides[d]).sum()
            })
            .collect();
        data.push(shape_ops::gather_value(v, &pos, Shape::new(&inner))?);
    }
    one(CellArray::new(Shape::new(&outer), data))
}

fn deal(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    if nargout == 0 {
        // as a statement deal returns nothing (ans keeps its value)
        return Ok(vec![]);
    }
    let n = nargout;
    if a.len() == 1 {
        return Ok(vec![a[0].clone(); n]);
    }
    if a.len() != n {
        return Err(MError::new(
            "MATLAB:deal:narginNargoutMismatch",
            "The number of outputs should match the number of inputs.",
        ));
    }
    Ok(a)
}
