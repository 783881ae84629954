/**
 * A facilitators body checked against the users table (docs/events.md): every id must name a
 * user, and each user appears once in a list. Apart from facilitators.ts, whose schemas the
 * storage ports describe events with, so that reading users does not tie those ports in a loop.
 */
import type { Stores } from '../ports/storage.ts';
import { validationError } from '../shared/errors.ts';
import type { FacilitatorRole, FacilitatorsInput } from './facilitators.ts';

const inputFields: ReadonlyArray<readonly [keyof FacilitatorsInput, FacilitatorRole]> = [
  ['organizer_id', 'organizer'],
  ['co_organizer_ids', 'co_organizer'],
  ['presenter_ids', 'presenter'],
];

/**
 * Turns a facilitators body into stored entries: every id must name a user (422 on the field
 * listing the unknown ones, reported for all fields at once). `prefix` names the enclosing field.
 */
export async function resolveFacilitators(
  tx: Stores,
  input: FacilitatorsInput,
  prefix = '',
): Promise<Array<{ userId: number; role: FacilitatorRole }>> {
  const lists = inputFields.map(([field, role]) => {
    const value = input[field];
    const ids = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
    return { field: `${prefix}${field}`, role, ids };
  });
  const known = await tx.users.idsByPublicIds([...new Set(lists.flatMap((list) => list.ids))]);
  const errors: Record<string, string[]> = {};
  for (const { field, ids } of lists) {
    const unknown = ids.filter((id) => !known.has(id));
    const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
    if (unknown.length > 0) (errors[field] ??= []).push(`No user has these public_ids: ${unknown.join(', ')}.`);
    if (repeated.length > 0) (errors[field] ??= []).push(`Each user may appear only once; repeated: ${[...new Set(repeated)].join(', ')}.`);
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return lists.flatMap(({ role, ids }) => ids.map((id) => ({ userId: known.get(id)!, role })));
}
