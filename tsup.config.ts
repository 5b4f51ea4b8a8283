import { defineConfig, type Options } from 'tsup';

const entry = {
  index: 'src/index.ts',
  schemas: 'src/schemas/index.ts',
};

/** What every build shares. Quiet unless it fails: `npm install` runs the build (prepare). */
const common: Options = {
  dts: true,
  sourcemap: true,
  target: 'node22',
  treeshake: true,
  silent: true,
};

export default defineConfig([
  // ESM: dependencies stay external and are resolved by the consumer.
  { ...common, entry, format: ['esm'] },
  // CommonJS: ky ships ESM only, so it is bundled into the CJS build; zod ships CJS itself.
  { ...common, entry, format: ['cjs'], noExternal: ['ky'] },
  // The testing kit is ESM only: msw (an optional peer) is ESM only, and the kit loads it with a
  // top-level await. CommonJS users load it with `await import('merchant-fulfillment/testing')`.
  { ...common, entry: { testing: 'src/testing/index.ts' }, format: ['esm'] },
]);
