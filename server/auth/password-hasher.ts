/**
 * argon2id password hashes (PHC strings) with OWASP's parameters: 19 MiB, 2 passes, 1 lane.
 * Tests inject cheaper parameters; a hash made with other parameters than the current ones is
 * reported as needing a rehash so the next sign-in upgrades it.
 */
import { hash, parseOptions, verify } from '@node-rs/argon2';

export interface PasswordHashOptions {
  /** KiB */
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

export const OWASP_ARGON2ID: PasswordHashOptions = {
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

// @node-rs/argon2's Algorithm is a const enum, which erasableSyntaxOnly code cannot import.
const ARGON2ID = 2;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password or an unreadable stored hash. */
  verify(stored: string, password: string): Promise<boolean>;
  needsRehash(stored: string): boolean;
  /**
   * Spends the time of one verify: run for unknown accounts so response time does not tell
   * whether an address is registered.
   */
  burn(password: string): Promise<void>;
}

export async function createPasswordHasher(
  options: PasswordHashOptions = OWASP_ARGON2ID,
): Promise<PasswordHasher> {
  const hashOptions = { ...options, algorithm: ARGON2ID };
  const decoy = await hash('decoy password, never matches', hashOptions);
  const verifySafely = async (stored: string, password: string) => {
    try {
      return await verify(stored, password);
    } catch {
      return false;
    }
  };
  return {
    hash: (password) => hash(password, hashOptions),
    verify: verifySafely,
    needsRehash(stored) {
      try {
        const parsed = parseOptions(stored);
        return (
          Number(parsed.algorithm) !== ARGON2ID ||
          parsed.memoryCost !== options.memoryCost ||
          parsed.timeCost !== options.timeCost ||
          parsed.parallelism !== options.parallelism
        );
      } catch {
        return true;
      }
    },
    async burn(password) {
      await verifySafely(decoy, password);
    },
  };
}
