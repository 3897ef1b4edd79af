//! Scatters: a group's values written into an existing array at affine addresses, in place
//! (`plan::in_place`: a range assignment into an array nothing else can see). A kernel runs
//! over the written elements only, so `A(i, :) = row` in a loop costs the row, not the matrix.

use super::buffers::DeviceBuffer;
use super::device;
use super::kernels::{Launch, WORKGROUP, compiled, launch_into, rand_words, shape_table};
use crate::interp::error::{MError, MResult};
use crate::plan::Group;

/// Writes `gr`'s values (one per element of its shape, column-major) into `target`: element
/// `i` at `offset + sum(s[d] * steps[d])`, `s` its subscripts over `counts`.
pub fn run(
    gr: &Group,
    target: &DeviceBuffer,
    offset: i64,
    counts: &[usize],
    steps: &[i64],
) -> MResult<()> {
    let mut words = vec![counts.len() as u32, offset as u32];
    for (&c, &s) in counts.iter().zip(steps) {
        words.push(c as u32);
        words.push(s as i32 as u32);
    }
    write(gr, target, None, &words)
}

/// Writes `gr`'s values into `target`, element `i` at the 1-based position input `index`
/// holds for it (`x(idx) = x(idx) * 0.5 + w` as one kernel: `interp::put_fused`). The
/// positions must be distinct and within `target`, and the values may read `target` only
/// through gathers at those same positions: each thread then reads its element before it
/// writes it, and no other thread touches it.
pub fn run_by_index(gr: &Group, target: &DeviceBuffer, index: usize) -> MResult<()> {
    write(gr, target, Some(index), &[])
}

fn write(gr: &Group, target: &DeviceBuffer, index: Option<usize>, words: &[u32]) -> MResult<()> {
    let g = device::ready().ok_or_else(|| MError::new("matfuse:gpu:none", "No GPU."))?;
    let n = gr.shape.numel();
    // The target is bound whole; the values are read in one window.
    if n > super::kernels::window_elements(g) {
        return Err(MError::new(
            "matfuse:gpu:scatter",
            "Too many values for one scatter.",
        ));
    }
    // Inputs that are the target itself (values reading the array where they write it)
    // are read through the output binding.
    let aliased = gr
        .leaves
        .iter()
        .enumerate()
        .filter(|(_, l)| match &*l.data.borrow() {
            Some(crate::graph::Data::Device(b)) => std::ptr::eq(&**b, target),
            _ => false,
        })
        .fold(0u32, |m, (k, _)| m | 1 << k.min(31));
    let kind = crate::codegen::Kind::Scatter {
        aliased,
        index: index.map_or(0, |k| k as u32 + 1),
    };
    let kernel = compiled(g, crate::codegen::key(gr, kind), || {
        crate::codegen::scatter(gr, aliased, index)
    })?;
    let mut table = shape_table(gr);
    table.extend(rand_words(gr));
    table.extend_from_slice(words);
    let launch = Launch {
        table: &table,
        consts: &gr.consts,
        out: None,
        inputs: None,
        workgroups: (n as u32).div_ceil(WORKGROUP),
    };
    launch_into(g, gr, &kernel, target, &launch)
}
