import { authorize, isAdmin, type Actor, type RequestContext } from '../auth/actor.ts';
import type { ListNarrowing } from '../ports/list-narrowing.ts';
import type { SavedReportChanges } from '../ports/saved-report-store.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { nowIso } from '../shared/clock.ts';
import { conflict, fieldError, forbidden } from '../shared/errors.ts';
import { assertIfMatch } from '../shared/etag.ts';
import { isUuid } from '../shared/ids.ts';
import { readOrdering, readParam, type ListResult, type QueryParams } from '../shared/list-query.ts';
import { StoredRecordService } from '../shared/stored-record-service.ts';
import { parseInput, type InputOf } from '../shared/validation.ts';
import type { WriteOptions } from '../shared/write-options.ts';
import { reportResourceDefinitions, type ReportResourceDefinition } from './report-catalogues.ts';
import { isRqlError } from './rql/rql-error.ts';
import { compileRql, rqlToFieldError } from './rql/rql-fields.ts';
import type { RqlValidated } from './rql/rql-ast.ts';
import {
  createSavedReportInput,
  savedReportListSpec,
  updateSavedReportInput,
  type ReportResource,
  type SavedReport,
  type SavedReportRecord,
} from './saved-report.ts';

/**
 * A resource's own list use case, narrowed by a report: it authorizes with the resource's read
 * scope, parses the resource's list parameters and applies the caller's visibility rules, so
 * results can never show what the caller could not list directly.
 */
export type ReportLister = (ctx: RequestContext, params: QueryParams, narrowing: ListNarrowing) => Promise<ListResult<unknown>>;

export class SavedReportService extends StoredRecordService<SavedReportRecord, SavedReport> {
  constructor(
    deps: ServiceDeps,
    private readonly listers: Partial<Record<ReportResource, ReportLister>>,
  ) {
    super(deps, {
      readScope: 'reports:read',
      listSpec: savedReportListSpec,
      noun: 'Saved report',
      store: (stores) => stores.savedReports,
      isPublicId: isUuid,
    });
  }

  async create(ctx: RequestContext, body: InputOf<typeof createSavedReportInput>): Promise<SavedReport> {
    authorize(ctx.actor, 'reports:write');
    const input = parseInput(createSavedReportInput, body);
    const ordering = input.ordering ?? null;
    this.check(input.resource, input.expression, ordering);
    return this.deps.storage.transaction(async (tx) => {
      const id = await tx.savedReports.insert({
        publicId: this.deps.ids.uuid(),
        name: input.name,
        resource: input.resource,
        expression: input.expression,
        ordering,
        createdById: ctx.actor.kind === 'user' ? ctx.actor.userId : null,
        created: nowIso(this.deps.clock),
      });
      const view = (await tx.savedReports.findById(id))!.view;
      await this.deps.audit.record(tx, ctx, 'saved_report.created', view.public_id);
      return view;
    });
  }

  /** Any of `resource`, `expression`, `ordering` changing re-checks all three together. */
  async update(
    ctx: RequestContext,
    publicId: string,
    body: InputOf<typeof updateSavedReportInput>,
    options: WriteOptions = {},
  ): Promise<SavedReport> {
    authorize(ctx.actor, 'reports:write');
    const input = parseInput(updateSavedReportInput, body);
    return this.deps.storage.transaction(async (tx) => {
      const current = await this.require(tx, publicId);
      this.assertMayChange(ctx.actor, current);
      assertIfMatch(options.ifMatch, current.view);
      const next = {
        name: input.name ?? current.view.name,
        resource: input.resource ?? current.view.resource,
        expression: input.expression ?? current.view.expression,
        ordering: input.ordering === undefined ? current.view.ordering : input.ordering,
      };
      const changed = (Object.keys(next) as (keyof typeof next)[]).filter((key) => next[key] !== current.view[key]);
      if (changed.length === 0) return current.view;
      if (changed.some((key) => key !== 'name')) this.check(next.resource, next.expression, next.ordering);
      const changes: SavedReportChanges = { modified: nowIso(this.deps.clock) };
      for (const key of changed) Object.assign(changes, { [key]: next[key] });
      await tx.savedReports.update(current.id, changes);
      const after = (await tx.savedReports.findById(current.id))!.view;
      await this.deps.audit.recordUpdate(tx, ctx, 'saved_report.updated', after.public_id, current.view, after);
      return after;
    });
  }

