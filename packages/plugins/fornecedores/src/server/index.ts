// @app/fornecedores/server: 'Fornecedores' (tag 26) under /api/fornecedores.
//   GET/POST /fornecedores, GET/PUT/DELETE /fornecedores/:id, POST /fornecedores/:id/ativar|desativar,
//   GET /fornecedores.csv|.xlsx (defineCrudResource),
//   POST /fornecedores/importar?dryRun=true|false, GET /fornecedores/modelo?formato=xlsx|csv.
import { formatDate } from '@app/br';
import { defineCrudResource, defineSpreadsheetImport, defineServerPlugin } from '@app/server-core';
import { eq, sql } from '@app/server-core/orm';
import { z } from 'zod';
import {
  DUPLICATE_DOCUMENT_MESSAGE,
  FORNECEDORES_TAG,
  FORNECEDORES_TAG_NOME,
  FORNECEDOR_IMPORT_COLUMNS,
  SITUACAO_LABEL,
  type Situacao,
  TIPO_PESSOA_LABEL,
  type TipoPessoa,
  clearImpedimento,
  formatDocumento,
  fornecedorInputSchema,
} from '../shared/index.js';
import { importarFornecedores } from './importar.js';
import { seedFornecedores } from './seed.js';
import { ramosAtividade } from '@app/registros/server';
import { fornecedorRamos, fornecedores } from './tables.js';

export * from './tables.js';

const OUTER_ID = sql.raw('"fornecedores"."id"');

/** '12ABC34501DE35' → '12.ABC.345/01DE-35' in SQL (list, search and export). */
const DOCUMENTO_FORMATADO = sql<string>`CASE WHEN length(${fornecedores.documento}) = 14
  THEN substr(${fornecedores.documento}, 1, 2) || '.' || substr(${fornecedores.documento}, 3, 3) || '.' || substr(${fornecedores.documento}, 6, 3) || '/' || substr(${fornecedores.documento}, 9, 4) || '-' || substr(${fornecedores.documento}, 13, 2)
  ELSE substr(${fornecedores.documento}, 1, 3) || '.' || substr(${fornecedores.documento}, 4, 3) || '.' || substr(${fornecedores.documento}, 7, 3) || '-' || substr(${fornecedores.documento}, 10, 2) END`;

