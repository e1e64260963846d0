// The platform the e2e run shares (started by setup.ts), seen from a test file.
import { inject } from 'vitest';
import type { E2EContext } from './context.ts';

export const platform = (): E2EContext => inject('e2e');

/** Makes the edge answer 503 for everything under /mfe/<name>/, or serve that remote from another build folder (null: its own). */
export async function setRemote(name: string, change: { blocked?: boolean; dir?: string | null }): Promise<void> {
  const res = await fetch(`${platform().controlUrl}/remotes/${name}`, { method: 'POST', body: JSON.stringify(change) });
  if (res.status !== 204) throw new Error(`edge control: ${res.status} ${await res.text()}`);
}

/** GET on the platform's origin, as the browser would (but without its cache). */
export const get = (path: string, init?: RequestInit) => fetch(new URL(path, platform().url), init);

/**
 * Moves every service's clock (suspensions, Premium periods) `ms` ahead of real time; 0 puts it back.
 * Services re-read it within 200 ms: wait for the effect you expect, not for a time.
 */
export async function moveClock(ms: number): Promise<void> {
  const { writeFile } = await import('node:fs/promises');
  await writeFile(platform().clockFile, String(ms));
}
