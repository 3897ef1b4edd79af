//! Tab completion: variables, builtins, keywords, functions on the path, struct fields after
//! `s.`, and file names inside quotes. The prompt takes a `Snapshot` of the workspace before
//! each line so completion never touches the interpreter while the user types.

use crate::interp::Interp;
use crate::values::value::Value;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// What completion knows about the session.
#[derive(Default, Clone)]
pub struct Snapshot {
    pub variables: Vec<String>,
    /// Field names by dotted path (`s`, `s.inner`), for struct values.
    pub fields: HashMap<String, Vec<String>>,
    pub functions: Vec<String>,
    /// Folders whose `.m` files are callable: the current folder and the search path.
    pub folders: Vec<PathBuf>,
}

/// How deep into nested structs field completion looks.
const FIELD_DEPTH: usize = 4;

fn collect_fields(path: &str, v: &Value, depth: usize, out: &mut HashMap<String, Vec<String>>) {
    let Value::Struct(s) = v else { return };
    let names: Vec<String> = s.fields.iter().map(|f| f.to_string()).collect();
    if depth + 1 < FIELD_DEPTH {
        for n in &names {
            if let Some(inner) = s.get(0, n) {
                collect_fields(&format!("{path}.{n}"), &inner, depth + 1, out);
            }
        }
    }
    out.insert(path.to_string(), names);
}

impl Snapshot {
    pub fn take(interp: &Interp) -> Snapshot {
        let f = &interp.base;
        let variables = crate::builtins::workspace_names(interp, f);
        let mut fields = HashMap::new();
        for n in &variables {
            if let Some(v) = interp.lookup_var(f, n) {
                collect_fields(n, &v, 0, &mut fields);
            }
        }
        let mut folders = Vec::new();
        if let Ok(d) = std::env::current_dir() {
            folders.push(d);
        }
        folders.extend(interp.search_path.iter().cloned());
        Snapshot {
            variables,
            fields,
            functions: interp
                .session_functions
                .keys()
                .map(|k| k.to_string())
                .collect(),
            folders,
        }
    }
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '.'
}

/// Completions for the text before `pos`: where the replaced text starts, and the candidates
/// (sorted, without duplicates).
pub fn complete(line: &str, pos: usize, snap: &Snapshot) -> (usize, Vec<String>) {
    let before = &line[..pos];
    if let Some(q) = super::colour::scan(before).open_string {
        return complete_file(before, q + 1, pos);
    }
    let start = before
        .char_indices()
        .rev()
        .take_while(|&(_, c)| is_word(c))
        .last()
        .map_or(pos, |(k, _)| k);
    let word = &before[start..];
    if let Some(dot) = word.rfind('.') {
        let prefix = &word[dot + 1..];
        let found = snap
            .fields
            .get(&word[..dot])
            .map(|fs| {
                fs.iter()
                    .filter(|f| f.starts_with(prefix))
                    .cloned()
                    .collect::<BTreeSet<_>>()
            })
            .unwrap_or_default();
        return (start + dot + 1, found.into_iter().collect());
    }
    if word.is_empty() || word.starts_with(|c: char| c.is_ascii_digit()) {
        return (pos, Vec::new());
    }
    let mut found: BTreeSet<String> = BTreeSet::new();
    let mut add = |n: &str| {
        if n.starts_with(word) {
            found.insert(n.to_string());
        }
    };
    snap.variables.iter().for_each(|n| add(n));
    snap.functions.iter().for_each(|n| add(n));
    super::colour::KEYWORDS.iter().for_each(|n| add(n));
    crate::builtins::names().iter().for_each(|n| add(n));
    for dir in &snap.folders {
        for name in m_files(dir) {
            add(&name);
        }
    }
    (start, found.into_iter().collect())
}

/// Function names of the `.m` files in a folder.
fn m_files(dir: &Path) -> Vec<String> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    rd.flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            name.strip_suffix(".m").map(str::to_string)
        })
        .collect()
}

/// File names for the text of an open string (from byte `from` to the cursor); folders end
/// with `/`. Only the last path component is replaced.
fn complete_file(before: &str, from: usize, pos: usize) -> (usize, Vec<String>) {
    let typed = &before[from..];
    let (dir, prefix) = match typed.rfind('/') {
        Some(k) => (&typed[..=k], &typed[k + 1..]),
        None => ("", typed),
    };
    let folder: PathBuf = if dir.is_empty() {
        PathBuf::from(".")
    } else if let Some(rest) = dir.strip_prefix("~/") {
        std::env::var_os("HOME").map_or_else(|| PathBuf::from(dir), |h| Path::new(&h).join(rest))
    } else {
        PathBuf::from(dir)
    };
    let mut found: Vec<String> = std::fs::read_dir(&folder)
        .map(|rd| {
            rd.flatten()
                .filter_map(|e| {
                    let name = e.file_name().into_string().ok()?;
                    if !name.starts_with(prefix)
                        || (name.starts_with('.') && !prefix.starts_with('.'))
                    {
                        return None;
                    }
                    let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
                    Some(if is_dir { format!("{name}/") } else { name })
                })
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    (pos - prefix.len(), found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::span::Source;

    fn session(code: &str) -> Interp {
        let mut i = Interp::new();
        i.run_source(Source::new("", code, false))
            .expect("setup runs");
        i
    }

    #[test]
    fn variables_builtins_and_fields() {
        let i = session("alpha = 1; alphabet = 2; s.inner.deep = 3; s.name = 'x';");
        let snap = Snapshot::take(&i);
        let (start, c) = complete("x = alp", 7, &snap);
        assert_eq!(start, 4);
        assert_eq!(c, vec!["alpha", "alphabet"]);
        let (_, c) = complete("linsp", 5, &snap);
        assert_eq!(c, vec!["linspace"]);
        let (start, c) = complete("disp(s.", 7, &snap);
        assert_eq!(
            (start, c),
            (7, vec!["inner".to_string(), "name".to_string()])
        );
        let (start, c) = complete("s.inner.d", 9, &snap);
        assert_eq!((start, c), (8, vec!["deep".to_string()]));
        let (_, c) = complete("whi", 3, &snap);
        assert!(c.contains(&"while".to_string()) && c.contains(&"which".to_string()));
        assert!(complete("x = 12", 6, &snap).1.is_empty());
    }

    #[test]
    fn file_names_inside_quotes() {
        let dir = std::env::temp_dir().join(format!("matfuse-complete-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).expect("temp dir");
        std::fs::write(dir.join("data1.csv"), "1").expect("temp file");
        std::fs::write(dir.join("myfun.m"), "function y = myfun()\ny = 1;\n").expect("m file");
        let d = dir.to_string_lossy().to_string();
        let line = format!("load('{d}/da");
        let (start, c) = complete(&line, line.len(), &Snapshot::default());
        assert_eq!(start, line.len() - 2);
        assert_eq!(c, vec!["data1.csv"]);
        let line = format!("cd('{d}/s");
        assert_eq!(
            complete(&line, line.len(), &Snapshot::default()).1,
            vec!["sub/"]
        );
        // Functions on the search path complete by name.
        let snap = Snapshot {
            folders: vec![dir.clone()],
            ..Snapshot::default()
        };
        assert_eq!(complete("myf", 3, &snap).1, vec!["myfun"]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
