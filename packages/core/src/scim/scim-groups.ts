/**
 * SCIM `/Groups` (docs/identity.md): reads through the groups store's list, writes through the
 * groups service's own write paths inside one transaction each, with the API's audit entries.
 */
import { authorize, type RequestContext } from '../auth/actor.ts';
import type { GroupRecord } from '../groups/group.ts';
import type { GroupService } from '../groups/group-service.ts';
import type { Stores } from '../ports/storage.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { notFound } from '../shared/errors.ts';
import { assertIfMatch } from '../shared/etag.ts';
import type { QueryParams } from '../shared/list-query.ts';
import { requireUserIds } from '../users/user-references.ts';
import type { ScimFilterAttributes } from './scim-filter.ts';
import { groupVersionBasis, readScimGroup, toScimGroup, type ScimGroupWrite } from './scim-group.ts';
import { project, returns } from './scim-attributes.ts';
import { listResponse, scimList, scimSelection, type ScimListSpec } from './scim-list.ts';
import { applyScimPatch } from './scim-patch.ts';
import { uniqueness } from './scim-users.ts';

/** Groups an identity provider creates say so in the API's `source`. */
export const SCIM_GROUP_SOURCE = 'scim';

/** The attributes a Groups filter may name, resolved to the groups list's report fields. */
export const scimGroupAttributes: ScimFilterAttributes = {
  id: { field: 'public_id', type: 'string', caseExact: true },
  displayname: { field: 'name', type: 'string', caseExact: false },
  externalid: { field: 'external_id', type: 'string', caseExact: true },
  members: { field: 'members.public_id', type: 'string', caseExact: true, multi: true },
  'members.value': { field: 'members.public_id', type: 'string', caseExact: true, multi: true },
  'meta.created': { field: 'created', type: 'datetime', caseExact: true },
  'meta.lastmodified': { field: 'modified', type: 'datetime', caseExact: true },
};

const groupListSpec: ScimListSpec = {
  filter: scimGroupAttributes,
  sort: {
    displayname: { field: 'name' },
    'meta.created': { field: 'created' },
    'meta.lastmodified': { field: 'modified' },
  },
  defaultOrder: 'created',
};

type ScimGroupShape = ReturnType<typeof toScimGroup>;

