//! Data in and out of files: the session's open files (`files`), the scanf engine shared by
//! sscanf and fscanf (`scanf`), textscan's engine (`textscan`), delimited text tables
//! (`delimited`), MAT-files (`mat`), JSON text (`json`), and what both of the last share:
//! writing a file so that a failure leaves no partial file (`atomic`), and progress on a
//! terminal for long transfers (`progress`).

pub mod atomic;
pub mod delimited;
pub mod files;
pub mod json;
pub mod mat;
pub mod progress;
pub mod scanf;
pub mod textscan;
