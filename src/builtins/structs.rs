//! Structs and maps: struct fieldnames isfield rmfield setfield getfield orderfields
//! struct2cell cell2struct, and containers.Map with keys/values/isKey/remove.

use super::{Builtin, b, bad_arg, one, text_arg};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::interp::objects;
use crate::values::containers::{CellArray, MapData, Object, StructArray};
use crate::values::shape::Shape;
use crate::values::value::Value;
use std::cell::RefCell;
use std::rc::Rc;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("struct", 0, -1, 1, "struct('f1', v1, 'f2', v2, ...): a struct (a struct array when values are cells).", struct_fn),
        b("fieldnames", 1, 1, 1, "fieldnames(S): the field names of a struct, as a column cell array.", fieldnames),
        b("isfield", 2, 2, 1, "isfield(S, name): true if the struct has the field (elementwise over a cell of names).", isfield),
        b("rmfield", 2, 2, 1, "rmfield(S, name): remove fields.", rmfield),
        b("setfield", 3, -1, 1, "setfield(S, name, value), setfield(S, {i}, name, ..., value): set a field along a path.", setfield),
        b("getfield", 2, -1, 1, "getfield(S, name), getfield(S, {i}, name, {j}, ...): a field's value along a path.", getfield),
        b("numfields", 1, 1, 1, "numfields(S): number of fields (0 for non-structs).", numfields),
        b("orderfields", 1, 2, 2, "orderfields(S): fields sorted by name.", orderfields),
        b("struct2cell", 1, 1, 1, "struct2cell(S): the field values as a cell array.", struct2cell),
        b("cell2struct", 2, 3, 1, "cell2struct(C, fields, dim): a struct from a cell array.", cell2struct),
        b("containers.Map", 0, -1, 1, "containers.Map(keys, values) or containers.Map('KeyType', kt, 'ValueType', vt): a key-value map (a handle object).", map_new),
        b("keys", 1, 1, 1, "keys(M): the keys of a containers.Map, sorted.", keys),
        b("values", 1, 2, 1, "values(M), values(M, keys): the values of a containers.Map.", values),
        b("isKey", 2, 2, 1, "isKey(M, key): true if the map has the key.", is_key),
        b("remove", 2, 2, 1, "remove(M, key): delete a key from the map.", remove),
    ]
}

fn struct_fn(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    if a.is_empty() {
        return one(StructArray::scalar());
    }
    if a.len() == 1 && a[0].is_empty() {
        return one(StructArray::empty_with(vec![], Shape::empty()));
    }
    if a.len() % 2 != 0 {
        return Err(MError::new(
            "MATLAB:struct:FieldAndValueMismatch",
            "Field and value input arguments must come in pairs.",
        ));
    }
    // cell values make a struct array of the cells' size; 1x1 cells give their content
    let mut shape: Option<Shape> = None;
    for pair in a.chunks(2) {
        if let Value::Cell(c) = &pair[1] {
            if c.data.len() != 1 {
                match &shape {
                    Some(s) if *s != c.shape => {
                        return Err(MError::new(
                            "MATLAB:struct:SizeMismatch",
                            "Array dimensions of input cells must match.",
                        ));
                    }
                    _ => shape = Some(c.shape.clone()),
                }
            }
        }
    }
    let shape = shape.unwrap_or_else(Shape::scalar);
    let n = shape.numel();
    // the fields in order of first mention (a repeated name takes its last value)
    let mut fields: Vec<String> = Vec::new();
    let mut source: Vec<&Value> = Vec::new();
    for pair in a.chunks(2) {
        let name = text_arg(&pair[0], "struct")?;
        if !is_valid_name(&name) {
            return Err(MError::new(
                "MATLAB:Cell2Struct:InvalidFieldName",
                format!("Invalid field name \"{name}\"."),
            ));
        }
        match fields.iter().position(|f| *f == name) {
            Some(k) => source[k] = &pair[1],
            None => {
                fields.push(name);
                source.push(&pair[1]);
            }
        }
    }
    // element by element, each built once, with a look at Ctrl-C every so many (a struct
    // array of 3e6 elements is a second)
    let mut tick = crate::interp::interrupt::Ticker::new();
    let mut elems = Vec::with_capacity(n);
    for i in 0..n {
        tick.add(16);
        elems.push(
            source
                .iter()
                .map(|v| match v {
                    Value::Cell(c) if c.data.len() == 1 => c.data[0].clone(),
                    Value::Cell(c) => c.data[i].clone(),
                    v => (*v).clone(),
                })
                .collect::<Vec<Value>>(),
        );
    }
    one(StructArray {
        shape,
        fields,
        elems,
    })
}

