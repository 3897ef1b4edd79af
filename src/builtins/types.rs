//! Class conversions: double single logical char int8..uint64 cast typecast.

use super::{Builtin, b, bad_arg, one, text_arg};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::class::Class;
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

macro_rules! conv {
    ($($fname:ident => $cls:expr),* $(,)?) => {
        $(fn $fname(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
            one(convert(&a[0], $cls)?)
        })*
    };
}
conv!(
    double_f => Class::Double, single_f => Class::Single, int8_f => Class::Int8, int16_f => Class::Int16,
    int32_f => Class::Int32, int64_f => Class::Int64, uint8_f => Class::UInt8, uint16_f => Class::UInt16,
    uint32_f => Class::UInt32, uint64_f => Class::UInt64,
);

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("double", 1, 1, 1, "double(X): convert to double precision.", double_f),
        b("single", 1, 1, 1, "single(X): convert to single precision.", single_f),
        b("int8", 1, 1, 1, "int8(X): convert to 8-bit signed integers (rounding, saturating).", int8_f),
        b("int16", 1, 1, 1, "int16(X): convert to 16-bit signed integers.", int16_f),
        b("int32", 1, 1, 1, "int32(X): convert to 32-bit signed integers.", int32_f),
        b("int64", 1, 1, 1, "int64(X): convert to 64-bit signed integers.", int64_f),
        b("uint8", 1, 1, 1, "uint8(X): convert to 8-bit unsigned integers.", uint8_f),
        b("uint16", 1, 1, 1, "uint16(X): convert to 16-bit unsigned integers.", uint16_f),
        b("uint32", 1, 1, 1, "uint32(X): convert to 32-bit unsigned integers.", uint32_f),
        b("uint64", 1, 1, 1, "uint64(X): convert to 64-bit unsigned integers.", uint64_f),
        b("logical", 1, 1, 1, "logical(X): convert to logical (nonzero is true; NaN is an error).", logical_f),
        b("char", 0, -1, 1, "char(X): convert to characters; char(A, B, ...) pads rows to a char matrix.", char_f),
        b("cast", 2, 3, 1, "cast(X, class) or cast(X, 'like', P): convert to another class.", cast_f),
        b("typecast", 2, 2, 1, "typecast(X, class): reinterpret the bytes of X as another integer or float class.", typecast_f),
    ]
}

pub fn convert(v: &Value, cls: Class) -> MResult<Value> {
    match v {
        Value::Str(s) if cls == Class::Double || cls == Class::Single => {
            let vals: Vec<f64> = s
                .data
                .iter()
                .map(|x| super::text_convert::parse_double(x))
                .collect();
            Ok(Value::from(Tensor::new(
                s.shape.clone(),
                Data::from_f64(cls, vals),
            )))
        }
        v if v.is_numeric_like() => {
            let t = v.tensor()?;
            if cls.is_int() && t.is_complex() {
                // MATLAB makes a complex integer array; matfuse has none, and dropping a
                // nonzero imaginary part would be a silently wrong result (as in assignment).
                let c = t.to_c64();
                if c.iter().any(|z| z.im != 0.0) {
                    return Err(crate::values::access::complex_integer());
                }
                let re: Vec<f64> = c.iter().map(|z| z.re).collect();
                return Ok(Value::from(Tensor::new(
                    t.shape.clone(),
                    Data::from_f64(cls, re),
                )));
            }
            Ok(Value::from(t.cast(cls)))
        }
        other => Err(MError::new(
            "MATLAB:invalidConversion",
            format!(
                "Conversion to {} from {} is not possible.",
                cls.name(),
                other.class_name()
            ),
        )),
    }
}

fn logical_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    if a[0].is_char() {
        return Err(MError::new(
            "MATLAB:logical:charConversion",
            "Conversion to logical from char is not possible.",
        ));
    }
    one(to_logical(&a[0])?)
}

/// logical(v): nonzero is true; NaN and complex values are errors.
pub fn to_logical(v: &Value) -> MResult<Value> {
    if !v.is_numeric_like() {
        return Err(MError::new(
            "MATLAB:invalidConversion",
            format!(
                "Conversion to logical from {} is not possible.",
                v.class_name()
            ),
        ));
    }
    let t = v.tensor()?;
    if t.is_complex() {
        return Err(MError::new(
            "MATLAB:logical:complexNotSupported",
            "Complex values cannot be converted to logicals.",
        ));
    }
    if t.class().is_float() && t.to_f64().iter().any(|x| x.is_nan()) {
        return Err(MError::new(
            "MATLAB:nologicalnan",
            "NaN's cannot be converted to logicals.",
        ));
    }
    Ok(Value::from(Tensor::bools(
        t.shape.clone(),
        (0..t.numel()).map(|i| t.nonzero(i)).collect(),
    )))
}

/// Rows of text padded with spaces to a char matrix.
pub fn char_matrix(rows: &[String]) -> Value {
    let rows: Vec<Vec<u16>> = rows
        .iter()
        .map(|r| {
            crate::interp::interrupt::poll();
            r.encode_utf16().collect()
        })
        .collect();
    let w = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let n = rows.len();
    let mut data = vec![b' ' as u16; n * w];
    for (i, r) in rows.iter().enumerate() {
        crate::interp::interrupt::poll();
        for (j, &c) in r.iter().enumerate() {
            data[i + j * n] = c;
        }
    }
    Value::from(Tensor::new(Shape::matrix(n, w), Data::Char(data)))
}

