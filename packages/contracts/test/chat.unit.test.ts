import { describe, expect, it } from 'vitest';
import { CHAT_PREVIEW_MAX_LENGTH, chatPreview } from '../src/browser/index.ts';
import { ChatMessageSentEventSchema } from '../src/index.ts';

describe('chatPreview', () => {
  it('keeps a short message whole, on one line', () => {
    expect(chatPreview('Hoi!')).toBe('Hoi!');
    expect(chatPreview('  Hoi Sanne,\n\nis de fiets\ter nog?  ')).toBe('Hoi Sanne, is de fiets er nog?');
    expect(chatPreview('x'.repeat(CHAT_PREVIEW_MAX_LENGTH))).toBe('x'.repeat(CHAT_PREVIEW_MAX_LENGTH));
  });

  it('cuts a long one to at most 80 characters with an ellipsis, never inside a surrogate pair', () => {
    const cut = chatPreview('x'.repeat(81));
    expect(cut).toBe(`${'x'.repeat(79)}…`);
    for (let pad = 0; pad < 4; pad++) {
      const preview = chatPreview(`${'a'.repeat(pad)}${'😄'.repeat(60)}`);
      expect(preview.length).toBeLessThanOrEqual(CHAT_PREVIEW_MAX_LENGTH);
      expect(preview.isWellFormed()).toBe(true);
      expect(preview.endsWith('😄…')).toBe(true);
    }
  });

  it('fits the event', () => {
    const event = { messageId: 1, version: 1, offerId: 7, senderId: 'a', recipientIds: ['b'], preview: chatPreview('lang '.repeat(100)), sentAt: new Date(0).toISOString() };
    expect(ChatMessageSentEventSchema.safeParse(event).success).toBe(true);
    expect(ChatMessageSentEventSchema.safeParse({ ...event, preview: 'x'.repeat(81) }).success).toBe(false);
  });
});
