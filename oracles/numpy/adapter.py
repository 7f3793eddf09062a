#!/usr/bin/env python3
"""broadcheck's NumPy adapter: answers broadcheck's protocol (docs/protocol.md) on stdin/stdout with what NumPy
really does. Written against the protocol only: it knows nothing of broadcheck's code.

Each op is written with NumPy's own functions (a fused op written out as NumPy users write it); NumPy's errors and
messages are reported as they are, with an error kind read from the message. NumPy has no autograd: gradients are
not declared. Usage: python3 oracles/numpy/adapter.py (broadcheck starts it; see `broadcheck list oracles`).
"""
import json
import math
import sys
import warnings

import numpy as np

# NumPy has no bfloat16: it is left out of the capabilities, so broadcheck answers such a case unsupported.
DTYPES = {"bool": np.bool_, "int64": np.int64, "float32": np.float32, "float64": np.float64, "int8": np.int8,
          "uint8": np.uint8, "int16": np.int16, "int32": np.int32, "float16": np.float16}
NAMES = {np.dtype(t): name for name, t in DTYPES.items()}

# The binary ufuncs, by broadcheck's op name; each also runs in place as ufunc(a, b, out=a), but NO_INPLACE.
UFUNCS = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.true_divide, "pow": np.power,
    "atan2": np.arctan2, "fmod": np.fmod, "remainder": np.remainder, "maximum": np.maximum,
    "minimum": np.minimum, "eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
    "gt": np.greater, "ge": np.greater_equal, "hypot": np.hypot, "floor_divide": np.floor_divide,
    "bitwise_and": np.bitwise_and, "bitwise_or": np.bitwise_or, "bitwise_xor": np.bitwise_xor,
    "bitwise_left_shift": np.left_shift, "bitwise_right_shift": np.right_shift, "logical_and": np.logical_and,
    "logical_or": np.logical_or, "logical_xor": np.logical_xor, "logaddexp": np.logaddexp,
}
# The ufuncs whose in-place form broadcheck's op table has no op for (LibTorch has no maximum_, logaddexp_).
NO_INPLACE = {"maximum", "minimum", "logaddexp"}

# The unary ufuncs, by broadcheck's op name (no in-place forms in broadcheck yet).
UNARY = {
    "neg": np.negative, "abs": np.absolute, "sqrt": np.sqrt, "exp": np.exp, "log": np.log, "sign": np.sign,
    "reciprocal": np.reciprocal,
}

# The reductions, by broadcheck's op name: np.sum(a, axis=tuple(dims), keepdims=, dtype=). No "dims" is axis=None
# (every axis); NumPy's axis=() reduces nothing (LibTorch 1.13's dim=[] reduces every dim).
REDUCTIONS = {"sum": np.sum, "mean": np.mean, "amax": np.amax, "amin": np.amin, "prod": np.prod}


def reduction(op, case, a):
    kwargs = {"keepdims": bool(case.get("keepdim", False))}
    if "dims" in case:
        kwargs["axis"] = tuple(case["dims"])
    if "dtype_arg" in case:
        kwargs["dtype"] = DTYPES[case["dtype_arg"]]
    return REDUCTIONS[op](a, **kwargs)


def scalar(case, name):
    """A case's scalar (alpha, beta, value) as the Python int or float it stands for; 1 by default ("nan", "inf"
    and "-inf" are floats)."""
    s = case.get("scalars", {}).get(name, 1)
    return decode(s) if isinstance(s, str) else s


# fill_ and zero_ as a NumPy user writes them: every element of self assigned one Python scalar, `a[...] = v`.
FILLS = {"fill_", "zero_"}


def fill(op, case, self):
    self[...] = scalar(case, "value") if op == "fill_" else 0
    return self


def scaled(s, x):
    """s * x, leaving x alone for the default 1 (so that the scalar does not take part in type promotion)."""
    return x if (s == 1 and isinstance(s, int)) else np.multiply(s, x)


