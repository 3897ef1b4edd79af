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
    i.call_named(
        f,
        "eval",
        vec![Value::str(&format!("{scratch} = {};", rhs.trim()))],
        0,
    )?;
    let v = i.lookup_var(f, scratch);
    i.call_named(f, "clear", vec![Value::str(scratch)], 0)?;
    let text = match v {
        Some(Value::Device(d)) => describe(&d.node, wgsl),
        Some(v) => format!(
            "  value: {} {} computed on the host as it was evaluated (not a graph operation)\n",
            v.shape().size_text(),
            v.class_name()
        ),
        None => "  the statement gives no value\n".to_string(),
    };
    output::write_str(&text);
    Ok(vec![])
}
