import type { OutboxEntry } from '@ruilplein/service-kit';

/** The outbox fields the relay reads (service-kit outbox.ts), on every document that announces. */
export interface WithOutbox {
  outbox?: Record<string, OutboxEntry>;
  outboxPending?: true;
}