export class ScimGroups {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly groups: GroupService,
  ) {}

  private get base(): string {
    return `${this.deps.config.publicUrl.replace(/\/+$/, '')}/scim/v2`;
  }

  /** `excludedAttributes=members` (or `attributes` without it) leaves the member lists out, as Entra asks when it only looks a group up. */
  async list(ctx: RequestContext, params: QueryParams) {
    authorize(ctx.actor, 'scim:write');
    const list = scimList(params, groupListSpec);
    const page = await this.deps.storage.groups.list(list.query, list.narrowing);
    const ids = page.items.map((record) => record.id);
    const externalIds = await this.deps.storage.scim.groupExternalIds(ids);
    const members = returns(list.selection, 'members') ? await this.deps.storage.scim.memberPublicIds(ids) : null;
    const resources = page.items.map((record) =>
      project(toScimGroup(record.view, externalIds.get(record.id) ?? null, members?.get(record.id) ?? null, this.base), list.selection),
    );
    return listResponse(resources, page.total, list.startIndex);
  }

  async get(ctx: RequestContext, publicId: string, params: QueryParams = {}): Promise<ScimGroupShape> {
    authorize(ctx.actor, 'scim:write');
    const selection = scimSelection(params);
    return project(await this.read(this.deps.storage, publicId, returns(selection, 'members')), selection);
  }

  /** Writes answer as `attributes`/`excludedAttributes` ask too (RFC 7644 §3.9). */
  async create(ctx: RequestContext, body: unknown, params: QueryParams = {}): Promise<ScimGroupShape> {
    // read before the write: a parameter refused after it would hide a change that was made
    const selection = scimSelection(params);
    return project(await this.insert(ctx, body), selection);
  }

  private async insert(ctx: RequestContext, body: unknown): Promise<ScimGroupShape> {
    authorize(ctx.actor, 'scim:write');
    const write = readScimGroup(body);
    return this.deps.storage.transaction(async (tx) => {
      if ((await tx.scim.groupIdByName(write.name)) !== undefined) {
        throw uniqueness(`A group with the displayName '${write.name}' already exists.`);
      }
      const memberIds = await requireUserIds(tx, write.members, 'members');
      const record = await this.groups.insertInTx(tx, ctx, { name: write.name, source: SCIM_GROUP_SOURCE });
      await tx.scim.setGroupExternalId(record.id, write.externalId);
      if (memberIds.length > 0) await this.groups.setRelatedInTx(tx, ctx, record, 'member', [], new Set(memberIds));
      return this.read(tx, record.view.public_id);
    });
  }

  async replace(ctx: RequestContext, publicId: string, body: unknown, ifMatch?: string, params: QueryParams = {}): Promise<ScimGroupShape> {
    // read before the write: a parameter refused after it would hide a change that was made
    const selection = scimSelection(params);
    return project(await this.replaceWhole(ctx, publicId, body, ifMatch), selection);
  }

  private async replaceWhole(ctx: RequestContext, publicId: string, body: unknown, ifMatch?: string): Promise<ScimGroupShape> {
    authorize(ctx.actor, 'scim:write');
    const write = readScimGroup(body);
    return this.deps.storage.transaction(async (tx) => {
      const { record } = await this.require(tx, publicId, ifMatch);
      await this.write(tx, ctx, record, write);
      return this.read(tx, publicId);
    });
  }

  /** Applied to the group's whole representation, members included: a few thousand ids at most. */
  async patch(ctx: RequestContext, publicId: string, body: unknown, ifMatch?: string, params: QueryParams = {}): Promise<ScimGroupShape> {
    // read before the write: a parameter refused after it would hide a change that was made
    const selection = scimSelection(params);
    return project(await this.patchWhole(ctx, publicId, body, ifMatch), selection);
  }

  private async patchWhole(ctx: RequestContext, publicId: string, body: unknown, ifMatch?: string): Promise<ScimGroupShape> {
    authorize(ctx.actor, 'scim:write');
    return this.deps.storage.transaction(async (tx) => {
      const { record, externalId } = await this.require(tx, publicId, ifMatch);
      const members = (await tx.scim.memberPublicIds([record.id])).get(record.id)!;
      const patched = applyScimPatch(toScimGroup(record.view, externalId, members, this.base), body);
      await this.write(tx, ctx, record, readScimGroup(patched));
      return this.read(tx, publicId);
    });
  }

  async delete(ctx: RequestContext, publicId: string, ifMatch?: string): Promise<void> {
    authorize(ctx.actor, 'scim:write');
    await this.deps.storage.transaction(async (tx) => {
      const { record } = await this.require(tx, publicId, ifMatch);
      await this.groups.deleteInTx(tx, ctx, record);
    });
  }

  private async write(tx: Stores, ctx: RequestContext, record: GroupRecord, write: ScimGroupWrite): Promise<void> {
    let current = record;
    if (write.name !== record.view.name) {
      const holder = await tx.scim.groupIdByName(write.name);
      if (holder !== undefined && holder !== record.id) throw uniqueness(`A group with the displayName '${write.name}' already exists.`);
      await this.groups.updateInTx(tx, ctx, record, { name: write.name });
      current = (await tx.groups.findById(record.id))!;
    }
    await tx.scim.setGroupExternalId(record.id, write.externalId);
    const next = new Set(await requireUserIds(tx, write.members, 'members'));
    await this.groups.setRelatedInTx(tx, ctx, current, 'member', await tx.groups.relatedUserIds(record.id, 'member'), next);
  }

  private async require(stores: Stores, publicId: string, ifMatch?: string): Promise<{ record: GroupRecord; externalId: string | null }> {
    const record = await stores.groups.findByPublicId(publicId);
    if (!record) throw notFound('Group');
    const externalId = (await stores.scim.groupExternalIds([record.id])).get(record.id) ?? null;
    assertIfMatch(ifMatch, groupVersionBasis(record.view, externalId));
    return { record, externalId };
  }

  private async read(stores: Stores, publicId: string, withMembers = true): Promise<ScimGroupShape> {
    const { record, externalId } = await this.require(stores, publicId);
    const members = withMembers ? (await stores.scim.memberPublicIds([record.id])).get(record.id)! : null;
    return toScimGroup(record.view, externalId, members, this.base);
  }
}
