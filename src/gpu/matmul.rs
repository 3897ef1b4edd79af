//! Matrix products on the device (`shaders/matmul.wgsl`): `C = op(A) * op(B)` with either
//! operand read transposed where it is stored (so `X' * X` copies nothing). A product with
//! few output tiles and a long inner dimension (the covariance `Xc' * Xc` of a tall matrix:
//! one 64 x 64 tile over a million rows) is split along k so that it fills the device; the
//! slices' partial products are then summed by the reduction kernels.

use super::bind_cache::Binding;
use super::buffers::{self, DeviceBuffer};
use super::device::{self, Gpu};
use crate::codegen::{KernelKey, MatmulForm};
use crate::graph::Precision;
use crate::interp::error::{MError, MResult};
use std::rc::Rc;

/// One operand: its data on the device, and whether it is read transposed.
pub struct Operand {
    pub buffer: Rc<DeviceBuffer>,
    pub trans: bool,
}

/// Workgroups a product aims for before it splits along k: a few per multiprocessor of a
/// large GPU (132 on the H100), so that none idles while another works through a long slice.
const TARGET_WORKGROUPS: usize = 512;

/// Values along k that one slice of a split product covers at least.
const MIN_SLICE: usize = 1024;

/// The kernel form for a product of `m x n` in `precision`: 128 x 128 tiles (8 x 8 sums a
/// thread), or 64 x 64 for small products (a 64 x 64 covariance would leave three quarters of
/// a larger tile idle). Vector tile reads and tiles 8 deep along k: on the H100, 4096^2
/// singles took 4.2 ms with vector reads and 4.7 without; doubles 8.2 and 8.3 (10.3 with 64 x
/// 64 tiles); 16 deep gave 4.4 and 8.0 ms.
fn form(precision: Precision, m: usize, n: usize, trans_a: bool, trans_b: bool) -> MatmulForm {
    let t = match crate::settings::parsed::<usize>("MATFUSE_MATMUL_TILE") {
        // For measuring: sums a thread keeps per side (4 or 8) in every product.
        Some(t @ (4 | 8)) => t,
        _ if m.max(n) > 96 => 8,
        _ => 4,
    };
    MatmulForm {
        precision,
        tm: t,
        tn: t,
        trans_a,
        trans_b,
        // For measuring: vector tile reads (1) or not (0), and the tiles' depth along k.
        vector: crate::settings::parsed::<u8>("MATFUSE_MATMUL_VECTOR") != Some(0),
        bk: match crate::settings::parsed::<usize>("MATFUSE_MATMUL_BK") {
            Some(bk @ (8 | 16)) => bk,
            _ => 8,
        },
    }
}

/// How a product is dispatched: tiles down and across, the slice length along k and the
/// number of slices.
struct Grid {
    tiles_m: usize,
    tiles_n: usize,
    slice: usize,
    splits: usize,
}

fn grid(f: &MatmulForm, m: usize, n: usize, k: usize) -> Grid {
    let tiles_m = m.div_ceil(f.bm());
    let tiles_n = n.div_ceil(f.bn());
    let tiles = (tiles_m * tiles_n).max(1);
    let wanted = if tiles < TARGET_WORKGROUPS / 2 {
        (TARGET_WORKGROUPS / tiles).min(k / MIN_SLICE).max(1)
    } else {
        1
    };
    let slice = k.div_ceil(wanted).next_multiple_of(f.bk).max(f.bk);
    Grid {
        tiles_m,
        tiles_n,
        slice,
        splits: k.div_ceil(slice).max(1),
    }
}

/// Whether the device can compute an `m x k` by `k x n` product in `precision`: each operand
/// and the (split) result within one storage binding, the grid within the dispatch limits,
/// and no dimension zero (the host makes empty and zero results).
pub fn fits(g: &Gpu, m: usize, n: usize, k: usize, precision: Precision) -> bool {
    if m == 0 || n == 0 || k == 0 {
        return false;
    }
    if precision == Precision::F64 && !g.info.supports_double {
        return false;
    }
    let f = form(precision, m, n, false, false);
    let gr = grid(&f, m, n, k);
    let limit = super::kernels::binding_limit(g);
    let bytes = |count: usize| (count as u64).saturating_mul(precision.bytes() as u64);
    let max = g.info.max_workgroups_per_dim as usize;
    // Indices are computed in 32 bits.
    let indexable = |count: usize| count < (1usize << 31);
    bytes(m * k) <= limit
        && bytes(k * n) <= limit
        && bytes(m * n * gr.splits) <= limit
        && indexable(m * k)
        && indexable(k * n)
        && indexable(m * n * gr.splits)
        && gr.tiles_m <= max
        && gr.tiles_n <= max
        && gr.splits <= max
}

