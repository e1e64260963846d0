import { categoryQueries, categoryRoutes } from '@ruilplein/contracts';
import { serveQuery, type Api, type Bus, type Logger, type Worker } from '@ruilplein/service-kit';
import { toCategory, type CategoryModel } from './model.ts';

const listCategories = async (categories: CategoryModel, ids?: string[]) => {
  const docs = await categories.find(ids ? { _id: { $in: ids } } : {}).sort({ position: 1 }).lean();
  return docs.map(toCategory);
};

export function categoryHttp(api: Api, categories: CategoryModel) {
  api.handle(categoryRoutes.list, () => listCategories(categories));
}

export function categoryQueriesWorker(bus: Bus, categories: CategoryModel, logger: Logger): Worker {
  return serveQuery(bus, 'listing', categoryQueries.list, (req) => listCategories(categories, req.ids), logger);
}
