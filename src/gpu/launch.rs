//! One dispatch of a hand-written kernel (scans, sorts, sets): its buffers bound in order,
//! its parameters as one more binding of u32 words after them, workgroups in x (and y past
//! the per-dimension limit, so a kernel finds its workgroup as `wid.x + wid.y * nwg.x`).
//! Recorded into the batch like every kernel; nothing is waited for.

use super::bind_cache::Binding;
use super::buffers::DeviceBuffer;
use super::device::Gpu;
use super::kernels::{binding_limit, compiled, window};
use crate::codegen::KernelKey;
use crate::interp::error::{MError, MResult};

/// Whether every buffer fits one storage binding (the kernels bind them whole).
pub fn fits(g: &Gpu, buffers: &[&DeviceBuffer]) -> bool {
    let limit = binding_limit(g);
    buffers.iter().all(|b| b.bytes() <= limit)
}

/// Records kernel `key` (text from `source` on a cache miss) over `buffers` with `params`,
/// as `workgroups` workgroups.
pub fn run(
    g: &Gpu,
    key: &[u32],
    source: impl FnOnce() -> String,
    buffers: &[&DeviceBuffer],
    params: &[u32],
    workgroups: usize,
) -> MResult<()> {
    let (pipe, hit) = compiled(g, KernelKey::custom(key), source)?;
    let limit = g.info.max_storage_binding;
    let bindings: Vec<Binding> = buffers
        .iter()
        .map(|b| window(b, None, limit))
        .collect::<MResult<_>>()?;
    let max = g.info.max_workgroups_per_dim.max(1);
    let groups = u32::try_from(workgroups.max(1)).map_err(|_| too_large())?;
    let (x, y) = if groups <= max {
        (groups, 1)
    } else {
        (max, groups.div_ceil(max))
    };
    if y > max {
        return Err(too_large());
    }
    let mut words = params.to_vec();
    words.resize(words.len().max(4), 0);
    let bytes: &[u8] = bytemuck::cast_slice(&words);
    let scope = g.device.push_error_scope(wgpu::ErrorFilter::Validation);
    super::batch::record_dispatch(g, &[bytes], |pass, params, at| {
        let mut all = bindings;
        all.push(Binding {
            buffer: params.clone(),
            offset: at[0],
            size: std::num::NonZeroU64::new(bytes.len() as u64),
        });
        super::bind_cache::bind(pass, &g.device, &pipe, all);
        pass.dispatch_workgroups(x, y, 1);
    })?;
    if let Some(e) = pollster::block_on(scope.pop()) {
        return Err(MError::new(
            "matfuse:gpu:kernel",
            format!("A scan or sort kernel could not run: {e}"),
        ));
    }
    super::stats::add_kernel(1, hit);
    let moved = buffers.iter().map(|b| b.bytes()).sum();
    super::batch::submit_if_idle(g, moved)
}

fn too_large() -> MError {
    MError::new(
        "matfuse:gpu:size",
        "The array is too large for one dispatch.",
    )
}
