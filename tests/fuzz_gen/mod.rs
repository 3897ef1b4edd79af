//! The structured fuzzer's generator: MATLAB statements drawn from the grammar (assignments,
//! indexed assignments and deletions, displays, if/for/try/switch blocks, anonymous
//! functions, calls of every builtin) over a seeded workspace that holds a value of every
//! class, gpuArrays included. Seeded and reproducible: the same seed gives the same programs.

/// The workspace every program starts from: one variable of each class and kind.
pub const SETUP: &str = "d = magic(3); r = [1.5 -2 NaN Inf]; e = []; z = [1+2i, 3-4i]; \
s1 = single([1 2 3]); i8 = int8([-5 0 7]); u16 = uint16(500); i64 = int64(9007199254740993); \
b = [true false true]; c = 'hello'; u = 'é😀'; str = [\"ab\", \"cde\"]; ce = {1, 'two', [3 4]}; \
st = struct('a', {1, 2}, 'b', 'x'); s = struct('f', 5); fh = @(x) x + 1; h = @sin; \
m = containers.Map({'k'}, {3}); g = gpuArray([1 2 3]); gs = gpuArray(single(magic(3))); \
gb = gpuArray(1:4) > 2; n3 = ones(2, 2, 2);";

/// Variables the programs read and write (the seeded ones and a few new names).
pub const VARS: [&str; 30] = [
    "d", "r", "e", "z", "s1", "i8", "u16", "i64", "b", "c", "u", "str", "ce", "st", "s", "fh", "h",
    "m", "g", "gs", "gb", "n3", "x", "y", "w", "t", "k", "v1", "v2", "ans",
];

/// Builtins a random program must not call: they leave the session (exit), wait (pause,
/// input), change the process (cd, setenv, addpath), run files by name, or measure for
/// seconds (gpuCalibrate, timeit).
pub const DENY: [&str; 18] = [
    "exit",
    "quit",
    "pause",
    "clc",
    "beep",
    "cd",
    "setenv",
    "addpath",
    "rmpath",
    "run",
    "gpuCalibrate",
    "gputimeit",
    "timeit",
    "wait",
    "reset",
    "dir",
    "ls",
    "home",
];

const LITERALS: [&str; 30] = [
    "0",
    "1",
    "-1",
    "2",
    "3",
    "2.5",
    "-0.5",
    "NaN",
    "Inf",
    "-Inf",
    "[]",
    "''",
    "'abc'",
    "\"s\"",
    "true",
    "false",
    "1:3",
    "[1 2; 3 4]",
    "{1, 'a'}",
    "{}",
    "3i",
    "int8(5)",
    "single(2)",
    "uint8(200)",
    "'😀'",
    "'é'",
    "1e3",
    "[0 1 0]",
    "\"\"",
    "':'",
];

const BINOPS: [&str; 19] = [
    "+", "-", ".*", "./", "*", "/", "\\", ".^", "^", "==", "~=", "<", "<=", ">", ">=", "&", "|",
    "&&", "||",
];

/// A small, fast, seedable generator (SplitMix64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

pub struct Gen {
    pub rng: Rng,
    builtins: Vec<&'static str>,
}

impl Gen {
    pub fn new(seed: u64) -> Gen {
        let builtins = matfuse::builtins::names()
            .into_iter()
            .filter(|n| !DENY.contains(n))
            .collect();
        Gen {
            rng: Rng(seed),
            builtins,
        }
    }

