//! Behaviour of the built-in objects: `MException` (properties, rethrow, getReport) and
//! `containers.Map` (a handle: lookups, assignment, keys/values/isKey/remove).

use super::Interp;
use super::error::{MError, MResult};
use crate::values::containers::{CellArray, ExceptionData, MapData, Object, StructArray};
use crate::values::shape::Shape;
use crate::values::value::Value;
use std::cell::RefCell;
use std::rc::Rc;

/// The MException object a `catch err` receives.
pub fn exception_value(e: &MError) -> Value {
    let d = e.data();
    Value::Object(Rc::new(Object::MException(ExceptionData {
        identifier: d.identifier.clone(),
        message: d.message.clone(),
        stack: d.stack.clone(),
    })))
}

/// Turns an MException object back into an error (rethrow/throw).
pub fn to_error(x: &ExceptionData) -> MError {
    let mut e = MError::new(x.identifier.clone(), x.message.clone());
    e.data_mut().stack = x.stack.clone();
    e
}

pub fn property(o: &Object, name: &str) -> MResult<Value> {
    match o {
        Object::MException(x) => match name {
            "identifier" => Ok(Value::str(&x.identifier)),
            "message" => Ok(Value::str(&x.message)),
            "stack" => {
                let mut s = StructArray::empty_with(
                    vec!["file".into(), "name".into(), "line".into()],
                    Shape::col(x.stack.len()),
                );
                for (i, (n, l)) in x.stack.iter().enumerate() {
                    s.elems[i] = vec![Value::str(""), Value::str(n), Value::Num(*l as f64)];
                }
                Ok(Value::from(s))
            }
            "cause" => Ok(Value::from(CellArray::new(Shape::col(0), vec![]))),
            _ => Err(no_property(name, "MException")),
        },
        Object::InputParser(p) => crate::builtins::input_parser::property(&p.borrow(), name)
            .ok_or_else(|| no_property(name, "inputParser")),
        Object::Time(t) => crate::dates::array::property(t, name),
        Object::Graphics(h) => crate::graphics::handle::property(h, name),
        Object::Map(m) => {
            let m = m.borrow();
            match name {
                "Count" => Ok(Value::Num(count(&m) as f64)),
                "KeyType" => Ok(Value::str(&m.key_type)),
                "ValueType" => Ok(Value::str(&m.value_type)),
                // methods called without parentheses: m.keys, m.values, m.length
                "keys" => Ok(keys(&m)),
                "values" => values(&m, None),
                "length" => Ok(Value::Num(count(&m) as f64)),
                _ => Err(no_property(name, "containers.Map")),
            }
        }
    }
}

/// Whether `name` is a data property (so `obj.name(args)` indexes its value rather than
/// calling a method).
pub fn is_data_property(o: &Object, name: &str) -> bool {
    match o {
        Object::MException(_) => matches!(name, "identifier" | "message" | "stack" | "cause"),
        Object::Map(_) => matches!(name, "Count" | "KeyType" | "ValueType"),
        Object::InputParser(_) => crate::builtins::input_parser::PROPERTIES.contains(&name),
        Object::Time(t) => crate::dates::array::is_property(t, name),
        Object::Graphics(h) => crate::graphics::handle::is_property(h, name),
    }
}

fn no_property(name: &str, class: &str) -> MError {
    MError::new(
        "MATLAB:noSuchMethodOrField",
        format!("Unrecognized method, property, or field '{name}' for class '{class}'."),
    )
}

pub fn count(m: &MapData) -> usize {
    if m.numeric_keys {
        m.num.len()
    } else {
        m.text.len()
    }
}

enum Key {
    Text(String),
    Num(f64),
}

fn key_of(m: &MapData, v: &Value) -> MResult<Key> {
    if m.numeric_keys {
        if !v.is_numeric_like() || v.numel() != 1 {
            return Err(MError::new(
                "MATLAB:Containers:TypeMismatch",
                "Specified key type does not match the type expected for this container.",
            ));
        }
        Ok(Key::Num(v.scalar_f64()?))
    } else {
        v.text().map(Key::Text).map_err(|_| {
            MError::new(
                "MATLAB:Containers:TypeMismatch",
                "Specified key type does not match the type expected for this container.",
            )
        })
    }
}

fn no_key(v: &Value) -> MError {
    let shown = v.text().unwrap_or_else(|_| {
        v.scalar_f64()
            .map(|x| crate::values::strings::number_text(x))
            .unwrap_or_default()
    });
    MError::new(
        "MATLAB:Containers:Map:NoKey",
        format!("The specified key is not present in this container. ('{shown}')"),
    )
}

fn get(m: &MapData, k: &Value) -> MResult<Value> {
    match key_of(m, k)? {
        Key::Text(s) => m.text.get(&s).cloned().ok_or_else(|| no_key(k)),
        Key::Num(x) => m
            .num
            .iter()
            .find(|(y, _)| *y == x)
            .map(|(_, v)| v.clone())
            .ok_or_else(|| no_key(k)),
    }
}

/// A Map declared with a ValueType accepts only values of that type.
fn check_value_type(m: &MapData, v: &Value) -> MResult<()> {
    let ok = match m.value_type.as_str() {
        "any" => true,
        "char" => v.is_char(),
        "logical" => v.class_name() == "logical" && v.numel() == 1,
        t => {
            v.class_name() == t && v.numel() == 1
                || (t == "double" && v.numel() == 1 && v.is_numeric_like() && !v.is_char())
        }
    };
    if ok {
        Ok(())
    } else {
        Err(MError::new(
            "MATLAB:Containers:TypeMismatch",
            "Specified value type does not match the type expected for this container.",
        ))
    }
}

