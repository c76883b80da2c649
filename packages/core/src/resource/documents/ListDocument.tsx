// The list page of a document (its own chunk).
import ListPage from '../ListPage';
import { documentResource } from './build';
import type { DocumentConfig } from './types';

export default function ListDocument({ config }: { config: DocumentConfig }) {
  return <ListPage config={documentResource(config).resource} />;
}
