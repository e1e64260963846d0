// Membership, upgrade and the payment's return (spec 1 §2): the shell's own pages under /dashboard.
export { Membership } from './Membership.tsx';
export { PaymentReturn } from './PaymentReturn.tsx';
export { PremiumBadge } from './PremiumBadge.tsx';
export { Thanks } from './Thanks.tsx';
export { Upgrade } from './Upgrade.tsx';