/// Records `op(A) * op(B)` (`m x k` by `k x n`) into the batch; the result stays on the
/// device, `m x n` column-major.
pub fn run(
    a: &Operand,
    b: &Operand,
    m: usize,
    n: usize,
    k: usize,
    precision: Precision,
) -> MResult<Rc<DeviceBuffer>> {
    let g = device::ready().ok_or_else(|| MError::new("matfuse:gpu:none", "No GPU."))?;
    let f = form(precision, m, n, a.trans, b.trans);
    let gr = grid(&f, m, n, k);
    let kernel = super::kernels::compiled(g, KernelKey::matmul(&f), || crate::codegen::matmul(&f))?;
    let out = buffers::allocate_for(
        g,
        m * n * gr.splits,
        precision,
        std::sync::Arc::as_ptr(&kernel.0) as usize,
    )?;
    let lda = if a.trans { k } else { m };
    let ldb = if b.trans { n } else { k };
    let table: Vec<u32> = [m, n, k, lda, ldb, gr.slice, gr.splits]
        .iter()
        .map(|&v| v as u32)
        .collect();
    let table: &[u8] = bytemuck::cast_slice(&table);
    let limit = super::kernels::binding_limit(g);
    let bindings = [
        super::kernels::window(&out, None, limit)?,
        super::kernels::window(&a.buffer, None, limit)?,
        super::kernels::window(&b.buffer, None, limit)?,
    ];
    let scope = g.device.push_error_scope(wgpu::ErrorFilter::Validation);
    super::batch::record_dispatch(g, &[table], |pass, params, at| {
        let [out, a, b] = bindings;
        let table = Binding {
            buffer: params.clone(),
            offset: at[0],
            size: std::num::NonZeroU64::new(table.len() as u64),
        };
        super::bind_cache::bind(pass, &g.device, &kernel.0, vec![out, table, a, b]);
        pass.dispatch_workgroups(gr.tiles_m as u32, gr.tiles_n as u32, gr.splits as u32);
    })?;
    if let Some(e) = pollster::block_on(scope.pop()) {
        return Err(MError::new(
            "matfuse:gpu:kernel",
            format!("a matrix product could not run: {e}"),
        ));
    }
    super::stats::add_kernel(1, kernel.1);
    let out = Rc::new(out);
    if gr.splits == 1 {
        return Ok(out);
    }
    // The slices' products lie one after another: lanes of `splits` values `m * n` apart.
    let partials = super::reduce::values_group(out, m * n * gr.splits, precision);
    let sum = super::reduce::Reduction {
        op: crate::values::ops::Red::Sum,
        omitnan: false,
        len: gr.splits,
        count: false,
    };
    super::reduce::run(&partials, sum, m * n, m * n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_products_with_few_tiles_split_along_k_in_whole_tile_steps() {
        // The covariance of a 1e6 x 64 matrix: one tile, split to fill the device.
        let f = form(Precision::F32, 64, 64, true, false);
        assert_eq!((f.tm, f.bm()), (4, 64));
        let g = grid(&f, 64, 64, 1_000_000);
        assert_eq!(g.tiles_m * g.tiles_n, 1);
        assert!(g.splits > 100 && g.splits <= TARGET_WORKGROUPS);
        assert_eq!(g.slice % f.bk, 0);
        assert!(g.slice * g.splits >= 1_000_000 && g.slice * (g.splits - 1) < 1_000_000);
        // A large square product has tiles enough.
        let f = form(Precision::F32, 4096, 4096, false, false);
        assert_eq!(f.bm(), 128);
        let g = grid(&f, 4096, 4096, 4096);
        assert_eq!((g.tiles_m, g.tiles_n, g.splits), (32, 32, 1));
        assert_eq!(g.slice, 4096);
        // A short inner dimension is never split.
        let g = grid(&form(Precision::F64, 10, 10, false, false), 10, 10, 1500);
        assert_eq!(g.splits, 1);
    }
}
