/** Field schemas shared by every area, carrying the string limits of docs/api.md. */
import { z } from 'zod';
import { isUuid } from './ids.ts';
import { parseDate, parseDatetime } from './time.ts';

export const nameField = () => z.string().trim().min(1).max(255);

export const emailField = () =>
  z
    .string()
    .trim()
    .max(254)
    .pipe(z.email({ error: 'Enter a valid email address.' }));

export const descriptionField = () => z.string().max(100_000);

/** The longest tag name [spec-gap]; list filters on tags reject longer names too. */
export const MAX_TAG_LENGTH = 100;
export const tagField = () => z.string().trim().min(1).max(MAX_TAG_LENGTH);

export const urlField = () =>
  z
    .string()
    .trim()
    .max(2048)
    .pipe(z.url({ protocol: /^https?$/, error: 'Enter a valid http(s) URL.' }));

export const publicIdField = () => z.string().refine(isUuid, { error: 'Must be a UUID.' });

/** Accepts any ISO-8601 datetime and yields it normalised to UTC with milliseconds. */
export const datetimeField = () =>
  z.string().transform((value, ctx) => {
    const iso = parseDatetime(value);
    if (iso === null) {
      ctx.addIssue({ code: 'custom', message: 'Must be an ISO-8601 datetime, e.g. 2026-01-31T09:00:00Z.' });
      return z.NEVER;
    }
    return iso;
  });

export const dateField = () => z.string().refine((value) => parseDate(value) !== null, { error: 'Must be a date in the form YYYY-MM-DD.' });

/** The body of an action that takes none: anything sent is a mistake worth a 422. */
export const noBodyInput = z.strictObject({});

/** Public shape of a referenced user, as embedded in other resources. */
export const userRefSchema = z.object({
  public_id: z.string(),
  name: z.string(),
  email: z.string(),
});
export type UserRef = z.infer<typeof userRefSchema>;
