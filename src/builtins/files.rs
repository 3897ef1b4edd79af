//! Files and folders: fullfile fileparts filesep pathsep genpath isfile isfolder isdir dir
//! tempdir tempname.

use super::{Builtin, b, bad_arg, one, text_arg};
use crate::interp::Interp;
use crate::interp::error::MResult;
use crate::interp::function::Frame;
use crate::interp::output;
use crate::values::containers::{CellArray, StructArray};
use crate::values::shape::Shape;
use crate::values::value::Value;
use std::path::Path;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("fullfile", 0, -1, 1, "fullfile(part, ...): join folder and file names with single separators.", fullfile),
        b("fileparts", 1, 1, 3, "[folder, name, ext] = fileparts(file): split a file name.", fileparts),
        b("filesep", 0, 0, 1, "filesep: the folder separator, '/'.", filesep),
        b("pathsep", 0, 0, 1, "pathsep: the search path separator, ':'.", pathsep),
        b("genpath", 1, 1, 1, "genpath(folder): the folder and all its subfolders, joined by pathsep (skipping private, @class and +package folders).", genpath),
        b("isfile", 1, 1, 1, "isfile(name): true for an existing file (elementwise over a cell or string array).", isfile),
        b("isfolder", 1, 1, 1, "isfolder(name): true for an existing folder (elementwise over a cell or string array).", isfolder),
        b("isdir", 1, 1, 1, "isdir(name): true for an existing folder.", isfolder),
        b("dir", 0, 1, 1, "dir, dir(name), s = dir(...): list a folder (name, folder, date, bytes, isdir, datenum).", dir),
        b("ls", 0, 1, 1, "ls, ls(name): list a folder's names.", ls),
        b("tempdir", 0, 0, 1, "tempdir: the folder for temporary files, ending in '/'.", tempdir),
        b("tempname", 0, 1, 1, "tempname, tempname(folder): a unique temporary file name.", tempname),
    ]
}

/// A text result of the same kind as `like` (string in, string out).
fn text_like(like: &Value, s: &str) -> Value {
    if like.is_string() {
        Value::string(s)
    } else {
        Value::str(s)
    }
}

/// Joins parts with single separators, as fullfile does.
fn join_parts(parts: &[String]) -> String {
    let mut out = String::new();
    let mut first = true;
    for p in parts.iter().filter(|p| !p.is_empty()) {
        if !first && !out.ends_with('/') {
            out.push('/');
        }
        out.push_str(if first { p } else { p.trim_start_matches('/') });
        first = false;
    }
    // Repeated separators inside collapse to one, as MATLAB does.
    while out.contains("//") {
        out = out.replace("//", "/");
    }
    out
}

fn fullfile(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    // a cell or string array part gives one result per element (a cell or string array)
    let many = a.iter().find(|v| match v {
        Value::Cell(_) => true,
        Value::Str(s) => s.data.len() != 1,
        _ => false,
    });
    if let Some(shape_of) = many {
        let shape = shape_of.shape();
        let n = shape.numel();
        let mut columns: Vec<Vec<String>> = Vec::new();
        for v in &a {
            let texts = match v {
                Value::Cell(c) => c
                    .data
                    .iter()
                    .map(|x| text_arg(x, "fullfile"))
                    .collect::<MResult<Vec<_>>>()?,
                Value::Str(s) if s.data.len() != 1 => s.data.clone(),
                _ => vec![text_arg(v, "fullfile")?],
            };
            if texts.len() != 1 && texts.len() != n {
                return Err(bad_arg(
                    "fullfile",
                    "Cell and string array parts must have the same number of elements.",
                ));
            }
            columns.push(texts);
        }
        let joined: Vec<String> = (0..n)
            .map(|k| {
                let parts: Vec<String> = columns
                    .iter()
                    .map(|c| c.get(k).or(c.first()).cloned().unwrap_or_default())
                    .collect();
                join_parts(&parts)
            })
            .collect();
        if a.iter().any(|v| v.is_string()) {
            return one(Value::Str(std::rc::Rc::new(
                crate::values::containers::StrArray::new(shape, joined),
            )));
        }
        return one(Value::Cell(std::rc::Rc::new(CellArray::new(
            shape,
            joined.iter().map(|t| Value::str(t)).collect(),
        ))));
    }
    let mut parts = Vec::new();
    for v in &a {
        parts.push(text_arg(v, "fullfile")?);
    }
    let out = join_parts(&parts);
    let like = a
        .iter()
        .find(|v| v.is_string())
        .unwrap_or(&Value::Num(0.0))
        .clone();
    one(text_like(&like, &out))
}

