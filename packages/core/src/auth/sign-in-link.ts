import { z } from 'zod';

/** How long a link printed by `lectern console-url` can be opened. */
export const SIGN_IN_LINK_MINUTES = 10;
/** How long the token a link is exchanged for lasts: a working day, then the console asks again. */
export const SIGN_IN_TOKEN_HOURS = 12;
/** The name the exchanged token is listed under, so a person can tell it from tokens they made. */
export const SIGN_IN_TOKEN_NAME = 'console sign-in';

/** `POST /api/v2/console/sign-in/`: the code from the link. */
export const signInExchangeInput = z.strictObject({
  code: z.string().min(1).max(200),
});

/** What the exchange answers: the token (shown this once) and when it stops working. */
export const signInExchangeSchema = z.object({
  token: z.string(),
  expires_at: z.string(),
});
export type SignInExchange = z.infer<typeof signInExchangeSchema>;

/** A link as `lectern console-url` prints it: the code itself is never stored. */
export interface IssuedSignInLink {
  code: string;
  expires_at: string;
}