/// The rows of a char matrix as strings.
pub fn char_rows(t: &Tensor) -> Vec<String> {
    t.char_rows()
}

fn text_rows(v: &Value) -> MResult<Vec<String>> {
    Ok(match v {
        Value::Str(s) => s.data.clone(),
        Value::Cell(c) => {
            let mut out = Vec::new();
            for e in &c.data {
                crate::interp::interrupt::poll();
                out.extend(text_rows(e)?);
            }
            out
        }
        Value::Tensor(t) if t.class() == Class::Char => {
            if t.numel() == 0 && t.shape.rows() <= 1 {
                vec![String::new()]
            } else {
                char_rows(t)
            }
        }
        v if v.is_numeric_like() => {
            let t = v.tensor()?;
            let ct = t.cast(Class::Char);
            if t.shape.is_matrix() {
                char_rows(&ct)
            } else {
                vec![ct.to_text()]
            }
        }
        other => {
            return Err(MError::new(
                "MATLAB:char:invalidInput",
                format!(
                    "Conversion to char from {} is not possible.",
                    other.class_name()
                ),
            ));
        }
    })
}

fn char_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    if a.is_empty() {
        return one(Value::str(""));
    }
    if a.len() == 1 {
        match &a[0] {
            v if v.is_numeric_like() => {
                let t = v.tensor()?;
                return one(t.cast(Class::Char));
            }
            Value::Str(s) if s.data.len() == 1 => return one(Value::str(&s.data[0])),
            _ => {}
        }
    }
    let mut rows = Vec::new();
    for v in &a {
        rows.extend(text_rows(v)?);
    }
    one(char_matrix(&rows))
}

fn cast_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let cls = if a.len() == 3 {
        if text_arg(&a[1], "cast")? != "like" {
            return Err(bad_arg(
                "cast",
                "The second argument must be 'like' when three are given.",
            ));
        }
        a[2].num_class()
            .ok_or_else(|| bad_arg("cast", "The prototype must be numeric, logical or char."))?
    } else {
        let name = text_arg(&a[1], "cast")?;
        Class::from_name(&name)
            .ok_or_else(|| bad_arg("cast", format!("Unsupported class '{name}'.")))?
    };
    if cls == Class::Logical {
        return one(to_logical(&a[0])?);
    }
    one(convert(&a[0], cls)?)
}

fn bytes_of(t: &Tensor) -> Vec<u8> {
    let mut out = Vec::new();
    let mut tick = crate::interp::interrupt::Ticker::new();
    macro_rules! le {
        ($v:expr) => {
            $v.iter().for_each(|x| {
                tick.tick();
                out.extend(x.to_le_bytes())
            })
        };
    }
    match &t.data {
        Data::F64(v) => le!(v),
        Data::F32(v) => le!(v),
        Data::I8(v) => le!(v),
        Data::I16(v) => le!(v),
        Data::I32(v) => le!(v),
        Data::I64(v) => le!(v),
        Data::U8(v) => out.extend(v.iter()),
        Data::U16(v) => le!(v),
        Data::U32(v) => le!(v),
        Data::U64(v) => le!(v),
        _ => {}
    }
    out
}

fn typecast_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    if !t.class().is_numeric() || t.is_complex() {
        return Err(bad_arg(
            "typecast",
            "The first input must be a real, numeric array.",
        ));
    }
    let name = text_arg(&a[1], "typecast")?;
    let cls = Class::from_name(&name)
        .filter(|c| c.is_numeric())
        .ok_or_else(|| bad_arg("typecast", format!("Unsupported class '{name}'.")))?;
    let bytes = bytes_of(&t);
    let w = cls.elem_bytes();
    if bytes.len() % w != 0 {
        return Err(MError::new(
            "MATLAB:typecast:notEnoughInputElements",
            "Too few input values to make output type.",
        ));
    }
    let n = bytes.len() / w;
    let mut tick = crate::interp::interrupt::Ticker::new();
    macro_rules! rd {
        ($t:ty) => {
            bytes
                .chunks(w)
                .map(|c| {
                    tick.tick();
                    <$t>::from_le_bytes(c.try_into().unwrap_or_default())
                })
                .collect()
        };
    }
    let data = match cls {
        Class::Double => Data::F64(rd!(f64)),
        Class::Single => Data::F32(rd!(f32)),
        Class::Int8 => Data::I8(rd!(i8)),
        Class::Int16 => Data::I16(rd!(i16)),
        Class::Int32 => Data::I32(rd!(i32)),
        Class::Int64 => Data::I64(rd!(i64)),
        Class::UInt8 => Data::U8(bytes.clone()),
        Class::UInt16 => Data::U16(rd!(u16)),
        Class::UInt32 => Data::U32(rd!(u32)),
        _ => Data::U64(rd!(u64)),
    };
    let shape = if t.shape.is_col() {
        Shape::col(n)
    } else {
        Shape::row(n)
    };
    one(Tensor::new(shape, data))
}
