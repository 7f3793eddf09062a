// tfjs's error messages read as broadcheck's error kinds (`broadcheck list kinds`); the first pattern that matches
// wins, anything else is "other". The message itself is passed on unchanged.
const KINDS = [
  [/^Operands could not be broadcast together/, 'broadcast'],
  [/^broadcastTo\(\): /, 'expand'],
  [/^Error in matMul: /, 'matmul_shape'],
  [/^Error in dot: /, 'matmul_shape'],
  [/^Error in outerProduct: /, 'matmul_shape'],
  [/^All values in axis param must be in range/, 'invalid_argument'],
  [/^Tensor must have a shape comprised of positive integers/, 'invalid_argument'],
  [/must be (float32|int32|bool|numeric) tensor, but got/, 'invalid_argument'],
  [/^The dtypes of .* must match/, 'dtype_mismatch'],
  [/^BitwiseAnd: Tensors must have the same shape/, 'broadcast'],
  [/^BitwiseAnd: Only supports 'int32' values/, 'invalid_argument'],
  // No input that requires a gradient reaches the result (PyTorch: the result does not require grad).
  [/^Cannot compute gradient of y=f\(x\) with respect to x\./, 'invalid_argument'],
];

// The kind of a tfjs error message; on expand, a broadcast refusal is expand's own kind.
export function kindOf(op, message) {
  const hit = KINDS.find(([pattern]) => pattern.test(message));
  const kind = hit === undefined ? 'other' : hit[1];
  return op === 'expand' && kind === 'broadcast' ? 'expand' : kind;
}