pub fn invalid_field_name(name: &str) -> MError {
    MError::new(
        "MATLAB:AddField:InvalidFieldName",
        format!("Invalid field name \"{name}\"."),
    )
}

pub fn is_valid_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && s.len() <= 63
}

fn the_struct<'a>(v: &'a Value, name: &str) -> MResult<&'a StructArray> {
    match v {
        Value::Struct(s) => Ok(s),
        other => Err(bad_arg(
            name,
            format!("Input must be a struct, not {}.", other.class_name()),
        )),
    }
}

fn fieldnames(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let names: Vec<String> = match &a[0] {
        Value::Struct(s) => s.fields.clone(),
        Value::Object(o) => match o.as_ref() {
            Object::Map(_) => vec!["Count".into(), "KeyType".into(), "ValueType".into()],
            Object::InputParser(_) => super::input_parser::PROPERTIES
                .iter()
                .map(|n| n.to_string())
                .collect(),
            Object::MException(_) => vec![
                "identifier".into(),
                "message".into(),
                "cause".into(),
                "stack".into(),
            ],
            Object::Time(t) => match t.kind {
                crate::dates::Kind::DateTime => [
                    "Format",
                    "TimeZone",
                    "Year",
                    "Month",
                    "Day",
                    "Hour",
                    "Minute",
                    "Second",
                    "SystemTimeZone",
                ]
                .iter()
                .map(|n| n.to_string())
                .collect(),
                _ => vec!["Format".into()],
            },
            Object::Graphics(h) => crate::graphics::handle::property_names(h),
        },
        other => {
            return Err(bad_arg(
                "fieldnames",
                format!(
                    "Invalid input argument of type '{}'. Input must be a structure or a Java or COM object.",
                    other.class_name()
                ),
            ));
        }
    };
    one(CellArray::col(
        names.iter().map(|n| Value::str(n)).collect(),
    ))
}

fn isfield(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let Value::Struct(s) = &a[0] else {
        return one(Value::Bool(false));
    };
    match &a[1] {
        Value::Cell(c) => one(crate::values::tensor::Tensor::bools(
            c.shape.clone(),
            c.data
                .iter()
                .map(|n| {
                    n.text()
                        .map(|t| s.field_index(&t).is_some())
                        .unwrap_or(false)
                })
                .collect(),
        )),
        v => one(Value::Bool(
            v.text()
                .map(|t| s.field_index(&t).is_some())
                .unwrap_or(false),
        )),
    }
}

fn rmfield(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let mut s = the_struct(&a[0], "rmfield")?.clone();
    let names: Vec<String> = match &a[1] {
        Value::Cell(c) => c.data.iter().map(|v| v.text()).collect::<MResult<_>>()?,
        v => vec![text_arg(v, "rmfield")?],
    };
    for n in names {
        let Some(k) = s.field_index(&n) else {
            return Err(MError::new(
                "MATLAB:rmfield:InvalidFieldname",
                format!("A field named '{n}' doesn't exist."),
            ));
        };
        s.fields.remove(k);
        for e in s.elems.iter_mut() {
            e.remove(k);
        }
    }
    one(s)
}

/// One step of a getfield/setfield path: a field name, or a cell of subscripts.
enum PathStep {
    Field(String),
    Index(Vec<Value>),
}

