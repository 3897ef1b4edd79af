//! Level 5 MAT-files to values: the header (byte order from the endian indicator), then each
//! top-level element (miMATRIX, or miCOMPRESSED holding one), parsed into a value of its class.
//! Nothing is assigned until the whole file has parsed, so a bad file leaves the workspace as
//! it was.

use super::decode::{Order, corrupt};
use super::format::*;
use crate::interp::error::{MError, MResult};
use crate::io::progress::Progress;
use crate::values::class::Class;
use crate::values::containers::{CellArray, StructArray};
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;
use num_complex::{Complex32, Complex64};
use std::io::Read;

/// The variables of a file, in file order, and warnings about what was skipped.
pub struct Contents {
    pub vars: Vec<(String, Value)>,
    pub warnings: Vec<(String, String)>,
}

/// The byte order a level 5 file declares; an error for anything else.
pub fn check_header(bytes: &[u8]) -> MResult<Order> {
    if bytes.len() >= 19 && bytes.starts_with(b"MATLAB 7.3 MAT-file") {
        return Err(MError::new(
            "MATLAB:load:unsupportedFormat",
            "Version 7.3 MAT-files (HDF5) are not supported by matfuse yet; save with -v7 or -v6.",
        ));
    }
    if bytes.len() < HEADER_LEN {
        return Err(not_mat());
    }
    match &bytes[126..128] {
        b"IM" => Ok(Order { big: false }),
        b"MI" => Ok(Order { big: true }),
        _ => Err(not_mat()),
    }
}

fn not_mat() -> MError {
    MError::new(
        "MATLAB:load:notBinaryFile",
        "Unable to read MAT-file: not a binary MAT-file. Try load -ASCII to read as text.",
    )
}

/// One top-level element: its type and its data (a compressed one already inflated).
pub struct TopElement<'a> {
    pub start: usize,
    pub end: usize,
    pub matrix: std::borrow::Cow<'a, [u8]>,
}

/// The top-level miMATRIX elements of a file (compressed ones inflated), each with its byte
/// range in the file.
pub fn top_elements<'a>(
    bytes: &'a [u8],
    order: Order,
    progress: &mut Progress,
) -> MResult<Vec<TopElement<'a>>> {
    let mut out = Vec::new();
    let mut pos = HEADER_LEN;
    while pos + 8 <= bytes.len() {
        let ty = order.u32(&bytes[pos..]);
        let n = order.u32(&bytes[pos + 4..]) as usize;
        let data_start = pos + 8;
        let data_end = match data_start.checked_add(n) {
            Some(e) if e <= bytes.len() => e,
            // an array declared a little past the end (Octave's last one): parsed by content
            Some(e) if ty == MI_MATRIX && e <= bytes.len() + 64 => bytes.len(),
            _ => return Err(corrupt("an element runs past the end of the file")),
        };
        let data = &bytes[data_start..data_end];
        let mut next = match ty {
            MI_COMPRESSED => data_end,
            _ => data_end + (8 - n % 8) % 8,
        };
        if ty == MI_MATRIX && !plausible_tag(bytes, next, order) {
            // declared longer than written (Octave): the next element starts where this one's
            // content ends
            let mut quiet = Vec::new();
            let mut r = Reader {
                order,
                warnings: &mut quiet,
            };
            let (_, used) = r.matrix(data, 0)?;
            next = data_start + used + (8 - used % 8) % 8;
        }

        match ty {
            MI_MATRIX => out.push(TopElement {
                start: pos,
                end: next.min(bytes.len()),
                matrix: std::borrow::Cow::Borrowed(data),
            }),
            MI_COMPRESSED => {
                let mut inflated = Vec::new();
                let mut z = flate2::read::ZlibDecoder::new(data);
                let mut chunk = vec![0u8; 1 << 20];
                loop {
                    let k = z
                        .read(&mut chunk)
                        .map_err(|_| corrupt("a compressed element does not inflate"))?;
                    if k == 0 {
                        break;
                    }
                    inflated.extend_from_slice(&chunk[..k]);
                    let at = data_start + z.total_in() as usize;
                    progress.at(0.2 + 0.8 * at as f64 / bytes.len() as f64);
                }
                if inflated.len() < 8 || order.u32(&inflated) != MI_MATRIX {
                    return Err(corrupt("a compressed element holds no array"));
                }
                // (Octave may declare a few bytes more than it compressed: take what is there)
                let m = (order.u32(&inflated[4..]) as usize).min(inflated.len() - 8);
                let body = inflated[8..8 + m].to_vec();
                out.push(TopElement {
                    start: pos,
                    end: data_end,
                    matrix: std::borrow::Cow::Owned(body),
                });
            }
            _ => {} // other top-level elements carry nothing loadable
        }
        pos = next;
        progress.at(0.2 + 0.8 * pos.min(bytes.len()) as f64 / bytes.len() as f64);
    }
    Ok(out)
}

