/** `lectern import users|assignments|enrollments FILE.csv`: a client of the public API (docs/imports.md). */
import { Command, InvalidArgumentError, Option } from 'commander';
import { resolve } from 'node:path';
import { ImportApiClient } from '../import/api-client.ts';
import { HeaderError } from '../import/columns.ts';
import { FileError, scanFile } from '../import/csv-source.ts';
import { IMPORT_KINDS, importKinds, type ImportKindName } from '../import/import-kinds.ts';
import { createProgress } from '../import/progress.ts';
import { ReportWriter } from '../import/report-writer.ts';
import { runImport, type ImportSummary } from '../import/run-import.ts';
import { UsageError } from '../usage-error.ts';

interface ImportFlags {
  url: string;
  token: string;
  report?: string;
  dryRun?: boolean;
  update?: boolean;
  json?: boolean;
  progress: boolean;
}

/** Emails counted in the first pass; past this many the user list is read whole anyway. */
const EMAIL_SCAN_CAP = 5000;

function serverUrl(value: string): string {
  if (!/^https?:\/\/[^/\s]+/.test(value))
    throw new InvalidArgumentError('expected the server’s http(s) address, e.g. http://localhost:8080.');
  return value;
}

function apiToken(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('expected an API token.');
  return value.trim();
}

/** Refuses the run before anything is sent: exit 2. */
function refuse(message: string): never {
  throw new UsageError(message);
}

async function importFile(kindName: ImportKindName, file: string, flags: ImportFlags): Promise<void> {
  const kind = IMPORT_KINDS[kindName];
  const reportPath = flags.report ?? `${file}.report.csv`;
  if (resolve(reportPath) === resolve(file)) refuse('the report would overwrite the input file; choose another --report');
  let scan;
  try {
    scan = await scanFile(file, kind, EMAIL_SCAN_CAP);
  } catch (error) {
    if (error instanceof HeaderError) refuse(`${file}: ${error.message}; nothing was sent`);
    if (error instanceof FileError) refuse(`${error.message}; nothing was sent`);
    throw error;
  }
  let report: ReportWriter;
  try {
    report = await ReportWriter.open(reportPath, scan.columns.header);
  } catch (error) {
    refuse(`cannot write the report ${reportPath}: ${(error as Error).message}; nothing was sent`);
  }

  const progress = createProgress(flags.progress, scan.total);
  const stopSending = new AbortController();
  const stopWaiting = new AbortController();
  const onSignal = () => {
    if (stopSending.signal.aborted) stopWaiting.abort();
    else {
      stopSending.abort();
      progress.note('interrupted: finishing the report (again to stop waiting for sent jobs)');
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let summary: ImportSummary;
  try {
    const client = new ImportApiClient(flags.url, flags.token, {
      signal: stopWaiting.signal,
      onWait: (reason, ms) => progress.note(`${reason}: waiting ${(ms / 1000).toFixed(1)} s`),
    });
    summary = await runImport({
      kind,
      file,
      scan,
      report,
      client,
      dryRun: flags.dryRun ?? false,
      update: flags.update ?? false,
      progress,
      stopSending: stopSending.signal,
      stopWaiting: stopWaiting.signal,
    });
  } finally {
    progress.stop();
    await report.close();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  if (summary.stopped) process.stderr.write(`error: the import stopped: ${summary.stopped}\n`);
  else if (stopSending.signal.aborted) process.stderr.write('error: the import was interrupted\n');
  const counts = {
    total: summary.total,
    created: summary.created,
    existing: summary.existing,
    updated: summary.updated,
    failed: summary.failed,
  };
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ ...counts, ...(flags.dryRun ? { valid: summary.valid } : {}), report: reportPath })}\n`);
  } else if (flags.dryRun) {
    process.stdout.write(
      `Checked ${summary.total} rows (dry run, nothing written): ${summary.valid} valid, ${summary.failed} failed. Report: ${reportPath}\n`,
    );
  } else {
    process.stdout.write(
      `Imported ${summary.total} rows: ${summary.created} created, ${summary.existing} existing, ${summary.updated} updated, ${summary.failed} failed. Report: ${reportPath}\n`,
    );
  }
  process.exitCode = summary.failed > 0 ? 1 : 0;
}

export function importCommand(): Command {
  return new Command('import')
    .description('Import users, assignments or enrollments from a CSV file through the API; writes a per-row report')
    .addArgument(new Command().createArgument('<kind>', 'what the file holds').choices(importKinds))
    .argument('<file>', 'CSV file with a header row')
    .addOption(
      new Option('--url <url>', 'the server’s address, e.g. https://lectern.example.com')
        .env('LECTERN_URL')
        .argParser(serverUrl)
        .makeOptionMandatory(),
    )
    .addOption(new Option('--token <token>', 'API token').env('LECTERN_TOKEN').argParser(apiToken).makeOptionMandatory())
    .option('--report <file>', 'report CSV (default: <file>.report.csv)')
    .option('--dry-run', 'check every row (and resolve user emails) without writing anything')
    .option('--update', 'users: PATCH an existing user whose name, role or employee_id differ')
    .option('--json', 'print the summary as one JSON object')
    .option('--no-progress', 'no progress bar (there is none off a terminal either)')
    .action(importFile);
}
