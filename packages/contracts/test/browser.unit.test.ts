// The browser entry must not bring zod (or any package) into a bundle, and its refs must be the
// routes' own: same service, method, path, access and declared limits.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as browser from '../src/browser/index.ts';
import { apiRoutes, registry, type RouteDef } from '../src/index.ts';

const src = join(import.meta.dirname, '..', 'src');

/** The URLs node loads for `import(entry)`, in a fresh process (vitest's own loader would hide them). */
function modulesLoadedBy(entry: string): string[] {
  const script = `
    import { registerHooks } from 'node:module';
    const loaded = [];
    registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
    await import(${JSON.stringify(pathToFileURL(entry).href)});
    process.stdout.write(JSON.stringify(loaded));
  `;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as string[];
}

describe('@ruilplein/contracts/browser', () => {
  it('loads no package at run time, zod included', () => {
    const loaded = modulesLoadedBy(join(src, 'browser', 'index.ts'));
    expect(loaded.length).toBeGreaterThan(3);
    expect(loaded.filter((url) => url.includes('/node_modules/'))).toEqual([]);
  });

  it('is told apart from the full entry, which does load zod', () => {
    expect(modulesLoadedBy(join(src, 'index.ts')).some((url) => url.includes('/node_modules/zod/'))).toBe(true);
  });

  it('gives each route of every group its ref, equal to the route in what the browser and the kit read', () => {
    const apis: Record<string, Record<string, object>> = {
      auth: browser.authApi,
      user: browser.userApi,
      block: browser.blockApi,
      adminUser: browser.adminUserApi,
      geo: browser.geoApi,
      category: browser.categoryApi,
      listing: browser.listingApi,
      wishlist: browser.wishlistApi,
      savedSearch: browser.savedSearchApi,
      trade: browser.tradeApi,
      chat: browser.chatApi,
      moderation: browser.moderationApi,
      payment: browser.paymentApi,
      notification: browser.notificationApi,
      chain: browser.chainApi,
    };
    const refOf = (r: RouteDef) => ({
      service: r.service,
      method: r.method,
      path: r.path,
      access: r.access,
      ...(r.rateLimit && { rateLimit: r.rateLimit }),
      ...(r.caller && { caller: r.caller }),
      ...(r.personal !== undefined && { personal: r.personal }),
      ...(r.form && { form: true }),
      ...(r.whileSuspended && { whileSuspended: true }),
    });
    let seen = 0;
    for (const entry of Object.values(registry)) {
      for (const [group, routes] of Object.entries(entry.routes as Record<string, Record<string, RouteDef>>)) {
        for (const [name, route] of Object.entries(routes)) {
          expect(apis[group]?.[name], `${group}.${name}`).toEqual(refOf(route));
          seen++;
        }
      }
    }
    expect(seen).toBe(apiRoutes.length);
  });

  it('checks a password as the server does: any uppercase letter, also outside ASCII', () => {
    expect(browser.passwordProblem('Émile1')).toBeUndefined();
    expect(browser.passwordProblem('émile1')).toBe(browser.AUTH_MESSAGES.passwordNeedsUppercase);
    expect(browser.passwordProblem('Emilia')).toBe(browser.AUTH_MESSAGES.passwordNeedsDigit);
    expect(browser.passwordProblem('Em1')).toBe(browser.AUTH_MESSAGES.passwordTooShort);
  });

  it('reads a listing value with a decimal comma, and a rating in half steps', () => {
    expect(browser.parseListingValue(' 12,50 ')).toBe(12.5);
    expect(browser.parseListingValue('')).toBeUndefined();
    expect(browser.listingValueProblem(browser.parseListingValue('twaalf'))).toBe(browser.LISTING_MESSAGES.invalidValue);
    expect(browser.listingValueProblem(1_000_000.01)).toBe(browser.LISTING_MESSAGES.valueOutOfRange);
    expect(browser.offerMessage('   ')).toBe('Zullen we ruilen? 😄');
    expect([1, 1.5, 5].every(browser.isValidRating)).toBe(true);
    expect([0, 0.5, 1.25, 5.5, Number.NaN].some(browser.isValidRating)).toBe(false);
  });
});
