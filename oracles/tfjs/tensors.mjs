// Values between broadcheck's protocol (docs/protocol.md, "Values") and tfjs: each request operand materialized as
// the elements its view reaches (tfjs has no strided views: a user holds the contiguous tensor), and a result's
// elements written back as JSON text that round-trips exactly (-0.0 keeps its sign, NaN and infinities as strings).

const SPECIAL = { nan: NaN, inf: Infinity, '-inf': -Infinity };

function typedBase(o, dtype) {
  const size = o.base_shape.reduce((n, d) => n * d, 1);
  const out = dtype === 'float32' ? new Float32Array(size) : dtype === 'int32' ? new Int32Array(size) : new Uint8Array(size);
  if (o.base === undefined) return out;
  const base = o.base;
  for (let k = 0; k < base.length; ++k) {
    const v = base[k];
    out[k] = typeof v === 'string' ? SPECIAL[v] : v === true ? 1 : v === false ? 0 : v;
  }
  return out;
}

// The elements of as_strided(base, shape, strides, offset), row-major, in a typed array of the base's kind.
function gather(base, shape, strides, offset) {
  const size = shape.reduce((n, d) => n * d, 1);
  const out = new base.constructor(size);
  if (size === 0) return out;
  const rank = shape.length;
  const index = new Array(rank).fill(0);
  let at = offset;
  for (let k = 0; k < size; ++k) {
    out[k] = base[at];
    for (let d = rank - 1; d >= 0; --d) {
      if (++index[d] < shape[d]) { at += strides[d]; break; }
      index[d] = 0;
      at -= strides[d] * (shape[d] - 1);
    }
  }
  return out;
}

// Each request operand as {values, shape, dtype}: a view's elements, gathered from its own base or (with "views")
// from an earlier operand's; a number operand ({"number": 2.5}) as {number}, the JavaScript value a tfjs user writes
// (tf.add(x, 2.5)): a number (an int beyond 2^53 rounded, as its literal is), NaN or an infinity, or a boolean.
export function operandData(operands) {
  const bases = [];
  return operands.map((o) => {
    if (o.number !== undefined) {
      bases.push(undefined);
      return { number: typeof o.number === 'string' ? SPECIAL[o.number] : o.number };
    }
    const base = o.views !== undefined ? bases[o.views] : typedBase(o, o.dtype);
    bases.push(base);
    return { values: gather(base, o.shape, o.strides, o.offset), shape: o.shape, dtype: o.dtype };
  });
}

// The upstream gradient of protocol 2 ({shape, dtype, values}) as a typed array.
export function upstreamData(u) {
  return typedBase({ base: u.values, base_shape: u.shape }, u.dtype);
}

function floatText(v) {
  if (v !== v) return '"nan"';
  if (v === Infinity) return '"inf"';
  if (v === -Infinity) return '"-inf"';
  if (v === 0 && 1 / v < 0) return '-0.0';
  return String(v);
}

// A tensor's elements (dataSync's typed array) as a JSON array text, by dtype. tfjs keeps a bool in a Uint8Array
// whose elements may hold 2 (tf.add of two trues): any non-zero is true, as tfjs itself reads it.
export function valuesText(data, dtype) {
  const parts = new Array(data.length);
  if (dtype === 'float32') for (let k = 0; k < data.length; ++k) parts[k] = floatText(data[k]);
  else if (dtype === 'bool') for (let k = 0; k < data.length; ++k) parts[k] = data[k] !== 0 ? 'true' : 'false';
  else for (let k = 0; k < data.length; ++k) parts[k] = String(data[k]);
  return '[' + parts.join(',') + ']';
}
