import { BulkJobs, type BulkFamily } from '../jobs/bulk-jobs.ts';
import type { z } from 'zod';
import { authorize, type RequestContext } from '../auth/actor.ts';
import type { JobEngine } from '../jobs/job-engine.ts';
import { ItemFailure, type AppliedItem } from '../jobs/job.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { fieldError, isLecternError, type LecternError } from '../shared/errors.ts';
import { assertIfMatch } from '../shared/etag.ts';
import { nowIso } from '../shared/clock.ts';
import { foldCase } from '../shared/fold-case.ts';
import { StoredRecordService } from '../shared/stored-record-service.ts';
import { parseInput, type InputOf, type BulkInputOf } from '../shared/validation.ts';
import type { WriteOptions } from '../shared/write-options.ts';
import type { Stores } from '../ports/storage.ts';
import {
  bulkUserItem,
  createUserInput,
  updateUserInput,
  userListSpec,
  type CreateUserInput,
  type UpdateUserInput,
  type User,
  type UserRecord,
} from './user.ts';
import { assertKeepsAnAdmin, assertManagerAllowed } from './user-rules.ts';

export const MAX_BULK_USERS = 500;
const userBulk: BulkFamily = { name: 'users', maxItems: MAX_BULK_USERS, scopes: { write: 'users:write', read: 'users:read' } };

type BulkUserItem = z.output<typeof bulkUserItem>;

/** A bulk item's email is taken: it fails as `duplicate` naming that user, so an importer can link to it. */
const duplicateUser = (publicId: string) => new ItemFailure('duplicate', 'A user with this email already exists.', publicId);

export class UserService extends StoredRecordService<UserRecord, User> {
  /** `…/bulk/` routes: submit a job of this area's items, read it and its items */
  readonly bulk: BulkJobs<BulkInputOf<'users', typeof bulkUserItem>>;

  constructor(
    deps: ServiceDeps,
    private readonly jobs: JobEngine,
  ) {
    super(deps, { readScope: 'users:read', listSpec: userListSpec, noun: 'User', store: (stores) => stores.users });
    this.bulk = new BulkJobs(jobs, userBulk, {
      handle: async (tx, ctx, item) => {
        const input = parseInput(bulkUserItem, item);
        const existing = await tx.users.findByEmail(input.email);
        if (existing) throw duplicateUser(existing.view.public_id);
        return { publicId: (await this.insertInTx(tx, ctx, input)).view.public_id, created: true };
      },
      many: (tx, ctx, items) => this.bulkManyInTx(tx, ctx, items),
    });
  }

  async create(ctx: RequestContext, body: InputOf<typeof createUserInput>): Promise<User> {
    authorize(ctx.actor, 'users:write');
    const input = parseInput(createUserInput, body);
    return this.deps.storage.transaction(async (tx) => (await this.insertInTx(tx, ctx, input)).view);
  }

  async update(ctx: RequestContext, publicId: string, body: InputOf<typeof updateUserInput>, options: WriteOptions = {}): Promise<User> {
    authorize(ctx.actor, 'users:write');
    const input = parseInput(updateUserInput, body);
    return this.deps.storage.transaction((tx) => this.updateInTx(tx, ctx, publicId, input, options));
  }

