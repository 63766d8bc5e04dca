"""Sums of rows of a matrix, a block of ``LANES`` columns at a time kept in one vector register.

The learned play's network (``tichu/learned.py``) spends its time adding a few dozen rows of
a small matrix (64 or 32 wide) into one row: the first layer's integer rows of a candidate's
features, the second layer's rows of the units relu leaves alive. Written as numba loops, each
row is a loop of its own (its trip count, the check that the rows and the sum do not overlap,
a vector loop too wide for a 32-wide row), and that costs more than the adds. These
intrinsics emit the loops as LLVM vectors instead: for each block of ``LANES`` columns, the
block of the sum stays in a register while every row's block is added to it, then is stored.
The few row-wide steps around them are intrinsics too (a first layer made from its integer
sum, a scaled feature's row added, the second layer started from its bias, the output's dot
product): as numba loops over views of one scratch, which the compiler cannot prove apart,
each cost more than a sum.

The arithmetic is the loops' own, in the same order: each column is summed row after row in
the order listed, with a separate multiply and add (no fused multiply-add), so the results
are the same bits as ``out[j] += a * row[j]`` (or integer ``+=``/``-=``) one row at a time,
and the same on any machine (LLVM splits a vector wider than the machine's into narrower
ones). The width (a row's length) must be a multiple of ``LANES``; callers pad their
matrices with zero columns (``tichu/learned.py``'s layout does).

The ``wide_`` sums are the same loops with a ``float64`` sum of ``float32`` weights (the
learned passing's network, ``tichu/passnet.py``): each weight widened exactly, the products
and adds those of the loop written in numba (a ``float32`` feature times a ``float32``
weight is a ``float32`` product, widened; a ``float64`` unit times a weight is a ``float64``
product), so again the loop's own bits.
"""

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

LANES = 16  # columns of a block: one 512-bit register of float32 or int32

__all__ = [
    "FUSED",
    "LANES",
    "add_row",
    "first_layer",
    "int_first_layer",
    "int_rows",
    "live_rows",
    "live_rows2",
    "relu_dot",
    "sum_rows",
    "wide_live_rows",
    "wide_rows",
]


def _data(context, builder, aryty, value):
    return context.make_array(aryty)(context, builder, value).data


def _block_ptr(builder, base, at, vec):
    """A pointer to the vector of ``vec`` type at element ``at`` from ``base``."""
    return builder.bitcast(builder.gep(base, [at]), vec.as_pointer())


def _changed_rows(builder, accs, cols, start, w, lists, width, vec):
    """Into the registers ``accs`` (one per block at ``cols``): ``start``'s blocks, plus or
    minus (``lists``: ``(rows, count, add)``) the same blocks of each listed row of ``w``
    (``width`` wide), in ``int32``: the kept first-layer sum brought up to date."""
    i64 = ir.IntType(64)
    for acc, col in zip(accs, cols, strict=False):
        builder.store(builder.load(_block_ptr(builder, start, col, vec), align=4), acc)
    for listed, count, add in lists:
        with cgutils.for_range(builder, count) as row:
            k = builder.sext(builder.load(builder.gep(listed, [row.index])), i64)
            at = builder.mul(k, width)
            for acc, col in zip(accs, cols, strict=False):
                value = builder.load(_block_ptr(builder, w, builder.add(at, col), vec), align=4)
                total = builder.load(acc)
                total = builder.add(total, value) if add else builder.sub(total, value)
                builder.store(total, acc)


