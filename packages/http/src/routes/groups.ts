import type { GroupRelation, Lectern, MembershipOperation } from '@lectern/core';
import { noContent, ok, withEtag } from '../reply.ts';
import type { RouteTable } from '../router.ts';

const operationByMethod = { POST: 'add', DELETE: 'remove', PUT: 'replace' } as const satisfies Record<string, MembershipOperation>;

export function groupRoutes(routes: RouteTable, lectern: Lectern): void {
  const groups = lectern.groups;
  routes
    .get('/api/v2/groups', async (rc) => ok(await groups.list(rc.ctx, rc.query)))
    .post('/api/v2/groups', async (rc) => withEtag(await groups.create(rc.ctx, rc.body()), undefined, 201))
    .get('/api/v2/groups/:id', async (rc) => withEtag(await groups.get(rc.ctx, rc.params.id!), rc.header('if-none-match')))
    .patch('/api/v2/groups/:id', async (rc) =>
      withEtag(await groups.update(rc.ctx, rc.params.id!, rc.body(), { ifMatch: rc.header('if-match') }), undefined),
    )
    .delete('/api/v2/groups/:id', async (rc) => {
      await groups.delete(rc.ctx, rc.params.id!, { ifMatch: rc.header('if-match') });
      return noContent();
    })
    .get('/api/v2/groups/:id/members', async (rc) => ok(await groups.listMembers(rc.ctx, rc.params.id!, rc.query)));

  // the six membership operations: {POST add, DELETE remove, PUT replace} × {members, owners}
  const relations: Array<[string, GroupRelation]> = [
    ['members', 'member'],
    ['owners', 'owner'],
  ];
  for (const [segment, relation] of relations) {
    for (const [method, op] of Object.entries(operationByMethod)) {
      const register = method === 'POST' ? routes.post : method === 'PUT' ? routes.put : routes.delete;
      register.call(routes, `/api/v2/groups/:id/${segment}`, async (rc) =>
        withEtag(
          await groups.changeMembership(rc.ctx, rc.params.id!, relation, op, rc.body(), { ifMatch: rc.header('if-match') }),
          undefined,
        ),
      );
    }
  }
}
