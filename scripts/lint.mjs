// `npm run lint`: ESLint and Prettier's check at once, each on its own core (each is one thread),
// instead of one after the other. Both keep a cache under node_modules/.cache, so a second run
// looks again only at the files that changed (a fresh clone has none and checks everything). Each
// tool's output is printed when it ends; the lint fails if either does.
import { spawn } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;
const tools = [
  ['eslint', ['--cache', '--cache-location', 'node_modules/.cache/eslint/', '.']],
  ['prettier', ['--check', '--cache', '--log-level', 'warn', '**/*.{ts,mjs,cjs,js}']],
];

const results = await Promise.all(
  tools.map(
    ([name, args]) =>
      new Promise((resolve) => {
        const child = spawn(bin(name), args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (chunk) => (output += chunk));
        child.stderr.on('data', (chunk) => (output += chunk));
        child.once('error', (error) => resolve({ name, code: 1, output: `${output}${error.message}\n` }));
        child.once('close', (code) => resolve({ name, code: code ?? 1, output }));
      }),
  ),
);
for (const { name, code, output } of results) {
  if (output.trim()) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
  console.log(code === 0 ? `${name}: no problems` : `${name} failed (exit ${code})`);
}
process.exit(results.some(({ code }) => code !== 0) ? 1 : 0);
