//! Binary file data: fread and fwrite with precisions ('uint8', 'int16', 'double', 'char',
//! '*uint8', 'uint8=>char', 'N*int16'), sizes, skips and byte order (ieee-le, ieee-be).

use super::file_io::{fid_arg, file, file_error, invalid_fid, write_text};
use super::{Builtin, b, bad_arg, text_arg};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::io::files::ByteOrder;
use crate::values::class::Class;
use crate::values::shape::Shape;
use crate::values::tensor::Tensor;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("fread", 1, 5, 2, "[A, count] = fread(fid, size, precision, skip, machinefmt): read binary data (size n, Inf, [m n], [m Inf]; precision like 'uint8', '*int16', 'uint8=>char', 'N*double'; default 'uint8=>double').", fread),
        b("fwrite", 2, 5, 1, "count = fwrite(fid, A, precision, skip, machinefmt): write the elements of A in binary (default 'uint8').", fwrite),
    ]
}

/// A type of element in a file.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Elem {
    Int {
        bytes: usize,
        signed: bool,
    },
    F32,
    F64,
    /// one byte per character
    Char,
}

impl Elem {
    fn from_name(n: &str) -> Option<Elem> {
        let int = |bytes, signed| Some(Elem::Int { bytes, signed });
        match n.trim() {
            "uint8" | "uchar" | "unsigned char" => int(1, false),
            "int8" | "schar" | "signed char" | "integer*1" => int(1, true),
            "uint16" | "ushort" | "unsigned short" => int(2, false),
            "int16" | "short" | "integer*2" => int(2, true),
            "uint32" | "uint" | "ulong" | "unsigned int" | "unsigned long" => int(4, false),
            "int32" | "int" | "long" | "integer*4" => int(4, true),
            "uint64" => int(8, false),
            "int64" | "integer*8" => int(8, true),
            "single" | "float32" | "float" | "real*4" => Some(Elem::F32),
            "double" | "float64" | "real*8" => Some(Elem::F64),
            "char" | "char*1" => Some(Elem::Char),
            _ => None,
        }
    }
    fn bytes(self) -> usize {
        match self {
            Elem::Int { bytes, .. } => bytes,
            Elem::F32 => 4,
            Elem::F64 => 8,
            Elem::Char => 1,
        }
    }
    fn class(self) -> Class {
        match self {
            Elem::Int {
                bytes: 1,
                signed: false,
            } => Class::UInt8,
            Elem::Int {
                bytes: 1,
                signed: true,
            } => Class::Int8,
            Elem::Int {
                bytes: 2,
                signed: false,
            } => Class::UInt16,
            Elem::Int {
                bytes: 2,
                signed: true,
            } => Class::Int16,
            Elem::Int {
                bytes: 4,
                signed: false,
            } => Class::UInt32,
            Elem::Int {
                bytes: 4,
                signed: true,
            } => Class::Int32,
            Elem::Int { signed: false, .. } => Class::UInt64,
            Elem::Int { signed: true, .. } => Class::Int64,
            Elem::F32 => Class::Single,
            Elem::F64 => Class::Double,
            Elem::Char => Class::Char,
        }
    }
    /// Decodes one element (`b` holds `self.bytes()` bytes).
    fn decode(self, b: &[u8], order: ByteOrder) -> f64 {
        let mut w = [0u8; 8];
        let n = self.bytes();
        w[..n].copy_from_slice(&b[..n]);
        if order == ByteOrder::Big {
            w[..n].reverse();
        }
        match self {
            Elem::Int { bytes, signed } => {
                let u = u64::from_le_bytes(w);
                if signed {
                    let shift = 64 - 8 * bytes as u32;
                    (((u << shift) as i64) >> shift) as f64
                } else {
                    u as f64
                }
            }
            Elem::F32 => f32::from_le_bytes([w[0], w[1], w[2], w[3]]) as f64,
            Elem::F64 => f64::from_le_bytes(w),
            Elem::Char => w[0] as f64,
        }
    }
    /// Encodes one value, rounded and saturated for integers.
    fn encode(self, x: f64, order: ByteOrder, out: &mut Vec<u8>) {
        let n = self.bytes();
        let w: [u8; 8] = match self {
            Elem::Int { bytes, signed } => {
                let bits = 8 * bytes as u32;
                let (lo, hi) = if signed {
                    (
                        -(2f64.powi(bits as i32 - 1)),
                        2f64.powi(bits as i32 - 1) - 1.0,
                    )
                } else {
                    (0.0, 2f64.powi(bits as i32) - 1.0)
                };
                let r = if x.is_nan() {
                    0.0
                } else {
                    x.round().clamp(lo, hi)
                };
                if signed {
                    (r as i64).to_le_bytes()
                } else {
                    (r as u64).to_le_bytes()
                }
            }
            Elem::F32 => {
                let mut w = [0u8; 8];
                w[..4].copy_from_slice(&(x as f32).to_le_bytes());
                w
            }
            Elem::F64 => x.to_le_bytes(),
            Elem::Char => {
                let mut w = [0u8; 8];
                w[0] = if x.is_nan() {
                    0
                } else {
                    x.round().clamp(0.0, 255.0) as u8
                };
                w
            }
        };
        let mut w = w;
        if order == ByteOrder::Big {
            w[..n].reverse();
        }
        out.extend_from_slice(&w[..n]);
    }
}

