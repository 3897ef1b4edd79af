//! Host arrays of every numeric-like class: a shape plus column-major typed storage.
//! Storage is typed (f32 for single, i8 for int8, ...) so that a value moves to the device
//! as it is, and so int64 keeps all 64 bits.

use super::class::Class;
use super::shape::Shape;
use num_complex::{Complex32, Complex64};
use std::borrow::Cow;

#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    F64(Vec<f64>),
    F32(Vec<f32>),
    C64(Vec<Complex64>),
    C32(Vec<Complex32>),
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    Bool(Vec<bool>),
    Char(Vec<u16>),
}

/// Runs `$body` with `$v` bound to the typed vector inside a `Data`, whatever its variant.
#[macro_export]
macro_rules! with_data {
    ($data:expr, $v:ident => $body:expr) => {
        match $data {
            $crate::values::tensor::Data::F64($v) => $body,
            $crate::values::tensor::Data::F32($v) => $body,
            $crate::values::tensor::Data::C64($v) => $body,
            $crate::values::tensor::Data::C32($v) => $body,
            $crate::values::tensor::Data::I8($v) => $body,
            $crate::values::tensor::Data::I16($v) => $body,
            $crate::values::tensor::Data::I32($v) => $body,
            $crate::values::tensor::Data::I64($v) => $body,
            $crate::values::tensor::Data::U8($v) => $body,
            $crate::values::tensor::Data::U16($v) => $body,
            $crate::values::tensor::Data::U32($v) => $body,
            $crate::values::tensor::Data::U64($v) => $body,
            $crate::values::tensor::Data::Bool($v) => $body,
            $crate::values::tensor::Data::Char($v) => $body,
        }
    };
}

/// Like `with_data!`, but rebuilds a `Data` of the same variant from `$body`'s Vec.
#[macro_export]
macro_rules! map_data {
    ($data:expr, $v:ident => $body:expr) => {
        match $data {
            $crate::values::tensor::Data::F64($v) => $crate::values::tensor::Data::F64($body),
            $crate::values::tensor::Data::F32($v) => $crate::values::tensor::Data::F32($body),
            $crate::values::tensor::Data::C64($v) => $crate::values::tensor::Data::C64($body),
            $crate::values::tensor::Data::C32($v) => $crate::values::tensor::Data::C32($body),
            $crate::values::tensor::Data::I8($v) => $crate::values::tensor::Data::I8($body),
            $crate::values::tensor::Data::I16($v) => $crate::values::tensor::Data::I16($body),
            $crate::values::tensor::Data::I32($v) => $crate::values::tensor::Data::I32($body),
            $crate::values::tensor::Data::I64($v) => $crate::values::tensor::Data::I64($body),
            $crate::values::tensor::Data::U8($v) => $crate::values::tensor::Data::U8($body),
            $crate::values::tensor::Data::U16($v) => $crate::values::tensor::Data::U16($body),
            $crate::values::tensor::Data::U32($v) => $crate::values::tensor::Data::U32($body),
            $crate::values::tensor::Data::U64($v) => $crate::values::tensor::Data::U64($body),
            $crate::values::tensor::Data::Bool($v) => $crate::values::tensor::Data::Bool($body),
            $crate::values::tensor::Data::Char($v) => $crate::values::tensor::Data::Char($body),
        }
    };
}

/// Element conversions shared by every storage type.
pub trait Elem: Copy + Default + PartialEq + 'static {
    /// Real part as f64 (chars as their code, logicals as 0/1).
    fn to_f64(self) -> f64;
    fn to_c64(self) -> Complex64 {
        Complex64::new(self.to_f64(), 0.0)
    }
    fn is_nonzero(self) -> bool;
}

macro_rules! real_elem {
    ($($t:ty),*) => {$(
        impl Elem for $t {
            #[inline] fn to_f64(self) -> f64 { self as f64 }
            #[inline] fn is_nonzero(self) -> bool { self != (0 as $t) }
        }
    )*};
}
real_elem!(f64, f32, i8, i16, i32, i64, u8, u16, u32, u64);

impl Elem for bool {
    #[inline]
    fn to_f64(self) -> f64 {
        if self { 1.0 } else { 0.0 }
    }
    #[inline]
    fn is_nonzero(self) -> bool {
        self
    }
}
impl Elem for Complex64 {
    #[inline]
    fn to_f64(self) -> f64 {
        self.re
    }
    #[inline]
    fn to_c64(self) -> Complex64 {
        self
    }
    #[inline]
    fn is_nonzero(self) -> bool {
        self.re != 0.0 || self.im != 0.0
    }
}
impl Elem for Complex32 {
    #[inline]
    fn to_f64(self) -> f64 {
        self.re as f64
    }
    #[inline]
    fn to_c64(self) -> Complex64 {
        Complex64::new(self.re as f64, self.im as f64)
    }
    #[inline]
    fn is_nonzero(self) -> bool {
        self.re != 0.0 || self.im != 0.0
    }
}

