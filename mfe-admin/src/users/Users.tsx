import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { adminUserApi, moderationApi, MODERATION_MESSAGES, type AdminUser } from '@ruilplein/contracts/browser';
import { apiKey, buttonClass, EmptyState, ErrorMessage, failureMessage, Page, request, Spinner, useApi, useConfirm } from '@ruilplein/ui';
import * as styles from '../common/admin.module.css';
import { longDate } from '../common/format.ts';
import { failed, Notice, type NoticeState } from '../common/Notice.tsx';
import { BanPanel } from './BanPanel.tsx';

const PAGE_SIZE = 50;
const FILTERS = [
  { label: 'Alle', value: undefined },
  { label: 'Actieve', value: 'true' },
  { label: 'Inactieve', value: 'false' },
] as const;

/** '1 gebruiker', '2 gebruikers'. */
const members = (count: number) => `${count} ${count === 1 ? 'gebruiker' : 'gebruikers'}`;

/** A suspension in force as the row says it: who suspended, and until when. */
const suspensionText = ({ reason, endsAt }: { reason: 'ban' | 'warnings'; endsAt: string | null }) =>
  `${reason === 'ban' ? 'Geband' : 'Geblokkeerd na waarschuwingen'}, ${endsAt ? `tot ${longDate(endsAt)}` : 'permanent'}`;

const roleOf = (user: AdminUser) => [...user.role.filter((r) => r !== 'Gebruiker' || user.role.length === 1), ...(user.isPremium && !user.role.includes('Premium') ? ['Premium'] : [])].join(', ');

/**
 * /admin/users, 'Gebruikersbeheer' (spec 2 §2): search, filter, activate, delete (confirmed), ban
 * (confirmed); 50 per page. Issue 27: a suspended member's row says so and until when (from the
 * moderation service, for the page's members), and offers 'Blokkering opheffen' instead of 'Ban'.
 */
