//! Data files: save load (MAT-files and numeric text) jsonencode jsondecode. The arguments are
//! parsed here; the formats live in `crate::io`.

use super::workspace::{var_names, wildcard};
use super::{Builtin, b, one, text_arg};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::interp::warning;
use crate::io::json;
use crate::io::mat::{self, Version, ascii};
use crate::values::containers::StructArray;
use crate::values::value::Value;
use std::path::{Path, PathBuf};

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("save", 0, -1, 0, "save, save file, save file a b x*, save(file, 'a', 'b'), save file -struct s [f1 f2], save ... -append | -v7 | -v6 | -ascii [-double] [-tabs] | -mat: write variables to a MAT-file (v7, compressed, by default; matlab.mat without a name; .mat added to a name without an extension).", save),
        b("load", 0, -1, 1, "load, load file, load file a b x*, S = load(file, ...), load file -ascii | -mat: read variables of a MAT-file (or a numeric text file) into the workspace, or into a struct S.", load),
        b("jsonencode", 1, -1, 1, "jsonencode(v), jsonencode(v, 'PrettyPrint', true, 'ConvertInfAndNaN', false): JSON text of a value.", jsonencode),
        b("jsondecode", 1, -1, 1, "jsondecode(txt), jsondecode(txt, 'MakeValidName', tf, 'ReplacementStyle', 'underscore'|'delete'|'hex', 'Prefix', 'x'): the value JSON text describes (objects as structs, arrays as arrays, cells or struct arrays).", jsondecode),
    ]
}

fn words(a: &[Value], name: &str) -> MResult<Vec<String>> {
    a.iter().map(|v| text_arg(v, name)).collect()
}

fn emit(warnings: Vec<(String, String)>) {
    for (id, msg) in warnings {
        warning::emit(&id, &msg);
    }
}

fn has_extension(name: &str) -> bool {
    Path::new(name).extension().is_some()
}

/// What `save`'s words ask for.
#[derive(Default)]
struct SaveArgs {
    file: Option<String>,
    names: Vec<String>,
    regexps: Vec<String>,
    struct_var: Option<String>,
    append: bool,
    ascii: bool,
    double: bool,
    tabs: bool,
    version: Option<Version>,
}

fn save_args(w: Vec<String>) -> MResult<SaveArgs> {
    let mut s = SaveArgs::default();
    let mut regexp = false;
    let mut it = w.into_iter().peekable();
    while let Some(word) = it.next() {
        if word.starts_with('-') {
            match word.to_ascii_lowercase().as_str() {
                "-append" => s.append = true,
                "-ascii" => s.ascii = true,
                "-double" => s.double = true,
                "-tabs" => s.tabs = true,
                "-mat" => {}
                "-v7" => s.version = Some(Version::V7),
                "-v6" | "-nocompression" => s.version = Some(Version::V6),
                "-regexp" => regexp = true,
                "-struct" => {
                    let name = it.next().ok_or_else(|| {
                        MError::new(
                            "MATLAB:save:missingStructName",
                            "The -STRUCT option must be followed by the name of a scalar structure variable.",
                        )
                    })?;
                    s.struct_var = Some(name);
                }
                "-v7.3" => {
                    return Err(MError::new(
                        "MATLAB:save:unsupportedFormat",
                        "Version 7.3 MAT-files (HDF5) are not supported by matfuse yet; use -v7 or -v6.",
                    ));
                }
                "-v4" => {
                    return Err(MError::new(
                        "MATLAB:save:unsupportedFormat",
                        "Version 4 MAT-files are not supported by matfuse; use -v7 or -v6.",
                    ));
                }
                other => {
                    return Err(MError::new(
                        "MATLAB:save:unknownOption",
                        format!("Unknown option '{other}'."),
                    ));
                }
            }
        } else if s.file.is_none() {
            s.file = Some(word);
        } else if regexp {
            s.regexps.push(word);
        } else {
            s.names.push(word);
        }
    }
    Ok(s)
}

fn save(i: &mut Interp, f: &mut Frame, a: A, _: usize) -> R {
    let args = save_args(words(&a, "save")?)?;
    let mut file = args.file.clone().unwrap_or_else(|| "matlab.mat".into());
    if !args.ascii && !has_extension(&file) {
        file.push_str(".mat");
    }
    let vars = chosen_vars(i, f, &args)?;
    // device values are read back once, here, before anything is written
    let vars = vars
        .into_iter()
        .map(|(n, v)| Ok((n, v.host()?)))
        .collect::<MResult<Vec<_>>>()?;
    let path = PathBuf::from(&file);
    let warnings = if args.ascii {
        mat::save_ascii(&path, &vars, args.double, args.tabs, args.append)?
    } else {
        mat::save(
            &path,
            &vars,
            args.version.unwrap_or(Version::V7),
            args.append,
        )?
    };
    emit(warnings);
    Ok(vec![])
}

