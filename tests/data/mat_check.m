% Checks the variables of tests/data/mat_values.m, loaded into S (matfuse and GNU Octave).
assert(isa(S.d, 'double') && isequal(S.d, [1.5 -2; 3 4e300]));
assert(isa(S.s1, 'single') && isequal(S.s1, single([1.25 -2.5])));
assert(isa(S.i8, 'int8') && isequal(S.i8, int8([-128 127])));
assert(isa(S.u8, 'uint8') && isequal(S.u8, uint8([0 255])));
assert(isa(S.i16, 'int16') && isequal(S.i16, int16(-300)));
assert(isa(S.u16, 'uint16') && isequal(S.u16, uint16(65535)));
assert(isa(S.i32, 'int32') && isequal(S.i32, int32([-2147483648 5])));
assert(isa(S.u32, 'uint32') && isequal(S.u32, uint32(4294967295)));
assert(isa(S.i64, 'int64') && S.i64 == intmin('int64') + 5);
assert(isa(S.u64, 'uint64') && S.u64 == intmax('uint64'));
assert(islogical(S.lg) && isequal(S.lg, [true false true]));
assert(ischar(S.ch) && isequal(S.ch, ['ab'; 'cd']));
assert(isa(S.cm, 'double') && isequal(S.cm, [1+2i, -3.5i]));
assert(isa(S.cs, 'single') && ~isreal(S.cs) && isequal(S.cs, single(1-1i)));
assert(isa(S.e, 'double') && isequal(size(S.e), [0 3]));
assert(iscell(S.ce) && isempty(S.ce));
assert(iscell(S.c) && isequal(size(S.c), [2 2]) && isequal(S.c{1,1}, 1) && strcmp(S.c{1,2}, 'two') && isequal(S.c{2,1}, [3 4]) && isequal(S.c{2,2}{1}, 5));
assert(isstruct(S.st) && S.st.a == 1 && strcmp(S.st.b, 'x') && isequal(S.st.c.d, [1 2 3]));
assert(isstruct(S.sa) && isequal(size(S.sa), [1 3]) && S.sa(1).v == 1 && strcmp(S.sa(2).v, 'w') && isequal(S.sa(3).v, [1 2]));
assert(isequal(size(S.nd), [2 3 4]) && S.nd(2, 3, 4) == 24 && S.nd(1, 2, 3) == 15);
assert(isstruct(S.es) && isempty(S.es) && isfield(S.es, 'a'));
assert(isequal(S.sc, 7));
disp('ALL OK')
