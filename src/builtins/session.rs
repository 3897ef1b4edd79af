//! Session and environment: rng pwd cd addpath rmpath path which help exit version ispc ismac isunix getenv setenv.

use super::{Builtin, b, bad_arg, one, text_arg};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::interp::output;
use crate::values::containers::StructArray;
use crate::values::rng::RngState;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("rng", 0, 2, 1, "rng(seed), rng('default'), rng('shuffle'), s = rng, rng(s): control the random stream (Philox4x32-10).", rng),
        b("mfilename", 0, 1, 1, "mfilename: the name of the running file (without .m); mfilename('fullpath').", mfilename),
        b("pwd", 0, 0, 1, "pwd: the current folder.", pwd),
        b("cd", 0, 1, 1, "cd(folder): change the current folder; cd shows it, d = cd returns it, old = cd(folder) returns the one left.", cd),
        b("addpath", 1, -1, 1, "addpath(folder, ...): add folders to the search path.", addpath),
        b("rmpath", 1, -1, 1, "rmpath(folder): remove a folder from the search path.", rmpath),
        b("path", 0, 2, 1, "path: show the search path.", path),
        b("which", 1, 2, 1, "which name: where a function or variable comes from.", which),
        b("help", 0, 1, 1, "help name: one paragraph of help for a function.", help),
        b("exit", 0, 1, 0, "exit, exit(code): leave matfuse.", exit),
        b("quit", 0, 1, 0, "quit, quit(code): leave matfuse.", exit),
        b("argv", 0, 0, 1, "argv: the command-line arguments after the script's name, as a cell column of char vectors.", argv),
        b("version", 0, 1, 1, "version: matfuse's version.", version),
        b("isdeployed", 0, 0, 1, "isdeployed: false.", false_fn),
        b("ispc", 0, 0, 1, "ispc: false.", false_fn),
        b("ismac", 0, 0, 1, "ismac: true on macOS.", ismac),
        b("isunix", 0, 0, 1, "isunix: true on Unix-like systems.", isunix),
        b("getenv", 1, 1, 1, "getenv(name): an environment variable's value.", getenv),
        b("setenv", 1, 2, 0, "setenv(name, value): set an environment variable.", setenv),
    ]
}

fn rng_struct(s: &RngState) -> Value {
    let mut st = StructArray::scalar();
    st.set(0, "Type", Value::str("philox"));
    st.set(0, "Seed", Value::Num(s.seed as f64));
    st.set(0, "State", Value::Num(s.offset as f64));
    Value::from(st)
}

fn rng(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let before = rng_struct(&i.rng);
    if let Some(v) = a.first() {
        match v {
            Value::Struct(s) => {
                let seed = s
                    .get(0, "Seed")
                    .map(|x| x.scalar_f64())
                    .transpose()?
                    .unwrap_or(0.0);
                let off = s
                    .get(0, "State")
                    .map(|x| x.scalar_f64())
                    .transpose()?
                    .unwrap_or(0.0);
                i.rng = RngState {
                    seed: seed as u64,
                    offset: off as u64,
                };
            }
            v if v.is_text() => match text_arg(v, "rng")?.as_str() {
                "default" => i.rng = RngState::default(),
                "shuffle" => {
                    let t = std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map(|d| d.as_nanos() as u64)
                        .unwrap_or(1);
                    i.rng = RngState { seed: t, offset: 0 };
                }
                other => return Err(bad_arg("rng", format!("Unknown option '{other}'."))),
            },
            v => {
                let seed = v.scalar_f64()?;
                if seed < 0.0 || seed.fract() != 0.0 {
                    return Err(bad_arg("rng", "The seed must be a nonnegative integer."));
                }
                i.rng = RngState {
                    seed: seed as u64,
                    offset: 0,
                };
            }
        }
    }
    if nargout > 0 || a.is_empty() {
        one(before)
    } else {
        Ok(vec![])
    }
}

