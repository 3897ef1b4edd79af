//! explain: the plan for a statement's value without computing it: the fused group (its
//! operations and inputs, with where each input lives), GPU or host and why, how many kernels,
//! and with `-wgsl` the generated shader.

use super::{Builtin, b, bad_arg};
use crate::graph::{Node, Op};
use crate::interp::Interp;
use crate::interp::error::MResult;
use crate::interp::function::Frame;
use crate::interp::output;
use crate::values::value::Value;
use std::rc::Rc;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("explain", 1, -1, 0, "explain statement, explain -wgsl statement: the plan for the statement's value (fusion group, GPU or host and why, inputs and where they live, kernels) without computing it; device work is planned, not run.", explain),
    ]
}

fn residency(n: &Node) -> &'static str {
    match &*n.data.borrow() {
        Some(crate::graph::Data::Device(_)) => "device",
        Some(crate::graph::Data::Host(_)) => "host",
        None => "pending",
    }
}

fn describe(root: &Rc<Node>, wgsl: bool) -> String {
    // Work that runs as it is typed (a matrix product, a sort: their own kernels, recorded then)
    // leaves nothing pending to plan.
    if root.op == Op::Leaf && root.on_device() {
        return format!(
            "  value: {} {} ({}), already computed: nothing is pending (a matrix product, \
             scan, sort or set function runs as its own kernels as soon as it is typed)\n",
            root.shape.size_text(),
            root.class.name(),
            residency(root)
        );
    }
    let (producer, reduction) = match &root.op {
        Op::Reduce {
            op,
            all,
            dim,
            omitnan,
        } => {
            let what = if *all {
                "all elements".to_string()
            } else {
                format!("dimension {}", dim + 1)
            };
            let nan = if *omitnan { ", omitting NaN" } else { "" };
            (
                root.inputs[0].clone(),
                Some(format!("{op:?} over {what}{nan}")),
            )
        }
        _ => (root.clone(), None),
    };
    let g = crate::plan::group(&producer);
    let size = root.shape.size_text();
    let mut out = format!(
        "  value: {size} {} ({})\n  fused group: {} operation(s) over {} element(s), {:?}\n",
        root.class.name(),
        residency(root),
        g.steps.len(),
        g.shape.numel(),
        g.precision
    );
    if let Some(r) = &reduction {
        out.push_str(&format!("  reduction fused into the same kernel: {r}\n"));
    }
    for (k, leaf) in g.leaves.iter().enumerate() {
        out.push_str(&format!(
            "  input {k}: {} {} ({})\n",
            leaf.shape.size_text(),
            leaf.class.name(),
            residency(leaf)
        ));
    }
    match crate::plan::host_reason(&g) {
        None => {
            let kernels = match &root.op {
                Op::Reduce { all, dim, .. } => {
                    let (_, len, nout) = crate::plan::reduce::lanes(&g.shape, *dim, *all);
                    if crate::plan::reduce::parts(len, nout) > 1 {
                        2
                    } else {
                        1
                    }
                }
                _ => 1,
            };
            out.push_str(&format!(
                "  runs on the GPU: {kernels} kernel(s); only this value is materialised\n"
            ));
        }
        Some(why) => out.push_str(&format!("  runs on the host: {why}\n")),
    }
    if wgsl {
        let source = match &root.op {
            Op::Reduce {
                op,
                omitnan,
                dim,
                all,
            } => {
                let (inner, len, _) = crate::plan::reduce::lanes(&g.shape, *dim, *all);
                crate::codegen::reduce(
                    &g,
                    &crate::codegen::reduce_form(*op, *omitnan, true, g.consts.len()),
                    crate::plan::reduce::per_thread(inner, len),
                )
            }
            _ => crate::codegen::elementwise(&g, true, false),
        };
        out.push_str("\n");
        out.push_str(&crate::codegen::expand(&source));
        out.push('\n');
    }
    out
}

fn explain(i: &mut Interp, f: &mut Frame, a: A, _: usize) -> R {
    let words: Vec<String> = a
        .iter()
        .map(|v| super::text_arg(v, "explain"))
        .collect::<MResult<_>>()?;
    let text = words.join(" ");
    let (wgsl, code) = match text.trim_start().strip_prefix("-wgsl") {
        Some(rest) => (true, rest.trim().to_string()),
        None => (false, text.trim().to_string()),
    };
    // A loop: what its syntax allows (its graphs are compared only when it runs).
    if code.starts_with("for ") || code.starts_with("for(") {
        let text = explain_loop(i, f, &code)?;
        output::write_str(&text);
        return Ok(vec![]);
    }
    // The value of `x = expr` or of `expr`: evaluated into a scratch variable, so device
    // operations only append graph nodes; nothing is assigned and no kernel runs.
    let rhs = match code.find('=') {
        Some(k)
            if !code[k + 1..].starts_with('=') && !code[..k].ends_with(['<', '>', '~', '=']) =>
        {
            &code[k + 1..]
        }
        _ => code.as_str(),
    };
    if rhs.trim().is_empty() {
        return Err(bad_arg(
            "explain",
            "Give a statement: explain y = sin(x) + 1",
        ));
    }
    let scratch = "matfuse_explain_value";
    if let Some(text) = explain_assignment(i, f, &code, rhs, wgsl)? {
        output::write_str(&text);
        return Ok(vec![]);
    }
    let before = crate::gpu::stats::snapshot().1;
    i.call_named(
        f,
        "eval",
        vec![Value::str(&format!("{scratch} = {};", rhs.trim()))],
        0,
    )?;
    let v = i.lookup_var(f, scratch);
    i.call_named(f, "clear", vec![Value::str(scratch)], 0)?;
    let down = crate::gpu::stats::snapshot()
        .1
        .bytes_down
        .saturating_sub(before.bytes_down);
    let text = match v {
        // A value already on the host (a scalar subscript reads its element back): nothing
        // of it runs on the GPU.
        Some(Value::Device(d))
            if d.node.op == Op::Leaf
                && matches!(&*d.node.data.borrow(), Some(crate::graph::Data::Host(_))) =>
        {
            format!(
                "  value: {} {} (host)\n  runs on the host: computed as it was evaluated \
                 ({down} bytes read back from the device); nothing is pending and no kernel \
                 runs for it\n",
                d.node.shape.size_text(),
                d.node.class.name()
            )
        }
        Some(Value::Device(d)) => describe(&d.node, wgsl),
        Some(Value::DeviceComplex(z)) => format!(
            "  value: {} complex gpuArray, kept as two real parts (complex arithmetic is real \
             work on them; what has no complex form reads both back, MATFUSE_DEBUG names it)\n  \
             real part:\n{}  imaginary part:\n{}",
            z.shape().size_text(),
            describe(&z.re, wgsl),
            describe(&z.im, wgsl)
        ),
        Some(v) => format!(
            "  value: {} {} computed on the host as it was evaluated (not a graph operation)\n",
            v.shape().size_text(),
            v.class_name()
        ),
        None => "  the statement gives no value\n".to_string(),
    };
    let text = text + &super::fourier::host_notes(rhs);
    output::write_str(&text);
    Ok(vec![])
}

