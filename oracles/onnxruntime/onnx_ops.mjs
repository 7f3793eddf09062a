// broadcheck's ops as ONNX users write them: each case becomes a small ONNX graph (one node, or Not(Equal) for ne)
// over inputs of the case's dtypes, and the feeds to
// run it with. Cases ONNX cannot state (a scalar ONNX has no attribute for, an op whose ONNX namesake means something
// else for these dtypes) are `unsupported` with the reason; dtypes an operator or its CPU kernel lacks are ONNX
// Runtime's to say when it loads the model (adapter.mjs).
// Pointwise binary ops by broadcheck's name: the ONNX operator and its attributes (multidirectional broadcasting).
const BINARY = {
  add: ['Add'], sub: ['Sub'], mul: ['Mul'], div: ['Div'], pow: ['Pow'], maximum: ['Max'], minimum: ['Min'],
  eq: ['Equal'], lt: ['Less'], gt: ['Greater'], le: ['LessOrEqual'], ge: ['GreaterOrEqual'],
  fmod: ['Mod', { fmod: { i: 1 } }], remainder: ['Mod', { fmod: { i: 0 } }],
  bitwise_and: ['BitwiseAnd'], bitwise_or: ['BitwiseOr'], bitwise_xor: ['BitwiseXor'],
  bitwise_left_shift: ['BitShift', { direction: { s: 'LEFT' } }],
  bitwise_right_shift: ['BitShift', { direction: { s: 'RIGHT' } }],
  logical_and: ['And'], logical_or: ['Or'], logical_xor: ['Xor'],
};
// The dtypes an ONNX operator's type constraint allows, where it is narrower than its namesake's in PyTorch: And,
// Or and Xor take bool only; BitwiseAnd/Or/Xor (opset 18) integers only; BitShift unsigned integers only.
const TAKES = {
  And: new Set(['bool']), Or: new Set(['bool']), Xor: new Set(['bool']),
  BitwiseAnd: new Set(['uint8', 'int8', 'int16', 'int32', 'int64']),
  BitwiseOr: new Set(['uint8', 'int8', 'int16', 'int32', 'int64']),
  BitwiseXor: new Set(['uint8', 'int8', 'int16', 'int32', 'int64']),
  BitShift: new Set(['uint8']),
};
const UNARY = { neg: 'Neg', abs: 'Abs', sqrt: 'Sqrt', exp: 'Exp', log: 'Log', sign: 'Sign', reciprocal: 'Reciprocal' };
const REDUCE = { sum: 'ReduceSum', mean: 'ReduceMean', amax: 'ReduceMax', amin: 'ReduceMin', prod: 'ReduceProd' };

export const OPS = [...Object.keys(BINARY), 'ne', ...Object.keys(UNARY), ...Object.keys(REDUCE), 'where', 'expand',
  'matmul', 'addmm'].sort();

// The ops ONNX has no operator for with PyTorch's meaning, each with the reason (rows grouped by reason): with OPS,
// every op of `broadcheck list ops` (tests/oracles/adapter_tables_test.cpp checks that each is in one of the two).
const refused = (ops, reason) => Object.fromEntries(ops.map((op) => [op, reason]));
export const UNSUPPORTED = {
  atan2: 'ONNX has no Atan2 operator',
  hypot: 'ONNX has no Hypot operator',
  lerp: 'ONNX has no Lerp operator',
  logaddexp: 'ONNX has no LogAddExp operator',
  floor_divide: 'ONNX has no floor division (Div truncates integers)',
  ...refused(['addcmul', 'addcdiv', 'unfused_addcmul', 'unfused_addcdiv'], 'ONNX has no addcmul or addcdiv operator'),
  broadcast_shapes: 'ONNX has no operator on shapes alone',
  sum_to: "ONNX has no sum_to (autograd's gradient reduction)",
  ...refused(['mm', 'bmm', 'mv', 'dot', 'outer'], 'ONNX has no strict products: MatMul broadcasts batch dims (matmul)'),
  ...refused(['addmv', 'addr', 'baddbmm', 'addbmm'], 'ONNX has Gemm (addmm) as its only fused product'),
  ...refused(['diamond', 'dist', 'graph'], 'the ONNX adapter builds one-node models (ne: Not(Equal)), not programs'),
  ...refused(['add_', 'sub_', 'mul_', 'div_', 'pow_', 'atan2_', 'fmod_', 'remainder_', 'eq_', 'ne_', 'lt_', 'le_', 'gt_',
    'ge_', 'hypot_', 'floor_divide_', 'lerp_', 'addcmul_', 'addcdiv_', 'unfused_addcmul_', 'unfused_addcdiv_',
    'addmm_', 'addmv_', 'addr_', 'baddbmm_', 'addbmm_', 'fill_', 'zero_', 'bitwise_and_', 'bitwise_or_', 'bitwise_xor_',
    'bitwise_left_shift_', 'bitwise_right_shift_', 'logical_and_', 'logical_or_', 'logical_xor_'],
  'an ONNX model has no in-place ops'),
};

const FLOATING = new Set(['float16', 'float32', 'float64']);
const INTEGRAL = new Set(['bool', 'uint8', 'int8', 'int16', 'int32', 'int64']);

