import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RqlNode, RqlValueNode } from './rql-ast.ts';
import { RqlError } from './rql-error.ts';
import { parseRql, RQL_MAX_DEPTH, RQL_MAX_TERMS } from './rql-parser.ts';

/** A compact, unambiguous rendering of the parsed tree (values JSON-quoted). */
function render(node: RqlNode | null): string {
  if (node === null) return '∅';
  const value = (v: RqlValueNode) => (v.kind === 'string' ? JSON.stringify(v.value) : `${v.kind}()`);
  switch (node.type) {
    case 'comparison':
      return `${node.operator}(${node.property},${value(node.value)})`;
    case 'list':
      return `${node.operator}(${node.property},(${node.values.map(value).join(',')}))`;
    case 'and':
    case 'or':
      return `${node.type}(${node.children.map(render).join(',')})`;
    case 'not':
      return `not(${render(node.child)})`;
  }
}

const filterOf = (expression: string) => render(parseRql(expression).filter);

function rejects(expression: string, position: number, reason: RegExp) {
  assert.throws(
    () => parseRql(expression),
    (error: unknown) => {
      assert.ok(error instanceof RqlError, `expected RqlError for ${expression}`);
      assert.equal(error.position, position, `position for ${expression}: ${error.message}`);
      assert.match(error.message, reason);
      assert.ok(error.message.includes(`at position ${position}`), error.message);
      return true;
    },
  );
}

describe('parseRql: comparisons', () => {
  it('reads the three equal forms as one', () => {
    assert.equal(filterOf('eq(state,completed)'), 'eq(state,"completed")');
    assert.equal(filterOf('state=eq=completed'), 'eq(state,"completed")');
    assert.equal(filterOf('state=completed'), 'eq(state,"completed")');
  });

  for (const op of ['ne', 'gt', 'ge', 'lt', 'le']) {
    it(`reads ${op} in function and =${op}= form`, () => {
      assert.equal(filterOf(`${op}(progress,0.5)`), `${op}(progress,"0.5")`);
      assert.equal(filterOf(`progress=${op}=0.5`), `${op}(progress,"0.5")`);
    });
  }

  it('reads like and ilike', () => {
    assert.equal(filterOf('like(name,Intro*)'), 'like(name,"Intro*")');
    assert.equal(filterOf('ilike(user.email,*@example.com)'), 'ilike(user.email,"*@example.com")');
    assert.equal(filterOf('like(name,\\*a*b)'), 'like(name,"\\\\*a*b")');
  });

  it('reads in and out with value lists', () => {
    assert.equal(filterOf('in(content_item.content_type,(article,video))'), 'in(content_item.content_type,("article","video"))');
    assert.equal(filterOf('out(state,(dropped))'), 'out(state,("dropped"))');
    assert.equal(filterOf(`in(name,('a,b',"c)",d e))`), 'in(name,("a,b","c)","d e"))');
  });

  it('reads null() and empty(), and the bare word null as a string', () => {
    assert.deepEqual(parseRql('eq(employee_id,null())').filter, {
      type: 'comparison',
      operator: 'eq',
      property: 'employee_id',
      propertyPosition: 3,
      value: { kind: 'null', position: 15 },
      position: 0,
    });
    assert.equal(filterOf('name=empty()'), 'eq(name,empty())');
    assert.equal(filterOf('name=ne=null()'), 'ne(name,null())');
    assert.equal(filterOf('eq(name,null)'), 'eq(name,"null")');
    assert.equal(filterOf("eq(name,'null()')"), 'eq(name,"null()")');
    assert.equal(filterOf('in(employee_id,(E-1,null(),empty()))'), 'in(employee_id,("E-1",null(),empty()))');
    assert.equal(filterOf('out(employee_id,(null()))'), 'out(employee_id,(null()))');
  });

  it('reads an empty value after search, and only there', () => {
    assert.equal(filterOf('search='), 'eq(search,"")');
    assert.equal(filterOf('search=,a=1'), 'and(eq(search,""),eq(a,"1"))');
    assert.equal(filterOf('(a=1|search=)'), 'or(eq(a,"1"),eq(search,""))');
    assert.equal(filterOf('search=eq=&a=1'), 'and(eq(search,""),eq(a,"1"))');
    assert.equal(filterOf('eq(search,)'), 'eq(search,"")');
    assert.equal(filterOf('ilike(search,)'), 'ilike(search,"")');
    assert.equal(filterOf('search=""'), 'eq(search,"")');
    rejects('name=', 5, /Expected a value after '='/);
    rejects('eq(name,)', 8, /Expected a value after ','/);
    rejects('search==a', 7, /Expected a value after '='/);
    rejects('in(search,())', 11, /Expected a value after '\('/);
  });

  it('reads quoted values without escapes', () => {
    assert.equal(filterOf('eq(name,"Safety, part 2")'), 'eq(name,"Safety, part 2")');
    assert.equal(filterOf(`eq(name,'say "hi" (now)')`), 'eq(name,"say \\"hi\\" (now)")');
    assert.equal(filterOf(`eq(name,"it's")`), `eq(name,"it's")`);
    assert.equal(filterOf(`name=''`), 'eq(name,"")');
    assert.equal(filterOf(`name="a=eq=b"`), 'eq(name,"a=eq=b")');
    assert.equal(filterOf(`name='\\'`), 'eq(name,"\\\\")');
  });

  it('reads every unquoted value character', () => {
    assert.equal(filterOf('eq(a,x_y.z-1:2+3@4*5 6\\7)'), 'eq(a,"x_y.z-1:2+3@4*5 6\\\\7")');
    assert.equal(filterOf('eq(created,2026-01-01T10:00:00+02:00)'), 'eq(created,"2026-01-01T10:00:00+02:00")');
    assert.equal(filterOf('eq(name,Zoë Ångström 東京)'), 'eq(name,"Zoë Ångström 東京")');
    assert.equal(filterOf('eq(name,-5)'), 'eq(name,"-5")');
    assert.equal(filterOf('eq(name,b )'), 'eq(name,"b ")');
    assert.equal(filterOf('a=1 &b=2'), 'and(eq(a,"1 "),eq(b,"2"))');
  });

  it('lets keywords be properties and values', () => {
    assert.equal(filterOf('eq(and,or)'), 'eq(and,"or")');
    assert.equal(filterOf('and=or'), 'eq(and,"or")');
    assert.equal(filterOf('not=eq=in'), 'eq(not,"in")');
    assert.equal(filterOf('ordering=eq'), 'eq(ordering,"eq")');
    assert.equal(filterOf('eq(eq,eq)'), 'eq(eq,"eq")');
    assert.equal(filterOf('in(in,(in,out))'), 'in(in,("in","out"))');
    assert.equal(filterOf('select=x'), 'eq(select,"x")');
  });

  it('accepts property names with digits, _, - and .', () => {
    assert.equal(filterOf('a1_b-c.d=x'), 'eq(a1_b-c.d,"x")');
  });
});

