//! Low-level files: fopen fclose fgetl fgets fscanf feof ftell fseek frewind ferror fflush,
//! and writing text to a file identifier for fprintf (binary fread/fwrite are in
//! file_binary.rs). The open files live in the session (`Interp::files`).

use super::{Builtin, b, bad_arg, one, text_arg};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::interp::output;
use crate::io::files::{ByteOrder, Encoding, OpenFile, Permission};
use crate::io::scanf::{self, Format};
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("fopen", 1, 4, 4, "[fid, errmsg] = fopen(name, permission, machinefmt, encoding): open a file (r w a r+ w+ a+, t or b); fid is -1 when it cannot be opened. fopen('all') lists open identifiers; [name, permission, machinefmt, encoding] = fopen(fid).", fopen),
        b("fclose", 1, 1, 1, "status = fclose(fid), fclose('all'): close files (0 on success, -1 on failure).", fclose),
        b("fgetl", 1, 1, 1, "tline = fgetl(fid): the next line without its newline; -1 at the end of the file.", fgetl),
        b("fgets", 1, 2, 2, "tline = fgets(fid, nchar): the next line with its newline; -1 at the end of the file.", fgets),
        b("fscanf", 2, 3, 3, "[A, count, errmsg] = fscanf(fid, format, size): read formatted data from a file (size n, Inf, [m n], [m Inf]; filled column by column).", fscanf),
        b("feof", 1, 1, 1, "feof(fid): 1 at the end of the file, 0 otherwise.", feof),
        b("ftell", 1, 1, 1, "ftell(fid): the position in bytes from the start of the file.", ftell),
        b("fseek", 2, 3, 1, "status = fseek(fid, offset, origin): move the position ('bof' -1, 'cof' 0, 'eof' 1); 0 on success, -1 on failure.", fseek),
        b("frewind", 1, 1, 0, "frewind(fid): move to the start of the file.", frewind),
        b("ferror", 1, 2, 2, "[msg, errnum] = ferror(fid), ferror(fid, 'clear'): the last error of a file operation.", ferror),
        b("fflush", 0, 1, 1, "fflush(fid): write buffered output to the file.", fflush),
    ]
}

/// MATLAB's error for an identifier that names no open file.
pub fn invalid_fid() -> MError {
    MError::new(
        "MATLAB:FileIO:InvalidFid",
        "Invalid file identifier. Use fopen to generate a valid file identifier.",
    )
}

/// A file identifier argument (any integer; whether it is open is checked by the caller).
pub fn fid_arg(v: &Value) -> MResult<i32> {
    if !v.is_numeric_like() || v.is_char() || v.numel() != 1 {
        return Err(invalid_fid());
    }
    let x = v.scalar_f64().map_err(|_| invalid_fid())?;
    if x.fract() != 0.0 || !x.is_finite() || x.abs() > i32::MAX as f64 {
        return Err(invalid_fid());
    }
    Ok(x as i32)
}

/// The open file behind an identifier argument.
pub fn file<'a>(i: &'a mut Interp, v: &Value) -> MResult<&'a mut OpenFile> {
    let id = fid_arg(v)?;
    i.files.get(id).ok_or_else(invalid_fid)
}

/// Writes text to a file identifier (1 standard output, 2 standard error); returns the bytes
/// written. fprintf and fwrite of text come through here.
pub fn write_text(i: &mut Interp, fid: &Value, text: &str) -> MResult<usize> {
    match fid_arg(fid)? {
        1 => {
            output::write_str(text);
            Ok(text.len())
        }
        2 => {
            output::write_err(text);
            Ok(text.len())
        }
        id => {
            let f = i.files.get(id).ok_or_else(invalid_fid)?;
            let bytes = f.encoding.encode(text);
            f.write_bytes(&bytes).map_err(|m| file_error(f, m))?;
            Ok(bytes.len())
        }
    }
}

/// Records a failed operation for ferror and raises it.
pub fn file_error(f: &mut OpenFile, msg: String) -> MError {
    f.error = msg.clone();
    MError::new("MATLAB:FileIO:OperationFailed", msg)
}

