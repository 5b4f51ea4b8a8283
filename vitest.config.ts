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
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'] },
    testTimeout: 20_000,
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      reporter: ['text-summary'],
    },
  },
});
