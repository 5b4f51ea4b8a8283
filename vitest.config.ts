import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    // Examples import the package by name, as merchants do; tests run them against the sources.
    alias: [
      { find: /^merchant-fulfillment$/, replacement: src('./src/index.ts') },
      { find: /^merchant-fulfillment\/testing$/, replacement: src('./src/testing/index.ts') },
      { find: /^merchant-fulfillment\/schemas$/, replacement: src('./src/schemas/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/helpers/preload.ts'],
    // The type tests (*.test-d.ts) are compiled by `npm run typecheck` too (tsconfig.json includes
    // test/), so the quick loop (`npm run test:unit`) turns this off; a plain `vitest` keeps it.
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'] },
    testTimeout: 20_000,
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine. The
    // tests mostly wait (sockets, timers, child processes, Redis), so two workers there take about
    // two thirds of the time; larger machines keep the default.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      reporter: ['text-summary'],
      // `npm run test:coverage` (part of `npm run test:ecosystem`, which CI runs) fails below these.
      thresholds: { statements: 95, lines: 95, functions: 95, branches: 90 },
    },
  },
});
