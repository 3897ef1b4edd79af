//! MATLAB classes of numeric-like arrays (everything stored in a `Tensor`) and the rules that
//! pick a result class when two classes meet in arithmetic or concatenation.

use crate::interp::error::MError;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Class {
    Double,
    Single,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Logical,
    Char,
}

pub const INT_CLASSES: [Class; 8] = [
    Class::Int8,
    Class::UInt8,
    Class::Int16,
    Class::UInt16,
    Class::Int32,
    Class::UInt32,
    Class::Int64,
    Class::UInt64,
];

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::Double => "double",
            Class::Single => "single",
            Class::Int8 => "int8",
            Class::Int16 => "int16",
            Class::Int32 => "int32",
            Class::Int64 => "int64",
            Class::UInt8 => "uint8",
            Class::UInt16 => "uint16",
            Class::UInt32 => "uint32",
            Class::UInt64 => "uint64",
            Class::Logical => "logical",
            Class::Char => "char",
        }
    }
    pub fn from_name(s: &str) -> Option<Class> {
        Some(match s {
            "double" => Class::Double,
            "single" => Class::Single,
            "int8" => Class::Int8,
            "int16" => Class::Int16,
            "int32" => Class::Int32,
            "int64" => Class::Int64,
            "uint8" => Class::UInt8,
            "uint16" => Class::UInt16,
            "uint32" => Class::UInt32,
            "uint64" => Class::UInt64,
            "logical" => Class::Logical,
            "char" => Class::Char,
            _ => return None,
        })
    }
    pub fn is_float(self) -> bool {
        matches!(self, Class::Double | Class::Single)
    }
    pub fn is_int(self) -> bool {
        INT_CLASSES.contains(&self)
    }
    pub fn is_numeric(self) -> bool {
        self.is_float() || self.is_int()
    }
    pub fn is_signed_int(self) -> bool {
        matches!(
            self,
            Class::Int8 | Class::Int16 | Class::Int32 | Class::Int64
        )
    }
    /// Bytes per element, as `whos` reports them (complex doubles count twice).
    pub fn elem_bytes(self) -> usize {
        match self {
            Class::Double | Class::Int64 | Class::UInt64 => 8,
            Class::Single | Class::Int32 | Class::UInt32 => 4,
            Class::Int16 | Class::UInt16 | Class::Char => 2,
            Class::Int8 | Class::UInt8 | Class::Logical => 1,
        }
    }
    /// The inclusive range of an integer class.
    pub fn int_range(self) -> (i128, i128) {
        match self {
            Class::Int8 => (i8::MIN as i128, i8::MAX as i128),
            Class::Int16 => (i16::MIN as i128, i16::MAX as i128),
            Class::Int32 => (i32::MIN as i128, i32::MAX as i128),
            Class::Int64 => (i64::MIN as i128, i64::MAX as i128),
            Class::UInt8 => (0, u8::MAX as i128),
            Class::UInt16 => (0, u16::MAX as i128),
            Class::UInt32 => (0, u32::MAX as i128),
            Class::UInt64 => (0, u64::MAX as i128),
            _ => (i128::MIN, i128::MAX),
        }
    }
}

/// Result class of an arithmetic operation between two operands (MATLAB's rules):
/// integer wins over double/logical/char, single wins over double, integers of two different
/// classes do not mix. Logical and char operands compute as double.
pub fn arith_result(a: Class, b: Class, op: &str) -> Result<Class, MError> {
    use Class::*;
    let norm = |c: Class| {
        if matches!(c, Logical | Char) {
            Double
        } else {
            c
        }
    };
    let (x, y) = (norm(a), norm(b));
    Ok(match (x, y) {
        _ if x == y => x,
        (i, Double) | (Double, i) if i.is_int() => i,
        (i, Single) | (Single, i) if i.is_int() => i,
        (Single, Double) | (Double, Single) => Single,
        _ => {
            return Err(MError::new(
                "MATLAB:mixedClasses",
                format!(
                    "Integers can only be combined with integers of the same class, or scalar doubles. ({} {} {})",
                    a.name(),
                    op,
                    b.name()
                ),
            ));
        }
    })
}

/// Result class of concatenating arrays of these classes: char beats numbers, integers beat
/// floats (the leftmost integer class wins), single beats double, logical only with logical.
pub fn concat_result(classes: &[Class]) -> Class {
    use Class::*;
    if classes.is_empty() {
        return Double;
    }
    if classes.contains(&Char) {
        return Char;
    }
    if let Some(&c) = classes.iter().find(|c| c.is_int()) {
        return c;
    }
    if classes.contains(&Single) {
        return Single;
    }
    if classes.iter().all(|&c| c == Logical) {
        return Logical;
    }
    Double
}
