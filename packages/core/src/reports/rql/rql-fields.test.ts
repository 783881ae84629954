import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isLecternError } from '../../shared/errors.ts';
import type { RqlFilter, RqlValidated } from './rql-ast.ts';
import { RqlError } from './rql-error.ts';
import { compileRql, rqlToFieldError, validateRql } from './rql-fields.ts';
import { parseRql } from './rql-parser.ts';
import { testCatalogue } from './rql-test-catalogue.ts';

const filter = (expression: string): RqlFilter | null => compileRql(expression, testCatalogue).filter;

/** The single test of a filter that is one field test. */
function testOf(expression: string) {
  const result = filter(expression);
  assert.ok(result && (result.kind === 'field' || result.kind === 'some'), `${expression} is not a single test`);
  return result.test;
}

const valueOf = (expression: string) => {
  const test = testOf(expression);
  assert.ok('value' in test);
  return test.value;
};

function rejects(expression: string, position: number, reason: RegExp) {
  assert.throws(
    () => compileRql(expression, testCatalogue),
    (error: unknown) => {
      assert.ok(error instanceof RqlError, `expected RqlError for ${expression}, got ${String(error)}`);
      assert.equal(error.position, position, `position for ${expression}: ${error.message}`);
      assert.match(error.message, reason);
      return true;
    },
  );
}

describe('validateRql: the examples of docs/rql.md', () => {
  for (const expression of [
    'and(eq(state,completed),ilike(user.email,*@example.com))',
    'or(eq(state,not_started),eq(state,in_progress))',
    'state=in_progress&due_date=lt=2026-01-01',
    'in(content_item.content_type,(article,video))',
    'not(eq(is_active,false))',
    'eq(employee_id,null())',
    'ne(manager.email,null())',
    'like(name,Intro*)',
    'eq(name,"Safety, part 2")',
    '(state=dropped|state=exempted),ge(progress,0.5)',
    'and(ge(created,2026-01-01T00:00:00Z),lt(created,2026-02-01))',
    'ordering(-created,name)',
    'eq(tags,onboarding)',
    'search=intro',
  ]) {
    it(expression, () => assert.doesNotThrow(() => compileRql(expression, testCatalogue)));
  }
});

