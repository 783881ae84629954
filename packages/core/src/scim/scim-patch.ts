/**
 * A PatchOp request (RFC 7644 §3.5.2) applied to a resource's SCIM representation with scim-patch,
 * taking `op` in any case as Okta and Entra send it ("Replace"). String booleans ("False") are read
 * where the result is read (scim-user.ts). The service then writes the result as a PUT would.
 */
import { filter, parse } from 'scim2-parse-filter';
import { scimPatch, type ScimPatchOperation, type ScimResource } from 'scim-patch';
import { z } from 'zod';
import { ScimError, invalidSyntax, invalidValue, type ScimType } from './scim-error.ts';
import { SCIM_PATCH_OP } from './scim-schemas.ts';

/** A group PATCH of a few thousand member changes is one request; more is not a provisioning step. */
export const MAX_PATCH_OPERATIONS = 5000;

const patchBody = z.looseObject({
  schemas: z.array(z.string()).optional(),
  Operations: z
    .array(
      z.looseObject({
        op: z
          .string()
          .transform((op) => op.toLowerCase())
          .pipe(z.enum(['add', 'replace', 'remove'])),
        path: z.string().optional(),
        value: z.unknown().optional(),
      }),
    )
    .min(1)
    .max(MAX_PATCH_OPERATIONS),
});

/**
 * `extensions`: the schema URNs of the resource type's extensions, so an operation may address one
 * by its URN whether or not this resource's representation carries it (one without values omits it).
 */
export function applyScimPatch<T extends object>(resource: T, body: unknown, extensions: readonly string[] = []): T {
  const parsed = patchBody.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalidSyntax(`Not a PatchOp request: '${issue.path.join('.') || 'body'}': ${issue.message}`);
  }
  if (parsed.data.schemas && !parsed.data.schemas.includes(SCIM_PATCH_OP)) {
    throw invalidSyntax(`A PATCH body's schemas must include '${SCIM_PATCH_OP}'.`);
  }
  const patched = structuredClone(resource) as unknown as ScimResource;
  try {
    for (const given of parsed.data.Operations as ScimPatchOperation[]) {
      const operation = applyToExtension(patched, given, extensions);
      if (operation === null) continue;
      assertTarget(patched, operation);
      if (!removeByValue(patched, operation)) scimPatch(patched, [operation], { mutateDocument: true, treatMissingAsAdd: true });
    }
    keepOnePrimary(resource, patched);
    assertReadOnlyKept(resource, patched);
    return patched as unknown as T;
  } catch (error) {
    if (error instanceof ScimError) throw error;
    const scimType = (error as { scimCode?: string }).scimCode;
    const message = `The PATCH cannot be applied: ${(error as Error).message}`;
    if (scimType === 'noTarget' || scimType === 'invalidPath' || scimType === 'mutability') {
      throw new ScimError('bad_request', scimType as ScimType, message);
    }
    throw invalidValue(message);
  }
}

/**
 * An extension's object, addressed by its schema URN (`urn:…:enterprise:2.0:User`) as the path, or
 * as a key of a path-less add/replace value (Okta's replace with an object). scim-patch splits such
 * a key at its last colon, so the change was lost; done here instead. RFC 7644 §3.5.2.1/3.5.2.3: add
 * and replace set the sub-attributes given and leave the others; remove empties the object. Answers
 * what is left for scim-patch, or null.
 */
