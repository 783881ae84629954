/**
 * One import through the server: the file is uploaded once, as the body of `POST /imports/`; the
 * run then follows the import's progress (`GET /imports/<id>/`) and writes the server's report
 * (`GET /imports/<id>/report/`) to the report file.
 */
import type { FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ImportKindName } from '@lectern/core';
import { sleepUnless, StopError, type ApiAnswer, type ImportApiClient } from './api-client.ts';
import { nextPollDelay, type ProgressSeen } from './poll-delay.ts';
import type { Progress } from './progress.ts';

export interface ImportSummary {
  total: number;
  created: number;
  existing: number;
  updated: number;
  valid: number;
  failed: number;
  /** why the run stopped before the import finished, if it did */
  stopped: string | null;
}

export interface ServerImport {
  kind: ImportKindName;
  file: string;
  client: ImportApiClient;
  dryRun: boolean;
  update: boolean;
  report: FileHandle;
  /** created once the server has counted the rows */
  progress: (total: number) => Progress;
  /** aborted on the first SIGINT/SIGTERM: the import is cancelled and still followed to its end */
  cancel: AbortSignal;
  /** aborted on the second: the run stops waiting */
  stopWaiting: AbortSignal;
}

/** The upload was refused before anything was stored (a bad header, not CSV, too large…): exit 2. */
export class RefusedUpload extends Error {}

interface ImportView {
  id: string;
  status: string;
  total_rows: number | null;
  processed: number;
  created: number;
  existing: number;
  updated: number;
  valid: number;
  failed: number;
  error: { code: string; message: string } | null;
}

const finished = (status: string) => status === 'completed' || status === 'failed' || status === 'cancelled';

function refusal(answer: ApiAnswer): string {
  const error = answer.body?.error;
  const details = [...(error?.non_field_errors ?? []), ...Object.entries(error?.field_errors ?? {}).map(([f, m]) => `${f}: ${String(m)}`)];
  return `${answer.status} ${error?.code ?? ''}: ${details.length > 0 ? details.join(' ') : (error?.message ?? 'the server refused the file')}`.trim();
}

export async function runServerImport(run: ServerImport): Promise<ImportSummary> {
  const query = `kind=${run.kind}${run.dryRun ? '&dry_run=true' : ''}${run.update ? '&update=true' : ''}`;
  const answer = await run.client.upload(`/api/v2/imports/?${query}`, run.file, {
    'content-type': 'text/csv',
    'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(basename(run.file))}`,
  });
  if (answer.status !== 202) throw new RefusedUpload(refusal(answer));
  let view = answer.body as ImportView;
  const progress = run.progress(view.total_rows ?? 0);
  let shown = 0;
  let polls: Array<ProgressSeen | undefined> = [undefined, undefined];
  let stopped: string | null = null;
  let cancelled = false;
  try {
    for (let attempt = 0; !finished(view.status); attempt++) {
      if (run.cancel.aborted && !cancelled) {
        cancelled = true;
        progress.note('interrupted: cancelling the import (again to stop waiting)');
        const answer = await run.client.post(`/api/v2/imports/${view.id}/cancel/`, {});
        if (answer.status === 200) view = answer.body;
        continue;
      }
      if (run.stopWaiting.aborted) {
        stopped = `the run stopped waiting for import ${view.id}; its report is on the server`;
        break;
      }
      const delay = nextPollDelay(attempt, view.total_rows ?? 0, polls[0], polls[1]);
      await sleepUnless(delay, run.cancel.aborted ? run.stopWaiting : run.cancel);
      const polled = await run.client.get(`/api/v2/imports/${view.id}/`);
      if (polled.status !== 200) throw new StopError(`reading import ${view.id} answered ${polled.status}`);
      view = polled.body;
      polls = [polls[1], { at: performance.now(), processed: view.processed }];
      progress.advance(view.processed - shown);
      shown = view.processed;
    }
  } catch (error) {
    if (!(error instanceof StopError)) throw error;
    stopped = error.message;
  } finally {
    progress.stop();
  }
  if (view.status === 'failed') stopped ??= `the import failed: ${view.error?.message ?? 'no reason given'}`;
  if (view.status === 'cancelled') stopped ??= 'the import was cancelled; rows not processed are reported as cancelled';
  const status = await run.client.download(`/api/v2/imports/${view.id}/report/`, (chunk) => run.report.write(chunk));
  if (status !== 200) stopped ??= `reading the report answered ${status}`;
  return {
    total: view.total_rows ?? 0,
    created: view.created,
    existing: view.existing,
    updated: view.updated,
    valid: view.valid,
    failed: view.failed + (view.total_rows ?? 0) - view.processed,
    stopped,
  };
}
