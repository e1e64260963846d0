import { describe, expect, it } from 'vitest';
import { html, mailHeaders, type Mail } from '../src/index.ts';

describe('the html template tag', () => {
  it('escapes every interpolated string and number, keeps nested fragments, joins arrays', () => {
    const name = `<script>alert("x")</script> & 'co'`;
    const items = ['<a>', 'b&c'].map((i) => html`<li>${i}</li>`);
    expect(html`<p title="${name}">${name} ${3}</p><ul>${items}</ul>`.value).toBe(
      '<p title="&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#39;co&#39;">&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#39;co&#39; 3</p><ul><li>&#60;a&#62;</li><li>b&#38;c</li></ul>',
    );
  });
});

describe('mail headers', () => {
  const base = { to: 'lid@voorbeeld.nl', subject: 'Onderwerp', text: 't', html: '<p>t</p>' };
  it('one-click unsubscribe (RFC 8058) for mail that is not transactional, nothing for transactional mail', () => {
    const bulk: Mail = { ...base, transactional: false, unsubscribeUrl: 'https://ruilplein.nl/afmelden?token=a' };
    expect(mailHeaders(bulk)).toEqual({ 'List-Unsubscribe': '<https://ruilplein.nl/afmelden?token=a>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    expect(mailHeaders({ ...base, transactional: true })).toEqual({});
  });
});