fn fileparts(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let s = text_arg(&a[0], "fileparts")?;
    let (folder, file) = match s.rfind('/') {
        Some(0) => ("/", &s[1..]),
        Some(k) => (&s[..k], &s[k + 1..]),
        None => ("", s.as_str()),
    };
    let (name, ext) = match file.rfind('.') {
        Some(k) => (&file[..k], &file[k..]),
        None => (file, ""),
    };
    Ok([folder, name, ext]
        .iter()
        .map(|t| text_like(&a[0], t))
        .collect())
}

fn filesep(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    one(Value::str("/"))
}

fn pathsep(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    one(Value::str(":"))
}

fn genpath(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let root = text_arg(&a[0], "genpath")?;
    let mut out = Vec::new();
    fn walk(p: &Path, depth: usize, out: &mut Vec<String>) {
        out.push(p.to_string_lossy().to_string());
        if depth > 32 {
            return;
        }
        let Ok(rd) = std::fs::read_dir(p) else { return };
        let mut subs: Vec<_> = rd
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .map(|e| e.path())
            .filter(|q| {
                let n = q
                    .file_name()
                    .map(|n| n.to_string_lossy().to_string())
                    .unwrap_or_default();
                !(n == "private" || n.starts_with('@') || n.starts_with('+') || n.starts_with('.'))
            })
            .collect();
        subs.sort();
        for q in subs {
            walk(&q, depth + 1, out);
        }
    }
    if Path::new(&root).is_dir() {
        walk(Path::new(&root), 0, &mut out);
    }
    one(text_like(&a[0], &out.join(":")))
}

/// Applies a test to each name of a text, cell or string array argument.
fn each_name(v: &Value, name: &str, test: impl Fn(&Path) -> bool) -> R {
    match v {
        Value::Cell(c) => {
            let bits = c
                .data
                .iter()
                .map(|x| Ok(test(Path::new(&text_arg(x, name)?))))
                .collect::<MResult<Vec<bool>>>()?;
            one(crate::values::tensor::Tensor::bools(c.shape.clone(), bits))
        }
        Value::Str(s) if s.data.len() != 1 => {
            let bits = s.data.iter().map(|x| test(Path::new(x))).collect();
            one(crate::values::tensor::Tensor::bools(s.shape.clone(), bits))
        }
        _ => one(Value::Bool(test(Path::new(&text_arg(v, name)?)))),
    }
}

fn isfile(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    each_name(&a[0], "isfile", |p| p.is_file())
}

fn isfolder(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    each_name(&a[0], "isfolder", |p| p.is_dir())
}

/// One listed entry of `dir`.
struct Entry {
    name: String,
    folder: String,
    bytes: u64,
    is_dir: bool,
    modified: f64,
}

/// MATLAB's serial date number of a system time (days since year 0, UTC).
fn datenum(t: std::time::SystemTime) -> f64 {
    let secs = t
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0);
    719_529.0 + secs / 86_400.0
}

