// moderation's decisions about a member reach that member: a warning with its text, a suspension
// with why and until when, and its end (lifted by an admin or run out); a reporter hears their
// report was handled.
import { eventRegistry } from '@ruilplein/contracts';
import { consume, type Bus, type Connection, type Logger, type Worker } from '@ruilplein/service-kit';
import type { NotificationContext } from '../context.ts';
import { dateTimeInDutch } from '../notifications/dates.ts';
import { notify } from '../notifications/store.ts';

export function consumeModeration(bus: Bus, db: Connection, ctx: NotificationContext, logger: Logger): Promise<Worker> {
  return consume(bus, {
    durable: 'notification-moderation',
    registry: eventRegistry,
    subjects: ['moderation.user.warned', 'moderation.user.suspended', 'moderation.user.suspension-ended', 'moderation.report.resolved'],
    db,
    logger,
    handler: async (event) => {
      switch (event.type) {
        case 'moderation.user.warned': {
          const w = event.payload;
          await notify(ctx, {
            userId: w.userId,
            kind: 'warning',
            source: `w${w.warningId}`,
            at: new Date(w.at),
            title: 'Je hebt een waarschuwing gekregen',
            body: w.reason?.trim() || 'Een beheerder heeft je een waarschuwing gegeven. Houd je aan de ruilregels.',
            link: '/ruilregels',
          });
          break;
        }
        case 'moderation.user.suspended': {
          const s = event.payload;
          const why = s.reason === 'ban' ? 'Een beheerder heeft je account geblokkeerd.' : 'Je account is geblokkeerd na herhaalde waarschuwingen.';
          const until = s.endsAt ? `De blokkade duurt tot ${dateTimeInDutch(s.endsAt)}.` : 'De blokkade geldt tot een beheerder haar opheft.';
          await notify(ctx, { userId: s.userId, kind: 'suspension', source: `s${s.version}`, at: new Date(s.at), title: 'Je account is geblokkeerd', body: `${why} ${until}`, link: '/geblokkeerd' });
          break;
        }
        case 'moderation.user.suspension-ended': {
          const e = event.payload;
          // What ending restores is access only (decisions.md): the member turns their listings on again.
          const lifted = e.cause === 'lifted';
          await notify(ctx, {
            userId: e.userId,
            kind: 'suspension-ended',
            source: `e${e.version}`,
            at: new Date(e.at),
            title: lifted ? 'De blokkade van je account is opgeheven' : 'De blokkade van je account is afgelopen',
            body: `${lifted ? 'Een beheerder heeft de blokkade opgeheven.' : 'De blokkade is voorbij.'} Je kunt weer ruilen. Je listings staan nog offline: zet ze weer aan onder Mijn Listings.`,
            link: '/dashboard/my-listings',
          });
          break;
        }
        case 'moderation.report.resolved': {
          const r = event.payload;
          await notify(ctx, {
            userId: r.reporterId,
            kind: 'report-handled',
            source: `p${r.reportId}v${r.version}`,
            at: new Date(r.at),
            title: 'Je melding is afgehandeld',
            body: `Bedankt voor je melding. Een beheerder heeft hem bekeken (status: ${r.status}).`,
            link: '/dashboard',
          });
          break;
        }
      }
    },
  });
}