fn fopen(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    if !a[0].is_text() {
        // [name, permission, machinefmt, encoding] = fopen(fid)
        let id = fid_arg(&a[0])?;
        let info: [String; 4] = match id {
            0 => [
                "\"stdin\"".into(),
                "r".into(),
                "ieee-le".into(),
                "UTF-8".into(),
            ],
            1 => [
                "\"stdout\"".into(),
                "w".into(),
                "ieee-le".into(),
                "UTF-8".into(),
            ],
            2 => [
                "\"stderr\"".into(),
                "w".into(),
                "ieee-le".into(),
                "UTF-8".into(),
            ],
            _ => match i.files.get(id) {
                Some(f) => [
                    f.name.clone(),
                    f.permission.shown.clone(),
                    f.order.name().into(),
                    f.encoding.name().into(),
                ],
                None => Default::default(),
            },
        };
        let mut out: Vec<Value> = info.iter().map(|s| Value::str(s)).collect();
        out.truncate(nargout.max(1));
        return Ok(out);
    }
    let name = text_arg(&a[0], "fopen")?;
    if name == "all" && a.len() == 1 {
        let ids: Vec<f64> = i.files.ids().into_iter().map(f64::from).collect();
        if ids.is_empty() {
            return one(Value::empty());
        }
        return one(Value::row(ids));
    }
    let perm_text = match a.get(1) {
        Some(v) => text_arg(v, "fopen")?,
        None => "r".into(),
    };
    let perm = Permission::parse(&perm_text).ok_or_else(|| {
        MError::new(
            "MATLAB:fopen:InvalidPermission",
            format!("Invalid permission '{perm_text}'."),
        )
    })?;
    let mut order = ByteOrder::Little;
    let mut encoding = Encoding::Utf8;
    for (k, v) in a.iter().enumerate().skip(2) {
        let t = text_arg(v, "fopen")?;
        if k == 2 {
            if let Some(o) = ByteOrder::from_name(&t) {
                order = o;
                continue;
            }
            if t.is_empty() {
                continue;
            }
        }
        match Encoding::from_name(&t) {
            Some(e) => encoding = e,
            None if k == 2 => {
                return Err(MError::new(
                    "MATLAB:fopen:InvalidMachineFormat",
                    format!("Invalid machine format '{t}'."),
                ));
            }
            None => crate::interp::warning::emit(
                "MATLAB:iofun:UnsupportedEncoding",
                &format!("The encoding '{t}' is not supported. See the documentation for FOPEN."),
            ),
        }
    }
    let (fid, msg) = if name.is_empty() || name.contains('\0') {
        (-1.0, "No such file or directory".to_string())
    } else {
        match OpenFile::open(&name, perm, order, encoding) {
            Ok(f) => (f64::from(i.files.insert(f)), String::new()),
            Err(m) => (-1.0, m),
        }
    };
    let mut out = vec![Value::Num(fid), Value::str(&msg)];
    out.truncate(nargout.clamp(1, 2));
    Ok(out)
}

fn fclose(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    if a[0].is_text() {
        let t = text_arg(&a[0], "fclose")?;
        if t != "all" {
            return Err(invalid_fid());
        }
        i.files.close_all();
        return one(Value::Num(0.0));
    }
    let id = fid_arg(&a[0])?;
    if (0..=2).contains(&id) {
        return one(Value::Num(0.0));
    }
    match i.files.close(id) {
        Some(Ok(())) => one(Value::Num(0.0)),
        Some(Err(_)) => one(Value::Num(-1.0)),
        None => Err(invalid_fid()),
    }
}

/// The next line of a file as a char row (None at the end of the file).
fn next_line(
    i: &mut Interp,
    fid: &Value,
    keep_newline: bool,
    limit: usize,
) -> MResult<Option<Value>> {
    let f = file(i, fid)?;
    f.skip_bom();
    let line = f.read_line(limit).map_err(|m| file_error(f, m))?;
    let Some(mut line) = line else {
        return Ok(None);
    };
    if !keep_newline {
        if line.last() == Some(&b'\n') {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
        }
    }
    let chars = f.encoding.decode(&line);
    // an empty line is '' (0x0), as MATLAB returns it
    let shape = if chars.is_empty() {
        Shape::matrix(0, 0)
    } else {
        Shape::row(chars.len())
    };
    Ok(Some(Value::from_tensor(Tensor::new(
        shape,
        Data::Char(chars),
    ))))
}

fn fgetl(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(next_line(i, &a[0], false, usize::MAX)?.unwrap_or(Value::Num(-1.0)))
}

