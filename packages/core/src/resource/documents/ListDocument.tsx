// The list page of a document (its own chunk).
import type { PagePrefetchContext } from '../../routing/preload';
import ListPage from '../ListPage';
import { prefetchList } from '../listQuery';
import { documentResource } from './build';
import type { DocumentConfig } from './types';

export default function ListDocument({ config }: { config: DocumentConfig }) {
  return <ListPage config={documentResource(config).resource} />;
}

/**
 * Starts the list's data for a navigation: the query ListPage makes with the document's list
 * declaration. A static of the page (define.tsx reaches it through the chunk's default export).
 */
ListDocument.prefetch = ({ queryClient, search }: PagePrefetchContext, config: DocumentConfig): Promise<void> =>
  prefetchList(queryClient, documentResource(config).resource, search);
