import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileRql } from './rql-fields.ts';
import { compareCodePoints, matchesRql, readRqlPath, sortByRql } from './rql-evaluate.ts';
import { foldCase } from '../../shared/fold-case.ts';
import { compileRqlPattern, matchesRqlPattern } from './rql-pattern.ts';
import { testCatalogue } from './rql-test-catalogue.ts';

const base = {
  public_id: '3f2504e0-4f89-11d3-9a0c-0305e82c3301',
  name: 'Intro to Safety',
  state: 'in_progress',
  progress: 0.5,
  attempts: 2,
  is_active: true,
  due_date: '2026-01-15',
  created: '2026-01-10T08:30:00.000Z',
  employee_id: null as string | null,
  tags: ['onboarding', 'Safety'],
  user: { email: 'ada@example.com', name: 'Ada' },
  manager: null as { email: string } | null,
  content_item: { content_type: 'video' },
};

type Row = typeof base;
const row = (changes: Partial<Row> = {}): Row => ({ ...base, ...changes });

const matches = (expression: string, object: unknown) => matchesRql(compileRql(expression, testCatalogue), object);

function check(object: unknown, expectations: Record<string, boolean>) {
  for (const [expression, expected] of Object.entries(expectations)) {
    assert.equal(matches(expression, object), expected, expression);
  }
}

describe('matchesRql: comparisons', () => {
  it('compares strings, numbers, integers, booleans, enums', () => {
    check(row(), {
      'name=Intro to Safety': true,
      'name=intro to safety': false,
      'ne(name,Other)': true,
      'progress=0.5': true,
      'progress=gt=0.4': true,
      'progress=ge=0.5': true,
      'progress=lt=0.5': false,
      'progress=le=0.5': true,
      'attempts=2': true,
      'gt(attempts,-1)': true,
      'is_active=true': true,
      'is_active=false': false,
      'not(eq(is_active,false))': true,
      'state=in_progress': true,
      'in(state,(completed,in_progress))': true,
      'out(state,(completed,in_progress))': false,
      'in(attempts,(1,3))': false,
      'out(attempts,(1,3))': true,
      'gt(name,Intro)': true,
      'lt(name,Intro)': false,
    });
  });

  it('compares dates and datetimes as instants', () => {
    check(row(), {
      'due_date=lt=2026-01-16': true,
      'due_date=2026-01-15': true,
      'gt(due_date,2026-01-15)': false,
      'and(ge(created,2026-01-01T00:00:00Z),lt(created,2026-02-01))': true,
      'created=2026-01-10T08:30:00Z': true,
      'created=2026-01-10T10:30:00+02:00': true,
      'created=2026-01-10T08:30': true,
      'created=2026-01-10': false,
      'gt(created,2026-01-10)': true,
    });
  });

  it('reads Date objects as their ISO string', () => {
    check(row({ created: new Date('2026-01-10T08:30:00Z') as unknown as string }), { 'created=2026-01-10T08:30:00Z': true });
  });

  it('fails every test but ne/out when the stored type differs from the field type', () => {
    check(row({ progress: '0.5' as unknown as number }), {
      'progress=0.5': false,
      'gt(progress,0)': false,
      'ne(progress,0.5)': true,
      'in(progress,(0.5))': false,
      'out(progress,(0.5))': true,
    });
  });

  it('orders strings by code point', () => {
    check(row({ name: '😀' }), { 'gt(name,"\uFFFD")': true, 'lt(name,"\uFFFD")': false });
    assert.ok(compareCodePoints('\u{1F600}', '\uFFFD') > 0);
    assert.ok('\u{1F600}' < '\uFFFD', 'JavaScript alone would order it the other way');
    assert.ok(compareCodePoints('a', 'ab') < 0);
    assert.equal(compareCodePoints('é', 'é'), 0);
  });

  it('orders a lone surrogate as the code point of its value, as SQLite orders its stored bytes', () => {
    assert.ok(compareCodePoints('\uDE00', '\u{1F600}') < 0, 'a low half alone is not the pair it came from');
    assert.ok(compareCodePoints('\uDE00', '\uE000') < 0);
    assert.ok(compareCodePoints('\uD7FF', '\uD83D') < 0);
    assert.ok(compareCodePoints('\uD83Dz', '\u{1F600}') < 0);
    assert.equal(compareCodePoints('a\uDE00', 'a\uDE00'), 0);
    check(row({ name: '\uDE00' }), { 'lt(name,"😀")': true, 'gt(name,"\uE000")': false });
  });
});

