/**
 * Fetches one page of any list route. The OpenAPI document declares only page, page_size and
 * ordering on lists, not each list's filters, so the query is passed through as the URL has it;
 * the item type still comes from the schema.
 */
import { api, unwrap } from './client.ts';
import type { ListItem, ListPath, PageMeta } from './types.ts';

export interface Page<T> {
  data: T[];
  meta: PageMeta;
}

type Get = (
  path: string,
  init: { params: { path?: Record<string, string>; query: Record<string, string> } },
) => Promise<{
  data?: unknown;
  error?: unknown;
  response: Response;
}>;

export function fetchPage<P extends ListPath>(
  path: P,
  query: Record<string, string>,
  pathParams?: Record<string, string>,
): Promise<Page<ListItem<P>>> {
  const get = api.GET as unknown as Get;
  return unwrap(get(path, { params: { query, ...(pathParams ? { path: pathParams } : {}) } })) as Promise<Page<ListItem<P>>>;
}

/** The address that downloads every row of a list as CSV (the server streams it; the token goes as a header, so the console fetches it). */
export async function downloadCsv(path: string, query: Record<string, string>, filename: string): Promise<void> {
  const get = api.GET as unknown as (path: string, init: { params: { query: Record<string, string> }; parseAs: 'blob' }) => ReturnType<Get>;
  const blob = (await unwrap(get(path, { params: { query: { ...query, format: 'csv' } }, parseAs: 'blob' }))) as Blob;
  saveBlob(blob, filename);
}

export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

type Send = (
  path: string,
  init: { params?: { path: Record<string, string> }; body: unknown },
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/**
 * A write to a route chosen at run time (a content type's own collection): the body is built from
 * the schema's types by the caller; only the path is not known to the compiler here.
 */
export function sendTo<T>(method: 'POST' | 'PATCH', path: string, body: unknown, pathParams?: Record<string, string>): Promise<T> {
  const send = (method === 'POST' ? api.POST : api.PATCH) as unknown as Send;
  return unwrap(send(path, { body, ...(pathParams ? { params: { path: pathParams } } : {}) })) as Promise<T>;
}
