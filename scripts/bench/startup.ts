/**
 * Cold start: the single executable (`dist/lectern`, built here when missing or older than the
 * bundle) started on a database, timed from spawn to the first 200 from `GET /readyz` (which
 * reads the database). The first start creates the schema and the bootstrap admin; the next five
 * start on that existing database, as a restart or a deploy does, and their median is the figure.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { benchDatabase } from './_database.ts';
import { report } from './_report.ts';

const root = new URL('../../', import.meta.url).pathname;
const executable = `${root}dist/lectern`;
const bundle = `${root}dist/lectern.cjs`;
if (!existsSync(executable) || !existsSync(bundle) || statSync(executable).mtimeMs < statSync(bundle).mtimeMs) {
  spawnSync(process.execPath, [`${root}build.mjs`, '--sea'], { stdio: 'inherit' });
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** Milliseconds from spawning the executable to its first 200 on /readyz; the server is stopped after. */
async function coldStart(target: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(executable, ['serve', '--db', target, '--port', String(port)], { env: {}, stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited ${child.exitCode} before answering`);
      const status = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (response) => response.status,
        () => 0,
      );
      if (status === 200) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const database = await benchDatabase('startup');
try {
  report('first start on an empty database (schema + bootstrap admin)', await coldStart(database.target), 'ms');
  const starts: number[] = [];
  for (let run = 0; run < 5; run++) starts.push(await coldStart(database.target));
  starts.sort((a, b) => a - b);
  report('single executable: start → first 200 (median of 5)', starts[2]!, 'ms', starts.map((ms) => `${ms.toFixed(0)} ms`).join(', '), {
    below: 200,
  });
} finally {
  await database.dispose();
}
