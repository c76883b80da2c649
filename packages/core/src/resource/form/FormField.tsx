// Renders a field through its type: a plugin's (resource `fieldTypes`, then `registerFieldType`) or a built-in one.
import type { FieldDescriptor, GroupFieldDescriptor, ItemsFieldDescriptor, ScalarFieldDescriptor } from '../types';
import { GroupField } from './fields/group';
import { ItemsField } from './fields/items';
import { ScalarSlot } from './fields/scalar';
import type { FieldRenderProps } from './registry';
import { type FieldTypeLookup, customType } from './values';

export function FormField({ types, ...props }: FieldRenderProps<FieldDescriptor> & { types: FieldTypeLookup }) {
  const custom = customType(props.field, types);
  if (custom) {
    const Render = custom.render;
    return custom.wide ? (
      <div style={{ gridColumn: '1 / -1' }}>
        <Render {...props} />
      </div>
    ) : (
      <Render {...props} />
    );
  }
  const field = props.field as ScalarFieldDescriptor | GroupFieldDescriptor | ItemsFieldDescriptor;
  if (field.type === 'group') return <GroupField {...props} field={field} />;
  if (field.type === 'items') return <ItemsField {...props} field={field} />;
  return <ScalarSlot {...props} field={field} />;
}