fn mfilename(_: &mut Interp, f: &mut Frame, a: A, _: usize) -> R {
    // the code unit's file, or the script file the session is running
    let path = match (&f.unit.path, f.unit.source.is_file) {
        (Some(p), _) => p.clone(),
        (None, true) => std::path::PathBuf::from(&f.unit.source.name),
        (None, false) => return one(Value::str("")),
    };
    let full = match a.first() {
        Some(v) => text_arg(v, "mfilename")?.eq_ignore_ascii_case("fullpath"),
        None => false,
    };
    let p = if full {
        path.with_extension("").display().to_string()
    } else {
        path.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    one(Value::str(&p))
}

fn pwd(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    let d = std::env::current_dir().map_err(|e| MError::new("MATLAB:pwd:failed", e.to_string()))?;
    one(Value::str(&d.display().to_string()))
}

fn cd(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    if let Some(v) = a.first() {
        let d = text_arg(v, "cd")?;
        let d = if d == "~" {
            std::env::var("HOME").unwrap_or(d)
        } else {
            d
        };
        // oldFolder = cd(newFolder): the folder before the change
        let old = std::env::current_dir()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        std::env::set_current_dir(&d).map_err(|_| {
            MError::new(
                "MATLAB:cd:NonExistentFolder",
                format!("Cannot CD to {d} (Name is nonexistent or not a folder)."),
            )
        })?;
        i.path_cache.clear();
        if nargout > 0 {
            return one(Value::str(&old));
        }
        return Ok(vec![]);
    }
    let d = std::env::current_dir().map_err(|e| MError::new("MATLAB:cd:failed", e.to_string()))?;
    if nargout > 0 {
        return one(Value::str(&d.display().to_string()));
    }
    output::write_str(&format!("{}\n", d.display()));
    Ok(vec![])
}

fn path_list(v: &Value) -> MResult<Vec<std::path::PathBuf>> {
    let s = text_arg(v, "addpath")?;
    Ok(s.split(':')
        .filter(|p| !p.is_empty())
        .map(std::path::PathBuf::from)
        .collect())
}

fn addpath(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let at_end = a.iter().any(|v| v.text().ok().as_deref() == Some("-end"));
    let mut dirs = Vec::new();
    for v in a
        .iter()
        .filter(|v| !matches!(v.text().ok().as_deref(), Some("-end" | "-begin")))
    {
        for d in path_list(v)? {
            let d = std::fs::canonicalize(&d).unwrap_or(d);
            if !d.is_dir() {
                crate::interp::warning::emit(
                    "MATLAB:mpath:nameNonexistentOrNotADirectory",
                    &format!("Name is nonexistent or not a directory: {}", d.display()),
                );
                continue;
            }
            dirs.push(d);
        }
    }
    i.search_path.retain(|p| !dirs.contains(p));
    if at_end {
        i.search_path.extend(dirs);
    } else {
        let mut new = dirs;
        new.append(&mut i.search_path);
        i.search_path = new;
    }
    i.path_cache.clear();
    Ok(vec![])
}

fn rmpath(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    for v in &a {
        for d in path_list(v)? {
            let d = std::fs::canonicalize(&d).unwrap_or(d);
            i.search_path.retain(|p| *p != d);
        }
    }
    i.path_cache.clear();
    Ok(vec![])
}

fn path(i: &mut Interp, _: &mut Frame, _: A, nargout: usize) -> R {
    let text = i
        .search_path
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(":");
    if nargout > 0 {
        return one(Value::str(&text));
    }
    let mut out = String::from("\n\t\tMATLABPATH\n\n");
    for p in &i.search_path {
        out.push_str(&format!("\t{}\n", p.display()));
    }
    out.push('\n');
    output::write_str(&out);
    Ok(vec![])
}

fn which(i: &mut Interp, f: &mut Frame, a: A, nargout: usize) -> R {
    let name = text_arg(&a[0], "which")?;
    let text = if i.lookup_var(f, &name).is_some() {
        format!("{name} is a variable.")
    } else if f.unit.functions.contains_key(name.as_str()) {
        format!("{name} is a local function.")
    } else if i.session_functions.contains_key(name.as_str()) {
        format!("{name} is a function defined in this session.")
    } else if let Some(p) = i.find_file(&format!("{name}.m")) {
        p.display().to_string()
    } else if super::lookup(&name).is_some() {
        format!("built-in ({name})")
    } else if nargout > 0 {
        return one(Value::str(""));
    } else {
        format!("'{name}' not found.")
    };
    if nargout > 0 {
        return one(Value::str(&text));
    }
    output::write_str(&format!("{text}\n"));
    Ok(vec![])
}

/// Leading comment block of a function file (its help text).
fn file_help(path: &std::path::Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut lines = Vec::new();
    let mut started = false;
    for l in text.lines() {
        let t = l.trim();
        if let Some(c) = t.strip_prefix('%') {
            started = true;
            lines.push(format!("  {}", c.trim_start_matches('%').trim_end()));
        } else if started || (!t.is_empty() && !t.starts_with("function")) {
            break;
        }
    }
    if lines.is_empty() {
        None
    } else {
        Some(lines.join("\n"))
    }
}

fn help(i: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let text = match a.first() {
        None => {
            let names = super::names();
            // Columns 18 wide; a longer name takes two.
            let w = 18;
            let width = i.term_width.saturating_sub(2).max(w);
            let mut t = format!(
                "matfuse: MATLAB syntax with a GPU-resident workspace.\n\
                 Type 'help name' for one paragraph on a function; Tab completes names.\n\
                 Sessions: who, whos, clear, format, gpuDevice, tic/toc, exit.\n\n\
                 {} functions:\n",
                names.len()
            );
            let mut line = String::new();
            for n in names {
                let cell = format!("{n:<0$}", n.len().div_ceil(w).max(1) * w);
                if !line.is_empty() && line.len() + cell.len() > width {
                    t.push_str(&format!("  {}\n", line.trim_end()));
                    line.clear();
                }
                line.push_str(&cell);
            }
            t.push_str(&format!("  {}\n", line.trim_end()));
            t.trim_end().to_string()
        }
        Some(v) => {
            let name = text_arg(v, "help")?;
            if let Some(p) = i.find_file(&format!("{name}.m")) {
                file_help(&p).unwrap_or_else(|| format!("No help found for {name}."))
            } else if let Some(b) = super::lookup(&name) {
                format!("  {}", b.help)
            } else {
                format!("{name} not found.")
            }
        }
    };
    if nargout > 0 {
        return one(Value::str(&text));
    }
    output::write_str(&format!("{text}\n"));
    Ok(vec![])
}

fn exit(i: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let code = match a.first() {
        Some(v) if !v.is_text() => v.scalar_f64()? as i32,
        _ => 0,
    };
    // files left open keep what was written to them
    i.files.close_all();
    output::flush();
    crate::gpu::trace_report();
    std::process::exit(code);
}

fn argv(i: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    one(crate::values::containers::CellArray::col(
        i.script_args.iter().map(|a| Value::str(a)).collect(),
    ))
}

fn version(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    one(Value::str(&format!(
        "{} (matfuse)",
        env!("CARGO_PKG_VERSION")
    )))
}

fn false_fn(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    one(Value::Bool(false))
}

fn ismac(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    one(Value::Bool(cfg!(target_os = "macos")))
}

fn isunix(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    one(Value::Bool(cfg!(unix)))
}

fn getenv(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::str(
        &std::env::var(text_arg(&a[0], "getenv")?).unwrap_or_default(),
    ))
}

fn setenv(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let name = text_arg(&a[0], "setenv")?;
    let value = match a.get(1) {
        Some(v) => text_arg(v, "setenv")?,
        None => String::new(),
    };
    // the OS takes no name that is empty or holds '=' or NUL, nor a value holding NUL
    if name.is_empty() || name.contains(['=', '\0']) {
        return Err(bad_arg(
            "setenv",
            format!(
                "Environment variable name '{name}' is not valid: it must be nonempty and contain no '=' or null character."
            ),
        ));
    }
    if value.contains('\0') {
        return Err(bad_arg(
            "setenv",
            "Environment variable values cannot contain null characters.",
        ));
    }
    // SAFETY-free: set_var is unsafe only for multithreaded use; the interpreter thread owns env access here
    unsafe { std::env::set_var(name, value) };
    crate::settings::changed();
    Ok(vec![])
}
