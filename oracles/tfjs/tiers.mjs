// Imported first by the adapter: V8's optimizing compiler (TurboFan) off for this process. An adapter lives for one
// run's share of cases (a few thousand), too short for optimized code to repay compiling it: on a default run's
// requests replayed into one adapter, TurboFan's compiling was a quarter of the process's CPU, and the adapter used
// 35% less CPU without it (docs/notes/voter-cost.md). Values are the same: a tier changes how fast code runs, not
// what it computes. BC_NODE_OPT=1 leaves V8's default tiers on (to measure both).
import v8 from 'node:v8';

if (process.env.BC_NODE_OPT !== '1') v8.setFlagsFromString('--no-opt');
