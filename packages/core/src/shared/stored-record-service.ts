import { authorize, type RequestContext } from '../auth/actor.ts';
import type { Scope } from '../auth/scopes.ts';
import type { ListNarrowing } from '../ports/list-narrowing.ts';
import type { Stores } from '../ports/storage.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { notFound } from './errors.ts';
import type { StoredRecord } from './stored-record.ts';
import { parseListQuery, toListResult, type ListQuery, type ListResult, type ListSpec, type Page, type QueryParams } from './list-query.ts';

/** The part of an area's store that its reads use. */
export interface RecordStore<R> {
  list(query: ListQuery, narrowing?: ListNarrowing): Promise<Page<R>>;
  findByPublicId(publicId: string): Promise<R | undefined>;
}

/** What an area's reads are made of. */
export interface RecordReads<R> {
  /** the scope its list and get need */
  readScope: Scope;
  listSpec: ListSpec;
  /** the resource in a 404's message ('Saved report') */
  noun: string;
  store: (stores: Stores) => RecordStore<R>;
  /** ids that cannot be one of the area's (not a UUID) are not found without asking the store */
  isPublicId?: (id: string) => boolean;
}

/**
 * The reads of an area whose records everyone with its read scope sees alike (users, groups,
 * channels, saved reports): a page of views, one view by public id, and `require`, the record a
 * write works on or a 404. Areas whose records are seen per caller (a learner's own assignments)
 * write their reads themselves.
 */
export abstract class StoredRecordService<R extends StoredRecord<V>, V> {
  protected constructor(
    protected readonly deps: ServiceDeps,
    private readonly reads: RecordReads<R>,
  ) {}

  /** `narrowing` is a saved report's (see SavedReportService.results), for the areas reports run over. */
  async list(ctx: RequestContext, params: QueryParams, narrowing: ListNarrowing = {}): Promise<ListResult<V>> {
    authorize(ctx.actor, this.reads.readScope);
    const query = parseListQuery(this.reads.listSpec, params);
    return toListResult(query, await this.reads.store(this.deps.storage).list(query, narrowing), (record) => record.view);
  }

  async get(ctx: RequestContext, publicId: string): Promise<V> {
    authorize(ctx.actor, this.reads.readScope);
    return (await this.require(this.deps.storage, publicId)).view;
  }

  protected async require(stores: Stores, publicId: string): Promise<R> {
    const possible = this.reads.isPublicId?.(publicId) ?? true;
    const record = possible ? await this.reads.store(stores).findByPublicId(publicId) : undefined;
    if (!record) throw notFound(this.reads.noun);
    return record;
  }
}
