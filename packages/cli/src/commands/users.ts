import { Command, Option } from 'commander';
import { roles, type Lectern, type Role, type User } from '@lectern/core';
import { dbOption, withLectern } from '../database-command.ts';
import { UsageError } from '../usage-error.ts';

/** The user with this email, or a usage error naming it. */
async function userByEmail(lectern: Lectern, email: string) {
  const user = await lectern.users.findByEmail(email);
  if (!user) throw new UsageError(`no user has the email ${email}`);
  return user;
}

const describe = (user: User) =>
  `${user.public_id}  ${user.email}  ${user.role}  ${user.is_active ? 'active' : 'deactivated'}  '${user.name}'`;

function print(user: User, json: boolean | undefined, sentence: string): void {
  process.stdout.write(json ? `${JSON.stringify(user)}\n` : `${sentence}\n${describe(user)}\n`);
}

interface CreateFlags {
  db: string;
  email: string;
  name: string;
  role: Role;
  employeeId?: string;
  json?: boolean;
}

async function createUser(flags: CreateFlags): Promise<void> {
  await withLectern(flags.db, async (lectern) => {
    // the command line acts as the system actor, as the tokens commands do
    const user = await lectern.users.create(lectern.context(), {
      email: flags.email,
      name: flags.name,
      role: flags.role,
      ...(flags.employeeId !== undefined ? { employee_id: flags.employeeId } : {}),
    });
    print(user, flags.json, `Created ${user.role} user ${user.email}.`);
  });
}

async function listUsers(flags: { db: string; role?: Role; all?: boolean; json?: boolean }): Promise<void> {
  await withLectern(flags.db, async (lectern) => {
    const params: Record<string, string> = { page_size: '100', ordering: 'email' };
    if (flags.role) params.role = flags.role;
    if (!flags.all) params.is_active = 'true';
    const users: User[] = [];
    for (let page = 1; ; page++) {
      const result = await lectern.users.list(lectern.context(), { ...params, page: String(page) });
      users.push(...result.data);
      if (page * result.meta.page_size >= result.meta.total_count) break;
    }
    if (flags.json) process.stdout.write(`${JSON.stringify(users)}\n`);
    else if (users.length === 0) process.stdout.write(flags.all ? 'No users.\n' : 'No active users.\n');
    else for (const user of users) process.stdout.write(`${describe(user)}\n`);
  });
}

async function deactivateUser(email: string, flags: { db: string; json?: boolean }): Promise<void> {
  await withLectern(flags.db, async (lectern) => {
    const current = await userByEmail(lectern, email);
    if (!current.view.is_active) throw new UsageError(`${current.view.email} is already deactivated`);
    const user = await lectern.users.update(lectern.context(), current.view.public_id, { is_active: false });
    print(user, flags.json, `Deactivated ${user.email}: their tokens no longer authenticate.`);
  });
}

async function setRole(email: string, role: string, flags: { db: string; json?: boolean }): Promise<void> {
  if (!(roles as readonly string[]).includes(role)) throw new UsageError(`role must be one of ${roles.join(', ')}, not '${role}'`);
  await withLectern(flags.db, async (lectern) => {
    const current = await userByEmail(lectern, email);
    const user = await lectern.users.update(lectern.context(), current.view.public_id, { role: role as Role });
    const sentence =
      current.view.role === user.role
        ? `${user.email} already has the role ${user.role}.`
        : `${user.email} is now ${user.role} (was ${current.view.role}).`;
    print(user, flags.json, sentence);
  });
}

export function usersCommand(): Command {
  const users = new Command('users').description('Create, list and deactivate users and change their roles (works while the server runs)');
  users
    .command('create')
    .description('Create a user')
    .addOption(dbOption())
    .requiredOption('--email <email>', 'the user’s email, unique among users')
    .requiredOption('--name <name>', 'the user’s name')
    .addOption(new Option('--role <role>', 'the user’s role').choices(roles).makeOptionMandatory())
    .option('--employee-id <id>', 'an identifier from another system')
    .option('--json', 'print the user as JSON')
    .action(createUser);
  users
    .command('list')
    .description('List active users by email')
    .addOption(dbOption())
    .addOption(new Option('--role <role>', 'only users with this role').choices(roles))
    .option('--all', 'deactivated users too')
    .option('--json', 'print JSON')
    .action(listUsers);
  users
    .command('deactivate')
    .description('Deactivate a user: their tokens stop authenticating, their records stay')
    .argument('<email>', 'the user’s email')
    .addOption(dbOption())
    .option('--json', 'print the user as JSON')
    .action(deactivateUser);
  users
    .command('set-role')
    .description('Change a user’s role')
    .argument('<email>', 'the user’s email')
    .argument('<role>', roles.join('|'))
    .addOption(dbOption())
    .option('--json', 'print the user as JSON')
    .action(setRole);
  return users;
}
