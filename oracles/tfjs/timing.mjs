// With BC_TFJS_TIMING=1, the adapter measures where its time goes and writes it to stderr when its input ends: wall
// time answering requests (from reading a line to writing its answer), the part of it inside tfjs's calls (making
// tensors, the op and its gradients, reading values back), and the process's CPU time. Off, it costs a branch.
const ON = process.env.BC_TFJS_TIMING === '1';
let library = 0;
let answering = 0;
let cases = 0;

// f(), counting its time as tfjs's own.
export function inLibrary(f) {
  if (!ON) return f();
  const start = performance.now();
  try { return f(); } finally { library += performance.now() - start; }
}

// f() (async) answering a request line, counting its time as answering.
export async function answering_(f) {
  if (!ON) return f();
  const start = performance.now();
  try { return await f(); } finally { answering += performance.now() - start; }
}

export function counted() { cases += 1; }

export function report(backend) {
  if (!ON) return;
  const cpu = process.cpuUsage();
  const perCase = (ms) => (cases === 0 ? 0 : (1000 * ms) / cases).toFixed(1);
  process.stderr.write(`tfjs-${backend} timing: ${cases} cases, answering ${answering.toFixed(0)} ms (${perCase(answering)} us/case), ` +
    `in tfjs ${library.toFixed(0)} ms (${perCase(library)} us/case, ${(100 * library / Math.max(answering, 1e-9)).toFixed(0)}%), ` +
    `process CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms\n`);
}
