// Module hooks that let Node load tfjs-core's ES-module build (dist/*.js) as it ships: its imports name files
// without the ".js" a bundler adds, and its package does not say "type": "module". Only files under tfjs-core's
// dist/ are touched, and only so that core's gradient registrations (dist/register_all_gradients.js) can be imported.
const CORE_DIST = '/node_modules/@tensorflow/tfjs-core/dist/';

export async function resolve(specifier, context, next) {
  const inCore = context.parentURL !== undefined && context.parentURL.includes(CORE_DIST);
  if (inCore && specifier.startsWith('.') && !specifier.endsWith('.js')) return next(specifier + '.js', context);
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (url.includes(CORE_DIST) && url.endsWith('.js') && !url.endsWith('/tf-core.node.js'))
    return next(url, { ...context, format: 'module' });
  return next(url, context);
}
