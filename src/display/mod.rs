//! MATLAB's Command Window display: `x = ...` for unterminated statements, `disp`, and the
//! `format` settings; plus the printf engine.

pub mod cformat;
pub mod containers;
pub mod numeric;
pub mod printf;

use crate::values::class::Class;
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumFormat {
    Short,
    Long,
    ShortE,
    LongE,
    ShortG,
    LongG,
    Bank,
    Rat,
    Hex,
    Plus,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    pub num: NumFormat,
    pub compact: bool,
}

impl Default for Format {
    fn default() -> Self {
        Format {
            num: NumFormat::Short,
            compact: false,
        }
    }
}

impl Format {
    /// Applies one `format` argument; returns false for an unknown one.
    pub fn set(&mut self, arg: &str) -> bool {
        let a = arg.to_ascii_lowercase().replace(' ', "");
        match a.as_str() {
            "" | "default" => *self = Format::default(),
            "short" => self.num = NumFormat::Short,
            "long" => self.num = NumFormat::Long,
            "shorte" => self.num = NumFormat::ShortE,
            "longe" => self.num = NumFormat::LongE,
            "shortg" => self.num = NumFormat::ShortG,
            "longg" => self.num = NumFormat::LongG,
            "bank" => self.num = NumFormat::Bank,
            "rat" | "rational" => self.num = NumFormat::Rat,
            "hex" => self.num = NumFormat::Hex,
            "+" | "plus" => self.num = NumFormat::Plus,
            "compact" => self.compact = true,
            "loose" => self.compact = false,
            "shorteng" => self.num = NumFormat::ShortE,
            "longeng" => self.num = NumFormat::LongE,
            _ => return false,
        }
        true
    }
}

/// `R×C` + class + shape word for headers like `  1×3 single row vector`.
fn shape_word(shape: &Shape) -> &'static str {
    if shape.ndims() > 2 {
        "array"
    } else if shape.rows() == 1 {
        "row vector"
    } else if shape.cols() == 1 {
        "column vector"
    } else {
        "matrix"
    }
}

/// The line for an empty array (`     []` for a 0×0 double).
pub fn empty_text(class_name: &str, shape: &Shape, vector_words: bool) -> String {
    if class_name == "double" && shape.dims() == [0, 0] {
        return "     []".into();
    }
    let word = if vector_words {
        shape_word(shape)
    } else {
        "array"
    };
    format!("  {} empty {class_name} {word}", shape.size_text())
}

/// The body of a numeric/logical/char array as displayed (lines without trailing newlines),
/// and the class header line if the class has one.
pub fn tensor_lines(t: &Tensor, fmt: &Format, width: usize) -> (Option<String>, Vec<String>) {
    let cls = t.class();
    let shape = &t.shape;
    if t.numel() == 0 {
        let vector_words = !matches!(cls, Class::Logical | Class::Char);
        return (None, vec![empty_text(cls.name(), shape, vector_words)]);
    }
    let header = match cls {
        Class::Double => None,
        Class::Char if shape.ndims() == 2 && shape.rows() == 1 => None,
        Class::Char | Class::Logical => {
            if shape.is_scalar() && cls == Class::Logical {
                Some("  logical".to_string())
            } else {
                Some(format!("  {} {} array", shape.size_text(), cls.name()))
            }
        }
        _ => {
            if shape.is_scalar() {
                Some(format!("  {}", cls.name()))
            } else {
                Some(format!(
                    "  {} {} {}",
                    shape.size_text(),
                    cls.name(),
                    shape_word(shape)
                ))
            }
        }
    };
    (header, page_lines(t, fmt, width))
}

