/**
 * Settings declared once and read from four places: a command-line flag, an environment variable,
 * a TOML config file and a default, in that order of precedence. From one declaration (a snake_case
 * key, a value kind, a description, a default) come the flag `--rate-limit`, the variable
 * `LECTERN_RATE_LIMIT`, the file key `rate_limit`, the parsers, the help text and the row in
 * docs/configuration.md — so a setting added later is settable everywhere by construction.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import { parse as parseToml } from 'smol-toml';
import { UsageError } from './usage-error.ts';

/** How a value is written as text (flag, environment) and in TOML, and what it must be. */
export interface ValueKind<T> {
  /** what the value must be, for errors and docs: "a port number from 0 to 65535" */
  expected: string;
  /** the TOML type(s) accepted in the file, for docs */
  tomlType: string;
  /** a flag's or environment variable's text; throws an Error saying what was expected */
  fromText(text: string): T;
  /** a value parsed from TOML; throws an Error saying what was expected */
  fromToml(value: unknown): T;
  /** how a value is shown in help and docs */
  show(value: T): string;
  /** an on/off flag: alone (`--disable-webhooks`) it means true; it also takes `true`/`false` */
  isSwitch?: boolean;
}

/** `R` is what the setting resolves to: `T`, or `T | undefined` when it has no default. */
export interface Setting<T, R = T> {
  kind: ValueKind<T>;
  description: string;
  /** the argument's name in help (`<seconds>`); switches have none */
  argument?: string;
  default: R;
  /** what applies when a setting without a default of its own is not set */
  defaultText?: string;
}

export function setting<T>(spec: { kind: ValueKind<T>; description: string; argument?: string; default: NoInfer<T> }): Setting<T, T>;
export function setting<T>(spec: {
  kind: ValueKind<T>;
  description: string;
  argument?: string;
  defaultText?: string;
}): Setting<T, T | undefined>;
export function setting<T>(spec: Setting<T, T | undefined> | Omit<Setting<T, T | undefined>, 'default'>): Setting<T, T | undefined> {
  return { default: undefined, ...spec };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a record of settings of different types
export type Settings = Record<string, Setting<any, any>>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- only the resolved type is read
export type Resolved<S extends Settings> = { [K in keyof S]: S[K] extends Setting<any, infer R> ? R : never };

export const flagOf = (key: string) => `--${key.replaceAll('_', '-')}`;
export const envOf = (key: string) => `LECTERN_${key.toUpperCase()}`;
const attributeOf = (key: string) => key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** The flags, with help naming the variable, the file key and the default. */
export function addSettingOptions(command: Command, settings: Settings): Command {
  for (const [key, declared] of Object.entries(settings)) {
    // a switch alone means true, and takes a written value too (`--flag false`), as the environment does
    const flag = declared.kind.isSwitch ? `${flagOf(key)} [true|false]` : `${flagOf(key)} ${declared.argument ?? '<value>'}`;
    const option = new Option(flag, `${declared.description} (${defaultTextOf(declared)}; env ${envOf(key)}; file: ${key})`);
    option.argParser((text: string) => {
      try {
        return declared.kind.fromText(text);
      } catch (error) {
        throw new InvalidArgumentError((error as Error).message);
      }
    });
    command.addOption(option);
  }
  return command;
}

function defaultTextOf(declared: Setting<unknown, unknown>): string {
  const shown = shownDefault(declared);
  return shown === undefined ? 'no default' : `default ${shown}`;
}

function shownDefault(declared: Setting<unknown, unknown>): string | undefined {
  return declared.default !== undefined ? declared.kind.show(declared.default) : declared.defaultText;
}

export interface SettingSources {
  /** values commander parsed from flags, by camelCase attribute */
  flags: Record<string, unknown>;
  env: NodeJS.ProcessEnv;
  /** the config file's path, when there is one */
  configFile?: string | undefined;
}

/** Each setting from the first place that has it: flag, environment, config file, default. */
export function resolveSettings<S extends Settings>(settings: S, sources: SettingSources): Resolved<S> {
  const file = sources.configFile === undefined ? {} : readConfigFile(sources.configFile, settings);
  const resolved: Record<string, unknown> = {};
  for (const [key, declared] of Object.entries(settings)) {
    const fromFlag = sources.flags[attributeOf(key)];
    const fromEnv = sources.env[envOf(key)];
    if (fromFlag !== undefined) resolved[key] = fromFlag;
    else if (fromEnv !== undefined)
      resolved[key] = parseOrExplain(() => declared.kind.fromText(fromEnv), `environment variable ${envOf(key)}`, fromEnv);
    else if (Object.hasOwn(file, key))
      resolved[key] = parseOrExplain(() => declared.kind.fromToml(file[key]), `${sources.configFile}: ${key}`, file[key]);
    else resolved[key] = declared.default;
  }
  return resolved as Resolved<S>;
}

function parseOrExplain<T>(parse: () => T, where: string, raw: unknown): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError(`${where}: ${(error as Error).message} Got ${JSON.stringify(raw)}.`);
  }
}

/** The file's top-level keys; unknown keys and tables are errors, since a typo must not be ignored. */
function readConfigFile(path: string, settings: Settings): Record<string, unknown> {
  if (!existsSync(path)) throw new UsageError(`no config file at ${path}`);
  let parsed: Record<string, unknown>;
  try {
    parsed = parseToml(readFileSync(path, 'utf8'));
  } catch (error) {
    // the parser's message continues with a code frame; its first line says what and where
    throw new UsageError(`${path}: not valid TOML: ${(error as Error).message.split('\n')[0]}`);
  }
  const unknown = Object.keys(parsed).filter((key) => !Object.hasOwn(settings, key));
  if (unknown.length > 0) {
    throw new UsageError(
      `${path}: unknown setting${unknown.length > 1 ? 's' : ''} ${unknown.map((key) => `'${key}'`).join(', ')}; see docs/configuration.md`,
    );
  }
  return parsed;
}

/** The rows of docs/configuration.md's settings table. */
export function renderSettingsTable(settings: Settings): string {
  const rows = Object.entries(settings).map(([key, declared]) => {
    const flag = declared.kind.isSwitch ? flagOf(key) : `${flagOf(key)} ${declared.argument ?? '<value>'}`;
    const shown = shownDefault(declared);
    const value = shown === undefined || shown === '' ? '—' : `\`${shown}\``;
    return `| \`${key}\` | \`${flag}\` | \`${envOf(key)}\` | ${declared.kind.tomlType}: ${declared.kind.expected} | ${value} | ${declared.description} |`;
  });
  return ['| File key | Flag | Environment | Value | Default | Meaning |', '|---|---|---|---|---|---|', ...rows].join('\n');
}
