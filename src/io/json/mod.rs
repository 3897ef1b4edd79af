//! JSON text and values, by MATLAB's mapping (`jsonencode`, `jsondecode`). Parsing and string
//! escaping go through serde_json; the mapping itself (arrays to N-D arrays, objects with the
//! same fields to struct arrays, NaN and Inf to null) is here.

pub mod decode;
pub mod encode;
pub mod names;

pub use decode::decode;
pub use encode::{EncodeOptions, encode};
