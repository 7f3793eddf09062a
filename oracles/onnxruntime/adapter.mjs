// broadcheck's ONNX Runtime adapter: answers broadcheck's protocol (docs/protocol.md) on stdin/stdout with what
// ONNX Runtime (onnxruntime-node, CPU) computes for one-node ONNX models. Written against the protocol only.
// One InferenceSession per model (op, dtypes, attributes), created once and kept: shapes are left unknown. Graph
// optimizations are off (a one-node graph has nothing to optimise; they triple the session's creation time).
// No autograd, no in-place ops, no out=. Usage: node oracles/onnxruntime/adapter.mjs (broadcheck starts it).
// BC_ONNXRUNTIME_PLANT=strides plants a bug for broadcheck's tests: every operand read as if contiguous.
import './tiers.mjs';
import { createInterface } from 'node:readline';
import { createRequire } from 'node:module';
import { encodeModel, ELEM_TYPE } from './onnx_model.mjs';
import { onnxProgram, OPS } from './onnx_ops.mjs';
import { kindOf, isUnloadable } from './errors.mjs';
import { ARRAYS, ORT_TYPE, DTYPE_OF, parseExact, operandData, encodeValues } from './values.mjs';

// onnxruntime-node is CommonJS: require skips the scan of its text for exports that import() makes.
const require = createRequire(import.meta.url);
const ort = require('onnxruntime-node');
const VERSION = require('onnxruntime-node/package.json').version;
const PLANT = process.env.BC_ONNXRUNTIME_PLANT === 'strides';
const OPTIONS = {
  intraOpNumThreads: 1, interOpNumThreads: 1, logSeverityLevel: 4, executionProviders: ['cpu'], graphOptimizationLevel: 'disabled',
};
const RUN_OPTIONS = { logSeverityLevel: 4 };
ort.env.logLevel = 'fatal';

const sessions = new Map();  // model key -> Promise of {session} or {unloadable: message}
// BC_ONNXRUNTIME_TIMING=1: the time spent answering requests, creating sessions and in session.run, on stderr at exit.
// Each of answer, create and run: [count, wall ms, CPU ms] (CPU from process.cpuUsage: this process's threads).
const TIMING = Boolean(process.env.BC_ONNXRUNTIME_TIMING);
const timing = { cases: 0, answer: [0, 0, 0], create: [0, 0, 0], run: [0, 0, 0] };
const clock = () => (TIMING ? [performance.now(), process.cpuUsage()] : null);
function spent(what, start) {
  if (!start) return;
  const cpu = process.cpuUsage(start[1]);
  const t = timing[what];
  t[0]++; t[1] += performance.now() - start[0]; t[2] += (cpu.user + cpu.system) / 1000;
}

function session(program) {
  let s = sessions.get(program.key);
  if (!s) {
    const inputs = program.inputs.map((i) => ({ name: i.name, type: ELEM_TYPE[i.dtype] }));
    const bytes = encodeModel({ inputs, nodes: program.nodes, output: program.output });
    const t0 = clock();
    s = ort.InferenceSession.create(bytes, OPTIONS).then(
      (session) => ({ session }),
      (e) => ({ failed: String(e.message || e) }),
    ).finally(() => spent('create', t0));
    sessions.set(program.key, s);
  }
  return s;
}

function tensor(dtype, data, shape) { return new ort.Tensor(ORT_TYPE[dtype], data, shape); }

async function outcome(c, operands) {
  const program = onnxProgram(c);
  if (program.unsupported) return { status: 'unsupported', detail: program.unsupported };
  const s = await session(program);
  if (s.failed) {
    if (isUnloadable(s.failed)) return { status: 'unsupported', detail: 'ONNX Runtime: ' + s.failed };
    return { status: 'error', error: { kind: kindOf(c.op, s.failed), message: s.failed }, detail: 'model refused' };
  }
  const feeds = {};
  const data = operandData(operands, PLANT);
  operands.forEach((o, k) => { feeds['x' + k] = tensor(o.dtype, data[k], o.shape); });
  for (const [name, f] of Object.entries(program.feeds || {})) feeds[name] = tensor(f.dtype, f.data, f.shape);
  let result;
  const t0 = clock();
  try {
    result = (await s.session.run(feeds, RUN_OPTIONS))[program.output];
  } catch (e) {
    const message = String(e.message || e);
    return { status: 'error', error: { kind: kindOf(c.op, message), message } };
  } finally {
    spent('run', t0);
  }
  const dtype = DTYPE_OF[result.type];
  if (!dtype) return { status: 'unsupported', detail: 'ONNX Runtime returned a tensor of type ' + result.type };
  const out = { status: 'ok', shape: result.dims.map(Number), dtype };
  if (c.values !== undefined) out.values = encodeValues(dtype, result.data);
  return out;
}

// An outcome's JSON text; "values" is already JSON text (exact int64, -0.0).
function stringify(o) {
  if (o.values === undefined) return JSON.stringify(o);
  const { values, ...rest } = o;
  return JSON.stringify(rest).slice(0, -1) + ',"values":' + values + '}';
}

async function safeOutcome(c, operands) {
  timing.cases++;
  try {
    return stringify(await outcome(c, operands));
  } catch (e) {  // the adapter's own failure (not ONNX Runtime's answer): say so rather than guess an outcome
    process.stderr.write(String(e.stack || e) + '\n');
    return JSON.stringify({ status: 'unsupported', detail: 'adapter failure: ' + String(e.message || e) });
  }
}

async function answer(line) {
  const request = parseExact(line);
  if (request.batch) {
    const outcomes = [];
    for (const r of request.batch) outcomes.push(await safeOutcome(r.case, r.operands));
    return '{"id":' + request.id + ',"outcomes":[' + outcomes.join(',') + ']}';
  }
  return '{"id":' + request.id + ',"outcome":' + (await safeOutcome(request.case, request.operands)) + '}';
}

function handshake() {
  const capabilities = {
    ops: OPS, dtypes: Object.keys(ARRAYS), gradients: false, batch: true, out: false,
    layouts: ['contiguous', 'transposed', 'strided', 'expanded', 'overlapping'],
  };
  return JSON.stringify({ protocol: 1, name: 'ONNX Runtime', version: VERSION, capabilities });
}

async function main() {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  let first = true;
  for await (const line of lines) {
    if (first) {
      first = false;
      const hello = JSON.parse(line);
      if (hello.protocol !== 1) {
        process.stderr.write('onnxruntime adapter: protocol 1 only, got ' + JSON.stringify(hello.protocol) + '\n');
        process.exit(2);
      }
      process.stdout.write(handshake() + '\n');
      continue;
    }
    const t0 = clock();
    const text = await answer(line);
    spent('answer', t0);
    process.stdout.write(text + '\n');
  }
  if (TIMING) process.stderr.write('onnxruntime adapter timing: ' + JSON.stringify(timing) + '\n');
}

main();
