// broadcheck's TensorFlow.js adapter: answers broadcheck's protocol (docs/protocol.md) on stdin/stdout with what
// tfjs really does, on one backend: `node oracles/tfjs/adapter.mjs --backend cpu|wasm` (the voters tfjs-cpu and
// tfjs-wasm). Written against the protocol only. Each op is the tfjs function a user calls (ops.mjs); gradients are
// tfjs's engine.gradients (tf.valueAndGrads' own call) with the request's upstream gradient as dy (ones when
// absent); tfjs's errors are passed on with a kind read from their message (kinds.mjs). tfjs's dtypes are float32, int32 and bool, and it has no in-place ops.
// A number operand is passed as the JavaScript number a tfjs user writes (tf.add(x, 2.5)): tfjs makes it a float32
// tensor (a boolean a bool one) and promotes by dtype (docs/notes/numbers.md). On cpu only: tfjs-wasm's Select reads
// a number branch through the other branch's dtype and faults or answers garbage (tfjs-wasm-where-mixed-branches-*),
// and its Mod of a number of 2^31 or more gives 0, which would want declarations of their own.
import './tiers.mjs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { kindOf } from './kinds.mjs';
import { OPS, broadcastShapes, missingNodeOp, program } from './ops.mjs';
import { operandData, upstreamData, valuesText } from './tensors.mjs';
import { planted } from './planted.mjs';
import { answering_, counted, inLibrary, report } from './timing.mjs';

const backend = process.argv[2] === '--backend' ? process.argv[3] : undefined;
if (backend !== 'cpu' && backend !== 'wasm') {
  process.stderr.write('tfjs adapter: usage: node adapter.mjs --backend cpu|wasm\n');
  process.exit(2);
}

// tfjs-core and its backends are the Node bundles a tfjs user loads; core's gradients and chained ops (which the full
// @tensorflow/tfjs package registers) come from its ES-module build, bundled into one file by `npm ci`
// (bundle_registrations.mjs): they register into core's global registries.
// They are CommonJS, loaded with require: import() of them cost 0.2 s of CPU per start, Node's loader scanning the
// bundles' text for their exports.
const require = createRequire(import.meta.url);
const tf = require('@tensorflow/tfjs-core');
require('./node_modules/.broadcheck/core_registrations.cjs');
if (backend === 'wasm') {
  const wasm = require('@tensorflow/tfjs-backend-wasm');
  // The .wasm files come from the installed package, never from the network; one thread (no worker pool).
  wasm.setWasmPaths(fileURLToPath(new URL('./node_modules/@tensorflow/tfjs-backend-wasm/dist/', import.meta.url)));
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
} else {
  require('@tensorflow/tfjs-backend-cpu');
}
if (!(await tf.setBackend(backend))) {
  process.stderr.write('tfjs adapter: the ' + backend + ' backend did not initialize\n');
  process.exit(3);
}

const unsupported = (detail) => ({ status: 'unsupported', detail });
const DTYPES = ['float32', 'int32', 'bool'];

// tfjs returned a tensor whose shape is not a list of sizes (tfjs-wasm's sum over a repeated axis with keepDims) or
// whose data does not fit its shape (tfjs-cpu's matMul with a batch of size 0): the protocol cannot carry it, so the
// answer is an error of kind other that says so, and the run shows the difference.
class Inconsistent extends Error {}

// One tensor's part of an answer: shape, dtype and, when asked, its values.
function tensorText(x, withValues) {
  if (!x.shape.every((d) => Number.isInteger(d) && d >= 0)) {
    throw new Inconsistent('tfjs adapter: tfjs returned a tensor of shape ' + JSON.stringify(x.shape));
  }
  const head = '"shape":' + JSON.stringify(x.shape) + ',"dtype":"' + x.dtype + '"';
  if (!withValues) return head;
  const data = inLibrary(() => x.dataSync());
  if (data.length !== x.size) {
    throw new Inconsistent('tfjs adapter: tfjs returned a tensor of shape [' + x.shape + '] holding ' + data.length + ' values');
  }
  return head + ',"values":' + valuesText(data, x.dtype);
}

// Forward (and backward, for a gradient case) inside a tidy scope (outcome()), so every tensor is disposed.
function computed(c, request) {
  const data = operandData(request.operands);
  const t = inLibrary(() => data.map((d) => (d.number !== undefined ? d.number : tf.tensor(d.values, d.shape, d.dtype))));
  if (c.op === 'expand') t.push(tf.zeros(c.shapes[0]));
  const withValues = c.values !== undefined;
  const needsGrad = (c.requires_grad || []).map((r, k) => (r ? k : -1)).filter((k) => k >= 0);
  if (needsGrad.length === 0) return '{"status":"ok",' + tensorText(inLibrary(() => planted(tf, c, program(tf, c.op, c, t))), withValues) + '}';
  const u = request.upstream;
  const dy = u === undefined ? undefined : inLibrary(() => tf.tensor(upstreamData(u), u.shape, u.dtype));
  const f = (...xs) => {
    const inputs = t.slice();
    needsGrad.forEach((k, j) => { inputs[k] = xs[j]; });
    return planted(tf, c, program(tf, c.op, c, inputs));
  };
  // tf.valueAndGrads' engine call without its check that every input has a gradient: tf.grads throws when an input
  // does not reach the result (a graph's unused input), where PyTorch gives it no gradient (null). The engine's own
  // check stays: when no input reaches the result it refuses ("Cannot compute gradient of y=f(x) with respect to x"),
  // as PyTorch refuses a backward through a result that does not require grad.
  const xs = needsGrad.map((k) => t[k]);
  const { value, grads } = inLibrary(() => tf.engine().gradients(() => f(...xs), xs, dy, false));
  if (dy !== undefined && !tf.util.arraysEqual(value.shape, dy.shape)) {
    throw new Error('tfjs adapter: the upstream gradient has shape [' + dy.shape + '], the result [' + value.shape + ']');
  }
  const perOperand = t.map(() => 'null');
  needsGrad.forEach((k, j) => { if (grads[j] != null) perOperand[k] = '{' + tensorText(grads[j], true) + '}'; });
  return '{"status":"ok",' + tensorText(value, withValues) + ',"grads":[' + perOperand.join(',') + ']}';
}

