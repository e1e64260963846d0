import { body } from '@ruilplein/service-kit/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authStores, signUp, startAuth, type AuthStores, type RunningAuth } from './helpers.ts';

let stores: AuthStores;
let auth: RunningAuth;

beforeAll(async () => {
  stores = await authStores();
  auth = await startAuth(stores);
});
afterAll(async () => {
  await auth.stop();
  await stores.close();
});

describe('profile routes in the assembled auth service', () => {
  it('takes a member from sign-up through a profile save with picture to what others see', async () => {
    const sanne = await signUp(auth.url, { firstName: 'Sanne' });
    const other = await signUp(auth.url, { firstName: 'Bram' });
    const bearer = { authorization: `Bearer ${sanne.token}` };

    const form = new FormData();
    form.append('firstName', ' Sanne ');
    form.append('lastName', ' Bakker ');
    form.append('email', sanne.email);
    form.append('city', 'Amersfoort');
    const png = await sharp({ create: { width: 700, height: 700, channels: 4, background: '#f80' } }).png().toBuffer();
    form.append('profilePicture', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'ik.png');
    const saved = await fetch(`${auth.url}/api/user/update`, { method: 'PUT', headers: bearer, body: form });
    expect(saved.status).toBe(200);

    const me = await body(await fetch(`${auth.url}/api/user/my`, { headers: bearer }));
    expect(me).toMatchObject({ id: sanne.id, firstName: 'Sanne', lastName: 'Bakker', email: sanne.email, city: 'Amersfoort', activated: true });
    expect(me.latitude).toBeCloseTo(52.16, 1);
    const picture = await fetch(auth.url + me.profilePicture);
    expect(picture.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(Buffer.from(await picture.arrayBuffer())).metadata()).width).toBe(512);

    // Bram, signed in or not, sees Sanne's public face only.
    for (const headers of [{ authorization: `Bearer ${other.token}` }, {}]) {
      const text = await (await fetch(`${auth.url}/api/user/public/${sanne.id}`, { headers })).text();
      expect(JSON.parse(text)).toEqual({ id: sanne.id, firstName: 'Sanne', lastName: 'Bakker', profilePicture: me.profilePicture, city: 'Amersfoort', role: ['Gebruiker'] });
      expect(text).not.toContain(sanne.email);
    }
    expect(await body(await fetch(`${auth.url}/api/user/public/stats/${sanne.id}`))).toEqual({ totalTrades: 0, averageRating: 0, totalReviewers: 0, activeListings: 0 });
    expect(await body(await fetch(`${auth.url}/api/user/status`, { headers: bearer }))).toEqual({ blocked: false, reason: null, unblockDate: null });
    const fallback = await fetch(`${auth.url}/uploads/avatars/default_avatar.jpg`);
    expect(fallback.headers.get('content-type')).toBe('image/jpeg');
  });
});
