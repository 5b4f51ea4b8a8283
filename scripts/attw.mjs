#!/usr/bin/env node
/**
 * Are the types wrong? `attw` on the packed package, every entry point, every resolution mode.
 * Packs with `--ignore-scripts`, as the other checks do: `test:dist` builds dist/ before them.
 * One rule is ignored, for one documented reason: `./testing` is ESM only (msw is, and the kit has
 * a top-level await), so `require` resolves it to ESM (`cjs-resolves-to-esm`); the consumer type
 * tests check that `.` and `./schemas` resolve to CommonJS declarations from CommonJS.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packPackage, ROOT } from './lib/package.mjs';

const dir = mkdtempSync(path.join(os.tmpdir(), 'mf-attw-'));
try {
  const tarball = packPackage(dir);
  const bin = path.join(ROOT, 'node_modules', '.bin', 'attw');
  execFileSync(bin, [tarball, '--ignore-rules', 'cjs-resolves-to-esm'], { stdio: 'inherit' });
} catch (error) {
  // attw's own failure is already on the terminal (stdio inherited); anything else is printed here.
  if (typeof error?.status !== 'number') console.error(error);
  process.exitCode = typeof error?.status === 'number' ? error.status : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
