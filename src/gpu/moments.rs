//! A lane's mean and its sum of squared deviations from it in one pass over the values (what
//! `var` and `std` need, with `mean` of the same lanes): a first pass writes each lane part's
//! count, sum and squared deviations (`shaders/moments.wgsl`), and a fold merges the parts,
//! once for the means and once for the squared deviations (`shaders/moments_fold.wgsl`). The
//! sums are folded in a plain mean's order, so the mean is the one `mean` alone gives.

use super::buffers::{self, DeviceBuffer};
use super::device::{self, Gpu};
use super::kernels::{Launch, compiled, launch_into, rand_words, shape_table};
use crate::interp::error::{MError, MResult};
use crate::plan::Group;
use std::rc::Rc;

/// Whether the moments of `numel` values in lanes (`inner`, `len`) run here: lanes that a
/// workgroup per part folds (as a plain mean's are), all in one window.
pub fn fits(g: &Gpu, numel: usize, inner: usize, len: usize) -> bool {
    !crate::plan::reduce::per_thread(inner, len)
        && len > 0
        && super::reduce::in_one_window(g, numel)
}

/// The means and the sums of squared deviations from them of `nout` lanes of `len` of `gr`'s
/// values, `inner` apart; both stay on the device.
pub fn run(
    gr: &Group,
    inner: usize,
    len: usize,
    nout: usize,
) -> MResult<(Rc<DeviceBuffer>, Rc<DeviceBuffer>)> {
    let g = device::ready().ok_or_else(|| MError::new("matfuse:gpu:none", "No GPU."))?;
    let parts = crate::plan::reduce::parts(len, nout);
    let kernel = compiled(g, crate::codegen::key(gr, moments(false)), || {
        crate::codegen::moments(gr, false)
    })?;
    let mut table = shape_table(gr);
    table.extend([inner, len, nout, parts, 0].map(|v| v as u32));
    table.extend(rand_words(gr));
    let planes = 3 * nout * parts;
    let partial = Rc::new(buffers::allocate(g, planes, gr.precision)?);
    let launch = Launch {
        table: &table,
        consts: &gr.consts,
        out: None,
        inputs: None,
        workgroups: (nout * parts) as u32,
    };
    launch_into(g, gr, &kernel, &partial, &launch)?;
    super::order::ran((nout * len * gr.precision.bytes()) as u64, false);
    let folded = super::reduce::partials_group(partial, planes, gr);
    let fold = compiled(g, crate::codegen::key(&folded, moments(true)), || {
        crate::codegen::moments(&folded, true)
    })?;
    let mut table = shape_table(&folded);
    table.extend([1, parts, nout, 1, 0].map(|v| v as u32));
    // Once for the means (`which` 0), once for the squared deviations.
    let result = |which: f64| -> MResult<Rc<DeviceBuffer>> {
        let out = buffers::allocate(g, nout, gr.precision)?;
        let launch = Launch {
            table: &table,
            consts: &[len as f64, which],
            out: None,
            inputs: None,
            workgroups: nout as u32,
        };
        launch_into(g, &folded, &fold, &out, &launch)?;
        Ok(Rc::new(out))
    };
    Ok((result(0.0)?, result(1.0)?))
}

fn moments(fold: bool) -> crate::codegen::Kind {
    crate::codegen::Kind::Moments { fold }
}
