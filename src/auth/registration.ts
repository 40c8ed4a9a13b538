import type { User } from '@supabase/supabase-js';
import * as v from 'valibot';
import type { CallEndpoint } from '#contract/define-endpoint.ts';
import { registerUser } from '#contract/endpoints/register.ts';
import { pictureUrlSchema, type RegisterUserInput } from '#contract/entities/user-profile.ts';
import type { Workspace } from '#contract/entities/workspace.ts';
import type { AuthLog } from './auth-log.ts';

const maxNameLength = 100;

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** Spec 4: first name = the first word of the full name, last name = the rest. */
export function splitFullName(fullName: string): { firstName: string; lastName: string } {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  return { firstName: words[0] ?? '', lastName: words.slice(1).join(' ') };
}

/** True when the account was created through Google (its first provider). */
export function signedUpWithGoogle(user: User): boolean {
  return user.app_metadata.provider === 'google';
}

/**
 * The register-user body for a user: Google accounts by the spec 4 rule (full name split, picture
 * from `avatar_url`); email accounts from the names given at sign-up (`first_name`, `last_name`).
 * Values the contract would refuse (over-long names, a non-web picture URL) are trimmed or dropped
 * so registration never fails on what a provider sent.
 */
export function registrationInputFor(user: User): RegisterUserInput {
  const meta = (user.user_metadata ?? {}) as Record<string, unknown>;
  let names: { firstName: string; lastName: string };
  if (signedUpWithGoogle(user)) {
    names = splitFullName(text(meta['full_name']) || text(meta['name']));
  } else {
    names = { firstName: text(meta['first_name']), lastName: text(meta['last_name']) };
    if (!names.firstName && !names.lastName) names = splitFullName(text(meta['display_name']));
  }
  const picture = text(meta['avatar_url']) || text(meta['picture']) || null;
  return {
    id: user.id,
    email: user.email ?? '',
    firstName: names.firstName.slice(0, maxNameLength),
    lastName: names.lastName.slice(0, maxNameLength),
    profilePictureUrl: v.is(pictureUrlSchema, picture) ? picture : null,
  };
}

/** sessionStorage key marking a user as registered for this browser session (spec 4). */
export function registeredMarkerKey(userId: string): string {
  return `satchel.registered.${userId}`;
}

export interface RegistrationResult {
  /** The user's workspace, or null when this session had already registered them. */
  workspace: Workspace | null;
}

export interface RegistrationCoordinator {
  /**
   * Calls register-user for `user` once per browser session; concurrent calls share one request.
   * Rejects when the call fails (after logging it: spec 8, "logged").
   */
  ensureRegistered(user: User): Promise<RegistrationResult>;
}

export interface RegistrationCoordinatorOptions {
  callEndpoint: CallEndpoint;
  /** sessionStorage in the app; undefined when storage is unavailable (then every call registers). */
  storage: Pick<Storage, 'getItem' | 'setItem'> | undefined;
  log: AuthLog;
}

/**
 * register-user creates the profile and the user's own workspace and is idempotent, so calling it
 * once per browser session for every signed-in user is safe: it covers Google's first sign-in
 * (spec 4), a confirmation link opened in another browser and auto-confirmed sign-ups alike.
 */
export function createRegistrationCoordinator(
  options: RegistrationCoordinatorOptions,
): RegistrationCoordinator {
  const inFlight = new Map<string, Promise<RegistrationResult>>();
  const read = (key: string) => {
    try {
      return options.storage?.getItem(key) ?? null;
    } catch {
      return null;
    }
  };
  const mark = (key: string) => {
    try {
      options.storage?.setItem(key, '1');
    } catch {
      // Private mode without storage: the next page load registers again, which is harmless.
    }
  };

  return {
    ensureRegistered(user) {
      const key = registeredMarkerKey(user.id);
      if (read(key) === '1') return Promise.resolve({ workspace: null });
      const running = inFlight.get(user.id);
      if (running) return running;
      const request = options
        .callEndpoint(registerUser, { query: {}, body: registrationInputFor(user) })
        .then(
          (response) => {
            if (response.ok) mark(key);
            return { workspace: response.data.workspace };
          },
          (error: unknown) => {
            const { status, message } = error as { status?: unknown; message?: unknown };
            options.log.error('Registering the user failed', { status, message });
            throw error;
          },
        )
        .finally(() => inFlight.delete(user.id));
      inFlight.set(user.id, request);
      return request;
    },
  };
}
