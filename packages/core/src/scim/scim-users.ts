/**
 * SCIM `/Users` (docs/identity.md): reads through the users store's list, writes through the users
 * service's own write paths inside one transaction each, so a SCIM change records the same audit
 * entries (and revokes the same tokens on deactivation) as the API's.
 */
import { authorize, type RequestContext } from '../auth/actor.ts';
import type { Stores } from '../ports/storage.ts';
import type { RqlFilter } from '../reports/rql/rql-ast.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { nowIso } from '../shared/clock.ts';
import { notFound } from '../shared/errors.ts';
import { foldCase } from '../shared/fold-case.ts';
import { assertIfMatch } from '../shared/etag.ts';
import type { QueryParams } from '../shared/list-query.ts';
import { parseInput } from '../shared/validation.ts';
import { createUserInput, updateUserInput, type UserRecord } from '../users/user.ts';
import type { UserService } from '../users/user-service.ts';
import { ScimError } from './scim-error.ts';
import type { ScimFilterAttributes } from './scim-filter.ts';
import { project } from './scim-attributes.ts';
import { listResponse, scimList, scimSelection, type ScimListSpec } from './scim-list.ts';
import { applyScimPatch } from './scim-patch.ts';
import { SCIM_ENTERPRISE_USER } from './scim-schemas.ts';
import { readScimUser, toScimUser, userVersionBasis, type ScimUserShape, type ScimUserState, type ScimUserWrite } from './scim-user.ts';

const text = (field: string, caseExact: boolean, foldedField?: string) =>
  ({ field, type: 'string', caseExact, ...(foldedField ? { foldedField } : {}) }) as const;
const userName = text('email', false, 'email_lower');
const fullName = text('name', false);
const enterprise = SCIM_ENTERPRISE_USER.toLowerCase();

/** The attributes a Users filter may name, resolved to the users list's report fields. */
export const scimUserAttributes: ScimFilterAttributes = {
  id: text('public_id', true),
  username: userName,
  emails: userName,
  'emails.value': userName,
  externalid: text('external_id', true),
  active: { field: 'is_active', type: 'boolean', caseExact: true },
  displayname: fullName,
  'name.formatted': fullName,
  'meta.created': { field: 'date_joined', type: 'datetime', caseExact: true },
  'meta.lastmodified': { field: 'modified', type: 'datetime', caseExact: true },
  [`${enterprise}:employeenumber`]: text('employee_id', true),
  [`${enterprise}:manager.value`]: text('manager.public_id', true),
  [`${enterprise}:manager`]: text('manager.public_id', true),
};

const byEmail = { field: 'email' };
const byName = { field: 'name' };

/**
 * What Users filter and sort by. The given name leads the one name, so sorting by the name sorts by
 * it; the family name (its last word) has no column of its own to sort by.
 */
const userListSpec: ScimListSpec = {
  filter: scimUserAttributes,
  sort: {
    username: byEmail,
    emails: byEmail,
    'emails.value': byEmail,
    name: byName,
    'name.formatted': byName,
    'name.givenname': byName,
    displayname: byName,
    'meta.created': { field: 'date_joined' },
    'meta.lastmodified': { field: 'modified', rql: true },
  },
  defaultOrder: 'date_joined',
};

/** Users an identity provider deleted stay in Lectern, inactive, and out of SCIM's sight. */
const notDeleted: RqlFilter = { kind: 'field', field: 'scim_deleted_at', test: { op: 'null' } };

export const uniqueness = (message: string) => new ScimError('conflict', 'uniqueness', message);