// A WebAssembly trap (tfjs-wasm's min over an axis of size 0 divides by zero) leaves the module's memory in no known
// state: later cases of the same module failed ("memory access out of bounds" on 0-d adds). The trapping case is
// answered with the trap's own message, and the backend is made again from its factory (a fresh module) before the
// next case, so that no other case inherits it.
const wasmFactory = backend === 'wasm' ? tf.findBackendFactory('wasm') : undefined;
let trapped = false;

async function freshBackend() {
  try {
    tf.removeBackend('wasm');
  } catch (e) {
    // Its dispose() trapped too, before the engine forgot it: forget it here, as removeBackend would have.
    const engine = tf.engine();
    delete engine.registry.wasm;
    delete engine.registryFactory.wasm;
    engine.backendName = null;
    engine.backendInstance = null;
    engine.pendingBackendInit = null;
  }
  tf.registerBackend('wasm', wasmFactory);
  if (!(await tf.setBackend('wasm'))) {
    process.stderr.write('tfjs adapter: the wasm backend did not initialize again after a trap\n');
    process.exit(3);
  }
  trapped = false;
}

// The answer to one case, as JSON text.
function outcome(request) {
  const c = request.case;
  counted();
  if (c.modify !== undefined) {
    return JSON.stringify(unsupported('tfjs has no in-place ops: operand ' + c.modify + ' cannot be written before backward'));
  }
  if (c.op === 'broadcast_shapes' && c.shapes.length !== 2) {
    return JSON.stringify(unsupported('tf.broadcastArgs takes two shapes, not ' + c.shapes.length));
  }
  const missing = missingNodeOp(c);
  if (missing !== undefined) return JSON.stringify(unsupported('a graph node tfjs has no function for: ' + missing));
  if (c.dtype_arg !== undefined && !DTYPES.includes(c.dtype_arg)) {
    return JSON.stringify(unsupported('tfjs has no dtype ' + c.dtype_arg + ' to cast to'));
  }
  try {
    if (c.op === 'broadcast_shapes') {
      return JSON.stringify({ status: 'ok', shape: tf.tidy(() => broadcastShapes(tf, c.shapes)), dtype: 'float32' });
    }
    // tf.tidy's scope, opened and closed apart so that only tfjs's part of it counts as tfjs's time.
    inLibrary(() => tf.engine().startScope());
    try {
      return computed(c, request);
    } finally {
      inLibrary(() => tf.engine().endScope());
    }
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) trapped = true;
    const message = e instanceof Error ? e.message : String(e);
    return JSON.stringify({ status: 'error', error: { kind: kindOf(c.op, message), message }, detail: e.constructor.name });
  }
}

// One case's answer, with a fresh wasm module after a trap.
async function answerCase(request) {
  const text = outcome(request);
  if (trapped) await freshBackend();
  return text;
}

async function answer(line) {
  const request = JSON.parse(line);
  if (request.batch === undefined) return '{"id":' + request.id + ',"outcome":' + (await answerCase(request)) + '}';
  const outcomes = [];
  for (const one of request.batch) outcomes.push(await answerCase(one));
  return '{"id":' + request.id + ',"outcomes":[' + outcomes.join(',') + ']}';
}

function handshake(line) {
  const hello = JSON.parse(line);
  // Protocol 2 (upstream gradients sent) when broadcheck offers it; protocol 1 otherwise (ones only).
  const protocol = Array.isArray(hello.protocols) && hello.protocols.includes(2) ? 2 : 1;
  return JSON.stringify({
    protocol, name: 'TensorFlow.js ' + backend, version: tf.version_core,
    capabilities: {
      ops: OPS, dtypes: DTYPES, gradients: true, batch: true, out: false, numbers: backend === 'cpu',
      layouts: ['contiguous', 'transposed', 'strided', 'expanded', 'overlapping'],
    },
  });
}

// Lines in, one answer line out per line, in order, written as soon as it is computed (stdout to a pipe is
// synchronous); each line waits for the one before (a trap's fresh backend is made asynchronously).
let pending = '';
let greeted = false;
let queue = Promise.resolve();
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  let end;
  while ((end = pending.indexOf('\n')) >= 0) {
    const line = pending.slice(0, end);
    pending = pending.slice(end + 1);
    if (line.trim() === '') continue;
    queue = queue.then(async () => {
      const text = greeted ? await answering_(() => answer(line)) : handshake(line);
      greeted = true;
      process.stdout.write(text + '\n');
    });
  }
});
process.stdin.on('end', () => queue.then(() => {
  report(backend);
  process.exit(0);
}));
