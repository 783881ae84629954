/**
 * Checks every response the black-box suite receives against the served OpenAPI document: the
 * status must be described for the matched operation, the described headers present, and the
 * JSON body valid against the described schema. A mismatch throws, naming route, status and what
 * differs, so the description cannot drift from the server.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { errorSchema, resolveRef as resolve, schemaValidators } from './openapi-validators.ts';
// server.ts imports this module too; lecternBin is only read when the first response arrives
import { lecternBin } from './server.ts';

type Json = Record<string, any>;
interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  spec: Json;
}

// The document of the built server, read once: every test server runs the same bundle, and
// test/http/openapi.test.ts checks that what a server serves is exactly this document. Reading
// it from a server instead would tie the hook to that server's state (shutdown, locks). The test
// runner writes it once for the run (scripts/run-fixtures.mjs); a file run on its own asks the CLI.
let loaded: { doc: Json; operations: Operation[]; validatorOf: ReturnType<typeof schemaValidators> } | undefined;
function load() {
  if (loaded) return loaded;
  const written = process.env.LECTERN_TEST_OPENAPI_DOCUMENT;
  const doc = JSON.parse(
    written
      ? readFileSync(written, 'utf8')
      : execFileSync(process.execPath, [lecternBin, 'openapi'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }),
  ) as Json;
  const operations = Object.entries(doc.paths as Json).flatMap(([template, ops]) =>
    Object.entries(ops as Json).map(([method, spec]) => ({
      method: method.toUpperCase(),
      template,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
      spec: spec as Json,
    })),
  );
  return (loaded = { doc, operations, validatorOf: schemaValidators(doc) });
}

const literalWeight = (template: string) => template.replace(/\{[^}]+\}/g, '').length;

export function checkConformance(method: string, path: string, status: number, headers: Headers, body: unknown): void {
  const { doc, operations } = load();
  const pathname = new URL(path, 'http://x').pathname;
  const candidates = operations
    .filter((op) => op.pattern.test(pathname))
    .sort((a, b) => literalWeight(b.template) - literalWeight(a.template));
  // the router takes the most literal path that matches; its other methods answer 405
  const operation = candidates.find((op) => op.template === candidates[0]!.template && op.method === method);
  const where = `${method} ${operation?.template ?? pathname} → ${status}`;
  if (!operation) {
    // unknown paths and methods answer the error envelope (404/405); anything else is undescribed
    if (
      (status === 404 && candidates.length === 0) ||
      (status === 405 && candidates.length > 0) ||
      method === 'HEAD' ||
      method === 'OPTIONS'
    ) {
      if (body !== undefined) validateBody(errorSchema, body, where);
      return;
    }
    throw new Error(`OpenAPI mismatch: ${where}: no operation describes this route`);
  }
  const response = resolve(doc, operation.spec.responses[String(status)] ?? operation.spec.responses.default);
  if (!response) {
    throw new Error(
      `OpenAPI mismatch: ${where}: status ${status} is not described (described: ${Object.keys(operation.spec.responses).join(', ')})`,
    );
  }
  for (const name of Object.keys(response.headers ?? {})) {
    if (!headers.has(name)) throw new Error(`OpenAPI mismatch: ${where}: header ${name} is described but missing`);
  }
  const schema = response.content?.['application/json']?.schema;
  if (schema && body === undefined) throw new Error(`OpenAPI mismatch: ${where}: a JSON body is described but none was sent`);
  if (!schema && body !== undefined) throw new Error(`OpenAPI mismatch: ${where}: a body was sent but none is described`);
  if (schema) validateBody(schema, body, where);
}

function validateBody(schema: Json, body: unknown, where: string): void {
  const validator = load().validatorOf(schema);
  if (!validator(body)) {
    const errors = (validator.errors ?? [])
      .slice(0, 5)
      .map((e) => `${e.instancePath || '(body)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
    throw new Error(`OpenAPI mismatch: ${where}: body does not match the description: ${errors.join('; ')}`);
  }
}