@intrinsic
def int_rows(typingctx, out, start, w, adds, n_adds, subs, n_subs, width):
    """``out[:width] = start[:width] + sum(w[k*width : (k+1)*width] for k in adds[:n_adds])
    - sum(... for k in subs[:n_subs])``, ``int32`` throughout (wrapping as numba's ``int32``
    adds do; a sum known to fit is exact whatever the order). ``out`` may be ``start``.
    ``width`` a multiple of ``LANES``."""
    ok = (
        isinstance(out, types.Array)
        and out.dtype == types.int32
        and isinstance(start, types.Array)
        and start.dtype == types.int32
        and isinstance(w, types.Array)
        and w.dtype == types.int32
        and isinstance(adds, types.Array)
        and adds.dtype == types.int32
        and isinstance(subs, types.Array)
        and subs.dtype == types.int32
    )
    if not ok:
        return None
    sig = types.void(out, start, w, adds, types.intp, subs, types.intp, types.intp)

    def codegen(context, builder, sig, args):
        out_a, start_a, w_a, adds_a, n_adds, subs_a, n_subs, width = args
        aty = sig.args
        o = _data(context, builder, aty[0], out_a)
        s = _data(context, builder, aty[1], start_a)
        wp = _data(context, builder, aty[2], w_a)
        ap = _data(context, builder, aty[3], adds_a)
        sp = _data(context, builder, aty[5], subs_a)
        i64 = ir.IntType(64)
        vec = ir.VectorType(ir.IntType(32), LANES)
        accs = [cgutils.alloca_once(builder, vec) for _ in range(FUSED)]
        blocks = builder.udiv(width, ir.Constant(i64, LANES))

        def rows(cols):
            _changed_rows(
                builder, accs, cols, s, wp, ((ap, n_adds, True), (sp, n_subs, False)), width, vec
            )
            for acc, col in zip(accs, cols, strict=False):
                builder.store(builder.load(acc), _block_ptr(builder, o, col, vec), align=4)

        _by_blocks(builder, blocks, rows)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def int_first_layer(
    typingctx, out, start, w, adds, n_adds, subs, n_subs, scale, base, wf, at_a, a, at_b, b, width
):
    """``int_rows`` into a register, then ``first_layer`` from it: ``out[j] =
    float32(acc[j]) * scale + base[j]`` (then ``+ a * wf[at_a + j]`` when ``a`` is not 0,
    ``+ b * wf[at_b + j]`` when ``b`` is not 0), ``acc`` being ``start[:width]`` with the
    rows ``adds[:n_adds]`` of ``w`` added and ``subs[:n_subs]`` taken away (``int32``); the
    integer sum is never stored. The bits of the two one after the other. ``width`` a
    multiple of ``LANES``."""
    ok = (
        _float_array(out, types.float32)
        and isinstance(start, types.Array)
        and start.dtype == types.int32
        and isinstance(w, types.Array)
        and w.dtype == types.int32
        and isinstance(adds, types.Array)
        and adds.dtype == types.int32
        and isinstance(subs, types.Array)
        and subs.dtype == types.int32
        and _float_array(base, types.float32)
        and _float_array(wf, types.float32)
    )
    if not ok:
        return None
    f32 = types.float32
    ip = types.intp
    sig = types.void(out, start, w, adds, ip, subs, ip, f32, base, wf, ip, f32, ip, f32, ip)

    def codegen(context, builder, sig, args):
        (
            out_a,
            start_a,
            w_a,
            adds_a,
            n_adds,
            subs_a,
            n_subs,
            scale,
            base_a,
            wf_a,
            at_a,
            a,
            at_b,
            b,
            width,
        ) = args
        aty = sig.args
        o = _data(context, builder, aty[0], out_a)
        s = _data(context, builder, aty[1], start_a)
        wp = _data(context, builder, aty[2], w_a)
        ap = _data(context, builder, aty[3], adds_a)
        sp = _data(context, builder, aty[5], subs_a)
        bp = _data(context, builder, aty[8], base_a)
        fp = _data(context, builder, aty[9], wf_a)
        i64 = ir.IntType(64)
        ivec = ir.VectorType(ir.IntType(32), LANES)
        vec = ir.VectorType(ir.FloatType(), LANES)
        zero = ir.Constant(ir.FloatType(), 0.0)
        va = _splat(builder, a, vec)
        vb = _splat(builder, b, vec)
        vs = _splat(builder, scale, vec)
        use_a = builder.fcmp_unordered("!=", a, zero)
        use_b = builder.fcmp_unordered("!=", b, zero)
        accs = [cgutils.alloca_once(builder, ivec) for _ in range(FUSED)]
        blocks = builder.udiv(width, ir.Constant(i64, LANES))

        def rows(cols):
            _changed_rows(
                builder, accs, cols, s, wp, ((ap, n_adds, True), (sp, n_subs, False)), width, ivec
            )
            for acc, col in zip(accs, cols, strict=False):
                v = builder.fmul(builder.sitofp(builder.load(acc), vec), vs)
                v = builder.fadd(v, builder.load(_block_ptr(builder, bp, col, vec), align=4))
                for use, vx, at in ((use_a, va, at_a), (use_b, vb, at_b)):
                    ptr = _block_ptr(builder, fp, builder.add(at, col), vec)
                    row = builder.load(ptr, align=4)
                    v = builder.select(use, builder.fadd(v, builder.fmul(vx, row)), v)
                builder.store(v, _block_ptr(builder, o, col, vec), align=4)

        _by_blocks(builder, blocks, rows)
        return context.get_dummy_value()

    return sig, codegen


