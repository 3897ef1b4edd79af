//! whos: the workspace as a table (Name, Size, Bytes, Class, Attributes, Residency) with host
//! and device totals; `s = whos` returns MATLAB's struct array.

use super::workspace::{var_names, wildcard, words};
use super::{Builtin, b, bad_arg, one};
use crate::interp::Interp;
use crate::interp::error::MResult;
use crate::interp::function::{Frame, Slot};
use crate::interp::output;
use crate::values::containers::StructArray;
use crate::values::residency;
use crate::values::value::Value;
use comfy_table::{CellAlignment, Table, presets};

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("whos", 0, -1, 1, "whos, whos x y, whos a*, whos -regexp pat, whos global, whos -file name.mat, s = whos: list variables with size, bytes, class, attributes and residency (host, device, both or pending), with host and device totals.", whos),
    ]
}

/// Bytes a value occupies, as whos reports it.
pub fn value_bytes(v: &Value) -> usize {
    match v {
        Value::Num(_) => 8,
        Value::Bool(_) => 1,
        Value::Tensor(t) => t.numel() * t.class().elem_bytes() * if t.is_complex() { 2 } else { 1 },
        Value::Str(s) => s.data.iter().map(|x| 2 * x.len() + 16).sum::<usize>() + 100,
        Value::Cell(c) => c.data.iter().map(|e| value_bytes(e) + 104).sum(),
        Value::Struct(s) => {
            s.elems
                .iter()
                .flat_map(|e| e.iter())
                .map(|e| value_bytes(e) + 104)
                .sum::<usize>()
                + 64 * s.fields.len()
        }
        Value::Func(_) => 32,
        Value::Device(d) => d.node.numel() * d.class().elem_bytes(),
        Value::DeviceComplex(z) => 2 * z.re.numel() * z.class().elem_bytes(),
        // a datetime or duration element is 8 bytes (MATLAB counts datetimes at 8 too)
        Value::Object(o) => match o.as_ref() {
            crate::values::containers::Object::Time(t) => 8 * t.numel(),
            _ => 8,
        },
    }
}

/// One listed variable.
struct Row {
    name: String,
    value: Value,
    bytes: usize,
    attributes: Vec<&'static str>,
}

/// Which variables `whos` arguments select: names and wildcards, `-regexp` patterns, or
/// `global` (only global variables).
fn select(i: &Interp, f: &Frame, args: &[String]) -> MResult<Vec<String>> {
    let names = var_names(i, f);
    let is_global = |n: &str| {
        f.layout
            .get(n)
            .is_some_and(|k| matches!(f.vars[k as usize], Slot::Global))
    };
    Ok(match args.first().map(String::as_str) {
        None => names,
        Some("global" | "-global") => names.into_iter().filter(|n| is_global(n)).collect(),
        Some("-regexp") => {
            let pats: Vec<fancy_regex::Regex> = args[1..]
                .iter()
                .map(|p| {
                    fancy_regex::Regex::new(p)
                        .map_err(|e| bad_arg("whos", format!("Invalid pattern: {e}")))
                })
                .collect::<MResult<_>>()?;
            names
                .into_iter()
                .filter(|n| pats.iter().any(|p| p.is_match(n).unwrap_or(false)))
                .collect()
        }
        Some(_) => names
            .into_iter()
            .filter(|n| args.iter().any(|p| wildcard(p, n)))
            .collect(),
    })
}

fn rows(i: &Interp, f: &Frame, names: &[String]) -> Vec<Row> {
    names
        .iter()
        .filter_map(|n| {
            let value = i.lookup_var(f, n)?;
            let slot = f.layout.get(n).map(|k| &f.vars[k as usize]);
            let mut attributes = Vec::new();
            if value.is_complex() {
                attributes.push("complex");
            }
            if matches!(slot, Some(Slot::Global)) {
                attributes.push("global");
            }
            if matches!(slot, Some(Slot::Persistent)) {
                attributes.push("persistent");
            }
            Some(Row {
                name: n.clone(),
                bytes: value_bytes(&value),
                value,
                attributes,
            })
        })
        .collect()
}