describe('validateRql: the typed tree', () => {
  it('keeps and/or/not and rewrites ne and out as negations', () => {
    assert.deepEqual(filter('and(ne(name,a),out(attempts,(1,2)),or(is_active=true,not(progress=gt=1)))'), {
      kind: 'and',
      children: [
        { kind: 'not', child: { kind: 'field', field: 'name', test: { op: 'eq', value: 'a' } } },
        { kind: 'not', child: { kind: 'field', field: 'attempts', test: { op: 'in', values: [1, 2] } } },
        {
          kind: 'or',
          children: [
            { kind: 'field', field: 'is_active', test: { op: 'eq', value: true } },
            { kind: 'not', child: { kind: 'field', field: 'progress', test: { op: 'gt', value: 1 } } },
          ],
        },
      ],
    });
  });

  it('turns null() into a null test and empty() into the empty string', () => {
    assert.deepEqual(filter('eq(employee_id,null())'), { kind: 'field', field: 'employee_id', test: { op: 'null' } });
    assert.deepEqual(filter('ne(employee_id,null())'), {
      kind: 'not',
      child: { kind: 'field', field: 'employee_id', test: { op: 'null' } },
    });
    assert.deepEqual(filter('name=empty()'), { kind: 'field', field: 'name', test: { op: 'eq', value: '' } });
    assert.equal(valueOf('eq(name,null)'), 'null');
  });

  it('reads null() in an in()/out() list as a null test beside the values, and empty() as the empty string', () => {
    const isNull: RqlFilter = { kind: 'field', field: 'employee_id', test: { op: 'null' } };
    const inValues: RqlFilter = { kind: 'field', field: 'employee_id', test: { op: 'in', values: ['E-1', ''] } };
    assert.deepEqual(filter('in(employee_id,(E-1,null(),empty()))'), { kind: 'or', children: [inValues, isNull] });
    assert.deepEqual(filter('out(employee_id,(E-1,empty(),null()))'), { kind: 'not', child: { kind: 'or', children: [inValues, isNull] } });
    assert.deepEqual(filter('in(employee_id,(null()))'), isNull);
    assert.deepEqual(filter('in(employee_id,(null(),null()))'), isNull);
    assert.deepEqual(filter('out(attempts,(null()))'), { kind: 'not', child: { kind: 'field', field: 'attempts', test: { op: 'null' } } });
  });

  it('compiles like patterns', () => {
    assert.deepEqual(testOf('like(name,Intro*)'), { op: 'like', pattern: { segments: ['Intro', ''] }, caseInsensitive: false });
    assert.deepEqual(testOf('ilike(name,*a\\*b*c)'), { op: 'like', pattern: { segments: ['', 'a*b', 'c'] }, caseInsensitive: true });
    assert.deepEqual(testOf('like(name,abc)'), { op: 'like', pattern: { segments: ['abc'] }, caseInsensitive: false });
    assert.deepEqual(testOf('like(state,*ed)'), { op: 'like', pattern: { segments: ['', 'ed'] }, caseInsensitive: false });
  });

  it('reads array fields as contains / contains any', () => {
    assert.deepEqual(filter('eq(tags,onboarding)'), { kind: 'some', field: 'tags', test: { op: 'eq', value: 'onboarding' } });
    assert.deepEqual(filter('in(tags,(a,b))'), { kind: 'some', field: 'tags', test: { op: 'in', values: ['a', 'b'] } });
    assert.deepEqual(filter('ne(tags,a)'), { kind: 'not', child: { kind: 'some', field: 'tags', test: { op: 'eq', value: 'a' } } });
    assert.deepEqual(filter('out(tags,(a))'), { kind: 'not', child: { kind: 'some', field: 'tags', test: { op: 'in', values: ['a'] } } });
    assert.deepEqual(filter('ilike(tags,on*)'), {
      kind: 'some',
      field: 'tags',
      test: { op: 'like', pattern: { segments: ['on', ''] }, caseInsensitive: true },
    });
  });

  it('expands search over the searchable fields, case-insensitively, as a substring unless it has *', () => {
    const over = (segments: string[]): RqlFilter => ({
      kind: 'or',
      children: ['name', 'user.email'].map((field) => ({
        kind: 'field',
        field,
        test: { op: 'like', pattern: { segments }, caseInsensitive: true },
      })),
    });
    assert.deepEqual(filter('search=Intro'), over(['', 'Intro', '']));
    assert.deepEqual(filter('eq(search,"two words")'), over(['', 'two words', '']));
    assert.deepEqual(filter('ilike(search,Intro*)'), over(['Intro', '']));
    assert.deepEqual(filter('ilike(search,intro)'), over(['', 'intro', '']));
    assert.deepEqual(filter('search=a\\*b'), over(['', 'a*b', '']));
    assert.deepEqual(filter('ne(search,x)'), { kind: 'not', child: over(['', 'x', '']) });
    const single = compileRql('search=x', { ...testCatalogue, searchable: ['tags'] }).filter;
    assert.deepEqual(compileRql('search=,ordering(name)', testCatalogue).ordering, [{ field: 'name', descending: false }]);
    assert.deepEqual(single, {
      kind: 'some',
      field: 'tags',
      test: { op: 'like', pattern: { segments: ['', 'x', ''] }, caseInsensitive: true },
    });
  });

  it('drops an empty search, and the and(), or() and not() it leaves empty, as django-rql drops an empty Q()', () => {
    const named: RqlFilter = { kind: 'field', field: 'name', test: { op: 'eq', value: 'a' } };
    for (const empty of [
      'search=',
      'search=""',
      "search=''",
      'search=empty()',
      'eq(search,)',
      'ilike(search,"")',
      'ne(search,)',
      'search=eq=',
    ]) {
      assert.equal(filter(empty), null, empty);
      assert.equal(filter(`not(${empty})`), null, `not(${empty})`);
      assert.deepEqual(filter(`${empty},name=a`), named, `${empty},name=a`);
      assert.deepEqual(filter(`or(${empty},name=a)`), named, `or(${empty},name=a)`);
      assert.deepEqual(filter(`(name=a|${empty})`), named, `(name=a|${empty})`);
      assert.deepEqual(filter(`and(not(${empty}),or(${empty}))`), null);
    }
    assert.deepEqual(filter('or(search=,name=a,name=b)'), { kind: 'or', children: [named, { ...named, test: { op: 'eq', value: 'b' } }] });
  });

  it('validates ordering', () => {
    assert.deepEqual(compileRql('ordering(-created,+name,user.email)', testCatalogue).ordering, [
      { field: 'created', descending: true },
      { field: 'name', descending: false },
      { field: 'user.email', descending: false },
    ]);
    assert.deepEqual(compileRql('ordering()', testCatalogue), { filter: null, ordering: [] } satisfies RqlValidated);
    // a repeated field counts once, where it first appears (as in django-rql and the list's ordering=)
    assert.deepEqual(compileRql('ordering(name,-name)', testCatalogue).ordering, [{ field: 'name', descending: false }]);
    assert.deepEqual(compileRql('ordering(-name,created,+name,-created)', testCatalogue).ordering, [
      { field: 'name', descending: true },
      { field: 'created', descending: false },
    ]);
    assert.deepEqual(compileRql('', testCatalogue), { filter: null, ordering: [] });
  });
});