def program(op, case, t):
    """The NumPy program for one op on the operands t; returns the result (for an in-place op, self)."""
    alpha, beta, value = scalar(case, "alpha"), scalar(case, "beta"), scalar(case, "value")
    inplace = op.endswith("_")
    base = op[:-1] if inplace else op
    if op in UNARY:
        return UNARY[op](t[0])
    if op in REDUCTIONS:
        return reduction(op, case, t[0])
    if op in FILLS:
        return fill(op, case, t[0])
    if base in UFUNCS:
        other = scaled(alpha, t[1]) if base in ("add", "sub") else t[1]
        if "out" in case:  # the ufunc's out=: NumPy never resizes it (a result that does not fit is its error)
            out = np.zeros(case["out"]["shape"], dtype=DTYPES[case["out"].get("dtype", "float32")])
            UFUNCS[base](t[0], other, out=out)
            return out
        return UFUNCS[base](t[0], other, out=t[0]) if inplace else UFUNCS[base](t[0], other)
    if base == "lerp":
        return np.add(t[0], t[2] * (t[1] - t[0]), out=t[0] if inplace else None)
    if base in ("addcmul", "addcdiv", "unfused_addcmul", "unfused_addcdiv"):
        term = np.multiply(t[1], t[2]) if base.endswith("mul") else np.true_divide(t[1], t[2])
        return np.add(t[0], scaled(value, term), out=t[0] if inplace else None)
    if base == "where":
        return np.where(t[0], t[1], t[2])
    if base in ("matmul", "dot", "outer"):
        return {"matmul": np.matmul, "dot": np.dot, "outer": np.outer}[base](t[0], t[1])
    if base in ("addmm", "addmv", "baddbmm", "addbmm", "addr"):
        product = np.outer(t[1], t[2]) if base == "addr" else np.matmul(t[1], t[2])
        if base == "addbmm":
            product = product.sum(axis=0)
        return np.add(scaled(beta, t[0]), scaled(alpha, product), out=t[0] if inplace else None)
    if base == "diamond":
        return np.multiply(np.add(t[0], t[1]), t[0])
    if base == "dist":
        return np.linalg.norm(np.subtract(t[0], t[1]))
    if base == "graph":
        return graph(case, t)
    raise KeyError(op)


def graph(case, t):
    """A program of nodes {"op", "args"}: an arg below len(t) names an operand, above it an earlier node; the
    last node is the result. Each node runs as the single op would (no scalars: alpha is 1)."""
    values = list(t)
    for node in case["program"]:
        values.append(np.asarray(program(node["op"], {}, [values[k] for k in node["args"]])))
    return values[-1]


SHAPE_OPS = {"broadcast_shapes", "expand"}
OPS = sorted(SHAPE_OPS | set(UFUNCS) | set(UNARY) | set(REDUCTIONS) | {u + "_" for u in UFUNCS if u not in NO_INPLACE} | {
    "lerp", "lerp_", "where", "addcmul", "addcdiv", "addcmul_", "addcdiv_", "unfused_addcmul", "unfused_addcdiv",
    "unfused_addcmul_", "unfused_addcdiv_", "matmul", "dot", "outer", "addmm", "addmv", "addr", "baddbmm", "addbmm",
    "addmm_", "addmv_", "addr_", "baddbmm_", "addbmm_", "diamond", "dist", "graph"} | FILLS)


# The ops NumPy has no function for with PyTorch's meaning, each with the reason: with OPS, every op of
# `broadcheck list ops` (tests/oracles/adapter_tables_test.cpp checks that each is in one of the two).
UNSUPPORTED = {
    "sum_to": "NumPy has no sum_to (autograd's gradient reduction)",
    "mm": "NumPy has no strict products: np.matmul broadcasts batch dims (matmul)",
    "bmm": "NumPy has no strict products: np.matmul broadcasts batch dims (matmul)",
    "mv": "NumPy has no strict products: np.matmul broadcasts batch dims (matmul)",
}


def decode(v):
    if isinstance(v, str):
        return {"nan": float("nan"), "inf": float("inf"), "-inf": float("-inf")}.get(v) or int(v)
    return v


def decode_number(v):
    """A number operand's JSON: an int (exact: Python's json reads any integer), a float ("nan", "inf", "-inf"
    as strings), a bool."""
    if isinstance(v, str):
        return {"nan": float("nan"), "inf": float("inf"), "-inf": float("-inf")}[v]
    return v


def encode(x):
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    x = float(x)
    if x != x:
        return "nan"
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    return x


def build(operands):
    """Each operand as a view of a fresh base, as the request lays it out (np.ndarray over the base's buffer: the
    view np.lib.stride_tricks.as_strided makes, without its cost per call)."""
    bases, views = [], []
    for o in operands:
        if "number" in o:  # a Python number, as a NumPy user writes it: a * 2.5 (NumPy 1.24's value-based casting)
            bases.append(None)
            views.append(decode_number(o["number"]))
            continue
        dtype = DTYPES[o["dtype"]]
        if "views" in o:
            base = bases[o["views"]]
        elif "base" in o:
            # NumPy reads the strings "nan", "inf" and "-inf" as those floats, as decode() does.
            base = np.array(o["base"], dtype=dtype)
        else:
            base = np.zeros(math.prod(o["base_shape"]), dtype=dtype)
        bases.append(base)
        size = base.itemsize
        views.append(np.ndarray(tuple(o["shape"]), dtype=base.dtype, buffer=base, offset=o["offset"] * size,
                                strides=tuple(s * size for s in o["strides"])))
    return views


