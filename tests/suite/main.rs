//! The integration tests that can share one process: each test binary links the whole
//! product (about 50 MB), and one binary per file (51 of them) filled the CI machine's disk.
//! Files that change the process (its environment, its working folder, its memory limit, its
//! device) or count process-wide GPU events keep binaries of their own (`tests/*.rs`).

#[path = "../common/mod.rs"]
mod common;

mod dates;
mod everyday;
mod fft;
mod file_io;
mod gpu_addressing;
mod gpu_assign;
mod gpu_complex;
mod gpu_complex_device;
mod gpu_complex_device_more;
mod gpu_device;
mod gpu_fft;
mod gpu_functions;
mod gpu_gathers;
mod gpu_growth_repeats;
mod gpu_host_held;
mod gpu_layouts;
mod gpu_masked;
mod gpu_math;
mod gpu_matmul;
mod gpu_moments;
mod gpu_nd_index;
mod gpu_put_fused;
mod gpu_scans;
mod gpu_sink;
mod gpu_slices;
mod gpu_sort;
mod graphics;
mod graphics_audit;
mod io_bad_input;
mod json;
mod library;
mod mat_files;
mod semantics;
mod sin_reduction;
mod single_erf;
mod single_log;
mod syntax;
mod transcripts;