CHUNK = 64  # units whose live ones ``wide_live_rows`` finds at once, as the bits of a word
FUSED = 4  # at most this many blocks of a row are summed together, each in a register


def _splat(builder, value, vec):
    """``value`` in every lane of a vector of type ``vec``."""
    i32 = ir.IntType(32)
    undef = ir.Constant(vec, ir.Undefined)
    lanes = ir.Constant(ir.VectorType(i32, vec.count), [0] * vec.count)
    return builder.shuffle_vector(
        builder.insert_element(undef, value, ir.Constant(i32, 0)), undef, lanes
    )


def _by_blocks(builder, blocks, body):
    """``body(cols)`` over a row of ``blocks`` blocks: all at once when they are ``FUSED`` or
    fewer (``cols`` every block's first column), else one block at a time."""
    i64 = ir.IntType(64)

    def generic():
        with cgutils.for_range(builder, blocks) as block:
            body([builder.mul(block.index, ir.Constant(i64, LANES))])

    _fused_or_blocks(
        builder, blocks, lambda nb: body([ir.Constant(i64, LANES * b) for b in range(nb)]), generic
    )


def _fused_or_blocks(builder, blocks, fused, generic, most=FUSED):
    """``fused(nb)`` when the row has ``nb`` blocks, ``nb`` at most ``most`` (its blocks'
    sums all kept in registers while the rows are read once), else ``generic()`` (a block
    at a time)."""
    i64 = ir.IntType(64)
    after = builder.append_basic_block("lanes.after")
    other = builder.append_basic_block("lanes.generic")
    switch = builder.switch(blocks, other)
    for nb in range(1, most + 1):
        case = builder.append_basic_block(f"lanes.fused{nb}")
        switch.add_case(ir.Constant(i64, nb), case)
        builder.position_at_end(case)
        fused(nb)
        builder.branch(after)
    builder.position_at_end(other)
    generic()
    builder.branch(after)
    builder.position_at_end(after)


