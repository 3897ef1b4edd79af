//! The element types a block computes in (f32, f64) and an operand over a block.

/// An operand over a block: a slice or one value.
#[derive(Clone, Copy)]
pub enum Src<'s, T> {
    V(&'s [T]),
    S(T),
}

/// The element types a block computes in.
pub trait Num: Copy + PartialOrd + Send + Sync + 'static {
    /// Whether this is f32.
    const SINGLE: bool;
    const ZERO: Self;
    const ONE: Self;
    fn to64(self) -> f64;
    fn from64(x: f64) -> Self;
    fn from32(x: f32) -> Self;
    fn of_bool(b: bool) -> Self {
        if b { Self::ONE } else { Self::ZERO }
    }
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    fn div(self, o: Self) -> Self;
    fn neg(self) -> Self;
    fn abs(self) -> Self;
    fn sqrt(self) -> Self;
    fn floor(self) -> Self;
    fn ceil(self) -> Self;
    fn round(self) -> Self;
    fn trunc(self) -> Self;
    fn is_nan(self) -> bool;
    fn is_infinite(self) -> bool;
    /// The slice as f32s, where this is f32.
    fn slice32(s: &mut [Self]) -> Option<&mut [f32]>;
    /// The slice as f64s, where this is f64.
    fn slice64(s: &mut [Self]) -> Option<&mut [f64]>;
}

macro_rules! num {
    ($t:ty, $single:expr, $s32:expr, $s64:expr) => {
        impl Num for $t {
            #[inline(always)]
            fn slice32(s: &mut [$t]) -> Option<&mut [f32]> {
                $s32(s)
            }
            #[inline(always)]
            fn slice64(s: &mut [$t]) -> Option<&mut [f64]> {
                $s64(s)
            }
            const SINGLE: bool = $single;
            const ZERO: $t = 0.0;
            const ONE: $t = 1.0;
            #[inline(always)]
            fn to64(self) -> f64 {
                self as f64
            }
            #[inline(always)]
            fn from64(x: f64) -> $t {
                x as $t
            }
            #[inline(always)]
            fn from32(x: f32) -> $t {
                x as $t
            }
            #[inline(always)]
            fn add(self, o: $t) -> $t {
                self + o
            }
            #[inline(always)]
            fn sub(self, o: $t) -> $t {
                self - o
            }
            #[inline(always)]
            fn mul(self, o: $t) -> $t {
                self * o
            }
            #[inline(always)]
            fn div(self, o: $t) -> $t {
                self / o
            }
            #[inline(always)]
            fn neg(self) -> $t {
                -self
            }
            #[inline(always)]
            fn abs(self) -> $t {
                <$t>::abs(self)
            }
            #[inline(always)]
            fn sqrt(self) -> $t {
                <$t>::sqrt(self)
            }
            #[inline(always)]
            fn floor(self) -> $t {
                <$t>::floor(self)
            }
            #[inline(always)]
            fn ceil(self) -> $t {
                <$t>::ceil(self)
            }
            #[inline(always)]
            fn round(self) -> $t {
                <$t>::round(self)
            }
            #[inline(always)]
            fn trunc(self) -> $t {
                <$t>::trunc(self)
            }
            #[inline(always)]
            fn is_nan(self) -> bool {
                self != self
            }
            #[inline(always)]
            fn is_infinite(self) -> bool {
                <$t>::abs(self) == <$t>::INFINITY
            }
        }
    };
}
num!(f32, true, Some, |_| None);
num!(f64, false, |_| None, Some);
