//! Element data to typed storage: any data type into any class, in either byte order. MATLAB
//! stores a double array in a smaller integer type when its values fit (v7), Octave and SciPy
//! write chars as UTF-8 or UTF-16, and a big-endian file needs its bytes swapped.

use super::format::*;
use crate::interp::error::{MError, MResult};
use crate::values::class::Class;
use crate::values::tensor::Data;

pub fn corrupt(what: &str) -> MError {
    MError::new(
        "MATLAB:load:unableToReadMatFile",
        format!("Unable to read MAT-file: {what}. The file may be corrupt."),
    )
}

/// Reads fixed-size words from element data in the file's byte order.
#[derive(Clone, Copy)]
pub struct Order {
    pub big: bool,
}

macro_rules! reader {
    ($name:ident, $t:ty) => {
        pub fn $name(self, b: &[u8]) -> Vec<$t> {
            const N: usize = std::mem::size_of::<$t>();
            b.chunks_exact(N)
                .map(|c| {
                    let mut a = [0u8; N];
                    a.copy_from_slice(c);
                    if self.big {
                        <$t>::from_be_bytes(a)
                    } else {
                        <$t>::from_le_bytes(a)
                    }
                })
                .collect()
        }
    };
}

impl Order {
    reader!(f64s, f64);
    reader!(f32s, f32);
    reader!(i8s, i8);
    reader!(i16s, i16);
    reader!(i32s, i32);
    reader!(i64s, i64);
    reader!(u16s, u16);
    reader!(u32s, u32);
    reader!(u64s, u64);
    pub fn u8s(self, b: &[u8]) -> Vec<u8> {
        b.to_vec()
    }
    pub fn u32(self, b: &[u8]) -> u32 {
        let mut a = [0u8; 4];
        a.copy_from_slice(&b[..4]);
        if self.big {
            u32::from_be_bytes(a)
        } else {
            u32::from_le_bytes(a)
        }
    }

    /// Integer values of data of any numeric type (dimensions, sparse indices).
    pub fn ints(self, ty: u32, b: &[u8]) -> MResult<Vec<i64>> {
        Ok(match ty {
            MI_INT8 => self.i8s(b).into_iter().map(i64::from).collect(),
            MI_UINT8 => b.iter().map(|&x| i64::from(x)).collect(),
            MI_INT16 => self.i16s(b).into_iter().map(i64::from).collect(),
            MI_UINT16 => self.u16s(b).into_iter().map(i64::from).collect(),
            MI_INT32 => self.i32s(b).into_iter().map(i64::from).collect(),
            MI_UINT32 => self.u32s(b).into_iter().map(i64::from).collect(),
            MI_INT64 => self.i64s(b),
            MI_UINT64 => self.u64s(b).into_iter().map(|x| x as i64).collect(),
            MI_DOUBLE => self.f64s(b).into_iter().map(|x| x as i64).collect(),
            _ => return Err(corrupt("an index or dimension has a non-integer type")),
        })
    }

    /// Values of data of any numeric type as f64 (exact for every type but 64-bit integers).
    pub fn floats(self, ty: u32, b: &[u8]) -> MResult<Vec<f64>> {
        Ok(match ty {
            MI_DOUBLE => self.f64s(b),
            MI_SINGLE => self.f32s(b).into_iter().map(f64::from).collect(),
            MI_INT64 => self.i64s(b).into_iter().map(|x| x as f64).collect(),
            MI_UINT64 => self.u64s(b).into_iter().map(|x| x as f64).collect(),
            _ => self.ints(ty, b)?.into_iter().map(|x| x as f64).collect(),
        })
    }

    /// The storage of a `class` array of `n` elements from data of type `ty`.
    pub fn data(self, class: Class, ty: u32, b: &[u8], n: usize) -> MResult<Data> {
        let size = type_size(ty).ok_or_else(|| corrupt("unknown data type"))?;
        if class == Class::Char && matches!(ty, MI_UTF8 | MI_UTF32) {
            let text: String = if ty == MI_UTF8 {
                String::from_utf8_lossy(b).into_owned()
            } else {
                self.u32s(b)
                    .into_iter()
                    .map(|c| char::from_u32(c).unwrap_or('\u{FFFD}'))
                    .collect()
            };
            let units: Vec<u16> = text.encode_utf16().collect();
            if units.len() != n {
                return Err(corrupt("char data does not match its dimensions"));
            }
            return Ok(Data::Char(units));
        }
        if n.checked_mul(size) != Some(b.len()) {
            return Err(corrupt("array data does not match its dimensions"));
        }
        // the class's own type: no conversion
        let native = match (class, ty) {
            (Class::Double, MI_DOUBLE) => Some(Data::F64(self.f64s(b))),
            (Class::Single, MI_SINGLE) => Some(Data::F32(self.f32s(b))),
            (Class::Int8, MI_INT8) => Some(Data::I8(self.i8s(b))),
            (Class::UInt8, MI_UINT8) => Some(Data::U8(self.u8s(b))),
            (Class::Int16, MI_INT16) => Some(Data::I16(self.i16s(b))),
            (Class::UInt16, MI_UINT16) => Some(Data::U16(self.u16s(b))),
            (Class::Int32, MI_INT32) => Some(Data::I32(self.i32s(b))),
            (Class::UInt32, MI_UINT32) => Some(Data::U32(self.u32s(b))),
            (Class::Int64, MI_INT64) => Some(Data::I64(self.i64s(b))),
            (Class::UInt64, MI_UINT64) => Some(Data::U64(self.u64s(b))),
            (Class::Char, MI_UINT16 | MI_UTF16) => Some(Data::Char(self.u16s(b))),
            (Class::Logical, MI_UINT8) => Some(Data::Bool(b.iter().map(|&x| x != 0).collect())),
            _ => None,
        };
        if let Some(d) = native {
            return Ok(d);
        }
        // 64-bit integers into integer classes exactly; everything else through f64
        if class.is_int() {
            match ty {
                MI_INT64 => {
                    return Ok(Data::from_i128(
                        class,
                        self.i64s(b).into_iter().map(i128::from),
                    ));
                }
                MI_UINT64 => {
                    return Ok(Data::from_i128(
                        class,
                        self.u64s(b).into_iter().map(i128::from),
                    ));
                }
                _ => {}
            }
        }
        Ok(Data::from_f64(class, self.floats(ty, b)?))
    }
}
