//! Non-numeric arrays: string arrays, cell arrays, struct arrays, and handle objects.

use super::shape::Shape;
use super::value::Value;
use crate::interp::error::MError;
use std::cell::RefCell;
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq)]
pub struct StrArray {
    pub shape: Shape,
    pub data: Vec<String>,
}

impl StrArray {
    pub fn scalar(s: String) -> StrArray {
        StrArray {
            shape: Shape::scalar(),
            data: vec![s],
        }
    }
    pub fn new(shape: Shape, data: Vec<String>) -> StrArray {
        StrArray { shape, data }
    }
}

#[derive(Clone, Debug)]
pub struct CellArray {
    pub shape: Shape,
    pub data: Vec<Value>,
}

impl CellArray {
    pub fn new(shape: Shape, data: Vec<Value>) -> CellArray {
        debug_assert_eq!(shape.numel(), data.len());
        CellArray { shape, data }
    }
    /// A cell of the given shape filled with `[]`, as `cell(m, n)` makes.
    pub fn empties(shape: Shape) -> CellArray {
        let n = shape.numel();
        // each empty is an allocation: made a chunk at a time with a look at Ctrl-C between
        // chunks (cell(1e8, 1) was seconds)
        let mut data = Vec::with_capacity(n);
        while data.len() < n {
            crate::interp::interrupt::poll_now();
            let k = (n - data.len()).min(crate::interp::interrupt::CHUNK);
            data.extend(std::iter::repeat_with(Value::empty).take(k));
        }
        CellArray { shape, data }
    }
    pub fn row(data: Vec<Value>) -> CellArray {
        CellArray {
            shape: Shape::row(data.len()),
            data,
        }
    }
    pub fn col(data: Vec<Value>) -> CellArray {
        CellArray {
            shape: Shape::col(data.len()),
            data,
        }
    }
}

/// A struct array: an ordered list of field names and, per element, one value per field.
#[derive(Clone, Debug)]
pub struct StructArray {
    pub shape: Shape,
    pub fields: Vec<String>,
    pub elems: Vec<Vec<Value>>,
}

impl StructArray {
    pub fn scalar() -> StructArray {
        StructArray {
            shape: Shape::scalar(),
            fields: vec![],
            elems: vec![vec![]],
        }
    }
    pub fn empty_with(fields: Vec<String>, shape: Shape) -> StructArray {
        let n = shape.numel();
        let nf = fields.len();
        StructArray {
            shape,
            fields,
            elems: vec![vec![Value::empty(); nf]; n],
        }
    }
    pub fn field_index(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f == name)
    }
    /// Adds a field (filled with `[]` in every element) if it is not there; returns its index.
    pub fn ensure_field(&mut self, name: &str) -> usize {
        if let Some(i) = self.field_index(name) {
            return i;
        }
        self.fields.push(name.to_string());
        for e in self.elems.iter_mut() {
            e.push(Value::empty());
        }
        self.fields.len() - 1
    }
    pub fn get(&self, elem: usize, name: &str) -> Option<&Value> {
        self.field_index(name).map(|f| &self.elems[elem][f])
    }
    pub fn set(&mut self, elem: usize, name: &str, v: Value) {
        let f = self.ensure_field(name);
        self.elems[elem][f] = v;
    }
    pub fn numel(&self) -> usize {
        self.elems.len()
    }
    pub fn missing_field(name: &str) -> MError {
        MError::new(
            "MATLAB:nonExistentField",
            format!("Unrecognized field name \"{name}\"."),
        )
    }
}

/// Objects with identity or special behaviour: `containers.Map` (a handle: copies share it)
/// and `MException`.
#[derive(Debug)]
pub enum Object {
    Map(RefCell<MapData>),
    MException(ExceptionData),
    InputParser(RefCell<ParserData>),
    /// datetime, duration and calendarDuration arrays (values, not handles)
    Time(crate::dates::TimeArray),
    /// Handles to graphics objects (figures, axes, lines, ...) of the session's scene.
    Graphics(crate::graphics::Handles),
}

/// What an `inputParser` argument is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ParserArgKind {
    Required,
    Optional,
    Parameter,
}

#[derive(Debug, Clone)]
pub struct ParserArg {
    pub name: String,
    pub kind: ParserArgKind,
    pub default: Value,
    pub validator: Option<Value>,
}

/// `inputParser` (a handle object): the declared arguments, the settings, and what the last
/// `parse` found.
#[derive(Debug, Clone)]
pub struct ParserData {
    pub function_name: String,
    pub case_sensitive: bool,
    pub keep_unmatched: bool,
    pub partial_matching: bool,
    pub struct_expand: bool,
    pub args: Vec<ParserArg>,
    pub results: Vec<(String, Value)>,
    pub unmatched: Vec<(String, Value)>,
    pub using_defaults: Vec<String>,
}

impl Default for ParserData {
    fn default() -> Self {
        ParserData {
            function_name: String::new(),
            case_sensitive: false,
            keep_unmatched: false,
            partial_matching: true,
            struct_expand: true,
            args: Vec::new(),
            results: Vec::new(),
            unmatched: Vec::new(),
            using_defaults: Vec::new(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct ExceptionData {
    pub identifier: String,
    pub message: String,
    pub stack: Vec<(String, usize)>,
}

/// `containers.Map`: keys are either all text or all numeric.
#[derive(Debug, Clone, Default)]
pub struct MapData {
    pub numeric_keys: bool,
    pub key_type: String,
    pub value_type: String,
    pub text: BTreeMap<String, Value>,
    pub num: Vec<(f64, Value)>,
}

impl Object {
    pub fn class_name(&self) -> &'static str {
        match self {
            Object::Map(_) => "containers.Map",
            Object::MException(_) => "MException",
            Object::InputParser(_) => "inputParser",
            Object::Time(t) => t.kind.class_name(),
            Object::Graphics(h) => h.class_name(),
        }
    }
    pub fn shape(&self) -> Shape {
        match self {
            Object::Time(t) => t.shape.clone(),
            Object::Graphics(h) => h.shape.clone(),
            _ => Shape::scalar(),
        }
    }
}
