/**
 * A page that is a list at its own address (`/console/groups`) and one record's detail page one
 * segment further (`/console/groups/<id>`), so a record can be bookmarked, shared and reopened.
 */
import type { ComponentType } from 'preact';
import { place, subPaths } from '../router.ts';

export function listOrDetail(List: ComponentType, Detail: ComponentType<{ segments: string[] }>): ComponentType {
  return function ListOrDetail() {
    const segments = subPaths(place.value.path);
    // two component types, so switching between them starts the other one fresh
    return segments.length ? <Detail segments={segments} /> : <List />;
  };
}
