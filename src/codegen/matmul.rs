//! The matrix product kernel (`shaders/matmul.wgsl`) for one element type, tile shape and pair
//! of operand layouts. The template's blocks are unrolled here: each thread's sums are named
//! variables and each tile load an explicit statement, so nothing depends on the driver
//! unrolling loops over private arrays (which it may leave in local memory).

use crate::graph::Precision;
use std::fmt::Write;

const MATMUL: &str = include_str!("../../shaders/matmul.wgsl");

/// What a product kernel's text depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatmulForm {
    pub precision: Precision,
    /// Sums a thread keeps per row block and per column block (tiles of 16 * tm by 16 * tn).
    pub tm: usize,
    pub tn: usize,
    /// Values along k each tile holds (a multiple of 8: whole tile rows per load).
    pub bk: usize,
    /// A and B are read transposed (stored k x m and n x k).
    pub trans_a: bool,
    pub trans_b: bool,
    /// The tiles are read as 16-byte vectors (fewer shared-memory loads), else one value at
    /// a time.
    pub vector: bool,
}

impl MatmulForm {
    pub fn bm(&self) -> usize {
        16 * self.tm
    }
    pub fn bn(&self) -> usize {
        16 * self.tn
    }
    /// The pipeline-cache key's words (`KernelKey::matmul`).
    pub fn words(&self) -> [u32; 7] {
        [
            self.bk as u32,
            u32::from(self.precision == Precision::F64),
            self.tm as u32,
            self.tn as u32,
            u32::from(self.trans_a),
            u32::from(self.trans_b),
            u32::from(self.vector),
        ]
    }
}

/// Elements of one vector of the tiles: 16 bytes' worth, or one.
fn width(f: &MatmulForm) -> usize {
    match (f.vector, f.precision) {
        (false, _) => 1,
        (true, Precision::F32) => 4,
        (true, Precision::F64) => 2,
    }
}

const LANES: [&str; 4] = ["x", "y", "z", "w"];

/// How one thread moves its share of a tile: `vectors` of the tile's vectors to a row of it
/// (`count` in all); thread `t` takes vector `e = t + 256 c` for each `c` below `count / 256`
/// (rounded up), held in registers `{reg}{c}` between the fetch from the matrix and the put
/// into `tile`. Consecutive threads step along the tile's side (rows of A, columns of B)
/// where the matrix is stored along it (`stored_along`), else along k; `at(index, k)` reads
/// an element.
struct TileMove<'a> {
    w: usize,
    count: usize,
    vectors: &'a str,
    tile: &'a str,
    reg: &'a str,
    stored_along: bool,
}

impl TileMove<'_> {
    fn each(&self) -> usize {
        self.count.div_ceil(256)
    }

    /// The vector's place along the side (v) and k (p) for thread element `e`.
    fn place(&self) -> String {
        if self.stored_along {
            format!(
                "let v = e % ({}); let p = e / ({});",
                self.vectors, self.vectors
            )
        } else {
            "let p = e % BK; let v = e / BK;".to_string()
        }
    }

    fn declare(&self) -> String {
        (0..self.each())
            .map(|c| format!("    var {}{c} = V(0);\n", self.reg))
            .collect()
    }

    /// Reads the tile starting at `k_start` into the registers.
    fn fetch(&self, k_start: &str, indent: &str, at: impl Fn(&str, &str) -> String) -> String {
        let mut text = String::new();
        for c in 0..self.each() {
            let elements: Vec<String> = (0..self.w)
                .map(|q| at(&format!("W * v + {q}u"), &format!("{k_start} + p")))
                .collect();
            let _ = writeln!(
                text,
                "{indent}{{ let e = t + {}u; if (e < {}u) {{ {} {}{c} = V({}); }} }}",
                256 * c,
                self.count,
                self.place(),
                self.reg,
                elements.join(", ")
            );
        }
        text
    }

    fn put(&self) -> String {
        let mut text = String::new();
        for c in 0..self.each() {
            let _ = writeln!(
                text,
                "        {{ let e = t + {}u; if (e < {}u) {{ {} {}[p * ({}) + v] = {}{c}; }} }}",
                256 * c,
                self.count,
                self.place(),
                self.tile,
                self.vectors,
                self.reg
            );
        }
        text
    }
}