export default defineServerPlugin({
  id: 'fornecedores',
  version: __PKG_VERSION__,
  core: '^1.0.0',
  dependsOn: ['registros'],
  tags: [{ tag: FORNECEDORES_TAG, nome: FORNECEDORES_TAG_NOME }],
  migrations: new URL('../../migrations/', import.meta.url),
  routes(router) {
    // before the CRUD routes: '/fornecedores/modelo' must not be taken for '/fornecedores/:id'
    defineSpreadsheetImport(router, {
      path: '/fornecedores',
      tag: FORNECEDORES_TAG,
      plural: 'fornecedores',
      columns: FORNECEDOR_IMPORT_COLUMNS,
      sheetName: 'Fornecedores',
      instructions: [
        'CPF/CNPJ: com ou sem máscara; o CNPJ alfanumérico (a partir de julho de 2026) é aceito, por exemplo 12.ABC.345/01DE-35.',
        'Ramos de atividade precisam estar cadastrados em Registros: informe o nome ou o CNAE; vários separados por ";" ou "|".',
        'Um contato por linha (nome, e-mail e telefone); outros contatos podem ser incluídos depois, na tela do fornecedor.',
      ],
      run: importarFornecedores,
    });

    defineCrudResource(router, {
      path: '/fornecedores',
      tag: FORNECEDORES_TAG,
      table: fornecedores,
      label: { singular: 'fornecedor', plural: 'fornecedores' },
      schema: fornecedorInputSchema,
      toRow: (data) => {
        const { ramoIds: _ramos, ...row } = clearImpedimento(data);
        return row;
      },
      references: { ramoIds: { table: ramosAtividade, message: 'Escolha ramos de atividade cadastrados em Registros.' } },
      validate: async (tx, data, write) => {
        // a deactivated ramo may stay on a supplier that had it, but is not chosen anew
        const current = write.id
          ? (await tx.select({ ramoId: fornecedorRamos.ramoId }).from(fornecedorRamos).where(eq(fornecedorRamos.fornecedorId, write.id))).map((r) => r.ramoId)
          : [];
        const novos = data.ramoIds.filter((id) => !current.includes(id));
        if (novos.length === 0) return undefined;
        const inativos = await tx
          .select({ nome: ramosAtividade.nome })
          .from(ramosAtividade)
          .where(sql`${ramosAtividade.id} IN ${novos} AND NOT ${ramosAtividade.ativo}`);
        return inativos.length ? { ramoIds: `Ramo de atividade desativado: ${inativos.map((r) => r.nome).join(', ')}.` } : undefined;
      },
      afterSave: async (tx, id, data, write) => {
        await tx.delete(fornecedorRamos).where(eq(fornecedorRamos.fornecedorId, id));
        if (data.ramoIds.length) {
          await tx.insert(fornecedorRamos).values(data.ramoIds.map((ramoId) => ({ fornecedorId: id, ramoId, entidadeId: write.entidadeId })));
        }
      },
      // subqueries name the outer row explicitly (drizzle leaves single-table columns unqualified)
      extra: {
        documentoFormatado: DOCUMENTO_FORMATADO,
        ramoIds: sql<
          string[]
        >`coalesce((SELECT array_agg(fr.ramo_id::text ORDER BY fr.ramo_id) FROM fornecedor_ramos fr WHERE fr.fornecedor_id = ${OUTER_ID}), '{}')`,
        ramos: sql<
          { id: string; nome: string }[]
        >`coalesce((SELECT json_agg(json_build_object('id', r.id, 'nome', r.nome) ORDER BY r.nome) FROM fornecedor_ramos fr JOIN registros_ramos_atividade r ON r.id = fr.ramo_id WHERE fr.fornecedor_id = ${OUTER_ID}), '[]'::json)`,
        impedidoHoje: sql<boolean>`(${fornecedores.situacao} = 'impedido' AND current_date BETWEEN ${fornecedores.impedimentoDe} AND ${fornecedores.impedimentoAte})`,
      },
      busca: fornecedores.busca,
      sortable: ['razaoSocial', 'nomeFantasia', 'documento', 'municipio', 'uf', 'situacao', 'updatedAt'],
      defaultSort: 'razaoSocial',
      filters: {
        situacao: fornecedores.situacao,
        tipoPessoa: fornecedores.tipoPessoa,
        uf: fornecedores.uf,
      },
      unique: [{ fields: ['documento'], message: DUPLICATE_DOCUMENT_MESSAGE }],
      columns: [
        { key: 'documento', header: 'CPF/CNPJ', value: (row) => formatDocumento(String(row.documento)) },
        { key: 'tipoPessoa', header: 'Tipo de pessoa', value: (row) => TIPO_PESSOA_LABEL[row.tipoPessoa as TipoPessoa] ?? '' },
        { key: 'razaoSocial', header: 'Razão social' },
        { key: 'nomeFantasia', header: 'Nome fantasia' },
        { key: 'logradouro', header: 'Logradouro' },
        { key: 'numero', header: 'Número' },
        { key: 'complemento', header: 'Complemento' },
        { key: 'bairro', header: 'Bairro' },
        { key: 'cep', header: 'CEP', value: (row) => String(row.cep ?? '').replace(/^(\d{5})(\d{3})$/, '$1-$2') },
        { key: 'municipio', header: 'Município' },
        { key: 'uf', header: 'UF' },
        { key: 'ramos', header: 'Ramos de atividade', value: (row) => ((row.ramos as { nome: string }[] | null) ?? []).map((r) => r.nome).join('; ') },
        {
          key: 'contatos',
          header: 'Contatos',
          value: (row) =>
            ((row.contatos as { nome: string; email: string | null; telefone: string | null }[] | null) ?? [])
              .map((c) => [c.nome, c.email, c.telefone].filter(Boolean).join(' '))
              .join('; '),
        },
        { key: 'situacao', header: 'Situação', value: (row) => SITUACAO_LABEL[row.situacao as Situacao] ?? '' },
        { key: 'impedimentoMotivo', header: 'Motivo do impedimento' },
        // dd/mm/aaaa, as the page shows them and the import reads them back (not the ISO date of the row)
        { key: 'impedimentoDe', header: 'Impedido de', value: (row) => formatDate(String(row.impedimentoDe ?? '')) },
        { key: 'impedimentoAte', header: 'Impedido até', value: (row) => formatDate(String(row.impedimentoAte ?? '')) },
      ],
      exportName: 'fornecedores',
    });
  },
  seed: seedFornecedores,
});
