//! Data in and out of files: the session's open files (`files`), the scanf engine shared by
//! sscanf and fscanf (`scanf`), textscan's engine (`textscan`), delimited text tables
//! (`delimited`).

pub mod delimited;
pub mod files;
pub mod scanf;
pub mod textscan;
