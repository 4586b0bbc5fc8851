"""Bit operations on 64-bit words that numba does not expose: population count and the index of
the lowest set bit.

In compiled code each is one LLVM intrinsic (``llvm.ctpop`` / ``llvm.cttz``), which numba's
host-CPU code generation turns into one instruction (``popcnt`` / ``tzcnt``) where the CPU has
it; they are pure functions, so kernels using them stay cacheable.  Called from Python (or with
``NUMBA_DISABLE_JIT=1``) they are plain Python.
"""

from __future__ import annotations

from llvmlite import ir
from numba.core import errors, types
from numba.extending import intrinsic, overload


def popcount(x) -> int:
    """Number of set bits of a 64-bit integer."""
    return bin(int(x) & 0xFFFFFFFFFFFFFFFF).count("1")


def lowest_bit(x) -> int:
    """Index of the lowest set bit of a 64-bit integer (64 for zero)."""
    x = int(x) & 0xFFFFFFFFFFFFFFFF
    return (x & -x).bit_length() - 1 if x else 64


def _check(x) -> None:
    if not isinstance(x, types.Integer) or x.bitwidth != 64:
        raise errors.NumbaTypeError(f"expected a 64-bit integer, got {x}")


@intrinsic
def _ctpop(typingctx, x):
    _check(x)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(x), codegen


@intrinsic
def _cttz(typingctx, x):
    _check(x)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(x), codegen


@overload(popcount)
def _popcount_compiled(x):
    return lambda x: _ctpop(x)


@overload(lowest_bit)
def _lowest_bit_compiled(x):
    return lambda x: _cttz(x)
