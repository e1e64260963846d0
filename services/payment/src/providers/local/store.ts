import type { PaymentStatus } from '@ruilplein/contracts';
import { collection, type Connection } from '@ruilplein/service-kit';

/** The local checkout's own records, as Mollie keeps them on its side. */
export interface LocalPaymentDoc {
  _id: string;
  status: PaymentStatus;
  customerId: string;
  sequenceType: 'first' | 'recurring';
  amountCents: number;
  description: string;
  redirectUrl?: string;
  webhookUrl: string;
  subscriptionId?: string;
  userId?: string;
  createdAt: Date;
  expiresAt: Date;
  paidAt?: Date;
}

export interface LocalSubscriptionDoc {
  _id: string;
  customerId: string;
  status: 'active' | 'canceled';
  amountCents: number;
  webhookUrl: string;
  userId?: string;
  /** The day the next renewal is charged (YYYY-MM-DD). */
  nextPaymentDate: string;
  /** Renewals so far: each one's payment id is `<subscription>_<n>`, so a renewal is made once. */
  renewals: number;
  /** The next renewal fails (a card that expired): the test mode's switch. */
  failNext?: boolean;
}

export interface LocalCustomerDoc {
  _id: string;
  name: string;
  userId: string;
}

/** Idempotency keys as Mollie keeps them: the same key answers the first result again. */
export interface LocalKeyDoc {
  _id: string;
  result: string;
}

export function localStore(db: Connection) {
  return {
    payments: collection<LocalPaymentDoc>(db, 'local_payments'),
    subscriptions: collection<LocalSubscriptionDoc>(db, 'local_subscriptions'),
    customers: collection<LocalCustomerDoc>(db, 'local_customers'),
    keys: collection<LocalKeyDoc>(db, 'local_idempotency'),
  };
}
export type LocalStore = ReturnType<typeof localStore>;
