import { fieldChanges } from '../audit/audit-diff.ts';
import { requireUserIds } from '../users/user-references.ts';
import { authorize, isAdmin, type Actor, type RequestContext } from '../auth/actor.ts';
import type { Stores } from '../ports/storage.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { nowIso } from '../shared/clock.ts';
import { forbidden } from '../shared/errors.ts';
import { assertIfMatch } from '../shared/etag.ts';
import { parseListQuery, toListResult, type ListResult, type QueryParams } from '../shared/list-query.ts';
import { StoredRecordService } from '../shared/stored-record-service.ts';
import { parseArgument, parseInput, type InputOf } from '../shared/validation.ts';
import type { WriteOptions } from '../shared/write-options.ts';
import { userListSpec, type User } from '../users/user.ts';
import {
  createGroupInput,
  groupListSpec,
  groupRelations,
  membershipInput,
  membershipOperations,
  NATIVE_SOURCE,
  replaceMembershipInput,
  updateGroupInput,
  type Group,
  type GroupRecord,
  type GroupRelation,
  type MembershipOperation,
} from './group.ts';
import { assertReplaceConfirmed, nextMembers } from './membership-rules.ts';

export class GroupService extends StoredRecordService<GroupRecord, Group> {
  constructor(deps: ServiceDeps) {
    super(deps, { readScope: 'groups:read', listSpec: groupListSpec, noun: 'Group', store: (stores) => stores.groups });
  }

  async listMembers(ctx: RequestContext, publicId: string, params: QueryParams): Promise<ListResult<User>> {
    authorize(ctx.actor, 'groups:read');
    const query = parseListQuery(userListSpec, params);
    const group = await this.require(this.deps.storage, publicId);
    return toListResult(query, await this.deps.storage.groups.listMembers(group.id, query), (record) => record.view);
  }

  async create(ctx: RequestContext, body: InputOf<typeof createGroupInput>): Promise<Group> {
    authorize(ctx.actor, 'groups:write');
    this.requireAdmin(ctx.actor, 'Only admins can create groups.');
    const input = parseInput(createGroupInput, body);
    return this.deps.storage.transaction(async (tx) => (await this.insertInTx(tx, ctx, input)).view);
  }

  /** A create's write inside the caller's transaction (SCIM); the caller has authorized and parsed. */
  async insertInTx(tx: Stores, ctx: RequestContext, input: { name: string; source?: string | null | undefined }): Promise<GroupRecord> {
    const record = await tx.groups.insert({
      publicId: this.deps.ids.uuid(),
      name: input.name,
      source: input.source === undefined ? NATIVE_SOURCE : input.source,
      created: nowIso(this.deps.clock),
    });
    await this.deps.audit.record(tx, ctx, 'group.created', record.view.public_id);
    return record;
  }

  async update(ctx: RequestContext, publicId: string, body: InputOf<typeof updateGroupInput>, options: WriteOptions = {}): Promise<Group> {
    authorize(ctx.actor, 'groups:write');
    const input = parseInput(updateGroupInput, body);
    return this.deps.storage.transaction(async (tx) => {
      const group = await this.require(tx, publicId);
      await this.requireManager(tx, ctx.actor, group);
      assertIfMatch(options.ifMatch, group.view);
      return this.updateInTx(tx, ctx, group, input);
    });
  }

  /** An update's write inside the caller's transaction (SCIM); the caller has authorized and parsed. */
  async updateInTx(tx: Stores, ctx: RequestContext, group: GroupRecord, input: { name?: string | undefined }): Promise<Group> {
    await tx.groups.update(group.id, { ...(input.name !== undefined ? { name: input.name } : {}), modified: nowIso(this.deps.clock) });
    const after = (await tx.groups.findById(group.id))!.view;
    await this.deps.audit.recordUpdate(tx, ctx, 'group.updated', after.public_id, group.view, after);
    return after;
  }