describe('parseRql: logic', () => {
  it('reads and(), & and top-level commas', () => {
    assert.equal(filterOf('and(a=1,b=2,c=3)'), 'and(eq(a,"1"),eq(b,"2"),eq(c,"3"))');
    assert.equal(filterOf('a=1&b=2'), 'and(eq(a,"1"),eq(b,"2"))');
    assert.equal(filterOf('a=1,b=2&c=3'), 'and(eq(a,"1"),eq(b,"2"),eq(c,"3"))');
    assert.equal(filterOf('and(a=1)'), 'and(eq(a,"1"))');
    assert.equal(filterOf('and(a=1&b=2,c=3)'), 'and(and(eq(a,"1"),eq(b,"2")),eq(c,"3"))');
  });

  it('reads or(), (a|b) and (a;b)', () => {
    assert.equal(filterOf('or(a=1,b=2)'), 'or(eq(a,"1"),eq(b,"2"))');
    assert.equal(filterOf('(a=1|b=2)'), 'or(eq(a,"1"),eq(b,"2"))');
    assert.equal(filterOf('(a=1;b=2;c=3)'), 'or(eq(a,"1"),eq(b,"2"),eq(c,"3"))');
  });

  it('binds & and , tighter than | inside parentheses', () => {
    assert.equal(filterOf('(a=1&b=2|c=3)'), 'or(and(eq(a,"1"),eq(b,"2")),eq(c,"3"))');
    assert.equal(filterOf('(a=1|b=2,c=3)'), 'or(eq(a,"1"),and(eq(b,"2"),eq(c,"3")))');
    assert.equal(filterOf('((a=1|b=2)&c=3)'), 'and(or(eq(a,"1"),eq(b,"2")),eq(c,"3"))');
  });

  it('treats plain parentheses as grouping', () => {
    assert.equal(filterOf('(a=1)'), 'eq(a,"1")');
    assert.equal(filterOf('((eq(a,1)))'), 'eq(a,"1")');
    assert.equal(filterOf('(a=1,b=2)'), 'and(eq(a,"1"),eq(b,"2"))');
  });

  it('reads not()', () => {
    assert.equal(filterOf('not(eq(is_active,false))'), 'not(eq(is_active,"false"))');
    assert.equal(filterOf('not(a=1&b=2)'), 'not(and(eq(a,"1"),eq(b,"2")))');
    assert.equal(filterOf('not(not((a=1|b=2)))'), 'not(not(or(eq(a,"1"),eq(b,"2"))))');
  });

  it('records positions of nodes, properties and values', () => {
    const parsed = parseRql('a=1&or(b=ne=x,in(c,(1,"2")))');
    assert.deepEqual(parsed.filter, {
      type: 'and',
      position: 0,
      children: [
        {
          type: 'comparison',
          operator: 'eq',
          property: 'a',
          propertyPosition: 0,
          value: { kind: 'string', value: '1', quoted: false, position: 2 },
          position: 0,
        },
        {
          type: 'or',
          position: 4,
          children: [
            {
              type: 'comparison',
              operator: 'ne',
              property: 'b',
              propertyPosition: 7,
              value: { kind: 'string', value: 'x', quoted: false, position: 12 },
              position: 7,
            },
            {
              type: 'list',
              operator: 'in',
              property: 'c',
              propertyPosition: 17,
              values: [
                { kind: 'string', value: '1', quoted: false, position: 20 },
                { kind: 'string', value: '2', quoted: true, position: 22 },
              ],
              position: 14,
            },
          ],
        },
      ],
    });
  });
});

