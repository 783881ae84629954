import { Command, Option } from 'commander';
import { isLecternError } from '@lectern/core';
import { openLectern } from '../open-lectern.ts';
import { UsageError } from '../usage-error.ts';

interface ConsoleUrlFlags {
  db: string;
  email: string;
  baseUrl: string;
}

/** The address the link starts with: an http(s) URL, without a path of its own beyond `/`. */
function baseUrlOf(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--base-url ${value} is not a URL (e.g. http://lectern.example.org:8080)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--base-url must be an http:// or https:// URL`);
  return url.origin;
}

/**
 * `lectern console-url`: whoever can open the database can sign a user in to the console, as they
 * could mint a token; the link is a code usable once within 10 minutes, so the token it gives
 * never passes through a terminal, a chat or a shell history.
 */
async function consoleUrl(flags: ConsoleUrlFlags): Promise<void> {
  const base = baseUrlOf(flags.baseUrl);
  const lectern = await openLectern(flags.db);
  try {
    const user = await lectern.users.findByEmail(flags.email);
    if (!user) throw new UsageError(`no user has the email ${flags.email}`);
    const link = await lectern.signInLinks.issue(user);
    process.stdout.write(`${base}/console/sign-in?code=${link.code}\n`);
    process.stderr.write(`Signs in ${user.view.email} (${user.view.role}) once, until ${link.expires_at}.\n`);
  } catch (error) {
    if (!isLecternError(error)) throw error;
    process.stderr.write(`error: ${error.message}\n`);
    process.exitCode = 1;
  } finally {
    await lectern.close();
  }
}

export function consoleUrlCommand(): Command {
  return new Command('console-url')
    .description('print a one-time link that signs a user in to the web console (valid 10 minutes, usable once)')
    .addOption(
      new Option('--db <file|url>', 'SQLite database file (must exist) or postgres:// URL').env('LECTERN_DB').default('./lectern.db'),
    )
    .requiredOption('--email <email>', "the user to sign in (the console shows what that user's role allows)")
    .addOption(
      new Option('--base-url <url>', 'the address browsers reach this server at (as serve --public-url)')
        .env('LECTERN_PUBLIC_URL')
        .default('http://127.0.0.1:8080'),
    )
    .action(consoleUrl);
}