/// Lines of a 2-D page (or every page of an N-D array, labelled by the caller).
fn page_lines(t: &Tensor, fmt: &Format, width: usize) -> Vec<String> {
    let cls = t.class();
    let (rows, cols) = (t.shape.rows(), t.shape.cols());
    if cls == Class::Char {
        let _ = cols;
        return t
            .char_rows()
            .into_iter()
            .map(|row| format!("    '{row}'"))
            .collect();
    }
    if t.shape.is_scalar() {
        let line = match &t.data {
            Data::C64(v) => numeric::complex_scalar(v[0], fmt),
            Data::C32(v) => numeric::complex_scalar(
                num_complex::Complex64::new(v[0].re as f64, v[0].im as f64),
                fmt,
            ),
            Data::Bool(v) => format!("   {}", v[0] as u8),
            Data::F64(v) => numeric::real_scalar(v[0], fmt, false),
            Data::F32(v) => numeric::real_scalar(v[0] as f64, fmt, true),
            _ => format!("   {}", int_elem_text(t, 0)),
        };
        return vec![line];
    }
    let (scale, w, cells) = match &t.data {
        Data::C64(_) | Data::C32(_) => {
            let l = numeric::complex_layout(&t.to_c64(), fmt);
            (l.scale, l.width, l.cells)
        }
        Data::Bool(v) => (
            None,
            4,
            v.iter().map(|b| format!("   {}", *b as u8)).collect(),
        ),
        Data::F64(_) | Data::F32(_) => {
            let l = numeric::real_layout(&t.to_f64(), fmt, cls == Class::Single);
            (l.scale, l.width, l.cells)
        }
        _ => {
            let texts: Vec<String> = (0..t.numel()).map(|i| int_elem_text(t, i)).collect();
            let w = texts.iter().map(|s| s.len()).max().unwrap_or(1) + 3;
            (
                None,
                w,
                texts
                    .iter()
                    .map(|s| format!("{}{s}", " ".repeat(w - s.len())))
                    .collect(),
            )
        }
    };
    let mut out = Vec::new();
    if let Some(s) = scale {
        out.push(s);
        if !fmt.compact {
            out.push(String::new());
        }
    }
    out.extend(numeric::column_blocks(
        &cells,
        rows,
        cols,
        w,
        width,
        fmt.compact,
    ));
    out
}

fn int_elem_text(t: &Tensor, i: usize) -> String {
    match &t.data {
        Data::I64(v) => v[i].to_string(),
        Data::U64(v) => v[i].to_string(),
        _ => format!("{}", t.get_f64(i) as i64),
    }
}

/// Index text for page `k` of an N-D array: `(:,:,2)` or `(:,:,1,3)`.
fn page_suffix(shape: &Shape, k: usize) -> String {
    let mut idx = Vec::new();
    let mut rem = k;
    for d in 2..shape.ndims() {
        let n = shape.dim(d);
        idx.push((rem % n + 1).to_string());
        rem /= n;
    }
    format!("(:,:,{})", idx.join(","))
}

fn page(t: &Tensor, k: usize) -> Tensor {
    let (r, c) = (t.shape.rows(), t.shape.dim(1));
    let n = r * c;
    let pos: Vec<usize> = (k * n..(k + 1) * n).collect();
    t.gather(&pos, Shape::matrix(r, c))
}

fn push_block(out: &mut String, lines: &[String]) {
    for l in lines {
        out.push_str(l);
        out.push('\n');
    }
}

/// `name = value` as the Command Window shows it.
pub fn display_named(name: &str, v: &Value, fmt: &Format, width: usize) -> String {
    // A graph value shows as its host data does; an explicit gpuArray (2-D, not empty) adds
    // MATLAB's header, `  1×3 gpuArray double row vector` or `  gpuArray single` for a scalar.
    let explicit = match v {
        Value::Device(d) => Some(d.explicit),
        Value::DeviceComplex(_) => Some(true),
        _ => None,
    };
    if let Some(explicit) = explicit {
        let h = match v.clone().host() {
            Ok(h) => h,
            Err(e) => return format!("{}\n", e.message()),
        };
        let t = match (&h, explicit) {
            (Value::Num(_) | Value::Bool(_) | Value::Tensor(_), true) => h.tensor().ok(),
            _ => None,
        };
        return match t {
            Some(t) if t.numel() > 0 && t.shape.ndims() == 2 => {
                gpu_array_named(name, &t, fmt, width)
            }
            _ => display_named(name, &h, fmt, width),
        };
    }
    let loose = !fmt.compact;
    let mut out = String::new();
    let open = |out: &mut String, header: &str| {
        if loose {
            out.push('\n');
        }
        out.push_str(header);
        out.push('\n');
        if loose {
            out.push('\n');
        }
    };
    match v {
        Value::Device(_) | Value::DeviceComplex(_) => {}
        Value::Num(_) | Value::Bool(_) | Value::Tensor(_) => {
            let t = match v.tensor() {
                Ok(t) => t,
                Err(_) => return out,
            };
            if t.shape.ndims() > 2 && t.numel() > 0 {
                let (header, _) = tensor_lines(&t, fmt, width);
                let npages = t.shape.numel() / (t.shape.rows() * t.shape.dim(1)).max(1);
                if let Some(h) = header {
                    open(&mut out, &format!("{name} ="));
                    out.push_str(&h);
                    out.push('\n');
                }
                for k in 0..npages {
                    let p = page(&t, k);
                    open(&mut out, &format!("{name}{} =", page_suffix(&t.shape, k)));
                    let (_, lines) = tensor_lines(&p, fmt, width);
                    push_block(&mut out, &lines);
                    if loose {
                        out.push('\n');
                    }
                }
                return out;
            }
            open(&mut out, &format!("{name} ="));
            let (header, lines) = tensor_lines(&t, fmt, width);
            if let Some(h) = header {
                out.push_str(&h);
                out.push('\n');
                if loose {
                    out.push('\n');
                }
            }
            push_block(&mut out, &lines);
            if loose {
                out.push('\n');
            }
        }
        Value::Str(s) => {
            open(&mut out, &format!("{name} = "));
            push_block(&mut out, &containers::string_lines(s, true));
            if loose {
                out.push('\n');
            }
        }
        Value::Cell(c) => {
            open(&mut out, &format!("{name} ="));
            push_block(&mut out, &containers::cell_lines(c, fmt, width, true));
            if loose {
                out.push('\n');
            }
        }
        Value::Struct(s) => {
            open(&mut out, &format!("{name} = "));
            push_block(&mut out, &containers::struct_lines(s, fmt, true));
            if loose {
                out.push('\n');
            }
        }
        Value::Func(h) => {
            open(&mut out, &format!("{name} ="));
            out.push_str("  function_handle with value:\n");
            if loose {
                out.push('\n');
            }
            out.push_str(&format!("    {}\n", h.display_text()));
            if loose {
                out.push('\n');
            }
        }
        Value::Object(o) => {
            open(&mut out, &format!("{name} = "));
            let lines = match o.as_ref() {
                crate::values::containers::Object::Time(t) => {
                    crate::dates::display::named_lines(t, width, loose)
                }
                _ => containers::object_lines(o, fmt),
            };
            push_block(&mut out, &lines);
            if loose {
                out.push('\n');
            }
        }
    }
    out
}

