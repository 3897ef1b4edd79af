//! The random stream: Philox4x32-10, counter-based. Element `n` of the session stream is a
//! pure function of (seed, n), so the CPU and a GPU kernel produce the same numbers for the
//! same positions, and generating in any order or in parallel gives the same array.

const M0: u32 = 0xD251_1F53;
const M1: u32 = 0xCD9E_8D57;
const W0: u32 = 0x9E37_79B9;
const W1: u32 = 0xBB67_AE85;

#[inline]
fn mulhilo(a: u32, b: u32) -> (u32, u32) {
    let p = a as u64 * b as u64;
    ((p >> 32) as u32, p as u32)
}

/// One Philox4x32-10 block: four 32-bit words for counter `ctr` under `key`.
#[inline]
pub fn philox(ctr: [u32; 4], key: [u32; 2]) -> [u32; 4] {
    let mut c = ctr;
    let mut k = key;
    for r in 0..10 {
        if r > 0 {
            k[0] = k[0].wrapping_add(W0);
            k[1] = k[1].wrapping_add(W1);
        }
        let (hi0, lo0) = mulhilo(M0, c[0]);
        let (hi1, lo1) = mulhilo(M1, c[2]);
        c = [hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0];
    }
    c
}

/// The stream's state: a seed, and how many values have been drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RngState {
    pub seed: u64,
    pub offset: u64,
}

impl Default for RngState {
    fn default() -> Self {
        RngState { seed: 0, offset: 0 }
    }
}

/// Which distribution, so one position yields one value of each kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Dist {
    UniformDouble,
    UniformSingle,
    NormalDouble,
    NormalSingle,
}

#[inline]
fn block(seed: u64, n: u64) -> [u32; 4] {
    philox(
        [n as u32, (n >> 32) as u32, 0, 0],
        [seed as u32, (seed >> 32) as u32],
    )
}

/// A double in (0, 1) from two words (53 random bits, centred in their interval).
#[inline]
pub fn u53(w0: u32, w1: u32) -> f64 {
    let bits = ((w0 as u64) << 21) ^ ((w1 as u64) >> 11);
    ((bits & ((1u64 << 53) - 1)) as f64 + 0.5) * (1.0 / 9_007_199_254_740_992.0)
}

/// A single in (0, 1) from one word (24 random bits, centred).
#[inline]
pub fn u24(w: u32) -> f32 {
    ((w >> 8) as f32 + 0.5) * (1.0 / 16_777_216.0)
}

/// randi's integer in [lo, lo + span - 1] from a uniform double `u` (the host and the
/// device's graph evaluation share it).
#[inline]
pub fn randi_of(u: f64, lo: f64, span: f64) -> f64 {
    lo + (u * span).floor().min(span - 1.0)
}

/// Value number `n` of the stream for `seed`.
#[inline]
pub fn value(seed: u64, n: u64, dist: Dist) -> f64 {
    let w = block(seed, n);
    match dist {
        Dist::UniformDouble => u53(w[0], w[1]),
        Dist::UniformSingle => u24(w[0]) as f64,
        Dist::NormalDouble | Dist::NormalSingle => {
            let u1 = u53(w[0], w[1]);
            let u2 = u53(w[2], w[3]);
            let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
            if dist == Dist::NormalSingle {
                z as f32 as f64
            } else {
                z
            }
        }
    }
}

impl RngState {
    /// Draws `count` values and advances the stream.
    pub fn draw(&mut self, count: usize, dist: Dist) -> Vec<f64> {
        let start = self.offset;
        self.offset += count as u64;
        (0..count as u64)
            .map(|k| {
                crate::interp::interrupt::poll();
                value(self.seed, start + k, dist)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn philox_known_answer() {
        // Known-answer test from the Random123 distribution (philox4x32_10, zero inputs).
        assert_eq!(
            philox([0, 0, 0, 0], [0, 0]),
            [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]
        );
        assert_eq!(
            philox([0xffffffff; 4], [0xffffffff; 2]),
            [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]
        );
    }
    #[test]
    fn uniform_in_open_interval() {
        let mut s = RngState::default();
        for v in s.draw(10000, Dist::UniformDouble) {
            assert!(v > 0.0 && v < 1.0);
        }
        let a = RngState { seed: 7, offset: 0 }.draw(5, Dist::UniformSingle);
        let b = RngState { seed: 7, offset: 0 }.draw(5, Dist::UniformSingle);
        assert_eq!(a, b);
    }
}