/// Rounds half away from zero and saturates into an integer class's range (NaN becomes 0),
/// as every conversion to an integer class does in MATLAB.
#[inline]
pub fn saturate(x: f64, lo: i128, hi: i128) -> i128 {
    if x.is_nan() {
        return 0;
    }
    let r = x.round();
    if r <= lo as f64 {
        lo
    } else if r >= hi as f64 {
        hi
    } else {
        r as i128
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Tensor {
    pub shape: Shape,
    pub data: Data,
}

impl Tensor {
    pub fn new(shape: Shape, data: Data) -> Tensor {
        debug_assert_eq!(shape.numel(), data.len());
        Tensor { shape, data }
    }
    pub fn f64(shape: Shape, v: Vec<f64>) -> Tensor {
        Tensor::new(shape, Data::F64(v))
    }
    pub fn scalar_f64(x: f64) -> Tensor {
        Tensor::f64(Shape::scalar(), vec![x])
    }
    pub fn bools(shape: Shape, v: Vec<bool>) -> Tensor {
        Tensor::new(shape, Data::Bool(v))
    }
    pub fn empty() -> Tensor {
        Tensor::f64(Shape::empty(), vec![])
    }
    pub fn zeros(class: Class, shape: Shape) -> Tensor {
        let n = shape.numel();
        Tensor::new(shape, Data::zeros(class, n))
    }
    pub fn char_row(s: &str) -> Tensor {
        // Ctrl-C is looked at every so many units (text of 4e7 characters is 100 ms)
        let mut tick = crate::interp::interrupt::Ticker::new();
        let v: Vec<u16> = s.encode_utf16().inspect(|_| tick.tick()).collect();
        Tensor::new(Shape::row(v.len()), Data::Char(v))
    }
    pub fn class(&self) -> Class {
        self.data.class()
    }
    pub fn numel(&self) -> usize {
        self.data.len()
    }
    pub fn is_complex(&self) -> bool {
        matches!(self.data, Data::C64(_) | Data::C32(_))
    }
    pub fn is_empty(&self) -> bool {
        self.numel() == 0
    }
    /// Length along `dim`, or along the default reduction dimension when None.
    pub fn dims_len_along(&self, dim: Option<usize>) -> usize {
        self.shape
            .dim(dim.unwrap_or_else(|| self.shape.first_nonsingleton()))
    }
    pub fn reshaped(mut self, shape: Shape) -> Tensor {
        debug_assert_eq!(shape.numel(), self.numel());
        self.shape = shape;
        self
    }
    /// Real parts as f64, borrowed when the storage already is f64.
    pub fn to_f64(&self) -> Cow<'_, [f64]> {
        match &self.data {
            Data::F64(v) => Cow::Borrowed(v),
            // a chunk at a time, with a look at Ctrl-C between chunks
            d => Cow::Owned(with_data!(d, v => {
                let mut out = Vec::with_capacity(v.len());
                for part in v.chunks(crate::interp::interrupt::CHUNK) {
                    crate::interp::interrupt::poll_now();
                    out.extend(part.iter().map(|x| x.to_f64()));
                }
                out
            })),
        }
    }
    pub fn to_c64(&self) -> Cow<'_, [Complex64]> {
        match &self.data {
            Data::C64(v) => Cow::Borrowed(v),
            d => Cow::Owned(with_data!(d, v => {
                let mut out = Vec::with_capacity(v.len());
                for part in v.chunks(crate::interp::interrupt::CHUNK) {
                    crate::interp::interrupt::poll_now();
                    out.extend(part.iter().map(|x| x.to_c64()));
                }
                out
            })),
        }
    }
    pub fn get_f64(&self, i: usize) -> f64 {
        with_data!(&self.data, v => v[i].to_f64())
    }
    pub fn get_c64(&self, i: usize) -> Complex64 {
        with_data!(&self.data, v => v[i].to_c64())
    }
    pub fn nonzero(&self, i: usize) -> bool {
        with_data!(&self.data, v => v[i].is_nonzero())
    }
    /// Characters of a char array in column-major order, as a Rust string.
    pub fn to_text(&self) -> String {
        match &self.data {
            Data::Char(v) if v.len() <= crate::interp::interrupt::CHUNK => {
                String::from_utf16_lossy(v)
            }
            Data::Char(v) => {
                let mut tick = crate::interp::interrupt::Ticker::new();
                char::decode_utf16(v.iter().copied())
                    .inspect(|_| tick.tick())
                    .map(|c| c.unwrap_or('\u{FFFD}'))
                    .collect()
            }
            d => with_data!(d, v => v
                .iter()
                .map(|x| char::from_u32(x.to_f64() as u32).unwrap_or('\u{FFFD}'))
                .collect()),
        }
    }
    /// The rows of a 2-D char array as text. Chars are UTF-16 code units as in MATLAB, so a
    /// character outside the Basic Multilingual Plane is two elements; a row decodes its pair
    /// back into one character (a lone surrogate shows as U+FFFD).
    pub fn char_rows(&self) -> Vec<String> {
        let rows = self.shape.rows();
        if rows == 0 {
            return Vec::new();
        }
        let units: Vec<u16> = match &self.data {
            Data::Char(v) => v.clone(),
            d => with_data!(d, v => v.iter().map(|x| x.to_f64() as u16).collect()),
        };
        let cols = units.len() / rows;
        (0..rows)
            .map(|r| {
                crate::interp::interrupt::poll();
                let row: Vec<u16> = (0..cols)
                    .filter_map(|c| units.get(r + c * rows).copied())
                    .collect();
                String::from_utf16_lossy(&row)
            })
            .collect()
    }
    /// Builds an array of `class` from f64 values, rounding and saturating for integer classes,
    /// rounding to f32 for single, and mapping nonzero to true for logical.
    pub fn from_f64(class: Class, shape: Shape, v: Vec<f64>) -> Tensor {
        Tensor::new(shape, Data::from_f64(class, v))
    }
    /// Converts to another class with MATLAB's conversion rules (complex parts dropped only
    /// by the caller's choice: integer and logical classes take the real part).
    pub fn cast(&self, class: Class) -> Tensor {
        if self.class() == class {
            return self.clone();
        }
        let data = match (&self.data, class) {
            (Data::C32(v), Class::Double) => Data::C64(
                v.iter()
                    .map(|z| Complex64::new(z.re as f64, z.im as f64))
                    .collect(),
            ),
            (Data::C64(v), Class::Single) => Data::C32(
                v.iter()
                    .map(|z| Complex32::new(z.re as f32, z.im as f32))
                    .collect(),
            ),
            (Data::I64(v), c) if c.is_int() => Data::from_i128(c, v.iter().map(|&x| x as i128)),
            (Data::U64(v), c) if c.is_int() => Data::from_i128(c, v.iter().map(|&x| x as i128)),
            _ => Data::from_f64(class, crate::interp::interrupt::copied(&self.to_f64())),
        };
        Tensor::new(self.shape.clone(), data)
    }
    /// An owned tensor from a borrowed or owned one; a borrowed one is copied a chunk at a
    /// time with a look at Ctrl-C between chunks.
    pub fn owned(t: Cow<'_, Tensor>) -> Tensor {
        match t {
            Cow::Owned(t) => t,
            Cow::Borrowed(t) => Tensor::new(
                t.shape.clone(),
                map_data!(&t.data, v => crate::interp::interrupt::copied(v)),
            ),
        }
    }
    /// Elements at the given linear positions (all must be in range), in a new shape.
    pub fn gather(&self, idx: &[usize], shape: Shape) -> Tensor {
        // Ctrl-C is looked at every so many elements (an index of 3e7 is a second)
        let mut tick = crate::interp::interrupt::Ticker::new();
        let data = map_data!(&self.data, v => idx.iter().map(|&i| {
            tick.tick();
            v[i]
        }).collect());
        Tensor::new(shape, data)
    }
}