fn fgets(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let limit = match a.get(1) {
        Some(v) => {
            let n = v.scalar_f64()?;
            if !(n >= 1.0) {
                return Err(bad_arg(
                    "fgets",
                    "The number of characters must be positive.",
                ));
            }
            n.min(usize::MAX as f64) as usize
        }
        None => usize::MAX,
    };
    let line = next_line(i, &a[0], true, limit)?;
    let mut out = vec![line.unwrap_or(Value::Num(-1.0))];
    if nargout > 1 {
        // the line terminator(s) of the line read
        let term = match &out[0] {
            Value::Tensor(t) => {
                let s = t.to_text();
                let n = s.len() - s.trim_end_matches(['\n', '\r']).len();
                s[s.len() - n..].chars().map(|c| c as u32 as f64).collect()
            }
            _ => vec![],
        };
        out.push(Value::row(term));
    }
    Ok(out)
}

fn fscanf(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let fmt = text_arg(&a[1], "fscanf")?;
    let dims = super::scan::size_arg(a.get(2), "fscanf")?;
    let f = file(i, &a[0])?;
    f.skip_bom();
    let rest = f.rest().map_err(|m| file_error(f, m))?;
    let r = match f.encoding {
        Encoding::Utf8 => scanf::scan(&rest, &Format::parse(&fmt), super::scan::limit(dims)),
        enc => {
            // single-byte encodings are scanned as UTF-8; positions map back byte for byte
            // only for ASCII text, which is what such files hold in practice
            let text = enc.decode_string(&rest);
            scanf::scan(
                text.as_bytes(),
                &Format::parse(&fmt),
                super::scan::limit(dims),
            )
        }
    };
    let to_end = r.used >= rest.len();
    f.advance(r.used.min(rest.len()), to_end);
    let (count, error) = (r.count, r.error.clone());
    let mut out = vec![
        super::scan::shaped(r, dims),
        Value::Num(count as f64),
        Value::str(&error),
    ];
    out.truncate(nargout.clamp(1, 3));
    Ok(out)
}

fn feof(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let id = fid_arg(&a[0])?;
    if (0..=2).contains(&id) {
        return one(Value::Num(0.0));
    }
    let f = i.files.get(id).ok_or_else(invalid_fid)?;
    one(Value::Num(if f.at_end() { 1.0 } else { 0.0 }))
}

fn ftell(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let id = fid_arg(&a[0])?;
    if (0..=2).contains(&id) {
        return one(Value::Num(-1.0));
    }
    let f = i.files.get(id).ok_or_else(invalid_fid)?;
    one(Value::Num(f.tell() as f64))
}

fn fseek(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let offset = a[1].scalar_f64()?;
    if !offset.is_finite() || offset.fract() != 0.0 {
        return Err(bad_arg("fseek", "The offset must be an integer."));
    }
    let origin = match a.get(2) {
        None => -1,
        Some(v) if v.is_text() => match text_arg(v, "fseek")?.as_str() {
            "bof" => -1,
            "cof" => 0,
            "eof" => 1,
            _ => return Err(bad_arg("fseek", "Invalid origin.")),
        },
        Some(v) => match v.scalar_f64()? {
            x if x == -1.0 => -1,
            x if x == 0.0 => 0,
            x if x == 1.0 => 1,
            _ => return Err(bad_arg("fseek", "Invalid origin.")),
        },
    };
    let f = file(i, &a[0])?;
    let base: i128 = match origin {
        -1 => 0,
        0 => f.tell() as i128,
        _ => f.len() as i128,
    };
    match f.seek_to(base + offset as i128) {
        Ok(()) => one(Value::Num(0.0)),
        Err(m) => {
            f.error = m;
            one(Value::Num(-1.0))
        }
    }
}

fn frewind(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let f = file(i, &a[0])?;
    let _ = f.seek_to(0);
    Ok(vec![])
}

fn ferror(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let f = file(i, &a[0])?;
    let msg = f.error.clone();
    if let Some(v) = a.get(1) {
        if text_arg(v, "ferror")? == "clear" {
            f.error.clear();
        }
    }
    let mut out = vec![
        Value::str(&msg),
        Value::Num(if msg.is_empty() { 0.0 } else { -1.0 }),
    ];
    out.truncate(nargout.clamp(1, 2));
    Ok(out)
}

fn fflush(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let Some(v) = a.first() else {
        output::flush();
        return one(Value::Num(0.0));
    };
    let id = fid_arg(v)?;
    if (0..=2).contains(&id) {
        output::flush();
        return one(Value::Num(0.0));
    }
    let f = i.files.get(id).ok_or_else(invalid_fid)?;
    let ok = f.flush().is_ok();
    one(Value::Num(if ok { 0.0 } else { -1.0 }))
}