    fn var(&mut self) -> &'static str {
        self.rng.pick(&VARS)
    }

    pub fn expr(&mut self, depth: usize) -> String {
        let leaf = depth == 0 || self.rng.chance(30);
        if leaf {
            return if self.rng.chance(50) {
                self.rng.pick(&LITERALS).to_string()
            } else {
                self.var().to_string()
            };
        }
        let d = depth - 1;
        match self.rng.below(12) {
            0 => format!("-{}", self.expr(d)),
            1 => format!("~{}", self.expr(d)),
            2 => format!("{}'", self.expr(d)),
            3 | 4 => {
                let op = self.rng.pick(&BINOPS);
                format!("{} {op} {}", self.expr(d), self.expr(d))
            }
            5 | 6 => {
                let name = self.builtins[self.rng.below(self.builtins.len())];
                let n = self.rng.below(4);
                let args: Vec<String> = (0..n).map(|_| self.expr(d)).collect();
                format!("{name}({})", args.join(", "))
            }
            7 => {
                let v = self.var();
                match self.rng.below(7) {
                    0 => format!("{v}({})", self.expr(d)),
                    1 => format!("{v}({}, {})", self.expr(d), self.expr(d)),
                    2 => format!("{v}{{{}}}", self.expr(d)),
                    3 => format!("{v}.a"),
                    4 => format!("{v}(end)"),
                    5 => format!("{v}(:)"),
                    _ => format!("{v}(end:-1:1)"),
                }
            }
            8 => match self.rng.below(4) {
                0 => format!(
                    "[{}, {}; {}, {}]",
                    self.expr(d),
                    self.expr(d),
                    self.expr(d),
                    self.expr(d)
                ),
                1 => format!("[{} {}]", self.expr(d), self.expr(d)),
                2 => format!("{{{}, {}}}", self.expr(d), self.expr(d)),
                _ => format!("[{}; {}]", self.expr(d), self.expr(d)),
            },
            9 => match self.rng.below(2) {
                0 => format!("{}:{}", self.expr(d), self.expr(d)),
                _ => format!("{}:{}:{}", self.expr(d), self.expr(d), self.expr(d)),
            },
            10 => {
                let body = self.expr(d).replace(self.rng.pick(&VARS), "q");
                match self.rng.below(3) {
                    0 => format!("@(q) {body}"),
                    1 => format!("feval(@(q) {body}, {})", self.expr(d)),
                    _ => format!(
                        "cellfun(@(q) {body}, {{{}}}, 'UniformOutput', false)",
                        self.expr(d)
                    ),
                }
            }
            _ => format!("({})", self.expr(d)),
        }
    }

    /// One statement (a block may hold others).
    pub fn stmt(&mut self, depth: usize) -> String {
        let d = 3;
        match self.rng.below(if depth == 0 { 10 } else { 14 }) {
            0 | 1 | 2 => format!("{} = {};", self.var(), self.expr(d)),
            3 => format!("{}({}) = {};", self.var(), self.expr(1), self.expr(d)),
            4 => format!("{}{{{}}} = {};", self.var(), self.expr(1), self.expr(d)),
            5 => format!(
                "{}.{} = {};",
                self.var(),
                self.rng.pick(&["a", "b", "f"]),
                self.expr(d)
            ),
            6 => format!("{}({}) = [];", self.var(), self.expr(1)),
            7 => self.expr(d),
            8 => format!("{} = {}", self.var(), self.expr(d)),
            9 => {
                let (a, b) = (self.var(), self.var());
                let f = self.builtins[self.rng.below(self.builtins.len())];
                format!("[{a}, {b}] = {f}({});", self.expr(2))
            }
            10 => format!(
                "if {}, {}, else, {}, end",
                self.expr(2),
                self.stmt(depth - 1),
                self.stmt(depth - 1)
            ),
            11 => format!("for k = 1:3, {}, end", self.stmt(depth - 1)),
            12 => format!(
                "try, {}, catch err, {}, end",
                self.stmt(depth - 1),
                self.stmt(depth - 1)
            ),
            _ => format!(
                "switch {}, case {}, {}, otherwise, {}, end",
                self.expr(1),
                self.expr(1),
                self.stmt(depth - 1),
                self.stmt(depth - 1)
            ),
        }
    }

    /// A program of `n` statements.
    pub fn program(&mut self, n: usize) -> Vec<String> {
        (0..n).map(|_| self.stmt(2)).collect()
    }
}
