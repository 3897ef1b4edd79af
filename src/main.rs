#[global_allocator]
static ALLOC: matfuse::host_alloc::HostAlloc = matfuse::host_alloc::HostAlloc;

fn main() {
    // Mesa's Vulkan drivers print "XDG_RUNTIME_DIR is invalid or not set" on every adapter
    // query when the variable is missing (containers, CI); give them the temp folder. Done
    // before any thread starts, which is what makes changing the environment sound.
    if std::env::var_os("XDG_RUNTIME_DIR").is_none() {
        // SAFETY: single-threaded here; nothing reads the environment concurrently.
        unsafe { std::env::set_var("XDG_RUNTIME_DIR", std::env::temp_dir()) };
    }
    // Deep MATLAB recursion needs a deep native stack: run on a thread with room for it.
    // Arguments as the OS gives them: one that is not UTF-8 is decoded, never a panic.
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let child = std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            // This thread joins the array kernels' thread pool as its worker 0: a parallel
            // loop it starts runs its first part here and takes back any part no other
            // worker has picked up, instead of handing everything to the pool and sleeping
            // until sleeping workers are scheduled (on a busy machine, often longer than
            // the loop itself at 1e6 elements). Fails only if a pool exists already.
            let _ = rayon::ThreadPoolBuilder::new()
                .use_current_thread()
                .build_global();
            matfuse::cli::main(args)
        });
    let code = match child {
        Ok(h) => h.join().unwrap_or(101),
        Err(_) => matfuse::cli::main(std::env::args_os().collect()),
    };
    std::process::exit(code);
}