  /**
   * A PATCH's rules and write inside the caller's transaction, for an import's `update` rows and
   * SCIM; the caller has authorized and parsed the input with updateUserInput. Only SCIM changes
   * `email` (an identity provider renaming a user); the API's PATCH does not take it.
   */
  async updateInTx(
    tx: Stores,
    ctx: RequestContext,
    publicId: string,
    input: z.output<typeof updateUserInput> & { email?: string },
    options: WriteOptions = {},
  ): Promise<User> {
    const current = await this.require(tx, publicId);
    assertIfMatch(options.ifMatch, current.view);
    const email =
      input.email !== undefined && input.email !== current.view.email ? parseInput(createUserInput.shape.email, input.email) : undefined;
    if (email !== undefined && foldCase(email) !== foldCase(current.view.email)) await this.assertEmailFree(tx, email);

    let managerId: number | null | undefined;
    if (input.manager === null) managerId = null;
    else if (input.manager !== undefined) {
      managerId = await this.resolveManager(tx, input.manager);
      assertManagerAllowed(current.id, managerId, await tx.users.managerChain(managerId));
    }

    const after = { role: input.role ?? current.view.role, is_active: input.is_active ?? current.view.is_active };
    assertKeepsAnAdmin(current.view, after, await tx.users.countActiveAdmins());

    const now = nowIso(this.deps.clock);
    await tx.users.update(current.id, {
      ...(email !== undefined ? { email } : {}),
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.role !== undefined ? { role: input.role } : {}),
      ...(input.employee_id !== undefined ? { employeeId: input.employee_id } : {}),
      ...(managerId !== undefined ? { managerId } : {}),
      ...(input.is_active !== undefined ? { isActive: input.is_active } : {}),
      ...(input.email_notifications !== undefined ? { emailNotifications: input.email_notifications } : {}),
      modified: now,
    });
    const updated = (await tx.users.findById(current.id))!.view;
    await this.deps.audit.recordUpdate(tx, ctx, 'user.updated', updated.public_id, current.view, updated);
    // a deactivated user's tokens and console sessions end with it, on every server (they are rows),
    // and stay ended if the user is activated again
    if (current.view.is_active && !updated.is_active) {
      await this.deps.audit.recordMany(tx, ctx, 'api_token.revoked', await tx.tokens.revokeAllOfUser(current.id, now));
    }
    return updated;
  }

  /**
   * A bulk job's chunk at once, with the outcomes `handle` gives one by one: an invalid item fails
   * with its validation error, a taken email (one query for all of them) as `duplicate` naming the
   * user, and the rest are inserted together. An email an earlier item of the chunk also gives is
   * left to `handle` (undefined), which runs after the batch and so meets that item's user.
   */
  private async bulkManyInTx(
    tx: Stores,
    ctx: RequestContext,
    items: readonly unknown[],
  ): Promise<Array<AppliedItem | LecternError | undefined>> {
    const inputs = items.map((item) => {
      try {
        return parseInput(bulkUserItem, item);
      } catch (error) {
        if (isLecternError(error)) return error;
        throw error;
      }
    });
    const valid = inputs.filter((input): input is BulkUserItem => !isLecternError(input));
    const taken = valid.length > 0 ? await tx.users.byEmails(valid.map((input) => input.email)) : new Map<string, { publicId: string }>();
    const answers: Array<AppliedItem | LecternError | undefined> = [];
    const fresh: Array<{ index: number; input: BulkUserItem }> = [];
    const seen = new Set<string>();
    for (const [index, input] of inputs.entries()) {
      if (isLecternError(input)) {
        answers[index] = input;
        continue;
      }
      const email = foldCase(input.email);
      const existing = taken.get(email);
      if (existing) answers[index] = duplicateUser(existing.publicId);
      else if (seen.has(email)) answers[index] = undefined;
      else {
        seen.add(email);
        fresh.push({ index, input });
      }
    }
    const applied = await this.insertManyInTx(
      tx,
      ctx,
      fresh.map(({ input }) => input),
    );
    for (const [i, { index }] of fresh.entries()) answers[index] = applied[i];
    return answers;
  }

  /**
   * New users from bulk items whose emails the caller found free (an import's batch, a bulk job's
   * chunk): one INSERT for the users and one for their `user.created` entries. A taken email fails
   * the whole statement; the caller then writes the rows one by one through the bulk item (`bulk`),
   * which says which. The items have passed `bulkUserItem` already, so they are not parsed again.
   */
  async insertManyInTx(tx: Stores, ctx: RequestContext, inputs: readonly BulkUserItem[]): Promise<AppliedItem[]> {
    if (inputs.length === 0) return [];
    const now = nowIso(this.deps.clock);
    const records = await tx.users.insertMany(
      inputs.map((input) => {
        return {
          publicId: this.deps.ids.uuid(),
          email: input.email,
          name: input.name,
          role: input.role,
          employeeId: input.employee_id ?? null,
          managerId: null,
          isActive: true,
          dateJoined: now,
        };
      }),
    );
    const publicIds = records.map((record) => record.view.public_id);
    await this.deps.audit.recordMany(tx, ctx, 'user.created', publicIds);
    return publicIds.map((publicId) => ({ publicId, created: true }));
  }

  /** For other areas and the CLI: find a user by email without the route-level gate. */
  findByEmail(email: string): Promise<UserRecord | undefined> {
    return this.deps.storage.users.findByEmail(email);
  }

  /** A create's rules and write inside the caller's transaction (SCIM); the caller has authorized and parsed. */
  async insertInTx(
    tx: Stores,
    ctx: RequestContext,
    input: Omit<z.output<typeof createUserInput>, 'manager'> & { manager?: string | null | undefined },
  ): Promise<UserRecord> {
    await this.assertEmailFree(tx, input.email);
    const managerId = input.manager ? await this.resolveManager(tx, input.manager) : null;
    const record = await tx.users.insert({
      publicId: this.deps.ids.uuid(),
      email: input.email,
      name: input.name,
      role: input.role,
      employeeId: input.employee_id ?? null,
      managerId,
      isActive: true,
      dateJoined: nowIso(this.deps.clock),
    });
    await this.deps.audit.record(tx, ctx, 'user.created', record.view.public_id);
    return record;
  }

  private async assertEmailFree(stores: Stores, email: string): Promise<void> {
    if (await stores.users.findByEmail(email)) throw fieldError('email', 'A user with this email already exists.');
  }

  private async resolveManager(stores: Stores, managerPublicId: string): Promise<number> {
    const manager = await stores.users.findByPublicId(managerPublicId);
    if (!manager) throw fieldError('manager', 'No user has this public_id.');
    return manager.id;
  }
}

export type { CreateUserInput, UpdateUserInput };
