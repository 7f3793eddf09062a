// A bug planted on purpose, for the test that a broadcheck run finds a faulty adapter, blames it and shrinks the
// case: with BC_TFJS_PLANTED=add-last-dim-3 in the environment, an add whose result's last dim is 3 comes back with
// 1 added. Without it, the result is tfjs's own.
const PLANT = process.env.BC_TFJS_PLANTED;
if (PLANT !== undefined && PLANT !== 'add-last-dim-3') {
  process.stderr.write('tfjs adapter: unknown BC_TFJS_PLANTED ' + PLANT + '\n');
  process.exit(2);
}

export function planted(tf, c, result) {
  if (PLANT === undefined || c.op !== 'add' || result.shape[result.shape.length - 1] !== 3) return result;
  return tf.add(result, tf.scalar(1, result.dtype));
}
