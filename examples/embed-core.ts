/**
 * Embedding Lectern in your own Node application, without HTTP.
 *
 *   in this repository:   node --conditions=source --import tsx examples/embed-core.ts
 *   in your own project:   npm install @lectern/core @lectern/storage; compile with tsc, run with node
 *
 * Service inputs are typed from the same zod schemas that validate HTTP bodies, so a misspelt
 * field is a compile error here (and still a `validation_error` at run time for untyped callers).
 * A create that may return an existing record answers `{ <resource>, created }`; every other
 * create answers the resource itself.
 *
 * The core is a library of services over a storage adapter. Calls made with `lectern.context()`
 * act as the application itself; calls made with `await lectern.contextFor(user)` act as that user,
 * with their role's permissions, exactly as the HTTP API does. Everything returned has the API's
 * JSON shape.
 */
import { createLectern, isLecternError } from '@lectern/core';
import { openSqliteStorage } from '@lectern/storage';

// a file path instead of ':memory:' keeps the data
const lectern = createLectern({ storage: await openSqliteStorage({ file: ':memory:' }) });
const app = lectern.context();

// Users and a group, as the application
const ada = await lectern.users.create(app, { email: 'ada@example.com', name: 'Ada Lovelace', role: 'organizer' });
const alan = await lectern.users.create(app, { email: 'alan@example.com', name: 'Alan Turing', manager: ada.public_id });
const pioneers = await lectern.groups.create(app, { name: 'Pioneers' });
await lectern.groups.changeMembership(app, pioneers.public_id, 'member', 'add', { member_ids: [ada.public_id, alan.public_id] });

// Lists take the same filters as the HTTP query string, and return the same envelope
const reports = await lectern.users.list(app, { manager: ada.public_id, ordering: 'name' });

// Acting as a user (by the user or their public id), with their role's permissions: a learner may
// not create users
const asAlan = await lectern.contextFor(alan);
let refusal = '';
try {
  await lectern.users.create(asAlan, { email: 'eve@example.com', name: 'Eve' });
} catch (error) {
  if (!isLecternError(error)) throw error;
  refusal = `${error.code}: ${error.message}`;
}

// Validation errors carry field errors, as the API's 422 does
let invalid: Record<string, string[]> | undefined;
try {
  await lectern.users.create(app, { email: 'ada@example.com', name: 'Ada again' });
} catch (error) {
  if (isLecternError(error)) invalid = error.fieldErrors;
}

const group = await lectern.groups.get(app, pioneers.public_id);
console.log(
  JSON.stringify({
    group: { name: group.name, member_count: group.member_count },
    reports: reports.data.map((user) => user.name),
    total: reports.meta.total_count,
    refusal,
    invalid,
  }),
);
await lectern.close();