describe('parseRql: ordering', () => {
  it('reads signed and unsigned terms', () => {
    assert.deepEqual(parseRql('ordering(+a,-b,c.d)'), {
      filter: null,
      ordering: [
        { field: 'a', descending: false, position: 9 },
        { field: 'b', descending: true, position: 12 },
        { field: 'c.d', descending: false, position: 15 },
      ],
    });
  });

  it('accepts ordering() as empty', () => {
    assert.deepEqual(parseRql('ordering()'), { filter: null, ordering: [] });
    assert.deepEqual(parseRql('a=1,ordering()').ordering, []);
  });

  it('accepts ordering beside a filter, before or after it', () => {
    assert.equal(filterOf('ordering(-a),b=1'), 'eq(b,"1")');
    const parsed = parseRql('b=1&ordering(-a)&c=2');
    assert.equal(render(parsed.filter), 'and(eq(b,"1"),eq(c,"2"))');
    assert.deepEqual(parsed.ordering, [{ field: 'a', descending: true, position: 13 }]);
  });

  it('accepts an empty expression', () => {
    assert.deepEqual(parseRql(''), { filter: null, ordering: [] });
  });
});

describe('parseRql: every example of docs/rql.md', () => {
  const examples: Record<string, string> = {
    'and(eq(state,completed),ilike(user.email,*@example.com))': 'and(eq(state,"completed"),ilike(user.email,"*@example.com"))',
    'or(eq(state,not_started),eq(state,in_progress))': 'or(eq(state,"not_started"),eq(state,"in_progress"))',
    'state=in_progress&due_date=lt=2026-01-01': 'and(eq(state,"in_progress"),lt(due_date,"2026-01-01"))',
    'in(content_item.content_type,(article,video))': 'in(content_item.content_type,("article","video"))',
    'not(eq(is_active,false))': 'not(eq(is_active,"false"))',
    'eq(employee_id,null())': 'eq(employee_id,null())',
    'ne(manager.email,null())': 'ne(manager.email,null())',
    'like(name,Intro*)': 'like(name,"Intro*")',
    'eq(name,"Safety, part 2")': 'eq(name,"Safety, part 2")',
    '(state=dropped|state=exempted),ge(progress,0.5)': 'and(or(eq(state,"dropped"),eq(state,"exempted")),ge(progress,"0.5"))',
    'and(ge(created,2026-01-01T00:00:00Z),lt(created,2026-02-01))': 'and(ge(created,"2026-01-01T00:00:00Z"),lt(created,"2026-02-01"))',
    'ordering(-created,name)': '∅',
    'search=text': 'eq(search,"text")',
    'ilike(search,*intro*)': 'ilike(search,"*intro*")',
    'eq(tags,onboarding)': 'eq(tags,"onboarding")',
  };
  for (const [expression, expected] of Object.entries(examples)) {
    it(expression, () => assert.equal(filterOf(expression), expected));
  }

  it('ordering(-created,name) sorts', () => {
    assert.deepEqual(
      parseRql('ordering(-created,name)').ordering.map(({ field, descending }) => ({ field, descending })),
      [
        { field: 'created', descending: true },
        { field: 'name', descending: false },
      ],
    );
  });
});

