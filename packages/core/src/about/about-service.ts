/**
 * `GET /about/`: what this server is and which optional features it has turned on, for the
 * console's About page and for whoever debugs a deployment. Any signed-in caller learns the
 * version; the configuration is an admin's business, since it describes the deployment. Nothing
 * here ever carries a secret: the SMTP URL (it may hold a password) and the OIDC client secret are
 * reduced to "configured or not".
 */
import { z } from 'zod';
import { isAdmin, type RequestContext } from '../auth/actor.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { LECTERN_VERSION } from '../version.ts';
import { apiSchemaNames } from '../shared/api-schema-names.ts';

export const aboutSchema = z
  .object({
    version: z.string().meta({ description: "Lectern's version" }),
    node_version: z.string().meta({ description: 'The Node.js version the server runs on, e.g. `v20.11.1`' }),
    configuration: z
      .object({
        database: z.enum(['sqlite', 'postgres', 'other']).meta({ description: '`other` for an embedder’s own storage' }),
        instance_id: z.string().meta({ description: 'This process among those sharing the database' }),
        public_url: z.string(),
        webhooks: z.object({ enabled: z.boolean() }),
        email: z.object({
          configured: z.boolean().meta({ description: 'Whether an SMTP server is set; without one no notification is queued or sent' }),
          from: z.string().nullable().meta({ description: 'The sender address, when email is configured' }),
          reminder_days: z.number().int().nullable(),
        }),
        single_sign_on: z
          .object({ issuer: z.string(), name: z.string(), creates_users: z.boolean() })
          .nullable()
          .meta({ description: 'The OpenID provider the console signs in through, or null when not set up' }),
        scim: z.object({
          base_url: z
            .string()
            .meta({ description: 'Where identity providers provision users and groups, with a token carrying `scim:write`' }),
        }),
      })
      .nullable()
      .meta({ description: "The deployment's configuration; null unless the caller is an admin" }),
  })
  .register(apiSchemaNames, { id: 'About' });
export type About = z.infer<typeof aboutSchema>;

export class AboutService {
  constructor(private readonly deps: ServiceDeps) {}

  /** Needs no scope, like `GET /me/`: a signed-in caller may always learn what it talks to. */
  get(ctx: RequestContext): About {
    const { config, storage } = this.deps;
    const base = { version: LECTERN_VERSION, node_version: process.version };
    if (!isAdmin(ctx.actor)) return { ...base, configuration: null };
    const mail = config.mail.smtpUrl !== null;
    return {
      ...base,
      configuration: {
        database: storage.databaseKind?.() ?? 'other',
        instance_id: config.instanceId,
        public_url: config.publicUrl,
        webhooks: { enabled: config.webhooks.enabled },
        email: { configured: mail, from: mail ? config.mail.from : null, reminder_days: mail ? config.mail.reminderDays : null },
        single_sign_on: config.oidc && { issuer: config.oidc.issuer, name: config.oidc.name, creates_users: config.oidc.createUsers },
        scim: { base_url: `${config.publicUrl.replace(/\/+$/, '')}/scim/v2` },
      },
    };
  }
}
