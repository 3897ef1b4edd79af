//! The session's device as users see it: gpuDevice, gpuDeviceCount, reset, tic/toc, timeit,
//! MATFUSE_DEVICE=cpu. With MATFUSE_REQUIRE_GPU=1 (CI, lavapipe) a missing adapter fails
//! instead of skipping.

use crate::common::run_code_with as matfuse;
use std::process::Output;

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).to_string(),
        String::from_utf8_lossy(&o.stderr).to_string(),
    )
}

fn require_gpu() -> bool {
    std::env::var("MATFUSE_REQUIRE_GPU").is_ok_and(|v| v == "1")
}

#[test]
fn gpu_device_reports_the_adapter() {
    let o = matfuse(
        "d = gpuDevice; fprintf('%s|%s|%d|%d|%d\\n', class(d.Name), d.Backend, d.Index, \
         d.SupportsDouble, d.MaxStorageBinding > 0); n = gpuDeviceCount; fprintf('%d\\n', n >= 1); \
         e = gpuDevice(d.Index); fprintf('%d\\n', isequal(e.Name, d.Name)); reset(d); disp('after reset')",
        &[],
    );
    let (out, err) = text(&o);
    if !o.status.success() && err.contains("No supported GPU device") && !require_gpu() {
        eprintln!("no GPU adapter here; skipping (set MATFUSE_REQUIRE_GPU=1 to fail instead)");
        return;
    }
    assert!(o.status.success(), "stdout: {out}\nstderr: {err}");
    let lines: Vec<&str> = out.lines().collect();
    let fields: Vec<&str> = lines[0].split('|').collect();
    assert_eq!(fields[0], "char");
    assert!(["Vulkan", "Metal", "Dx12"].contains(&fields[1]), "{out}");
    assert_eq!(fields[2], "1");
    assert_eq!(fields[4], "1");
    assert_eq!(lines[1], "1");
    assert_eq!(lines[2], "1");
    assert_eq!(lines[3], "after reset");
    // Displayed without a semicolon, it is a struct with the documented fields.
    let (out, _) = text(&matfuse("gpuDevice", &[]));
    for field in [
        "Name:",
        "Index:",
        "Backend:",
        "DriverVersion:",
        "SupportsDouble:",
        "MaxBufferSize:",
    ] {
        assert!(out.contains(field), "{field} missing from {out}");
    }
}

#[test]
fn cpu_only_sessions_say_so() {
    let o = matfuse(
        "disp(gpuDeviceCount); gpuDevice",
        &[("MATFUSE_DEVICE", "cpu")],
    );
    let (out, err) = text(&o);
    assert_eq!(out.trim(), "0");
    assert!(!o.status.success());
    assert!(err.contains("parallel:gpu:device:NoDevice"), "{err}");
    assert!(err.contains("MATFUSE_DEVICE=cpu"), "{err}");
    // A bad device index is an error, not a crash.
    let o = matfuse("gpuDevice(99)", &[]);
    assert!(!o.status.success());
    let (_, err) = text(&o);
    assert!(
        err.contains("InvalidDeviceIndex") || err.contains("NoDevice"),
        "{err}"
    );
    let o = matfuse("reset(5)", &[]);
    assert!(text(&o).1.contains("must be a device from gpuDevice"));
}

#[test]
fn tic_toc_and_timeit_measure() {
    let o = matfuse(
        "tic; pause(0.05); t = toc; fprintf('%d\\n', t >= 0.05 && t < 5); \
         f = @() sum(rand(200)); s = timeit(f); fprintf('%d\\n', s > 0 && s < 1); \
         s0 = timeit(@() disp(''), 0); fprintf('%d\\n', s0 >= 0)",
        &[],
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert_eq!(
        out.lines().filter(|l| !l.is_empty()).collect::<Vec<_>>(),
        ["1", "1", "1"]
    );
    // `t0 = tic` leaves the plain stopwatch alone: toc measures from the last plain tic.
    let o = matfuse(
        "tic; pause(0.2); t0 = tic; pause(0.01); a = toc; b = toc(t0); \
         fprintf('%d %d\\n', a >= 0.2, b < 0.2)",
        &[],
    );
    assert_eq!(text(&o).0.trim(), "1 1", "{}", text(&o).1);
    let o = matfuse("timeit(3)", &[]);
    assert!(text(&o).1.contains("function handle"));
}

/// With MATFUSE_GPU_TIMING=1, gpuStats has the device's time for the work (timestamp queries
/// around each batch), less than the statement's wall time. A software adapter's stamps are
/// host clock readings taken when it gets round to them (lavapipe may write both at one
/// flush, or count its JIT compile), so there the time need only be a time.
#[test]
fn gpu_time_is_measured_when_asked() {
    let code = "G = gpuArray(rand(500, 200)); gpuStats reset; t = tic; [m, i] = max(sin(G) + G); \
                a = gather(m); wall = toc(t); s = gpuStats; d = gpuDevice; \
                g = s.Session.GPUTime; real = ~strcmp(d.DeviceType, 'Cpu'); \
                fprintf('%d\\n', isfinite(g) && g >= 0 && (~real || (g > 0 && g < wall)));";
    let o = matfuse(code, &[("MATFUSE_GPU_TIMING", "1")]);
    let (out, err) = text(&o);
    if !o.status.success() && err.contains("No supported GPU device") && !require_gpu() {
        return;
    }
    assert_eq!(out.trim(), "1", "{err}");
}

/// gpuCalibrate measures this machine, caches the result per adapter, and automatic offload
/// then follows the measured threshold: a host array at or past it joins the graph, one below
/// it (or any, when the GPU never won) stays on the host.
#[test]
fn calibration_sets_the_offload_threshold() {
    let dir = std::env::temp_dir().join(format!("matfuse-calibration-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cache = dir.to_string_lossy().to_string();
    let env = [
        ("XDG_CACHE_HOME", cache.as_str()),
        ("MATFUSE_OFFLOAD", "auto"),
    ];
    let o = matfuse(
        "c = gpuCalibrate; fprintf('%d %d %d %d\\n', c.CopyGBps > 0, c.KernelGBps > 0, \
         c.HostGBps > 0, c.OffloadThreshold >= 1024)",
        &env,
    );
    let (out, err) = text(&o);
    if !o.status.success() && err.contains("no GPU") && !require_gpu() {
        eprintln!("no GPU adapter here; skipping");
        return;
    }
    assert_eq!(out, "1 1 1 1\n", "stderr: {err}");
    let file = std::fs::read_dir(dir.join("matfuse"))
        .expect("cache folder")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().contains("calibration-"))
        .expect("calibration file");
    let text_of = std::fs::read_to_string(&file).expect("readable");
    let residency = |threshold: &str| {
        let edited: String = text_of
            .lines()
            .map(|l| {
                if l.starts_with("threshold ") {
                    format!("threshold {threshold}\n")
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        std::fs::write(&file, edited).expect("writable");
        let o = matfuse(
            "x = ones(2000, 1); y = x + 1; z = x(1:999) + 1; w = whos; fprintf('%s ', w.residency)",
            &env,
        );
        text(&o).0
    };
    // whos lists x, y, z: y (2000 elements) is pending past a threshold of 1000.
    assert_eq!(residency("1000"), "host pending host ");
    assert_eq!(residency("never"), "host host host ");
    let _ = std::fs::remove_dir_all(&dir);
}
