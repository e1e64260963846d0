// The platform's smoke test under members' load (issue 25): `npm run load -- --smoke` against the
// platform e2e/setup.ts started: 20 simulated members sign up (half of them with Premium through
// the local checkout) and then sign in, search with and without keywords, wishlist, list items with
// photos, make offers, chat over the hub, accept, confirm and review for 30 seconds. Any error
// fails it, and so does a step of those that never ran; the table is printed for the log.
import { describe, expect, it } from 'vitest';
import { formatResult, parseOptions, runLoad } from '@ruilplein/load';
import { platform } from './platform.ts';

describe('the smoke load', () => {
  it('20 members for 30 seconds: every step runs and none fails', async () => {
    const result = await runLoad(parseOptions(['--smoke', '--url', platform().url]), (line) => console.log(`[load] ${line}`));
    console.log(formatResult(result));
    expect(result.signedUp, 'accounts made').toBe(20);
    expect(result.signedIn, 'members signed in').toBe(20);
    expect(result.missing, 'steps that never ran').toEqual([]);
    expect([...result.errorReasons], 'errors (step: reason, count)').toEqual([]);
    // Each of the platform's processes was found and measured (the runner is this run's vitest).
    expect(result.processes.map((p) => p.name)).toEqual(expect.arrayContaining(['gateway', 'auth', 'listing', 'trade', 'chat']));
  }, 180_000);
});
