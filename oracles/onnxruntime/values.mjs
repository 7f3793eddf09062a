// Values between broadcheck's JSON encoding (docs/protocol.md, "Values") and ONNX Runtime's tensors, exactly:
// int64 through BigInt (never a JS number), float16 through its bit pattern, -0.0 and non-finite floats kept.

// The typed array ONNX Runtime for Node takes for each dtype (float16 is its bits in a Uint16Array).
export const ARRAYS = {
  bool: Uint8Array, uint8: Uint8Array, int8: Int8Array, int16: Int16Array, int32: Int32Array,
  int64: BigInt64Array, float16: Uint16Array, float32: Float32Array, float64: Float64Array,
};
// ONNX Runtime's tensor type names, back to broadcheck's dtype names.
export const ORT_TYPE = { bool: 'bool', uint8: 'uint8', int8: 'int8', int16: 'int16', int32: 'int32', int64: 'int64',
  float16: 'float16', float32: 'float32', float64: 'float64' };
export const DTYPE_OF = Object.fromEntries(Object.entries(ORT_TYPE).map(([k, v]) => [v, k]));

// JSON.parse reads every number as a double; integer literals of 16 digits or more (beyond 2^53 possibly) become
// strings of their digits first, so that an int64 operand reads them with BigInt. Strings are skipped whole, and
// digits inside a float's fraction or exponent (0.30000000000000004, 1e-1234567890123456) are not an integer.
const TOKENS = /"(?:[^"\\]|\\.)*"|(?<![\d.eE+-])-?\d{16,}(?![.\deE])/g;
const LONG = /\d{16}/;
export function parseExact(line) {
  // A line without 16 digits in a row has no such literal: parsed as it is (most lines; the rewrite cost 20% of
  // the adapter's own time).
  if (!LONG.test(line)) return JSON.parse(line);
  return JSON.parse(line.replace(TOKENS, (t) => (t[0] === '"' ? t : '"' + t + '"')));
}

const SPECIAL = { nan: NaN, inf: Infinity, '-inf': -Infinity };

// A scalar or element as a JS number (floats; digit strings from parseExact included).
export function toNumber(v) {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return v in SPECIAL ? SPECIAL[v] : Number(v);
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

// The float16 bit pattern of a double that holds a float16 value exactly (broadcheck sends only such values;
// anything else rounds towards zero here, which a test would show).
export function halfBits(x) {
  if (Number.isNaN(x)) return 0x7e00;
  const sign = (x < 0 || Object.is(x, -0)) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a === Infinity) return sign | 0x7c00;
  if (a < 2 ** -14) return sign | Math.round(a / 2 ** -24);  // subnormal (and zero)
  f32[0] = a;
  const bits = u32[0];
  return sign | (((bits >>> 23) - 112) << 10) | ((bits >>> 13) & 0x3ff);
}

export function halfValue(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

// One element of a request's base, stored into `out[k]` for the operand's dtype.
function storer(dtype) {
  if (dtype === 'int64') return (out, k, v) => { out[k] = BigInt(v); };
  if (dtype === 'bool') return (out, k, v) => { out[k] = v === true || (v !== false && toNumber(v) !== 0) ? 1 : 0; };
  if (dtype === 'float16') return (out, k, v) => { out[k] = halfBits(toNumber(v)); };
  return (out, k, v) => { out[k] = toNumber(v); };
}

// Each operand's elements in row-major order of its shape, read through its view (offset and strides into its
// base, or into operand `views`'s base): ONNX Runtime takes contiguous tensors only, so a view is what an ONNX user
// would feed: its elements, copied. `plant` (the planted bug of BC_ONNXRUNTIME_PLANT=strides) ignores the strides.
export function operandData(operands, plant) {
  const bases = [];
  return operands.map((o) => {
    const Array_ = ARRAYS[o.dtype];
    let base;
    if ('views' in o) base = bases[o.views];
    else {
      const n = o.base_shape.reduce((x, y) => x * y, 1);
      base = new Array_(n);
      if ('base' in o) {
        const store = storer(o.dtype);
        for (let k = 0; k < n; ++k) store(base, k, o.base[k]);
      }
    }
    bases.push(base);
    return gather(base, Array_, o.shape, plant ? contiguousStrides(o.shape) : o.strides, o.offset);
  });
}

function contiguousStrides(shape) {
  const s = new Array(shape.length);
  for (let d = shape.length - 1, acc = 1; d >= 0; --d) { s[d] = acc; acc *= shape[d]; }
  return s;
}

function gather(base, Array_, shape, strides, offset) {
  const n = shape.reduce((x, y) => x * y, 1);
  const out = new Array_(n);
  if (n === 0) return out;
  const rank = shape.length;
  const idx = new Array(rank).fill(0);
  let at = offset;
  for (let k = 0; k < n; ++k) {
    out[k] = base[at];
    for (let d = rank - 1; d >= 0; --d) {
      if (++idx[d] < shape[d]) { at += strides[d]; break; }
      at -= strides[d] * (shape[d] - 1);
      idx[d] = 0;
    }
  }
  return out;
}

function encodeFloat(x) {
  if (Number.isNaN(x)) return '"nan"';
  if (x === Infinity) return '"inf"';
  if (x === -Infinity) return '"-inf"';
  if (Object.is(x, -0)) return '-0.0';
  return String(x);
}

// A result's values as the JSON text of an array (int64 exact, -0.0 kept), for the answer's "values".
export function encodeValues(dtype, data) {
  const parts = new Array(data.length);
  if (dtype === 'bool') for (let k = 0; k < data.length; ++k) parts[k] = data[k] ? 'true' : 'false';
  else if (dtype === 'float16') for (let k = 0; k < data.length; ++k) parts[k] = encodeFloat(halfValue(data[k]));
  else if (dtype === 'float32' || dtype === 'float64') for (let k = 0; k < data.length; ++k) parts[k] = encodeFloat(data[k]);
  else for (let k = 0; k < data.length; ++k) parts[k] = String(data[k]);
  return '[' + parts.join(',') + ']';
}
