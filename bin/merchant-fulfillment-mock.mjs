#!/usr/bin/env node
// npx merchant-fulfillment-mock --port 4010 [--host 127.0.0.1] [--token T] [--state FILE] — see --help.
// npx merchant-fulfillment-mock <command> ... (advance, fulfil, reset, state, ...) drives a running mock.
// A thin wrapper: the command itself is runCli (the server) and runCommand (the subcommands) in
// src/testing/faces/ (built into dist/testing.js).
import * as kit from '../dist/testing.js';

const { CliUsageError, runCli } = kit;
const argv = process.argv.slice(2);

if (argv.length > 0 && kit.COMMANDS?.includes(argv[0])) {
  // A subcommand: one call to a running mock, then exit with its status.
  process.exitCode = await kit.runCommand(argv);
} else {
  try {
    const running = await runCli(argv);
    if (running) {
      // The first SIGINT / SIGTERM closes the mock (its server, webhook deliveries in flight and
      // timers) and makes the final save of --state: the process then exits by itself with status 0.
      // A second signal exits at once.
      let stopping = false;
      const stop = (signal) => {
        if (stopping) process.exit(signal === 'SIGINT' ? 130 : 143);
        stopping = true;
        running.close().catch((error) => {
          console.error(error instanceof Error ? error.message : error);
          process.exitCode = 1;
        });
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    }
  } catch (error) {
    // Usage mistakes, unusable state or seed files and servers that cannot listen (port in use)
    // get a message, not a stack trace.
    console.error(error instanceof CliUsageError ? error.message : error);
    process.exitCode = error instanceof CliUsageError ? 2 : 1;
  }
}
