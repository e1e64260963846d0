// /dashboard/saved-searches, 'Mijn zoekopdrachten' (issue 23): each saved search with what is new
// since the last visit, its alert, and open (the search again, marked visited), edit and delete.
import { useId, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import {
  categoryApi,
  NOTIFICATION_MESSAGES,
  SAVED_SEARCH_ALERTS,
  SAVED_SEARCHES_MAX,
  SAVED_SEARCHES_MAX_PREMIUM,
  savedSearchApi,
  type SavedSearch,
  type SavedSearchAlert,
} from '@ruilplein/contracts/browser';
import { apiKey, buttonClass, EmptyState, failureMessage, Loaded, Page, request, useApi, useConfirm, useSession } from '@ruilplein/ui';
import { Notice, type NoticeValue } from '../my-listings/Notice.tsx';
import { writeSearchFilters } from '../search/filters.ts';
import { describeFilters, newSinceVisit, searchFiltersOf } from './filters.ts';
import { SavedSearchForm } from './SavedSearchForm.tsx';
import * as styles from './Saved.module.css';

type Change = { id: string; name: string; alert: SavedSearchAlert; filters: SavedSearch['filters'] };

function SavedSearchItem({
  search,
  categoryNames,
  onOpen,
  onSave,
  onAlert,
  onDelete,
  busy,
  alert,
}: {
  search: SavedSearch;
  /** The alert shown: the one being saved, else the saved one. */
  alert: SavedSearchAlert;
  categoryNames: ReadonlyMap<string, string>;
  onOpen: () => void;
  /** Saves name and alert; rejects with the refusal. */
  onSave: (change: Change) => Promise<unknown>;
  onAlert: (alert: SavedSearchAlert) => void;
  onDelete: () => void;
  busy: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const [refusal, setRefusal] = useState<string | undefined>();
  const id = useId();
  const headingId = `${id}-name`;
  const alertId = `${id}-alert`;
  return (
    <li>
      <article className={styles.item} aria-labelledby={headingId} data-testid="saved-search" data-search-id={search.id}>
        <div className={styles.itemHead}>
          <h2 id={headingId} className={styles.itemTitle}>
            {search.name}
          </h2>
          <span className={search.newSinceVisit > 0 ? styles.fresh : styles.stale} data-testid="saved-search-new">
            {newSinceVisit(search.newSinceVisit)}
          </span>
        </div>
        <p className={styles.filters}>{describeFilters(search.filters, categoryNames)}</p>
        {editing ? (
          <SavedSearchForm
            name={search.name}
            alert={search.alert}
            submitLabel="Opslaan"
            busy={busy}
            refusal={refusal}
            onSubmit={(value) => {
              setRefusal(undefined);
              onSave({ id: search.id, filters: search.filters, ...value }).then(
                () => setEditing(false),
                (err: unknown) => setRefusal(failureMessage(err)),
              );
            }}
            onCancel={() => setEditing(false)}
          />
        ) : (
          <div className={styles.itemActions}>
            <div className={styles.alertChoice}>
              <label htmlFor={alertId}>E-mail</label>
              <select
                id={alertId}
                value={alert}
                disabled={busy}
                onChange={(event) => onAlert(event.target.value as SavedSearchAlert)}
              >
                {SAVED_SEARCH_ALERTS.map((choice) => (
                  <option key={choice} value={choice}>
                    {NOTIFICATION_MESSAGES.preferenceLabels[choice]}
                  </option>
                ))}
              </select>
            </div>
            <button type="button" className={buttonClass()} onClick={onOpen}>
              Openen<span className={styles.hidden}> {search.name}</span>
            </button>
            <button type="button" className={buttonClass('secondary')} onClick={() => setEditing(true)}>
              Bewerken<span className={styles.hidden}> {search.name}</span>
            </button>
            <button type="button" className={`${buttonClass('secondary')} ${styles.delete}`} onClick={onDelete} disabled={busy}>
              Verwijderen<span className={styles.hidden}> {search.name}</span>
            </button>
          </div>
        )}
      </article>
    </li>
  );
}

export function SavedSearchesPage() {
  const searches = useApi(savedSearchApi.list);
  const categories = useApi(categoryApi.list, {}, { staleTime: 10 * 60_000 });
  const categoryNames = new Map((categories.data ?? []).map((category) => [category.id, category.name]));
  const { isPremium } = useSession();
  const queries = useQueryClient();
  const navigate = useNavigate();
  const [dialog, confirm] = useConfirm();
  const [notice, setNotice] = useState<NoticeValue | null>(null);
  const refresh = () => queries.invalidateQueries({ queryKey: apiKey(savedSearchApi.list) });

  const update = useMutation({
    mutationFn: ({ id, ...body }: Change) => request(savedSearchApi.update, { params: { id }, body }),
    onMutate: () => setNotice(null),
    onSuccess: (search) => {
      setNotice({ ok: true, message: `✅ Zoekopdracht "${search.name}" opgeslagen.` });
      queries.setQueryData(apiKey(savedSearchApi.list), (list: SavedSearch[] | undefined) => list?.map((other) => (other.id === search.id ? search : other)));
      return refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => request(savedSearchApi.delete, { params: { id } }),
    onSuccess: (_, id) => {
      const name = searches.data?.find((search) => search.id === id)?.name;
      setNotice({ ok: true, message: `✅ Zoekopdracht${name ? ` "${name}"` : ''} verwijderd.` });
      return refresh();
    },
    onError: (err) => setNotice({ ok: false, message: `❌ ${failureMessage(err)}` }),
  });
  // Seen now: the count of new ones starts again (the list learns it when it is read again).
  const visit = useMutation({
    mutationFn: (id: string) => request(savedSearchApi.visit, { params: { id } }),
    onSettled: refresh,
    onError: (err) => console.warn('Zoekopdracht als bezocht markeren mislukt', err),
  });

  // The alert choice in the list is saved at once; a refusal shows above the list.
  const saveAlert = (search: SavedSearch, alert: SavedSearchAlert) =>
    update.mutate({ id: search.id, name: search.name, filters: search.filters, alert }, { onError: (err) => setNotice({ ok: false, message: `❌ ${failureMessage(err)}` }) });

  const open = (search: SavedSearch) => {
    visit.mutate(search.id);
    const params = writeSearchFilters(searchFiltersOf(search.filters)).toString();
    void navigate(`/dashboard/search${params ? `?${params}` : ''}`);
  };

  const askDelete = async (search: SavedSearch) => {
    if (!(await confirm(`Weet je zeker dat je de zoekopdracht "${search.name}" wilt verwijderen?`, { confirmLabel: 'Verwijderen', danger: true }))) return;
    setNotice(null);
    remove.mutate(search.id);
  };

  const max = isPremium ? SAVED_SEARCHES_MAX_PREMIUM : SAVED_SEARCHES_MAX;
  return (
    <Page title="Mijn zoekopdrachten">
      <Notice notice={notice} />
      <Loaded query={searches} label="Je zoekopdrachten worden geladen…" failure="Je zoekopdrachten konden niet worden geladen.">
        {(list) =>
          list.length === 0 ? (
            <EmptyState>
              Je hebt nog geen zoekopdrachten bewaard. Zoek op <Link to="/dashboard/search">Aanbod</Link> en kies 'Zoekopdracht bewaren': dan hoor je het
              als er iets nieuws bij komt.
            </EmptyState>
          ) : (
            <>
              <p className={styles.count}>
                {list.length} van {max} zoekopdrachten bewaard.
                {!isPremium && list.length >= max && (
                  <>
                    {' '}
                    <Link to="/dashboard/upgrade">Word Premium</Link> om er {SAVED_SEARCHES_MAX_PREMIUM} te bewaren.
                  </>
                )}
              </p>
              <ul className={styles.items}>
                {list.map((search) => (
                  <SavedSearchItem
                    key={search.id}
                    search={search}
                    categoryNames={categoryNames}
                    busy={(update.isPending && update.variables?.id === search.id) || (remove.isPending && remove.variables === search.id)}
                    onOpen={() => open(search)}
                    onSave={(change) => update.mutateAsync(change)}
                    onAlert={(alert) => saveAlert(search, alert)}
                    alert={update.isPending && update.variables.id === search.id ? update.variables.alert : search.alert}
                    onDelete={() => void askDelete(search)}
                  />
                ))}
              </ul>
            </>
          )
        }
      </Loaded>
      {dialog}
    </Page>
  );
}
