// 'Zoekopdracht bewaren' on the search page (issue 23): the filters on screen saved under a name
// (the search words at first) with an alert choice; the list of saved searches is a link away.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { BookmarkPlus } from 'lucide-react';
import { categoryApi, savedSearchApi, type SavedSearchAlert } from '@ruilplein/contracts/browser';
import { apiKey, buttonClass, failureMessage, request, useApi } from '@ruilplein/ui';
import type { SearchFilters } from '../search/filters.ts';
import { savedFiltersOf, suggestedName } from './filters.ts';
import { SavedSearchForm } from './SavedSearchForm.tsx';
import * as styles from './Saved.module.css';

const SAVED_SEARCHES_PAGE = '/dashboard/saved-searches';

export function SaveSearch({ filters }: { filters: SearchFilters }) {
  const [open, setOpen] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const queries = useQueryClient();
  // The same cache entry as the category filter beside it.
  const categories = useApi(categoryApi.list, {}, { staleTime: 10 * 60_000 });
  const names = new Map((categories.data ?? []).map((category) => [category.id, category.name]));
  const save = useMutation({
    mutationFn: ({ name, alert }: { name: string; alert: SavedSearchAlert }) => request(savedSearchApi.create, { body: { name, alert, filters: savedFiltersOf(filters) } }),
    onSuccess: (search) => {
      setOpen(false);
      setSaved(search.name);
      return queries.invalidateQueries({ queryKey: apiKey(savedSearchApi.list) });
    },
  });

  return (
    <div className={styles.save}>
      {!open && (
        <button
          type="button"
          className={buttonClass('secondary')}
          onClick={() => {
            save.reset();
            setSaved(null);
            setOpen(true);
          }}
        >
          <BookmarkPlus aria-hidden="true" size={18} />
          Zoekopdracht bewaren
        </button>
      )}
      <div role="status" className={styles.region}>
        {saved && (
          <p className={styles.success} data-testid="saved-search-saved">
            ✅ Zoekopdracht "{saved}" bewaard. <Link to={SAVED_SEARCHES_PAGE}>Bekijk je zoekopdrachten</Link>
          </p>
        )}
      </div>
      {open && (
        <section className={styles.panel} aria-label="Zoekopdracht bewaren">
          <h3 className={styles.panelTitle}>Zoekopdracht bewaren</h3>
          <p className={styles.hint}>Je krijgt een melding als er iets nieuws bij komt dat bij deze zoekopdracht past.</p>
          <SavedSearchForm
            name={suggestedName(filters, names)}
            alert="digest"
            submitLabel="Bewaren"
            busy={save.isPending}
            refusal={save.isError ? failureMessage(save.error) : undefined}
            onSubmit={(value) => save.mutate(value)}
            onCancel={() => setOpen(false)}
          />
        </section>
      )}
    </div>
  );
}