export function Users() {
  const queries = useQueryClient();
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [activated, setActivated] = useState<'true' | 'false' | undefined>(undefined);
  const [page, setPage] = useState(1);
  const [banning, setBanning] = useState<AdminUser | null>(null);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [dialog, confirm] = useConfirm();
  const list = useApi(adminUserApi.list, { query: { page, pageSize: PAGE_SIZE, ...(q && { q }), ...(activated && { activated }) } });
  const ids = list.data?.users.map((u) => u.id) ?? [];
  const suspensions = useApi(moderationApi.listSuspensions, { query: { ids: ids.join(',') } }, { enabled: ids.length > 0 });
  const suspensionOf = new Map(suspensions.data?.map((s) => [s.userID, s]));
  // By method and path only: `apiKey(ref)` alone ends in `null, null`, which matches no page's key.
  const reload = () => queries.invalidateQueries({ queryKey: apiKey(adminUserApi.list).slice(0, 2) });
  const reloadSuspensions = () => queries.invalidateQueries({ queryKey: apiKey(moderationApi.listSuspensions).slice(0, 2) });

  const activate = useMutation({
    mutationFn: (id: string) => request(adminUserApi.activate, { params: { id } }),
    onSuccess: (answer) => {
      setNotice({ ok: true, text: answer.message });
      void reload();
    },
    onError: (err) => setNotice({ ok: false, text: failed('Activeren mislukt', err) }),
  });
  const remove = useMutation({
    mutationFn: (id: string) => request(adminUserApi.delete, { params: { id } }),
    onSuccess: (answer) => {
      setNotice({ ok: true, text: answer.message });
      void reload();
    },
    onError: (err) => setNotice({ ok: false, text: failed('Verwijderen mislukt', err) }),
  });

  const lift = useMutation({
    mutationFn: (id: string) => request(moderationApi.liftSuspension, { params: { userId: id } }),
    onSuccess: (answer) => {
      setNotice({ ok: true, text: answer.message });
      void reloadSuspensions();
    },
    onError: (err) => setNotice({ ok: false, text: failed('Opheffen mislukt', err) }),
  });

  const askLift = async (user: AdminUser) => {
    const name = `${user.firstName} ${user.lastName}`;
    const question = `Blokkering van ${name} opheffen? ${name} kan dan meteen weer inloggen en ruilen. Listings die door de blokkering offline gingen blijven offline (${name} zet ze zelf weer aan) en geannuleerde ruilaanbiedingen blijven geannuleerd.`;
    if (await confirm(question, { confirmLabel: 'Opheffen' })) lift.mutate(user.id);
  };

  const askDelete = async (user: AdminUser) => {
    if (await confirm(`Weet je zeker dat je ${user.firstName} ${user.lastName} (${user.email}) wilt verwijderen? Dit kan niet ongedaan worden.`, { confirmLabel: 'Verwijderen', danger: true })) {
      remove.mutate(user.id);
    }
  };

  return (
    <div className={styles.page}>
      <Page title="Gebruikersbeheer">
        {dialog}
        <Notice notice={notice} />
        <form
          className={styles.toolbar}
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            setPage(1);
            setQ(search.trim());
          }}
        >
          <label className={styles.field}>
            Zoeken op naam, e-mail of woonplaats
            <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} maxLength={100} />
          </label>
          <button type="submit" className={buttonClass('secondary')}>
            Zoeken
          </button>
          <div className={styles.filters} role="group" aria-label="Filter">
            {FILTERS.map((f) => (
              <button
                key={f.label}
                type="button"
                className={styles.filter}
                aria-pressed={activated === f.value}
                onClick={() => {
                  setPage(1);
                  setActivated(f.value);
                }}
              >
                {f.label}
              </button>
            ))}
          </div>
        </form>
        {banning && (
          <BanPanel
            user={banning}
            onCancel={() => setBanning(null)}
            onDone={({ ok, error }) => {
              setNotice(ok ? { ok: true, text: MODERATION_MESSAGES.banned } : { ok: false, text: failed('Ban mislukt', error) });
              if (ok) {
                setBanning(null);
                void reloadSuspensions();
              }
            }}
          />
        )}
        {list.isPending ? (
          <Spinner label="Gebruikers laden…" />
        ) : list.isError ? (
          <ErrorMessage message={failureMessage(list.error)} onRetry={() => void list.refetch()} />
        ) : list.data.users.length === 0 ? (
          <EmptyState>Geen gebruikers gevonden.</EmptyState>
        ) : (
          <>
            <div className={styles.tableWrap}>
              <table className={styles.table}>
                <thead>
                  <tr>
                    <th scope="col">ID</th>
                    <th scope="col">Naam</th>
                    <th scope="col">E-mail</th>
                    <th scope="col">Woonplaats</th>
                    <th scope="col">Rol</th>
                    <th scope="col">Actief</th>
                    <th scope="col">Acties</th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.users.map((user) => {
                    const suspension = suspensionOf.get(user.id);
                    return (
                      <tr key={user.id} className={banning?.id === user.id ? styles.selected : undefined}>
                        <td className={styles.id}>{user.id}</td>
                        <td>
                          <Link to={`/dashboard/user/${user.id}`}>
                            {user.firstName} {user.lastName}
                          </Link>
                        </td>
                        <td className={styles.email}>{user.email}</td>
                        <td>{user.city ?? '—'}</td>
                        <td>{roleOf(user)}</td>
                        <td>
                          {user.activated ? 'Ja' : 'Nee'}
                          {suspension && (
                            <span className={styles.suspension} data-testid="suspension">
                              {suspensionText(suspension)}
                            </span>
                          )}
                        </td>
                        <td>
                          <div className={styles.actions}>
                            {!user.activated && (
                              <button type="button" className={buttonClass('secondary')} disabled={activate.isPending} onClick={() => activate.mutate(user.id)}>
                                Activeer
                              </button>
                            )}
                            <button type="button" className={buttonClass('secondary')} onClick={() => void askDelete(user)} aria-label={`Verwijder ${user.firstName} ${user.lastName}`}>
                              Verwijder
                            </button>
                            {suspension ? (
                              <button
                                type="button"
                                className={buttonClass('secondary')}
                                disabled={lift.isPending}
                                onClick={() => void askLift(user)}
                                aria-label={`Blokkering opheffen van ${user.firstName} ${user.lastName}`}
                              >
                                Blokkering opheffen
                              </button>
                            ) : (
                              <button type="button" className={buttonClass('secondary')} onClick={() => setBanning(user)} aria-label={`Ban ${user.firstName} ${user.lastName}`}>
                                Ban
                              </button>
                            )}
                          </div>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            <div className={styles.pager}>
              <button type="button" className={buttonClass('secondary')} disabled={page === 1} onClick={() => setPage(page - 1)}>
                Vorige
              </button>
              <span>
                Pagina {page} van {Math.max(1, Math.ceil(list.data.total / PAGE_SIZE))} ({members(list.data.total)})
              </span>
              <button type="button" className={buttonClass('secondary')} disabled={page * PAGE_SIZE >= list.data.total} onClick={() => setPage(page + 1)}>
                Volgende
              </button>
            </div>
          </>
        )}
      </Page>
    </div>
  );
}
