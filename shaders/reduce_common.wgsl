// What both reduction kernels have (after common.wgsl, before reduce.wgsl or
// reduce_lanes.wgsl): the producer's value at element i of the inputs' bindings (the table's
// last word is where they start in the whole array), the fold, and the parameters after the
// shape table: inner, len, nout, parts and shift (where this window's first element sits in
// the bindings: they are bound from a 256-byte boundary at or before it).

fn value_at(i: u32) -> T {
{{BODY}}
}

fn combine(a: T, b: T) -> T {
    return {{COMBINE}};
}

struct LaneParams {
    inner: u32,
    len: u32,
    nout: u32,
    parts: u32,
    shift: u32,
}

fn lane_params() -> LaneParams {
    let p = 2u + shape_table[1] * ({{NINPUTS}}u + 1u) + {{NINPUTS}}u;
    return LaneParams(shape_table[p], shape_table[p + 1u], shape_table[p + 2u],
        shape_table[p + 3u], shape_table[p + 4u]);
}

// Where lane o starts: lanes are `inner` apart within a block of `inner * len` values.
fn lane_start(l: LaneParams, o: u32) -> u32 {
    return (o % l.inner) + (o / l.inner) * l.inner * l.len;
}