describe('matchesRql: nulls (two-valued logic)', () => {
  const withNull = row({ attempts: null as unknown as number, due_date: null as unknown as string });

  it('a test on a null field is false, its negation true', () => {
    check(withNull, {
      'attempts=2': false,
      'ne(attempts,2)': true,
      'gt(attempts,0)': false,
      'le(attempts,0)': false,
      'not(gt(attempts,0))': true,
      'in(attempts,(1,2))': false,
      'out(attempts,(1,2))': true,
      'eq(attempts,null())': true,
      'ne(attempts,null())': false,
      'not(eq(attempts,null()))': false,
      'like(employee_id,*)': false,
      'not(like(employee_id,*))': true,
      'lt(due_date,2030-01-01)': false,
      'or(lt(due_date,2030-01-01),ge(due_date,2030-01-01))': false,
    });
  });

  it('null() in an in() list matches null, and in an out() list excludes it', () => {
    const expectations = (isNull: boolean, isE1: boolean) => ({
      'in(employee_id,(E-1,null()))': isNull || isE1,
      'out(employee_id,(E-1,null()))': !isNull && !isE1,
      'in(employee_id,(null()))': isNull,
      'out(employee_id,(null()))': !isNull,
      'in(employee_id,(E-2,empty()))': false,
      'not(in(employee_id,(null(),E-1)))': !isNull && !isE1,
    });
    check(row(), expectations(true, false));
    check(row({ employee_id: 'E-1' }), expectations(false, true));
    check(row({ employee_id: 'E-3' }), expectations(false, false));
    check(row({ employee_id: '' }), { ...expectations(false, false), 'in(employee_id,(E-2,empty()))': true });
    check(withNull, { 'in(attempts,(2,null()))': true, 'out(attempts,(2,null()))': false, 'in(attempts,(2))': false });
  });

  it('treats undefined and missing keys as null', () => {
    const { employee_id: _employee, ...missing } = row();
    check(missing, { 'eq(employee_id,null())': true, 'ne(employee_id,x)': true });
    check(row({ employee_id: undefined as unknown as null }), { 'eq(employee_id,null())': true });
  });

  it('a null referenced object makes its fields null', () => {
    check(row(), {
      'eq(manager.email,null())': true,
      'ne(manager.email,null())': false,
      'ne(manager.email,x@example.com)': true,
      'eq(manager.email,x@example.com)': false,
    });
    check(row({ manager: { email: 'x@example.com' } }), {
      'eq(manager.email,null())': false,
      'ne(manager.email,null())': true,
      'eq(manager.email,x@example.com)': true,
    });
  });

  it('reads dotted paths', () => {
    assert.equal(readRqlPath(row(), 'user.email'), 'ada@example.com');
    assert.equal(readRqlPath(row(), 'manager.email'), null);
    assert.equal(readRqlPath(row(), 'user.missing'), null);
    assert.equal(readRqlPath(row(), 'name.length'), null);
    assert.equal(readRqlPath({ a: { b: { c: 1 } } }, 'a.b.c'), 1);
    assert.equal(readRqlPath(null, 'a'), null);
  });
});