/// The variables `save` writes, in the order they are named (all, sorted, when none is named).
fn chosen_vars(i: &Interp, f: &Frame, args: &SaveArgs) -> MResult<Vec<(String, Value)>> {
    if let Some(sv) = &args.struct_var {
        let s = match i.lookup_var(f, sv) {
            Some(Value::Struct(s)) if s.elems.len() == 1 => s,
            _ => {
                return Err(MError::new(
                    "MATLAB:save:notScalarStruct",
                    "The argument to -STRUCT must be the name of a scalar structure variable.",
                ));
            }
        };
        let mut out = Vec::new();
        if args.names.is_empty() {
            for (k, name) in s.fields.iter().enumerate() {
                out.push((name.clone(), s.elems[0][k].clone()));
            }
        }
        for pat in &args.names {
            let hits: Vec<usize> = (0..s.fields.len())
                .filter(|&k| wildcard(pat, &s.fields[k]))
                .collect();
            if hits.is_empty() {
                return Err(MError::new(
                    "MATLAB:save:fieldNotFound",
                    format!("The specified field '{pat}' does not exist in structure '{sv}'."),
                ));
            }
            for k in hits {
                push_unique(&mut out, s.fields[k].clone(), s.elems[0][k].clone());
            }
        }
        return Ok(out);
    }
    let all = var_names(i, f);
    let mut out = Vec::new();
    if args.names.is_empty() && args.regexps.is_empty() {
        for n in all {
            if let Some(v) = i.lookup_var(f, &n) {
                out.push((n, v));
            }
        }
        return Ok(out);
    }
    for pat in &args.names {
        let hits: Vec<&String> = all.iter().filter(|n| wildcard(pat, n)).collect();
        if hits.is_empty() {
            return Err(MError::new(
                "MATLAB:save:couldNotFindVariable",
                format!("Variable '{pat}' not found."),
            ));
        }
        for n in hits {
            if let Some(v) = i.lookup_var(f, n) {
                push_unique(&mut out, n.clone(), v);
            }
        }
    }
    for pat in &args.regexps {
        let re = fancy_regex::Regex::new(pat)
            .map_err(|e| MError::new("MATLAB:save:badRegexp", format!("Invalid pattern: {e}")))?;
        for n in &all {
            if re.is_match(n).unwrap_or(false) {
                if let Some(v) = i.lookup_var(f, n) {
                    push_unique(&mut out, n.clone(), v);
                }
            }
        }
    }
    Ok(out)
}

fn push_unique(out: &mut Vec<(String, Value)>, name: String, v: Value) {
    if !out.iter().any(|(n, _)| *n == name) {
        out.push((name, v));
    }
}

fn load(i: &mut Interp, f: &mut Frame, a: A, nargout: usize) -> R {
    let mut file = None;
    let (mut force_ascii, mut force_mat, mut regexp) = (false, false, false);
    let mut names = Vec::new();
    let mut regexps = Vec::new();
    for word in words(&a, "load")? {
        match word.to_ascii_lowercase().as_str() {
            "-ascii" => force_ascii = true,
            "-mat" => force_mat = true,
            "-regexp" => regexp = true,
            w if w.starts_with('-') => {
                return Err(MError::new(
                    "MATLAB:load:unknownOption",
                    format!("Unknown option '{word}'."),
                ));
            }
            _ if file.is_none() => file = Some(word),
            _ if regexp => regexps.push(word),
            _ => names.push(word),
        }
    }
    let file = file.unwrap_or_else(|| "matlab.mat".into());
    let path = resolve(&file);
    let head = file_head(&path).map_err(|e| mat::read_error(&path, &e))?;
    let is_mat = force_mat
        || (!force_ascii
            && (path.extension().is_some_and(|e| e == "mat") || mat::looks_like_mat(&head)));
    if !is_mat {
        let bytes = std::fs::read(&path).map_err(|e| mat::read_error(&path, &e))?;
        let text = String::from_utf8_lossy(&bytes);
        let t = ascii::parse(&text, &path.display().to_string())?;
        let v = Value::from_tensor(t);
        if nargout > 0 {
            return one(v);
        }
        let name = ascii::variable_name(&file);
        let slot = f.slot_of(&name);
        i.store(f, slot, v);
        return Ok(vec![]);
    }
    let regexps = regexps
        .iter()
        .map(|p| {
            fancy_regex::Regex::new(p)
                .map_err(|e| MError::new("MATLAB:load:badRegexp", format!("Invalid pattern: {e}")))
        })
        .collect::<MResult<Vec<_>>>()?;
    let select_all = names.is_empty() && regexps.is_empty();
    let want = |n: &str| {
        select_all
            || names.iter().any(|p| wildcard(p, n))
            || regexps.iter().any(|r| r.is_match(n).unwrap_or(false))
    };
    let contents = mat::load(&path, &want)?;
    let mut warnings = contents.warnings;
    for pat in &names {
        if !contents.vars.iter().any(|(n, _)| wildcard(pat, n)) {
            warnings.push((
                "MATLAB:load:variableNotFound".into(),
                format!("Variable '{pat}' not found."),
            ));
        }
    }
    let mut vars = Vec::new();
    for (name, v) in contents.vars {
        if super::is_valid_field_name(&name) {
            vars.push((name, v));
        } else {
            warnings.push((
                "MATLAB:load:invalidVariableName".into(),
                format!("Variable '{name}' has an invalid name and was not loaded."),
            ));
        }
    }
    emit(warnings);
    if nargout > 0 {
        let mut s = StructArray::scalar();
        for (name, v) in vars {
            s.set(0, &name, v);
        }
        return one(s);
    }
    for (name, v) in vars {
        let slot = f.slot_of(&name);
        i.store(f, slot, v);
    }
    Ok(vec![])
}