export class ScimUsers {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly users: UserService,
  ) {}

  private get base(): string {
    return `${this.deps.config.publicUrl.replace(/\/+$/, '')}/scim/v2`;
  }

  async list(ctx: RequestContext, params: QueryParams) {
    authorize(ctx.actor, 'scim:write');
    const list = scimList(params, userListSpec, notDeleted);
    const page = await this.deps.storage.users.list(list.query, list.narrowing);
    const states = await this.deps.storage.scim.userStates(page.items.map((record) => record.id));
    const resources = page.items.map((record) => project(toScimUser(record.view, states.get(record.id)!, this.base), list.selection));
    return listResponse(resources, page.total, list.startIndex);
  }

  async get(ctx: RequestContext, publicId: string, params: QueryParams = {}): Promise<ScimUserShape> {
    authorize(ctx.actor, 'scim:write');
    return project(await this.read(this.deps.storage, publicId), scimSelection(params));
  }

  /**
   * A new user, or one an identity provider deleted coming back under the same userName: it is
   * found again, as the provider asks for it, rather than refused. Writes answer as
   * `attributes`/`excludedAttributes` ask too (RFC 7644 §3.9).
   */
  async create(ctx: RequestContext, body: unknown, params: QueryParams = {}): Promise<ScimUserShape> {
    // read before the write: a parameter refused after it would hide a change that was made
    const selection = scimSelection(params);
    return project(await this.insert(ctx, body), selection);
  }

  private async insert(ctx: RequestContext, body: unknown): Promise<ScimUserShape> {
    authorize(ctx.actor, 'scim:write');
    const write = readScimUser(body);
    return this.deps.storage.transaction(async (tx) => {
      const existing = await tx.users.findByEmail(write.email);
      if (existing) {
        const state = (await tx.scim.userStates([existing.id])).get(existing.id)!;
        if (state.deletedAt === null) throw uniqueness(`A user with the userName '${write.email}' already exists.`);
        await tx.scim.setUserState(existing.id, { deletedAt: null });
        await this.write(tx, ctx, existing, { ...write, active: write.active ?? true });
        return this.read(tx, existing.view.public_id);
      }
      const input = parseInput(createUserInput, {
        email: write.email,
        name: write.name,
        role: write.role ?? 'user',
        employee_id: write.employeeId,
        manager: write.managerId,
      });
      const record = await this.users.insertInTx(tx, ctx, input);
      await tx.scim.setUserState(record.id, { externalId: write.externalId });
      if (write.active === false) {
        await this.users.updateInTx(tx, ctx, record.view.public_id, { is_active: false });
        return this.read(tx, record.view.public_id);
      }
      // a new row's last change is its creation: no need to read it back
      return toScimUser(record.view, { externalId: write.externalId, modified: record.view.date_joined }, this.base);
    });
  }

  async replace(ctx: RequestContext, publicId: string, body: unknown, ifMatch?: string, params: QueryParams = {}): Promise<ScimUserShape> {
    // read before the write: a parameter refused after it would hide a change that was made
    const selection = scimSelection(params);
    return project(await this.replaceWhole(ctx, publicId, body, ifMatch), selection);
  }

  private async replaceWhole(ctx: RequestContext, publicId: string, body: unknown, ifMatch?: string): Promise<ScimUserShape> {
    authorize(ctx.actor, 'scim:write');
    const write = readScimUser(body);
    return this.deps.storage.transaction(async (tx) => {
      const { record } = await this.require(tx, publicId, ifMatch);
      await this.write(tx, ctx, record, write);
      return this.read(tx, publicId);
    });
  }

  async patch(ctx: RequestContext, publicId: string, body: unknown, ifMatch?: string, params: QueryParams = {}): Promise<ScimUserShape> {
    // read before the write: a parameter refused after it would hide a change that was made
    const selection = scimSelection(params);
    return project(await this.patchWhole(ctx, publicId, body, ifMatch), selection);
  }

  private async patchWhole(ctx: RequestContext, publicId: string, body: unknown, ifMatch?: string): Promise<ScimUserShape> {
    authorize(ctx.actor, 'scim:write');
    return this.deps.storage.transaction(async (tx) => {
      const { record, state } = await this.require(tx, publicId, ifMatch);
      const current = toScimUser(record.view, state, this.base);
      const patched = applyScimPatch(current, body, [SCIM_ENTERPRISE_USER]);
      await this.write(tx, ctx, record, readScimUser(patched, current));
      return this.read(tx, publicId);
    });
  }

  /** Deactivates the user (ending its tokens and sessions) and hides it from SCIM; the API keeps it. */
  async delete(ctx: RequestContext, publicId: string, ifMatch?: string): Promise<void> {
    authorize(ctx.actor, 'scim:write');
    await this.deps.storage.transaction(async (tx) => {
      const { record } = await this.require(tx, publicId, ifMatch);
      if (record.view.is_active) await this.users.updateInTx(tx, ctx, publicId, { is_active: false });
      await tx.scim.setUserState(record.id, { deletedAt: nowIso(this.deps.clock) });
    });
  }

  /** A PUT's (or a PATCH's result's) changes, through the users service's update. */
  private async write(tx: Stores, ctx: RequestContext, record: UserRecord, write: ScimUserWrite): Promise<void> {
    if (foldCase(write.email) !== foldCase(record.view.email)) {
      const holder = await tx.users.findByEmail(write.email);
      if (holder && holder.id !== record.id) throw uniqueness(`A user with the userName '${write.email}' already exists.`);
    }
    const input = parseInput(updateUserInput, {
      name: write.name,
      employee_id: write.employeeId,
      manager: write.managerId,
      ...(write.role !== undefined ? { role: write.role } : {}),
      ...(write.active !== undefined ? { is_active: write.active } : {}),
    });
    await this.users.updateInTx(tx, ctx, record.view.public_id, { ...input, email: write.email });
    await tx.scim.setUserState(record.id, { externalId: write.externalId });
  }

  private async require(stores: Stores, publicId: string, ifMatch?: string): Promise<{ record: UserRecord; state: ScimUserState }> {
    const record = await stores.users.findByPublicId(publicId);
    const found = record ? (await stores.scim.userStates([record.id])).get(record.id) : undefined;
    if (!record || !found || found.deletedAt !== null) throw notFound('User');
    const state = { externalId: found.externalId, modified: found.modified };
    assertIfMatch(ifMatch, userVersionBasis(record.view, state));
    return { record, state };
  }

  private async read(stores: Stores, publicId: string): Promise<ScimUserShape> {
    const { record, state } = await this.require(stores, publicId);
    return toScimUser(record.view, state, this.base);
  }
}
