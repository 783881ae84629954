import type { GroupRelation, Lectern, MembershipOperation } from '@lectern/core';
import { noContent, ok, withEtag } from '../reply.ts';
import type { RouteHandler, RouteTable } from '../router.ts';

export function groupRoutes(routes: RouteTable, lectern: Lectern): void {
  const groups = lectern.groups;
  routes
    .get('/api/v2/groups', async (rc) => ok(await groups.list(rc.ctx, rc.query)))
    .post('/api/v2/groups', async (rc) => withEtag(await groups.create(rc.ctx, rc.body()), 201))
    .get('/api/v2/groups/:id', async (rc) => withEtag(await groups.get(rc.ctx, rc.params.id!)))
    .patch('/api/v2/groups/:id', async (rc) => withEtag(await groups.update(rc.ctx, rc.params.id!, rc.body(), rc.preconditions)))
    .delete('/api/v2/groups/:id', async (rc) => {
      await groups.delete(rc.ctx, rc.params.id!, rc.preconditions);
      return noContent();
    })
    .get('/api/v2/groups/:id/members', async (rc) => ok(await groups.listMembers(rc.ctx, rc.params.id!, rc.query)));

  // the six membership operations: {POST add, DELETE remove, PUT replace} × {members, owners}
  const change =
    (relation: GroupRelation, operation: MembershipOperation): RouteHandler =>
    async (rc) =>
      withEtag(await groups.changeMembership(rc.ctx, rc.params.id!, relation, operation, rc.body(), rc.preconditions));
  routes
    .post('/api/v2/groups/:id/members', change('member', 'add'))
    .delete('/api/v2/groups/:id/members', change('member', 'remove'))
    .put('/api/v2/groups/:id/members', change('member', 'replace'))
    .post('/api/v2/groups/:id/owners', change('owner', 'add'))
    .delete('/api/v2/groups/:id/owners', change('owner', 'remove'))
    .put('/api/v2/groups/:id/owners', change('owner', 'replace'));
}
