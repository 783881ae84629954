/**
 * The validators of the OpenAPI document's schemas: response bodies for the conformance check
 * (test/helpers/openapi-conformance.ts), response and request bodies for the contract fuzzer.
 * Compiling them cost each black-box file 0.2–0.4 CPU-seconds, the same schemas every file, so the
 * test runner compiles every one once per run into a module (ajv's standalone code, written by
 * scripts/run-fixtures.mjs) that each file loads; a file run on its own, or a schema the module
 * lacks, compiles on first use as before. Either way the same ajv options and the same schemas.
 */
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import type * as AjvModule from 'ajv/dist/2020.js';
import { createRequire } from 'node:module';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

type Json = Record<string, any>;

// ajv is loaded only when something is compiled here: a file with the run's module needs none of it
const require = createRequire(import.meta.url);

/** The `$id` the document's components are added to ajv under, once. */
const COMPONENTS_ID = 'lectern-openapi-components';

/** The schema every error envelope is checked against. */
export const errorSchema = { $ref: '#/components/schemas/Error' };

function newAjv(doc: Json, standalone: boolean): Ajv2020 {
  const { Ajv2020 } = require('ajv/dist/2020.js') as typeof AjvModule;
  const addFormats = require('ajv-formats') as (ajv: Ajv2020) => void;
  const ajv = new Ajv2020({ strict: false, allErrors: true, ...(standalone ? { code: { source: true } } : {}) });
  addFormats(ajv);
  // The document's components are added once, and a schema's references point into them
  // (`…#/components/schemas/X`), so a component is compiled once; compiled beside a copy of the
  // components each time, every response schema traversed and compiled them all again.
  ajv.addSchema({ $id: COMPONENTS_ID, components: doc.components });
  return ajv;
}

const pointed = (schema: Json): Json =>
  JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/components/', `"$ref":"${COMPONENTS_ID}#/components/`));

/** What a schema is known by in the run's module: its text, the same for the same schema in any document. */
const keyOf = (schema: Json) => JSON.stringify(schema);

/** `node`, or what its `$ref` (and that one's, in turn) points at in `doc`. */
export function resolveRef(doc: Json, node: Json): Json {
  let current = node;
  while (typeof current?.$ref === 'string') {
    current = (current.$ref as string)
      .slice(2)
      .split('/')
      .reduce((at: Json, key: string) => at[key], doc);
  }
  return current;
}

/** Every JSON response body schema the document describes, and the error envelope's. */
function responseSchemas(doc: Json): Json[] {
  const found = new Map<string, Json>([[keyOf(errorSchema), errorSchema]]);
  for (const operations of Object.values(doc.paths as Json))
    for (const operation of Object.values(operations as Json))
      for (const response of Object.values((operation as Json).responses ?? {})) {
        const schema = resolveRef(doc, response as Json)?.content?.['application/json']?.schema;
        if (schema) found.set(keyOf(schema), schema);
      }
  return [...found.values()];
}

/**
 * Writes `file`, a CommonJS module of a validator for each response schema of `doc`, and beside it
 * `file`.json naming each schema's export. The module's `require`s of ajv's runtime are written as
 * absolute paths: the file lives in the run's temporary folder, far from node_modules.
 */
export function writeResponseValidators(doc: Json, file: string): void {
  const ajv = newAjv(doc, true);
  const exports: Record<string, string> = {};
  const index: Record<string, string> = {};
  responseSchemas(doc).forEach((schema, i) => {
    const id = `lectern-response-${i}`;
    ajv.addSchema({ ...pointed(schema), $id: id });
    exports[`v${i}`] = id;
    index[keyOf(schema)] = `v${i}`;
  });
  const standaloneCode = (require('ajv/dist/standalone/index.js') as { default: (ajv: Ajv2020, refs: Record<string, string>) => string })
    .default;
  const code = standaloneCode(ajv, exports).replace(
    /require\("([^"]+)"\)/g,
    (_, specifier: string) => `require(${JSON.stringify(require.resolve(specifier))})`,
  );
  writeFileSync(file, code);
  writeFileSync(`${file}.json`, JSON.stringify(index));
}

/**
 * Answers the validator of a schema of `doc` (a response's, a request body's), made once per
 * schema: the run's module has every response schema; any other is compiled on first use.
 */
export function schemaValidators(doc: Json): (schema: Json) => ValidateFunction {
  const made = new WeakMap<object, ValidateFunction>();
  // the run's module, when scripts/run-fixtures.mjs wrote one for this document
  const file = process.env.LECTERN_TEST_OPENAPI_VALIDATORS;
  const written =
    file && existsSync(file)
      ? {
          module: require(file) as Record<string, ValidateFunction>,
          index: JSON.parse(readFileSync(`${file}.json`, 'utf8')) as Record<string, string>,
        }
      : undefined;
  let ajv: Ajv2020 | undefined;
  return (schema) => {
    let validator = made.get(schema);
    if (validator) return validator;
    const name = written?.index[keyOf(schema)];
    validator = name ? written!.module[name]! : (ajv ??= newAjv(doc, false)).compile(pointed(schema));
    made.set(schema, validator);
    return validator;
  };
}
