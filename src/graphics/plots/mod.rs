//! What the plotting functions add to an axes: one module per family that needs more than
//! setting properties (histogram binning, bar groups).

pub mod histogram;
