/** Option parsers shared by the commands: each throws commander's InvalidArgumentError (exit 2). */
import { InvalidArgumentError } from 'commander';
import { parseDatetime } from '@lectern/core';
import { isLoopbackHost } from '@lectern/http';

export function portNumber(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535.');
  return Number(value);
}

export function positiveInteger(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('expected a whole number of at least 1.');
  return Number(value);
}

export function secondsList(value: string): number[] {
  const parts = value.split(',').map((part) => part.trim());
  if (parts.length === 0 || parts.some((part) => !/^\d+(\.\d+)?$/.test(part))) {
    throw new InvalidArgumentError('expected comma-separated seconds, e.g. 1,2,5.');
  }
  return parts.map(Number);
}

export function commaList(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/** Comma-separated web origins (`https://app.example.com`), or `*` for any. */
export function originList(value: string): string[] {
  const origins = commaList(value);
  for (const origin of origins) {
    if (origin === '*') continue;
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    // an origin is scheme://host[:port] exactly as browsers send it: no path, no trailing slash
    if (!parsed || parsed.origin === 'null' || parsed.origin !== origin) {
      throw new InvalidArgumentError(`'${origin}' is not an origin; expected scheme://host[:port], e.g. https://app.example.com.`);
    }
  }
  return origins;
}

export function isoDatetime(value: string): string {
  const iso = parseDatetime(value);
  if (iso === null) throw new InvalidArgumentError('expected an ISO-8601 datetime, e.g. 2027-01-31T00:00:00Z.');
  return iso;
}

/** Booleans written as text (environment variables): 1/true/yes/on enable, 0/false/no/off/empty disable. */
export function booleanWord(value: string): boolean {
  const word = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(word)) return true;
  if (['', '0', 'false', 'no', 'off'].includes(word)) return false;
  throw new InvalidArgumentError('expected true or false.');
}

/** A whole number within bounds, e.g. a setting the core caps. */
export function integerBetween(min: number, max: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}.`);
    }
    return Number(value);
  };
}

export function httpUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('expected an absolute http:// or https:// URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InvalidArgumentError('expected an absolute http:// or https:// URL.');
  return value;
}

/** An OpenID issuer: https, or http on a loopback host (development and tests). */
export function issuerUrl(value: string): string {
  httpUrl(value);
  const url = new URL(value);
  if (url.protocol !== 'https:' && !isLoopbackHost(url.hostname))
    throw new InvalidArgumentError('expected an https:// URL (http:// only on a loopback host such as 127.0.0.1).');
  return value;
}

export function nonEmptyText(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('expected a non-empty value.');
  return value;
}
