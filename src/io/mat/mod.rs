//! MAT-files: `save` and `load` of level 5 files (v6 plain, v7 zlib-compressed) and of
//! numeric text (`-ascii`). Files are written whole through a temporary file, and read whole
//! before any variable is assigned, so a failure changes neither the file nor the workspace.

pub mod ascii;
pub mod decode;
pub mod format;
pub mod reader;
pub mod writer;

use crate::interp::error::{MError, MResult};
use crate::io::atomic;
use crate::io::progress::Progress;
use crate::values::value::Value;
use std::path::Path;

pub use reader::Contents;
pub use writer::Warning;

/// Which level 5 version `save` writes.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Version {
    /// Version 6: elements as they are.
    V6,
    /// Version 7 (MATLAB's default): each variable zlib-compressed.
    V7,
}

fn write_error(path: &Path, e: &std::io::Error) -> MError {
    MError::new(
        "MATLAB:save:couldNotWriteFile",
        format!("Unable to write file {}: {}.", path.display(), reason(e)),
    )
}

fn reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "No such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "Permission denied".into(),
        _ => e.to_string(),
    }
}

pub fn read_error(path: &Path, e: &std::io::Error) -> MError {
    match e.kind() {
        std::io::ErrorKind::NotFound => MError::new(
            "MATLAB:load:couldNotReadFile",
            format!("Unable to find file or directory '{}'.", path.display()),
        ),
        _ => MError::new(
            "MATLAB:load:couldNotReadFile",
            format!("Unable to read file '{}'. {}.", path.display(), reason(e)),
        ),
    }
}

/// Writes `vars` (host values, in order) to a MAT-file; with `append`, into the variables an
/// existing file holds (replacing those of the same names). Returns the warnings to print.
pub fn save(
    path: &Path,
    vars: &[(String, Value)],
    version: Version,
    append: bool,
) -> MResult<Vec<Warning>> {
    let mut warnings = Vec::new();
    let mut progress = Progress::new(format!("Saving {}", path.display()));
    // shares of the work: building the elements, compressing them, writing the file
    let (build, squeeze) = match version {
        Version::V7 => (0.2, 0.6),
        Version::V6 => (0.5, 0.0),
    };
    let estimate: usize = vars
        .iter()
        .map(|(_, v)| rough_bytes(v))
        .sum::<usize>()
        .max(1);
    let mut built = 0;
    let mut elements = Vec::new();
    for (name, v) in vars {
        if let Some(e) = writer::variable(name, v, &mut warnings)? {
            built += e.len();
            progress.at(build * built as f64 / estimate as f64);
            elements.push((name.clone(), e));
        }
    }
    let mut out = format::header().to_vec();
    if append {
        match std::fs::read(path) {
            Ok(old) => keep_others(&old, &elements, &mut out, &mut warnings)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(write_error(path, &e)),
        }
    }
    let total = elements.iter().map(|(_, e)| e.len()).sum::<usize>().max(1) as f64;
    let mut done = 0;
    for (_, e) in &elements {
        match version {
            Version::V7 => out.extend(writer::compress(e, &mut |n| {
                done += n;
                progress.at(build + squeeze * done as f64 / total);
            })?),
            Version::V6 => out.extend_from_slice(e),
        }
    }
    let written = build + squeeze;
    atomic::write(path, &out, &mut |f| {
        progress.at(written + (1.0 - written) * f)
    })
    .map_err(|e| write_error(path, &e))?;
    Ok(warnings)
}

/// About how many bytes a value's element takes (for progress before it is built).
fn rough_bytes(v: &Value) -> usize {
    match v {
        Value::Tensor(t) => {
            t.numel() * t.class().elem_bytes() * if t.is_complex() { 2 } else { 1 } + 64
        }
        Value::Cell(c) => c.data.iter().map(rough_bytes).sum::<usize>() + 64,
        Value::Struct(s) => s.elems.iter().flatten().map(rough_bytes).sum::<usize>() + 64,
        _ => 64,
    }
}