impl Data {
    pub fn len(&self) -> usize {
        with_data!(self, v => v.len())
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn class(&self) -> Class {
        match self {
            Data::F64(_) | Data::C64(_) => Class::Double,
            Data::F32(_) | Data::C32(_) => Class::Single,
            Data::I8(_) => Class::Int8,
            Data::I16(_) => Class::Int16,
            Data::I32(_) => Class::Int32,
            Data::I64(_) => Class::Int64,
            Data::U8(_) => Class::UInt8,
            Data::U16(_) => Class::UInt16,
            Data::U32(_) => Class::UInt32,
            Data::U64(_) => Class::UInt64,
            Data::Bool(_) => Class::Logical,
            Data::Char(_) => Class::Char,
        }
    }
    pub fn zeros(class: Class, n: usize) -> Data {
        match class {
            Class::Double => Data::F64(vec![0.0; n]),
            Class::Single => Data::F32(vec![0.0; n]),
            Class::Int8 => Data::I8(vec![0; n]),
            Class::Int16 => Data::I16(vec![0; n]),
            Class::Int32 => Data::I32(vec![0; n]),
            Class::Int64 => Data::I64(vec![0; n]),
            Class::UInt8 => Data::U8(vec![0; n]),
            Class::UInt16 => Data::U16(vec![0; n]),
            Class::UInt32 => Data::U32(vec![0; n]),
            Class::UInt64 => Data::U64(vec![0; n]),
            Class::Logical => Data::Bool(vec![false; n]),
            Class::Char => Data::Char(vec![0; n]),
        }
    }
    pub fn from_f64(class: Class, v: Vec<f64>) -> Data {
        let (lo, hi) = class.int_range();
        // conversions of large arrays look at Ctrl-C every so many elements
        let mut tick = crate::interp::interrupt::Ticker::new();
        macro_rules! ints {
            ($t:ty) => {
                v.iter()
                    .map(|&x| {
                        tick.tick();
                        saturate(x, lo, hi) as $t
                    })
                    .collect()
            };
        }
        match class {
            Class::Double => Data::F64(v),
            Class::Single => Data::F32(
                v.iter()
                    .map(|&x| {
                        tick.tick();
                        x as f32
                    })
                    .collect(),
            ),
            Class::Int8 => Data::I8(ints!(i8)),
            Class::Int16 => Data::I16(ints!(i16)),
            Class::Int32 => Data::I32(ints!(i32)),
            Class::Int64 => Data::I64(ints!(i64)),
            Class::UInt8 => Data::U8(ints!(u8)),
            Class::UInt16 => Data::U16(ints!(u16)),
            Class::UInt32 => Data::U32(ints!(u32)),
            Class::UInt64 => Data::U64(ints!(u64)),
            Class::Logical => Data::Bool(v.iter().map(|&x| x != 0.0).collect()),
            Class::Char => Data::Char(v.iter().map(|&x| saturate(x, 0, 65535) as u16).collect()),
        }
    }
    /// Integer-class storage from exact integers, saturating.
    pub fn from_i128(class: Class, it: impl Iterator<Item = i128>) -> Data {
        let (lo, hi) = class.int_range();
        let mut tick = crate::interp::interrupt::Ticker::new();
        macro_rules! ints {
            ($t:ty) => {
                it.map(|x| {
                    tick.tick();
                    x.clamp(lo, hi) as $t
                })
                .collect()
            };
        }
        match class {
            Class::Int8 => Data::I8(ints!(i8)),
            Class::Int16 => Data::I16(ints!(i16)),
            Class::Int32 => Data::I32(ints!(i32)),
            Class::Int64 => Data::I64(ints!(i64)),
            Class::UInt8 => Data::U8(ints!(u8)),
            Class::UInt16 => Data::U16(ints!(u16)),
            Class::UInt32 => Data::U32(ints!(u32)),
            Class::UInt64 => Data::U64(ints!(u64)),
            _ => Data::from_f64(class, it.map(|x| x as f64).collect()),
        }
    }
    /// Exact integer values of an integer-class storage (None for other classes).
    pub fn as_i128(&self) -> Option<Vec<i128>> {
        Some(match self {
            Data::I8(v) => v.iter().map(|&x| x as i128).collect(),
            Data::I16(v) => v.iter().map(|&x| x as i128).collect(),
            Data::I32(v) => v.iter().map(|&x| x as i128).collect(),
            Data::I64(v) => v.iter().map(|&x| x as i128).collect(),
            Data::U8(v) => v.iter().map(|&x| x as i128).collect(),
            Data::U16(v) => v.iter().map(|&x| x as i128).collect(),
            Data::U32(v) => v.iter().map(|&x| x as i128).collect(),
            Data::U64(v) => v.iter().map(|&x| x as i128).collect(),
            _ => return None,
        })
    }
    /// Writes `src[k]` to `self[pos[k]]` (both storages of the same variant).
    pub fn scatter_from(&mut self, src: &Data, pos: &[usize]) {
        macro_rules! go {
            ($($v:ident),*) => {
                match (self, src) {
                    $( (Data::$v(d), Data::$v(s)) => {
                        // a look at Ctrl-C every 64 writes: scattered writes into a fresh
                        // array fault a page each (diag of 2e4 values zeroed 3.2 GB)
                        for (c, part) in pos.chunks(64).enumerate() {
                            crate::interp::interrupt::poll_now();
                            for (j, &p) in part.iter().enumerate() {
                                d[p] = s[c * 64 + j];
                            }
                        }
                    } )*
                    _ => {}
                }
            };
        }
        go!(
            F64, F32, C64, C32, I8, I16, I32, I64, U8, U16, U32, U64, Bool, Char
        );
    }
    /// Complex storage for a float class from complex values.
    pub fn from_c64(class: Class, v: Vec<Complex64>) -> Data {
        match class {
            Class::Single => Data::C32(
                v.iter()
                    .map(|z| Complex32::new(z.re as f32, z.im as f32))
                    .collect(),
            ),
            _ => Data::C64(v),
        }
    }
}
