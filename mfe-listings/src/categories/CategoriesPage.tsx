import { useEffect, useState } from 'react';
import { categoryApi, type Category } from '@ruilplein/contracts/browser';
import { ApiError, EmptyState, ErrorMessage, Page, request, Spinner } from '@ruilplein/ui';
import { CategoryIcon } from './CategoryIcon.tsx';
import './categories.css';

type State = { status: 'loading' } | { status: 'loaded'; categories: Category[] } | { status: 'failed'; message: string };

export function CategoriesPage() {
  const [state, setState] = useState<State>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const abort = new AbortController();
    setState({ status: 'loading' });
    request(categoryApi.list, { signal: abort.signal }).then(
      (categories) => setState({ status: 'loaded', categories }),
      (err: unknown) => {
        if (abort.signal.aborted) return;
        setState({ status: 'failed', message: err instanceof ApiError ? err.message : 'Er ging iets mis. Probeer het later opnieuw.' });
      },
    );
    return () => abort.abort();
  }, [attempt]);

  return (
    <Page title="Categorieën">
      {state.status === 'loading' && <Spinner label="Categorieën laden…" />}
      {state.status === 'failed' && <ErrorMessage message={state.message} onRetry={() => setAttempt((n) => n + 1)} />}
      {state.status === 'loaded' &&
        (state.categories.length === 0 ? (
          <EmptyState>Er zijn nog geen categorieën.</EmptyState>
        ) : (
          <ul className="categories">
            {state.categories.map((category) => (
              <li key={category.id} data-testid="category">
                <CategoryIcon name={category.icon} />
                <span className="name">{category.name}</span>
                {category.isPremium && <span className="premium">Premium</span>}
              </li>
            ))}
          </ul>
        ))}
    </Page>
  );
}
