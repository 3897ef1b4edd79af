//! JSON text to values by MATLAB's `jsondecode` mapping: null is `[]` (NaN inside numeric
//! arrays), numbers doubles, strings char rows, objects scalar structs (keys made valid names),
//! arrays of numbers or booleans column vectors, arrays of such arrays of one size N-D arrays
//! (the outer array along the first dimension), arrays of strings cells of char, arrays of
//! objects with the same keys struct arrays, and any other array an N×1 cell.

use super::names::{NameRule, make_valid_name_by, unique};
use crate::interp::error::{MError, MResult};
use crate::values::containers::{CellArray, StructArray};
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;
use serde_json::Value as J;

pub fn decode(text: &str, names: &NameRule) -> MResult<Value> {
    let j: J = serde_json::from_str(text).map_err(|e| {
        MError::new(
            "MATLAB:json:ExpectedValue",
            format!(
                "Unable to parse JSON text: {} (line {}, column {}).",
                describe(&e),
                e.line(),
                e.column()
            ),
        )
    })?;
    Ok(convert(&j, 0, names)?.value)
}

fn describe(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.find(" at line ") {
        Some(k) => s[..k].to_string(),
        None => s,
    }
}

/// A decoded value; for numeric and logical arrays made from JSON arrays, the JSON nesting's
/// sizes (outermost first), so that arrays of them can stack into N-D arrays.
struct Decoded {
    value: Value,
    nd: Option<Vec<usize>>,
}

impl Decoded {
    fn plain(value: Value) -> Decoded {
        Decoded { value, nd: None }
    }
}

fn convert(j: &J, depth: usize, o: &NameRule) -> MResult<Decoded> {
    // once per value: Ctrl-C is looked at every so many of them
    crate::interp::interrupt::poll();
    if depth > 500 {
        return Err(MError::new(
            "MATLAB:json:NestingTooDeep",
            "JSON text is nested too deeply.",
        ));
    }
    Ok(match j {
        J::Null => Decoded::plain(Value::empty()),
        J::Bool(b) => Decoded::plain(Value::Bool(*b)),
        J::Number(n) => Decoded::plain(Value::Num(n.as_f64().unwrap_or(f64::NAN))),
        J::String(s) => Decoded::plain(text(s)),
        J::Object(m) => Decoded::plain(Value::from(object(m, depth, o)?)),
        J::Array(items) => array(items, depth, o)?,
    })
}

fn text(s: &str) -> Value {
    if s.is_empty() {
        Value::Tensor(std::rc::Rc::new(Tensor::new(
            Shape::empty(),
            Data::Char(vec![]),
        )))
    } else {
        Value::str(s)
    }
}

fn object(m: &serde_json::Map<String, J>, depth: usize, o: &NameRule) -> MResult<StructArray> {
    let mut s = StructArray::scalar();
    for (k, v) in m {
        let name = unique(make_valid_name_by(k, o), &s.fields);
        let v = convert(v, depth + 1, o)?.value;
        s.set(0, &name, v);
    }
    Ok(s)
}

fn array(items: &[J], depth: usize, o: &NameRule) -> MResult<Decoded> {
    let n = items.len();
    if n == 0 {
        return Ok(Decoded {
            value: Value::empty(),
            nd: Some(vec![0]),
        });
    }
    let numbers = items.iter().all(|x| x.is_number() || x.is_null());
    if numbers && items.iter().any(|x| x.is_number()) {
        let v: Vec<f64> = items
            .iter()
            .map(|x| x.as_f64().unwrap_or(f64::NAN))
            .collect();
        return Ok(Decoded {
            value: Value::from_tensor(Tensor::f64(Shape::col(n), v)),
            nd: Some(vec![n]),
        });
    }
    if items.iter().all(|x| x.is_boolean()) {
        let v = items.iter().map(|x| x.as_bool().unwrap_or(false)).collect();
        return Ok(Decoded {
            value: Value::from_tensor(Tensor::bools(Shape::col(n), v)),
            nd: Some(vec![n]),
        });
    }
    if items.iter().all(|x| x.is_string()) {
        let cells = items
            .iter()
            .map(|x| text(x.as_str().unwrap_or_default()))
            .collect();
        return Ok(Decoded::plain(Value::from(CellArray::col(cells))));
    }
    if items.iter().all(|x| x.is_object()) {
        let structs = items
            .iter()
            .filter_map(|x| x.as_object())
            .map(|m| object(m, depth + 1, o))
            .collect::<MResult<Vec<_>>>()?;
        let same = structs
            .iter()
            .all(|s| same_fields(&s.fields, &structs[0].fields));
        if same {
            let fields = structs[0].fields.clone();
            let elems = structs
                .iter()
                .map(|s| {
                    fields
                        .iter()
                        .map(|f| s.get(0, f).cloned().unwrap_or_else(Value::empty))
                        .collect()
                })
                .collect();
            return Ok(Decoded::plain(Value::from(StructArray {
                shape: Shape::col(n),
                fields,
                elems,
            })));
        }
        return Ok(Decoded::plain(Value::from(CellArray::col(
            structs.into_iter().map(Value::from).collect(),
        ))));
    }
    let parts = items
        .iter()
        .map(|x| convert(x, depth + 1, o))
        .collect::<MResult<Vec<_>>>()?;
    if let Some(stacked) = stack(&parts) {
        return Ok(stacked);
    }
    Ok(Decoded::plain(Value::from(CellArray::col(
        parts.into_iter().map(|d| d.value).collect(),
    ))))
}

fn same_fields(a: &[String], b: &[String]) -> bool {
    a.len() == b.len() && a.iter().all(|f| b.contains(f))
}

/// Arrays of numeric (or logical) arrays of one JSON size, as one array a dimension larger:
/// element (i, rest) is the i-th part's element (rest).
fn stack(parts: &[Decoded]) -> Option<Decoded> {
    let first = parts.first()?;
    let inner = first.nd.clone()?;
    let class = first.value.num_class()?;
    for p in parts {
        if p.nd.as_ref() != Some(&inner) || p.value.num_class() != Some(class) {
            return None;
        }
    }
    let n = parts.len();
    let per: usize = inner.iter().product();
    let mut dims = vec![n];
    dims.extend(&inner);
    let shape = Shape::new(&dims);
    let value = match class {
        crate::values::class::Class::Logical => {
            let mut v = vec![false; n * per];
            for (i, p) in parts.iter().enumerate() {
                let t = p.value.tensor().ok()?;
                for k in 0..per {
                    v[i + n * k] = t.nonzero(k);
                }
            }
            Tensor::bools(shape, v)
        }
        _ => {
            let mut v = vec![0.0; n * per];
            for (i, p) in parts.iter().enumerate() {
                let t = p.value.tensor().ok()?;
                for k in 0..per {
                    v[i + n * k] = t.get_f64(k);
                }
            }
            Tensor::f64(shape, v)
        }
    };
    Some(Decoded {
        value: Value::from_tensor(value),
        nd: Some(dims),
    })
}
