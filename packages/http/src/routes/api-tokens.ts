import type { Lectern } from '@lectern/core';
import { created, noContent, ok, withEtag } from '../reply.ts';
import type { RouteTable } from '../router.ts';

export function apiTokenRoutes(routes: RouteTable, lectern: Lectern): void {
  const tokens = lectern.tokens;
  routes
    .get('/api/v2/api-tokens', async (rc) => ok(await tokens.list(rc.ctx, rc.query)))
    .post('/api/v2/api-tokens', async (rc) => created(await tokens.create(rc.ctx, rc.body())))
    .get('/api/v2/api-tokens/:id', async (rc) => withEtag(await tokens.get(rc.ctx, rc.params.id!)))
    .delete('/api/v2/api-tokens/:id', async (rc) => {
      await tokens.revoke(rc.ctx, rc.params.id!);
      return noContent();
    });
}