/// A parsed precision: the file's element type, the result's class, elements per skip block.
struct Precision {
    src: Elem,
    out: Class,
    block: usize,
}

fn parse_precision(p: &str, default_out_double: bool) -> MResult<Precision> {
    let bad = || {
        MError::new(
            "MATLAB:fread:InvalidPrecision",
            format!("Invalid precision '{p}'."),
        )
    };
    let mut s = p.trim();
    let mut block = 1;
    if let Some(k) = s.find('*') {
        let head = &s[..k];
        if !head.is_empty() && head.chars().all(|c| c.is_ascii_digit()) {
            block = head.parse().map_err(|_| bad())?;
            s = &s[k + 1..];
        }
    }
    let star = s.starts_with('*');
    if star {
        s = &s[1..];
    }
    let (src_name, dst_name) = match s.find("=>") {
        Some(k) => (&s[..k], Some(&s[k + 2..])),
        None => (s, None),
    };
    let src = Elem::from_name(src_name).ok_or_else(bad)?;
    let out = match dst_name {
        Some(d) => match Elem::from_name(d) {
            Some(e) => e.class(),
            None if d.trim() == "logical" => Class::Logical,
            None => return Err(bad()),
        },
        None if star => src.class(),
        None if default_out_double => Class::Double,
        None => src.class(),
    };
    Ok(Precision {
        src,
        out,
        block: block.max(1),
    })
}

fn order_arg(v: Option<&Value>, name: &str, default: ByteOrder) -> MResult<ByteOrder> {
    match v {
        None => Ok(default),
        Some(v) => {
            let t = text_arg(v, name)?;
            ByteOrder::from_name(&t).ok_or_else(|| {
                MError::new(
                    format!("MATLAB:{name}:InvalidMachineFormat"),
                    format!("Invalid machine format '{t}'."),
                )
            })
        }
    }
}

fn skip_arg(v: Option<&Value>, name: &str) -> MResult<usize> {
    match v {
        None => Ok(0),
        Some(v) => {
            let s = v.scalar_f64()?;
            if !(s >= 0.0) || s.fract() != 0.0 || !s.is_finite() {
                return Err(bad_arg(name, "The skip must be a nonnegative integer."));
            }
            Ok(s as usize)
        }
    }
}

