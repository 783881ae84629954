/** Pure rules of content items; the service supplies the facts. */
import { isLearner, type Actor } from '../auth/actor.ts';
import type { ContainmentEdge, ContentViewer } from '../ports/content-store.ts';
import { fieldError } from '../shared/errors.ts';
import type { ContentMediaStatus, TagOperation } from './content-item.ts';

/** Only role `user` is limited by hidden, archived and access groups; admins and organizers curate, so see all. */
export function viewerFor(actor: Actor): ContentViewer {
  return isLearner(actor) ? { memberId: actor.userId } : { memberId: null };
}

/** Tag names match exactly (docs/content.md), so normalising only trims (the schema did) and drops repeats. */
export const distinctTagNames = (names: readonly string[]): string[] => [...new Set(names)];

/** The tag set after an add, remove (names not attached are ignored) or replace. */
export function nextTagSet(current: readonly string[], op: TagOperation, names: readonly string[]): string[] {
  const wanted = distinctTagNames(names);
  if (op === 'replace') return wanted;
  if (op === 'add') return distinctTagNames([...current, ...wanted]);
  const removed = new Set(wanted);
  return current.filter((name) => !removed.has(name));
}

export function sameTagSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((name) => right.has(name));
}

/** A container lists each item once: a repeat is almost certainly a client bug, not an intent. */
export function assertDistinctIds(field: string, ids: readonly string[]): void {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const id of ids) (seen.has(id) ? repeated : seen).add(id);
  if (repeated.size > 0) throw fieldError(field, `Each id may appear only once; repeated: ${[...repeated].join(', ')}.`);
}

/**
 * A container may not hold itself, directly or through nested containers: assigning a track walks
 * its items recursively, and a cycle would never end. `edges` are the links below `itemIds`.
 */
export function assertNoContainmentCycle(parentId: number, itemIds: readonly number[], edges: readonly ContainmentEdge[]): void {
  if (itemIds.includes(parentId)) throw fieldError('items', 'An item cannot contain itself.');
  const children = new Map<number, number[]>();
  for (const edge of edges) children.set(edge.parentId, [...(children.get(edge.parentId) ?? []), edge.itemId]);
  const seen = new Set<number>();
  const pending = [...itemIds];
  while (pending.length > 0) {
    const id = pending.pop()!;
    if (id === parentId) throw fieldError('items', 'These items would create a cycle: one of them already contains this item.');
    if (seen.has(id)) continue;
    seen.add(id);
    pending.push(...(children.get(id) ?? []));
  }
}

/** A scheduled track may not end before it starts; either bound may be open. */
export function assertScheduleOrder(startsOn: string | null, endsOn: string | null): void {
  if (startsOn !== null && endsOn !== null && endsOn < startsOn) throw fieldError('ends_on', 'Must be on or after starts_on.');
}

/** Attaching a media asset starts its processing; detaching it leaves the video without media. */
export const mediaStatusFor = (mediaAssetId: string | null): ContentMediaStatus => (mediaAssetId === null ? 'none' : 'processing');
