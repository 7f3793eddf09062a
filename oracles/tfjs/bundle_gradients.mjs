// Run by `npm ci` (postinstall): tfjs-core registers its gradients only in its ES-module build (dist/*.js, whose
// imports name files without ".js"), which Node cannot load as it ships. esbuild bundles that build's
// register_all_gradients.js into one CommonJS file in node_modules/.broadcheck/, which the adapter requires after
// core: the registrations land in core's one global registry, and a start costs one file, not ~600 modules.
import { buildSync } from 'esbuild';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
buildSync({
  entryPoints: [here('./node_modules/@tensorflow/tfjs-core/dist/register_all_gradients.js')],
  outfile: here('./node_modules/.broadcheck/register_all_gradients.cjs'),
  bundle: true, format: 'cjs', platform: 'node', packages: 'external', logLevel: 'warning',
});
