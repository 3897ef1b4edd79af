//! Values to level 5 data elements: each variable one miMATRIX element (array flags,
//! dimensions, name, then its data or its cells' and fields' own miMATRIX elements), zlib
//! compressed into a miCOMPRESSED element for v7.

use super::format::*;
use crate::interp::error::{MError, MResult};
use crate::values::class::Class;
use crate::values::containers::{CellArray, StructArray};
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;
use crate::with_data;
use std::io::Write;

/// A warning found while writing (identifier, message), printed by the caller.
pub type Warning = (String, String);

/// Writes `v` as the miMATRIX element of variable `name`; None (with a warning) for a value the
/// format cannot hold (a function handle, an object).
/// Chars are written as UTF-16 code units (miUINT16), which MATLAB and Octave read whole;
/// SciPy's `loadmat` needs `uint16_codec='utf-16-le'` for those past ASCII. (As UTF-8,
/// Octave cuts text past ASCII to as many bytes as it has chars.)
pub fn variable(name: &str, v: &Value, warnings: &mut Vec<Warning>) -> MResult<Option<Vec<u8>>> {
    if let Some(what) = unsavable(v) {
        warnings.push((
            "MATLAB:save:unsupportedType".into(),
            format!(
                "Variable '{name}' is {what}, which matfuse cannot save yet; it was not saved."
            ),
        ));
        return Ok(None);
    }
    let mut out = Vec::new();
    let mut w = Writer { warnings };
    w.matrix(&mut out, name, v, 0)?;
    Ok(Some(out))
}

/// Why a top-level value cannot be saved, if it cannot.
fn unsavable(v: &Value) -> Option<String> {
    match v {
        Value::Func(_) => Some("a function handle".into()),
        Value::Object(o) => Some(format!("an object of class {}", o.class_name())),
        _ => None,
    }
}

/// zlib-compresses an element into a miCOMPRESSED element (v7), a megabyte at a time so that
/// a long save can show its progress.
pub fn compress(element: &[u8], consumed: &mut dyn FnMut(usize)) -> MResult<Vec<u8>> {
    let io = |e: std::io::Error| MError::new("MATLAB:save:couldNotWriteFile", e.to_string());
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    for chunk in element.chunks(1 << 20) {
        z.write_all(chunk).map_err(io)?;
        consumed(chunk.len());
    }
    let body = z.finish().map_err(io)?;
    let mut out = Vec::with_capacity(body.len() + 8);
    out.extend_from_slice(&MI_COMPRESSED.to_le_bytes());
    out.extend_from_slice(&len_u32(body.len())?.to_le_bytes());
    out.extend_from_slice(&body);
    Ok(out)
}

fn len_u32(n: usize) -> MResult<u32> {
    u32::try_from(n).map_err(|_| {
        MError::new(
            "MATLAB:save:sizeTooBigForMATFile",
            "A variable is too large for a version 7 or earlier MAT-file (2 GB per variable); version 7.3 is not supported yet.",
        )
    })
}

/// A data element: the tag and the data padded to 8 bytes, or a small data element (data of
/// 1 to 4 bytes packed beside its tag) as MATLAB writes them.
fn element(out: &mut Vec<u8>, ty: u32, bytes: &[u8]) -> MResult<()> {
    let n = bytes.len();
    if (1..=4).contains(&n) {
        out.extend_from_slice(&(((n as u32) << 16) | ty).to_le_bytes());
        out.extend_from_slice(bytes);
        out.resize(out.len() + 4 - n, 0);
        return Ok(());
    }
    out.extend_from_slice(&ty.to_le_bytes());
    out.extend_from_slice(&len_u32(n)?.to_le_bytes());
    out.extend_from_slice(bytes);
    out.resize(out.len() + (8 - n % 8) % 8, 0);
    Ok(())
}

/// Array flags, dimensions and name: the start of every miMATRIX element.
fn preamble(out: &mut Vec<u8>, code: u8, flags: u32, shape: &Shape, name: &str) -> MResult<()> {
    let mut f = Vec::with_capacity(8);
    f.extend_from_slice(&(flags | code as u32).to_le_bytes());
    f.extend_from_slice(&0u32.to_le_bytes());
    element(out, MI_UINT32, &f)?;
    let mut d = Vec::new();
    for &n in shape.dims() {
        let n = i32::try_from(n).map_err(|_| {
            MError::new(
                "MATLAB:save:sizeTooBigForMATFile",
                "A dimension is too large for a version 7 or earlier MAT-file.",
            )
        })?;
        d.extend_from_slice(&n.to_le_bytes());
    }
    if shape.dims().len() < 2 {
        d.extend_from_slice(&1i32.to_le_bytes());
    }
    element(out, MI_INT32, &d)?;
    element(out, MI_INT8, name.as_bytes())
}

/// The little-endian bytes of a real storage.
fn le_bytes(d: &Data) -> Vec<u8> {
    trait Le {
        fn put(&self, out: &mut Vec<u8>);
    }
    macro_rules! le {
        ($($t:ty),*) => {$(
            impl Le for $t { fn put(&self, out: &mut Vec<u8>) { out.extend_from_slice(&self.to_le_bytes()) } }
        )*};
    }
    le!(f64, f32, i8, i16, i32, i64, u8, u16, u32, u64);
    impl Le for bool {
        fn put(&self, out: &mut Vec<u8>) {
            out.push(*self as u8)
        }
    }
    impl Le for num_complex::Complex64 {
        fn put(&self, out: &mut Vec<u8>) {
            out.extend_from_slice(&self.re.to_le_bytes())
        }
    }
    impl Le for num_complex::Complex32 {
        fn put(&self, out: &mut Vec<u8>) {
            out.extend_from_slice(&self.re.to_le_bytes())
        }
    }
    with_data!(d, v => {
        let mut out = Vec::with_capacity(v.len() * std::mem::size_of_val(v.first().unwrap_or(&Default::default())));
        let mut tick = crate::interp::interrupt::Ticker::new();
        for x in v.iter() {
            tick.tick();
            x.put(&mut out);
        }
        out
    })
}

