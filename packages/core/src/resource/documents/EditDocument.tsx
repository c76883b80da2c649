// The New and Edit pages of a document (their own chunk, with the form's).
import FormPage from '../FormPage';
import { documentResource } from './build';
import type { DocumentConfig } from './types';

export default function EditDocument({ config, mode }: { config: DocumentConfig; mode: 'new' | 'edit' }) {
  return <FormPage config={documentResource(config).resource} mode={mode} />;
}