function applyToExtension(resource: ScimResource, operation: ScimPatchOperation, extensions: readonly string[]): ScimPatchOperation | null {
  const attributes = resource as unknown as Record<string, unknown>;
  const op = operation.op.toLowerCase();
  const value = (operation as { value?: unknown }).value;
  const path = operation.path?.trim().toLowerCase();
  if (path === undefined) {
    if (op === 'remove' || !isObject(value)) return operation;
    // a key naming an attribute inside an extension (`urn:…:User:employeeNumber`) is scim-patch's to handle
    const isExtension = (name: string) => extensionKey(attributes, name, extensions) !== undefined;
    const rest = Object.fromEntries(Object.entries(value).filter(([name]) => !isExtension(name)));
    for (const [name, extension] of Object.entries(value)) {
      if (isExtension(name)) mergeExtension(attributes, extensionKey(attributes, name, extensions)!, extension);
    }
    return Object.keys(rest).length === 0 ? null : ({ op: operation.op, value: rest } as ScimPatchOperation);
  }
  const key = extensionKey(attributes, path, extensions);
  if (key === undefined) return operation;
  // emptied rather than dropped, so a later operation of the same request still finds it
  if (op === 'remove') attributes[key] = {};
  else mergeExtension(attributes, key, value);
  return null;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The key of the extension a schema URN names, ignoring case: the resource's own, else the URN as
 * the resource type declares it; undefined for anything else.
 */
function extensionKey(attributes: Record<string, unknown>, name: string, extensions: readonly string[]): string | undefined {
  const wanted = name.trim().toLowerCase();
  if (!wanted.startsWith('urn:')) return undefined;
  const sameUrn = (key: string) => key.toLowerCase() === wanted;
  return Object.keys(attributes).find(sameUrn) ?? extensions.find(sameUrn);
}

function mergeExtension(attributes: Record<string, unknown>, key: string, value: unknown): void {
  if (!isObject(value)) throw invalidValue(`The value for '${key}' must be an object of that extension's attributes.`);
  const current = attributes[key];
  attributes[key] = { ...(isObject(current) ? current : {}), ...value };
}

const isPrimary = (element: unknown) => {
  const primary = (element as { primary?: unknown } | null)?.primary;
  return primary === true || (typeof primary === 'string' && primary.toLowerCase() === 'true');
};

/**
 * RFC 7644 §3.5.2: an operation that makes a value of a multi-valued attribute primary makes the
 * others not primary, so adding a primary email does not leave two. The values that were primary
 * before the request give way to the new one (two new primaries stay, and are refused where read).
 */
function keepOnePrimary(before: object, after: ScimResource): void {
  const patched = after as unknown as Record<string, unknown>;
  for (const [name, values] of Object.entries(patched)) {
    if (!Array.isArray(values) || values.filter(isPrimary).length < 2) continue;
    const was = (before as Record<string, unknown>)[name];
    const wasPrimary = new Set((Array.isArray(was) ? was : []).filter(isPrimary).map((element) => JSON.stringify(element)));
    if (!values.some((element) => isPrimary(element) && !wasPrimary.has(JSON.stringify(element)))) continue;
    patched[name] = values.map((element) =>
      isPrimary(element) && wasPrimary.has(JSON.stringify(element)) ? { ...(element as object), primary: false } : element,
    );
  }
}

/**
 * Entra removes members as `{op: "Remove", path: "members", value: [{value: id}]}`: the elements
 * whose `value` is listed go, and a value that is not there is no error (it is gone either way).
 * scim-patch compares whole elements instead, which never match ours (they carry `type` and `$ref`).
 */
function removeByValue(resource: ScimResource, operation: ScimPatchOperation): boolean {
  if (operation.op.toLowerCase() !== 'remove' || !operation.path || operation.path.includes('[')) return false;
  const value = (operation as { value?: unknown }).value;
  const current = (resource as unknown as Record<string, unknown>)[operation.path];
  if (!Array.isArray(value) || !Array.isArray(current)) return false;
  const gone = new Set(value.map((element) => (element as { value?: unknown } | null)?.value));
  (resource as unknown as Record<string, unknown>)[operation.path] = current.filter(
    (element) => !gone.has((element as { value?: unknown }).value),
  );
  return true;
}

/**
 * RFC 7644 §3.5.2: a `replace` or `remove` whose path filters a multi-valued attribute the resource
 * has (`members[value eq "…"]`, `emails[type eq "home"].value`) and selects no value is 400
 * `noTarget`, rather than scim-patch's adding one or its generic refusal. Values are matched as
 * scim-patch matches them (scim2-parse-filter's tester). An attribute Lectern does not keep
 * (`phoneNumbers[type eq "mobile"].value`) is not checked: it is ignored as a whole.
 */
function assertTarget(resource: ScimResource, operation: ScimPatchOperation): void {
  const op = operation.op.toLowerCase();
  if ((op !== 'replace' && op !== 'remove') || !operation.path) return;
  const valuePath = /^([^[\]]+)\[(.+)\](?:\.[^[\]]+)?$/s.exec(operation.path.trim());
  if (!valuePath) return;
  const attribute = valuePath[1]!.trim().toLowerCase();
  const key = Object.keys(resource).find((name) => name.toLowerCase() === attribute);
  const values = key === undefined ? undefined : (resource as unknown as Record<string, unknown>)[key];
  if (!Array.isArray(values)) return;
  let matches: (value: unknown) => boolean;
  try {
    matches = filter(parse(valuePath[2]!));
  } catch {
    return; // scim-patch refuses the path itself, as invalidPath
  }
  if (!values.some((value) => matches(value))) {
    throw new ScimError('bad_request', 'noTarget', `No value of '${key}' matches the filter in the path '${operation.path}'.`);
  }
}

/** RFC 7644 §3.5.2: a PATCH must not change a readOnly attribute (`id`, `meta`): 400 `mutability`. */
function assertReadOnlyKept(before: object, after: ScimResource): void {
  for (const name of ['id', 'meta'] as const) {
    const was = (before as Record<string, unknown>)[name];
    const now = (after as unknown as Record<string, unknown>)[name];
    if (JSON.stringify(was) !== JSON.stringify(now))
      throw new ScimError('bad_request', 'mutability', `'${name}' is read-only; a PATCH cannot change it.`);
  }
}
