//! inputParser: declare required, optional and name-value arguments, then `parse` a call's
//! arguments into `Results` (fields in alphabetical order, as MATLAB orders them),
//! `Unmatched` and `UsingDefaults`. The parser is a handle object: methods change it in place.

use super::{Builtin, b, bad_arg, one, text_arg};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::containers::{
    CellArray, Object, ParserArg, ParserArgKind, ParserData, StructArray,
};
use crate::values::value::Value;
use std::cell::RefCell;
use std::rc::Rc;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("inputParser", 0, 0, 1, "p = inputParser: a parser for a function's arguments (addRequired, addOptional, addParameter, parse, Results).", new_parser),
        b("addRequired", 2, 3, 0, "addRequired(p, name, validator): a positional argument that must be given.", add_required),
        b("addOptional", 3, 4, 0, "addOptional(p, name, default, validator): a positional argument that may be left out.", add_optional),
        b("addParameter", 3, -1, 0, "addParameter(p, name, default, validator): a name-value argument.", add_parameter),
        b("addParamValue", 3, 4, 0, "addParamValue(p, name, default, validator): older name for addParameter.", add_parameter),
        b("parse", 1, -1, 0, "parse(p, args...): check the arguments and fill p.Results, p.Unmatched and p.UsingDefaults.", parse),
    ]
}

fn new_parser(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    one(Value::Object(Rc::new(Object::InputParser(RefCell::new(
        ParserData::default(),
    )))))
}

fn parser<'a>(v: &'a Value, name: &str) -> MResult<&'a RefCell<ParserData>> {
    match v {
        Value::Object(o) => match o.as_ref() {
            Object::InputParser(p) => Ok(p),
            _ => Err(bad_arg(name, "The first argument must be an inputParser.")),
        },
        _ => Err(bad_arg(name, "The first argument must be an inputParser.")),
    }
}

fn validator_arg(v: Option<&Value>, name: &str) -> MResult<Option<Value>> {
    match v {
        None => Ok(None),
        Some(f @ Value::Func(_)) => Ok(Some(f.clone())),
        Some(_) => Err(bad_arg(
            name,
            "The validation function must be a function handle.",
        )),
    }
}

fn add(a: &[Value], fname: &str, kind: ParserArgKind) -> R {
    let p = parser(&a[0], fname)?;
    let name = text_arg(&a[1], fname)?;
    if !super::structs::is_valid_name(&name) {
        return Err(bad_arg(fname, format!("Invalid argument name '{name}'.")));
    }
    let (default, validator) = match kind {
        ParserArgKind::Required => (Value::empty(), validator_arg(a.get(2), fname)?),
        _ => (a[2].clone(), validator_arg(a.get(3), fname)?),
    };
    let mut p = p.borrow_mut();
    if p.args.iter().any(|x| x.name.eq_ignore_ascii_case(&name)) {
        return Err(MError::new(
            "MATLAB:InputParser:DuplicateParameter",
            format!("An argument named '{name}' already exists in the schema."),
        ));
    }
    // Positional arguments keep their order: required ones before optional ones.
    if kind == ParserArgKind::Required && p.args.iter().any(|x| x.kind == ParserArgKind::Optional) {
        return Err(MError::new(
            "MATLAB:InputParser:RequiredAfterOptional",
            "Required arguments must come before optional ones.",
        ));
    }
    p.args.push(ParserArg {
        name,
        kind,
        default,
        validator,
    });
    Ok(vec![])
}

fn add_required(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    add(&a, "addRequired", ParserArgKind::Required)
}

fn add_optional(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    add(&a, "addOptional", ParserArgKind::Optional)
}

fn add_parameter(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    // Trailing options such as 'PartialMatchPriority' are accepted and have no effect.
    let end = if a.len() > 4 && a[3].is_text() {
        3
    } else {
        a.len().min(4)
    };
    add(&a[..end], "addParameter", ParserArgKind::Parameter)
}

