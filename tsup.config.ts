import { defineConfig, type Options } from 'tsup';

const entry = {
  index: 'src/index.ts',
  schemas: 'src/schemas/index.ts',
  redis: 'src/redis/index.ts',
};

/**
 * What every build shares. Quiet unless it fails. No source maps: they were 2.1 MB of the package's
 * 3.6 MB unpacked, and the published code is readable as built (not minified), so a stack trace
 * already points at a line one can read. `scripts/pack-check.mjs` keeps them out.
 */
const common: Options = {
  sourcemap: false,
  target: 'node22',
  silent: true,
};

export default defineConfig([
  // ESM: one module per entry point, plus the chunks they share and the chunks imported on first
  // use (validation, the compiler, the schemas of each namespace). Few files, so that importing
  // is cheap; every top-level statement is free of side effects (`"sideEffects": false` holds and
  // the few calls are marked pure), so a bundler drops what an app does not use.
  { ...common, entry, outDir: 'dist/esm', format: ['esm'], splitting: true },
  // The ESM declarations: one file per entry point.
  { ...common, entry, format: ['esm'], dts: { only: true } },
  // CommonJS: one bundle per entry point. ky ships ESM only, so it is bundled in; zod ships CJS.
  { ...common, entry, format: ['cjs'], dts: true, treeshake: true, noExternal: ['ky'] },
  // The testing kit is ESM only: msw (an optional peer) is ESM only, and the kit loads it with a
  // top-level await. CommonJS users load it with `await import('merchant-fulfillment/testing')`.
  { ...common, entry: { testing: 'src/testing/index.ts' }, format: ['esm'], dts: true, treeshake: true },
]);
