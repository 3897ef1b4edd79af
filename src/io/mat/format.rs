//! The level 5 MAT-file format (MATLAB 5 to 7.x, MathWorks' "MAT-File Format" description):
//! a 128-byte header, then data elements, each an 8-byte tag (data type, byte count) and its
//! data padded to 8 bytes, or a 4-byte "small data element" whose count and type share one
//! word. Variables are miMATRIX elements; v7 wraps each in a zlib-compressed miCOMPRESSED one.

use crate::values::class::Class;

// Data types of data elements.
pub const MI_INT8: u32 = 1;
pub const MI_UINT8: u32 = 2;
pub const MI_INT16: u32 = 3;
pub const MI_UINT16: u32 = 4;
pub const MI_INT32: u32 = 5;
pub const MI_UINT32: u32 = 6;
pub const MI_SINGLE: u32 = 7;
pub const MI_DOUBLE: u32 = 9;
pub const MI_INT64: u32 = 12;
pub const MI_UINT64: u32 = 13;
pub const MI_MATRIX: u32 = 14;
pub const MI_COMPRESSED: u32 = 15;
pub const MI_UTF8: u32 = 16;
pub const MI_UTF16: u32 = 17;
pub const MI_UTF32: u32 = 18;

// Array classes (the low byte of the array flags).
pub const MX_CELL: u8 = 1;
pub const MX_STRUCT: u8 = 2;
pub const MX_OBJECT: u8 = 3;
pub const MX_CHAR: u8 = 4;
pub const MX_SPARSE: u8 = 5;
pub const MX_FUNCTION: u8 = 16;
pub const MX_OPAQUE: u8 = 17;

// Flags (the second byte of the array flags word).
pub const FLAG_COMPLEX: u32 = 0x0800;
pub const FLAG_GLOBAL: u32 = 0x0400;
pub const FLAG_LOGICAL: u32 = 0x0200;

pub const HEADER_LEN: usize = 128;
/// The header's text must start so for MATLAB, Octave and SciPy to take it as level 5.
pub const HEADER_TEXT: &str = "MATLAB 5.0 MAT-file";

/// The array class code of a numeric-like class (logical is uint8 with the logical flag).
pub fn class_code(c: Class) -> u8 {
    match c {
        Class::Char => MX_CHAR,
        Class::Double => 6,
        Class::Single => 7,
        Class::Int8 => 8,
        Class::UInt8 | Class::Logical => 9,
        Class::Int16 => 10,
        Class::UInt16 => 11,
        Class::Int32 => 12,
        Class::UInt32 => 13,
        Class::Int64 => 14,
        Class::UInt64 => 15,
    }
}

/// The numeric-like class of an array class code (None for cell, struct, ...).
pub fn code_class(code: u8) -> Option<Class> {
    Some(match code {
        MX_CHAR => Class::Char,
        6 => Class::Double,
        7 => Class::Single,
        8 => Class::Int8,
        9 => Class::UInt8,
        10 => Class::Int16,
        11 => Class::UInt16,
        12 => Class::Int32,
        13 => Class::UInt32,
        14 => Class::Int64,
        15 => Class::UInt64,
        _ => return None,
    })
}

/// The data type a class's elements are written as.
pub fn storage_type(c: Class) -> u32 {
    match c {
        Class::Double => MI_DOUBLE,
        Class::Single => MI_SINGLE,
        Class::Int8 => MI_INT8,
        Class::UInt8 | Class::Logical => MI_UINT8,
        Class::Int16 => MI_INT16,
        Class::UInt16 | Class::Char => MI_UINT16,
        Class::Int32 => MI_INT32,
        Class::UInt32 => MI_UINT32,
        Class::Int64 => MI_INT64,
        Class::UInt64 => MI_UINT64,
    }
}

/// Bytes per element of a numeric data type (None for the others).
pub fn type_size(t: u32) -> Option<usize> {
    Some(match t {
        MI_INT8 | MI_UINT8 | MI_UTF8 => 1,
        MI_INT16 | MI_UINT16 | MI_UTF16 => 2,
        MI_INT32 | MI_UINT32 | MI_SINGLE | MI_UTF32 => 4,
        MI_DOUBLE | MI_INT64 | MI_UINT64 => 8,
        _ => return None,
    })
}

/// The 128-byte header: descriptive text padded with spaces, an unused subsystem offset,
/// version 0x0100 and the endian indicator "IM" (written little-endian).
pub fn header() -> [u8; HEADER_LEN] {
    let text = format!(
        "{HEADER_TEXT}, Platform: {}, Created on: {}, written by matfuse",
        platform(),
        now_text()
    );
    let mut h = [b' '; HEADER_LEN];
    let n = text.len().min(116);
    h[..n].copy_from_slice(&text.as_bytes()[..n]);
    h[116..124].fill(0);
    h[124..126].copy_from_slice(&0x0100u16.to_le_bytes());
    h[126..128].copy_from_slice(b"IM");
    h
}

fn platform() -> &'static str {
    match (std::env::consts::OS, std::env::consts::ARCH) {
        ("linux", _) => "GLNXA64",
        ("macos", "aarch64") => "MACA64",
        ("macos", _) => "MACI64",
        ("windows", _) => "PCWIN64",
        _ => "GLNXA64",
    }
}

/// The current UTC time as `Thu Nov 26 19:48:43 2026` (the header's customary form).
fn now_text() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let days = secs.div_euclid(86400);
    let rem = secs.rem_euclid(86400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    const WEEKDAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    format!(
        "{} {} {:2} {:02}:{:02}:{:02} {}",
        WEEKDAYS[days.rem_euclid(7) as usize],
        MONTHS[(month - 1).clamp(0, 11) as usize],
        day,
        rem / 3600,
        rem / 60 % 60,
        rem % 60,
        year
    )
}