/// `name = ...` for an explicit gpuArray: MATLAB's class header, then the body.
fn gpu_array_named(name: &str, t: &Tensor, fmt: &Format, width: usize) -> String {
    let class = t.class().name();
    let header = if t.numel() == 1 {
        format!("  gpuArray {class}")
    } else {
        let shape = match (t.shape.rows(), t.shape.dim(1)) {
            _ if t.class() == crate::values::class::Class::Logical => "array",
            (1, _) => "row vector",
            (_, 1) => "column vector",
            _ => "matrix",
        };
        format!("  {} gpuArray {class} {shape}", t.shape.size_text())
    };
    let (_, lines) = tensor_lines(t, fmt, width);
    let gap = if fmt.compact { "" } else { "\n" };
    let mut out = format!("{gap}{name} =\n{gap}{header}\n{gap}");
    push_block(&mut out, &lines);
    out.push_str(gap);
    out
}

/// What `disp(v)` prints: the body without the name, blank lines, or class header.
pub fn disp_text(v: &Value, fmt: &Format, width: usize) -> String {
    if let Value::Device(_) | Value::DeviceComplex(_) = v {
        return match v.clone().host() {
            Ok(h) => disp_text(&h, fmt, width),
            Err(e) => format!("{}\n", e.message()),
        };
    }
    let mut out = String::new();
    match v {
        Value::Device(_) | Value::DeviceComplex(_) => {}
        Value::Num(_) | Value::Bool(_) | Value::Tensor(_) => {
            let Ok(t) = v.tensor() else { return out };
            if t.numel() == 0 {
                return out;
            }
            if t.class() == Class::Char {
                for row in t.char_rows() {
                    out.push_str(&row);
                    out.push('\n');
                }
                return out;
            }
            if t.shape.ndims() > 2 {
                let npages = t.numel() / (t.shape.rows() * t.shape.dim(1)).max(1);
                for k in 0..npages {
                    out.push_str(&format!("{} =\n\n", page_suffix(&t.shape, k)));
                    push_block(&mut out, &page_lines(&page(&t, k), fmt, width));
                    out.push('\n');
                }
                return out;
            }
            push_block(&mut out, &page_lines(&t, fmt, width));
        }
        Value::Str(s) => {
            if s.data.len() == 1 {
                out.push_str(&s.data[0]);
                out.push('\n');
            } else {
                push_block(&mut out, &containers::string_lines(s, false));
            }
        }
        Value::Cell(c) => {
            if c.data.is_empty() {
                return out;
            }
            push_block(&mut out, &containers::cell_lines(c, fmt, width, false));
        }
        Value::Struct(s) => push_block(&mut out, &containers::struct_lines(s, fmt, false)),
        Value::Func(h) => {
            out.push_str(&format!("    {}\n", h.display_text()));
        }
        Value::Object(o) => match o.as_ref() {
            crate::values::containers::Object::Time(t) => push_block(
                &mut out,
                &crate::dates::display::body(t, width, !fmt.compact),
            ),
            _ => push_block(&mut out, &containers::object_lines(o, fmt)),
        },
    }
    out
}
