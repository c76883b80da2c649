// One value field of any built-in scalar type (a row of a group or of an items grid holds these).
import type { ScalarFieldDescriptor } from '../../types';
import type { FieldRenderProps } from '../registry';
import { ScalarField } from './basic';
import { ReferenceField } from './reference';

export function ScalarSlot(props: FieldRenderProps<ScalarFieldDescriptor>) {
  const { field } = props;
  if (field.type === 'reference') return <ReferenceField {...props} field={field} />;
  return <ScalarField {...props} />;
}
