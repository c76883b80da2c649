// The lines the setor de contratações adds to the plan without a DFD, each with its justification: a
// table (delete while the plan is elaborated) and a form (catalogue picker, category, quantity, unit
// value, desired date, justification). The server consolidates the plan again after each change.
// Once a product is chosen, its suggested quantity for the plan's year (./Sugestao.tsx) fills the quantity on request.
import { formatDate } from '@app/br';
import { type RecordSlotContext, api, useDocumentChildren } from '@app/core';
import { formatDecimal, formatMoney } from '@app/documents';
import { Alert, AsyncComboboxField, type AsyncComboboxOption, Button, Card, DataTable, TextField, TextareaField, useConfirm } from '@app/ui';
import { useState } from 'react';
import { CATEGORIA_ITEM_PCA, PCA_PATH } from '../../shared/index.js';
import { CampoCategoria, Formulario, colunaAcoes } from './Formulario';
import { SugestaoDeQuantidade } from './Sugestao';

type Row = Record<string, unknown>;
type Manual = {
  id: string;
  produtoCodigo: string;
  produtoDescricao: string;
  categoriaItemPca: number;
  quantidade: string;
  valorUnitario: string;
  dataDesejada: string;
  justificativa: string;
};
const VAZIO = { categoriaItemPca: '1', quantidade: '', valorUnitario: '', dataDesejada: '', justificativa: '' };

const produtos = async (q: string, signal: AbortSignal): Promise<AsyncComboboxOption[]> => {
  const page = await api
    .get('pca/produtos', { searchParams: { q, pageSize: '20' }, signal })
    .json<{ items: { id: string; codigo: string; descricao: string; unidadeSigla: string; grupoNome: string }[] }>();
  return page.items.map((p) => ({ value: p.id, label: `${p.codigo} – ${p.descricao}`, description: `${p.unidadeSigla} · ${p.grupoNome}` }));
};

export function ItensSemDfd({ record, ctx }: { record: Row; ctx: RecordSlotContext<Row> }) {
  const filhos = useDocumentChildren(`/pca${PCA_PATH}`, String(record.id), 'itens-manuais', { list: false, method: 'put' });
  const [dialogo, confirmar] = useConfirm();
  const [aberto, setAberto] = useState(false);
  const [produto, setProduto] = useState<AsyncComboboxOption | null>(null);
  const [v, setV] = useState(VAZIO);
  const manuais = (record.manuais as Manual[] | undefined) ?? [];
  const editavel = record.editavel === true && !ctx.dirty;
  if (!editavel && manuais.length === 0) return null;
  const erros = filhos.fieldErrors;
  const muda = (campo: keyof typeof VAZIO) => (e: { currentTarget: { value: string } }) => setV({ ...v, [campo]: e.currentTarget.value });
  const incluir = async () => {
    const feito = await filhos.create({ ...v, produtoId: produto?.value ?? '', categoriaItemPca: Number(v.categoriaItemPca) });
    if (!feito.ok) return;
    await ctx.reload();
    setAberto(false);
    setProduto(null);
    setV(VAZIO);
  };
  const excluir = async (m: Manual) => {
    const ok = await confirmar({ title: `Excluir ${m.produtoDescricao} incluído sem DFD?`, confirmLabel: 'Excluir item', tone: 'danger' });
    if (ok && (await filhos.remove(m.id)).ok) await ctx.reload();
  };
  return (
    <Card title={`Itens incluídos sem DFD (${manuais.length})`} headingLevel={2}>
      {dialogo}
      {filhos.mutationError && <Alert variant="error">{filhos.mutationError}</Alert>}
      {manuais.length > 0 ? (
        <DataTable<Manual>
          caption="Itens incluídos pelo setor de contratações, com a justificativa"
          rows={manuais}
          columns={[
            { key: 'produto', header: 'Produto ou serviço', rowHeader: true, render: (m) => `${m.produtoCodigo} – ${m.produtoDescricao}` },
            { key: 'categoria', header: 'Categoria', render: (m) => CATEGORIA_ITEM_PCA[m.categoriaItemPca] },
            { key: 'quantidade', header: 'Quantidade', align: 'end', render: (m) => formatDecimal(m.quantidade) },
            { key: 'valor', header: 'Valor unitário', align: 'end', render: (m) => formatMoney(m.valorUnitario, 4) },
            { key: 'data', header: 'Data desejada', render: (m) => formatDate(m.dataDesejada) },
            { key: 'justificativa', header: 'Justificativa' },
            ...colunaAcoes(editavel, (m: Manual) => (
              <Button size="sm" variant="danger" onClick={() => void excluir(m)} aria-label={`Excluir ${m.produtoDescricao} incluído sem DFD`}>
                Excluir
              </Button>
            )),
          ]}
        />
      ) : (
        <p>Um item que nenhuma área pediu (uma necessidade do órgão todo, um contrato que se renova) entra aqui, com a justificativa.</p>
      )}
      {editavel && !aberto ? (
        <Button variant="secondary" onClick={() => setAberto(true)}>
          Incluir item sem DFD
        </Button>
      ) : null}
      {editavel && aberto ? (
        <Formulario rotulo="Incluir item sem DFD" enviar="Incluir no plano" ocupado={filhos.busy} salvar={incluir} fechar={() => setAberto(false)}>
          <AsyncComboboxField
            id="pca-manual-produto"
            label="Produto ou serviço"
            required
            value={produto?.value ?? null}
            selectedLabel={produto?.label}
            loadOptions={produtos}
            placeholder="Descrição ou código…"
            error={erros.produtoId}
            onChange={(_, option) => setProduto(option ?? null)}
          />
          <CampoCategoria value={v.categoriaItemPca} onChange={muda('categoriaItemPca')} error={erros.categoriaItemPca} />
          {produto ? (
            <SugestaoDeQuantidade planoId={String(record.id)} produtoId={produto.value} onUsar={(quantidade) => setV((atual) => ({ ...atual, quantidade }))} />
          ) : null}
          <TextField label="Quantidade" required inputMode="decimal" value={v.quantidade} onChange={muda('quantidade')} error={erros.quantidade} />
          <TextField
            label="Valor unitário estimado"
            required
            inputMode="decimal"
            value={v.valorUnitario}
            onChange={muda('valorUnitario')}
            error={erros.valorUnitario}
          />
          <TextField label="Data desejada" type="date" required value={v.dataDesejada} onChange={muda('dataDesejada')} error={erros.dataDesejada} />
          <TextareaField
            label="Justificativa"
            required
            rows={2}
            maxLength={2000}
            value={v.justificativa}
            onChange={muda('justificativa')}
            error={erros.justificativa}
            hint="Por que o item entra no plano sem uma demanda (DFD): impressa no plano."
          />
        </Formulario>
      ) : null}
    </Card>
  );
}
