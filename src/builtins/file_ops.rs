//! Creating, removing, copying and moving files and folders: mkdir rmdir delete copyfile
//! movefile. With outputs they report [status, msg, msgID] instead of raising, as MATLAB's do.

use super::{Builtin, b, text_arg};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::io::files::os_message;
use crate::values::value::Value;
use std::path::{Path, PathBuf};

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("mkdir", 1, 2, 3, "[status, msg, msgID] = mkdir(folder), mkdir(parent, folder): make a folder and any missing parents.", mkdir),
        b("rmdir", 1, 2, 3, "[status, msg, msgID] = rmdir(folder), rmdir(folder, 's'): remove an empty folder, or with 's' the folder and everything in it.", rmdir),
        b("delete", 1, -1, 0, "delete(name, ...): delete files (wildcards * and ? allowed); a missing file is a warning. delete(h): deletes graphics objects.", delete),
        b("copyfile", 2, 3, 3, "[status, msg, msgID] = copyfile(source, destination): copy files or folders (wildcards allowed; into a folder when the destination is one).", copyfile),
        b("movefile", 2, 3, 3, "[status, msg, msgID] = movefile(source, destination): move or rename files or folders (wildcards allowed).", movefile),
    ]
}

/// The outputs of a file operation: status, message and identifier; without outputs a failure
/// is an error.
fn report(result: Result<Option<(String, String)>, (String, String)>, nargout: usize) -> R {
    let (status, msg, id) = match result {
        Ok(None) => (true, String::new(), String::new()),
        Ok(Some((id, msg))) => {
            if nargout == 0 {
                crate::interp::warning::emit(&id, &msg);
            }
            (true, msg, id)
        }
        Err((id, msg)) => {
            if nargout == 0 {
                return Err(MError::new(id, msg));
            }
            (false, msg, id)
        }
    };
    if nargout == 0 {
        return Ok(vec![]);
    }
    let mut out = vec![Value::Bool(status), Value::str(&msg), Value::str(&id)];
    out.truncate(nargout.min(3));
    Ok(out)
}

fn mkdir(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let mut path = PathBuf::from(text_arg(&a[0], "mkdir")?);
    if let Some(v) = a.get(1) {
        path = path.join(text_arg(v, "mkdir")?);
    }
    let r = if path.as_os_str().is_empty() {
        Err((
            "MATLAB:MKDIR:OSError".into(),
            "The folder name must not be empty.".into(),
        ))
    } else if path.is_dir() {
        Ok(Some((
            "MATLAB:MKDIR:DirectoryExists".into(),
            "Directory already exists.".into(),
        )))
    } else {
        match std::fs::create_dir_all(&path) {
            Ok(()) => Ok(None),
            Err(e) => Err(("MATLAB:MKDIR:OSError".into(), os_message(&e))),
        }
    };
    report(r, nargout)
}

fn rmdir(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let name = text_arg(&a[0], "rmdir")?;
    let recursive = match a.get(1) {
        Some(v) => {
            let t = text_arg(v, "rmdir")?;
            if t != "s" {
                return Err(MError::new(
                    "MATLAB:RMDIR:InvalidFlag",
                    "The second argument must be 's'.",
                ));
            }
            true
        }
        None => false,
    };
    let path = Path::new(&name);
    let r = if !path.is_dir() {
        Err((
            "MATLAB:RMDIR:NotADirectory".into(),
            format!("{name} is not a folder or the folder does not exist."),
        ))
    } else {
        let res = if recursive {
            std::fs::remove_dir_all(path)
        } else {
            std::fs::remove_dir(path)
        };
        match res {
            Ok(()) => Ok(None),
            Err(e) if e.kind() == std::io::ErrorKind::DirectoryNotEmpty => Err((
                "MATLAB:RMDIR:OSError".into(),
                format!("{name} could not be removed: the folder is not empty."),
            )),
            Err(e) => Err(("MATLAB:RMDIR:OSError".into(), os_message(&e))),
        }
    };
    report(r, nargout)
}

/// The paths a name with wildcards (in its last part) matches, sorted; the name itself when it
/// has none.
fn expand(name: &str) -> Vec<PathBuf> {
    let path = Path::new(name);
    let last = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if !last.contains(['*', '?']) {
        return vec![path.to_path_buf()];
    }
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut out: Vec<PathBuf> = match std::fs::read_dir(parent) {
        Ok(rd) => rd
            .flatten()
            .filter(|e| super::workspace::wildcard(&last, &e.file_name().to_string_lossy()))
            .map(|e| {
                if path.parent().is_some_and(|p| !p.as_os_str().is_empty()) {
                    parent.join(e.file_name())
                } else {
                    PathBuf::from(e.file_name())
                }
            })
            .collect(),
        Err(_) => vec![],
    };
    out.sort();
    out
}

