// notification's trade consumer with both versions of the offer events side by side (issue 24): a
// version 1 event of a two-party offer tells its receiver as before; a version 2 event of a
// three-party offer (a swap chain) tells every member but the one who acted, and a chain the
// platform ended (a listing traded elsewhere) all three.
import { eventRegistry, type OfferEvent } from '@ruilplein/contracts';
import { createEvent, publishEvent } from '@ruilplein/service-kit';
import { offerEvent } from '@ruilplein/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotification, type NotificationHarness, type TestMember } from './helpers.ts';

let h: NotificationHarness;
beforeAll(async () => {
  h = await startNotification();
}, 60_000);
afterAll(async () => {
  await h?.close();
});

const titles = async (m: TestMember, n: number) => (await h.until(m, n)).map((x) => x.title as string).sort();
const chainOf = (a: TestMember, b: TestMember, c: TestMember, over: Partial<OfferEvent> = {}): OfferEvent =>
  offerEvent({
    senderId: a.id,
    receiverId: b.id,
    chainId: 'chain-n',
    participants: [a, b, c].map((m) => ({ userId: m.id, gives: [], receives: [], accepted: m === a, confirmed: false })),
    ...over,
  });

describe('trade.offer.* of both versions', () => {
  it('tells each member of a chain, and the receiver of a version 1 offer', async () => {
    const [a, b, c, s, r] = (await Promise.all(['Anna', 'Bram', 'Cas', 'Sanne', 'Daan'].map((firstName) => h.member({ firstName })))) as [TestMember, TestMember, TestMember, TestMember, TestMember];
    const chain = chainOf(a, b, c);
    await h.publish('trade.offer.created', chain);
    const old = createEvent(eventRegistry, 'trade.offer.created', offerEvent({ senderId: s.id, receiverId: r.id }));
    await publishEvent(h.adminBus, { ...old, schemaVersion: 1 });

    expect(await titles(b, 1)).toEqual(['Nieuw ruilketen-voorstel van Anna']);
    expect(await titles(c, 1)).toEqual(['Nieuw ruilketen-voorstel van Anna']);
    expect(await titles(r, 1)).toEqual(['Nieuw ruilaanbod van Sanne']);

    // Bram accepts (still Pending: Cas has not): Anna and Cas hear it, Bram not.
    await h.publish('trade.offer.accepted', { ...chain, version: 2, actorId: b.id, participants: chain.participants!.map((p) => (p.userId === b.id ? { ...p, accepted: true } : p)) });
    expect(await titles(a, 1)).toEqual(['Bram heeft de ruilketen geaccepteerd']);
    expect(await titles(c, 2)).toEqual(['Bram heeft de ruilketen geaccepteerd', 'Nieuw ruilketen-voorstel van Anna']);

    // The platform cancels it (a listing traded elsewhere): all three hear it.
    await h.publish('trade.offer.cancelled', { ...chain, version: 3, status: 'Cancelled' });
    for (const [m, n] of [[a, 2], [b, 2], [c, 3]] as const) expect(await titles(m, n)).toContain('Ruilketen gaat niet door');

    // A completed chain: each hears from the member who gave to them.
    const done = chainOf(a, b, c, { status: 'Completed', version: 7, senderConfirmed: true, receiverConfirmed: true });
    await h.publish('trade.offer.completed', { ...done, participants: done.participants!.map((p) => ({ ...p, accepted: true, confirmed: true })), actorId: c.id });
    const [forA] = (await h.until(a, 3)).filter((x) => x.kind === 'trade-completed');
    expect(forA).toMatchObject({ title: `Je ruilketen #${done.id} is afgerond`, body: 'Laat een beoordeling achter voor Bram.' });
    const [forC] = (await h.until(c, 4)).filter((x) => x.kind === 'trade-completed');
    expect(forC).toMatchObject({ body: 'Laat een beoordeling achter voor Anna.' });
  });
});