/// `whos -file name [vars]`: the variables of a MAT-file (name without extension: .mat).
fn file_rows(args: &[String]) -> MResult<Vec<Row>> {
    let Some(name) = args.first() else {
        return Err(crate::interp::error::MError::new(
            "MATLAB:whos:fileNameMissing",
            "whos -file needs a file name.",
        ));
    };
    let mut path = std::path::PathBuf::from(name);
    if path.extension().is_none() && !path.exists() {
        path.set_extension("mat");
    }
    let pats = &args[1..];
    let wanted = |n: &str| {
        pats.is_empty()
            || pats.iter().any(|p| match p.strip_suffix('*') {
                Some(prefix) => n.starts_with(prefix),
                None => p == n,
            })
    };
    let contents = crate::io::mat::load(&path, &wanted)?;
    Ok(contents
        .vars
        .into_iter()
        .map(|(name, value)| Row {
            name,
            bytes: value_bytes(&value),
            attributes: if value.is_complex() {
                vec!["complex"]
            } else {
                vec![]
            },
            value,
        })
        .collect())
}

fn as_struct(rows: &[Row]) -> Value {
    let fields = [
        "name",
        "size",
        "bytes",
        "class",
        "global",
        "sparse",
        "complex",
        "persistent",
        // matfuse's own: where the value lives (host, device, both or pending).
        "residency",
    ];
    let mut s = StructArray::empty_with(
        fields.iter().map(|f| f.to_string().into()).collect(),
        crate::values::shape::Shape::col(rows.len()),
    );
    for (k, r) in rows.iter().enumerate() {
        let dims = r.value.shape().dims().iter().map(|&d| d as f64).collect();
        s.elems[k] = vec![
            Value::str(&r.name),
            Value::row(dims),
            Value::Num(r.bytes as f64),
            Value::str(&r.value.class_name()),
            Value::Bool(r.attributes.contains(&"global")),
            Value::Bool(false),
            Value::Bool(r.value.is_complex()),
            Value::Bool(r.attributes.contains(&"persistent")),
            Value::str(residency::of(&r.value, r.bytes).0.label()),
        ];
    }
    Value::from(s)
}

/// Groups digits in threes for the totals line.
fn grouped(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (k, c) in s.chars().enumerate() {
        if k > 0 && (s.len() - k) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn render(rows: &[Row]) -> String {
    let mut t = Table::new();
    t.load_style(presets::NOTHING);
    t.set_header(vec![
        "Name",
        "Size",
        "Bytes",
        "Class",
        "Attributes",
        "Residency",
    ]);
    let (mut host, mut device) = (0, 0);
    for r in rows {
        let (res, h, d) = residency::of(&r.value, r.bytes);
        host += h;
        device += d;
        t.add_row(vec![
            r.name.clone(),
            r.value.shape().size_text().replace('×', "x"),
            r.bytes.to_string(),
            r.value.class_name(),
            r.attributes.join(", "),
            res.label().to_string(),
        ]);
    }
    if let Some(c) = t.column_mut(2) {
        c.set_cell_alignment(CellAlignment::Right);
    }
    let mut out = String::new();
    for (k, line) in t.to_string().lines().enumerate() {
        out.push(' ');
        out.push_str(line.trim_end());
        out.push('\n');
        // MATLAB leaves a blank line under the header.
        if k == 0 {
            out.push('\n');
        }
    }
    let n = rows.len();
    out.push_str(&format!(
        "\n  Total: {n} variable{}, {} bytes on the host, {} bytes on the device\n\n",
        if n == 1 { "" } else { "s" },
        grouped(host),
        grouped(device)
    ));
    out
}

fn whos(i: &mut Interp, f: &mut Frame, a: A, nargout: usize) -> R {
    let args = words(&a)?;
    let rows = if args.first().is_some_and(|w| w == "-file") {
        file_rows(&args[1..])?
    } else {
        let names = select(i, f, &args)?;
        rows(i, f, &names)
    };
    if nargout > 0 {
        return one(as_struct(&rows));
    }
    if !rows.is_empty() {
        output::write_str(&render(&rows));
    }
    Ok(vec![])
}
