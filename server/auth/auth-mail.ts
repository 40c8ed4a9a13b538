/**
 * The mails the auth service sends. Each carries a link to GET /auth/v1/verify (GoTrue's
 * ConfirmationURL: `{API}/verify?token=…&type=…&redirect_to=…`) and the same token's 6-digit code
 * for verifyOtp. Built inside the transaction, sent only after it commits.
 */
import type { MailMessage } from '../mail/mailer.ts';

export type VerifyLinkType = 'signup' | 'recovery' | 'magiclink' | 'email_change' | 'invite';

export type AuthMailKind =
  | 'confirmation'
  | 'invite'
  | 'recovery'
  | 'magiclink'
  | 'email_change_new'
  | 'email_change_current'
  | 'reauthentication';

const linkType: Record<Exclude<AuthMailKind, 'reauthentication'>, VerifyLinkType> = {
  confirmation: 'signup',
  invite: 'invite',
  recovery: 'recovery',
  magiclink: 'magiclink',
  email_change_new: 'email_change',
  email_change_current: 'email_change',
};

export interface AuthMail {
  message: MailMessage;
  /** The link in the mail (null for reauthentication, which is a code only). */
  link: string | null;
}

export function verifyLink(
  apiUrl: string,
  input: { token: string; type: VerifyLinkType; redirectTo: string },
): string {
  const params = new URLSearchParams({
    token: input.token,
    type: input.type,
    redirect_to: input.redirectTo,
  });
  return `${apiUrl}/verify?${params.toString()}`;
}

export function buildAuthMail(
  kind: AuthMailKind,
  input: {
    apiUrl: string;
    to: string;
    linkToken: string;
    otp: string;
    redirectTo: string;
    /** email change: the address being changed to */
    newEmail?: string;
  },
): AuthMail {
  if (kind === 'reauthentication') {
    return {
      link: null,
      message: {
        to: input.to,
        subject: 'Confirm reauthentication',
        text: `Enter this code to confirm it is you: ${input.otp}\n\nIt expires in 24 hours.\n`,
      },
    };
  }
  const link = verifyLink(input.apiUrl, {
    token: input.linkToken,
    type: linkType[kind],
    redirectTo: input.redirectTo,
  });
  const lines: Record<typeof kind, [string, string]> = {
    confirmation: ['Confirm your signup', 'Follow this link to confirm your email address:'],
    invite: [
      'You have been invited',
      'You have been invited to create an account. Follow this link to accept the invitation:',
    ],
    recovery: ['Reset your password', 'Follow this link to reset the password for your account:'],
    magiclink: ['Your magic link', 'Follow this link to sign in:'],
    email_change_new: [
      'Confirm email change',
      `Follow this link to confirm ${input.newEmail ?? 'this address'} as your new email address:`,
    ],
    email_change_current: [
      'Confirm email change',
      `Someone asked to change this account's email address to ${input.newEmail ?? 'another address'}. Follow this link to confirm:`,
    ],
  };
  const [subject, intro] = lines[kind];
  return {
    link,
    message: {
      to: input.to,
      subject,
      text: [
        intro,
        '',
        link,
        '',
        `Or enter this code: ${input.otp}`,
        '',
        'The link and code expire in 24 hours. If you did not ask for this, ignore this mail.',
        '',
      ].join('\n'),
    },
  };
}
