//! The start-up check behind `DeviceInfo::fma_sqrt` and `fma_trig`: code that is right only
//! where multiply-adds are fused is compared with the f64 route for every single from zero to
//! +Inf (shaders/fma_check.wgsl). The driver's single sqrt corrected with fused multiply-adds
//! (sqrt_f32_fma.wgsl) must give the correctly rounded result for all 2^31; sin and cos with
//! fused reductions (trig_f32_fma.wgsl) must be within 2 ulp for every finite one, odd and
//! even in x. Each is used only where it passed. That takes about 50 ms on an H200 (the
//! background start-up thread runs it), more on GPUs with slow f64, so the outcome is kept
//! in the cache folder per adapter, driver and check kernel. A CPU adapter would take
//! minutes, and lavapipe splits fma, so CPU adapters are not checked.

use super::device::{DeviceInfo, Gpu};

/// Singles one dispatch covers (the largest 2-D grid of 256-thread workgroups used here).
const PER_DISPATCH: u64 = 65535 * 64 * 256;

/// What passed the check: the corrected sqrt, the fused sin and cos.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Passed {
    pub sqrt: bool,
    pub trig: bool,
}

/// What the device passes (nothing on any failure to run the check).
pub fn passes(g: &Gpu) -> Passed {
    let info = &g.info;
    if info.device_type == "Cpu" || !info.supports_double || !info.supports_int64 {
        return Passed::default();
    }
    let kept = kept_file(info);
    if let Some(text) = kept.as_ref().and_then(|f| std::fs::read_to_string(f).ok()) {
        let mut words = text.split_whitespace();
        if let (Some(sqrt), Some(trig)) = (words.next(), words.next()) {
            return Passed {
                sqrt: sqrt == "pass",
                trig: trig == "pass",
            };
        }
    }
    let t = std::time::Instant::now();
    let n = mismatches(g, 0, 0x7f80_0001);
    super::trace(&format!(
        "fma check: {n:?} of 2^31 differ (sqrt, sin and cos), {:.1} ms",
        t.elapsed().as_secs_f64() * 1e3
    ));
    let Some([sqrt, trig]) = n else {
        // A check that could not run is not kept: the next session tries again.
        return Passed::default();
    };
    let passed = Passed {
        sqrt: sqrt == 0,
        trig: trig == 0,
    };
    if let Some(file) = kept {
        let word = |ok: bool| if ok { "pass" } else { "fail" };
        let text = format!("{} {}\n", word(passed.sqrt), word(passed.trig));
        let written = file
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&file, text));
        if let Err(e) = written {
            super::trace(&format!("fma check: cannot keep the outcome: {e}"));
        }
    }
    passed
}

/// Where the outcome for this adapter, driver and check kernel is kept.
fn kept_file(info: &DeviceInfo) -> Option<std::path::PathBuf> {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    (&info.name, &info.driver, info.device_id, info.vendor).hash(&mut h);
    crate::codegen::fma_check_kernel().hash(&mut h);
    crate::dirs::matfuse_dir("XDG_CACHE_HOME", ".cache")
        .map(|d| d.join(format!("fma-check-{:016x}.txt", h.finish())))
}

/// How many of the `count` singles from bit pattern `start` on (none past +Inf) give a
/// different sqrt on the corrected path than on the f64 one, and how many a sin or cos
/// further than 2 ulp from it (or not odd or even); None when the check could not run.
pub fn mismatches(g: &Gpu, start: u32, count: u64) -> Option<[u64; 2]> {
    let (device, queue) = (&g.device, &g.queue);
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("matfuse fma check"),
        source: wgpu::ShaderSource::Wgsl(crate::codegen::fma_check_kernel().into()),
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("matfuse fma check"),
        layout: None,
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    let buffer = |size: u64, usage: wgpu::BufferUsages| {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("matfuse fma check"),
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
    queue.submit([encoder.finish()]);
    super::device::note_submit();
    if pollster::block_on(scope.pop()).is_some() {
        return None;
    }
    let slice = readback.slice(..8);
    if !super::device::map_read(g, &slice) {
        return None;
    }
    let n = {
        let view = slice.get_mapped_range().ok()?;
        let word = |k: usize| u32::from_le_bytes([view[k], view[k + 1], view[k + 2], view[k + 3]]);
        [word(0) as u64, word(4) as u64]
    };
    readback.unmap();
    Some(n)
}
