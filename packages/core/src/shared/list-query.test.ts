import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LecternError } from './errors.ts';
import { parseListQuery, toListResult, type ListSpec } from './list-query.ts';

const spec = {
  filters: {
    role: { kind: 'enum', values: ['admin', 'user'] },
    kinds: { kind: 'enum', values: ['a', 'b', 'c'], multiple: true },
    active: { kind: 'boolean' },
    owner: { kind: 'uuid' },
    tags: { kind: 'strings' },
    size: { kind: 'integer' },
    label: { kind: 'string' },
  },
  ranges: { created: 'datetime', due: 'date' },
  search: true,
  ordering: ['name', 'created'],
  defaultOrdering: ['created'],
} as const satisfies ListSpec;

const parse = (query: string) => parseListQuery(spec, new URLSearchParams(query));
const rejects = (query: string, parameter: string) =>
  assert.throws(
    () => parse(query),
    (error: unknown) => error instanceof LecternError && error.code === 'bad_request' && error.message.includes(`'${parameter}'`),
    query,
  );

describe('parseListQuery', () => {
  it('applies defaults', () => {
    assert.deepEqual(parse(''), { page: 1, pageSize: 25, filters: {}, ranges: {}, ordering: [{ field: 'created', descending: false }] });
  });

  it('clamps page_size to 100 and rejects non-positive or non-integer paging', () => {
    assert.equal(parse('page_size=500').pageSize, 100);
    assert.equal(parse('page=3&page_size=10').page, 3);
    for (const bad of ['page=0', 'page=-1', 'page=1.5', 'page=x']) rejects(bad, 'page');
    for (const bad of ['page_size=0', 'page_size=ten']) rejects(bad, 'page_size');
  });

  it('parses each filter kind and rejects malformed values', () => {
    const uuid = '4b1f9d3e-8a7c-4c2e-9f10-3d5b6a7c8e9f';
    assert.deepEqual(parse(`role=admin&kinds=a,c&active=FALSE&owner=${uuid}&tags=x, y&size=-3&label=hi`).filters, {
      role: 'admin',
      kinds: ['a', 'c'],
      active: false,
      owner: uuid,
      tags: ['x', 'y'],
      size: -3,
      label: 'hi',
    });
    rejects('role=root', 'role');
    rejects('kinds=a,z', 'kinds');
    rejects('active=yes', 'active');
    rejects('owner=123', 'owner');
    rejects('size=1e3', 'size');
    rejects('tags=,,', 'tags');
  });

  it('ignores empty and unknown parameters', () => {
    assert.deepEqual(parse('role=&colour=red').filters, {});
  });

  it('normalises bounds: dates whole-day for datetimes, zones to UTC', () => {
    assert.deepEqual(parse('created__gte=2026-01-31&created__lte=2026-01-31').ranges.created, {
      gte: '2026-01-31T00:00:00.000Z',
      lte: '2026-01-31T23:59:59.999Z',
    });
    assert.equal(parse('created__gte=2026-01-31T10:00:00%2B02:00').ranges.created?.gte, '2026-01-31T08:00:00.000Z');
    assert.equal(parse('due__lte=2026-02-28').ranges.due?.lte, '2026-02-28');
    rejects('due__lte=2026-02-30', 'due__lte');
    rejects('due__gte=2026-02-01T00:00:00Z', 'due__gte');
    rejects('created__gte=last week', 'created__gte');
  });

  it('parses comma-separated ordering with - and +, rejecting unknown fields', () => {
    assert.deepEqual(parse('ordering=-name,+created,name').ordering, [
      { field: 'name', descending: true },
      { field: 'created', descending: false },
    ]);
    rejects('ordering=secret', 'ordering');
  });

  it('trims search and drops it when blank', () => {
    assert.equal(parse('search=%20ada%20').search, 'ada');
    assert.equal(parse('search=%20').search, undefined);
  });

  it('refuses the NUL character in any parameter it reads', () => {
    rejects('search=a%00b', 'search');
    rejects('label=%00', 'label');
    rejects('ordering=name%00', 'ordering');
  });

  it('builds the pagination envelope', () => {
    const query = parse('page=2&page_size=2');
    assert.deepEqual(
      toListResult(query, { items: [1, 2], total: 7 }, (n) => n * 10),
      {
        data: [10, 20],
        meta: { page: 2, page_size: 2, total_count: 7 },
      },
    );
  });
});
