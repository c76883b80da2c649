import type { FieldDescriptor } from '@app/core';
import { TIPOS_CATALOGO } from '../../shared/index.js';

/** Mapping to CATMAT classe / CATSER grupo (all three or none). */
export const catalogoFields: FieldDescriptor[] = [
  {
    name: 'catalogoTipo',
    type: 'select',
    label: 'Catálogo federal',
    placeholder: 'Sem mapeamento',
    options: TIPOS_CATALOGO.map((t) => ({ value: t.value, label: t.label })),
    hint: 'Material: Classe do CATMAT. Serviço: Grupo do CATSER.',
  },
  { name: 'catalogoCodigo', type: 'text', label: 'Código da classe/grupo', maxLength: 20, hint: 'Ex.: 7510' },
  { name: 'catalogoNome', type: 'text', label: 'Nome da classe/grupo', maxLength: 200, wide: true },
];
