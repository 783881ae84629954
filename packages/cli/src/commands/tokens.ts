import { Command, Option } from 'commander';
import { roles, type Role } from '@lectern/core';
import { dbOption, withLectern } from '../database-command.ts';
import { commaList, isoDatetime } from '../options.ts';
import { UsageError } from '../usage-error.ts';

interface CreateFlags {
  db: string;
  email: string;
  name: string;
  role?: Role;
  scopes?: string[];
  expiresAt?: string;
  json?: boolean;
}

async function createToken(flags: CreateFlags): Promise<void> {
  await withLectern(flags.db, async (lectern) => {
    const ctx = lectern.context();
    let user = await lectern.users.findByEmail(flags.email);
    let createdUser = false;
    // a role is a deliberate choice: never default one for a new user, never ignore one that disagrees
    if (!user) {
      if (!flags.role) throw new UsageError(`no user has the email ${flags.email}; pass --role (${roles.join('|')}) to create one`);
      const view = await lectern.users.create(ctx, {
        email: flags.email,
        name: flags.email.split('@')[0] || flags.email,
        role: flags.role,
      });
      user = (await lectern.users.findByEmail(view.email))!;
      createdUser = true;
    } else if (flags.role && flags.role !== user.view.role) {
      throw new UsageError(
        `${user.view.email} is already a user with role ${user.view.role}, not ${flags.role}; change a role with 'lectern users set-role ${user.view.email} <role>'`,
      );
    }
    // the command line acts as the system actor: its audit entries name no actor
    const issued = await lectern.tokens.issue(
      {
        userId: user.id,
        role: user.view.role,
        name: flags.name,
        scopes: flags.scopes,
        expiresAt: flags.expiresAt ?? null,
      },
      undefined,
      ctx,
    );
    if (flags.json) {
      process.stdout.write(`${JSON.stringify({ ...issued, created_user: createdUser })}\n`);
      return;
    }
    process.stdout.write(
      [
        createdUser ? `Created ${user.view.role} user ${user.view.email}.` : `User ${user.view.email} (${user.view.role}).`,
        `Token '${issued.name}' (${issued.public_id}), scopes: ${issued.scopes.join(' ')}${issued.expires_at ? `, expires ${issued.expires_at}` : ''}.`,
        'The token is shown only once:',
        issued.token,
        '',
      ].join('\n'),
    );
  });
}

async function listTokens(flags: { db: string; json?: boolean; user?: string }): Promise<void> {
  await withLectern(flags.db, async (lectern) => {
    const params: Record<string, string> = { page_size: '100' };
    if (flags.user) {
      const user = await lectern.users.findByEmail(flags.user);
      if (!user) throw new Error(`no user with email ${flags.user}`);
      params.user = user.view.public_id;
    }
    const tokens = [];
    for (let page = 1; ; page++) {
      const result = await lectern.tokens.list(lectern.context(), { ...params, page: String(page) });
      tokens.push(...result.data);
      if (page * result.meta.page_size >= result.meta.total_count) break;
    }
    if (flags.json) {
      process.stdout.write(`${JSON.stringify(tokens)}\n`);
      return;
    }
    if (tokens.length === 0) {
      process.stdout.write('No active tokens.\n');
      return;
    }
    for (const token of tokens) {
      process.stdout.write(
        `${token.public_id}  ${token.token_prefix}…  ${token.user.email}  '${token.name}'  expires ${token.expires_at ?? 'never'}  last used ${token.last_used_at ?? 'never'}\n`,
      );
    }
  });
}

async function revokeToken(id: string, flags: { db: string }): Promise<void> {
  await withLectern(flags.db, async (lectern) => {
    await lectern.tokens.revoke(lectern.context(), id);
    process.stdout.write(`Revoked token ${id}.\n`);
  });
}

export function tokensCommand(): Command {
  const tokens = new Command('tokens').description('Create, list and revoke API tokens (works while the server runs)');
  tokens
    .command('create')
    .description('Create an API token, creating the user if the email is new; the token is the last line of output')
    .addOption(dbOption())
    .requiredOption('--email <email>', 'email of the user the token belongs to')
    .requiredOption('--name <label>', 'label of the token')
    .addOption(new Option('--role <role>', 'role of the user; required when the email is new, must match when it is not').choices(roles))
    .addOption(new Option('--scopes <a,b,...>', 'scopes (default: every scope of the role)').argParser(commaList))
    .addOption(new Option('--expires-at <datetime>', 'expiry (default: never)').argParser(isoDatetime))
    .option('--json', 'print a JSON object (with `token`) instead of text')
    .action(createToken);
  tokens
    .command('list')
    .description('List active tokens')
    .addOption(dbOption())
    .option('--user <email>', 'only this user’s tokens')
    .option('--json', 'print JSON')
    .action(listTokens);
  tokens
    .command('revoke')
    .description('Revoke a token by its public id')
    .argument('<id>', 'token public_id')
    .addOption(dbOption())
    .action(revokeToken);
  return tokens;
}
