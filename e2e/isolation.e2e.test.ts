// A remote whose files are unreachable breaks only its own area.
import { describe, expect, it } from 'vitest';
import { pageForFile } from './browser.ts';
import { setRemote } from './platform.ts';

const page = pageForFile(() => setRemote('listings', { blocked: false }));

const area = () => page().locator('[data-testid="remote-area"]');
const sidebar = (name: string) => page().getByRole('link', { name, exact: true });
/** Set before the first click: still there at the end means no page load happened in between. */
const samePage = () => page().evaluate(() => (globalThis as { e2eSamePage?: boolean }).e2eSamePage === true);

describe('failure isolation', () => {
  it('shows the Dutch error with retry in the area of a remote that cannot load; the rest keeps working; retry loads it', async () => {
    await page().goto('/dashboard');
    await sidebar('Aanbod').waitFor();
    await page().evaluate(() => void ((globalThis as { e2eSamePage?: boolean }).e2eSamePage = true));
    await setRemote('listings', { blocked: true });

    await sidebar('Aanbod').click();
    await page().waitForURL('**/dashboard/search');
    const error = area().locator('[data-testid="remote-error"]');
    await error.waitFor();
    expect(await error.innerText()).toContain('Dit onderdeel kon niet worden geladen.');
    await error.getByRole('button', { name: 'Opnieuw proberen' }).waitFor();
    // The shell around it still works.
    await sidebar('Ruilaanbiedingen').waitFor();

    // Another remote loads and renders while this one is down.
    await sidebar('Ruilaanbiedingen').click();
    await area().getByRole('heading', { name: 'Jouw Ruilaanbiedingen', exact: true }).waitFor();
    expect(await page().locator('[data-testid="remote-error"]').count()).toBe(0);

    // Back to the broken one: still broken while the edge refuses it; a retry asks again, and fails again.
    await sidebar('Aanbod').click();
    await error.waitFor();
    const askedAgain = page().waitForResponse((res) => res.url().includes('/mfe/listings/') && res.status() === 503);
    await error.getByRole('button', { name: 'Opnieuw proberen' }).click();
    await askedAgain;
    await error.waitFor();

    // Served again: retry renders the page, without a reload.
    await setRemote('listings', { blocked: false });
    await error.getByRole('button', { name: 'Opnieuw proberen' }).click();
    await area().getByRole('heading', { name: 'Categorieën' }).waitFor();
    await expect.poll(() => area().locator('[data-testid="category"]').count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(20);
    expect(await error.count()).toBe(0);
    expect(await samePage(), 'no page reload in between').toBe(true);
  });
});
