import { describe, expect, it } from 'vitest';
import type { Notification } from '@ruilplein/contracts/browser';
import { unreadChats, waitingFor } from '../src/offers/waiting.ts';

const me = 'a'.repeat(24);
const other = 'b'.repeat(24);
const offer = (sent: boolean, status: 'Pending' | 'Accepted' | 'Completed' | 'Rejected' | 'Cancelled', confirmed = { sender: false, receiver: false }) => ({
  senderID: sent ? me : other,
  status,
  senderConfirmed: confirmed.sender,
  receiverConfirmed: confirmed.receiver,
});

describe('offers waiting for the member', () => {
  it('are the received pending ones and the accepted ones the member has not confirmed', () => {
    expect(waitingFor(offer(false, 'Pending'), me)).toBe('Wacht op jouw antwoord');
    expect(waitingFor(offer(true, 'Pending'), me)).toBeNull();
    expect(waitingFor(offer(true, 'Accepted'), me)).toBe('Wacht op jouw bevestiging');
    expect(waitingFor(offer(true, 'Accepted', { sender: true, receiver: false }), me)).toBeNull();
    expect(waitingFor(offer(false, 'Accepted', { sender: true, receiver: false }), me)).toBe('Wacht op jouw bevestiging');
    expect(waitingFor(offer(false, 'Accepted', { sender: false, receiver: true }), me)).toBeNull();
    for (const status of ['Completed', 'Rejected', 'Cancelled'] as const) expect(waitingFor(offer(false, status), me)).toBeNull();
  });

  it("in a swap chain: by the member's own answer and confirmation, not the sender and receiver fields", () => {
    const third = 'c'.repeat(24);
    const chain = (status: 'Pending' | 'Accepted', mine: { accepted: boolean; confirmed: boolean }) => ({
      // The fields of two parties say "received, not confirmed" for me: the participants decide.
      ...offer(false, status, { sender: true, receiver: true }),
      participants: [
        { id: other, accepted: true, confirmed: false },
        { id: me, ...mine },
        { id: third, accepted: false, confirmed: false },
      ],
    });
    expect(waitingFor(chain('Pending', { accepted: false, confirmed: false }), me)).toBe('Wacht op jouw antwoord');
    expect(waitingFor(chain('Pending', { accepted: true, confirmed: false }), me)).toBeNull();
    expect(waitingFor(chain('Accepted', { accepted: true, confirmed: false }), me)).toBe('Wacht op jouw bevestiging');
    expect(waitingFor(chain('Accepted', { accepted: true, confirmed: true }), me)).toBeNull();
  });
});

describe('unread chats per offer', () => {
  const note = (id: string, kind: Notification['kind'], link: string, readAt: string | null = null): Notification => ({
    id,
    kind,
    title: `titel ${id}`,
    body: '',
    link,
    createdAt: '2026-01-01T10:00:00.000Z',
    readAt,
  });

  it("come from the unread chat notifications linking to an offer, the newest per offer", () => {
    const chats = unreadChats([
      note('1', 'chat-message', '/dashboard/tradeoffer/12'),
      note('2', 'chat-message', '/dashboard/tradeoffer/12'),
      note('3', 'chat-message', '/dashboard/tradeoffer/13', '2026-01-01T11:00:00.000Z'),
      note('4', 'offer-received', '/dashboard/tradeoffer/14'),
      note('5', 'chat-message', '/dashboard/tradeoffer/15/extra'),
      note('6', 'chat-message', '/dashboard/tradeoffer/16'),
    ]);
    expect([...chats.keys()]).toEqual([12, 16]);
    expect(chats.get(12)?.id).toBe('1');
  });
});