/// `explain for ...`: the loop parsed in `f` (its names resolved there, nothing run).
fn explain_loop(i: &mut Interp, f: &mut Frame, code: &str) -> MResult<String> {
    use crate::interp::function::Slot;
    let source = crate::syntax::span::Source::new("explain", code, false);
    let is_var = |n: &str| {
        f.layout
            .get(n)
            .is_some_and(|k| !matches!(f.vars[k as usize], Slot::Empty))
    };
    let prog =
        crate::syntax::parse(code, &is_var).map_err(|e| crate::interp::syntax_error(e, &source))?;
    crate::syntax::resolve::stmts(&prog.stmts, f.layout_mut());
    f.sync();
    Ok(match prog.stmts.first() {
        Some(stmt) => crate::interp::loops::explain(i, f, stmt),
        None => "  the statement gives no value\n".to_string(),
    })
}

/// The variable and subscripts of an indexed assignment's left-hand side (`x(...)`), if the
/// text before the `=` is one.
fn indexed_target(lhs: &str) -> Option<(&str, &str)> {
    let lhs = lhs.trim();
    let open = lhs.find('(')?;
    let name = lhs[..open].trim();
    let ident = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    (ident && lhs.ends_with(')')).then(|| (name, &lhs[open..]))
}

/// `explain x(subs) = rhs`: the whole assignment's plan. It is run on a scratch copy of the
/// variable with device assignments planned, not run: a range assignment or a masked select
/// shows the one kernel that computes the new array; an index, deletion or growth says which
/// kernels would run; a form that would go through the host says so.
fn explain_assignment(
    i: &mut Interp,
    f: &mut Frame,
    code: &str,
    rhs: &str,
    wgsl: bool,
) -> MResult<Option<String>> {
    let Some(eq) = code.len().checked_sub(rhs.len() + 1) else {
        return Ok(None);
    };
    let Some((name, subs)) = code.get(..eq).and_then(indexed_target) else {
        return Ok(None);
    };
    let Some(old) = i.lookup_var(f, name) else {
        return Ok(None);
    };
    if !matches!(old, Value::Device(_)) {
        return Ok(None);
    }
    let scratch = "matfuse_explain_value";
    let before = crate::gpu::stats::snapshot().1;
    let statement = format!("{scratch} = {name}; {scratch}{subs} = {};", rhs.trim());
    let (ran, notes) =
        crate::interp::put_planning(|| i.call_named(f, "eval", vec![Value::str(&statement)], 0));
    let v = i.lookup_var(f, scratch);
    i.call_named(f, "clear", vec![Value::str(scratch)], 0)?;
    ran?;
    let after = crate::gpu::stats::snapshot().1;
    let down = after.bytes_down.saturating_sub(before.bytes_down);
    let mut out = format!(
        "  assignment {name}{subs} = {}: the new value of {name}, planned whole\n",
        rhs.trim()
    );
    if !notes.is_empty() {
        for n in notes {
            out.push_str(&format!("  {n}\n"));
        }
        return Ok(Some(out));
    }
    match v {
        Some(Value::Device(d)) if down == 0 && !d.node.is_realised() => {
            out.push_str(&describe(&d.node, wgsl));
        }
        Some(Value::Device(d)) if down == 0 && d.node.on_device() => {
            out.push_str("  runs on the GPU as it is typed: nothing is pending\n");
        }
        Some(Value::Device(d)) if down == 0 => out.push_str(&format!(
            "  computed on the host as it was assigned (the array is on the host); the result \
             is {} {}\n",
            d.node.shape.size_text(),
            d.node.class.name()
        )),
        Some(v) => out.push_str(&format!(
            "  runs on the host: this form of assignment reads the array back ({down} bytes) and \
             assigns there; the result is {} {}\n",
            v.shape().size_text(),
            v.class_name()
        )),
        None => out.push_str("  the statement gives no value\n"),
    }
    Ok(Some(out))
}
