/**
 * `lectern export <resource> --format csv|ndjson > file`: a list (or a saved report's results) as
 * the server streams it with `format=` (docs/api.md, "Exports"), written as it arrives.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { createWriteStream } from 'node:fs';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { contentTypeCollections } from '@lectern/core';
import { UsageError } from '../usage-error.ts';

/** What `export` can read, by the name it is given on the command line, and the list's path. */
const LISTS: Readonly<Record<string, string>> = {
  users: '/api/v2/users/',
  groups: '/api/v2/groups/',
  'api-tokens': '/api/v2/api-tokens/',
  'content-items': '/api/v2/content-items/',
  ...Object.fromEntries(Object.values(contentTypeCollections).map((collection) => [collection, `/api/v2/${collection}/`])),
  channels: '/api/v2/channels/',
  assignments: '/api/v2/assignments/',
  events: '/api/v2/events/',
  'event-series': '/api/v2/event-series/',
  locations: '/api/v2/locations/',
  enrollments: '/api/v2/enrollments/',
  'saved-reports': '/api/v2/saved-reports/',
  webhooks: '/public_api/v2/webhooks/',
};
/** Lists under another resource, named with its id: `export report <id>`, `export group-members <id>`. */
const NESTED: Readonly<Record<string, (id: string) => string>> = {
  report: (id) => `/api/v2/saved-reports/${encodeURIComponent(id)}/results/`,
  'group-members': (id) => `/api/v2/groups/${encodeURIComponent(id)}/members/`,
};

function serverUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError('must be http or https');
  return url.origin + url.pathname.replace(/\/+$/, '');
}

function filterPair(value: string, previous: string[] = []): string[] {
  if (!/^[^=]+=/.test(value)) throw new InvalidArgumentError('expected key=value');
  return [...previous, value];
}

interface ExportFlags {
  url: string;
  token: string;
  format: 'csv' | 'ndjson';
  filter?: string[];
  search?: string;
  ordering?: string;
  output?: string;
}

/** The list's path and query: its filters, search and ordering, and the format. */
export function exportTarget(resource: string, id: string | undefined, flags: ExportFlags): string {
  const nested = NESTED[resource];
  let path: string;
  if (nested) {
    if (!id) throw new UsageError(`export ${resource} needs the id: lectern export ${resource} <id>`);
    path = nested(id);
  } else {
    const list = LISTS[resource];
    if (!list) throw new UsageError(`cannot export '${resource}'; one of: ${[...Object.keys(LISTS), ...Object.keys(NESTED)].join(', ')}`);
    if (id) throw new UsageError(`export ${resource} takes no id`);
    path = list;
  }
  const query = new URLSearchParams();
  for (const pair of flags.filter ?? []) {
    const at = pair.indexOf('=');
    query.append(pair.slice(0, at), pair.slice(at + 1));
  }
  if (flags.search !== undefined) query.set('search', flags.search);
  if (flags.ordering !== undefined) query.set('ordering', flags.ordering);
  query.set('format', flags.format);
  return `${path}?${query}`;
}

/** The server's error envelope as one line, or the status alone when the body is not one. */
async function failureOf(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const { error } = JSON.parse(text) as { error: { code: string; message: string } };
    return `HTTP ${response.status} ${error.code}: ${error.message}`;
  } catch {
    return `HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`;
  }
}

async function runExport(resource: string, id: string | undefined, flags: ExportFlags): Promise<void> {
  const target = exportTarget(resource, id, flags);
  let response: Response;
  try {
    response = await fetch(flags.url + target, { headers: { authorization: `Bearer ${flags.token}` } });
  } catch (error) {
    throw new Error(`cannot reach ${flags.url}: ${(error as Error).cause ?? (error as Error).message}`);
  }
  if (!response.ok || !response.body) throw new Error(await failureOf(response));
  const out: Writable = flags.output ? createWriteStream(flags.output) : process.stdout;
  const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  // a connection cut mid-export (the server failed after its first row) rejects here: the output is incomplete
  await pipeline(body, out, { end: flags.output !== undefined });
}

export function exportCommand(): Command {
  return new Command('export')
    .description('Export a list (or a saved report’s results) as CSV or NDJSON, streamed from the server')
    .argument('<resource>', `what to export: ${[...Object.keys(LISTS), ...Object.keys(NESTED).map((name) => `${name} <id>`)].join(', ')}`)
    .argument('[id]', 'the saved report or group, for `report` and `group-members`')
    .addOption(new Option('--format <format>', 'csv or ndjson').choices(['csv', 'ndjson']).makeOptionMandatory())
    .option('--filter <key=value>', "a list filter, as the list's query parameter (repeatable)", filterPair)
    .option('--search <text>', 'the list’s search')
    .option('--ordering <fields>', 'the list’s ordering, e.g. -created,name')
    .option('--output <file>', 'write to a file instead of standard output')
    .addOption(
      new Option('--url <url>', 'the server’s address, e.g. https://lectern.example.com')
        .env('LECTERN_URL')
        .argParser(serverUrl)
        .makeOptionMandatory(),
    )
    .addOption(new Option('--token <token>', 'API token').env('LECTERN_TOKEN').makeOptionMandatory())
    .action(async (resource: string, id: string | undefined, flags: ExportFlags) => runExport(resource, id, flags));
}