/// Runs an argument's validator: false or an error makes the value invalid.
fn validate(
    i: &mut Interp,
    f: &mut Frame,
    arg: &ParserArg,
    v: &Value,
    function: &str,
) -> MResult<()> {
    let Some(check) = &arg.validator else {
        return Ok(());
    };
    let shown = match check {
        Value::Func(h) => {
            let t = h.text();
            t.strip_prefix('@')
                .filter(|rest| !rest.starts_with('('))
                .map_or(t.clone(), str::to_string)
        }
        _ => String::new(),
    };
    let prefix = if function.is_empty() {
        String::new()
    } else {
        format!("{function}: ")
    };
    let failed = |detail: String| {
        MError::new(
            "MATLAB:InputParser:ArgumentFailedValidation",
            format!("{prefix}The value of '{}' is invalid. {detail}", arg.name),
        )
    };
    match i.call_value(f, check, vec![v.clone()], 1) {
        Ok(r) => match r.first() {
            Some(x) if !x.truthy().unwrap_or(false) => {
                Err(failed(format!("It must satisfy the function: {shown}.")))
            }
            _ => Ok(()),
        },
        // A validator with no output (validateattributes) passes by not raising an error.
        Err(e) if e.identifier() == "MATLAB:TooManyOutputs" => {
            i.call_value(f, check, vec![v.clone()], 0)
                .map_err(|e| failed(e.message().to_string()))?;
            Ok(())
        }
        Err(e) if e.is_interrupt() => Err(e),
        Err(e) => Err(failed(e.message().to_string())),
    }
}

