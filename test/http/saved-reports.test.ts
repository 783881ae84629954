import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError, expectFieldError, userWithToken, type ApiClient, type ApiResponse, useServer } from '../helpers/server.ts';

const reportKeys = ['public_id', 'name', 'resource', 'expression', 'ordering', 'created_by', 'created', 'modified'];

let runCounter = 0;
/** A marker unique to one test, put into names and emails so expressions can scope to that test's rows. */
const runTag = () => `r${process.pid}x${Date.now()}x${runCounter++}`;

const idsOf = (...items: any[]) => items.map((item) => item.public_id);
const sorted = (ids: string[]) => [...ids].sort();

/** The 422 on `expression`, whose message starts with the position of the fault. */
function expectExpressionError(response: ApiResponse, position: number, pattern?: RegExp): void {
  expectFieldError(response, 'expression');
  const [message] = response.body.error.field_errors.expression;
  assert.match(message, new RegExp(`^Position ${position}: `), message);
  if (pattern) assert.match(message, pattern);
}

describe('saved reports', () => {
  const server = useServer();
  let api: ApiClient;
  before(async () => {
    api = server.api;
  });

  const report = async (resource: string, expression: string, fields: Record<string, unknown> = {}, client = api) => {
    const response = await client.post('/api/v2/saved-reports/', { name: `${resource} report`, resource, expression, ...fields });
    assert.equal(response.status, 201, response.text);
    return response.body;
  };
  const results = async (saved: any, query = '', client = api) => {
    const response = await client.get(`/api/v2/saved-reports/${saved.public_id}/results/?${query}`);
    assert.equal(response.status, 200, response.text);
    return response.body;
  };
  /** The public ids a stored expression selects (all pages' worth: at most 100 rows in these tests). */
  const run = async (resource: string, expression: string, query = '') =>
    (await results(await report(resource, expression), `page_size=100&${query}`)).data.map((row: any) => row.public_id);

  /** A POST that must create (201); the created resource. */
  const created = async (path: string, body: unknown) => {
    const response = await api.post(`/api/v2/${path}/`, body);
    assert.equal(response.status, 201, response.text);
    return response.body;
  };
  const newUser = (fields: Record<string, unknown>) => created('users', fields);
  const newGroup = (fields: Record<string, unknown>) => created('groups', fields);
  const newContent = (path: string, fields: Record<string, unknown>) => created(path, fields);

  describe('CRUD', () => {
    it('creates, reads, lists, renames and deletes a report', async () => {
      const tag = runTag();
      const created = await api.post('/api/v2/saved-reports/', {
        name: `  Organizers ${tag} `,
        resource: 'users',
        expression: 'and(eq(role,organizer),ilike(email,*@example.com))',
      });
      assert.equal(created.status, 201, created.text);
      assert.ok(created.headers.get('etag'));
      const saved = created.body;
      assert.deepEqual(Object.keys(saved), reportKeys);
      assert.equal(saved.name, `Organizers ${tag}`);
      assert.equal(saved.ordering, null);
      assert.equal(saved.created, saved.modified);
      const admin = (await api.get('/api/v2/users/?email=admin@example.com')).body.data[0];
      assert.deepEqual(saved.created_by, { public_id: admin.public_id, name: admin.name, email: admin.email });

      const path = `/api/v2/saved-reports/${saved.public_id}/`;
      const read = await api.get(path);
      assert.deepEqual(read.body, saved);
      assert.equal((await api.get(path, { headers: { 'if-none-match': read.headers.get('etag')! } })).status, 304);
      assert.equal((await api.get(path.slice(0, -1))).status, 200, 'the path works without the trailing slash');

      const listed = await api.get(`/api/v2/saved-reports/?search=${tag}`);
      assert.deepEqual(listed.body.data, [saved]);
      assert.equal(listed.body.meta.total_count, 1);

      const renamed = await api.patch(path, { name: 'Renamed' }, { headers: { 'if-match': read.headers.get('etag')! } });
      assert.equal(renamed.status, 200, renamed.text);
      assert.equal(renamed.body.name, 'Renamed');
      assert.ok(renamed.body.modified >= saved.modified);
      expectError(
        await api.patch(path, { name: 'Again' }, { headers: { 'if-match': read.headers.get('etag')! } }),
        412,
        'precondition_failed',
      );

      const deleted = await api.delete(path);
      assert.equal(deleted.status, 204);
      assert.equal(deleted.text, '');
      expectError(await api.get(path), 404, 'not_found');
      expectError(await api.get(`${path}results/`), 404, 'not_found');
      expectError(await api.delete(path), 404, 'not_found');
      expectError(await api.get('/api/v2/saved-reports/not-a-uuid/'), 404, 'not_found');
      assert.equal((await api.put(path, {})).status, 405);
    });

    it('changes the expression, ordering and resource, re-checking them together', async () => {
      const saved = await report('users', 'eq(role,admin)');
      const path = `/api/v2/saved-reports/${saved.public_id}/`;
      const changed = await api.patch(path, { expression: 'ne(employee_id,null())', ordering: '-name' });
      assert.equal(changed.status, 200, changed.text);
      assert.equal(changed.body.expression, 'ne(employee_id,null())');
      assert.equal(changed.body.ordering, '-name');
      // employee_id is no field of groups: the new resource is checked against the stored expression
      expectExpressionError(await api.patch(path, { resource: 'groups' }), 3, /Unknown field 'employee_id'/);
      // and -name is a sortable field of groups, but the change needs a valid expression too
      const moved = await api.patch(path, { resource: 'groups', expression: 'ge(member_count,0)' });
      assert.equal(moved.status, 200, moved.text);
      assert.equal(moved.body.resource, 'groups');
      expectFieldError(await api.patch(path, { ordering: 'email' }), 'ordering');
      const cleared = await api.patch(path, { ordering: null });
      assert.equal(cleared.body.ordering, null);
      const same = await api.patch(path, { name: cleared.body.name, expression: cleared.body.expression });
      assert.equal(same.body.modified, cleared.body.modified, 'a PATCH that changes nothing keeps modified');
    });

    it('rejects bad bodies field by field', async () => {
      const post = (body: unknown) => api.post('/api/v2/saved-reports/', body);
      expectFieldError(await post({ resource: 'users', expression: '' }), 'name');
      expectFieldError(await post({ name: 'x', resource: 'lessons', expression: '' }), 'resource');
      expectFieldError(await post({ name: 'x', resource: 'users' }), 'expression');
      expectFieldError(await post({ name: 'x', resource: 'users', expression: 5 }), 'expression');
      expectFieldError(await post({ name: 'x', resource: 'users', expression: '', colour: 'red' }), 'colour');
      expectFieldError(await post({ name: 'x', resource: 'users', expression: '', ordering: 'shoe_size' }), 'ordering');
      expectFieldError(await post({ name: 'x', resource: 'users', expression: 'a'.repeat(10_001) }), 'expression');
      // an empty expression is valid RQL: the report lists everything
      const everything = await report('users', '', { ordering: '' });
      assert.equal(everything.ordering, null);
    });

    it('lists reports with filters and ordering', async () => {
      const tag = runTag();
      const a = await report('users', '', { name: `${tag} b` });
      const b = await report('groups', '', { name: `${tag} A` });
      const c = await report('content_items', '', { name: `${tag} c` });
      const ids = async (query: string) =>
        (await api.get(`/api/v2/saved-reports/?search=${tag}&${query}`)).body.data.map((r: any) => r.public_id);
      assert.deepEqual(await ids(''), idsOf(a, b, c), 'oldest first by default');
      assert.deepEqual(await ids('ordering=name'), idsOf(b, a, c), 'names ignore case');
      assert.deepEqual(await ids('resource=groups,content_items&ordering=-created'), idsOf(c, b));
      assert.deepEqual(await ids(`created_by=${a.created_by.public_id}&resource=users`), idsOf(a));
      expectError(await api.get('/api/v2/saved-reports/?resource=lessons'), 400, 'bad_request');
      expectError(await api.get('/api/v2/saved-reports/?ordering=expression'), 400, 'bad_request');
    });
  });

  describe('expression errors (422 on expression with the position)', () => {
    const cases: Array<[string, number, RegExp]> = [
      ['p=', 2, /Expected a value after '='/],
      ['and =ge=or', 3, /Spaces are allowed only inside values/],
      ["'p=v'", 0, /quoted value cannot stand alone/],
      ['v=1,,f=g', 4, /remove the extra separator/],
      ['1name=x', 0, /must start with a letter/],
      ['like(name,a**)', 11, /'\*\*' is not a valid pattern/],
      ['eq(nmae,x)', 3, /Unknown field 'nmae'.*Known fields: public_id, email, name/],
      ['eq(manager,x)', 3, /'manager' is an object; use one of its fields: manager.public_id, manager.name, manager.email/],
      ['eq(is_active,yes)', 13, /Expected true or false for 'is_active', got 'yes'/],
      ['eq(is_active,empty())', 13, /empty\(\) cannot be used with the boolean field/],
      ['eq(email,null())', 9, /'email' is never null/],
      ['gt(role,admin)', 0, /gt\(\) cannot be used with the enum field 'role'/],
      ['eq(role,owner)', 8, /Allowed: admin, organizer, user/],
      ['lt(date_joined,2026-13-01)', 15, /Expected a datetime/],
      ['eq(public_id,42)', 13, /Expected a UUID/],
      ['select(name)', 0, /select\(\) is not supported/],
      ['eq(name,x),limit=10', 11, /limit= is not supported/],
      ['eq(name,x)|eq(name,y)', 10, /'\|' is only allowed inside parentheses/],
      ['ordering(shoe_size)', 9, /Unknown field 'shoe_size'/],
    ];
    for (const [expression, position, pattern] of cases) {
      it(expression, async () => {
        const response = await api.post('/api/v2/saved-reports/', { name: 'bad', resource: 'users', expression });
        expectExpressionError(response, position, pattern);
      });
    }

    it('checks PATCH the same way', async () => {
      const saved = await report('users', '');
      expectExpressionError(await api.patch(`/api/v2/saved-reports/${saved.public_id}/`, { expression: 'eq(name' }), 7, /Expected ','/);
      assert.equal((await api.get(`/api/v2/saved-reports/${saved.public_id}/`)).body.expression, '');
    });
  });

  describe('size limits (422 at save, never a 500 when run)', () => {
    const terms = (count: number, term: (i: number) => string) => Array.from({ length: count }, (_, i) => term(i)).join(',');
    const cases: Array<[string, string, number]> = [
      ['1 000 infix terms', terms(1000, () => 'name=a'), 256 * 'name=a,'.length],
      ['a 1 000-way or', `or(${terms(1000, () => 'name=a')})`, 'or('.length + 256 * 'name=a,'.length],
      ['an in() with 1 000 values', `in(name,(${terms(1000, () => 'a')}))`, 'in(name,('.length + 256 * 'a,'.length],
    ];
    for (const [label, expression, position] of cases) {
      it(`refuses ${label} at the first term over the limit`, async () => {
        const response = await api.post('/api/v2/saved-reports/', { name: 'big', resource: 'users', expression });
        expectExpressionError(response, position, /more than 256 terms/);
      });
    }

    it('runs an expression of 256 terms', async () => {
      const tag = runTag();
      const user = await newUser({ email: `${tag}@example.com`, name: tag });
      assert.deepEqual(await run('users', `or(${terms(255, (i) => `name=q${i}q`)},eq(name,${tag}))`), idsOf(user));
      assert.deepEqual(await run('users', `in(name,(${terms(255, (i) => `q${i}q`)},${tag}))`), idsOf(user));
      assert.deepEqual(await run('users', `${terms(255, (i) => `ne(name,q${i}q)`)},eq(name,${tag})`), idsOf(user));
    });

    it('refuses nesting deeper than the limit without exhausting the stack', async () => {
      for (const opener of ['(', 'not(', 'and(', 'or(eq(name,a),']) {
        // as deep as the expression's length limit allows
        const expression = `${opener.repeat(Math.floor(9_000 / opener.length))}eq(name,a)`;
        const response = await api.post('/api/v2/saved-reports/', { name: 'deep', resource: 'users', expression });
        expectFieldError(response, 'expression');
        assert.match(response.body.error.field_errors.expression[0], /nests more than 32 levels deep/);
      }
    });

    it('runs the deepest nesting allowed', async () => {
      const tag = runTag();
      const user = await newUser({ email: `${tag}@example.com`, name: tag });
      let expression = `eq(name,${tag})`;
      // 31 levels around the innermost test: 16 not() (an even number, so they cancel) and 15 or()
      for (let level = 1; level < 32; level++) expression = level % 2 ? `not(${expression})` : `or(eq(name,${tag}x),${expression})`;
      assert.deepEqual(await run('users', expression), idsOf(user));
    });
  });

  describe('permissions', () => {
    it('keeps role user out (403 forbidden) and needs the reports scopes', async () => {
      const learner = await userWithToken(server, 'user');
      const saved = await report('users', '');
      expectError(await learner.api.get('/api/v2/saved-reports/'), 403, 'forbidden');
      expectError(await learner.api.get(`/api/v2/saved-reports/${saved.public_id}/results/`), 403, 'forbidden');
      expectError(await learner.api.post('/api/v2/saved-reports/', { name: 'x', resource: 'users', expression: '' }), 403, 'forbidden');

      const readOnly = await userWithToken(server, 'organizer', 'reports:read,users:read');
      assert.equal((await readOnly.api.get(`/api/v2/saved-reports/${saved.public_id}/results/`)).status, 200);
      expectError(
        await readOnly.api.post('/api/v2/saved-reports/', { name: 'x', resource: 'users', expression: '' }),
        403,
        'insufficient_scope',
      );
      const noUsers = await userWithToken(server, 'organizer', 'reports:read');
      const refused = await noUsers.api.get(`/api/v2/saved-reports/${saved.public_id}/results/`);
      expectError(refused, 403, 'insufficient_scope');
      assert.match(refused.body.error.message, /users:read/, 'results need the resource scope too');
    });

    it('lets every reader see all reports, but only the creator or an admin change one', async () => {
      const alice = await userWithToken(server, 'organizer');
      const bob = await userWithToken(server, 'organizer');
      const mine = await report('groups', 'ge(member_count,0)', {}, alice.api);
      assert.equal(mine.created_by.public_id, alice.user.public_id);
      const path = `/api/v2/saved-reports/${mine.public_id}/`;
      assert.equal((await bob.api.get(path)).status, 200);
      assert.equal((await bob.api.get(`${path}results/`)).status, 200);
      assert.ok(
        (await bob.api.get('/api/v2/saved-reports/?page_size=100&ordering=-created')).body.data.some(
          (r: any) => r.public_id === mine.public_id,
        ),
      );
      expectError(await bob.api.patch(path, { name: 'Taken over' }), 403, 'forbidden');
      expectError(await bob.api.delete(path), 403, 'forbidden');
      assert.equal((await alice.api.patch(path, { name: 'Still mine' })).status, 200);
      assert.equal((await api.patch(path, { name: 'Admin edit' })).status, 200);
      assert.equal((await api.delete(path)).status, 204);
    });
  });

  describe('users', () => {
    let tag: string;
    let people: Record<string, any>;
    before(async () => {
      tag = runTag();
      const boss = await newUser({ email: `boss.${tag}@example.com`, name: `Boss ${tag}`, role: 'organizer', employee_id: 'E-1' });
      const ann = await newUser({ email: `ann.${tag}@example.com`, name: `Ann ${tag}`, manager: boss.public_id, employee_id: 'E-2' });
      const cid = await newUser({ email: `cid.${tag}@corp.test`, name: `cid ${tag}`, role: 'organizer', manager: boss.public_id });
      const dee = await newUser({ email: `dee.${tag}@example.com`, name: `Dee, "the" ${tag}`, role: 'admin' });
      const off = await api.patch(`/api/v2/users/${dee.public_id}/`, { is_active: false });
      assert.equal(off.status, 200, off.text);
      people = { boss, ann, cid, dee: off.body };
    });
    const scoped = (expression: string) => `and(like(name,*${tag}),${expression})`;
    const expectUsers = async (expression: string, ...names: string[]) =>
      assert.deepEqual(sorted(await run('users', scoped(expression))), sorted(names.map((n) => people[n].public_id)), expression);

    it('filters on every kind of field', async () => {
      await expectUsers('and(eq(role,organizer),ilike(email,*@EXAMPLE.com))', 'boss');
      await expectUsers('or(eq(role,admin),eq(role,organizer))', 'boss', 'cid', 'dee');
      await expectUsers('(role=admin|role=organizer)&is_active=true', 'boss', 'cid');
      await expectUsers('not(eq(is_active,false))', 'boss', 'ann', 'cid');
      await expectUsers('eq(employee_id,null())', 'cid', 'dee');
      await expectUsers('ne(manager.email,null())', 'ann', 'cid');
      await expectUsers(`eq(manager.public_id,${people.boss.public_id.toUpperCase()})`, 'ann', 'cid');
      await expectUsers(`in(manager.name,("Boss ${tag}",nobody))`, 'ann', 'cid');
      await expectUsers('out(role,(user))', 'boss', 'cid', 'dee');
      await expectUsers('like(email,c*)', 'cid');
      await expectUsers('like(name,C*)');
      await expectUsers('ilike(name,C*)', 'cid');
      await expectUsers(`eq(name,'Dee, "the" ${tag}')`, 'dee');
      await expectUsers(`search=CORP.test`, 'cid');
      await expectUsers(`ge(date_joined,2000-01-01),lt(date_joined,2999-01-01T00:00:00+02:00)`, 'boss', 'ann', 'cid', 'dee');
      await expectUsers('le(date_joined,2000-01-01)');
      await expectUsers('eq(name,null)');
    });

    it('ANDs the list filters of the request, and pages', async () => {
      const saved = await report('users', scoped('eq(is_active,true)'));
      const ids = async (query: string) => (await results(saved, query)).data.map((u: any) => u.public_id);
      assert.deepEqual(sorted(await ids('role=organizer')), sorted(idsOf(people.boss, people.cid)));
      assert.deepEqual(await ids(`manager=${people.boss.public_id}&search=ann`), idsOf(people.ann));
      assert.deepEqual(await ids('role=admin'), [], 'dee is an admin but inactive');
      const page = await results(saved, 'ordering=email&page=2&page_size=2');
      assert.deepEqual(page.meta, { page: 2, page_size: 2, total_count: 3 });
      assert.deepEqual(
        page.data.map((u: any) => u.public_id),
        idsOf(people.cid),
      );
      expectError(await api.get(`/api/v2/saved-reports/${saved.public_id}/results/?is_active=maybe`), 400, 'bad_request');
      expectError(await api.get(`/api/v2/saved-reports/${saved.public_id}/results/?ordering=shoe_size`), 400, 'bad_request');
      expectError(await api.get(`/api/v2/saved-reports/${saved.public_id}/results/?page=0`), 400, 'bad_request');
    });

    it('orders by the request, else the report, else the expression, else the list default', async () => {
      const byName = await report('users', `${scoped('eq(role,organizer)')},ordering(-name)`);
      const names = async (saved: any, query = '') => (await results(saved, query)).data.map((u: any) => u.public_id);
      // ordering() compares as RQL does, by code point: 'cid' (lower case) after 'Boss'
      assert.deepEqual(await names(byName), idsOf(people.cid, people.boss));
      assert.deepEqual(await names(byName, 'ordering=email'), idsOf(people.boss, people.cid));
      const withField = await report('users', `${scoped('eq(role,organizer)')},ordering(-name)`, { ordering: '-date_joined' });
      assert.deepEqual(await names(withField), idsOf(people.cid, people.boss));
      assert.deepEqual(await names(await report('users', scoped('eq(role,organizer)'))), idsOf(people.boss, people.cid));
      const byManager = await report('users', `${scoped('eq(is_active,true)')},ordering(manager.email,-email)`);
      assert.deepEqual(await names(byManager), idsOf(people.boss, people.cid, people.ann), 'nulls first, then by email descending');
    });

    it('matches hostile values literally', async () => {
      const hostile = ["Robert'); DROP TABLE users;--", '50% off_now', 'back\\slash', 'Zoë 😀'];
      const own = runTag();
      const made = [];
      for (const [index, name] of hostile.entries()) {
        made.push(await newUser({ email: `hostile${index}.${own}@example.com`, name: `${name} ${own}` }));
      }
      const quote = (value: string) => (value.includes("'") ? `"${value}"` : `'${value}'`);
      for (const [index, name] of hostile.entries()) {
        assert.deepEqual(await run('users', `eq(name,${quote(`${name} ${own}`)})`), idsOf(made[index]), name);
        assert.deepEqual(await run('users', `like(name,${quote(`${name}*`)})`), idsOf(made[index]), `like ${name}`);
      }
      assert.deepEqual(await run('users', `like(name,'50_ off*')`), []);
      assert.deepEqual(await run('users', `ilike(name,'*% OFF*')`), idsOf(made[1]));
      assert.ok((await api.get('/api/v2/users/?page_size=1')).body.meta.total_count > 0, 'the users table is still there');
    });
  });

  describe('case folding covers every letter', () => {
    it('in ilike and search', async () => {
      const tag = runTag();
      const russian = await newUser({ email: `ru.${tag}@example.com`, name: `${tag} Привет` });
      const french = await newUser({ email: `fr.${tag}@example.com`, name: `${tag} café` });
      assert.deepEqual(await run('users', `ilike(name,'${tag} ПРИВЕТ')`), idsOf(russian));
      assert.deepEqual(await run('users', `ilike(name,${tag}*),ilike(name,*É*)`), idsOf(french));
      assert.deepEqual(await run('users', `search=${tag} ПРИВ`), idsOf(russian));
      assert.deepEqual(await run('users', `ilike(name,${tag}*),not(search=CAFÉ)`), idsOf(russian));
      assert.deepEqual(await run('users', `like(name,'${tag} привет')`), [], 'like stays case-sensitive');
    });
  });

  describe('backslashes in patterns', () => {
    it('reads \\\\ as one literal backslash, as django-rql does', async () => {
      const tag = runTag();
      const slash = await newUser({ email: `s.${tag}@example.com`, name: `${tag}\\x` });
      const star = await newUser({ email: `t.${tag}@example.com`, name: `${tag}\\*` });
      assert.deepEqual(sorted(await run('users', `like(name,${tag}\\\\*)`)), sorted(idsOf(slash, star)));
      assert.deepEqual(await run('users', `like(name,"${tag}\\\\\\*")`), idsOf(star));
      assert.deepEqual(await run('users', `like(name,${tag}\\x)`), idsOf(slash), 'a backslash before another character is itself');
    });
  });

  describe('ordering with a repeated field', () => {
    it('keeps the first occurrence, in a report as in the list parameter', async () => {
      const tag = runTag();
      const [first, second] = [
        await newUser({ email: `a${tag}@example.com`, name: `${tag} a` }),
        await newUser({ email: `b${tag}@example.com`, name: `${tag} b` }),
      ];
      assert.deepEqual(await run('users', `ilike(name,${tag}*),ordering(-name,name)`), idsOf(second, first));
      assert.deepEqual(await run('users', `ilike(name,${tag}*),ordering(name,-name)`), idsOf(first, second));
      const list = await api.get(`/api/v2/users/?search=${tag}&ordering=-name,name`);
      assert.deepEqual(
        list.body.data.map((user: any) => user.public_id),
        idsOf(second, first),
      );
    });
  });

  describe('groups', () => {
    it('filters on counts, sources and owners', async () => {
      const tag = runTag();
      const owner = await newUser({ email: `owner.${tag}@example.com`, name: `Owner ${tag}` });
      const member = await newUser({ email: `member.${tag}@example.com`, name: `Member ${tag}` });
      const eng = await newGroup({ name: `Eng ${tag}`, source: 'ldap' });
      const sales = await newGroup({ name: `Sales ${tag}`, source: null });
      const gone = await newGroup({ name: `Gone ${tag}` });
      await api.post(`/api/v2/groups/${eng.public_id}/members/`, { member_ids: [owner.public_id, member.public_id] });
      await api.post(`/api/v2/groups/${sales.public_id}/owners/`, { member_ids: [owner.public_id] });
      assert.equal((await api.delete(`/api/v2/groups/${gone.public_id}/`)).status, 204);
      const expectGroups = async (expression: string, ...groups: any[]) =>
        assert.deepEqual(sorted(await run('groups', `like(name,*${tag}),${expression}`)), sorted(idsOf(...groups)), expression);
      await expectGroups('ge(member_count,2)', eng);
      await expectGroups('eq(member_count,0)', sales);
      await expectGroups('eq(source,null())', sales);
      await expectGroups('ne(source,ldap)', sales);
      await expectGroups(`eq(owners,owner.${tag}@example.com)`, sales);
      await expectGroups(`eq(owners.public_id,${owner.public_id})`, sales);
      await expectGroups(`eq(owners,${owner.public_id})`, sales);
      await expectGroups('search=LDAP', eng);
      await expectGroups('like(name,Eng*)', eng);
      await expectGroups('ordering(-member_count)', eng, sales);
      const saved = await report('groups', `like(name,*${tag})`);
      assert.deepEqual(
        (await results(saved, 'source=ldap')).data.map((g: any) => g.name),
        [`Eng ${tag}`],
      );
      assert.deepEqual(
        (await results(saved, 'ordering=-name')).data.map((g: any) => g.name),
        [`Sales ${tag}`, `Eng ${tag}`],
      );
    });
  });

  describe('assignments', () => {
    it('filters on the assignment, its user and its content item', async () => {
      const tag = runTag();
      const ann = await newUser({ email: `ann.${tag}@example.com`, name: `Ann ${tag}` });
      const bob = await newUser({ email: `bob.${tag}@corp.test`, name: `Bob ${tag}` });
      const article = await newContent('articles', { name: `Article ${tag}` });
      const video = await newContent('videos', { name: `Video ${tag}` });
      const course = await newContent('courses', { name: `Course ${tag}` });
      const assign = (user: any, item: any, fields: Record<string, unknown> = {}) =>
        created('assignments', { user_id: user.public_id, content_item_id: item.public_id, ...fields });
      const act = async (assignment: any, action: string, body: unknown = {}) => {
        const response = await api.post(`/api/v2/assignments/${assignment.public_id}/${action}/`, body);
        assert.equal(response.status, 200, response.text);
        return response.body;
      };
      const annArticle = await assign(ann, article, { due_date: '2001-01-01' });
      const annVideo = await assign(ann, video);
      const bobArticle = await assign(bob, article, { due_date: '2999-12-31' });
      const bobCourse = await assign(bob, course);
      await act(annVideo, 'progress', { progress: 0.5, score: 7.5, is_success: true });
      await act(bobArticle, 'complete');
      await act(bobArticle, 'feedback', { rating: 4 });
      await act(bobCourse, 'drop', { reason: 'left' });

      const expectAssignments = async (expression: string, ...rows: any[]) =>
        assert.deepEqual(sorted(await run('assignments', `like(user.name,*${tag}),${expression}`)), sorted(idsOf(...rows)), expression);
      await expectAssignments('and(eq(state,completed),ilike(user.email,*@CORP.test))', bobArticle);
      await expectAssignments('or(eq(state,not_started),eq(state,in_progress))', annArticle, annVideo);
      await expectAssignments('state=in_progress&due_date=lt=2026-01-01', ...[]);
      await expectAssignments('state=not_started&due_date=lt=2026-01-01', annArticle);
      await expectAssignments('in(content_item.content_type,(article,video))', annArticle, annVideo, bobArticle);
      await expectAssignments('(state=dropped|state=exempted),ge(progress,0)', bobCourse);
      await expectAssignments('ge(progress,0.5)', annVideo, bobArticle);
      await expectAssignments(`eq(user.email,ann.${tag}@example.com)`, annArticle, annVideo);
      await expectAssignments(`eq(content_item.public_id,${article.public_id})`, annArticle, bobArticle);
      await expectAssignments('eq(is_overdue,true)', annArticle);
      await expectAssignments('eq(due_date,null())', annVideo, bobCourse);
      await expectAssignments('eq(is_success,true),gt(score,7)', annVideo);
      await expectAssignments('ge(feedback_rating,4)', bobArticle);
      await expectAssignments('ne(completed_datetime,null())', bobArticle);
      await expectAssignments('eq(drop_reason,left)', bobCourse);
      await expectAssignments('eq(is_enrollment_managed,false),eq(attempt,1)', annArticle, annVideo, bobArticle, bobCourse);
      await expectAssignments('ge(created,2026-01-01),lt(created,2999-02-01T00:00:00Z)', annArticle, annVideo, bobArticle, bobCourse);
      expectExpressionError(
        await api.post('/api/v2/saved-reports/', { name: 'x', resource: 'assignments', expression: 'search=ann' }),
        0,
        /Unknown field 'search'/,
      );
      expectExpressionError(
        await api.post('/api/v2/saved-reports/', { name: 'x', resource: 'assignments', expression: 'lt(due_date,2026-01-01T00:00:00Z)' }),
        12,
        /A date field takes a date without a time/,
      );

      const saved = await report('assignments', `like(user.name,*${tag}),ordering(-content_item.name,user.email)`);
      const ids = async (query: string) => (await results(saved, query)).data.map((row: any) => row.public_id);
      assert.deepEqual(await ids(''), idsOf(annVideo, bobCourse, annArticle, bobArticle));
      assert.deepEqual(await ids(`user=${ann.public_id}`), idsOf(annVideo, annArticle));
      assert.deepEqual(await ids('state=not_started,in_progress&content_type=article'), idsOf(annArticle));
      assert.deepEqual(await ids('is_overdue=false&ordering=due_date'), idsOf(annVideo, bobCourse, bobArticle));
      const first = (await results(saved, 'page_size=1')).data[0];
      assert.deepEqual(first, (await api.get(`/api/v2/assignments/${annVideo.public_id}/`)).body, 'rows have the list shape');
    });
  });

  describe('events and enrollments', () => {
    it('filters events on their schedule, place, series and settings', async () => {
      const tag = runTag();
      const berlin = await created('locations', { name: `Berlin ${tag}`, timezone: 'Europe/Berlin' });
      const series = await created('event-series', { name: `Weekly ${tag}`, duration: 45, is_online: true });
      const kickoff = await created('events', {
        name: `Kick-off ${tag}`,
        location_id: berlin.id,
        is_local: true,
        tags: [tag, 'all-hands'],
        timeslots: [{ starts_at: '2026-03-02T09:00:00Z', duration: 'PT1H30M', rooms_info: 'Hall' }],
      });
      const sync = await created('events', {
        name: `Sync ${tag}`,
        event_series_id: series.public_id,
        tags: [tag],
        timeslots: [{ starts_at: '2026-04-06T10:00:00Z' }, { starts_at: '2026-04-13T10:00:00Z', watch_link: 'https://example.com/live' }],
      });
      const expectEvents = async (expression: string, ...events: any[]) =>
        assert.deepEqual(sorted(await run('events', `eq(tags,${tag}),${expression}`)), sorted(idsOf(...events)), expression);
      await expectEvents('eq(location.name,null())', sync);
      await expectEvents("eq(location.timezone,'Europe/Berlin')", kickoff);
      await expectEvents(`eq(location_id,${berlin.id})`, kickoff);
      await expectEvents(`eq(event_series.public_id,${series.public_id})`, sync);
      await expectEvents(`ilike(event_series.name,weekly*)`, sync);
      await expectEvents('ge(starts_at,2026-04-01),lt(starts_at_utc,2026-05-01T00:00:00+02:00)', sync);
      // 09:00 on a Berlin wall clock is 08:00 UTC in March
      await expectEvents('lt(starts_at_utc,2026-03-02T09:00:00Z)', kickoff);
      await expectEvents('eq(starts_at,2026-03-02T09:00:00Z)', kickoff);
      await expectEvents('eq(timeslots.duration,PT1H30M)', kickoff);
      await expectEvents('eq(timeslots.duration,PT45M)', sync);
      await expectEvents('like(timeslots.watch_link,https:*)', sync);
      await expectEvents('eq(timeslots.rooms_info,Hall)', kickoff);
      await expectEvents('like(timeslots.starts_at,2026-04-13*)', sync);
      await expectEvents('eq(is_online,true)', sync);
      await expectEvents('eq(tags,all-hands),eq(content_type,event)', kickoff);
      await expectEvents('search=SYNC', sync);
      const saved = await report('events', `eq(tags,${tag}),ordering(-starts_at_utc)`);
      assert.deepEqual(
        (await results(saved)).data.map((e: any) => e.public_id),
        idsOf(sync, kickoff),
      );
      assert.deepEqual(
        (await results(saved, `event_series_id=${series.public_id}`)).data.map((e: any) => e.public_id),
        idsOf(sync),
      );
      assert.deepEqual(
        (await results(saved, 'ordering=name')).data.map((e: any) => e.public_id),
        idsOf(kickoff, sync),
      );
      const first = (await results(saved, 'page_size=1')).data[0];
      assert.deepEqual(first, (await api.get(`/api/v2/events/${sync.public_id}/`)).body, 'rows have the list shape');

      const ann = await newUser({ email: `ann.${tag}@example.com`, name: `Ann ${tag}` });
      const bob = await newUser({ email: `bob.${tag}@corp.test`, name: `Bob ${tag}` });
      const enroll = async (user: any, event: any, method: string) =>
        created('enrollments', { user_id: user.public_id, event_id: event.public_id, attendance_method: method });
      const annKickoff = await enroll(ann, kickoff, 'in_person');
      const bobKickoff = await enroll(bob, kickoff, 'in_person');
      const annSync = await enroll(ann, sync, 'online');
      assert.equal((await api.post(`/api/v2/enrollments/${annKickoff.public_id}/checkin/`, {})).status, 200);
      assert.equal((await api.post(`/api/v2/enrollments/${annSync.public_id}/drop/`, {})).status, 200);
      const expectEnrollments = async (expression: string, ...rows: any[]) =>
        assert.deepEqual(sorted(await run('enrollments', `like(user.name,*${tag}),${expression}`)), sorted(idsOf(...rows)), expression);
      await expectEnrollments('ne(checkin_datetime,null())', annKickoff);
      await expectEnrollments('eq(state,completed)', annKickoff);
      await expectEnrollments('eq(state,not_started),eq(status,enrolled)', bobKickoff);
      await expectEnrollments('eq(status,dropped)', annSync);
      await expectEnrollments('eq(attendance_method,online)', annSync);
      await expectEnrollments(`eq(event.public_id,${kickoff.public_id}),ilike(user.email,*@CORP.test)`, bobKickoff);
      await expectEnrollments(`like(event.name,Sync*)`, annSync);
      const byUser = await report('enrollments', `like(user.name,*${tag}),ordering(user.email,-created)`);
      assert.deepEqual(
        (await results(byUser)).data.map((e: any) => e.public_id),
        idsOf(annSync, annKickoff, bobKickoff),
      );
      assert.deepEqual(
        (await results(byUser, 'status=enrolled&is_checked_in=false')).data.map((e: any) => e.public_id),
        idsOf(bobKickoff),
      );
      expectExpressionError(
        await api.post('/api/v2/saved-reports/', { name: 'x', resource: 'enrollments', expression: 'eq(status,cancelled)' }),
        10,
        /Allowed: enrolled, waitlisted, dropped/,
      );
    });
  });

  describe('content items', () => {
    it('filters on types, tags, access groups, channels and flags', async () => {
      const tag = runTag();
      const team = await newGroup({ name: `Sales ${tag}` });
      const channel = (await api.post('/api/v2/channels/', { name: `Channel ${tag}` })).body;
      const intro = await newContent('articles', { name: `Intro ${tag}`, tags: ['onboarding', tag], duration: 15 });
      const safety = await newContent('videos', {
        name: `Safety, part 2 ${tag}`,
        tags: [tag],
        groups: [team.public_id],
        channel_id: channel.public_id,
      });
      const hidden = await newContent('courses', { name: `Hidden ${tag}`, tags: [tag], is_hidden: true, duration: 90 });
      const link = await newContent('links', { name: `Link ${tag}`, tags: [tag], url: 'https://example.com/' });
      await api.post('/api/v2/content-items/bulk/archive/', { items: [{ public_id: link.public_id }] });
      const expectItems = async (expression: string, ...items: any[]) =>
        assert.deepEqual(sorted(await run('content_items', `eq(tags,${tag}),${expression}`)), sorted(idsOf(...items)), expression);
      await expectItems('in(content_type,(article,video))', intro, safety);
      await expectItems('eq(tags,onboarding)', intro);
      await expectItems(`eq(groups,${team.name})`, safety);
      await expectItems(`eq(groups,${team.public_id})`, safety);
      await expectItems(`eq(groups.name,"${team.name}")`, safety);
      await expectItems(`eq(channel.public_id,${channel.public_id})`, safety);
      await expectItems('eq(channel.name,null())', intro, hidden, link);
      await expectItems(`eq(name,"Safety, part 2 ${tag}")`, safety);
      await expectItems('like(name,Intro*)', intro);
      await expectItems('(is_hidden=true|is_archived=true)', hidden, link);
      await expectItems('ge(duration_minutes,15),lt(duration_minutes,90)', intro);
      await expectItems('eq(avg_feedback_rating,null()),eq(total_assignments,0)', intro, safety, hidden, link);
      await expectItems(`search=${tag.toUpperCase()}`, intro, safety, hidden, link);
      await expectItems('not(eq(content_type,link))&eq(is_completable,true)', intro, safety, hidden);

      const saved = await report('content_items', `eq(tags,${tag}),ordering(name)`);
      const names = async (query: string) => (await results(saved, query)).data.map((item: any) => item.public_id);
      assert.deepEqual(await names(''), idsOf(hidden, intro, link, safety));
      assert.deepEqual(await names('content_type=video,course'), idsOf(hidden, safety));
      assert.deepEqual(await names('is_archived=false&is_hidden=false'), idsOf(intro, safety));
      assert.deepEqual(await names(`group=${team.public_id}`), idsOf(safety));
      assert.deepEqual(await names('tag=onboarding'), idsOf(intro));
      assert.deepEqual(await names('ordering=-duration_minutes&page_size=1'), idsOf(hidden));
      const shape = (await results(saved, 'page_size=1')).data[0];
      assert.deepEqual(shape, (await api.get(`/api/v2/content-items/${hidden.public_id}/`)).body, 'rows have the list shape');
    });

    it('never shows deleted items or deleted access groups', async () => {
      const tag = runTag();
      const team = await newGroup({ name: `Team ${tag}` });
      const kept = await newContent('articles', { name: `Kept ${tag}`, tags: [tag], groups: [team.public_id] });
      const dropped = await newContent('articles', { name: `Dropped ${tag}`, tags: [tag] });
      assert.equal((await api.delete(`/api/v2/content-items/${dropped.public_id}/`)).status, 204);
      assert.deepEqual(await run('content_items', `eq(tags,${tag})`), idsOf(kept));
      assert.deepEqual(await run('content_items', `eq(tags,${tag}),eq(groups,${team.public_id})`), idsOf(kept));
      assert.equal((await api.delete(`/api/v2/groups/${team.public_id}/`)).status, 204);
      assert.deepEqual(await run('content_items', `eq(tags,${tag}),eq(groups,${team.public_id})`), []);
    });
  });
});
