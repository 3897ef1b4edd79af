//! Kernel text for regions: where an embed's region words sit in the shape table, how its
//! values are read at their place in the region, and the scatter kernel that writes values
//! into an array in place (`gpu::scatter`).

use super::{ELEMENTWISE, init, input_read, input_read_from, prelude, step_lines_reading};
use crate::plan::Group;

/// Where region `r`'s words start in the shape table: after the inputs' strides and
/// offsets, the kernel's `params` words and the random blocks' words, and the regions
/// before it (a count, then four words per subscript).
pub(super) fn region_base(g: &Group, params: usize, r: usize) -> String {
    let n = g.inputs.len();
    let before: usize = g.regions[..r.min(g.regions.len())]
        .iter()
        .map(|(region, _)| 1 + 4 * region.dims.len())
        .sum();
    format!(
        "2u + shape_table[1] * {}u + {}u",
        n + 1,
        n + params + 4 * g.rands.len() + before
    )
}

/// Where gather `j`'s words start: after the regions' and the gathers before it (three
/// words a subscript).
pub(super) fn gather_base(g: &Group, params: usize, j: usize) -> String {
    let before: usize = g.gathers[..j.min(g.gathers.len())]
        .iter()
        .map(|p| 3 * p.subs.len())
        .sum();
    format!("{} + {before}u", region_base(g, params, g.regions.len()))
}

/// Gather `j`'s value at element `gi`: its source at the sum of each subscript's position
/// times its stride. One subscript is linear (its position runs over `gi`); several run
/// along the result's dimensions. Index inputs are read as they are stored, as whole
/// numbers (`read` gives an input's element).
pub(super) fn gather_value(
    g: &Group,
    params: usize,
    j: usize,
    read: &dyn Fn(usize, &crate::plan::Access) -> String,
) -> String {
    let Some(plan) = g.gathers.get(j) else {
        return "T(0)".into();
    };
    let base = gather_base(g, params, j);
    let linear = plan.subs.len() == 1;
    let terms: Vec<String> = plan
        .subs
        .iter()
        .enumerate()
        .map(|(d, sub)| {
            let w = format!("{base} + {}u", 3 * d);
            let position = match sub.input {
                Some(k) => format!("(u32({}) - 1u)", read(k, &g.inputs[k])),
                None => {
                    let along = if linear {
                        "gi".to_string()
                    } else {
                        format!("m_sub(gi, {d}u)")
                    };
                    format!("(shape_table[{w} + 1u] + {along} * shape_table[{w} + 2u])")
                }
            };
            format!("{position} * shape_table[{w}]")
        })
        .collect();
    format!("T(in{}[{}])", plan.source, terms.join(" + "))
}

/// Input `k` read at the output element's place in region `r` (its first value outside).
pub(super) fn region_read(g: &Group, params: usize, array: &str, r: usize) -> String {
    format!("{array}[m_region(gi, {}).y]", region_base(g, params, r))
}

/// The WGSL of a scatter: `g`'s values written into an array in place, element `gi` at the
/// address the scatter words (after the group's regions) give (`gpu::scatter`), or with
/// `index`, at the 1-based position that input holds for it.
/// Inputs with their bit in `aliased` are the array written, read through `out` (by the
/// index form, only by gathers: `gpu::scatter::run_by_index`).
pub fn scatter(g: &Group, aliased: u32, index: Option<usize>) -> String {
    let is_aliased = |k: usize| k < 32 && aliased & (1 << k) != 0;
    let mut lines = step_lines_reading(g, 0, &|k, access| {
        if is_aliased(k) {
            // The input's own binding stays in the layout (a kernel must use what it binds).
            let read = input_read_from(g, 0, k, access, "out");
            format!("select({read}, in{k}[0u], false)")
        } else {
            input_read(g, 0, k, access)
        }
    });
    let address = match index {
        None => format!("m_scatter(gi, {})", gather_base(g, 0, g.gathers.len())),
        Some(ix) => {
            // Gathers of the array written read it through `out` (`gather_value` names its
            // source's binding); the binding itself is kept in use.
            for k in (0..g.inputs.len()).filter(|&k| is_aliased(k)) {
                lines = format!(
                    "    _ = in{k}[0u];\n{}",
                    lines.replace(&format!("T(in{k}["), "T(out[")
                );
            }
            format!("u32({}) - 1u", input_read(g, 0, ix, &g.inputs[ix]))
        }
    };
    let body = format!(
        "{}    out[{address}] = v{};",
        lines,
        g.steps.len().saturating_sub(1)
    );
    prelude(g, 1, 1)
        + "\n"
        + &ELEMENTWISE
            .replace("{{BODY}}", &body)
            .replace("{{INIT}}", init(g))
}
