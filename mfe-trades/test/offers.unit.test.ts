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
