/**
 * POST /signup (protocols.md A4.1, GoTrue api/signup.go): email + password accounts. With
 * confirmation on (the default) the answer is the bare User and a confirmation mail goes out after
 * the commit; with AUTH_AUTOCONFIRM it is a session.
 */
import type { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../http/app-env.ts';
import { assertStrongPassword, createEmailUser, obfuscatedUser, parseEmail } from './accounts.ts';
import {
  checkCaptcha,
  clientIp,
  inTransaction,
  limit,
  metaSecuritySchema,
  queueMail,
  readBody,
  userAgent,
  type AuthContext,
} from './auth-context.ts';
import { badRequest, unprocessable, validationFailed } from './auth-error.ts';
import { audit, findUserByEmail, loadUserJson, updateUser } from './auth-store.ts';
import { createFlowState, parseCodeChallenge } from './flow-states.ts';
import { issueOneTimeToken } from './one-time-tokens.ts';
import { signIn } from './sessions.ts';

const nullableString = v.optional(v.nullable(v.string()));

export const signupBodySchema = v.object({
  email: nullableString,
  phone: nullableString,
  password: nullableString,
  data: v.optional(v.nullable(v.record(v.string(), v.unknown()))),
  code_challenge: nullableString,
  code_challenge_method: nullableString,
  gotrue_meta_security: metaSecuritySchema,
});

export function registerSignupRoutes(app: Hono<AppEnv>, ctx: AuthContext): void {
  app.post('/signup', async (c) => {
    const body = await readBody(c, signupBodySchema);
    if (body.phone) throw badRequest('phone_provider_disabled', 'Phone signups are disabled');
    if (!body.email) {
      throw unprocessable('anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
    }
    const email = parseEmail(body.email);
    limit(ctx, ctx.limits.signUpPerIp, clientIp(c));
    await checkCaptcha(ctx, c, body.gotrue_meta_security);
    if (!body.password) throw validationFailed('Signup requires a valid password');
    assertStrongPassword(body.password, ctx.config.passwordPolicy);
    const challenge = parseCodeChallenge(body.code_challenge, body.code_challenge_method);
    const redirectTo = ctx.redirects.resolve(c.req.query('redirect_to'));
    const data = body.data ?? {};
    // Counted before looking the address up, so registered and free addresses answer alike.
    if (!ctx.config.autoconfirm) {
      limit(ctx, ctx.limits.mailPerAddress, email, 'over_email_send_rate_limit');
    }
    // Hashed outside the transaction: argon2 takes tens of milliseconds by design.
    const passwordHash = await ctx.passwords.hash(body.password);

    const result = await inTransaction(ctx, c, async (tx, effects) => {
      const now = ctx.now();
      const existing = await findUserByEmail(tx, email, { forUpdate: true });
      if (existing?.email_confirmed_at) {
        if (ctx.config.autoconfirm) {
          throw unprocessable('user_already_exists', 'User already registered');
        }
        return obfuscatedUser(email, data, now);
      }
      // An unconfirmed account is not updated (nobody proved owning it): the mail is re-sent.
      let user =
        existing ??
        (await createEmailUser(tx, {
          email,
          passwordHash,
          data,
          confirmed: ctx.config.autoconfirm,
          now,
        }));
      if (!existing) {
        await audit(tx, { userId: user.id, action: 'user_signedup', ip: clientIp(c), now });
      }
      if (ctx.config.autoconfirm) {
        return signIn(tx, ctx.sessions, {
          user,
          method: 'password',
          ip: clientIp(c),
          userAgent: userAgent(c),
        });
      }
      const flowStateId = challenge
        ? await createFlowState(tx, {
            userId: user.id,
            challenge,
            providerType: 'email',
            authenticationMethod: 'email/signup',
            redirectTo,
            now,
          })
        : null;
      const token = await issueOneTimeToken(tx, {
        userId: user.id,
        type: 'confirmation',
        relatesTo: email,
        flowStateId,
        now,
      });
      user = await updateUser(tx, user.id, { confirmation_sent_at: now }, now);
      queueMail(ctx, c, effects, 'confirmation', { to: email, ...token, redirectTo });
      return loadUserJson(tx, user);
    });
    return c.json(result);
  });
}
