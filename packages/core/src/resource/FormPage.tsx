// New / Edit page of a resource: the form controller (state, validation, saving) and its view.
import { type FormMode, useFormController } from './form/controller';
import { FormView } from './form/FormView';
import type { ResourceConfig } from './types';

export { UNSAVED_MESSAGE } from './form/guard';
export { bodyOf, formValuesOf, fromFormValue, toFormValue } from './form/values';

export default function FormPage({ config, mode }: { config: ResourceConfig; mode: FormMode }) {
  const form = useFormController(config, mode);
  return <FormView form={form} />;
}
