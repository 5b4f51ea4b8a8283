import { defineConfig } from 'tsup';

const entry = {
  index: 'src/index.ts',
  schemas: 'src/schemas/index.ts',
};

export default defineConfig([
  {
    // ESM: dependencies stay external and are resolved by the consumer.
    entry,
    format: ['esm'],
    dts: true,
    sourcemap: true,
    target: 'node22',
    treeshake: true,
  },
  {
    // CommonJS: ky ships ESM only, so it is bundled into the CJS build; zod ships CJS itself.
    entry,
    format: ['cjs'],
    dts: true,
    sourcemap: true,
    target: 'node22',
    noExternal: ['ky'],
    treeshake: true,
  },
  {
    // The testing kit is ESM only: msw (an optional peer) is ESM only, and the kit loads it with a
    // top-level await. CommonJS users load it with `await import('merchant-fulfillment/testing')`.
    entry: { testing: 'src/testing/index.ts' },
    format: ['esm'],
    dts: true,
    sourcemap: true,
    target: 'node22',
    treeshake: true,
  },
]);
