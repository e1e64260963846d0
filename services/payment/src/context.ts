import type { PaymentStatus } from '@ruilplein/contracts';
import { collection, type Connection, type Logger, type MailOutboxEntry, type MailRelay, type OutboxEntry, type OutboxRelay } from '@ruilplein/service-kit';
import type { mongo } from 'mongoose';
import type { PaymentProvider } from './providers/provider.ts';

/** A mail a change calls for, noted with the change (memberships/mails.ts composes it). */
export interface DueMail {
  event: 'payment.subscription.activated' | 'payment.subscription.renewed' | 'payment.subscription.cancelled';
  /** The membership's version the change made: the receipt's number. */
  version: number;
  /** The end of the paid period after the change. */
  paidUntil: Date | null;
  at: Date;
}

/**
 * A member's Premium membership, the aggregate the `payment.subscription.*` events are about. Every
 * change is one conditional update on `version` with its events in the same write (outbox); the
 * payments it has taken into account are listed, so none is applied twice.
 */
export interface MembershipDoc {
  _id: string;
  version: number;
  customerId?: string;
  /** First payments started so far: the next one's idempotency key is `first-<member>-<n+1>`. */
  firstAttempts?: number;
  /** The newest first payment started (the return screen may come back before the webhook). */
  lastFirstPaymentId?: string;
  /** The paid first payment the subscription rests on (its mandate). */
  firstPaymentId?: string;
  firstPaidAt?: Date;
  /**
   * Where the period the first payment bought begins: when it was paid, or the end of a Premium
   * that still ran then (a checkout opened before), so a payment never buys time already paid.
   */
  periodStart?: Date;
  subscriptionId?: string;
  status: 'none' | 'active' | 'cancelled' | 'expired';
  /** Premium holds until then: the end of the paid period. */
  paidUntil?: Date;
  /** A renewal failed: Premium ends with the paid period. */
  renewalFailed?: boolean;
  /** Payments already applied (the newest few): a webhook replayed or racing the return screen changes nothing. */
  applied: string[];
  outbox?: Record<string, OutboxEntry>;
  outboxPending?: true;
  /** Mails to compose, by `v<version>`, and the marker of documents with any. */
  mailsDue?: Record<string, DueMail>;
  mailsDuePending?: true;
  /** The kit's mail outbox (relay.ts). */
  mailOutbox?: Record<string, MailOutboxEntry>;
  mailOutboxPending?: true;
}

/** A payment as the service last saw it at the provider. */
export interface PaymentDoc {
  _id: string;
  userId: string;
  kind: 'first' | 'renewal';
  status: PaymentStatus;
  amountCents: number;
  createdAt: Date;
}

export interface PaymentContext {
  memberships: mongo.Collection<MembershipDoc>;
  payments: mongo.Collection<PaymentDoc>;
  provider: PaymentProvider;
  relay: Pick<OutboxRelay, 'kick'>;
  logger: Logger;
  /** Where the checkout sends the member back, and where the provider calls. */
  redirectUrl: string;
  webhookUrl: string;
  /** Days an active subscription's renewal may be late before Premium ends anyway. */
  graceMs: number;
  /** The members' mail addresses (auth's `rpc.auth.member.contacts`), by id. */
  contacts(ids: string[]): Promise<Map<string, string>>;
  /** Sends the memberships' mail outboxes. */
  mail: Pick<MailRelay, 'kick'>;
  /** The browser's origin: links in mails. */
  publicUrl: string;
}

export const COLLECTIONS = { memberships: 'memberships', payments: 'payments' } as const;

export function paymentCollections(db: Connection) {
  return {
    memberships: collection<MembershipDoc>(db, COLLECTIONS.memberships),
    payments: collection<PaymentDoc>(db, COLLECTIONS.payments),
  };
}
