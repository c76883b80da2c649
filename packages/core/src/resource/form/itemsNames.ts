import type { ItemsFieldDescriptor } from '../types';

/** Field names of an items grid, defaults applied. */
export function itemsNames(field: ItemsFieldDescriptor) {
  return {
    product: field.product.field ?? 'produtoId',
    productLabel: field.product.labelField ?? 'produtoDescricao',
    unit: field.unitField === null ? null : (field.unitField ?? 'unidade'),
    quantity: field.quantityField ?? 'quantidade',
    unitValue: field.unitValueField ?? 'valorUnitario',
  };
}
