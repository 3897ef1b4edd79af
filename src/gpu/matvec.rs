//! Matrix-vector products on the device (`shaders/matvec_rows.wgsl`,
//! `shaders/matvec_columns.wgsl`): `X*w`, `X'*v`, `v'*X` and `A*p`. The tiled product kernel
//! (`gpu::matmul`) computes 64 x 64 tiles of which a vector result uses one column, and
//! reads its operands through workgroup memory; a matrix-vector product only has to stream
//! the matrix once. Either form splits the inner dimension into slices when the outputs
//! alone would leave the device idle (a 4096 x 4096 `A*p` has 4096 rows: 16 workgroups),
//! and the reduction kernels add the slices' sums.

use super::buffers::{self, DeviceBuffer};
use super::device::Gpu;
use super::launch;
use crate::graph::Precision;
use crate::interp::error::MResult;
use std::rc::Rc;

const ROWS: &str = include_str!("../../shaders/matvec_rows.wgsl");
const COLUMNS: &str = include_str!("../../shaders/matvec_columns.wgsl");

/// How the stored matrix meets the vector: `Rows` sums along each stored row
/// (`out[i] = sum_j m(i, j) x(j)`: `X*w`), `Columns` down each stored column
/// (`out[j] = sum_i m(i, j) x(i)`: `X'*v`, `v'*X`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Form {
    Rows,
    Columns,
}

/// A matrix-vector product: the stored matrix is `rows x cols` (column-major), the vector
/// has `cols` values (`Rows`) or `rows` (`Columns`).
#[derive(Clone, Copy, Debug)]
pub struct MatVec {
    pub form: Form,
    pub rows: usize,
    pub cols: usize,
}

/// Threads a rows-form product aims for before it splits its columns: enough to keep every
/// multiprocessor of a large GPU busy (132 on the H100, 2048 threads each).
const TARGET_THREADS: usize = 1 << 18;
/// Workgroups a columns-form product aims for before it splits its columns' rows.
const TARGET_GROUPS: usize = 1024;

impl MatVec {
    fn outputs(&self) -> usize {
        match self.form {
            Form::Rows => self.rows,
            Form::Columns => self.cols,
        }
    }
    fn inner(&self) -> usize {
        match self.form {
            Form::Rows => self.cols,
            Form::Columns => self.rows,
        }
    }
    /// The inner dimension's slice length and the number of slices.
    fn slices(&self) -> (usize, usize) {
        let (outputs, inner) = (self.outputs().max(1), self.inner().max(1));
        let wanted = match self.form {
            Form::Rows => (TARGET_THREADS / outputs).min(inner / 32),
            Form::Columns => (TARGET_GROUPS / outputs).min(inner / 2048),
        }
        .max(1);
        let slice = inner.div_ceil(wanted);
        (slice, inner.div_ceil(slice))
    }
}

/// Whether the device can run this product: positions within 32 bits, every buffer one
/// binding, nothing empty.
pub fn fits(g: &Gpu, p: &MatVec, precision: Precision) -> bool {
    let numel = p.rows.saturating_mul(p.cols);
    let (_, splits) = p.slices();
    let bytes = |count: usize| (count as u64).saturating_mul(precision.bytes() as u64);
    let limit = super::kernels::binding_limit(g);
    numel > 0
        && numel < (1usize << 32) - (1 << 20)
        && bytes(numel) <= limit
        && bytes(p.outputs().saturating_mul(splits)) <= limit
        && p.outputs().saturating_mul(splits) < (1usize << 31)
        && (precision == Precision::F32 || g.info.supports_double)
}

/// Records the product of `matrix` and `vector` (one precision) into the batch; the result,
/// `outputs` values, stays on the device.
pub fn run(
    g: &Gpu,
    matrix: &DeviceBuffer,
    vector: &DeviceBuffer,
    p: &MatVec,
) -> MResult<Rc<DeviceBuffer>> {
    let precision = matrix.precision;
    let (slice, splits) = p.slices();
    let outputs = p.outputs();
    let out = buffers::allocate(g, outputs * splits, precision)?;
    let (rows, cols) = (p.rows as u32, p.cols as u32);
    match p.form {
        Form::Rows => {
            let groups = outputs.div_ceil(256);
            launch::run(
                g,
                &[10, 0, precision as u32],
                || format!("alias T = {};\n{ROWS}", precision.wgsl()),
                &[matrix, vector, &out],
                &[rows, cols, rows, slice as u32, groups as u32],
                groups * splits,
            )?;
        }
        Form::Columns => {
            launch::run(
                g,
                &[10, 1, precision as u32],
                || format!("alias T = {};\n{COLUMNS}", precision.wgsl()),
                &[matrix, vector, &out],
                &[rows, cols, rows, slice as u32],
                outputs * splits,
            )?;
        }
    }
    let out = Rc::new(out);
    if splits == 1 {
        return Ok(out);
    }
    // The slices' sums lie one after another: lanes of `splits` values `outputs` apart.
    let partials = super::reduce::values_group(out, outputs * splits, precision);
    let sum = super::reduce::Reduction {
        op: crate::values::ops::Red::Sum,
        omitnan: false,
        len: splits,
        count: false,
    };
    super::reduce::run(&partials, sum, outputs, outputs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_keep_the_device_busy_without_splitting_short_sums() {
        let tall = MatVec {
            form: Form::Rows,
            rows: 1_000_000,
            cols: 32,
        };
        assert_eq!(tall.slices(), (32, 1));
        let square = MatVec {
            form: Form::Rows,
            rows: 4096,
            cols: 4096,
        };
        assert_eq!(square.slices(), (64, 64));
        let skinny = MatVec {
            form: Form::Columns,
            rows: 1_000_000,
            cols: 32,
        };
        let (slice, splits) = skinny.slices();
        assert_eq!(splits, 32);
        assert!(slice * splits >= 1_000_000);
        let transposed = MatVec {
            form: Form::Columns,
            rows: 4096,
            cols: 4096,
        };
        assert_eq!(transposed.slices(), (4096, 1));
    }
}