fn delete(i: &mut Interp, f: &mut Frame, a: A, n: usize) -> R {
    // delete(h) of graphics handles shares the name
    if a.first()
        .is_some_and(crate::graphics::handle::is_handle_value)
    {
        return super::graphics::delete_handles(i, f, a, n);
    }
    for v in &a {
        if !v.is_text() {
            return Err(MError::new(
                "MATLAB:DELETE:InvalidInput",
                "The name of the file to delete must be text, or the objects graphics handles.",
            ));
        }
        let name = text_arg(v, "delete")?;
        let targets = expand(&name);
        let files: Vec<&PathBuf> = targets
            .iter()
            .filter(|p| p.is_file() || p.is_symlink())
            .collect();
        if files.is_empty() {
            let id = if Path::new(&name).is_dir() {
                "MATLAB:DELETE:Permission"
            } else {
                "MATLAB:DELETE:FileNotFound"
            };
            let msg = if Path::new(&name).is_dir() {
                format!("{name} is a folder; use rmdir to remove it.")
            } else {
                format!("File '{name}' not found.")
            };
            crate::interp::warning::emit(id, &msg);
            continue;
        }
        for p in files {
            if let Err(e) = std::fs::remove_file(p) {
                return Err(MError::new(
                    "MATLAB:DELETE:Permission",
                    format!("Cannot delete '{}'. {}.", p.display(), os_message(&e)),
                ));
            }
        }
    }
    Ok(vec![])
}

fn copy_tree(from: &Path, to: &Path, depth: usize) -> std::io::Result<()> {
    if depth > 64 {
        return Err(std::io::Error::other("Folders nest too deeply"));
    }
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        let target = to.join(e.file_name());
        if e.file_type()?.is_dir() {
            copy_tree(&e.path(), &target, depth + 1)?;
        } else {
            std::fs::copy(e.path(), &target)?;
        }
    }
    Ok(())
}

/// Copies or moves each source; where they go: into the destination when it is a folder (or
/// when there are several sources), to it otherwise.
fn transfer(
    a: &[Value],
    fname: &str,
    moving: bool,
) -> Result<Option<(String, String)>, (String, String)> {
    let upper = fname.to_uppercase();
    let fail = |msg: String| (format!("MATLAB:{upper}:OSError"), msg);
    let src = text_arg(&a[0], fname).map_err(|e| fail(e.message().to_string()))?;
    let dst = text_arg(&a[1], fname).map_err(|e| fail(e.message().to_string()))?;
    if let Some(v) = a.get(2) {
        let f = text_arg(v, fname).map_err(|e| fail(e.message().to_string()))?;
        if f != "f" {
            return Err(fail(format!("Unknown option '{f}'.")));
        }
    }
    let sources: Vec<PathBuf> = expand(&src).into_iter().filter(|p| p.exists()).collect();
    if sources.is_empty() {
        return Err(fail(format!(
            "No matching files or folders were found for '{src}'."
        )));
    }
    let dst_path = Path::new(&dst);
    let many = sources.len() > 1 || src.contains(['*', '?']);
    if many && !dst_path.is_dir() {
        std::fs::create_dir_all(dst_path).map_err(|e| fail(os_message(&e)))?;
    }
    for s in &sources {
        let target = if dst_path.is_dir() && (many || !s.is_dir() || moving) {
            match s.file_name() {
                Some(n) => dst_path.join(n),
                None => dst_path.to_path_buf(),
            }
        } else {
            dst_path.to_path_buf()
        };
        if target == *s {
            if moving {
                continue;
            }
            return Err(fail(
                "Cannot copy or move a file or folder onto itself.".into(),
            ));
        }
        let r = if moving {
            std::fs::rename(s, &target).or_else(|_| {
                // across file systems: copy, then remove the source
                if s.is_dir() {
                    copy_tree(s, &target, 0).and_then(|_| std::fs::remove_dir_all(s))
                } else {
                    std::fs::copy(s, &target).and_then(|_| std::fs::remove_file(s))
                }
            })
        } else if s.is_dir() {
            copy_tree(s, &target, 0)
        } else {
            std::fs::copy(s, &target).map(|_| ())
        };
        r.map_err(|e| fail(format!("{}: {}.", s.display(), os_message(&e))))?;
    }
    Ok(None)
}

fn copyfile(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    report(transfer(&a, "copyfile", false), nargout)
}

fn movefile(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    report(transfer(&a, "movefile", true), nargout)
}
