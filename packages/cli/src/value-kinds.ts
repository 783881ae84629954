/** The kinds of setting values: each reads a flag's or variable's text and a TOML value alike. */
import {
  booleanWord,
  httpUrl,
  integerBetween,
  issuerUrl,
  nonEmptyText,
  originList,
  portNumber,
  positiveInteger,
  secondsList,
} from './options.ts';
import type { ValueKind } from './settings.ts';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

function fail(expected: string): never {
  throw new Error(`expected ${expected}.`);
}

/** A text value; `check` may refine it (a URL). */
function textKind(expected: string, check: (text: string) => string = nonEmptyText): ValueKind<string> {
  return {
    expected,
    tomlType: 'string',
    fromText: check,
    fromToml: (value) => (typeof value === 'string' ? check(value) : fail(expected)),
    show: (value) => value,
  };
}

/** A whole number; TOML gives integers as numbers, flags and variables as digits. */
function integerKind(expected: string, parse: (text: string) => number): ValueKind<number> {
  return {
    expected,
    tomlType: 'integer',
    fromText: parse,
    fromToml: (value) => (typeof value === 'number' && Number.isInteger(value) ? parse(String(value)) : fail(expected)),
    show: String,
  };
}

export const kinds = {
  text: textKind('any text'),
  email: textKind('an email address', (text) => (/^[^\s@]+@[^\s@]+$/.test(text) ? text : fail('an email address'))),
  url: textKind('an http:// or https:// URL', httpUrl),
  issuer: textKind('an https:// URL (http:// on a loopback host)', issuerUrl),
  port: integerKind('a port number from 0 to 65535', portNumber),
  positiveInteger: integerKind('a whole number of at least 1', positiveInteger),
  integerBetween: (min: number, max = MAX_SAFE) => integerKind(`a whole number from ${min} to ${max}`, integerBetween(min, max)),
  switch: {
    expected: 'true or false',
    tomlType: 'boolean',
    isSwitch: true,
    fromText: booleanWord,
    fromToml: (value) => (typeof value === 'boolean' ? value : fail('true or false')),
    show: String,
  } satisfies ValueKind<boolean>,
  seconds: {
    expected: 'seconds, comma-separated as text (1,2,5)',
    tomlType: 'array of numbers',
    fromText: secondsList,
    fromToml: (value) =>
      Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'number')
        ? secondsList(value.join(','))
        : fail('an array of seconds, e.g. [1, 2, 5]'),
    show: (value) => value.join(','),
  } satisfies ValueKind<number[]>,
  origins: {
    expected: 'origins (scheme://host[:port], or *), comma-separated as text',
    tomlType: 'array of strings',
    fromText: originList,
    fromToml: (value) =>
      Array.isArray(value) && value.every((item) => typeof item === 'string')
        ? originList(value.join(','))
        : fail('an array of origins, e.g. ["https://app.example.com"]'),
    show: (value) => value.join(','),
  } satisfies ValueKind<string[]>,
  choice: <const T extends string>(choices: readonly T[]): ValueKind<T> => {
    const expected = `one of ${choices.join(', ')}`;
    const parse = (text: string) => ((choices as readonly string[]).includes(text) ? (text as T) : fail(expected));
    return {
      expected,
      tomlType: 'string',
      fromText: parse,
      fromToml: (value) => (typeof value === 'string' ? parse(value) : fail(expected)),
      show: String,
    };
  },
};