describe('matchesRql: patterns', () => {
  it('anchors and wildcards', () => {
    check(row({ name: 'Intro to Safety' }), {
      'like(name,Intro to Safety)': true,
      'like(name,Intro)': false,
      'like(name,Intro*)': true,
      'like(name,*Safety)': true,
      'like(name,*to*)': true,
      'like(name,I*y)': true,
      'like(name,I*x)': false,
      'like(name,*)': true,
      'like(name,*o*o*)': true,
      'like(name,*o*o*o*)': false,
      'like(name,Intro*Intro)': false,
    });
  });

  it('does not let the first and last segments overlap', () => {
    check(row({ name: 'aba' }), { 'like(name,ab*ba)': false, 'like(name,a*a)': true, 'like(name,aba*aba)': false });
    check(row({ name: 'a' }), { 'like(name,a*a)': false });
  });

  it('like is case-sensitive, ilike folds every letter', () => {
    check(row({ name: 'Éclair ÀLA Mode' }), {
      'like(name,*mode)': false,
      'like(name,éclair*)': false,
      'ilike(name,*mode)': true,
      'ilike(name,*MODE)': true,
      'ilike(name,éclair*)': true,
      'ilike(name,ÉCLAIR*)': true,
      'ilike(name,*àla*)': true,
      'ilike(name,*É*)': true,
    });
    check(row({ name: 'привет, café' }), { 'ilike(name,ПРИВЕТ*)': true, 'ilike(name,*CAFÉ)': true, 'like(name,ПРИВЕТ*)': false });
    // composed and decomposed forms fold alike (e + U+0301 is é)
    check(row({ name: 'Cafe\u0301' }), { 'ilike(name,CAFÉ)': true, 'ilike(name,*é)': true });
  });

  it('\\* is a literal star; other backslashes and %/_ are literal', () => {
    check(row({ name: 'a*b' }), { 'like(name,a\\*b)': true, 'like(name,a\\**)': true, 'like(name,a\\*)': false });
    check(row({ name: 'axb' }), { 'like(name,a\\*b)': false, 'like(name,a*b)': true });
    check(row({ name: 'a\\b' }), { 'like(name,a\\b)': true, 'like(name,*\\*)': false });
    check(row({ name: 'value\\x' }), { 'like(name,value\\\\*)': true, 'like(name,value\\*)': false, 'like(name,*\\\\x)': true });
    check(row({ name: 'title\\*' }), { 'like(name,"title\\\\\\*")': true, 'like(name,title\\\\*)': true, 'like(name,"title\\*")': false });
    check(row({ name: '100%_done' }), {
      "like(name,'100%*')": true,
      'like(name,1_0*)': false,
      "like(name,'*%_*')": true,
      "like(name,'*_%*')": false,
    });
  });

  it('searches the searchable fields as a case-insensitive substring unless the text has *', () => {
    check(row(), {
      'search=safety': true,
      'search=EXAMPLE.COM': true,
      'search=ada@': true,
      'search=zzz': false,
      'search=intro*': true,
      'search=safety*': false,
      'ilike(search,*example.com)': true,
      'ilike(search,example)': true,
      'ne(search,safety)': false,
      'not(search=zzz)': true,
      'search=state': false,
    });
  });

  it('an empty search adds no condition, wherever it is written', () => {
    for (const object of [row(), row({ name: '', user: { email: '', name: '' } })]) {
      check(object, {
        'search=': true,
        'search=""': true,
        'ne(search,)': true,
        'not(search=)': true,
        'search=,name=zzz': false,
        'or(search=,name=zzz)': false,
        'or(ne(search,""),eq(is_active,true))': true,
        'and(search=,not(search=""))': true,
      });
    }
  });

  it('compiles and matches patterns directly', () => {
    const p = (raw: string) => compileRqlPattern({ value: raw, quoted: false, position: 0 });
    assert.deepEqual(p('*a\\*b*c').segments, ['', 'a*b', 'c']);
    // `\\` is one literal backslash, as in django-rql: `\\*` is "starts with a backslash"
    assert.deepEqual(p('\\\\*').segments, ['\\', '']);
    assert.deepEqual(p('\\\\\\*').segments, ['\\*']);
    assert.deepEqual(p('a\\b\\\\').segments, ['a\\b\\']);
    assert.deepEqual(p('').segments, ['']);
    assert.equal(matchesRqlPattern(p('A*'), 'abc', true), true);
    assert.equal(matchesRqlPattern(p('A*'), 'abc', false), false);
    assert.equal(foldCase('ÀBCПРИ'), 'àbcпри');
    assert.equal(foldCase('E\u0301'), 'é');
    // as SQLite's LIKE and GLOB, wildcard matching stops at U+0000; equality does not
    assert.equal(matchesRqlPattern(p('*b'), 'a\0b', false), false);
    assert.equal(matchesRqlPattern(p('a*'), 'a\0b', false), true);
    assert.equal(matchesRqlPattern(p('a'), 'a\0b', false), false);
    // and reads lone surrogates, U+FFFE and U+FFFF as U+FFFD; equality again does not
    assert.equal(matchesRqlPattern(p('\uFFFD*'), '\uDE00x', false), true);
    assert.equal(matchesRqlPattern(p('*\uFFFE'), 'x\uFFFF', true), true);
    assert.equal(matchesRqlPattern(p('*\uFFFD*'), '\u{1F600}', false), false);
    assert.equal(matchesRqlPattern(p('\uFFFE'), '\uFFFF', false), false);
  });
});

