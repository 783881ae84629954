/** The `lectern` command. */
import { Command, CommanderError } from 'commander';
import { openapiCommand } from './commands/openapi.ts';
import { serveCommand } from './commands/serve.ts';
import { tokensCommand } from './commands/tokens.ts';

export function buildProgram(): Command {
  const program = new Command('lectern')
    .description('Lectern: a self-hosted Learning Platform API v2 server')
    .version('0.1.0')
    // usage mistakes exit 2 (after commander prints its one-line error); help and version exit 0
    .exitOverride();
  program.addCommand(serveCommand().exitOverride());
  const tokens = tokensCommand().exitOverride();
  for (const sub of tokens.commands) sub.exitOverride();
  program.addCommand(tokens);
  program.addCommand(openapiCommand().exitOverride());
  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exit(error.exitCode === 0 ? 0 : 2);
    }
    process.stderr.write(`error: ${(error as Error).message ?? String(error)}\n`);
    process.exit(1);
  }
}

void main(process.argv);
