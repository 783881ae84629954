/** The `lectern` command. */
import { Command, CommanderError } from 'commander';
import { LECTERN_VERSION } from '@lectern/core';
import { runBackgroundThread } from './background-thread.ts';
import { runReadThread } from '@lectern/storage';
import { backupCommand } from './commands/backup.ts';
import { consoleUrlCommand } from './commands/console-url.ts';
import { exportCommand } from './commands/export.ts';
import { importCommand } from './commands/import.ts';
import { migrateCommand } from './commands/migrate.ts';
import { migrateDataCommand } from './commands/migrate-data.ts';
import { openapiCommand } from './commands/openapi.ts';
import { serveCommand } from './commands/serve.ts';
import { tokensCommand } from './commands/tokens.ts';
import { usersCommand } from './commands/users.ts';
import { UsageError } from './usage-error.ts';

export function buildProgram(): Command {
  const program = new Command('lectern')
    .description('Lectern: a self-hosted Learning Platform API v2 server')
    // the Node version too: the single executable carries its own, which `node --version` does not show
    .version(`lectern ${LECTERN_VERSION} (node ${process.version})`, '-V, --version')
    // usage mistakes exit 2 (after commander prints its one-line error); help and version exit 0
    .exitOverride();
  program.addCommand(serveCommand().exitOverride());
  program.addCommand(migrateCommand().exitOverride());
  program.addCommand(migrateDataCommand().exitOverride());
  program.addCommand(backupCommand().exitOverride());
  const tokens = tokensCommand().exitOverride();
  for (const sub of tokens.commands) sub.exitOverride();
  program.addCommand(tokens);
  const users = usersCommand().exitOverride();
  for (const sub of users.commands) sub.exitOverride();
  program.addCommand(users);
  program.addCommand(importCommand().exitOverride());
  program.addCommand(exportCommand().exitOverride());
  program.addCommand(openapiCommand().exitOverride());
  program.addCommand(consoleUrlCommand().exitOverride());
  return program;
}

/**
 * A reader that stops early (`lectern tokens list | head -1`) closes the pipe: the rest of the
 * output has nowhere to go, which is what the reader asked for, so end quietly rather than with
 * Node's unhandled EPIPE stack trace.
 */
function endQuietlyWhenOutputCloses(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0);
      throw error;
    });
  }
}

export async function main(argv: string[]): Promise<void> {
  endQuietlyWhenOutputCloses();
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exit(error.exitCode === 0 ? 0 : 2);
    }
    if (error instanceof UsageError) {
      process.stderr.write(`error: ${error.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`error: ${(error as Error).message ?? String(error)}\n`);
    process.exit(1);
  }
}

// a server's background thread and its search threads load this script too (background-thread.ts,
// search-threads.ts)
if (!runBackgroundThread() && !runReadThread()) void main(process.argv);