/// Whether a top-level element's tag can start at `pos` (or the file ends there).
fn plausible_tag(bytes: &[u8], pos: usize, order: Order) -> bool {
    if pos + 8 > bytes.len() {
        return true;
    }
    let ty = order.u32(&bytes[pos..]);
    let n = order.u32(&bytes[pos + 4..]) as usize;
    matches!(ty, MI_MATRIX | MI_COMPRESSED) && pos + 8 + n <= bytes.len() + 64
}

/// The name of a top-level miMATRIX element, without parsing its data.
pub fn element_name(order: Order, matrix: &[u8]) -> MResult<String> {
    let mut c = Cursor::new(matrix, order);
    if matrix.is_empty() {
        return Ok(String::new());
    }
    c.sub()?;
    c.sub()?;
    let (_, name) = c.sub()?;
    Ok(String::from_utf8_lossy(name).into_owned())
}

/// Parses every variable `want` accepts.
pub fn read(
    bytes: &[u8],
    want: &dyn Fn(&str) -> bool,
    progress: &mut Progress,
) -> MResult<Contents> {
    let order = check_header(bytes)?;
    let mut contents = Contents {
        vars: Vec::new(),
        warnings: Vec::new(),
    };
    for e in top_elements(bytes, order, progress)? {
        let name = element_name(order, &e.matrix)?;
        if !want(&name) {
            continue;
        }
        let mut r = Reader {
            order,
            warnings: &mut contents.warnings,
        };
        if let (Some((name, v)), _) = r.matrix(&e.matrix, 0)? {
            contents.vars.retain(|(n, _)| *n != name);
            contents.vars.push((name, v));
        }
    }
    Ok(contents)
}

/// Walks the subelements of one miMATRIX element.
struct Cursor<'a> {
    b: &'a [u8],
    pos: usize,
    order: Order,
}

impl<'a> Cursor<'a> {
    fn new(b: &'a [u8], order: Order) -> Cursor<'a> {
        Cursor { b, pos: 0, order }
    }
    /// The next subelement: its type and data (small data elements unpacked).
    fn sub(&mut self) -> MResult<(u32, &'a [u8])> {
        let b = self.b;
        if self.pos + 4 > b.len() {
            return Err(corrupt("an array element is cut short"));
        }
        let word = self.order.u32(&b[self.pos..]);
        if word >> 16 != 0 {
            // small data element: count in the upper half, type in the lower
            let n = (word >> 16) as usize;
            if n > 4 || self.pos + 4 + n > b.len() {
                return Err(corrupt("a small data element is malformed"));
            }
            let data = &b[self.pos + 4..self.pos + 4 + n];
            self.pos = (self.pos + 8).min(b.len());
            return Ok((word & 0xffff, data));
        }
        if self.pos + 8 > b.len() {
            return Err(corrupt("an array element is cut short"));
        }
        let n = self.order.u32(&b[self.pos + 4..]) as usize;
        let start = self.pos + 8;
        let end = start
            .checked_add(n)
            .filter(|&e| e <= b.len())
            .ok_or_else(|| corrupt("an array element runs past its end"))?;
        self.pos = (end + (8 - n % 8) % 8).min(b.len());
        Ok((word, &b[start..end]))
    }
}

struct Reader<'w> {
    order: Order,
    warnings: &'w mut Vec<(String, String)>,
}

