//! matfuse: an interactive MATLAB-syntax REPL whose workspace lives on the GPU.
//! Modules in data-flow order (see README.md for the table).

pub mod builtins;
pub mod cli;
pub mod codegen;
pub mod dates;
pub mod dirs;
pub mod display;
pub mod gpu;
pub mod graph;
pub mod graphics;
pub mod host_alloc;
pub mod interp;
pub mod io;
pub mod plan;
pub mod settings;
pub mod syntax;
pub mod values;
