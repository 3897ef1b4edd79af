//! matfuse: an interactive MATLAB-syntax REPL whose workspace lives on the GPU.
//! Modules in data-flow order (see README.md for the table).

pub mod syntax;
pub mod interp;
pub mod values;
pub mod builtins;
pub mod display;
pub mod cli;
