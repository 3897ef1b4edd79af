//! The start-up check behind `DeviceInfo::fma_sqrt`: the driver's single sqrt corrected with
//! fused multiply-adds (shaders/sqrt_f32_fma.wgsl) is compared with the correctly rounded f64
//! route for every single from zero to +Inf. Only a device where all 2^31 agree uses it. That
//! takes about 50 ms on an H200 (the background start-up thread runs it), more on GPUs with
//! slow f64, so the outcome is kept in the cache folder per adapter, driver and check kernel.
//! A CPU adapter would take minutes, and lavapipe splits fma, so CPU adapters are not checked.

use super::device::{DeviceInfo, Gpu};

/// Singles one dispatch covers (the largest 2-D grid of 256-thread workgroups used here).
const PER_DISPATCH: u64 = 65535 * 64 * 256;

/// Whether the device passes the check (false on any failure to run it).
pub fn passes(g: &Gpu) -> bool {
    let info = &g.info;
    if info.device_type == "Cpu" || !info.supports_double || !info.supports_int64 {
        return false;
    }
    let kept = kept_file(info);
    if let Some(text) = kept.as_ref().and_then(|f| std::fs::read_to_string(f).ok()) {
        match text.trim() {
            "pass" => return true,
            "fail" => return false,
            _ => {}
        }
    }
    let t = std::time::Instant::now();
    let n = mismatches(g, 0, 0x7f80_0001);
    super::trace(&format!(
        "sqrt check: {n:?} of 2^31 differ, {:.1} ms",
        t.elapsed().as_secs_f64() * 1e3
    ));
    // A check that could not run is not kept: the next session tries again.
    if let (Some(n), Some(file)) = (n, kept) {
        let written = file
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&file, if n == 0 { "pass\n" } else { "fail\n" }));
        if let Err(e) = written {
            super::trace(&format!("sqrt check: cannot keep the outcome: {e}"));
        }
    }
    n == Some(0)
}

/// Where the outcome for this adapter, driver and check kernel is kept.
fn kept_file(info: &DeviceInfo) -> Option<std::path::PathBuf> {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    (&info.name, &info.driver, info.device_id, info.vendor).hash(&mut h);
    crate::codegen::sqrt_check_kernel().hash(&mut h);
    crate::dirs::matfuse_dir("XDG_CACHE_HOME", ".cache")
        .map(|d| d.join(format!("sqrt-check-{:016x}.txt", h.finish())))
}

/// How many of the `count` singles from bit pattern `start` on (none past +Inf) give a
/// different sqrt on the corrected path than on the f64 one; None when the check could not
/// run.
pub fn mismatches(g: &Gpu, start: u32, count: u64) -> Option<u64> {
    let (device, queue) = (&g.device, &g.queue);
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let module = super::kernels::shader_module(
        device,
        "matfuse sqrt check",
        crate::codegen::sqrt_check_kernel(),
    );
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("matfuse sqrt check"),
        layout: None,
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    let buffer = |size: u64, usage: wgpu::BufferUsages| {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("matfuse sqrt check"),
            size,
            usage,
            mapped_at_creation: false,
        })
    };
    use wgpu::BufferUsages as U;
    let counted = buffer(256, U::STORAGE | U::COPY_SRC | U::COPY_DST);
    let readback = buffer(256, U::MAP_READ | U::COPY_DST);
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.clear_buffer(&counted, 0, None);
    let end = (start as u64 + count).min(1 << 32);
    let mut at = start as u64;
    while at < end {
        let base = buffer(256, U::STORAGE | U::COPY_DST);
        let last = (end - 1).min(0x7f80_0000) as u32;
        queue.write_buffer(&base, 0, bytemuck::cast_slice(&[at as u32, last]));
        let groups = (end - at).min(PER_DISPATCH).div_ceil(256);
        let (x, y) = (groups.min(65535) as u32, groups.div_ceil(65535) as u32);
        let bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: counted.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: base.as_entire_binding(),
                },
            ],
        });
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &bind, &[]);
            pass.dispatch_workgroups(x, y, 1);
        }
        at += PER_DISPATCH;
    }
    encoder.copy_buffer_to_buffer(&counted, 0, &readback, 0, 256);
    super::device::submit(queue, [encoder.finish()]);
    if pollster::block_on(scope.pop()).is_some() {
        return None;
    }
    let slice = readback.slice(..4);
    if !super::device::map_read(g, &slice) {
        return None;
    }
    let n = {
        let view = slice.get_mapped_range().ok()?;
        u32::from_le_bytes([view[0], view[1], view[2], view[3]])
    };
    readback.unmap();
    Some(n as u64)
}