describe('matchesRql: array fields', () => {
  it('eq is contains, in is contains any', () => {
    check(row(), {
      'eq(tags,onboarding)': true,
      'eq(tags,safety)': false,
      'ne(tags,onboarding)': false,
      'ne(tags,other)': true,
      'in(tags,(x,Safety))': true,
      'in(tags,(x,y))': false,
      'out(tags,(x,y))': true,
      'out(tags,(x,Safety))': false,
      'like(tags,on*)': true,
      'ilike(tags,SAF*)': true,
      'like(tags,SAF*)': false,
    });
  });

  it('an empty or missing array contains nothing', () => {
    check(row({ tags: [] }), { 'eq(tags,a)': false, 'ne(tags,a)': true, 'out(tags,(a))': true, 'like(tags,*)': false });
    check({ ...row(), tags: undefined }, { 'eq(tags,a)': false, 'ne(tags,a)': true });
  });
});

describe('matchesRql: logic', () => {
  it('combines with and, or, not', () => {
    check(row(), {
      '(state=dropped|state=exempted),ge(progress,0.5)': false,
      '(state=dropped|state=in_progress),ge(progress,0.5)': true,
      'or(eq(state,not_started),eq(state,in_progress))': true,
      'and(eq(state,in_progress),ilike(user.email,*@example.com))': true,
      'and(eq(state,in_progress),ilike(user.email,*@example.org))': false,
      'not(and(is_active=true,attempts=2))': false,
      'not(or(is_active=false,attempts=3))': true,
    });
  });

  it('matches everything without a filter', () => {
    assert.equal(matches('', row()), true);
    assert.equal(matches('ordering(-created)', row()), true);
  });
});

describe('sortByRql', () => {
  const items = [
    { id: 1, attempts: 2, name: 'b', user: { email: 'z' } },
    { id: 2, attempts: null, name: 'a', user: { email: 'y' } },
    { id: 3, attempts: 1, name: 'b', user: null },
    { id: 4, attempts: 2, name: 'a', user: { email: 'x' } },
  ];
  const ids = (expression: string) => sortByRql(items, compileRql(expression, testCatalogue).ordering).map((item) => item.id);

  it('sorts ascending with nulls first and descending with nulls last', () => {
    assert.deepEqual(ids('ordering(attempts)'), [2, 3, 1, 4]);
    assert.deepEqual(ids('ordering(-attempts)'), [1, 4, 3, 2]);
  });

  it('sorts by several keys, through references, keeping ties in input order', () => {
    assert.deepEqual(ids('ordering(name,-attempts)'), [4, 2, 1, 3]);
    assert.deepEqual(ids('ordering(user.email)'), [3, 4, 2, 1]);
    assert.deepEqual(ids('ordering()'), [1, 2, 3, 4]);
    assert.deepEqual(ids('ordering(name)'), [2, 4, 1, 3]);
  });

  it('does not modify its input', () => {
    const before = items.map((item) => item.id);
    ids('ordering(-attempts)');
    assert.deepEqual(
      items.map((item) => item.id),
      before,
    );
  });
});
