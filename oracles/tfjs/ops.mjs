// broadcheck's ops (`broadcheck list ops`, PyTorch's meaning) as a tfjs user writes each one: the tfjs function of
// that meaning, called on the operands. An op whose PyTorch meaning tfjs has no function for is in UNSUPPORTED with
// the reason, so the handshake leaves it out.

// The binary ops: tf.add ... tf.logicalXor. tfjs's mod is floor-mod (PyTorch's remainder); tf.floorDiv rounds
// towards -inf. tf.logicalAnd/Or/Xor take bool tensors only and tf.bitwiseAnd int32 tensors of one shape only, where
// PyTorch's take other dtypes and broadcast: called as a user calls them, so those cases are tfjs's refusals.
const BINARY = {
  add: 'add', sub: 'sub', mul: 'mul', div: 'div', pow: 'pow', atan2: 'atan2', remainder: 'mod',
  maximum: 'maximum', minimum: 'minimum', eq: 'equal', ne: 'notEqual', lt: 'less', le: 'lessEqual',
  gt: 'greater', ge: 'greaterEqual', floor_divide: 'floorDiv', bitwise_and: 'bitwiseAnd', logical_and: 'logicalAnd',
  logical_or: 'logicalOr', logical_xor: 'logicalXor',
};

const UNARY = { neg: 'neg', abs: 'abs', sqrt: 'sqrt', exp: 'exp', log: 'log', sign: 'sign', reciprocal: 'reciprocal' };

// PyTorch's amax/amin are tf.max/tf.min.
const REDUCTIONS = { sum: 'sum', mean: 'mean', amax: 'max', amin: 'min', prod: 'prod' };

// A scalar of the case (alpha): 1 when absent; "nan", "inf", "-inf" as those floats.
function scalar(c, name) {
  const s = c.scalars === undefined ? undefined : c.scalars[name];
  if (s === undefined) return 1;
  return typeof s === 'string' ? { nan: NaN, inf: Infinity, '-inf': -Infinity }[s] : s;
}

// tf.sum(x, axis, keepDims) with PyTorch's dims as tfjs's axis (absent: null, every axis). PyTorch's dtype= is
// written as a tfjs user writes a conversion first: tf.cast.
function reduce(tf, op, c, x) {
  const input = c.dtype_arg === undefined ? x : tf.cast(x, c.dtype_arg);
  const axis = c.dims === undefined ? null : c.dims;
  return tf[REDUCTIONS[op]](input, axis, c.keepdim === true);
}

// add/sub's alpha scales the second operand as a tfjs user writes it: tf.mul(b, alpha), or b * alpha for a number
// (absent or 1: b itself).
function scaledSecond(tf, c, b) {
  const alpha = scalar(c, 'alpha');
  if (alpha === 1) return b;
  return typeof b === 'number' || typeof b === 'boolean' ? b * alpha : tf.mul(b, alpha);
}

// The program of one op on the operand tensors t; returns the result tensor.
export function program(tf, op, c, t) {
  if (op in BINARY) return tf[BINARY[op]](t[0], op === 'add' || op === 'sub' ? scaledSecond(tf, c, t[1]) : t[1]);
  if (op in UNARY) return tf[UNARY[op]](t[0]);
  if (op in REDUCTIONS) return reduce(tf, op, c, t[0]);
  switch (op) {
    case 'where': return tf.where(t[0], t[1], t[2]);
    // A tfjs user multiplies matrices, or batches of them, with tf.matMul, and a matrix by a vector with tf.dot:
    // tfjs has no strict forms that refuse other ranks, as PyTorch's mm, bmm and mv do.
    case 'matmul': case 'mm': case 'bmm': return tf.matMul(t[0], t[1]);
    case 'mv': return tf.dot(t[0], t[1]);
    case 'dot': return tf.dot(t[0], t[1]);
    case 'outer': return tf.outerProduct(t[0], t[1]);
    case 'diamond': return tf.mul(tf.add(t[0], t[1]), t[0]);
    case 'dist': return tf.norm(tf.sub(t[0], t[1]));
    case 'expand': return tf.broadcastTo(t[0], c.shapes[1]);
    case 'graph': return graph(tf, c, t);
  }
  throw new Error('tfjs adapter: no program for op ' + op);
}

