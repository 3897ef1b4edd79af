//! A thread's slots for the blocks of a group's steps, taken from buffers its finished
//! tasks gave back.

use super::block::BLOCK;
use super::program::Program;

/// A thread's block slots and conversion buffers.
pub struct Scratch {
    pub s32: Vec<Vec<f32>>,
    pub s64: Vec<Vec<f64>>,
    pub(super) t: [Vec<f64>; 3],
}

thread_local! {
    /// Block buffers a thread's finished tasks gave back: a task takes its slots from here
    /// instead of allocating and zeroing them (a tenth of an elementwise pass at 1e7, with a
    /// task every 16 blocks). Every step writes its slot's block before anything reads it.
    static SPARE: std::cell::RefCell<(Vec<Vec<f32>>, Vec<Vec<f64>>)> =
        const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
}

/// Buffers kept per thread, at most.
const SPARE_MAX: usize = 64;

impl Scratch {
    pub fn new(p: &Program<'_>) -> Scratch {
        SPARE.with(|spare| {
            let mut spare = spare.borrow_mut();
            let (f32s, f64s) = &mut *spare;
            let mut f64s_take = || f64s.pop().unwrap_or_else(|| vec![0.0; BLOCK]);
            let t = [f64s_take(), f64s_take(), f64s_take()];
            let s64 = (0..p.slots64).map(|_| f64s_take()).collect();
            let s32 = (0..p.slots32)
                .map(|_| f32s.pop().unwrap_or_else(|| vec![0.0; BLOCK]))
                .collect();
            Scratch { s32, s64, t }
        })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let s32 = std::mem::take(&mut self.s32);
        let s64 = std::mem::take(&mut self.s64);
        let t = std::mem::take(&mut self.t);
        // (a thread being torn down keeps nothing)
        let _ = SPARE.try_with(|spare| {
            let mut spare = spare.borrow_mut();
            let (f32s, f64s) = &mut *spare;
            for b in s32 {
                if f32s.len() < SPARE_MAX && b.len() == BLOCK {
                    f32s.push(b);
                }
            }
            for b in s64.into_iter().chain(t) {
                if f64s.len() < SPARE_MAX && b.len() == BLOCK {
                    f64s.push(b);
                }
            }
        });
    }
}
