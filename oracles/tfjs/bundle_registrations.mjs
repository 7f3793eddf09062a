// Run by `npm ci` (postinstall): tfjs-core registers its gradients and its chained ops (x.reshape(), which Prod's
// gradient calls) only in its ES-module build (dist/*.js, whose imports name files without ".js"), which Node cannot
// load as it ships; the full @tensorflow/tfjs package imports both. esbuild bundles the two registrations into one
// CommonJS file in node_modules/.broadcheck/, which the adapter requires after core: they land in core's global
// registries and Tensor class, and a start costs one file, not ~600 modules.
import { buildSync } from 'esbuild';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
buildSync({
  stdin: {
    contents: "import './register_all_gradients.js';\nimport './public/chained_ops/register_all_chained_ops.js';\n",
    resolveDir: here('./node_modules/@tensorflow/tfjs-core/dist/'),
  },
  outfile: here('./node_modules/.broadcheck/core_registrations.cjs'),
  bundle: true, format: 'cjs', platform: 'node', packages: 'external', logLevel: 'warning',
});