// A graph's nodes {op, args}: an arg below t.length names an operand, above it an earlier node; the last node is
// the result. Each node runs as the single op would, without scalars.
function graph(tf, c, t) {
  const values = t.slice();
  for (const node of c.program) values.push(program(tf, node.op, {}, node.args.map((k) => values[k])));
  return values[values.length - 1];
}

// broadcast_shapes of two shapes as tfjs computes it: tf.broadcastArgs of the sizes as int32 tensors (tfjs has no
// n-ary form: other counts are unsupported), then a tensor of that shape, as a broadcast shape is used: broadcastArgs
// passes negative sizes through, and tf.zeros refuses them (LibTorch refuses them making a tensor too).
export function broadcastShapes(tf, shapes) {
  const shape = Array.from(tf.broadcastArgs(tf.tensor1d(shapes[0], 'int32'), tf.tensor1d(shapes[1], 'int32')).dataSync());
  return tf.zeros(shape).shape;
}

// The ops the handshake declares: those above, and the shape-level ones.
export const OPS = [...Object.keys(BINARY), ...Object.keys(UNARY), ...Object.keys(REDUCTIONS),
  'where', 'matmul', 'mm', 'bmm', 'mv', 'dot', 'outer', 'diamond', 'dist', 'graph', 'expand', 'broadcast_shapes'].sort();

// The ops tfjs has no function for with PyTorch's meaning, each with the reason (rows grouped by reason): with OPS,
// every op of `broadcheck list ops` (tests/oracles/adapter_tables_test.cpp checks that each is in one of the two).
const refused = (ops, reason) => Object.fromEntries(ops.map((op) => [op, reason]));
export const UNSUPPORTED = {
  fmod: 'tfjs has no fmod (tf.mod is floor-mod, remainder)',
  hypot: 'tfjs has no hypot',
  lerp: 'tfjs has no lerp',
  ...refused(['bitwise_or', 'bitwise_xor'], 'tfjs has no bitwise or, xor (tf.bitwiseAnd only)'),
  ...refused(['bitwise_left_shift', 'bitwise_right_shift'], 'tfjs has no shifts'),
  logaddexp: 'tfjs has no logaddexp (tf.logSumExp is a reduction)',
  ...refused(['addcmul', 'addcdiv', 'unfused_addcmul', 'unfused_addcdiv'], 'tfjs has no addcmul or addcdiv'),
  sum_to: "tfjs has no sum_to (autograd's gradient reduction)",
  ...refused(['addmm', 'addmv', 'addr', 'baddbmm', 'addbmm'], 'tfjs has no fused products'),
  ...refused(['add_', 'sub_', 'mul_', 'div_', 'pow_', 'atan2_', 'fmod_', 'remainder_', 'eq_', 'ne_', 'lt_', 'le_', 'gt_',
    'ge_', 'hypot_', 'floor_divide_', 'lerp_', 'addcmul_', 'addcdiv_', 'unfused_addcmul_', 'unfused_addcdiv_',
    'addmm_', 'addmv_', 'addr_', 'baddbmm_', 'addbmm_', 'fill_', 'zero_', 'bitwise_and_', 'bitwise_or_', 'bitwise_xor_',
    'bitwise_left_shift_', 'bitwise_right_shift_', 'logical_and_', 'logical_or_', 'logical_xor_'],
  'tfjs has no in-place ops (its tensors are immutable)'),
};

// A graph node's op that tfjs has no function for (UNSUPPORTED), or undefined: such a graph is unsupported.
export function missingNodeOp(c) {
  const node = c.op === 'graph' ? c.program.find((n) => !OPS.includes(n.op)) : undefined;
  return node === undefined ? undefined : node.op;
}
