//! Array shapes: MATLAB dimensions, always at least two, trailing singleton dimensions past the
//! second dropped so that `zeros(2,3,1)` and `zeros(2,3)` compare equal.

use smallvec::SmallVec;
use std::fmt;

#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Shape(SmallVec<[usize; 4]>);

impl Shape {
    pub fn new(dims: &[usize]) -> Shape {
        let mut v: SmallVec<[usize; 4]> = SmallVec::from_slice(dims);
        while v.len() < 2 {
            v.push(if v.is_empty() { 0 } else { 1 });
        }
        while v.len() > 2 && v[v.len() - 1] == 1 {
            v.pop();
        }
        Shape(v)
    }
    pub fn scalar() -> Shape {
        Shape(SmallVec::from_slice(&[1, 1]))
    }
    pub fn empty() -> Shape {
        Shape(SmallVec::from_slice(&[0, 0]))
    }
    pub fn matrix(rows: usize, cols: usize) -> Shape {
        Shape(SmallVec::from_slice(&[rows, cols]))
    }
    pub fn row(n: usize) -> Shape {
        Shape::matrix(1, n)
    }
    pub fn col(n: usize) -> Shape {
        Shape::matrix(n, 1)
    }
    pub fn dims(&self) -> &[usize] {
        &self.0
    }
    pub fn ndims(&self) -> usize {
        self.0.len()
    }
    /// Size along dimension `d` (0-based); 1 past the last dimension.
    pub fn dim(&self, d: usize) -> usize {
        self.0.get(d).copied().unwrap_or(1)
    }
    pub fn rows(&self) -> usize {
        self.0[0]
    }
    /// Columns with every dimension past the first folded in, as `size(A,2)` of `A(:,:)`.
    pub fn cols(&self) -> usize {
        self.0[1..].iter().product()
    }
    pub fn numel(&self) -> usize {
        self.0.iter().product()
    }
    pub fn is_empty(&self) -> bool {
        self.0.contains(&0)
    }
    pub fn is_scalar(&self) -> bool {
        self.0.iter().all(|&d| d == 1)
    }
    pub fn is_vector(&self) -> bool {
        self.0.len() == 2 && (self.0[0] == 1 || self.0[1] == 1)
    }
    pub fn is_row(&self) -> bool {
        self.0.len() == 2 && self.0[0] == 1
    }
    pub fn is_col(&self) -> bool {
        self.0.len() == 2 && self.0[1] == 1
    }
    pub fn is_matrix(&self) -> bool {
        self.0.len() == 2
    }
    /// The dimension MATLAB reduces along by default: the first non-singleton one (0-based).
    pub fn first_nonsingleton(&self) -> usize {
        self.0.iter().position(|&d| d != 1).unwrap_or(0)
    }
    pub fn with_dim(&self, d: usize, n: usize) -> Shape {
        if d >= self.0.len() && n == 1 {
            return self.clone();
        }
        let mut v: SmallVec<[usize; 4]> = self.0.clone();
        while v.len() <= d {
            v.push(1);
        }
        v[d] = n;
        Shape::new(&v)
    }
    /// Column-major strides (in elements).
    pub fn strides(&self) -> SmallVec<[usize; 4]> {
        let mut s = SmallVec::with_capacity(self.0.len());
        let mut acc = 1;
        for &d in self.0.iter() {
            s.push(acc);
            acc *= d;
        }
        s
    }
    /// The shape `R×C` text MATLAB prints in headers, with the multiplication sign.
    pub fn size_text(&self) -> String {
        self.0
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("×")
    }
    /// Shape of the result of implicit expansion, or MATLAB's error for incompatible sizes.
    pub fn broadcast_checked(a: &Shape, b: &Shape) -> Result<Shape, crate::interp::error::MError> {
        Shape::broadcast(a, b).ok_or_else(|| {
            crate::interp::error::MError::new(
                "MATLAB:sizeDimensionsMustMatch",
                format!(
                    "Arrays have incompatible sizes for this operation ({} and {}).",
                    a.size_text(),
                    b.size_text()
                ),
            )
        })
    }
    /// Shape of the result of implicit expansion, or None when the sizes are incompatible.
    pub fn broadcast(a: &Shape, b: &Shape) -> Option<Shape> {
        if a == b {
            return Some(a.clone());
        }
        let n = a.ndims().max(b.ndims());
        let mut out: SmallVec<[usize; 4]> = SmallVec::with_capacity(n);
        for d in 0..n {
            let (x, y) = (a.dim(d), b.dim(d));
            out.push(if x == y {
                x
            } else if x == 1 {
                y
            } else if y == 1 {
                x
            } else {
                return None;
            });
        }
        Some(Shape::new(&out))
    }
}

impl fmt::Debug for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}",
            self.0
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join("x")
        )
    }
}

/// Walks the column-major positions of an output of shape `out`, yielding for each the linear
/// offsets into two broadcast operands. Used by every host elementwise kernel with expansion.
pub struct BroadcastIter {
    out: SmallVec<[usize; 4]>,
    sa: SmallVec<[usize; 4]>,
    sb: SmallVec<[usize; 4]>,
    idx: SmallVec<[usize; 4]>,
    oa: usize,
    ob: usize,
    remaining: usize,
}

impl BroadcastIter {
    pub fn new(out: &Shape, a: &Shape, b: &Shape) -> BroadcastIter {
        let n = out.ndims();
        let stride_of = |s: &Shape| {
            let st = s.strides();
            (0..n)
                .map(|d| {
                    if s.dim(d) == 1 {
                        0
                    } else {
                        st.get(d).copied().unwrap_or(0)
                    }
                })
                .collect::<SmallVec<[usize; 4]>>()
        };
        BroadcastIter {
            out: out.dims().into(),
            sa: stride_of(a),
            sb: stride_of(b),
            idx: SmallVec::from_elem(0, n),
            oa: 0,
            ob: 0,
            remaining: out.numel(),
        }
    }
}

impl Iterator for BroadcastIter {
    type Item = (usize, usize);
    fn next(&mut self) -> Option<(usize, usize)> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let cur = (self.oa, self.ob);
        // advance the multi-index like an odometer
        for d in 0..self.out.len() {
            self.idx[d] += 1;
            self.oa += self.sa[d];
            self.ob += self.sb[d];
            if self.idx[d] < self.out[d] {
                break;
            }
            self.oa -= self.sa[d] * self.out[d];
            self.ob -= self.sb[d] * self.out[d];
            self.idx[d] = 0;
        }
        Some(cur)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn trailing_singletons_dropped() {
        assert_eq!(Shape::new(&[2, 3, 1, 1]), Shape::matrix(2, 3));
        assert_eq!(Shape::new(&[2, 3, 4]).ndims(), 3);
        assert_eq!(Shape::new(&[5]).dims(), &[5, 1]);
    }
    #[test]
    fn broadcast_rules() {
        let r = Shape::row(3);
        let c = Shape::col(2);
        assert_eq!(Shape::broadcast(&r, &c), Some(Shape::matrix(2, 3)));
        assert_eq!(Shape::broadcast(&Shape::row(3), &Shape::row(4)), None);
        let pairs: Vec<_> = BroadcastIter::new(&Shape::matrix(2, 3), &r, &c).collect();
        assert_eq!(pairs, vec![(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]);
    }
}
