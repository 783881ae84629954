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

export function applyScimPatch<T extends object>(resource: T, body: unknown): T {
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
    for (const operation of parsed.data.Operations as ScimPatchOperation[]) {
      assertTarget(patched, operation);
      if (!removeByValue(patched, operation)) scimPatch(patched, [operation], { mutateDocument: true, treatMissingAsAdd: true });
    }
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
