//! What the plotting functions add to an axes: one module per family that needs more than
//! setting properties (histogram binning, quiver arrows, pie wedges).

pub mod histogram;
pub mod pie;
pub mod quiver;
