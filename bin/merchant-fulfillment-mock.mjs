#!/usr/bin/env node
// npx merchant-fulfillment-mock --port 4010 [--host 127.0.0.1] [--token T] — see --help.
// A thin wrapper: the command itself is runCli in src/testing/cli.ts (built into dist/testing.js).
import { CliUsageError, runCli } from '../dist/testing.js';

try {
  const running = await runCli(process.argv.slice(2));
  if (running) {
    const stop = () => {
      running.close().catch(() => {});
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  }
} catch (error) {
  console.error(error instanceof CliUsageError ? error.message : error);
  process.exitCode = error instanceof CliUsageError ? 2 : 1;
}