def _live_units(builder, hps, hvec, n_units, on_unit):
    """For each unit ``k`` below ``n_units`` (a multiple of ``LANES``) alive (``h[k] > 0``) in
    any of the layers ``hps`` (their data; ``hvec`` a block's vector type), in increasing
    ``k``: ``on_unit(k)``. The live units are found ``CHUNK`` at a time as the bits of one
    word (a vector compare per block of ``LANES`` and layer), then taken lowest first: one
    loop per chunk, so one branch the predictor misses where it ends."""
    i16 = ir.IntType(LANES)
    i64 = ir.IntType(64)
    zero = ir.Constant(hvec, [0.0] * LANES)
    live = cgutils.alloca_once(builder, i64)
    chunks = builder.udiv(
        builder.add(n_units, ir.Constant(i64, CHUNK - 1)), ir.Constant(i64, CHUNK)
    )
    with cgutils.for_range(builder, chunks) as chunk:
        first = builder.mul(chunk.index, ir.Constant(i64, CHUNK))
        builder.store(ir.Constant(i64, 0), live)
        for b in range(CHUNK // LANES):  # the chunk's blocks below n_units
            at_b = builder.add(first, ir.Constant(i64, b * LANES))
            with builder.if_then(builder.icmp_unsigned("<", at_b, n_units)):
                alive = None
                for hp in hps:
                    x = builder.load(_block_ptr(builder, hp, at_b, hvec), align=4)
                    here = builder.fcmp_ordered(">", x, zero)
                    alive = here if alive is None else builder.or_(alive, here)
                bits = builder.bitcast(alive, i16)
                bits = builder.shl(builder.zext(bits, i64), ir.Constant(i64, b * LANES))
                builder.store(builder.or_(builder.load(live), bits), live)
        test = builder.append_basic_block("lanes.live")
        body = builder.append_basic_block("lanes.row")
        done = builder.append_basic_block("lanes.rows_done")
        builder.branch(test)
        builder.position_at_end(test)
        mask = builder.load(live)
        builder.cbranch(builder.icmp_unsigned("!=", mask, ir.Constant(i64, 0)), body, done)
        builder.position_at_end(body)
        lane = builder.cttz(mask, ir.Constant(ir.IntType(1), 1))
        builder.store(builder.and_(mask, builder.sub(mask, ir.Constant(i64, 1))), live)
        on_unit(builder.add(first, lane))
        builder.branch(test)
        builder.position_at_end(done)


def _live_rows_codegen(context, builder, sig, args):
    """The code of ``live_rows`` and ``wide_live_rows``: the sum in ``out``'s type (``float32``
    or ``float64``), ``start``'s and ``w``'s blocks widened to it where they are narrower."""
    out_a, start_a, at0, h_a, n_units, w_a, base, width = args
    aty = sig.args
    o = _data(context, builder, aty[0], out_a)
    sp = _data(context, builder, aty[1], start_a)
    hp = _data(context, builder, aty[3], h_a)
    wp = _data(context, builder, aty[5], w_a)
    i64 = ir.IntType(64)
    wide = aty[0].dtype == types.float64
    vec = ir.VectorType(ir.DoubleType() if wide else ir.FloatType(), LANES)
    fvec = ir.VectorType(ir.FloatType(), LANES)
    svec = fvec if aty[1].dtype == types.float32 else vec
    wvec = fvec if aty[5].dtype == types.float32 else vec
    accs = [cgutils.alloca_once(builder, vec) for _ in range(FUSED)]
    blocks = builder.udiv(width, ir.Constant(i64, LANES))

    def widened(value, dtype):
        return _widened(builder, value, dtype, vec) if wide else value

    def rows(cols):
        for acc, col in zip(accs, cols, strict=False):
            ptr = _block_ptr(builder, sp, builder.add(at0, col), svec)
            builder.store(widened(builder.load(ptr, align=4), aty[1].dtype), acc)

        def add_row(k, va):
            at = builder.add(base, builder.mul(k, width))
            for acc, col in zip(accs, cols, strict=False):
                ptr = _block_ptr(builder, wp, builder.add(at, col), wvec)
                value = widened(builder.load(ptr, align=4), aty[5].dtype)
                builder.store(builder.fadd(builder.load(acc), builder.fmul(va, value)), acc)

        # the unit's value read again from memory and broadcast (a lane picked by a number
        # known only at run time goes through the stack otherwise)
        _live_units(
            builder,
            (hp,),
            vec,
            n_units,
            lambda k: add_row(k, _splat(builder, builder.load(builder.gep(hp, [k])), vec)),
        )
        for acc, col in zip(accs, cols, strict=False):
            ptr = _block_ptr(builder, o, col, vec)
            builder.store(builder.load(acc), ptr, align=8 if wide else 4)

    _by_blocks(builder, blocks, rows)
    return context.get_dummy_value()


@intrinsic
def live_rows(typingctx, out, start, at, h, n_units, w, base, width):
    """``out[j] = start[at + j]``, then ``out[j] += h[k] * w[base + k*width + j]`` for each
    unit ``k`` below ``n_units`` (a multiple of ``LANES``) with ``h[k] > 0``, in increasing
    ``k``, ``j`` below ``width`` (``start`` may be ``out``, ``at`` 0):
    the rows of the units relu leaves alive, ``float32``, each product a multiply then an
    add, each column summed row after row (the loop's own bits). The live units are found a
    block of ``LANES`` at a time by one vector compare, then taken lowest first.
    ``width`` a multiple of ``LANES``."""
    ok = (
        isinstance(out, types.Array)
        and out.dtype == types.float32
        and isinstance(start, types.Array)
        and start.dtype == types.float32
        and isinstance(h, types.Array)
        and h.dtype == types.float32
        and isinstance(w, types.Array)
        and w.dtype == types.float32
    )
    if not ok:
        return None
    sig = types.void(out, start, types.intp, h, types.intp, w, types.intp, types.intp)
    return sig, _live_rows_codegen


def _live_pairs(builder, ha, hb, hvec, n_units, add_rows):
    """``_live_units`` for two first layers at once: for each unit ``k`` below ``n_units`` (a
    multiple of ``LANES``) with ``ha[k] > 0`` or ``hb[k] > 0``, in increasing ``k``:
    ``add_rows(k, a, b)``, ``a`` and ``b`` the units' values broadcast, each 0 where that
    layer's unit is not alive."""
    scalar_zero = ir.Constant(hvec.element, 0.0)

    def on_unit(k):
        values = []
        for hp in (ha, hb):
            x = builder.load(builder.gep(hp, [k]))
            x = builder.select(builder.fcmp_ordered(">", x, scalar_zero), x, scalar_zero)
            values.append(_splat(builder, x, hvec))
        add_rows(k, *values)

    _live_units(builder, (ha, hb), hvec, n_units, on_unit)


@intrinsic
def live_rows2(typingctx, out_a, out_b, start, at, h_a, h_b, n_units, w, base, width):
    """``live_rows`` for two first layers ``h_a`` and ``h_b`` at once, into ``out_a`` and
    ``out_b``: the rows of the units alive in either are read once and added to both sums,
    each weighed by its layer's unit, 0 where that unit is not alive. A sum given such a
    term adds ``+0`` or ``-0`` (the weights are finite), which leaves it as it was (a
    zero's sign aside, which relu and every use of the layer ignore), so each is
    ``live_rows``' own sum of its layer; two chains of adds side by side instead of one.
    ``width`` a multiple of ``LANES``, at most ``FUSED // 2`` blocks kept in registers
    at once."""
    ok = all(
        isinstance(t, types.Array) and t.dtype == types.float32
        for t in (out_a, out_b, start, h_a, h_b, w)
    )
    if not ok:
        return None
    sig = types.void(
        out_a, out_b, start, types.intp, h_a, h_b, types.intp, w, types.intp, types.intp
    )

    def codegen(context, builder, sig, args):
        oa_a, ob_a, start_a, at0, ha_a, hb_a, n_units, w_a, base, width = args
        aty = sig.args
        outs = (_data(context, builder, aty[0], oa_a), _data(context, builder, aty[1], ob_a))
        sp = _data(context, builder, aty[2], start_a)
        ha = _data(context, builder, aty[4], ha_a)
        hb = _data(context, builder, aty[5], hb_a)
        wp = _data(context, builder, aty[7], w_a)
        i64 = ir.IntType(64)
        vec = ir.VectorType(ir.FloatType(), LANES)
        pairs = FUSED // 2
        accs = [[cgutils.alloca_once(builder, vec) for _ in range(pairs)] for _ in range(2)]
        blocks = builder.udiv(width, ir.Constant(i64, LANES))

        def rows(cols):
            for side in range(2):
                for acc, col in zip(accs[side], cols, strict=False):
                    ptr = _block_ptr(builder, sp, builder.add(at0, col), vec)
                    builder.store(builder.load(ptr, align=4), acc)

            def add_rows(k, va, vb):
                at = builder.add(base, builder.mul(k, width))
                for j, col in enumerate(cols):
                    value = builder.load(
                        _block_ptr(builder, wp, builder.add(at, col), vec), align=4
                    )
                    for side, v in ((0, va), (1, vb)):
                        acc = accs[side][j]
                        builder.store(builder.fadd(builder.load(acc), builder.fmul(v, value)), acc)

            _live_pairs(builder, ha, hb, vec, n_units, add_rows)
            for side in range(2):
                for acc, col in zip(accs[side], cols, strict=False):
                    builder.store(
                        builder.load(acc), _block_ptr(builder, outs[side], col, vec), align=4
                    )

        def fused(nb):
            rows([ir.Constant(i64, LANES * b) for b in range(nb)])

        def generic():
            with cgutils.for_range(builder, blocks) as block:
                rows([builder.mul(block.index, ir.Constant(i64, LANES))])

        _fused_or_blocks(builder, blocks, fused, generic, most=pairs)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def relu_dot(typingctx, h, w, at, width):
    """``sum(max(h[j], 0) * w[at + j] for j below width)``, ``float32``: a sum of ``LANES``
    lanes, lane ``l`` summing the columns ``l, l + LANES, ...`` in order, the lanes then
    added by halves (``[0, 8) + [8, 16)``, then 4, 2, 1). ``width`` a multiple of
    ``LANES``."""
    ok = (
        isinstance(h, types.Array)
        and h.dtype == types.float32
        and isinstance(w, types.Array)
        and w.dtype == types.float32
    )
    if not ok:
        return None
    sig = types.float32(h, w, types.intp, types.intp)

    def codegen(context, builder, sig, args):
        h_a, w_a, at, width = args
        hp = _data(context, builder, sig.args[0], h_a)
        wp = _data(context, builder, sig.args[1], w_a)
        f32 = ir.FloatType()
        i32 = ir.IntType(32)
        i64 = ir.IntType(64)
        vec = ir.VectorType(f32, LANES)
        zero = ir.Constant(vec, [0.0] * LANES)
        acc = cgutils.alloca_once(builder, vec)
        builder.store(zero, acc)
        blocks = builder.udiv(width, ir.Constant(i64, LANES))
        with cgutils.for_range(builder, blocks) as block:
            col = builder.mul(block.index, ir.Constant(i64, LANES))
            x = builder.load(_block_ptr(builder, hp, col, vec), align=4)
            x = builder.select(builder.fcmp_ordered(">", x, zero), x, zero)
            y = builder.load(_block_ptr(builder, wp, builder.add(at, col), vec), align=4)
            builder.store(builder.fadd(builder.load(acc), builder.fmul(x, y)), acc)
        v = builder.load(acc)
        lanes = LANES
        while lanes > 1:
            half = lanes // 2
            undef = ir.Constant(ir.VectorType(f32, lanes), ir.Undefined)
            low = ir.Constant(ir.VectorType(i32, half), list(range(half)))
            high = ir.Constant(ir.VectorType(i32, half), list(range(half, lanes)))
            lo = builder.shuffle_vector(v, undef, low)
            hi = builder.shuffle_vector(v, undef, high)
            v = builder.fadd(lo, hi)
            lanes = half
        return builder.extract_element(v, ir.Constant(i32, 0))

    return sig, codegen


@intrinsic
def first_layer(typingctx, out, acc, scale, base, w, at_a, a, at_b, b, width):
    """``out[j] = float32(acc[j]) * scale + base[j]``, then ``+ a * w[at_a + j]`` when ``a``
    is not 0, then ``+ b * w[at_b + j]`` when ``b`` is not 0, ``float32``, each product a
    multiply then an add, ``j`` below ``width`` (the loop's own bits: an integer sum turned
    into a first layer's pre-activation, two scaled features' rows added). ``acc`` ``int32``,
    the rest ``float32``; ``width`` a multiple of ``LANES``."""
    ok = (
        isinstance(out, types.Array)
        and out.dtype == types.float32
        and isinstance(acc, types.Array)
        and acc.dtype == types.int32
        and isinstance(base, types.Array)
        and base.dtype == types.float32
        and isinstance(w, types.Array)
        and w.dtype == types.float32
    )
    if not ok:
        return None
    f32 = types.float32
    sig = types.void(out, acc, f32, base, w, types.intp, f32, types.intp, f32, types.intp)

    def codegen(context, builder, sig, args):
        out_a, acc_a, scale, base_a, w_a, at_a, a, at_b, b, width = args
        aty = sig.args
        o = _data(context, builder, aty[0], out_a)
        ip = _data(context, builder, aty[1], acc_a)
        bp = _data(context, builder, aty[3], base_a)
        wp = _data(context, builder, aty[4], w_a)
        i64 = ir.IntType(64)
        vec = ir.VectorType(ir.FloatType(), LANES)
        ivec = ir.VectorType(ir.IntType(32), LANES)
        zero = ir.Constant(ir.FloatType(), 0.0)
        va = _splat(builder, a, vec)
        vb = _splat(builder, b, vec)
        vs = _splat(builder, scale, vec)
        use_a = builder.fcmp_unordered("!=", a, zero)
        use_b = builder.fcmp_unordered("!=", b, zero)
        blocks = builder.udiv(width, ir.Constant(i64, LANES))
        with cgutils.for_range(builder, blocks) as block:
            col = builder.mul(block.index, ir.Constant(i64, LANES))
            x = builder.load(_block_ptr(builder, ip, col, ivec), align=4)
            v = builder.fmul(builder.sitofp(x, vec), vs)
            v = builder.fadd(v, builder.load(_block_ptr(builder, bp, col, vec), align=4))
            for use, vx, at in ((use_a, va, at_a), (use_b, vb, at_b)):
                row = builder.load(_block_ptr(builder, wp, builder.add(at, col), vec), align=4)
                v = builder.select(use, builder.fadd(v, builder.fmul(vx, row)), v)
            builder.store(v, _block_ptr(builder, o, col, vec), align=4)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def add_row(typingctx, out, a, w, at, width):
    """``out[j] += a * w[at + j]``, ``float32``, a multiply then an add, ``j`` below
    ``width`` (the loop's own bits). ``width`` a multiple of ``LANES``."""
    ok = (
        isinstance(out, types.Array)
        and out.dtype == types.float32
        and isinstance(w, types.Array)
        and w.dtype == types.float32
    )
    if not ok:
        return None
    sig = types.void(out, types.float32, w, types.intp, types.intp)

    def codegen(context, builder, sig, args):
        out_a, a, w_a, at, width = args
        o = _data(context, builder, sig.args[0], out_a)
        wp = _data(context, builder, sig.args[2], w_a)
        i64 = ir.IntType(64)
        vec = ir.VectorType(ir.FloatType(), LANES)
        va = _splat(builder, a, vec)
        blocks = builder.udiv(width, ir.Constant(i64, LANES))
        with cgutils.for_range(builder, blocks) as block:
            col = builder.mul(block.index, ir.Constant(i64, LANES))
            ptr = _block_ptr(builder, o, col, vec)
            row = builder.load(_block_ptr(builder, wp, builder.add(at, col), vec), align=4)
            v = builder.fadd(builder.load(ptr, align=4), builder.fmul(va, row))
            builder.store(v, ptr, align=4)
        return context.get_dummy_value()

    return sig, codegen


def _widened(builder, value, dtype, vec):
    """A loaded vector of ``dtype`` (``float32`` or ``float64``) as the ``float64`` vector
    ``vec`` (exact)."""
    return builder.fpext(value, vec) if dtype == types.float32 else value


def _float_array(t, *dtypes):
    return isinstance(t, types.Array) and t.dtype in dtypes


@intrinsic
def wide_rows(typingctx, out, start, at, w, rows, scales, n, width):
    """``out[j] = float64(start[at + j])``, then ``out[j] += float64(scales[r] * w[rows[r] +
    j])`` for each ``r`` below ``n`` in order (the product in ``float32``, as numba multiplies
    two ``float32``; then widened and added in ``float64``), ``j`` below ``width``: a sum of
    scaled rows of a ``float32`` matrix (``rows`` the rows' starts in ``w``, ``int64``) in a
    ``float64`` row. ``out`` ``float64``; ``start`` ``float32`` or ``float64`` (may be
    ``out``, ``at`` 0). ``width`` a multiple of ``LANES``."""
    ok = (
        _float_array(out, types.float64)
        and _float_array(start, types.float32, types.float64)
        and _float_array(w, types.float32)
        and isinstance(rows, types.Array)
        and rows.dtype == types.int64
        and _float_array(scales, types.float32)
    )
    if not ok:
        return None
    sig = types.void(out, start, types.intp, w, rows, scales, types.intp, types.intp)

    def codegen(context, builder, sig, args):
        out_a, start_a, at0, w_a, rows_a, scales_a, n, width = args
        aty = sig.args
        o = _data(context, builder, aty[0], out_a)
        sp = _data(context, builder, aty[1], start_a)
        wp = _data(context, builder, aty[3], w_a)
        rp = _data(context, builder, aty[4], rows_a)
        cp = _data(context, builder, aty[5], scales_a)
        i64 = ir.IntType(64)
        vec = ir.VectorType(ir.DoubleType(), LANES)
        fvec = ir.VectorType(ir.FloatType(), LANES)
        svec = fvec if aty[1].dtype == types.float32 else vec
        accs = [cgutils.alloca_once(builder, vec) for _ in range(FUSED)]
        blocks = builder.udiv(width, ir.Constant(i64, LANES))

        def sums(cols):
            for acc, col in zip(accs, cols, strict=False):
                ptr = _block_ptr(builder, sp, builder.add(at0, col), svec)
                value = _widened(builder, builder.load(ptr, align=4), aty[1].dtype, vec)
                builder.store(value, acc)
            with cgutils.for_range(builder, n) as r:
                first = builder.load(builder.gep(rp, [r.index]))
                scale = _splat(builder, builder.load(builder.gep(cp, [r.index])), fvec)
                for acc, col in zip(accs, cols, strict=False):
                    ptr = _block_ptr(builder, wp, builder.add(first, col), fvec)
                    product = builder.fmul(scale, builder.load(ptr, align=4))
                    total = builder.fadd(builder.load(acc), builder.fpext(product, vec))
                    builder.store(total, acc)
            for acc, col in zip(accs, cols, strict=False):
                builder.store(builder.load(acc), _block_ptr(builder, o, col, vec), align=8)

        _by_blocks(builder, blocks, sums)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def wide_live_rows(typingctx, out, start, at, h, n_units, w, base, width):
    """``live_rows`` in ``float64``: ``out[j] = float64(start[at + j])``, then ``out[j] +=
    h[k] * float64(w[base + k*width + j])`` for each unit ``k`` below ``n_units`` (a multiple
    of ``LANES``) with ``h[k] > 0``, in increasing ``k`` (found ``CHUNK`` units at a time, as
    the bits of one word, then taken lowest first), ``j`` below ``width``. ``out`` and
    ``h`` ``float64``, ``w`` and ``start`` either (``start`` may be ``out``, ``at`` 0): a
    ``float64`` copy of ``float32`` weights gives the same bits without widening each row.
    ``width`` a multiple of ``LANES``."""
    ok = (
        _float_array(out, types.float64)
        and _float_array(start, types.float32, types.float64)
        and _float_array(h, types.float64)
        and _float_array(w, types.float32, types.float64)
    )
    if not ok:
        return None
    sig = types.void(out, start, types.intp, h, types.intp, w, types.intp, types.intp)
    return sig, _live_rows_codegen


@intrinsic
def sum_rows(typingctx, out, start, w, rows, n, width):
    """``out[j] = start[j] + w[rows[0] + j] + w[rows[1] + j] + ...`` for the ``n`` rows
    listed (their starts in ``w``, ``int64``), added in order, ``float64`` throughout, ``j``
    below ``width`` (``start`` may be ``out``). ``width`` a multiple of ``LANES``."""
    ok = (
        _float_array(out, types.float64)
        and _float_array(start, types.float64)
        and _float_array(w, types.float64)
        and isinstance(rows, types.Array)
        and rows.dtype == types.int64
    )
    if not ok:
        return None
    sig = types.void(out, start, w, rows, types.intp, types.intp)

    def codegen(context, builder, sig, args):
        out_a, start_a, w_a, rows_a, n, width = args
        aty = sig.args
        o = _data(context, builder, aty[0], out_a)
        sp = _data(context, builder, aty[1], start_a)
        wp = _data(context, builder, aty[2], w_a)
        rp = _data(context, builder, aty[3], rows_a)
        i64 = ir.IntType(64)
        vec = ir.VectorType(ir.DoubleType(), LANES)
        accs = [cgutils.alloca_once(builder, vec) for _ in range(FUSED)]
        blocks = builder.udiv(width, ir.Constant(i64, LANES))

        def sums(cols):
            for acc, col in zip(accs, cols, strict=False):
                builder.store(builder.load(_block_ptr(builder, sp, col, vec), align=8), acc)
            with cgutils.for_range(builder, n) as r:
                first = builder.load(builder.gep(rp, [r.index]))
                for acc, col in zip(accs, cols, strict=False):
                    ptr = _block_ptr(builder, wp, builder.add(first, col), vec)
                    builder.store(builder.fadd(builder.load(acc), builder.load(ptr, align=8)), acc)
            for acc, col in zip(accs, cols, strict=False):
                builder.store(builder.load(acc), _block_ptr(builder, o, col, vec), align=8)

        _by_blocks(builder, blocks, sums)
        return context.get_dummy_value()

    return sig, codegen
