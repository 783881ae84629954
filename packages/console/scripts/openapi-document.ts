/**
 * Prints Lectern's OpenAPI document, built in-process from the routes the server registers, for
 * build.mjs to turn into the console's client types. It needs only core, storage and http (an
 * in-memory SQLite database), not the command line, so a half-edited CLI never breaks the
 * console's build.
 */
import { API_VERSION, createLectern } from '@lectern/core';
import { buildOpenApiDocument, registerRoutes, RouteTable } from '@lectern/http';
import { openSqliteStorage } from '@lectern/storage';

const lectern = createLectern({ storage: await openSqliteStorage({ file: ':memory:' }), config: {} });
try {
  process.stdout.write(JSON.stringify(buildOpenApiDocument(registerRoutes(new RouteTable(), lectern), API_VERSION)));
} finally {
  await lectern.close();
}
