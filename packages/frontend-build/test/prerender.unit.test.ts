import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pageFile, pageHtml } from '../src/prerender.ts';

const template =
  '<!doctype html><html lang="nl"><head><meta charset="utf-8"><title>Ruilplein</title><script defer src="/main.0123abcd.js"></script></head><body><div id="root"></div></body></html>';
const page = { path: '/over-ons', title: 'Over ons | Ruilplein', description: 'Buren ruilen "samen" & <gratis>.' };

describe('a prerendered page', () => {
  it('gets its title, description and Open Graph tags in the head and its markup in the root', () => {
    const html = pageHtml(template, page, '<h1>Over ons</h1>');
    expect(html).toContain('<title>Over ons | Ruilplein</title><meta name="description" content="Buren ruilen &quot;samen&quot; &amp; &lt;gratis&gt;.">');
    for (const [property, content] of [
      ['og:title', 'Over ons | Ruilplein'],
      ['og:description', 'Buren ruilen &quot;samen&quot; &amp; &lt;gratis&gt;.'],
      ['og:type', 'website'],
      ['og:locale', 'nl_NL'],
      ['og:site_name', 'Ruilplein'],
    ]) {
      expect(html).toContain(`<meta property="${property}" content="${content}">`);
    }
    expect(html).not.toContain('og:url');
    expect(html).toContain('<div id="root"><h1>Over ons</h1></div>');
    expect(html).toContain('<script defer src="/main.0123abcd.js"></script>');
  });

  it('never carries an inline script (the CSP refuses it), and needs a template it can fill', () => {
    expect(() => pageHtml(template, page, '<div></div><script>$RC("B:0")</script>')).toThrow(/CSP/);
    expect(() => pageHtml('<html><body><div id="root"></div></body></html>', page, '')).toThrow(/template/);
  });

  it('is written where the edge and nginx look for it', () => {
    expect(pageFile('/d', '/')).toBe(join('/d', 'index.html'));
    expect(pageFile('/d', '/over-ons')).toBe(join('/d', 'over-ons', 'index.html'));
  });
});