/// A date number as dir's date text, 'dd-MMM-yyyy HH:mm:ss'.
fn date_text(datenum: f64) -> String {
    if datenum <= 0.0 {
        return String::new();
    }
    let secs_total = ((datenum - 719_529.0) * 86_400.0).round() as i64;
    let days = secs_total.div_euclid(86_400);
    let secs = secs_total.rem_euclid(86_400);
    // civil date from days since 1970-01-01 (Howard Hinnant's algorithm)
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    format!(
        "{d:02}-{}-{y} {:02}:{:02}:{:02}",
        MONTHS[(m - 1).clamp(0, 11) as usize],
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

fn entry(name: String, folder: &str, meta: Option<std::fs::Metadata>) -> Entry {
    Entry {
        name,
        folder: folder.to_string(),
        bytes: meta.as_ref().filter(|m| m.is_file()).map_or(0, |m| m.len()),
        is_dir: meta.as_ref().is_some_and(|m| m.is_dir()),
        modified: meta.and_then(|m| m.modified().ok()).map_or(0.0, datenum),
    }
}

/// Entries of one folder whose names match `pattern` (all of them, with . and .., when None).
fn list_folder(folder: &Path, pattern: Option<&str>, out: &mut Vec<Entry>) {
    let folder_abs = std::fs::canonicalize(folder).unwrap_or(folder.to_path_buf());
    let folder_text = folder_abs.to_string_lossy().to_string();
    let Ok(rd) = std::fs::read_dir(folder) else {
        return;
    };
    let mut found = Vec::new();
    if pattern.is_none() {
        found.push(entry(
            ".".into(),
            &folder_text,
            std::fs::metadata(folder).ok(),
        ));
        found.push(entry(
            "..".into(),
            &folder_text,
            std::fs::metadata(folder.join("..")).ok(),
        ));
    }
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        if let Some(p) = pattern {
            if !super::workspace::wildcard(p, &name) {
                continue;
            }
        }
        // metadata through links, as MATLAB reports the target
        let meta = std::fs::metadata(e.path())
            .ok()
            .or_else(|| e.metadata().ok());
        found.push(entry(name, &folder_text, meta));
    }
    found.sort_by(|x, y| x.name.cmp(&y.name));
    out.extend(found);
}

/// Every folder under `root` (itself first), for `**` patterns.
fn folders_below(root: &Path, depth: usize, out: &mut Vec<std::path::PathBuf>) {
    out.push(root.to_path_buf());
    if depth > 32 {
        return;
    }
    let Ok(rd) = std::fs::read_dir(root) else {
        return;
    };
    let mut subs: Vec<_> = rd
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect();
    subs.sort();
    for s in subs {
        folders_below(&s, depth + 1, out);
    }
}

fn list(target: &str) -> MResult<Vec<Entry>> {
    let path = Path::new(if target.is_empty() { "." } else { target });
    let mut out = Vec::new();
    // 'folder/**/pattern': the pattern in the folder and every folder below it
    if let Some(k) = target.find("**") {
        let root = &target[..k];
        let rest = target[k + 2..].trim_start_matches('/');
        let root = if root.is_empty() { "." } else { root };
        let mut folders = Vec::new();
        folders_below(Path::new(root), 0, &mut folders);
        let pattern = if rest.is_empty() { "*" } else { rest };
        for f in folders {
            list_folder(&f, Some(pattern), &mut out);
        }
        return Ok(out);
    }
    // A pattern or a file lists matching names in its folder; a folder lists itself.
    if target.contains('*') || target.contains('?') || path.is_file() {
        let parent = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        list_folder(parent, Some(&name), &mut out);
    } else {
        list_folder(path, None, &mut out);
    }
    Ok(out)
}

fn dir(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let target = match a.first() {
        Some(v) => text_arg(v, "dir")?,
        None => String::new(),
    };
    let entries = list(&target)?;
    if nargout == 0 {
        print_names(
            i,
            &entries.iter().map(|e| e.name.clone()).collect::<Vec<_>>(),
        );
        return Ok(vec![]);
    }
    let fields = ["name", "folder", "date", "bytes", "isdir", "datenum"];
    let mut s = StructArray::empty_with(
        fields.iter().map(|f| f.to_string().into()).collect(),
        Shape::col(entries.len()),
    );
    for (k, e) in entries.iter().enumerate() {
        s.elems[k] = vec![
            Value::str(&e.name),
            Value::str(&e.folder),
            Value::str(&date_text(e.modified)),
            Value::Num(e.bytes as f64),
            Value::Bool(e.is_dir),
            Value::Num(e.modified),
        ];
    }
    one(s)
}

/// Names in columns across the terminal, as `dir` and `ls` show them.
fn print_names(i: &Interp, names: &[String]) {
    if names.is_empty() {
        return;
    }
    let w = names.iter().map(|n| n.len()).max().unwrap_or(1) + 2;
    let per = (i.term_width / w).max(1);
    let mut out = String::from("\n");
    for row in names.chunks(per) {
        let line: String = row.iter().map(|n| format!("{n:<w$}")).collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push('\n');
    output::write_str(&out);
}

fn ls(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let target = match a.first() {
        Some(v) => text_arg(v, "ls")?,
        None => String::new(),
    };
    let names: Vec<String> = list(&target)?
        .into_iter()
        .map(|e| e.name)
        .filter(|n| n != "." && n != "..")
        .collect();
    if nargout > 0 {
        return one(CellArray::col(
            names.iter().map(|n| Value::str(n)).collect(),
        ));
    }
    print_names(i, &names);
    Ok(vec![])
}

fn tempdir(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    let mut d = std::env::temp_dir().to_string_lossy().to_string();
    if !d.ends_with('/') {
        d.push('/');
    }
    one(Value::str(&d))
}

fn tempname(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let dir = match a.first() {
        Some(v) => text_arg(v, "tempname")?,
        None => std::env::temp_dir().to_string_lossy().to_string(),
    };
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    // a counter keeps two names asked for within one clock tick apart
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let k = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = format!("tp{:x}_{:x}_{k:x}", std::process::id(), nanos);
    if dir.contains('\0') {
        return Err(bad_arg("tempname", "Invalid folder name."));
    }
    one(Value::str(&format!("{}/{name}", dir.trim_end_matches('/'))))
}
