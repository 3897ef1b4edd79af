//! Data in and out: MAT-files (`mat`), JSON text (`json`), and what both share: writing a file
//! so that a failure leaves no partial file (`atomic`), and progress on a terminal for long
//! transfers (`progress`).

pub mod atomic;
pub mod json;
pub mod mat;
pub mod progress;
