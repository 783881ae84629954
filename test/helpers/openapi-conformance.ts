/**
 * Checks every response the black-box suite receives against the served OpenAPI document: the
 * status must be described for the matched operation, the described headers present, and the
 * JSON body valid against the described schema. A mismatch throws, naming route, status and what
 * differs, so the description cannot drift from the server.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
// server.ts imports this module too; lecternBin is only read when the first response arrives
import { lecternBin } from './server.ts';

type Json = Record<string, any>;
interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  spec: Json;
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
const validators = new WeakMap<object, ValidateFunction>();

// The document of the built server, read once: every test server runs the same bundle, and
// test/http/openapi.test.ts checks that what a server serves is exactly this document. Reading
// it from a server instead would tie the hook to that server's state (shutdown, locks). The test
// runner writes it once for the run (scripts/run-fixtures.mjs); a file run on its own asks the CLI.
let loaded: { doc: Json; operations: Operation[] } | undefined;
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
  return (loaded = { doc, operations });
}

const errorSchema = { $ref: '#/components/schemas/Error' };

const literalWeight = (template: string) => template.replace(/\{[^}]+\}/g, '').length;

function resolve(doc: Json, node: Json): Json {
  if (typeof node?.$ref !== 'string') return node;
  return node.$ref
    .slice(2)
    .split('/')
    .reduce((at: Json, key: string) => at[key], doc);
}

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
      if (body !== undefined) validateBody(doc, errorSchema, body, where);
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
  if (schema) validateBody(doc, schema, body, where);
}

/** The `$id` the document's components are added to ajv under, once. */
const COMPONENTS_ID = 'lectern-openapi-components';

/**
 * The validator of a response schema, compiled once per schema. The document's components are
 * added to ajv once, and the schema's references point into them (`…#/components/schemas/X`), so
 * a component is compiled once for the file; compiled beside a copy of the components each time,
 * every response schema traversed and compiled them all again (0.5–0.9 CPU-seconds a test file).
 */
function validatorOf(doc: Json, schema: Json): ValidateFunction {
  let validator = validators.get(schema);
  if (validator) return validator;
  if (!ajv.getSchema(COMPONENTS_ID)) ajv.addSchema({ $id: COMPONENTS_ID, components: doc.components });
  const pointed = JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/components/', `"$ref":"${COMPONENTS_ID}#/components/`));
  validator = ajv.compile(pointed);
  validators.set(schema, validator);
  return validator;
}

function validateBody(doc: Json, schema: Json, body: unknown, where: string): void {
  const validator = validatorOf(doc, schema);
  if (!validator(body)) {
    const errors = (validator.errors ?? [])
      .slice(0, 5)
      .map((e) => `${e.instancePath || '(body)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
    throw new Error(`OpenAPI mismatch: ${where}: body does not match the description: ${errors.join('; ')}`);
  }
}
