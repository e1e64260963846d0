import { argon2id, hash as argon2Hash, needsRehash, verify as argon2Verify } from 'argon2';

/**
 * argon2id cost. The default is OWASP's first recommendation (19 MiB, 2 passes, 1 lane); what a
 * hash and a login cost on a machine: `npm run bench:auth`.
 */
export interface Argon2Cost {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

export const DEFAULT_ARGON2_COST: Argon2Cost = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export interface Passwords {
  hash(password: string): Promise<string>;
  /**
   * Checks a password; `hash` undefined (no such account) still does the work of a check, so the
   * answer time does not tell whether an account exists. `rehash`: the hash has an older cost.
   */
  verify(hash: string | undefined, password: string): Promise<{ ok: boolean; rehash: boolean }>;
}

export function createPasswords(cost: Argon2Cost = DEFAULT_ARGON2_COST): Passwords {
  const hash = (password: string) => argon2Hash(password, { type: argon2id, ...cost });
  // Made once, lazily: what an unknown account's password is checked against.
  let decoy: Promise<string> | undefined;
  return {
    hash,
    async verify(stored, password) {
      if (!stored) {
        await argon2Verify(await (decoy ??= hash('ruilplein-decoy')), password);
        return { ok: false, rehash: false };
      }
      const ok = await argon2Verify(stored, password);
      return { ok, rehash: ok && needsRehash(stored, cost) };
    },
  };
}
