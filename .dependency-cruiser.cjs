/**
 * The layering rules of src/ (see ARCHITECTURE.md), checked by `npm run lint:deps` in `npm test`.
 * Type-only imports count too: a rule holds for the type graph as well as for the code.
 */
const NODE_ONLY = '^(node:)?(http|https|net|tls|fs|fs/promises|child_process|worker_threads|readline)$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'No import cycle anywhere in src/, types included.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'core-is-the-base',
      severity: 'error',
      comment:
        'core/ imports nothing of the SDK above it: not the schemas, resources, webhooks, testing kit, client or entry points.',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/(core/|version\\.ts$)' },
    },
    {
      name: 'schemas-import-zod-only',
      severity: 'error',
      comment: 'schemas/ describe the wire with zod and nothing else.',
      from: { path: '^src/schemas/' },
      to: { pathNot: '^(src/schemas/|node_modules/zod/)' },
    },
    {
      name: 'resources-use-core-and-schemas',
      severity: 'error',
      comment:
        'resources/ reach the API through the request surface of core/ and describe data with schemas/ (and the webhooks resource binds the webhook functions).',
      from: { path: '^src/resources/' },
      to: { path: '^src/', pathNot: '^src/(core|schemas|resources|webhooks)/' },
    },
    {
      name: 'webhooks-stand-alone',
      severity: 'error',
      comment: 'webhooks/ use core/ and schemas/ only: importing verifyWebhook never pulls in the client.',
      from: { path: '^src/webhooks/' },
      to: { path: '^src/', pathNot: '^src/(core|schemas|webhooks)/' },
    },
    {
      name: 'redis-stands-alone',
      severity: 'error',
      comment:
        'redis/ is its own entry point: it imports nothing of the SDK at run time (types of core/ only), no Redis client and no node:*.',
      from: { path: '^src/redis/' },
      to: { path: '^src/', pathNot: '^src/(redis|core)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'webhooks-never-compile',
      severity: 'error',
      comment:
        'The webhook functions check their payload without zod: nothing they import reaches core/validation.ts (zod and its compiler) or core/lazy.ts, so an app importing only verifyWebhook does not bundle them.',
      from: { path: '^src/webhooks/' },
      to: { path: '^src/core/(validation|lazy)\\.ts$', reachable: true },
    },
    {
      name: 'zod-mini-only',
      severity: 'error',
      comment:
        'src/ uses zod/mini (and the English locale of zod/locales): classic zod cannot be tree-shaken and builds its methods on every schema at import.',
      from: { path: '^src/' },
      to: { path: '^node_modules/zod/', pathNot: '^node_modules/zod/(mini|locales)/' },
    },
    {
      name: 'sdk-never-imports-the-kit',
      severity: 'error',
      comment: 'The testing kit builds on the SDK, never the reverse.',
      from: { path: '^src/', pathNot: '^src/testing/' },
      to: { path: '^src/testing/' },
    },
    {
      name: 'sdk-runs-without-node',
      severity: 'error',
      comment:
        'No static node:* import outside the testing kit: the SDK runs on Node, Bun, Deno and edge runtimes alike.',
      from: { path: '^src/', pathNot: '^src/testing/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'kit-domain-below-the-faces',
      severity: 'error',
      comment:
        "The kit's domain builds on the engine and knows nothing of the faces or the composition root.",
      from: { path: '^src/testing/domain/' },
      to: { path: '^src/testing/', pathNot: '^src/testing/(domain|engine)/' },
    },
    {
      name: 'kit-engine-knows-no-kit',
      severity: 'error',
      comment:
        "The kit's engine is generic machinery: it knows nothing of the domain, the faces or the composition root.",
      from: { path: '^src/testing/engine/' },
      to: { path: '^src/testing/', pathNot: '^src/testing/engine/' },
    },
    {
      name: 'kit-core-runs-anywhere',
      severity: 'error',
      comment:
        "The kit's engine and domain import neither msw nor a Node-only module, so `api.fetch` bundles for edge runtimes.",
      from: { path: '^src/testing/(engine|domain)/' },
      to: { path: ['^node_modules/msw/', NODE_ONLY] },
    },
    {
      name: 'kit-core-no-node-builtins',
      severity: 'error',
      comment: "The kit's engine and domain use no Node built-in module at all.",
      from: { path: '^src/testing/(engine|domain)/' },
      to: { dependencyTypes: ['core'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.d.ts'],
    },
  },
};
