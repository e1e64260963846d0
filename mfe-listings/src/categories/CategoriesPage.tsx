import { categoryApi } from '@ruilplein/contracts/browser';
import { EmptyState, Loaded, Page, useApi } from '@ruilplein/ui';
import { CategoryIcon } from './CategoryIcon.tsx';
import * as styles from './CategoriesPage.module.css';

export function CategoriesPage() {
  // Rarely changes: kept for the visit once read.
  const categories = useApi(categoryApi.list, {}, { staleTime: 10 * 60_000 });
  return (
    <Page title="Categorieën">
      <Loaded query={categories} label="Categorieën laden…">
        {(list) =>
          list.length === 0 ? (
            <EmptyState>Er zijn nog geen categorieën.</EmptyState>
          ) : (
            <ul className={styles.list}>
              {list.map((category) => (
                <li key={category.id} className={styles.item} data-testid="category">
                  <CategoryIcon name={category.icon} />
                  <span className={styles.name}>{category.name}</span>
                  {category.isPremium && <span className={styles.premium}>Premium</span>}
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
    </Page>
  );
}
