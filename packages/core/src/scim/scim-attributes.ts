/**
 * `attributes` and `excludedAttributes` (RFC 7644 §3.4.2.5, §3.9): which attributes of a resource
 * an answer carries. `id`, `schemas` and `meta` are always returned (RFC 7643 marks them so), and
 * an excluded or unknown attribute is simply left out, as the RFC says. Pure.
 */
import { SCIM_ENTERPRISE_USER, SCIM_GROUP, SCIM_USER } from './scim-schemas.ts';

/** Attribute paths in lower case; an extension attribute's first segment is its schema's URN. */
export interface AttributeSelection {
  /** null: every attribute returned by default */
  include: string[][] | null;
  exclude: string[][];
}

const ALWAYS = new Set(['id', 'schemas', 'meta']);
const CORE_SCHEMAS = [SCIM_USER, SCIM_GROUP].map((urn) => `${urn.toLowerCase()}:`);
const EXTENSION = SCIM_ENTERPRISE_USER.toLowerCase();

/** One path as sent (`name.givenName`, `urn:…:User:userName`, `urn:…:enterprise:2.0:User:manager.value`). */
export function attributePath(text: string): string[] {
  const lower = text.trim().toLowerCase();
  if (lower === EXTENSION) return [EXTENSION];
  if (lower.startsWith(`${EXTENSION}:`)) return [EXTENSION, ...lower.slice(EXTENSION.length + 1).split('.')];
  const core = CORE_SCHEMAS.find((prefix) => lower.startsWith(prefix));
  return (core ? lower.slice(core.length) : lower).split('.');
}

const pathsOf = (list: readonly string[] | undefined) =>
  (list ?? [])
    .flatMap((item) => item.split(','))
    .filter((item) => item.trim() !== '')
    .map(attributePath);

/** From the query's comma-separated lists, or a search request's arrays; `attributes` wins when both are sent. */
export function attributeSelection(attributes: readonly string[] | undefined, excluded: readonly string[] | undefined): AttributeSelection {
  const include = pathsOf(attributes);
  return { include: include.length > 0 ? include : null, exclude: include.length > 0 ? [] : pathsOf(excluded) };
}

/** Whether the answer carries the top-level attribute `name` (or part of it): lets a read skip loading it. */
export function returns(selection: AttributeSelection, name: string): boolean {
  const key = name.toLowerCase();
  if (selection.include) return selection.include.some((path) => path[0] === key);
  return !selection.exclude.some((path) => path.length === 1 && path[0] === key);
}

type Json = Record<string, unknown>;

const keyOf = (object: Json, lower: string) => Object.keys(object).find((key) => key.toLowerCase() === lower);

function copyPath(from: Json, to: Json, path: readonly string[]): void {
  const key = keyOf(from, path[0]!);
  if (key === undefined) return;
  const value = from[key];
  if (path.length === 1) {
    to[key] = value;
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    const target = Array.isArray(to[key]) ? (to[key] as Json[]) : value.map(() => ({}));
    value.forEach((element, index) => {
      if (element !== null && typeof element === 'object') copyPath(element as Json, target[index]!, path.slice(1));
    });
    to[key] = target;
    return;
  }
  const target = (to[key] as Json | undefined) ?? {};
  copyPath(value as Json, target, path.slice(1));
  to[key] = target;
}

function dropPath(object: Json, path: readonly string[]): void {
  const key = keyOf(object, path[0]!);
  if (key === undefined) return;
  if (path.length === 1) {
    delete object[key];
    return;
  }
  const value = object[key];
  const inner = Array.isArray(value) ? value : [value];
  for (const element of inner) if (element !== null && typeof element === 'object') dropPath(element as Json, path.slice(1));
}

/** The resource as the selection asks; the resource itself is left as it was. */
export function project<T extends object>(resource: T, selection: AttributeSelection): T {
  if (!selection.include && selection.exclude.length === 0) return resource;
  const source = resource as Json;
  if (selection.include) {
    const projected: Json = {};
    for (const key of Object.keys(source)) if (ALWAYS.has(key.toLowerCase())) projected[key] = source[key];
    for (const path of selection.include) if (!ALWAYS.has(path[0]!)) copyPath(source, projected, path);
    return projected as T;
  }
  const projected = structuredClone(source);
  for (const path of selection.exclude) if (!ALWAYS.has(path[0]!)) dropPath(projected, path);
  return projected as T;
}
