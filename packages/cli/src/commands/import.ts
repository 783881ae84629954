/** `lectern import users|assignments|enrollments FILE.csv`: a client of the server's imports (docs/imports.md). */
import { rm } from 'node:fs/promises';
import { Command, InvalidArgumentError, Option } from 'commander';
import { importKinds, type ImportKindName } from '@lectern/core';
import { ImportApiClient, StopError } from '../import/api-client.ts';
import { FileError, offlineUsersDryRun } from '../import/offline-dry-run.ts';
import { createProgress } from '../import/progress.ts';
import { openReportFile, sameFile, type ReportFile } from '../import/report-file.ts';
import { RefusedUpload, runServerImport, type ImportSummary } from '../import/run-import.ts';
import { UsageError } from '../usage-error.ts';

interface ImportFlags {
  url?: string;
  token?: string;
  report?: string;
  dryRun?: boolean;
  update?: boolean;
  json?: boolean;
  force?: boolean;
  progress: boolean;
}

function serverUrl(value: string): string {
  if (!/^https?:\/\/[^/\s]+/.test(value))
    throw new InvalidArgumentError('expected the server’s http(s) address, e.g. http://localhost:8080.');
  return value;
}

function apiToken(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('expected an API token.');
  return value.trim();
}

/** Refuses the run before anything is imported: exit 2. */
function refuse(message: string): never {
  throw new UsageError(message);
}

async function importFile(kind: ImportKindName, file: string, flags: ImportFlags): Promise<void> {
  const offline = flags.url === undefined && kind === 'users' && flags.dryRun === true;
  if (!offline && (flags.url === undefined || flags.token === undefined)) {
    refuse(`--url and --token are required (only a dry run of a users file works without a server)`);
  }
  const wanted = flags.report ?? `${file}.report.csv`;
  if (sameFile(wanted, file)) refuse('the report would overwrite the input file; choose another --report');
  let report: ReportFile;
  try {
    report = await openReportFile(wanted, flags.force ?? false);
  } catch (error) {
    refuse(`cannot write the report ${wanted}: ${(error as Error).message}; nothing was sent`);
  }

  const cancel = new AbortController();
  const stopWaiting = new AbortController();
  const onSignal = () => (cancel.signal.aborted ? stopWaiting.abort() : cancel.abort());
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let summary: ImportSummary;
  try {
    if (offline) summary = await offlineUsersDryRun(file, report.handle);
    else {
      const progressOf = (total: number) => createProgress(flags.progress, total);
      const client = new ImportApiClient(flags.url!, flags.token!, { signal: stopWaiting.signal });
      summary = await runServerImport({
        kind,
        file,
        client,
        dryRun: flags.dryRun ?? false,
        update: flags.update ?? false,
        report: report.handle,
        progress: progressOf,
        cancel: cancel.signal,
        stopWaiting: stopWaiting.signal,
      });
    }
  } catch (error) {
    await report.handle.close();
    // a refused file leaves no report behind (nothing was imported)
    if (error instanceof RefusedUpload || error instanceof FileError) await rm(report.path, { force: true });
    if (error instanceof RefusedUpload) refuse(`${file}: the server refused the file: ${error.message}; nothing was imported`);
    if (error instanceof FileError) refuse(`${file}: ${error.message}; nothing was imported`);
    if (error instanceof StopError) {
      process.stderr.write(`error: ${error.message}\n`);
      process.exitCode = 1;
      return;
    }
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  await report.handle.close();

  if (summary.stopped) process.stderr.write(`error: ${summary.stopped}\n`);
  const counts = {
    total: summary.total,
    created: summary.created,
    existing: summary.existing,
    updated: summary.updated,
    failed: summary.failed,
  };
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ ...counts, ...(flags.dryRun ? { valid: summary.valid } : {}), report: report.path })}\n`);
  } else if (flags.dryRun) {
    process.stdout.write(
      `Checked ${summary.total} rows (dry run, nothing written): ${summary.valid} valid, ${summary.failed} failed. Report: ${report.path}\n`,
    );
  } else {
    process.stdout.write(
      `Imported ${summary.total} rows: ${summary.created} created, ${summary.existing} existing, ${summary.updated} updated, ${summary.failed} failed. Report: ${report.path}\n`,
    );
  }
  process.exitCode = summary.failed > 0 || summary.stopped ? 1 : 0;
}

export function importCommand(): Command {
  return new Command('import')
    .description('Import users, assignments or enrollments from a CSV file: uploads it to the server once and writes its per-row report')
    .addArgument(new Command().createArgument('<kind>', 'what the file holds').choices(importKinds))
    .argument('<file>', 'CSV file with a header row')
    .addOption(new Option('--url <url>', 'the server’s address, e.g. https://lectern.example.com').env('LECTERN_URL').argParser(serverUrl))
    .addOption(new Option('--token <token>', 'API token').env('LECTERN_TOKEN').argParser(apiToken))
    .option('--report <file>', 'report CSV (default: <file>.report.csv; an existing one is kept and -1, -2… added)')
    .option('--force', 'overwrite an existing report file')
    .option('--dry-run', 'check every row without writing anything (a users file needs no server)')
    .option('--update', 'users: change an existing user whose name, role or employee_id differ')
    .option('--json', 'print the summary as one JSON object')
    .option('--no-progress', 'no progress bar (there is none off a terminal either)')
    .action(importFile);
}
