//! The workspace value: what a variable holds. Double and logical scalars are unboxed so that
//! scalar loops never allocate; everything else is reference-counted with copy-on-write
//! (`Rc::make_mut`), which gives MATLAB's value semantics cheaply.

use super::class::Class;
use super::containers::{CellArray, Object, StrArray, StructArray};
use super::shape::Shape;
use super::tensor::{Data, Tensor};
use crate::interp::error::MError;
use crate::interp::function::FuncHandle;
use num_complex::Complex64;
use std::borrow::Cow;
use std::rc::Rc;

#[derive(Clone, Debug)]
pub enum Value {
    /// A real double scalar.
    Num(f64),
    /// A logical scalar.
    Bool(bool),
    /// Any other numeric, logical or char array (including non-double scalars).
    Tensor(Rc<Tensor>),
    /// A string array (`"text"`).
    Str(Rc<StrArray>),
    Cell(Rc<CellArray>),
    Struct(Rc<StructArray>),
    Func(Rc<FuncHandle>),
    Object(Rc<Object>),
    /// An array of the lazy graph (pending, on the device, or computed on the host).
    Device(Rc<super::device::DeviceValue>),
    /// A complex gpuArray: real and imaginary parts as two real graph nodes.
    DeviceComplex(Rc<super::complex_device::ComplexDevice>),
}

impl Value {
    pub fn empty() -> Value {
        Value::Tensor(Rc::new(Tensor::empty()))
    }
    pub fn str(s: &str) -> Value {
        Value::Tensor(Rc::new(Tensor::char_row(s)))
    }
    pub fn string(s: &str) -> Value {
        Value::Str(Rc::new(StrArray::scalar(s.to_string())))
    }
    pub fn complex(z: Complex64) -> Value {
        Value::from(Tensor::new(Shape::scalar(), Data::C64(vec![z])))
    }
    /// A tensor value, unboxed when it is a real double or logical scalar.
    pub fn from_tensor(t: Tensor) -> Value {
        if t.shape.is_scalar() {
            match &t.data {
                Data::F64(v) => return Value::Num(v[0]),
                Data::Bool(v) => return Value::Bool(v[0]),
                _ => {}
            }
        }
        Value::Tensor(Rc::new(t))
    }
    pub fn row(v: Vec<f64>) -> Value {
        let n = v.len();
        Value::from_tensor(Tensor::f64(Shape::row(n), v))
    }
    pub fn col(v: Vec<f64>) -> Value {
        let n = v.len();
        Value::from_tensor(Tensor::f64(Shape::col(n), v))
    }

