/**
 * Captcha checks (hCaptcha / Cloudflare Turnstile siteverify protocol): a form POST with the
 * secret and the client's token, answered by JSON `{success: boolean}`. Applied, when
 * CAPTCHA_SECRET is set, where GoTrue applies it: sign-up, password sign-in, recover, resend, otp.
 */
import * as v from 'valibot';
import type { CaptchaConfig } from './auth-config.ts';
import { AuthError, badRequest } from './auth-error.ts';

export interface CaptchaVerifier {
  /** Throws 400 captcha_failed unless the provider accepts the token. */
  verify(token: string | null | undefined, ip: string | null): Promise<void>;
}

const answerSchema = v.object({ success: v.boolean() });

export function createCaptchaVerifier(
  config: CaptchaConfig,
  fetchImpl: typeof fetch = fetch,
): CaptchaVerifier {
  return {
    async verify(token, ip) {
      if (!token) {
        throw badRequest(
          'captcha_failed',
          'captcha protection: request disallowed (no captcha_token found)',
        );
      }
      const form = new URLSearchParams({
        secret: config.secret,
        response: token,
        sitekey: config.siteKey,
      });
      if (ip && ip !== 'unknown') form.set('remoteip', ip);
      let answer: v.InferOutput<typeof answerSchema>;
      try {
        const response = await fetchImpl(config.verifyUrl, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: form,
          signal: AbortSignal.timeout(10_000),
        });
        answer = v.parse(answerSchema, await response.json());
      } catch (error) {
        throw new AuthError(500, 'captcha_failed', 'captcha verification process failed', {
          extra: { reason: error instanceof Error ? error.name : 'unknown' },
        });
      }
      if (!answer.success) {
        throw badRequest(
          'captcha_failed',
          'captcha protection: request disallowed (captcha_failed)',
        );
      }
    },
  };
}
