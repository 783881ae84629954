import {
  groupListSpec,
  groupSchema,
  createGroupInput,
  membershipInput,
  replaceMembershipInput,
  updateGroupInput,
  userListSpec,
  userSchema,
  type GroupRelation,
  type Lectern,
  type MembershipOperation,
} from '@lectern/core';
import { resource } from '../operation-spec.ts';
import { noContent, ok, withEtag } from '../reply.ts';
import type { RouteHandler, RouteTable } from '../router.ts';

/** adding and removing take the ids; replacing also its confirmations */
type MembershipBody = Parameters<Lectern['groups']['changeMembership']>[4];

export function groupRoutes(routes: RouteTable, lectern: Lectern): void {
  const groups = lectern.groups;
  const spec = resource('Groups', 'groups:read', groupSchema);
  routes
    .get('/api/v2/groups', spec.list('List groups', groupListSpec), async (rc) => ok(await groups.list(rc.ctx, rc.query)))
    .post('/api/v2/groups', spec.write('Create a group', createGroupInput, 201), async (rc) =>
      withEtag(await groups.create(rc.ctx, rc.body()), 201),
    )
    .get('/api/v2/groups/:id', spec.get('Get a group'), async (rc) => withEtag(await groups.get(rc.ctx, rc.params.id)))
    .patch('/api/v2/groups/:id', spec.write('Update a group', updateGroupInput), async (rc) =>
      withEtag(await groups.update(rc.ctx, rc.params.id, rc.body(), rc.preconditions)),
    )
    .delete('/api/v2/groups/:id', spec.write('Delete a group', undefined, 204, null), async (rc) => {
      await groups.delete(rc.ctx, rc.params.id, rc.preconditions);
      return noContent();
    })
    .get('/api/v2/groups/:id/members', spec.list('List a group’s members', userListSpec, userSchema), async (rc) =>
      ok(await groups.listMembers(rc.ctx, rc.params.id, rc.query)),
    );

  // the six membership operations: {POST add, DELETE remove, PUT replace} × {members, owners}
  const change =
    (relation: GroupRelation, operation: MembershipOperation): RouteHandler<{ readonly id: string }, MembershipBody> =>
    async (rc) =>
      withEtag(await groups.changeMembership(rc.ctx, rc.params.id, relation, operation, rc.body(), rc.preconditions));
  routes
    .post('/api/v2/groups/:id/members', spec.write('Add members', membershipInput), change('member', 'add'))
    .delete('/api/v2/groups/:id/members', spec.write('Remove members', membershipInput), change('member', 'remove'))
    .put('/api/v2/groups/:id/members', spec.write('Replace the members', replaceMembershipInput), change('member', 'replace'))
    .post('/api/v2/groups/:id/owners', spec.write('Add owners', membershipInput), change('owner', 'add'))
    .delete('/api/v2/groups/:id/owners', spec.write('Remove owners', membershipInput), change('owner', 'remove'))
    .put('/api/v2/groups/:id/owners', spec.write('Replace the owners', replaceMembershipInput), change('owner', 'replace'));
}
