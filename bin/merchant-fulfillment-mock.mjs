#!/usr/bin/env node
// npx merchant-fulfillment-mock --port 4010 [--host 127.0.0.1] [--token T] — see --help.
// A thin wrapper: the command itself is runCli in src/testing/faces/cli.ts (built into dist/testing.js).
import { CliUsageError, runCli } from '../dist/testing.js';

try {
  const running = await runCli(process.argv.slice(2));
  if (running) {
    // The first SIGINT / SIGTERM closes the mock (its server, webhook deliveries in flight and
    // timers): the process then exits by itself with status 0. A second signal exits at once.
    let stopping = false;
    const stop = (signal) => {
      if (stopping) process.exit(signal === 'SIGINT' ? 130 : 143);
      stopping = true;
      running.close().catch((error) => {
        console.error(error);
        process.exitCode = 1;
      });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  }
} catch (error) {
  // Usage mistakes and servers that cannot listen (port in use) get a message, not a stack trace.
  console.error(error instanceof CliUsageError ? error.message : error);
  process.exitCode = error instanceof CliUsageError ? 2 : 1;
}
