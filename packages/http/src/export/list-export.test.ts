import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LecternError } from '@lectern/core';
import { exportFormatOf, resourceOfRoute } from './list-export.ts';

describe('list exports', () => {
  it('read format= on reads only: csv and ndjson export, json or none is a page, anything else is a 400', () => {
    const of = (method: string, query: string) => exportFormatOf(method, new URLSearchParams(query));
    assert.equal(of('GET', 'format=csv'), 'csv');
    assert.equal(of('HEAD', 'format=ndjson'), 'ndjson');
    assert.equal(of('GET', 'format=json'), undefined);
    assert.equal(of('GET', ''), undefined);
    assert.equal(of('POST', 'format=xml'), undefined);
    assert.throws(
      () => of('GET', 'format=xml'),
      (error) => error instanceof LecternError && error.code === 'bad_request',
    );
  });

  it('name the file after the route, without its parameters and version', () => {
    assert.equal(resourceOfRoute('/api/v2/users'), 'users');
    assert.equal(resourceOfRoute('/api/v2/groups/:id/members'), 'groups-members');
    assert.equal(resourceOfRoute('/api/v2/saved-reports/:id/results'), 'saved-reports-results');
    assert.equal(resourceOfRoute('/public_api/v2/webhooks'), 'webhooks');
    assert.equal(resourceOfRoute(''), 'export');
  });
});
