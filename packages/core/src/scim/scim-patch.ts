/**
 * A PatchOp request (RFC 7644 §3.5.2) applied to a resource's SCIM representation with scim-patch,
 * taking `op` in any case as Okta and Entra send it ("Replace"). String booleans ("False") are read
 * where the result is read (scim-user.ts). The service then writes the result as a PUT would.
 */
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
      if (!removeByValue(patched, operation)) scimPatch(patched, [operation], { mutateDocument: true, treatMissingAsAdd: true });
    }
    return patched as unknown as T;
  } catch (error) {
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
