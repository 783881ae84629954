import { Command } from 'commander';
import { API_VERSION } from '@lectern/core';
import { buildOpenApiDocument, registerRoutes, RouteTable } from '@lectern/http';
import { openLectern } from '../open-lectern.ts';

/** `lectern openapi > openapi.json`: the same document the server serves at /api/v2/openapi.json. */
export function openapiCommand(): Command {
  return new Command('openapi').description('print the OpenAPI 3.1 description of the HTTP API').action(async () => {
    // routes need a Lectern to bind to; an in-memory one touches no file
    const lectern = await openLectern(':memory:', { create: true });
    try {
      process.stdout.write(`${JSON.stringify(buildOpenApiDocument(registerRoutes(new RouteTable(), lectern), API_VERSION), null, 2)}\n`);
    } finally {
      await lectern.close();
    }
  });
}