/// Copies the variables of an existing file that `elements` does not replace (their bytes as
/// they are, or re-encoded from a big-endian file).
fn keep_others(
    old: &[u8],
    elements: &[(String, Vec<u8>)],
    out: &mut Vec<u8>,
    warnings: &mut Vec<Warning>,
) -> MResult<()> {
    let replaced = |n: &str| elements.iter().any(|(m, _)| m == n);
    let order = reader::check_header(old)?;
    let mut quiet = Progress::quiet();
    if order.big {
        let kept = reader::read(old, &|n| !replaced(n), &mut quiet)?;
        for (name, v) in &kept.vars {
            if let Some(e) = writer::variable(name, v, warnings)? {
                out.extend(e);
            }
        }
        return Ok(());
    }
    for e in reader::top_elements(old, order, &mut quiet)? {
        if !replaced(&reader::element_name(order, &e.matrix)?) {
            let raw = &old[e.start..e.end];
            out.extend_from_slice(raw);
            if order.u32(raw) == format::MI_MATRIX {
                // an uncompressed element's padding may be missing at the file's end
                out.resize(out.len() + (8 - raw.len() % 8) % 8, 0);
            }
        }
    }
    Ok(())
}

/// Reads the variables of a MAT-file that `want` accepts.
pub fn load(path: &Path, want: &dyn Fn(&str) -> bool) -> MResult<Contents> {
    let mut progress = Progress::new(format!("Loading {}", path.display()));
    let bytes = read_file(path, &mut progress)?;
    reader::read(&bytes, want, &mut progress).map_err(|e| {
        MError::new(
            e.identifier().to_string(),
            e.message()
                .replace("MAT-file", &format!("MAT-file {}", path.display())),
        )
    })
}

/// A whole file, read 4 MiB at a time (the first fifth of a load's progress).
pub fn read_file(path: &Path, progress: &mut Progress) -> MResult<Vec<u8>> {
    use std::io::Read;
    let mut f = std::fs::File::open(path).map_err(|e| read_error(path, &e))?;
    let len = f.metadata().map(|m| m.len() as usize).unwrap_or(0);
    let mut bytes = Vec::with_capacity(len);
    let mut chunk = vec![0u8; 4 << 20];
    loop {
        let n = f.read(&mut chunk).map_err(|e| read_error(path, &e))?;
        if n == 0 {
            break;
        }
        bytes.extend_from_slice(&chunk[..n]);
        progress.at(0.2 * bytes.len() as f64 / len.max(1) as f64);
    }
    Ok(bytes)
}

/// Whether a file's first bytes are a level 5 (or 7.3) MAT-file header.
pub fn looks_like_mat(bytes: &[u8]) -> bool {
    bytes.starts_with(b"MATLAB 5.0 MAT-file")
        || bytes.starts_with(b"MATLAB 7.3 MAT-file")
        || (bytes.len() >= 128 && matches!(&bytes[126..128], b"IM" | b"MI"))
}

/// `save -ascii`: each array's rows as text, one array after another; other values are
/// skipped with a warning.
pub fn save_ascii(
    path: &Path,
    vars: &[(String, Value)],
    double: bool,
    tabs: bool,
    append: bool,
) -> MResult<Vec<Warning>> {
    let mut warnings = Vec::new();
    let mut text = String::new();
    if append {
        match std::fs::read_to_string(path) {
            Ok(old) => text = old,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(write_error(path, &e)),
        }
    }
    for (name, v) in vars {
        if v.is_complex() {
            warnings.push((
                "MATLAB:save:complexAscii".into(),
                format!("Complex variable '{name}' written as its real part only."),
            ));
        }
        match ascii::text(v, double, tabs)? {
            Some(t) => text.push_str(&t),
            None => warnings.push((
                "MATLAB:save:asciiUnsupported".into(),
                format!("Attempt to write an unsupported data type to an ASCII file.\nVariable '{name}' not written to file."),
            )),
        }
    }
    // the write looks at Ctrl-C between its pieces (its temporary file goes if it unwinds)
    atomic::write(path, text.as_bytes(), &mut |_| {
        crate::interp::interrupt::poll_now()
    })
    .map_err(|e| write_error(path, &e))?;
    Ok(warnings)
}

#[cfg(test)]
mod tests;