pub fn insert(m: &mut MapData, k: &Value, v: Value) -> MResult<()> {
    check_value_type(m, &v)?;
    match key_of(m, k)? {
        Key::Text(s) => {
            m.text.insert(s, v);
        }
        Key::Num(x) => match m.num.iter_mut().find(|(y, _)| *y == x) {
            Some(slot) => slot.1 = v,
            None => {
                m.num.push((x, v));
                m.num.sort_by(|a, b| a.0.total_cmp(&b.0));
            }
        },
    }
    Ok(())
}

fn has(m: &MapData, k: &Value) -> bool {
    match key_of(m, k) {
        Ok(Key::Text(s)) => m.text.contains_key(&s),
        Ok(Key::Num(x)) => m.num.iter().any(|(y, _)| *y == x),
        Err(_) => false,
    }
}

/// `m(key)`
pub fn index(o: &Object, args: &[Value]) -> MResult<Value> {
    match o {
        Object::Map(m) => {
            if args.len() != 1 {
                return Err(MError::new(
                    "MATLAB:Containers:Map:IndexOne",
                    "Only one key can be used to index a containers.Map.",
                ));
            }
            get(&m.borrow(), &args[0])
        }
        Object::Time(t) => crate::dates::array::index(t, args),
        Object::Graphics(h) => h.index(args),
        Object::MException(_) | Object::InputParser(_) => Err(MError::new(
            "MATLAB:badsubscript",
            format!("Indexing into an {} is not supported.", o.class_name()),
        )),
    }
}

/// `m(key) = value`
pub fn map_assign(m: &RefCell<MapData>, args: &[Value], v: Value) -> MResult<()> {
    if args.len() != 1 {
        return Err(MError::new(
            "MATLAB:Containers:Map:IndexOne",
            "Only one key can be used to index a containers.Map.",
        ));
    }
    insert(&mut m.borrow_mut(), &args[0], v)
}

pub fn keys(m: &MapData) -> Value {
    let data: Vec<Value> = if m.numeric_keys {
        m.num.iter().map(|(k, _)| Value::Num(*k)).collect()
    } else {
        m.text.keys().map(|k| Value::str(k)).collect()
    };
    Value::from(CellArray::row(data))
}

pub fn values(m: &MapData, which: Option<&Value>) -> MResult<Value> {
    let data: Vec<Value> = match which {
        None => {
            if m.numeric_keys {
                m.num.iter().map(|(_, v)| v.clone()).collect()
            } else {
                m.text.values().cloned().collect()
            }
        }
        Some(Value::Cell(c)) => c.data.iter().map(|k| get(m, k)).collect::<MResult<_>>()?,
        Some(_) => {
            return Err(MError::new(
                "MATLAB:Containers:Map:KeysMustBeCell",
                "Keys must be given in a cell array.",
            ));
        }
    };
    Ok(Value::from(CellArray::row(data)))
}

pub fn is_key(m: &MapData, k: &Value) -> Value {
    match k {
        Value::Cell(c) => Value::from(crate::values::tensor::Tensor::bools(
            c.shape.clone(),
            c.data.iter().map(|x| has(m, x)).collect(),
        )),
        _ => Value::Bool(has(m, k)),
    }
}

pub fn remove(m: &mut MapData, k: &Value) -> MResult<()> {
    let ks: Vec<Value> = match k {
        Value::Cell(c) => c.data.clone(),
        other => vec![other.clone()],
    };
    for k in &ks {
        if !has(m, k) {
            return Err(no_key(k));
        }
        match key_of(m, k)? {
            Key::Text(s) => {
                m.text.remove(&s);
            }
            Key::Num(x) => m.num.retain(|(y, _)| *y != x),
        }
    }
    Ok(())
}

/// `obj.method(args)`
pub fn method(
    interp: &mut Interp,
    frame: &mut super::function::Frame,
    o: &Rc<Object>,
    name: &str,
    args: Vec<Value>,
    nargout: usize,
) -> MResult<Vec<Value>> {
    match (o.as_ref(), name) {
        // inputParser's methods are its builtins with the parser first: p.parse(x) is parse(p, x).
        (
            Object::InputParser(_),
            "addRequired" | "addOptional" | "addParameter" | "addParamValue" | "parse",
        ) => {
            let mut full = vec![Value::Object(o.clone())];
            full.extend(args);
            interp.call_named(frame, name, full, nargout)
        }
        (Object::Map(m), "keys") => Ok(vec![keys(&m.borrow())]),
        (Object::Map(m), "values") => Ok(vec![values(&m.borrow(), args.first())?]),
        (Object::Map(m), "isKey") => match args.first() {
            Some(k) => Ok(vec![is_key(&m.borrow(), k)]),
            None => Err(super::error::errors::not_enough_inputs("isKey")),
        },
        (Object::Map(m), "remove") => {
            if let Some(k) = args.first() {
                remove(&mut m.borrow_mut(), k)?;
            }
            Ok(vec![Value::Object(o.clone())])
        }
        (Object::Map(m), "length") => Ok(vec![Value::Num(count(&m.borrow()) as f64)]),
        (Object::MException(x), "rethrow" | "throw") => Err(to_error(x)),
        (Object::MException(x), "getReport") => {
            Ok(vec![Value::str(&format!("Error: {}", x.message))])
        }
        _ => Err(no_property(name, o.class_name())),
    }
}
