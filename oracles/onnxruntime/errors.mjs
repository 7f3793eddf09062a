// ONNX Runtime's messages read as broadcheck's error kinds (first match wins), and the messages of a model ONNX
// Runtime will not load for its types (an operator's type constraints, a CPU kernel not built for a type), which
// mean the case is not ONNX Runtime's to run: `unsupported` with that message, not an error of the case.

const KINDS = [
  [/Attempting to broadcast an axis by a dimension other than 1/, 'broadcast'],  // BroadcastIterator
  [/Can broadcast \d+ by \d+ or 1/, 'broadcast'],  // Broadcaster, a size-0 dim against another size
  [/operand cannot broadcast on dim/, 'broadcast'],  // MatMul's batch dims
  [/invalid expand shape/, 'expand'],
  [/Gemm: Invalid bias shape for broadcast/, 'expand'],  // C does not expand to A x B's shape
  [/MatMul|matmul|Gemm/, 'matmul_shape'],
  [/modulo by zero|divide by zero|division by zero/i, 'invalid_argument'],
  [/IsAxisInRange|axes|axis/i, 'invalid_argument'],
  [/Size\(\) must be >= 0|negative|invalid/i, 'invalid_argument'],
];

export function kindOf(op, message) {
  const hit = KINDS.find(([re]) => re.test(message));
  const kind = hit ? hit[1] : 'other';
  return op === 'expand' && kind === 'broadcast' ? 'expand' : kind;
}

// A model that does not load for its types: the operator's schema refuses an input type (or mixed types), or the
// CPU execution provider registers no kernel for it.
const UNLOADABLE = [
  /Type Error: Type/, /Type parameter \(\w+\) of Optype/, /Could not find an implementation for/, /Failed to find kernel for/,
];

export function isUnloadable(message) { return UNLOADABLE.some((re) => re.test(message)); }