/// A file's first 128 bytes (enough to tell a MAT-file's header).
fn file_head(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut head = Vec::with_capacity(128);
    std::fs::File::open(path)?
        .take(128)
        .read_to_end(&mut head)?;
    Ok(head)
}

/// The file `load` reads: the name as given, or with `.mat` when it has no extension and a
/// `.mat` file of that name exists.
fn resolve(file: &str) -> PathBuf {
    if !has_extension(file) {
        let with = PathBuf::from(format!("{file}.mat"));
        if with.is_file() || !Path::new(file).is_file() {
            return with;
        }
    }
    PathBuf::from(file)
}

fn jsonencode(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let mut o = json::EncodeOptions::default();
    let mut rest = a[1..].chunks(2);
    for pair in &mut rest {
        let name = text_arg(&pair[0], "jsonencode")?;
        let Some(val) = pair.get(1) else {
            return Err(MError::new(
                "MATLAB:jsonencode:missingValue",
                format!("Option '{name}' has no value."),
            ));
        };
        let flag = val.truthy()?;
        match name.to_ascii_lowercase().as_str() {
            "prettyprint" => o.pretty = flag,
            "convertinfandnan" => o.convert_inf_and_nan = flag,
            _ => {
                return Err(MError::new(
                    "MATLAB:jsonencode:unknownOption",
                    format!(
                        "'{name}' is not a recognized parameter. Valid names are 'ConvertInfAndNaN' and 'PrettyPrint'."
                    ),
                ));
            }
        }
    }
    one(Value::str(&json::encode(&a[0], &o)?))
}

fn jsondecode(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let text = a[0].text().map_err(|_| {
        MError::new(
            "MATLAB:jsondecode:invalidInput",
            "JSON text must be a character vector or string scalar.",
        )
    })?;
    let mut rule = json::names::NameRule::default();
    for pair in a[1..].chunks(2) {
        let name = text_arg(&pair[0], "jsondecode")?;
        let Some(val) = pair.get(1) else {
            return Err(MError::new(
                "MATLAB:jsondecode:missingValue",
                format!("Option '{name}' has no value."),
            ));
        };
        match name.to_ascii_lowercase().as_str() {
            "makevalidname" => rule.make_valid = val.truthy()?,
            "replacementstyle" => {
                use json::names::Replacement;
                let style = text_arg(val, "jsondecode")?;
                rule.replacement = match style.to_ascii_lowercase().as_str() {
                    "underscore" => Replacement::Underscore,
                    "delete" => Replacement::Delete,
                    "hex" => Replacement::Hex,
                    _ => {
                        return Err(MError::new(
                            "MATLAB:jsondecode:invalidReplacementStyle",
                            format!(
                                "'{style}' is not a valid ReplacementStyle. Use 'underscore', 'delete' or 'hex'."
                            ),
                        ));
                    }
                };
            }
            "prefix" => {
                let p = text_arg(val, "jsondecode")?;
                if !crate::builtins::is_valid_field_name(&p) {
                    return Err(MError::new(
                        "MATLAB:jsondecode:invalidPrefix",
                        format!(
                            "Prefix '{p}' must start with a letter and hold only letters, digits and underscores."
                        ),
                    ));
                }
                rule.prefix = p;
            }
            _ => {
                return Err(MError::new(
                    "MATLAB:jsondecode:unknownOption",
                    format!(
                        "'{name}' is not a recognized parameter. Valid names are 'MakeValidName', 'ReplacementStyle' and 'Prefix'."
                    ),
                ));
            }
        }
    }
    one(json::decode(&text, &rule)?)
}