fn fread(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    // fread(fid, precision) is allowed: a text second argument is the precision
    let (size_v, rest): (Option<&Value>, &[Value]) = match a.get(1) {
        Some(v) if v.is_text() => (None, &a[1..]),
        Some(v) => (Some(v), &a[2..]),
        None => (None, &[]),
    };
    let dims = super::scan::size_arg(size_v, "fread")?;
    let prec = match rest.first() {
        Some(v) => parse_precision(&text_arg(v, "fread")?, true)?,
        None => parse_precision("uint8", true)?,
    };
    let skip = skip_arg(rest.get(1), "fread")?;
    let f = file(i, &a[0])?;
    let order = order_arg(rest.get(2), "fread", f.order)?;
    let want = super::scan::limit(dims).unwrap_or(usize::MAX);
    let esize = prec.src.bytes();
    let mut vals: Vec<f64> = Vec::new();
    if skip == 0 {
        // one read for all of it
        let nbytes = want.saturating_mul(esize);
        let bytes = if nbytes == usize::MAX || want == usize::MAX {
            let r = f.rest().map_err(|m| file_error(f, m))?;
            let used = r.len() - r.len() % esize;
            f.advance(used, true);
            r[..used].to_vec()
        } else {
            crate::values::limits::check_count(want, 8)?;
            let b = f.read_bytes(nbytes).map_err(|m| file_error(f, m))?;
            let used = b.len() - b.len() % esize;
            b[..used].to_vec()
        };
        if prec.src == Elem::Char
            && want == usize::MAX
            && f.encoding == crate::io::files::Encoding::Utf8
            && !bytes.is_ascii()
        {
            // characters of the rest of a UTF-8 file, not its bytes
            vals.extend(f.encoding.decode(&bytes).into_iter().map(f64::from));
        } else {
            vals.reserve(bytes.len() / esize);
            for c in bytes.chunks_exact(esize) {
                vals.push(prec.src.decode(c, order));
            }
        }
    } else {
        'blocks: while vals.len() < want {
            for _ in 0..prec.block {
                if vals.len() >= want {
                    break 'blocks;
                }
                let b = f.read_bytes(esize).map_err(|m| file_error(f, m))?;
                if b.len() < esize {
                    break 'blocks;
                }
                vals.push(prec.src.decode(&b, order));
            }
            let here = f.tell();
            let _ = f.seek_to(here as i128 + skip as i128);
        }
    }
    let n = vals.len();
    let shape = match dims {
        Some((m, Some(_))) if m > 0 => Shape::matrix(m, n.div_ceil(m)),
        Some((0, Some(_))) => Shape::matrix(0, 0),
        _ => Shape::col(n),
    };
    vals.resize(shape.numel(), 0.0);
    let t = Tensor::from_f64(prec.out, shape, vals);
    let mut out = vec![Value::from_tensor(t), Value::Num(n as f64)];
    out.truncate(nargout.clamp(1, 2));
    Ok(out)
}

fn fwrite(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let prec = match a.get(2) {
        Some(v) => parse_precision(&text_arg(v, "fwrite")?, false)?,
        None => parse_precision("uint8", false)?,
    };
    let skip = skip_arg(a.get(3), "fwrite")?;
    let id = fid_arg(&a[0])?;
    let data = a[1].tensor()?;
    if data.is_complex() {
        return Err(bad_arg("fwrite", "Complex data cannot be written."));
    }
    let vals = data.to_f64();
    if id == 1 || id == 2 {
        // to the screen: the bytes as characters
        let text: String = vals
            .iter()
            .map(|&x| char::from_u32(x.clamp(0.0, 255.0) as u32).unwrap_or('?'))
            .collect();
        write_text(i, &a[0], &text)?;
        return Ok(vec![Value::Num(vals.len() as f64)]);
    }
    let f = i.files.get(id).ok_or_else(invalid_fid)?;
    let order = order_arg(a.get(4), "fwrite", f.order)?;
    let mut bytes = Vec::with_capacity(vals.len() * prec.src.bytes());
    if skip == 0 {
        for &x in vals.iter() {
            prec.src.encode(x, order, &mut bytes);
        }
        f.write_bytes(&bytes).map_err(|m| file_error(f, m))?;
    } else {
        for chunk in vals.chunks(prec.block) {
            let here = f.tell();
            f.seek_to(here as i128 + skip as i128)
                .map_err(|m| file_error(f, m))?;
            bytes.clear();
            for &x in chunk {
                prec.src.encode(x, order, &mut bytes);
            }
            f.write_bytes(&bytes).map_err(|m| file_error(f, m))?;
        }
    }
    Ok(vec![Value::Num(vals.len() as f64)])
}