// A scalar of the case (alpha, beta) as the number it stands for; absent: 1.
function scalar(c, name) {
  const s = (c.scalars || {})[name];
  if (s === undefined) return 1;
  return { nan: NaN, inf: Infinity, '-inf': -Infinity }[s] ?? Number(s);
}

// What the case is in ONNX: {key, nodes, inputs: [{name, dtype}], output, extra feeds} or {unsupported}.
// `key` names the model: cases with one key share one session (shapes, ranks included, are left unknown).
export function onnxProgram(c) {
  const op = c.op;
  const dtypes = c.dtypes || c.shapes.map(() => 'float32');
  const inputs = c.shapes.map((s, k) => ({ name: 'x' + k, dtype: dtypes[k] }));
  const names = inputs.map((i) => i.name);
  if (op in BINARY) {
    if (op === 'div' && INTEGRAL.has(dtypes[0]))
      return { unsupported: 'ONNX Div divides integers with truncation; broadcheck\'s div is true division' };
    if (op === 'remainder' && FLOATING.has(dtypes[0]))
      return { unsupported: 'ONNX Mod takes fmod=0 (the remainder with the divisor\'s sign) on integers only' };
    if ((op === 'add' || op === 'sub') && scalar(c, 'alpha') !== 1)
      return { unsupported: 'ONNX Add and Sub have no alpha' };
    const [type, attributes] = BINARY[op];
    const refused = TAKES[type] && dtypes.find((d) => !TAKES[type].has(d));
    if (refused)
      return { unsupported: 'ONNX ' + type + ' takes ' + [...TAKES[type]].join(', ') + ' only, not ' + refused };
    return single(type, attributes, inputs, names);
  }
  if (op === 'ne') {
    const nodes = [{ op: 'Equal', inputs: names, output: 'e' }, { op: 'Not', inputs: ['e'], output: 'y' }];
    return { key: keyOf('ne', inputs), inputs, nodes, output: 'y' };
  }
  if (op in UNARY) return single(UNARY[op], undefined, inputs, names);
  if (op === 'where') return single('Where', undefined, inputs, names);
  if (op === 'matmul') return single('MatMul', undefined, inputs, names);
  if (op === 'addmm') return gemm(c, inputs);
  if (op in REDUCE) return reduction(c, inputs);
  if (op === 'expand') return expand(c);
  return { unsupported: 'no ONNX operator for ' + op };
}

function keyOf(name, inputs, extra = '') {
  return name + '|' + inputs.map((i) => i.dtype).join(',') + '|' + extra;
}

function single(type, attributes, inputs, names) {
  const key = keyOf(type + JSON.stringify(attributes || {}), inputs);
  return { key, inputs, nodes: [{ op: type, inputs: names, output: 'y', attributes }], output: 'y' };
}

// addmm(c, a, b, beta, alpha) is Gemm(a, b, c, alpha, beta): C broadcasts one way, to A x B's shape. Gemm's alpha
// and beta are float attributes (single precision, whatever the tensors' dtype).
function gemm(c, inputs) {
  const alpha = scalar(c, 'alpha'), beta = scalar(c, 'beta');
  const attributes = { alpha: { f: alpha }, beta: { f: beta } };
  const key = keyOf('Gemm', inputs, alpha + ',' + beta);
  return { key, inputs, nodes: [{ op: 'Gemm', inputs: ['x1', 'x2', 'x0'], output: 'y', attributes }], output: 'y' };
}

// sum(a, dims, keepdim) is ReduceSum(a, axes, keepdims) (opset 18: every reduction takes axes as an input;
// without dims, no axes: every axis; dims [] is an empty axes input, which reduces every axis too, as
// noop_with_empty_axes=0 says). ONNX's reductions have no dtype= (a Cast before it would be another op's work).
function reduction(c, inputs) {
  if (c.dtype_arg !== undefined) return { unsupported: 'ONNX\'s ' + REDUCE[c.op] + ' has no dtype= argument' };
  const attributes = { keepdims: { i: c.keepdim ? 1 : 0 } };
  const hasAxes = c.dims !== undefined;
  const all = hasAxes ? [...inputs, { name: 'axes', dtype: 'int64' }] : inputs;
  const nodes = [{ op: REDUCE[c.op], inputs: hasAxes ? ['x0', 'axes'] : ['x0'], output: 'y', attributes }];
  const key = keyOf(REDUCE[c.op], all, String(c.keepdim ? 1 : 0));
  const feeds = hasAxes ? { axes: { dtype: 'int64', shape: [c.dims.length], data: BigInt64Array.from(c.dims, BigInt) } } : {};
  return { key, inputs: all, nodes, output: 'y', feeds };
}

// expand(source, target) is Expand(zeros of source's shape (float32), target as an int64 tensor).
function expand(c) {
  const [source, target] = c.shapes;
  if (source.some((d) => d < 0)) return { unsupported: 'a tensor of negative size' };
  const inputs = [{ name: 'x0', dtype: 'float32' }, { name: 'shape', dtype: 'int64' }];
  const n = source.reduce((x, y) => x * y, 1);
  const feeds = {
    x0: { dtype: 'float32', shape: source, data: new Float32Array(n) },
    shape: { dtype: 'int64', shape: [target.length], data: BigInt64Array.from(target, BigInt) },
  };
  return { key: keyOf('Expand', inputs), inputs, nodes: [{ op: 'Expand', inputs: ['x0', 'shape'], output: 'y' }],
    output: 'y', feeds };
}