    pub fn class_name(&self) -> String {
        match self {
            Value::Num(_) => "double".into(),
            Value::Bool(_) => "logical".into(),
            Value::Tensor(t) => t.class().name().into(),
            Value::Str(_) => "string".into(),
            Value::Cell(_) => "cell".into(),
            Value::Struct(_) => "struct".into(),
            Value::Func(_) => "function_handle".into(),
            Value::Object(o) => o.class_name().into(),
            Value::Device(d) if d.explicit => "gpuArray".into(),
            Value::Device(d) => d.class().name().into(),
            Value::DeviceComplex(_) => "gpuArray".into(),
        }
    }
    /// The numeric-like class, for values stored as tensors.
    pub fn num_class(&self) -> Option<Class> {
        match self {
            Value::Num(_) => Some(Class::Double),
            Value::Bool(_) => Some(Class::Logical),
            Value::Tensor(t) => Some(t.class()),
            Value::Device(d) => Some(d.class()),
            Value::DeviceComplex(z) => Some(z.class()),
            _ => None,
        }
    }
    pub fn shape(&self) -> Shape {
        match self {
            Value::Num(_) | Value::Bool(_) | Value::Func(_) => Shape::scalar(),
            Value::Tensor(t) => t.shape.clone(),
            Value::Str(s) => s.shape.clone(),
            Value::Cell(c) => c.shape.clone(),
            Value::Struct(s) => s.shape.clone(),
            Value::Object(o) => o.shape(),
            Value::Device(d) => d.shape().clone(),
            Value::DeviceComplex(z) => z.shape().clone(),
        }
    }
    pub fn numel(&self) -> usize {
        match self {
            Value::Num(_) | Value::Bool(_) | Value::Func(_) => 1,
            Value::Tensor(t) => t.numel(),
            _ => self.shape().numel(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.numel() == 0
    }
    pub fn is_char(&self) -> bool {
        matches!(self, Value::Tensor(t) if t.class() == Class::Char)
    }
    pub fn is_string(&self) -> bool {
        matches!(self, Value::Str(_))
    }
    /// True for a char row vector or a string scalar: something usable as a name or option.
    pub fn is_text(&self) -> bool {
        match self {
            Value::Tensor(t) => t.class() == Class::Char && (t.shape.is_row() || t.numel() == 0),
            Value::Str(s) => s.data.len() == 1,
            _ => false,
        }
    }
    /// The 0×0 double that `x(i) = []` deletes with.
    pub fn is_empty_double_literal(&self) -> bool {
        matches!(self, Value::Tensor(t) if t.class() == Class::Double && t.shape.dims() == [0, 0])
    }
    pub fn is_numeric_like(&self) -> bool {
        matches!(
            self,
            Value::Num(_)
                | Value::Bool(_)
                | Value::Tensor(_)
                | Value::Device(_)
                | Value::DeviceComplex(_)
        )
    }

    /// The host form of a value: a graph value is computed (if pending) and read back;
    /// anything else is returned as it is. Code that works on host data calls this first.
    pub fn host(self) -> Result<Value, MError> {
        match self {
            Value::Device(d) => {
                // The read-back is shared, not copied (a copy of a 1e8-element gather
                // took longer than the read-back itself).
                let t = crate::plan::to_host(&d.node)?;
                Ok(match &t.data {
                    Data::F64(_) | Data::Bool(_) if t.shape.is_scalar() => {
                        Value::from_tensor((*t).clone())
                    }
                    _ => Value::Tensor(t),
                })
            }
            Value::DeviceComplex(z) => Ok(Value::Tensor(Rc::new(z.to_host()?))),
            v => Ok(v),
        }
    }
    pub fn is_complex(&self) -> bool {
        matches!(self, Value::Tensor(t) if t.is_complex())
            || matches!(self, Value::DeviceComplex(_))
    }

    /// The array behind a numeric-like value. This is the one way code reaches host data.
    pub fn tensor(&self) -> Result<Cow<'_, Tensor>, MError> {
        match self {
            Value::Num(x) => Ok(Cow::Owned(Tensor::scalar_f64(*x))),
            Value::Bool(b) => Ok(Cow::Owned(Tensor::bools(Shape::scalar(), vec![*b]))),
            Value::Tensor(t) => Ok(Cow::Borrowed(t.as_ref())),
            Value::Device(d) => {
                let t = crate::plan::to_host(&d.node)?;
                Ok(Cow::Owned(
                    Rc::try_unwrap(t).unwrap_or_else(|t| (*t).clone()),
                ))
            }
            Value::DeviceComplex(z) => Ok(Cow::Owned(z.to_host()?)),
            other => Err(MError::new(
                "MATLAB:invalidType",
                format!(
                    "Expected a numeric, logical or char array, but got a value of class {}.",
                    other.class_name()
                ),
            )),
        }
    }
    pub fn into_tensor(self) -> Result<Tensor, MError> {
        match self {
            Value::Tensor(t) => Ok(Rc::try_unwrap(t).unwrap_or_else(|rc| (*rc).clone())),
            other => Ok(other.tensor()?.into_owned()),
        }
    }
    /// A real scalar as f64 (first element of a numeric array; errors on empties).
    pub fn scalar_f64(&self) -> Result<f64, MError> {
        match self {
            Value::Num(x) => Ok(*x),
            Value::Bool(b) => Ok(*b as u8 as f64),
            Value::Tensor(t) if t.numel() >= 1 => Ok(t.get_f64(0)),
            Value::Device(_) | Value::DeviceComplex(_) => self.clone().host()?.scalar_f64(),
            Value::Tensor(_) => Err(MError::new(
                "MATLAB:expectedScalar",
                "Expected a scalar value, but got an empty array.",
            )),
            other => Err(MError::new(
                "MATLAB:invalidType",
                format!(
                    "Expected a numeric value, but got a value of class {}.",
                    other.class_name()
                ),
            )),
        }
    }
    /// Text of a char array or string scalar.
    pub fn text(&self) -> Result<String, MError> {
        match self {
            Value::Tensor(t) if t.class() == Class::Char => Ok(t.to_text()),
            Value::Str(s) if s.data.len() == 1 => Ok(s.data[0].clone()),
            other => Err(MError::new(
                "MATLAB:invalidType",
                format!(
                    "Expected text (a char vector or string scalar), but got a value of class {}.",
                    other.class_name()
                ),
            )),
        }
    }
    /// MATLAB truth of a condition: nonempty and every element nonzero (real part).
    pub fn truthy(&self) -> Result<bool, MError> {
        match self {
            Value::Device(_) | Value::DeviceComplex(_) => self.clone().host()?.truthy(),
            Value::Num(x) => {
                if x.is_nan() {
                    Err(MError::new(
                        "MATLAB:nologicalnan",
                        "NaN's cannot be converted to logicals.",
                    ))
                } else {
                    Ok(*x != 0.0)
                }
            }
            Value::Bool(b) => Ok(*b),
            Value::Tensor(t) => {
                if t.is_empty() {
                    return Ok(false);
                }
                for i in 0..t.numel() {
                    if t.class().is_float() && t.get_f64(i).is_nan() {
                        return Err(MError::new(
                            "MATLAB:nologicalnan",
                            "NaN's cannot be converted to logicals.",
                        ));
                    }
                    if !t.nonzero(i) {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Value::Str(_) => Err(MError::new(
                "MATLAB:invalidConversion",
                "Conversion to logical from string is not possible.",
            )),
            other => Err(MError::new(
                "MATLAB:invalidConversion",
                format!(
                    "Conversion to logical from {} is not possible.",
                    other.class_name()
                ),
            )),
        }
    }
}

impl From<Tensor> for Value {
    fn from(t: Tensor) -> Value {
        Value::from_tensor(t)
    }
}
impl From<f64> for Value {
    fn from(x: f64) -> Value {
        Value::Num(x)
    }
}
impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}
impl From<CellArray> for Value {
    fn from(c: CellArray) -> Value {
        Value::Cell(Rc::new(c))
    }
}
impl From<StructArray> for Value {
    fn from(s: StructArray) -> Value {
        Value::Struct(Rc::new(s))
    }
}
impl From<StrArray> for Value {
    fn from(s: StrArray) -> Value {
        Value::Str(Rc::new(s))
    }
}
