import { apiTokenSchema, createTokenInput, tokenListSpec, type Lectern } from '@lectern/core';
import { z } from 'zod';
import { resource } from '../operation-spec.ts';
import { created, noContent, ok, withEtag } from '../reply.ts';
import type { RouteTable } from '../router.ts';

const withSecret = apiTokenSchema.extend({ token: z.string() });

export function apiTokenRoutes(routes: RouteTable, lectern: Lectern): void {
  const tokens = lectern.tokens;
  const spec = resource('API tokens', 'tokens:read', apiTokenSchema);
  routes
    .get('/api/v2/api-tokens', spec.list('List API tokens', tokenListSpec), async (rc) => ok(await tokens.list(rc.ctx, rc.query)))
    .post(
      '/api/v2/api-tokens',
      spec.write('Issue an API token (its secret is shown once)', createTokenInput, 201, withSecret),
      async (rc) => created(await tokens.create(rc.ctx, rc.body())),
    )
    .get('/api/v2/api-tokens/:id', spec.get('Get an API token'), async (rc) => withEtag(await tokens.get(rc.ctx, rc.params.id)))
    .delete('/api/v2/api-tokens/:id', spec.write('Revoke an API token', undefined, 204, null), async (rc) => {
      await tokens.revoke(rc.ctx, rc.params.id);
      return noContent();
    });
}