describe('parseRql: the invalid examples', () => {
  it('p=', () => rejects('p=', 2, /^Expected a value after '=' at position 2/));
  it('and =ge=or', () => rejects('and =ge=or', 3, /Expected '=' or '\(' after 'and'.*Spaces are allowed only inside values/));
  it("'p=v'", () => rejects("'p=v'", 0, /Expected an expression.*quoted value cannot stand alone/));
  it('v=1,,f=g', () => rejects('v=1,,f=g', 4, /Expected an expression.*extra separator/));
  it('1a=b', () => rejects('1a=b', 0, /Expected an expression.*must start with a letter/));
  it('** in like', () => rejects('like(name,a**)', 11, /'\*\*' is not a valid pattern/));
  it('** in ilike, quoted', () => rejects("ilike(name,'x\\***')", 15, /'\*\*' is not a valid pattern/));
  it('*** in like', () => rejects('like(name,***)', 10, /'\*\*'/));
});

describe('parseRql: errors', () => {
  it('rejects select(), limit and offset', () => {
    rejects('select(name)', 0, /select\(\) is not supported/);
    rejects('a=1,select(name)', 4, /select\(\) is not supported/);
    rejects('limit=10', 0, /limit= is not supported.*page and page_size/);
    rejects('a=1&offset=20', 4, /offset= is not supported/);
    rejects('limit=eq=10', 0, /limit= is not supported/);
    rejects('limit(10,0)', 0, /limit\(\) is not supported/);
  });

  it('rejects ordering below the top level, twice, or malformed', () => {
    rejects('and(a=1,ordering(b))', 8, /ordering\(\) is allowed only at the top level/);
    rejects('(ordering(b))', 1, /only at the top level/);
    rejects('not(ordering(b))', 4, /only at the top level/);
    rejects('ordering(a),ordering(b)', 12, /ordering\(\) may appear only once/);
    rejects('ordering(a,)', 11, /Expected a property name/);
    rejects('ordering(*a)', 9, /Expected a property name/);
    rejects('ordering(a', 10, /Expected ',' or '\)'.*ordering\( at position 0 is still open/);
  });

  it('requires | and ; to be parenthesised', () => {
    rejects('a=1|b=2', 3, /'\|' is only allowed inside parentheses/);
    rejects('a=1;b=2', 3, /';' is only allowed inside parentheses/);
    rejects('and(a=1|b=2)', 7, /Expected ',' or '\)'.*Found '\|'/);
  });

  it('rejects unbalanced parentheses', () => {
    rejects('(a=1|b=2', 8, /Expected '\)'.*The expression ends but the '\(' at position 0 is still open/);
    rejects('a=1)', 3, /Unmatched '\)'/);
    rejects('eq(a,b', 6, /Expected '\)' to close eq\(/);
    rejects('eq(a,b))', 7, /Unmatched '\)'/);
    rejects('and(a=1', 7, /and\( at position 0 is still open/);
  });

  it('rejects missing values and properties', () => {
    rejects('eq(a,)', 5, /Expected a value after ','.*empty\(\)/);
    rejects('eq(,b)', 3, /Expected a property name/);
    rejects('eq(1a,b)', 3, /Expected a property name.*must start with a letter/);
    rejects("eq('a',b)", 3, /Property names are never quoted/);
    rejects('eq(a)', 4, /Expected ',' after the property 'a'/);
    rejects('a=eq=', 5, /Expected a value after '=eq='/);
    rejects('a=1,', 4, /Expected an expression.*ends too early/);
    rejects('a=1&', 4, /Expected an expression/);
    rejects('and()', 4, /Expected an expression/);
    rejects('in(a,())', 6, /Expected a value after '\('/);
    rejects('in(a,(x,))', 8, /Expected a value after ','/);
  });

  it('rejects extra arguments and malformed lists', () => {
    rejects('eq(a,b,c)', 6, /Expected '\)' to close eq\(.*quote values that contain commas/);
    rejects('in(a,x)', 5, /Expected '\(' to open the list of values of in\(\)/);
    rejects('in(a,(x)', 8, /Expected '\)' to close in\(/);
    rejects('in(a,(x y', 9, /Expected ',' or '\)'.*list of values at position 5/);
    rejects('not(a=1,b=2)', 7, /not\(\) takes exactly one expression/);
  });

  it('rejects unknown functions and operators', () => {
    rejects('foo(a,b)', 0, /Unknown function 'foo'/);
    rejects('t(a=1)', 0, /Unknown function 't'/);
    rejects('null()', 0, /null\(\) is a value, not an expression/);
    rejects('a=foo=b', 2, /Unknown operator '=foo='/);
    rejects('a=like=b*', 2, /Unknown operator '=like='.*like\(a,pattern\)/);
    rejects('a=in=(b)', 2, /Unknown operator '=in='.*in\(a,\(v1,v2\)\)/);
    rejects('eq(a,foo())', 8, /Expected '\)'.*Only null\(\) and empty\(\)/);
    rejects('eq(a,null( ))', 9, /Expected '\)'/);
  });

  it('rejects stray spaces and characters', () => {
    rejects(' a=1', 0, /Expected an expression.*Spaces are allowed only inside values/);
    rejects('eq(a, b)', 5, /A value cannot start with a space/);
    rejects('eq (a,b)', 2, /Expected '=' or '\('/);
    rejects('and(a=1, b=2)', 8, /Expected an expression.*Spaces/);
    rejects('a', 1, /Expected '=' or '\(' after 'a'/);
    rejects('a=b!c', 3, /Unexpected '!'/);
    rejects('a=b"c"', 3, /Unexpected '"'/);
    rejects('a=\tb', 2, /Expected a value after '='.*U\+0009/);
    rejects('eq(a,b#)', 6, /'#' cannot appear in an unquoted value; quote the value/);
    rejects('!', 0, /Expected an expression.*Found '!'/);
  });

  it('rejects unterminated quotes', () => {
    rejects("eq(a,'bc)", 5, /Unterminated quoted value.*Close it with '/);
    rejects('a="b', 2, /Unterminated quoted value/);
  });

  it('limits nesting depth', () => {
    const ok = 'not('.repeat(RQL_MAX_DEPTH - 1) + 'a=1' + ')'.repeat(RQL_MAX_DEPTH - 1);
    assert.doesNotThrow(() => parseRql(ok));
    const deep = 'not('.repeat(RQL_MAX_DEPTH) + 'a=1' + ')'.repeat(RQL_MAX_DEPTH);
    rejects(deep, RQL_MAX_DEPTH * 4, /nests more than/);
    rejects('('.repeat(10_000), RQL_MAX_DEPTH, /nests more than/);
  });

  it('limits the number of terms, counting each value of a list', () => {
    const terms = (count: number, term: string) => Array(count).fill(term).join(',');
    assert.doesNotThrow(() => parseRql(terms(RQL_MAX_TERMS, 'a=1')));
    rejects(terms(RQL_MAX_TERMS + 1, 'a=1'), RQL_MAX_TERMS * 4, /more than 256 terms/);
    rejects(`or(${terms(1000, 'eq(a,1)')})`, 3 + RQL_MAX_TERMS * 8, /more than 256 terms/);
    rejects(`in(a,(${terms(1000, '1')}))`, 6 + RQL_MAX_TERMS * 2, /more than 256 terms/);
    rejects(`a=1,in(a,(${terms(RQL_MAX_TERMS, '1')}))`, 10 + (RQL_MAX_TERMS - 1) * 2, /more than 256 terms/);
  });

  it('gives a message that ends with advice after the position', () => {
    try {
      parseRql('p=');
      assert.fail('expected an error');
    } catch (error) {
      assert.ok(error instanceof RqlError);
      assert.equal(error.reason, "Expected a value after '='");
      assert.equal(error.message, "Expected a value after '=' at position 2. The expression ends too early");
    }
  });
});