/// The declared parameter a name refers to (exact, then a unique prefix when partial
/// matching is on).
fn find_parameter<'a>(p: &'a ParserData, name: &str) -> MResult<Option<&'a ParserArg>> {
    let same = |a: &str, b: &str| {
        if p.case_sensitive {
            a == b
        } else {
            a.eq_ignore_ascii_case(b)
        }
    };
    let params = p.args.iter().filter(|a| a.kind == ParserArgKind::Parameter);
    if let Some(exact) = params.clone().find(|a| same(&a.name, name)) {
        return Ok(Some(exact));
    }
    if !p.partial_matching || name.is_empty() {
        return Ok(None);
    }
    let hits: Vec<&ParserArg> = params
        .filter(|a| a.name.len() > name.len() && same(&a.name[..name.len()], name))
        .collect();
    match hits.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(one)),
        _ => Err(MError::new(
            "MATLAB:InputParser:AmbiguousParameter",
            format!(
                "Ambiguous name-value argument '{name}': it matches {}.",
                hits.iter()
                    .map(|a| format!("'{}'", a.name))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
    }
}

fn parse(i: &mut Interp, f: &mut Frame, a: A, _: usize) -> R {
    let cell = parser(&a[0], "parse")?;
    let p = cell.borrow().clone();
    let args = &a[1..];
    let function = p.function_name.clone();
    let mut results: Vec<(String, Value)> = Vec::new();
    let mut given: Vec<String> = Vec::new();
    let mut k = 0;
    for arg in p.args.iter().filter(|x| x.kind == ParserArgKind::Required) {
        let Some(v) = args.get(k) else {
            return Err(MError::new("MATLAB:minrhs", "Not enough input arguments."));
        };
        validate(i, f, arg, v, &function)?;
        results.push((arg.name.clone(), v.clone()));
        given.push(arg.name.clone());
        k += 1;
    }
    for arg in p.args.iter().filter(|x| x.kind == ParserArgKind::Optional) {
        let Some(v) = args.get(k) else { break };
        // Text naming a parameter starts the name-value part.
        if v.is_text() {
            if let Ok(t) = v.text() {
                if find_parameter(&p, &t).ok().flatten().is_some() {
                    break;
                }
            }
        }
        validate(i, f, arg, v, &function)?;
        results.push((arg.name.clone(), v.clone()));
        given.push(arg.name.clone());
        k += 1;
    }
    // Name-value pairs, with scalar structs expanded into pairs.
    let mut pairs: Vec<(String, Value)> = Vec::new();
    while k < args.len() {
        match &args[k] {
            Value::Struct(s) if p.struct_expand && s.numel() == 1 => {
                for (n, v) in s.fields.iter().zip(s.elems[0].iter()) {
                    pairs.push((n.to_string(), v.clone()));
                }
                k += 1;
            }
            v if v.is_text() => {
                let name = v.text()?;
                let Some(value) = args.get(k + 1) else {
                    return Err(MError::new(
                        "MATLAB:InputParser:ParamMissingValue",
                        format!(
                            "No value was given for '{name}'. Name-value pair arguments require a name followed by a value."
                        ),
                    ));
                };
                pairs.push((name, value.clone()));
                k += 2;
            }
            _ => {
                return Err(MError::new(
                    "MATLAB:InputParser:ParamMustBeChar",
                    "Expected a name of a name-value argument (text) at this position.",
                ));
            }
        }
    }
    let mut unmatched = Vec::new();
    for (name, v) in pairs {
        match find_parameter(&p, &name)? {
            Some(arg) => {
                validate(i, f, arg, &v, &function)?;
                results.retain(|(n, _)| n != &arg.name);
                results.push((arg.name.clone(), v));
                given.push(arg.name.clone());
            }
            None if p.keep_unmatched => {
                unmatched.retain(|(n, _): &(String, Value)| n != &name);
                unmatched.push((name, v));
            }
            None => {
                return Err(MError::new(
                    "MATLAB:InputParser:UnmatchedParameter",
                    format!(
                        "'{name}' is not a recognized parameter. For a list of valid name-value pair arguments, see the documentation for this function."
                    ),
                ));
            }
        }
    }
    let mut using_defaults = Vec::new();
    for arg in p.args.iter().filter(|x| x.kind != ParserArgKind::Required) {
        if !given.contains(&arg.name) {
            results.push((arg.name.clone(), arg.default.clone()));
            using_defaults.push(arg.name.clone());
        }
    }
    results.sort_by(|x, y| x.0.cmp(&y.0));
    unmatched.sort_by(|x, y| x.0.cmp(&y.0));
    let mut p = cell.borrow_mut();
    p.results = results;
    p.unmatched = unmatched;
    p.using_defaults = using_defaults;
    Ok(vec![])
}

fn fields_struct(pairs: &[(String, Value)]) -> Value {
    let mut s = StructArray::scalar();
    for (n, v) in pairs {
        s.set(0, n, v.clone());
    }
    Value::from(s)
}

/// `p.Name` for an inputParser.
pub fn property(p: &ParserData, name: &str) -> Option<Value> {
    Some(match name {
        "FunctionName" => Value::str(&p.function_name),
        "CaseSensitive" => Value::Bool(p.case_sensitive),
        "KeepUnmatched" => Value::Bool(p.keep_unmatched),
        "PartialMatching" => Value::Bool(p.partial_matching),
        "StructExpand" => Value::Bool(p.struct_expand),
        "Results" => fields_struct(&p.results),
        "Unmatched" => fields_struct(&p.unmatched),
        "UsingDefaults" => Value::from(CellArray::row(
            p.using_defaults.iter().map(|n| Value::str(n)).collect(),
        )),
        "Parameters" => {
            let mut names: Vec<&String> = p.args.iter().map(|a| &a.name).collect();
            names.sort();
            Value::from(CellArray::row(
                names.into_iter().map(|n| Value::str(n)).collect(),
            ))
        }
        _ => return None,
    })
}

/// The properties `p.Name = value` may set.
pub fn set_property(p: &mut ParserData, name: &str, v: &Value) -> MResult<()> {
    let flag = || -> MResult<bool> { v.truthy() };
    match name {
        "FunctionName" => p.function_name = text_arg(v, "inputParser")?,
        "CaseSensitive" => p.case_sensitive = flag()?,
        "KeepUnmatched" => p.keep_unmatched = flag()?,
        "PartialMatching" => p.partial_matching = flag()?,
        "StructExpand" => p.struct_expand = flag()?,
        "Results" | "Unmatched" | "UsingDefaults" | "Parameters" => {
            return Err(MError::new(
                "MATLAB:class:SetProhibited",
                format!(
                    "Unable to set the '{name}' property of class 'inputParser' because it is read-only."
                ),
            ));
        }
        _ => {
            return Err(MError::new(
                "MATLAB:noSuchMethodOrField",
                format!("Unrecognized property '{name}' for class 'inputParser'."),
            ));
        }
    }
    Ok(())
}

/// Property names in display order.
pub const PROPERTIES: [&str; 9] = [
    "FunctionName",
    "CaseSensitive",
    "KeepUnmatched",
    "PartialMatching",
    "StructExpand",
    "Parameters",
    "Results",
    "Unmatched",
    "UsingDefaults",
];