fn field_path(args: &[Value], name: &str) -> MResult<Vec<PathStep>> {
    args.iter()
        .map(|v| match v {
            Value::Cell(c) => Ok(PathStep::Index(c.data.clone())),
            v => Ok(PathStep::Field(text_arg(v, name)?)),
        })
        .collect()
}

/// `s.(f)` for getfield: the first element's field, as MATLAB's getfield does.
fn get_step(v: &Value, step: &PathStep) -> MResult<Value> {
    match step {
        PathStep::Index(subs) => crate::values::access::paren(v, subs),
        PathStep::Field(name) => match v {
            Value::Struct(s) => match s.elems.first().and_then(|_| s.get(0, name)) {
                Some(x) => Ok(x.clone()),
                None => Err(StructArray::missing_field(name)),
            },
            other => Err(MError::new(
                "MATLAB:structRefFromNonStruct",
                format!(
                    "Dot indexing is not supported for variables of this type ({}).",
                    other.class_name()
                ),
            )),
        },
    }
}

/// Assigns `rhs` at `path` inside `v` (which may be missing), building structs as needed.
fn set_path(v: Option<&Value>, path: &[PathStep], rhs: Value) -> MResult<Value> {
    let Some((step, rest)) = path.split_first() else {
        return Ok(rhs);
    };
    match step {
        PathStep::Field(name) => {
            let mut s = match v {
                Some(Value::Struct(s)) => (**s).clone(),
                None => StructArray::scalar(),
                Some(x) if x.is_empty() => StructArray::scalar(),
                Some(_) => return Err(bad_arg("setfield", "The first input must be a struct.")),
            };
            if s.numel() != 1 {
                return Err(bad_arg("setfield", "The struct must be scalar."));
            }
            let inner = s.get(0, name).cloned();
            let val = set_path(inner.as_ref(), rest, rhs)?;
            s.set(0, name, val);
            Ok(Value::from(s))
        }
        PathStep::Index(subs) => {
            let inner = match v {
                Some(x) if !rest.is_empty() => crate::values::access::paren(x, subs).ok(),
                _ => None,
            };
            let val = set_path(inner.as_ref(), rest, rhs)?;
            let mut target = v.cloned();
            crate::values::access::assign_paren(target.as_mut(), subs, val, false)
        }
    }
}

fn setfield(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    if a.len() < 3 {
        return Err(bad_arg("setfield", "Not enough input arguments."));
    }
    let path = field_path(&a[1..a.len() - 1], "setfield")?;
    for step in &path {
        if let PathStep::Field(n) = step {
            if !is_valid_name(n) {
                return Err(invalid_field_name(n));
            }
        }
    }
    let rhs = a[a.len() - 1].clone();
    one(set_path(Some(&a[0]), &path, rhs)?)
}

fn getfield(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let mut cur = a[0].clone();
    for step in field_path(&a[1..], "getfield")? {
        cur = get_step(&cur, &step)?;
    }
    one(cur)
}

fn numfields(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Num(match &a[0] {
        Value::Struct(s) => s.fields.len() as f64,
        _ => 0.0,
    }))
}