describe('validateRql: value types', () => {
  it('integers parse exactly', () => {
    assert.equal(valueOf('attempts=12'), 12);
    assert.equal(valueOf('attempts=+5'), 5);
    assert.equal(valueOf('attempts=-3'), -3);
    assert.equal(valueOf('attempts=9007199254740991'), 9007199254740991);
    rejects('attempts=1.5', 9, /Expected an integer for 'attempts', got '1.5'/);
    rejects('attempts=1e3', 9, /Expected an integer/);
    rejects('attempts=9007199254740993', 9, /too large to be represented exactly/);
    rejects('attempts=abc', 9, /Expected an integer/);
    rejects("attempts=' 1'", 9, /Expected an integer/);
  });

  it('numbers parse exactly', () => {
    assert.equal(valueOf('progress=0.5'), 0.5);
    assert.equal(valueOf('progress=.5'), 0.5);
    assert.equal(valueOf('progress=-1e-3'), -0.001);
    assert.equal(valueOf('progress=2'), 2);
    for (const bad of ['abc', '0x10', 'Infinity', '1e999', '1..2', '1e', '-'])
      rejects(`progress=${bad}`, 9, /Expected a number for 'progress'/);
  });

  it('booleans accept only true and false', () => {
    assert.equal(valueOf('is_active=true'), true);
    assert.equal(valueOf('is_active=false'), false);
    for (const bad of ['True', '1', 'yes', 'FALSE']) rejects(`is_active=${bad}`, 10, /Expected true or false for 'is_active'/);
  });

  it('dates take YYYY-MM-DD only', () => {
    assert.equal(valueOf('due_date=2026-01-31'), '2026-01-31');
    rejects('due_date=2026-02-30', 9, /Expected a date \(YYYY-MM-DD\)/);
    rejects('due_date=2026-01-01T00:00:00Z', 9, /Expected a date.*without a time/);
    rejects('due_date=26-01-01', 9, /Expected a date/);
  });

  it('datetimes are normalised to UTC with milliseconds; no zone means UTC', () => {
    assert.equal(valueOf('created=2026-01-01'), '2026-01-01T00:00:00.000Z');
    assert.equal(valueOf('created=2026-01-01T10:00'), '2026-01-01T10:00:00.000Z');
    assert.equal(valueOf('created=2026-01-01T10:00:30.5Z'), '2026-01-01T10:00:30.500Z');
    assert.equal(valueOf('created=2026-01-01T01:00:00+02:00'), '2025-12-31T23:00:00.000Z');
    assert.equal(valueOf('created=2026-01-01T01:00:00-02:30'), '2026-01-01T03:30:00.000Z');
    rejects('created=2026-01-01T25:00', 8, /Expected a datetime/);
    rejects('created=yesterday', 8, /Expected a datetime/);
  });

  it('enums take their listed values only', () => {
    assert.equal(valueOf('state=completed'), 'completed');
    rejects('state=done', 6, /Expected one of the listed values for 'state', got 'done'.*Allowed: not_started, in_progress/);
    rejects('in(state,(completed,Done))', 20, /got 'Done'/);
  });

  it('UUIDs must be valid and are lower-cased', () => {
    assert.equal(valueOf('public_id=3F2504E0-4F89-11D3-9A0C-0305E82C3301'), '3f2504e0-4f89-11d3-9a0c-0305e82c3301');
    rejects('public_id=nope', 10, /Expected a UUID/);
  });

  it('rejects values with unpaired surrogates', () => {
    rejects('name="a\uD800"', 5, /unpaired surrogate/);
    rejects('like(name,"a\0*")', 10, /U\+0000/);
  });
});