struct Writer<'w> {
    warnings: &'w mut Vec<Warning>,
}

impl Writer<'_> {
    /// The miMATRIX element of one value (`name` empty inside cells and structs).
    fn matrix(&mut self, out: &mut Vec<u8>, name: &str, v: &Value, depth: usize) -> MResult<()> {
        if depth > 200 {
            return Err(MError::new(
                "MATLAB:save:nestingTooDeep",
                "Cells and structs are nested too deeply to save.",
            ));
        }
        let start = out.len();
        out.extend_from_slice(&MI_MATRIX.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        match v {
            Value::Num(x) => self.numeric(out, name, &Tensor::scalar_f64(*x))?,
            Value::Bool(b) => self.numeric(out, name, &Tensor::bools(Shape::scalar(), vec![*b]))?,
            Value::Tensor(t) => self.numeric(out, name, t)?,
            Value::Device(_) | Value::DeviceComplex(_) => {
                self.numeric(out, name, &v.clone().host()?.into_tensor()?)?
            }
            Value::Str(s) => {
                self.warnings.push((
                    "MATLAB:save:stringAsChar".into(),
                    "String arrays are saved as char (a scalar) or as a cell array of char vectors; MAT-files of versions 7 and earlier cannot hold strings.".into(),
                ));
                if s.data.len() == 1 {
                    self.numeric(out, name, &Tensor::char_row(&s.data[0]))?;
                } else {
                    let cells = s.data.iter().map(|t| Value::str(t)).collect();
                    self.cell(out, name, &CellArray::new(s.shape.clone(), cells), depth)?;
                }
            }
            Value::Cell(c) => self.cell(out, name, c, depth)?,
            Value::Struct(s) => self.structure(out, name, s, depth)?,
            Value::Func(_) | Value::Object(_) => {
                // inside a cell or struct: an empty double stands in for it
                self.warnings.push((
                    "MATLAB:save:unsupportedType".into(),
                    format!(
                        "A value of class {} inside a cell or struct was saved as [].",
                        v.class_name()
                    ),
                ));
                self.numeric(out, name, &Tensor::empty())?
            }
        }
        let n = len_u32(out.len() - start - 8)?;
        out[start + 4..start + 8].copy_from_slice(&n.to_le_bytes());
        Ok(())
    }

    fn numeric(&self, out: &mut Vec<u8>, name: &str, t: &Tensor) -> MResult<()> {
        let class = t.class();
        let mut flags = 0;
        if class == Class::Logical {
            flags |= FLAG_LOGICAL;
        }
        if t.is_complex() {
            flags |= FLAG_COMPLEX;
        }
        preamble(out, class_code(class), flags, &t.shape, name)?;
        let ty = storage_type(class);
        match &t.data {
            Data::C64(v) => {
                let re: Vec<u8> = v.iter().flat_map(|z| z.re.to_le_bytes()).collect();
                let im: Vec<u8> = v.iter().flat_map(|z| z.im.to_le_bytes()).collect();
                element(out, ty, &re)?;
                element(out, ty, &im)
            }
            Data::C32(v) => {
                let re: Vec<u8> = v.iter().flat_map(|z| z.re.to_le_bytes()).collect();
                let im: Vec<u8> = v.iter().flat_map(|z| z.im.to_le_bytes()).collect();
                element(out, ty, &re)?;
                element(out, ty, &im)
            }
            Data::Bool(v) => element(out, ty, &v.iter().map(|&b| b as u8).collect::<Vec<u8>>()),
            d => element(out, ty, &le_bytes(d)),
        }
    }

    fn cell(&mut self, out: &mut Vec<u8>, name: &str, c: &CellArray, depth: usize) -> MResult<()> {
        preamble(out, MX_CELL, 0, &c.shape, name)?;
        for v in &c.data {
            self.matrix(out, "", v, depth + 1)?;
        }
        Ok(())
    }

    fn structure(
        &mut self,
        out: &mut Vec<u8>,
        name: &str,
        s: &StructArray,
        depth: usize,
    ) -> MResult<()> {
        preamble(out, MX_STRUCT, 0, &s.shape, name)?;
        // each name in a slot of the same length, NUL-terminated (at least 32, as MATLAB writes)
        let longest = s.fields.iter().map(|f| f.len()).max().unwrap_or(0);
        let slot = (longest + 1).max(32);
        element(out, MI_INT32, &(slot as i32).to_le_bytes())?;
        let mut names = vec![0u8; slot * s.fields.len()];
        for (k, f) in s.fields.iter().enumerate() {
            names[k * slot..k * slot + f.len()].copy_from_slice(f.as_bytes());
        }
        element(out, MI_INT8, &names)?;
        for e in &s.elems {
            for v in e {
                self.matrix(out, "", v, depth + 1)?;
            }
        }
        Ok(())
    }
}
