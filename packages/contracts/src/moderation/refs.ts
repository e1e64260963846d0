// Where each moderation route lives and who may call it: zod-free, so the browser's typed client takes
// these very objects (`@ruilplein/contracts/browser`); routes.ts adds summaries and schemas.
import { defineRefs } from '../routes.ts';

export const moderationRefs = defineRefs({
  // The seed sent it without a token; now only members report, as themselves, a few per hour.
  createReport: {
    service: 'moderation',
    method: 'post',
    path: '/api/report/create',
    access: 'user',
    caller: { body: ['reporterID'] },
    rateLimit: { per: 'user', points: 10, windowSeconds: 3600, name: 'report-create' },
  },
  listReports: { service: 'moderation', method: 'get', path: '/api/report/all', access: 'admin', personal: true },
  setReportStatus: { service: 'moderation', method: 'put', path: '/api/report/:id/status', access: 'admin' },
  createWarning: { service: 'moderation', method: 'post', path: '/api/warning/create', access: 'admin', caller: { body: ['adminID'] } },
  createBan: { service: 'moderation', method: 'post', path: '/api/ban/create', access: 'admin', caller: { body: ['issuedBy'] } },
  // Issue 27: the admin's user list shows each member's suspension, and an admin lifts one.
  listSuspensions: { service: 'moderation', method: 'get', path: '/api/ban/suspensions', access: 'admin', personal: true },
  liftSuspension: { service: 'moderation', method: 'post', path: '/api/ban/:userId/lift', access: 'admin' },
  stats: { service: 'moderation', method: 'get', path: '/api/admin/stats', access: 'admin', personal: true },
});
