"""Sums of rows of a matrix, a block of ``LANES`` columns at a time kept in one vector register.

The learned play's network (``tichu/learned.py``) spends its time adding a few dozen rows of
a small matrix (64 or 32 wide) into one row: the first layer's integer rows of a candidate's
features, the second layer's rows of the units relu leaves alive. Written as numba loops, each
row is a loop of its own (its trip count, the check that the rows and the sum do not overlap,
a vector loop too wide for a 32-wide row), and that costs more than the adds. These two
intrinsics emit the loops as LLVM vectors instead: for each block of ``LANES`` columns, the
block of the sum stays in a register while every row's block is added to it, then is stored.

The arithmetic is the loops' own, in the same order: each column is summed row after row in
the order listed, with a separate multiply and add (no fused multiply-add), so the results
are the same bits as ``out[j] += a * row[j]`` (or integer ``+=``/``-=``) one row at a time,
and the same on any machine (LLVM splits a vector wider than the machine's into narrower
ones). The width (a row's length) must be a multiple of ``LANES``; callers pad their
matrices with zero columns (``tichu/learned.py``'s layout does).
"""

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

LANES = 16  # columns of a block: one 512-bit register of float32 or int32

__all__ = ["CHAINS", "LANES", "int_rows", "relu_dot", "scaled_rows"]


def _data(context, builder, aryty, value):
    return context.make_array(aryty)(context, builder, value).data


def _block_ptr(builder, base, at, vec):
    """A pointer to the vector of ``vec`` type at element ``at`` from ``base``."""
    return builder.bitcast(builder.gep(base, [at]), vec.as_pointer())


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
        i32 = ir.IntType(32)
        i64 = ir.IntType(64)
        vec = ir.VectorType(i32, LANES)
        acc = cgutils.alloca_once(builder, vec)
        blocks = builder.udiv(width, ir.Constant(i64, LANES))
        with cgutils.for_range(builder, blocks) as block:
            col = builder.mul(block.index, ir.Constant(i64, LANES))
            builder.store(builder.load(_block_ptr(builder, s, col, vec), align=4), acc)
            for rows, count, add in ((ap, n_adds, True), (sp, n_subs, False)):
                with cgutils.for_range(builder, count) as row:
                    k = builder.sext(builder.load(builder.gep(rows, [row.index])), i64)
                    at = builder.add(builder.mul(k, width), col)
                    value = builder.load(_block_ptr(builder, wp, at, vec), align=4)
                    total = builder.load(acc)
                    total = builder.add(total, value) if add else builder.sub(total, value)
                    builder.store(total, acc)
            builder.store(builder.load(acc), _block_ptr(builder, o, col, vec), align=4)
        return context.get_dummy_value()

    return sig, codegen


CHAINS = 4  # partial sums a column of ``scaled_rows`` is split into


@intrinsic
def scaled_rows(typingctx, out, act, idx, n, w, base, width):
    """``out[j] += act[k] * w[base + k*width + j]`` over the rows ``k`` of ``idx[:n]``, ``j``
    below ``width``: ``float32``, each product a multiply then an add. A column is summed in
    ``CHAINS`` partial sums, the ``u``-th row listed into sum ``u % CHAINS`` (the first
    starting from ``out[j]``, the others from zero), then ``(s0 + s1) + (s2 + s3)``: four
    chains of adds in flight instead of one. ``width`` a multiple of ``LANES``."""
    ok = (
        isinstance(out, types.Array)
        and out.dtype == types.float32
        and isinstance(act, types.Array)
        and act.dtype == types.float32
        and isinstance(idx, types.Array)
        and idx.dtype == types.int32
        and isinstance(w, types.Array)
        and w.dtype == types.float32
    )
    if not ok:
        return None
    sig = types.void(out, act, idx, types.intp, w, types.intp, types.intp)

    def codegen(context, builder, sig, args):
        out_a, act_a, idx_a, n, w_a, base, width = args
        aty = sig.args
        o = _data(context, builder, aty[0], out_a)
        ap = _data(context, builder, aty[1], act_a)
        ip = _data(context, builder, aty[2], idx_a)
        wp = _data(context, builder, aty[4], w_a)
        f32 = ir.FloatType()
        i32 = ir.IntType(32)
        i64 = ir.IntType(64)
        vec = ir.VectorType(f32, LANES)
        splat = ir.Constant(ir.VectorType(i32, LANES), [0] * LANES)
        undef = ir.Constant(vec, ir.Undefined)
        zero = ir.Constant(vec, [0.0] * LANES)
        accs = [cgutils.alloca_once(builder, vec) for _ in range(CHAINS)]

        def add_row(u, acc, col):
            k = builder.sext(builder.load(builder.gep(ip, [u])), i64)
            a = builder.load(builder.gep(ap, [k]))
            va = builder.shuffle_vector(
                builder.insert_element(undef, a, ir.Constant(i32, 0)), undef, splat
            )
            at = builder.add(builder.add(base, builder.mul(k, width)), col)
            value = builder.load(_block_ptr(builder, wp, at, vec), align=4)
            builder.store(builder.fadd(builder.load(acc), builder.fmul(va, value)), acc)

        blocks = builder.udiv(width, ir.Constant(i64, LANES))
        groups = builder.udiv(n, ir.Constant(i64, CHAINS))
        with cgutils.for_range(builder, blocks) as block:
            col = builder.mul(block.index, ir.Constant(i64, LANES))
            builder.store(builder.load(_block_ptr(builder, o, col, vec), align=4), accs[0])
            for acc in accs[1:]:
                builder.store(zero, acc)
            with cgutils.for_range(builder, groups) as group:
                first = builder.mul(group.index, ir.Constant(i64, CHAINS))
                for c, acc in enumerate(accs):
                    add_row(builder.add(first, ir.Constant(i64, c)), acc, col)
            done = builder.mul(groups, ir.Constant(i64, CHAINS))
            for c, acc in enumerate(accs[:-1]):
                u = builder.add(done, ir.Constant(i64, c))
                with builder.if_then(builder.icmp_signed("<", u, n)):
                    add_row(u, acc, col)
            ld = [builder.load(acc) for acc in accs]
            total = builder.fadd(builder.fadd(ld[0], ld[1]), builder.fadd(ld[2], ld[3]))
            builder.store(total, _block_ptr(builder, o, col, vec), align=4)
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
