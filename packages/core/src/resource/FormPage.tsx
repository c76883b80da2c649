// New / Edit page of a resource: the form controller (state, validation, saving) and its view.
import { type FormMode, useFormController } from './form/controller';
import { FormView } from './form/FormView';
import type { ResourceConfig } from './types';

export { INVALID_MESSAGE, OFFLINE_MESSAGE, isOfflineError, nounOf, readOnlyReason, savedMessage, useFormController } from './form/controller';
export { UNSAVED_MESSAGE, useUnsavedChangesGuard } from './form/guard';
export { bodyOf, fieldPaths, formValuesOf, fromFormValue, isVisible, issuesToFieldErrors, toFormValue, validate } from './form/values';

export default function FormPage({ config, mode }: { config: ResourceConfig; mode: FormMode }) {
  const form = useFormController(config, mode);
  return <FormView form={form} />;
}