impl Reader<'_> {
    /// One miMATRIX element's data: its name and value (None for a value skipped with a
    /// warning).
    /// Also returns the bytes it used: Octave declares some arrays (those holding 4 bytes of
    /// UTF-8 text) 4 bytes longer than it writes them, and reads by content, not by size.
    fn matrix(&mut self, data: &[u8], depth: usize) -> MResult<(Option<(String, Value)>, usize)> {
        if depth > 200 {
            return Err(corrupt("cells and structs are nested too deeply"));
        }
        if data.is_empty() {
            // an empty element stands for [] (SciPy writes empty cells so)
            return Ok((Some((String::new(), Value::empty())), 0));
        }
        let order = self.order;
        let mut c = Cursor::new(data, order);
        let (fty, flags) = c.sub()?;
        if fty != MI_UINT32 || flags.len() < 4 {
            return Err(corrupt("an array has no array flags"));
        }
        let flags = order.u32(flags);
        let code = (flags & 0xff) as u8;
        let complex = flags & FLAG_COMPLEX != 0;
        let logical = flags & FLAG_LOGICAL != 0;
        if code == MX_FUNCTION || code == MX_OPAQUE {
            let name = self.skipped_name(&mut c, code);
            let what = if code == MX_FUNCTION {
                "a function handle"
            } else {
                "an object (string, table, datetime, ...)"
            };
            self.warn(
                "MATLAB:load:cannotLoadClass",
                format!(
                    "Variable '{name}' is {what}, which matfuse cannot load yet; it was skipped."
                ),
            );
            return Ok((None, data.len()));
        }
        let (dty, dims) = c.sub()?;
        let dims = order.ints(dty, dims)?;
        let mut shape_dims = Vec::with_capacity(dims.len().max(2));
        let mut numel: usize = 1;
        for d in dims {
            let d = usize::try_from(d).map_err(|_| corrupt("a negative dimension"))?;
            numel = numel
                .checked_mul(d)
                .ok_or_else(|| corrupt("dimensions too large"))?;
            shape_dims.push(d);
        }
        while shape_dims.len() < 2 {
            shape_dims.push(1);
        }
        let shape = Shape::new(&shape_dims);
        let (_, name) = c.sub()?;
        let name = String::from_utf8_lossy(name).into_owned();
        let value = match code {
            MX_CELL => {
                if numel.saturating_mul(8) > data.len() {
                    return Err(corrupt("a cell array is larger than its data"));
                }
                let mut cells = Vec::new();
                for _ in 0..numel {
                    cells.push(self.child(&mut c, depth)?);
                }
                Value::from(CellArray::new(shape, cells))
            }
            MX_STRUCT | MX_OBJECT => {
                if code == MX_OBJECT {
                    let (_, class) = c.sub()?;
                    self.warn(
                        "MATLAB:load:classNotFound",
                        format!(
                            "Variable '{name}' is an object of class {}; it was loaded as a struct.",
                            String::from_utf8_lossy(class)
                        ),
                    );
                }
                self.structure(&mut c, shape, numel, depth)?
            }
            MX_SPARSE => self.sparse(&mut c, &name, shape, complex, logical)?,
            _ => {
                let class = match code_class(code) {
                    Some(Class::UInt8) if logical => Class::Logical,
                    Some(k) => k,
                    None => return Err(corrupt("an array has an unknown class")),
                };
                let (rty, re) = c.sub()?;
                let data = if complex {
                    let (ity, im) = c.sub()?;
                    complex_data(order, class, (rty, re), (ity, im), numel)?
                } else {
                    order.data(class, rty, re, numel)?
                };
                Value::from_tensor(Tensor::new(shape, data))
            }
        };
        Ok((Some((name, value)), c.pos))
    }

    fn warn(&mut self, id: &str, msg: String) {
        self.warnings.push((id.to_string(), msg));
    }

    /// The name of an array that is skipped (function handles, opaque objects).
    fn skipped_name(&self, c: &mut Cursor, code: u8) -> String {
        let mut name = || -> MResult<String> {
            if code == MX_OPAQUE {
                // opaque arrays have no dimensions: name, then type system and class
                let (_, n) = c.sub()?;
                return Ok(String::from_utf8_lossy(n).into_owned());
            }
            c.sub()?;
            let (_, n) = c.sub()?;
            Ok(String::from_utf8_lossy(n).into_owned())
        };
        name().unwrap_or_default()
    }

    /// A cell's or field's value (an element inside a cell or struct).
    fn child(&mut self, c: &mut Cursor, depth: usize) -> MResult<Value> {
        let start = c.pos + 8;
        let (ty, data) = c.sub()?;
        if ty != MI_MATRIX {
            return Err(corrupt("a cell or field is not an array"));
        }
        let (v, used) = self.matrix(data, depth + 1)?;
        if used < data.len() {
            c.pos = (start + used + (8 - used % 8) % 8).min(c.b.len());
        }
        Ok(v.map(|(_, v)| v).unwrap_or_else(Value::empty))
    }

    fn structure(
        &mut self,
        c: &mut Cursor,
        shape: Shape,
        numel: usize,
        depth: usize,
    ) -> MResult<Value> {
        let (lty, len) = c.sub()?;
        let slot = *self
            .order
            .ints(lty, len)?
            .first()
            .ok_or_else(|| corrupt("a struct has no field name length"))?;
        let slot = usize::try_from(slot).map_err(|_| corrupt("a bad field name length"))?;
        let (_, names) = c.sub()?;
        let fields: Vec<String> = if slot == 0 {
            Vec::new()
        } else {
            names
                .chunks(slot)
                .map(|n| {
                    let end = n.iter().position(|&b| b == 0).unwrap_or(n.len());
                    String::from_utf8_lossy(&n[..end]).into_owned()
                })
                .collect()
        };
        // each field of each element takes at least 8 bytes; fieldless elements none, so
        // their count is bounded like any array's
        if numel.saturating_mul(fields.len()).saturating_mul(8) > c.b.len() {
            return Err(corrupt("a struct array is larger than its data"));
        }
        crate::values::limits::check_count(numel, 8)?;
        let mut elems = Vec::new();
        for _ in 0..numel {
            let mut e = Vec::with_capacity(fields.len());
            for _ in 0..fields.len() {
                e.push(self.child(c, depth)?);
            }
            elems.push(e);
        }
        Ok(Value::from(StructArray {
            shape,
            fields,
            elems,
        }))
    }

    /// A sparse matrix, loaded full (matfuse has no sparse arrays yet), with a warning.
    fn sparse(
        &mut self,
        c: &mut Cursor,
        name: &str,
        shape: Shape,
        complex: bool,
        logical: bool,
    ) -> MResult<Value> {
        let order = self.order;
        let (ity, ir) = c.sub()?;
        let (jty, jc) = c.sub()?;
        let (pty, pr) = c.sub()?;
        let ir = order.ints(ity, ir)?;
        let jc = order.ints(jty, jc)?;
        let re = order.floats(pty, pr)?;
        let im = if complex {
            let (qty, pi) = c.sub()?;
            Some(order.floats(qty, pi)?)
        } else {
            None
        };
        let (rows, cols) = (shape.dims()[0], shape.dims()[1]);
        if shape.dims().len() != 2 || jc.len() < cols + 1 {
            return Err(corrupt("a sparse matrix is malformed"));
        }
        crate::values::limits::check_count(shape.numel(), 8)?;
        let mut full = vec![Complex64::new(0.0, 0.0); shape.numel()];
        for j in 0..cols {
            let (a, b) = (jc[j].max(0) as usize, jc[j + 1].max(0) as usize);
            for k in a..b {
                let (Some(&i), Some(&x)) = (ir.get(k), re.get(k)) else {
                    return Err(corrupt("a sparse matrix is malformed"));
                };
                let i = i as usize;
                if i >= rows {
                    return Err(corrupt("a sparse matrix is malformed"));
                }
                let y = im.as_ref().and_then(|v| v.get(k).copied()).unwrap_or(0.0);
                full[i + j * rows] = Complex64::new(x, y);
            }
        }
        self.warn(
            "MATLAB:load:sparseAsFull",
            format!("Variable '{name}' is sparse; matfuse has no sparse arrays yet, so it was loaded as a full matrix."),
        );
        let data = if logical {
            Data::Bool(full.iter().map(|z| z.re != 0.0).collect())
        } else if complex {
            Data::C64(full)
        } else {
            Data::F64(full.iter().map(|z| z.re).collect())
        };
        Ok(Value::from_tensor(Tensor::new(shape, data)))
    }
}

/// Complex storage from real and imaginary parts (single stays single; integer classes, which
/// matfuse holds only real, become complex double).
fn complex_data(
    order: Order,
    class: Class,
    (rty, re): (u32, &[u8]),
    (ity, im): (u32, &[u8]),
    n: usize,
) -> MResult<Data> {
    let re = order.floats(rty, re)?;
    let im = order.floats(ity, im)?;
    if re.len() != n || im.len() != n {
        return Err(corrupt("complex data does not match its dimensions"));
    }
    Ok(match class {
        Class::Single => Data::C32(
            re.iter()
                .zip(&im)
                .map(|(&a, &b)| Complex32::new(a as f32, b as f32))
                .collect(),
        ),
        _ => Data::C64(
            re.iter()
                .zip(&im)
                .map(|(&a, &b)| Complex64::new(a, b))
                .collect(),
        ),
    })
}