fn orderfields(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let s = the_struct(&a[0], "orderfields")?;
    let nf = s.fields.len();
    let bad = || {
        MError::new(
            "MATLAB:orderfields:InvalidOrder",
            "The second input must name or number every field of the first exactly once.",
        )
    };
    let order: Vec<usize> = match a.get(1) {
        None => {
            let mut order: Vec<usize> = (0..nf).collect();
            order.sort_by(|&x, &y| s.fields[x].cmp(&s.fields[y]));
            order
        }
        Some(spec) => {
            let names: Option<Vec<String>> = match spec {
                Value::Struct(o) => Some(o.fields.clone()),
                Value::Cell(c) => Some(c.data.iter().map(|v| v.text()).collect::<MResult<_>>()?),
                v if v.is_text() => Some(vec![v.text()?]),
                _ => None,
            };
            let order: Vec<usize> = match names {
                Some(names) => names
                    .iter()
                    .map(|n| s.field_index(n).ok_or_else(bad))
                    .collect::<MResult<_>>()?,
                None => spec
                    .tensor()?
                    .to_f64()
                    .iter()
                    .map(|&x| {
                        if x >= 1.0 && x.fract() == 0.0 && (x as usize) <= nf {
                            Ok(x as usize - 1)
                        } else {
                            Err(bad())
                        }
                    })
                    .collect::<MResult<_>>()?,
            };
            let mut seen = order.clone();
            seen.sort_unstable();
            seen.dedup();
            if order.len() != nf || seen.len() != nf {
                return Err(bad());
            }
            order
        }
    };
    let out = StructArray {
        shape: s.shape.clone(),
        fields: order.iter().map(|&k| s.fields[k].clone()).collect(),
        elems: s
            .elems
            .iter()
            .map(|e| order.iter().map(|&k| e[k].clone()).collect())
            .collect(),
    };
    let mut r = vec![Value::from(out)];
    if nargout > 1 {
        r.push(Value::col(order.iter().map(|&k| (k + 1) as f64).collect()));
    }
    Ok(r)
}

fn struct2cell(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let s = the_struct(&a[0], "struct2cell")?;
    let nf = s.fields.len();
    let n = s.numel();
    let mut data = Vec::with_capacity(nf * n);
    for e in &s.elems {
        data.extend(e.iter().cloned());
    }
    // [number of fields, size(s)]
    let mut dims = vec![nf];
    dims.extend_from_slice(s.shape.dims());
    one(CellArray::new(Shape::new(&dims), data))
}

fn cell2struct(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let Value::Cell(c) = &a[0] else {
        return Err(bad_arg(
            "cell2struct",
            "The first input must be a cell array.",
        ));
    };
    let names: Vec<String> = match &a[1] {
        Value::Cell(f) => f.data.iter().map(|v| v.text()).collect::<MResult<_>>()?,
        v if v.is_char() => crate::builtins::types::char_rows(&*v.tensor()?)
            .iter()
            .map(|r| r.trim_end().to_string())
            .collect(),
        v => vec![text_arg(v, "cell2struct")?],
    };
    if let Some(bad) = names.iter().find(|n| !is_valid_name(n)) {
        return Err(invalid_field_name(bad));
    }
    let dim = match a.get(2) {
        Some(v) => super::dim_arg(v)?,
        None => 0,
    };
    let (r, cols) = (c.shape.rows(), c.shape.cols());
    let along = if dim == 0 { r } else { cols };
    if along != names.len() {
        return Err(MError::new(
            "MATLAB:cell2struct:InvalidNumberOfFields",
            "Number of field names must match the number of fields in the new structure.",
        ));
    }
    let n = if dim == 0 { cols } else { r };
    let mut s = StructArray::empty_with(names.clone(), Shape::col(n));
    for i in 0..n {
        for (k, _) in names.iter().enumerate() {
            s.elems[i][k] = if dim == 0 {
                c.data[k + i * r].clone()
            } else {
                c.data[i + k * r].clone()
            };
        }
    }
    one(s)
}

/// The ValueType MATLAB infers: one numeric or logical class when every value is a scalar
/// of it, 'char' when every value is a char row, otherwise 'any'.
fn uniform_value_type(vs: &[Value]) -> String {
    let Some(first) = vs.first() else {
        return "any".into();
    };
    if vs.iter().all(|v| v.is_char() && v.shape().rows() <= 1) {
        return "char".into();
    }
    let class = first.class_name();
    let numeric = |v: &Value| v.is_numeric_like() && !v.is_char() && v.numel() == 1;
    if vs.iter().all(|v| numeric(v) && v.class_name() == class) && !first.is_complex() {
        return class;
    }
    "any".into()
}