# NumPy's messages, read as broadcheck's error kinds (first match wins).
KINDS = [
    ("operands could not be broadcast together", "broadcast"),
    ("shape mismatch: objects cannot be broadcast", "broadcast"),
    ("non-broadcastable output operand", "inplace_shape"),
    ("cannot broadcast a non-scalar to a scalar array", "expand"),
    ("all elements of broadcast shape must be non-negative", "expand"),
    ("input operand has more dimensions than allowed by the axis remapping", "expand"),
    ("matmul: ", "matmul_shape"),
    ("shapes ", "matmul_shape"),  # np.dot: shapes (2,3) and (2,) not aligned
    ("Cannot cast ufunc", "dtype_cast"),
    ("output array is read-only", "inplace_shape"),
    ("Integers to negative integer powers are not allowed", "invalid_argument"),
    ("ufunc ", "invalid_argument"),  # no loop for these input types
    ("negative dimensions are not allowed", "invalid_argument"),
    ("axis ", "invalid_argument"),  # numpy.AxisError: axis 2 is out of bounds for array of dimension 2
    ("duplicate value in 'axis'", "invalid_argument"),
    ("zero-size array to reduction operation", "invalid_argument"),
]


def kind_of(op, message):
    kind = next((k for prefix, k in KINDS if message.startswith(prefix)), "other")
    return "expand" if op == "expand" and kind == "broadcast" else kind


def outcome(case, operands):
    """The answer to one case. NumPy's warnings and floating-point errors are silenced once, in main(): the
    answer has no warnings, and 1/0 is inf as NumPy computes it."""
    op = case["op"]
    shapes = case["shapes"]
    try:
        if op == "broadcast_shapes":
            return {"status": "ok", "shape": list(np.broadcast_shapes(*map(tuple, shapes))), "dtype": "float32"}
        if op == "expand":
            r = np.broadcast_to(np.zeros(shapes[0], dtype=np.float32), tuple(shapes[1]))
            return {"status": "ok", "shape": list(r.shape), "dtype": NAMES[r.dtype]}
        views = build(operands)
        if op in FILLS and operands[0]["layout"] == "expanded":
            # An expanded self is what np.broadcast_to makes, and NumPy makes it read-only: writing to it is
            # refused ("assignment destination is read-only"). The other ops keep the writable strided view.
            views[0] = np.broadcast_to(views[0], views[0].shape)
        r = np.asarray(program(op, case, views))
    except Exception as e:  # NumPy's own error, reported as it is
        message = str(e)
        return {"status": "error", "error": {"kind": kind_of(op, message), "message": message},
                "detail": type(e).__name__}
    if r.dtype not in NAMES:
        return {"status": "unsupported", "detail": "NumPy returned dtype " + str(r.dtype)}
    out = {"status": "ok", "shape": list(r.shape), "dtype": NAMES[r.dtype]}
    if "values" in case:
        flat = r.reshape(-1)
        # Integers and bools come out of tolist() as Python ints and bools, finite floats as floats: encode()
        # would leave each as it is. Only a float result with a NaN or an infinity needs it per element.
        finite = flat.dtype.kind != "f" or np.isfinite(flat).all()
        out["values"] = flat.tolist() if finite else [encode(x) for x in flat.tolist()]
    return out


def main():
    warnings.simplefilter("ignore")
    np.seterr(all="ignore")
    hello = json.loads(sys.stdin.readline())
    if hello.get("protocol") != 1:
        sys.exit("numpy adapter: protocol 1 only, got " + repr(hello.get("protocol")))
    caps = {"ops": OPS, "dtypes": list(DTYPES), "gradients": False, "batch": True, "out": True, "numbers": True,
            "layouts": ["contiguous", "transposed", "strided", "expanded", "overlapping"]}
    print(json.dumps({"protocol": 1, "name": "NumPy", "version": np.__version__, "capabilities": caps}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        if "batch" in request:
            answer = {"id": request["id"], "outcomes": [outcome(r["case"], r["operands"]) for r in request["batch"]]}
        else:
            answer = {"id": request["id"], "outcome": outcome(request["case"], request["operands"])}
        sys.stdout.write(json.dumps(answer, allow_nan=False) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