  async delete(ctx: RequestContext, publicId: string, options: WriteOptions = {}): Promise<void> {
    authorize(ctx.actor, 'groups:write');
    this.requireAdmin(ctx.actor, 'Only admins can delete groups.');
    await this.deps.storage.transaction(async (tx) => {
      const group = await this.require(tx, publicId);
      assertIfMatch(options.ifMatch, group.view);
      await this.deleteInTx(tx, ctx, group);
    });
  }

  /** A delete inside the caller's transaction (SCIM); the caller has authorized. */
  async deleteInTx(tx: Stores, ctx: RequestContext, group: GroupRecord): Promise<void> {
    await tx.groups.softDelete(group.id, nowIso(this.deps.clock));
    await this.deps.audit.record(tx, ctx, 'group.deleted', group.view.public_id);
  }

  /** The six membership operations: add, remove or replace the group's members or owners. */
  async changeMembership(
    ctx: RequestContext,
    publicId: string,
    relation: GroupRelation,
    op: MembershipOperation,
    body: InputOf<typeof membershipInput> | InputOf<typeof replaceMembershipInput>,
    options: WriteOptions = {},
  ): Promise<Group> {
    authorize(ctx.actor, 'groups:write');
    parseArgument('relation', groupRelations, relation);
    const replace = parseArgument('op', membershipOperations, op) === 'replace' ? parseInput(replaceMembershipInput, body) : null;
    const input = replace ?? parseInput(membershipInput, body);
    return this.deps.storage.transaction(async (tx) => {
      const group = await this.require(tx, publicId);
      if (relation === 'owner') this.requireAdmin(ctx.actor, 'Only admins can change the owners of a group.');
      else await this.requireManager(tx, ctx.actor, group);
      assertIfMatch(options.ifMatch, group.view);

      const ids = await requireUserIds(tx, input.member_ids, 'member_ids');

      const current = await tx.groups.relatedUserIds(group.id, relation);
      const next = nextMembers(current, op, ids);
      if (replace) assertReplaceConfirmed(relation, current, next, replace);
      return this.setRelatedInTx(tx, ctx, group, relation, current, next);
    });
  }

  /**
   * Makes `next` the group's members (owners), given the `current` ones, inside the caller's
   * transaction (SCIM's member changes); the caller has authorized and checked the ids.
   */
  async setRelatedInTx(
    tx: Stores,
    ctx: RequestContext,
    group: GroupRecord,
    relation: GroupRelation,
    current: readonly number[],
    next: ReadonlySet<number>,
  ): Promise<Group> {
    const now = nowIso(this.deps.clock);
    const currentSet = new Set(current);
    const removed = current.filter((id) => !next.has(id));
    const added = [...next].filter((id) => !currentSet.has(id));
    if (removed.length > 0) await tx.groups.removeRelated(group.id, relation, removed);
    if (added.length > 0) await tx.groups.addRelated(group.id, relation, added, now);
    if (removed.length === 0 && added.length === 0) return group.view;
    await tx.groups.update(group.id, { modified: now });
    const after = (await tx.groups.findById(group.id))!.view;
    // recorded even when a swap keeps the view alike: the view's member_count and owners are
    // the changes, and members are not listed one by one
    const action = relation === 'owner' ? 'group.owners_changed' : 'group.members_changed';
    await this.deps.audit.record(tx, ctx, action, after.public_id, fieldChanges(group.view, after));
    return after;
  }

  private requireAdmin(actor: Actor, message: string): void {
    if (!isAdmin(actor)) throw forbidden(message);
  }

  /** Admins manage every group; organizers only the groups they own. */
  private async requireManager(stores: Stores, actor: Actor, group: GroupRecord): Promise<void> {
    if (isAdmin(actor) || actor.kind !== 'user') return;
    if (actor.role === 'organizer' && (await stores.groups.isRelated(group.id, 'owner', actor.userId))) return;
    throw forbidden('Organizers can change only the groups they own.');
  }
}