/// The WGSL of the product kernel for `f`.
pub fn matmul(f: &MatmulForm) -> String {
    let ty = match f.precision {
        Precision::F32 => "f32",
        Precision::F64 => "f64",
    };
    let w = width(f);
    let vector = if w == 1 {
        ty.to_string()
    } else {
        format!("vec{w}<{ty}>")
    };
    let (bm, bn) = (f.bm(), f.bn());
    let mut declare = String::new();
    for r in 0..f.tm {
        for s in 0..f.tn {
            let _ = writeln!(declare, "    var c_{r}_{s} = T(0);");
        }
    }
    // A is stored down its rows unless transposed; B along k unless transposed.
    let a = TileMove {
        w,
        count: bm * f.bk / w,
        vectors: "BM / W",
        tile: "a_tile",
        reg: "ra",
        stored_along: !f.trans_a,
    };
    let b = TileMove {
        w,
        count: bn * f.bk / w,
        vectors: "BN / W",
        tile: "b_tile",
        reg: "rb",
        stored_along: f.trans_b,
    };
    let a_at = |i: &str, p: &str| format!("a_at(row0 + {i}, {p}, m, k, lda)");
    let b_at = |j: &str, p: &str| format!("b_at({p}, col0 + {j}, k, n, ldb)");
    declare.push_str(&a.declare());
    declare.push_str(&b.declare());
    let fetch = |k_start: &str, indent: &str| {
        a.fetch(k_start, indent, a_at) + &b.fetch(k_start, indent, b_at)
    };
    let put = a.put() + &b.put();
    // A thread's vectors of each tile are `W` values 16 vectors apart: its r-th row is lane
    // r % W of vector tx + 16 (r / W). So the 16 threads of a half warp read 16 consecutive
    // vectors (no bank conflict), and a thread's rows are as far apart as the vectors allow.
    let place = |first: &str, k: usize| format!("{w}u * {first} + {}u", w * 16 * (k / w) + k % w);
    let lane = |name: &str, k: usize| {
        if w == 1 {
            format!("{name}{k}")
        } else {
            format!("{name}{}.{}", k / w, LANES[k % w])
        }
    };
    // The values a thread reads from the tiles for one step along k: `av0`, `av1`, ... and
    // `bv0`, ... (vectors of W values, or single values).
    let reads = |name: &str, tile: &str, side: &str, first: &str, count: usize| {
        let mut text = String::new();
        for v in 0..count / w {
            let _ = writeln!(
                text,
                "            let {name}{v} = {tile}[p * ({side} / W) + {first} + {}u];",
                16 * v
            );
        }
        text
    };
    let mut step =
        reads("av", "a_tile", "BM", "tx", f.tm) + &reads("bv", "b_tile", "BN", "ty", f.tn);
    for r in 0..f.tm {
        for s in 0..f.tn {
            let _ = writeln!(
                step,
                "            c_{r}_{s} = fma({}, {}, c_{r}_{s});",
                lane("av", r),
                lane("bv", s)
            );
        }
    }
    let mut store = String::new();
    for r in 0..f.tm {
        for s in 0..f.tn {
            let _ = writeln!(
                store,
                "    {{\n        let i = row0 + {};\n        let j = col0 + {};\n        \
                 if (i < m && j < n) {{\n            c_out[base + i + j * m] = c_{r}_{s};\n        }}\n    }}",
                place("tx", r),
                place("ty", s)
            );
        }
    }
    let a_index = if f.trans_a {
        "p + i * lda"
    } else {
        "i + p * lda"
    };
    let b_index = if f.trans_b {
        "j + p * ldb"
    } else {
        "p + j * ldb"
    };
    MATMUL
        .replace("{T}", ty)
        .replace("{V}", &vector)
        .replace("{W}", &w.to_string())
        .replace("{BM}", &bm.to_string())
        .replace("{BN}", &bn.to_string())
        .replace("{BK}", &f.bk.to_string())
        .replace("{A_TILE}", &(bm * f.bk / w).to_string())
        .replace("{B_TILE}", &(bn * f.bk / w).to_string())
        .replace("{A_INDEX}", a_index)
        .replace("{B_INDEX}", b_index)
        .replace("{DECLARE}", declare.trim_end())
        .replace("{FETCH_FIRST}", fetch("k0", "    ").trim_end())
        .replace("{FETCH_NEXT}", fetch("q0", "            ").trim_end())
        .replace("{PUT}", put.trim_end())
        .replace("{STEP}", step.trim_end())
        .replace("{STORE}", store.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn validate(text: &str) {
        use wgpu::naga;
        let module = naga::front::wgsl::parse_str(text)
            .unwrap_or_else(|e| panic!("{}\n{text}", e.emit_to_string(text)));
        naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::FLOAT64,
        )
        .validate(&module)
        .unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    }

    #[test]
    fn every_form_of_the_product_kernel_is_valid_wgsl() {
        for precision in [Precision::F32, Precision::F64] {
            for (tm, tn) in [(4, 4), (8, 8)] {
                for trans_a in [false, true] {
                    for trans_b in [false, true] {
                        for vector in [false, true] {
                            let f = MatmulForm {
                                precision,
                                tm,
                                tn,
                                trans_a,
                                trans_b,
                                vector,
                                bk: 8 * (1 + usize::from(vector)),
                            };
                            let text = matmul(&f);
                            assert!(!text.contains("{T}") && !text.contains("{STEP}"));
                            assert_eq!(text.matches("fma(").count(), tm * tn);
                            validate(&text);
                        }
                    }
                }
            }
        }
    }
}
