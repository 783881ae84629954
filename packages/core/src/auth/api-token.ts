import { z } from 'zod';
import { listed, listSpecOf } from '../shared/listed-fields.ts';
import { datetimeField, nameField, userRefSchema } from '../shared/schema.ts';
import { scopes, scopeSchema } from './scopes.ts';
import { apiSchemaNames } from '../shared/api-schema-names.ts';
import type { StoredRecord } from '../shared/stored-record.ts';

/** An API token as listed; the secret itself is never stored or shown again. */
export const apiTokenSchema = z
  .object({
    public_id: z.string(),
    name: listed(z.string(), { sort: true }),
    token_prefix: z.string(),
    scopes: z.array(scopeSchema),
    expires_at: listed(z.string().nullable(), { sort: true }),
    created: listed(z.string(), { range: 'datetime', sort: true }),
    last_used_at: listed(z.string().nullable(), { sort: true }),
    user: listed(userRefSchema, { filter: true }),
  })
  .register(apiSchemaNames, { id: 'ApiToken' });
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** The create response: the only place the `token` appears. */
export type IssuedApiToken = ApiToken & { token: string };

export interface ApiTokenRecord extends StoredRecord<ApiToken> {
  userId: number;
}

export const createTokenInput = z
  .strictObject({
    name: nameField(),
    expires_at: datetimeField().nullable().optional(),
    // names are checked against the caller's role by the service, so one message can list every problem
    scopes: z
      .array(z.string())
      .min(1)
      .optional()
      .meta({ items: { type: 'string', enum: [...scopes] }, description: 'The token’s scopes, each one the caller’s role allows' }),
  })
  .register(apiSchemaNames, { id: 'ApiTokenCreate' });
export type CreateTokenInput = z.input<typeof createTokenInput>;

export const tokenListSpec = listSpecOf(apiTokenSchema, { defaultOrdering: ['created'] });
