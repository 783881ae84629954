/** Field schemas shared by every area, carrying the string limits of docs/api.md. */
import { z } from 'zod';
import { isUuid } from './ids.ts';
import { parseDate, parseDatetime } from './time.ts';

/**
 * `.meta()` on the field helpers says in the OpenAPI document what the refinements check: a format
 * and, where the check is stricter than the format's usual reading, the pattern it holds to.
 */
const notBlank = { pattern: '\\S' } as const;

export const nameField = () => z.string().trim().min(1).max(255).meta(notBlank);

export const emailField = () =>
  z
    .string()
    .trim()
    .max(254)
    .pipe(z.email({ error: 'Enter a valid email address.' }))
    .meta({ format: 'email', pattern: z.regexes.email.source });

export const descriptionField = () => z.string().max(100_000);

/** The longest tag name [spec-gap]; list filters on tags reject longer names too. */
export const MAX_TAG_LENGTH = 100;
export const tagField = () => z.string().trim().min(1).max(MAX_TAG_LENGTH).meta(notBlank);

export const urlField = () =>
  z
    .string()
    .trim()
    .max(2048)
    .pipe(z.url({ protocol: /^https?$/, error: 'Enter a valid http(s) URL.' }))
    .meta({ format: 'uri', pattern: '^\\s*[Hh][Tt][Tt][Pp][Ss]?://' });

export const publicIdField = () => z.string().refine(isUuid, { error: 'Must be a UUID.' }).meta({ format: 'uuid' });

/** Accepts any ISO-8601 datetime and yields it normalised to UTC with milliseconds. */
export const datetimeField = () =>
  z
    .string()
    .transform((value, ctx) => {
      const iso = parseDatetime(value);
      if (iso === null) {
        ctx.addIssue({ code: 'custom', message: 'Must be an ISO-8601 datetime, e.g. 2026-01-31T09:00:00Z.' });
        return z.NEVER;
      }
      return iso;
    })
    .meta({ format: 'date-time' });

export const dateField = () =>
  z
    .string()
    .refine((value) => parseDate(value) !== null, { error: 'Must be a date in the form YYYY-MM-DD.' })
    .meta({ format: 'date' });

/** The body of an action that takes none: anything sent is a mistake worth a 422. */
export const noBodyInput = z.strictObject({});

/** Public shape of a referenced user, as embedded in other resources. */
export const userRefSchema = z.object({
  public_id: z.string().meta({ format: 'uuid' }),
  name: z.string(),
  email: z.string().meta({ format: 'email' }),
});
export type UserRef = z.infer<typeof userRefSchema>;
