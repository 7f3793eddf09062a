// Imported first by the adapter: V8's optimizing compiler (TurboFan) off for this process. An adapter lives for one
// run's share of cases, too short for optimized JavaScript to repay compiling it; ONNX Runtime's own work is native
// and unaffected. On a default run's requests replayed into one adapter it used about 10% less CPU
// (docs/notes/voter-cost.md). A tier changes how fast code runs, not what it computes. BC_NODE_OPT=1 leaves V8's
// default tiers on (to measure both).
import v8 from 'node:v8';

if (process.env.BC_NODE_OPT !== '1') v8.setFlagsFromString('--no-opt');
