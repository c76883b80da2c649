// Option sources shared by the registries' forms and list filters.
import type { ResourceOptionsSource } from '@app/core';

const codigoNome = (row: Record<string, unknown>) => `${String(row.codigo ?? '')} – ${String(row.nome ?? '')}`;

export const grupoOptions: ResourceOptionsSource = { endpoint: '/registros/grupos', label: codigoNome, sort: 'codigo' };
export const centroCustoOptions: ResourceOptionsSource = { endpoint: '/registros/centros-custo', label: codigoNome, sort: 'codigo' };