describe('validateRql: errors', () => {
  it('rejects unknown fields at their position, listing the known ones', () => {
    rejects(
      'and(eq(state,completed),eq(colour,red))',
      27,
      /Unknown field 'colour' at position 27\. Known fields: public_id, name, .*, search$/,
    );
    rejects('user=x', 0, /Unknown field 'user'.*'user' is an object; use one of its fields: user.email, user.name/);
  });

  it('allows null() only with eq/ne and in in()/out() lists, on nullable fields', () => {
    rejects('eq(name,null())', 8, /'name' is never null/);
    rejects('eq(tags,null())', 8, /The list field 'tags' is never null/);
    rejects('gt(attempts,null())', 12, /null\(\) can only be used with eq and ne, or in an in\(\) or out\(\) list/);
    rejects('like(employee_id,null())', 17, /null\(\) can only be used with eq and ne/);
    rejects('in(name,(a,null()))', 11, /'name' is never null/);
    rejects('out(tags,(null()))', 10, /The list field 'tags' is never null/);
  });

  it('allows empty() only with eq/ne and in in()/out() lists, on string fields', () => {
    for (const field of ['progress', 'attempts', 'is_active', 'due_date', 'created', 'state', 'public_id', 'tags']) {
      rejects(`eq(${field},empty())`, field.length + 4, new RegExp(`empty\\(\\) cannot be used with the \\w+ field '${field}'`));
    }
    rejects('ge(name,empty())', 8, /empty\(\) can only be used with eq and ne/);
    rejects('in(attempts,(1,empty()))', 15, /empty\(\) cannot be used with the integer field 'attempts'/);
  });

  it('restricts operators to the field types they make sense for', () => {
    rejects('gt(is_active,true)', 0, /gt\(\) cannot be used with the boolean field 'is_active'/);
    rejects('state=lt=completed', 0, /lt\(\) cannot be used with the enum field 'state'/);
    rejects('ge(tags,a)', 0, /ge\(\) cannot be used with the list field 'tags'/);
    rejects('le(public_id,3f2504e0-4f89-11d3-9a0c-0305e82c3301)', 0, /UUID field/);
    rejects('like(progress,1*)', 0, /like\(\) cannot be used with the number field 'progress'.*text fields only/);
    rejects('ilike(created,2026*)', 0, /datetime field/);
  });

  it('restricts search', () => {
    rejects('like(search,x)', 0, /like\(\) cannot be used with search.*eq, ne, ilike/);
    rejects('gt(search,x)', 0, /gt\(\) cannot be used with search/);
    rejects('in(search,(x))', 0, /in\(\) cannot be used with search/);
    rejects('search=null()', 7, /null\(\) cannot be searched for/);
    rejects('in(search,(null()))', 0, /in\(\) cannot be used with search/);
    rejects('search=a**', 8, /'\*\*' is not a valid pattern/);
    assert.throws(() => compileRql('search=x', { ...testCatalogue, searchable: [] }), /Unknown field 'search'/);
  });

  it('validates ordering terms', () => {
    rejects('a=1', 0, /Unknown field 'a'/);
    rejects('ordering(-colour)', 9, /Unknown field 'colour'/);
    rejects('ordering(name,-tags)', 14, /Cannot order by the list field 'tags'/);
    rejects('ordering(name,-name,colour)', 20, /Unknown field 'colour'/);
    rejects('ordering(search)', 9, /Unknown field 'search'/);
  });

  it('refuses a catalogue whose searchable fields are not text fields', () => {
    assert.throws(() => validateRql(parseRql('a=1'), { ...testCatalogue, searchable: ['progress'] }), /searchable field 'progress'/);
    assert.throws(() => validateRql(parseRql('a=1'), { ...testCatalogue, searchable: ['nope'] }), /searchable field 'nope'/);
  });
});

describe('rqlToFieldError', () => {
  it('is the 422 on expression with the position first', () => {
    try {
      compileRql('p=', testCatalogue);
      assert.fail('expected an error');
    } catch (error) {
      assert.ok(error instanceof RqlError);
      const converted = rqlToFieldError(error);
      assert.ok(isLecternError(converted));
      assert.equal(converted.code, 'validation_error');
      assert.deepEqual(converted.fieldErrors, { expression: ["Position 2: Expected a value after '='. The expression ends too early"] });
    }
  });

  it('works for validation errors too, and for another field name', () => {
    try {
      compileRql('eq(colour,red)', testCatalogue);
      assert.fail('expected an error');
    } catch (error) {
      assert.ok(error instanceof RqlError);
      const message = rqlToFieldError(error, 'ordering').fieldErrors?.ordering?.[0];
      assert.match(message ?? '', /^Position 3: Unknown field 'colour'\. Known fields: /);
    }
  });
});
