fn main() {
    // Deep MATLAB recursion needs a deep native stack: run on a thread with room for it.
    let args: Vec<String> = std::env::args().collect();
    let child = std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || matfuse::cli::main(args));
    let code = match child {
        Ok(h) => h.join().unwrap_or(101),
        Err(_) => matfuse::cli::main(std::env::args().collect()),
    };
    std::process::exit(code);
}
