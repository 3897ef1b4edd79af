//! Kernel text for regions: where an embed's region words sit in the shape table, how its
//! values are read at their place in the region, and the scatter kernel that writes values
//! into an array in place (`gpu::scatter`).

use super::{ELEMENTWISE, init, input_read, prelude, step_lines_reading};
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

/// Input `k` read at the output element's place in region `r` (its first value outside).
pub(super) fn region_read(g: &Group, params: usize, k: usize, r: usize) -> String {
    format!("in{k}[m_region(gi, {}).y]", region_base(g, params, r))
}

/// The WGSL of a scatter: `g`'s values written into an array in place, element `gi` at the
/// address the scatter words (after the group's regions) give (`gpu::scatter`).
/// Inputs with their bit in `aliased` are the array written, read through `out`.
pub fn scatter(g: &Group, aliased: u32) -> String {
    let lines = step_lines_reading(g, 0, &|k, access| {
        let read = input_read(g, 0, k, access);
        if k < 32 && aliased & (1 << k) != 0 {
            // The input's own binding stays in the layout (a kernel must use what it binds).
            format!(
                "select({}, in{k}[0u], false)",
                read.replacen(&format!("in{k}["), "out[", 1)
            )
        } else {
            read
        }
    });
    let body = format!(
        "{}    out[m_scatter(gi, {})] = v{};",
        lines,
        region_base(g, 0, g.regions.len()),
        g.steps.len().saturating_sub(1)
    );
    prelude(g, 1, 1)
        + "\n"
        + &ELEMENTWISE
            .replace("{{BODY}}", &body)
            .replace("{{INIT}}", init(g))
}