fn map_new(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let mut m = MapData {
        key_type: "char".into(),
        value_type: "any".into(),
        ..Default::default()
    };
    let mut i = 0;
    let mut value_type_given = false;
    let mut keys_vals: Option<(Value, Value)> = None;
    if a.len() >= 2
        && !(a[0].is_text()
            && matches!(
                a[0].text().ok().as_deref(),
                Some("KeyType" | "ValueType" | "UniformValues")
            ))
    {
        keys_vals = Some((a[0].clone(), a[1].clone()));
        i = 2;
    }
    while i + 1 < a.len() {
        let opt = text_arg(&a[i], "containers.Map")?;
        match opt.as_str() {
            "KeyType" => {
                m.key_type = text_arg(&a[i + 1], "containers.Map")?;
            }
            "ValueType" => {
                m.value_type = text_arg(&a[i + 1], "containers.Map")?;
                value_type_given = true;
            }
            "UniformValues" => {
                // UniformValues false keeps 'any'; true is what inference gives anyway.
                if !a[i + 1].truthy()? {
                    value_type_given = true;
                }
            }
            other => {
                return Err(bad_arg(
                    "containers.Map",
                    format!("Unknown option '{other}'."),
                ));
            }
        }
        i += 2;
    }
    if let Some((k, v)) = keys_vals {
        let ks: Vec<Value> = match &k {
            Value::Cell(c) => c.data.clone(),
            // string keys are stored as char vectors
            Value::Str(st) => st.data.iter().map(|x| Value::str(x)).collect(),
            v if v.is_numeric_like() && !v.is_char() && v.numel() > 1 => (0..v.numel())
                .map(|j| Value::Num(v.tensor().map(|t| t.get_f64(j)).unwrap_or(0.0)))
                .collect(),
            other => vec![other.clone()],
        };
        let vs: Vec<Value> = match &v {
            Value::Cell(c) if ks.len() != 1 || c.data.len() == 1 && matches!(k, Value::Cell(_)) => {
                c.data.clone()
            }
            // a numeric array gives one value per key
            v if ks.len() > 1 && !v.is_char() && v.is_numeric_like() && v.numel() == ks.len() => {
                let t = v.tensor()?;
                (0..t.numel())
                    .map(|j| crate::values::ops::shape_ops::gather_value(v, &[j], Shape::scalar()))
                    .collect::<MResult<_>>()?
            }
            other => vec![other.clone()],
        };
        if ks.len() != vs.len() {
            return Err(MError::new(
                "MATLAB:Containers:Map:KeyValueLengthMismatch",
                "The number of keys and values must be the same.",
            ));
        }
        if let Some(k0) = ks.first().filter(|k| k.is_numeric_like() && !k.is_char()) {
            m.numeric_keys = true;
            m.key_type = match k0.class_name().as_str() {
                c @ ("single" | "int32" | "uint32" | "int64" | "uint64") => c.to_string(),
                _ => "double".into(),
            };
        }
        if !value_type_given {
            m.value_type = uniform_value_type(&vs).into();
        }
        for (kk, vv) in ks.iter().zip(vs) {
            objects::insert(&mut m, kk, vv)?;
        }
    } else if m.key_type != "char" && m.key_type != "string" {
        m.numeric_keys = true;
    }
    one(Value::Object(Rc::new(Object::Map(RefCell::new(m)))))
}

fn the_map(v: &Value) -> MResult<&RefCell<MapData>> {
    match v {
        Value::Object(o) => match o.as_ref() {
            Object::Map(m) => Ok(m),
            _ => Err(bad_arg("keys", "Input must be a containers.Map.")),
        },
        _ => Err(bad_arg("keys", "Input must be a containers.Map.")),
    }
}

fn keys(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(objects::keys(&the_map(&a[0])?.borrow()))
}
fn values(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(objects::values(&the_map(&a[0])?.borrow(), a.get(1))?)
}
fn is_key(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(objects::is_key(&the_map(&a[0])?.borrow(), &a[1]))
}
fn remove(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    objects::remove(&mut the_map(&a[0])?.borrow_mut(), &a[1])?;
    one(a[0].clone())
}