  async delete(ctx: RequestContext, publicId: string, options: WriteOptions = {}): Promise<void> {
    authorize(ctx.actor, 'reports:write');
    await this.deps.storage.transaction(async (tx) => {
      const current = await this.require(tx, publicId);
      this.assertMayChange(ctx.actor, current);
      assertIfMatch(options.ifMatch, current.view);
      await tx.savedReports.softDelete(current.id, nowIso(this.deps.clock));
      await this.deps.audit.record(tx, ctx, 'saved_report.deleted', current.view.public_id);
    });
  }

  /**
   * `GET /saved-reports/<id>/results/`: the resource's list, narrowed by the stored expression, with
   * the request's list parameters on top. Order: the request's `ordering`, else the report's
   * `ordering`, else the expression's `ordering(...)`, else the list's default.
   */
  async results(ctx: RequestContext, publicId: string, params: QueryParams): Promise<ListResult<unknown>> {
    authorize(ctx.actor, 'reports:read');
    const report = (await this.require(this.deps.storage, publicId)).view;
    const lister = this.listers[report.resource];
    const definition = reportResourceDefinitions[report.resource];
    if (!lister || !definition) throw conflict('conflict', `Reports over ${report.resource} cannot run in this version of Lectern.`);
    let validated: RqlValidated;
    try {
      validated = compileRql(report.expression, definition.catalogue);
    } catch (error) {
      // only possible when the fields of a resource changed since the report was saved
      if (!isRqlError(error)) throw error;
      throw conflict('conflict', `The report's expression no longer validates: ${error.message}. Correct it with PATCH.`);
    }
    const requested = readParam(params, 'ordering')?.trim();
    if (requested) return lister(ctx, params, { rql: { filter: validated.filter, ordering: [] } });
    if (report.ordering !== null) {
      return lister(ctx, withParam(params, 'ordering', report.ordering), { rql: { filter: validated.filter, ordering: [] } });
    }
    return lister(ctx, params, { rql: validated });
  }

  /** The 422s of a report that would not run: unknown resource, bad expression, bad ordering. */
  private check(resource: ReportResource, expression: string, ordering: string | null): void {
    const definition = this.definition(resource);
    try {
      compileRql(expression, definition.catalogue);
    } catch (error) {
      if (isRqlError(error)) throw rqlToFieldError(error);
      throw error;
    }
    if (ordering === null) return;
    const { unsortable } = readOrdering(definition.listSpec, ordering);
    if (unsortable.length > 0) {
      throw fieldError(
        'ordering',
        `Cannot sort ${resource} by ${unsortable.map((field) => `'${field}'`).join(', ')}. Sortable fields: ${definition.listSpec.ordering.join(', ')}.`,
      );
    }
  }

  private definition(resource: ReportResource): ReportResourceDefinition {
    const definition = reportResourceDefinitions[resource];
    if (!definition || !this.listers[resource])
      throw fieldError('resource', `Reports over ${resource} are not available in this version of Lectern.`);
    return definition;
  }

  /** Everyone who may read reports sees all of the tenant's; only the creator or an admin changes one. */
  private assertMayChange(actor: Actor, report: SavedReportRecord): void {
    if (isAdmin(actor)) return;
    if (actor.kind === 'user' && report.createdById === actor.userId) return;
    throw forbidden('Only the creator of a saved report or an admin can change or delete it.');
  }
}

/** A copy of `params` with `key` set. */
function withParam(params: QueryParams, key: string, value: string): URLSearchParams {
  const copy = new URLSearchParams(params instanceof URLSearchParams ? params : undefined);
  if (!(params instanceof URLSearchParams)) {
    // an embedder's values read as every list reads them: a number as its text, an object refused
    for (const name of Object.keys(params)) {
      const current = readParam(params, name);
      if (current !== undefined) copy.append(name, current);
    }
  }
  copy.set(key, value);
  return copy;
}
