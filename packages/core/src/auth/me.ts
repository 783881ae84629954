import { z } from 'zod';
import { roleSchema, scopeSchema } from './scopes.ts';
import { apiSchemaNames } from '../shared/api-schema-names.ts';

/** `GET /me/`: who the caller is, and what the token in use lets it do. */
export const meSchema = z
  .object({
    user: z.object({
      public_id: z.string(),
      name: z.string(),
      email: z.string(),
      role: roleSchema,
    }),
    /** null only for an embedder acting as a user without a token; through HTTP there is always one */
    token: z
      .object({
        public_id: z.string(),
        name: z.string(),
        /** the scopes in effect: those granted at issue that the user's current role still allows */
        scopes: z.array(scopeSchema),
        expires_at: z.string().nullable(),
      })
      .nullable(),
  })
  .register(apiSchemaNames, { id: 'Me' });
export type Me = z.infer<typeof meSchema>;
