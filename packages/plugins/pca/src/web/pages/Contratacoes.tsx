// The contratações planejadas of the plan (PGC's "Criar Contratação") and the calendar drawn from them:
// a table of the contratações (editable while the plan is elaborated: items of one category, each in at
// most one), and the months from the first start to the last conclusion with what runs and concludes.
import { formatDate } from '@app/br';
import { type RecordSlotContext, useDocumentChildren } from '@app/core';
import { formatMoney } from '@app/documents';
import { PRIORIDADES, PRIORIDADE_LABEL } from '@app/memorandos/shared';
import { Alert, Button, Card, CheckboxField, DataTable, type DataTableColumn, SelectField, TextField, useConfirm } from '@app/ui';
import { useState } from 'react';
import { CampoCategoria, Formulario, colunaAcoes } from './Formulario';
import { CATEGORIA_ITEM_PCA, type ContratacaoPlanejada, PCA_PATH, calendarioPorMes, mesPorExtenso } from '../../shared/index.js';

type Row = Record<string, unknown>;
type Item = Row & { id: string; numeroItem: number; descricao: string };
type Filhos = ReturnType<typeof useDocumentChildren>;

type Rascunho = { titulo: string; categoriaItemPca: string; prioridade: string; inicio: string; fim: string; numerosItem: number[] };

function FormularioDaContratacao({
  filhos,
  itens,
  contratacao,
  fechar,
}: {
  filhos: Filhos;
  itens: Item[];
  contratacao: ContratacaoPlanejada | null;
  fechar: (salvou: boolean) => Promise<void>;
}) {
  const [r, setR] = useState<Rascunho>(() =>
    contratacao
      ? { ...contratacao, categoriaItemPca: String(contratacao.categoriaItemPca) }
      : { titulo: '', categoriaItemPca: '1', prioridade: 'media', inicio: '', fim: '', numerosItem: [] },
  );
  const erros = filhos.fieldErrors;
  const muda = (campo: keyof Rascunho) => (e: { currentTarget: { value: string } }) => setR({ ...r, [campo]: e.currentTarget.value });
  const daCategoria = itens.filter((i) => String(i.categoriaItemPca) === r.categoriaItemPca);
  const salvar = async () => {
    const json = { ...r, categoriaItemPca: Number(r.categoriaItemPca), numerosItem: r.numerosItem.filter((n) => daCategoria.some((i) => i.numeroItem === n)) };
    const feito = contratacao ? await filhos.update(contratacao.id, { ...json, version: contratacao.version }) : await filhos.create(json);
    if (feito.ok) await fechar(true);
  };
  return (
    <Formulario
      rotulo={contratacao ? `Contratação ${contratacao.numero}` : 'Nova contratação'}
      enviar="Salvar contratação"
      ocupado={filhos.busy}
      salvar={salvar}
      fechar={() => void fechar(false)}
    >
      {filhos.mutationError && <Alert variant="error">{filhos.mutationError}</Alert>}
      <TextField label="Título" required maxLength={200} value={r.titulo} onChange={muda('titulo')} error={erros.titulo} />
      <CampoCategoria value={r.categoriaItemPca} onChange={muda('categoriaItemPca')} error={erros.categoriaItemPca} />
      <SelectField
        label="Prioridade"
        required
        value={r.prioridade}
        onChange={muda('prioridade')}
        error={erros.prioridade}
        options={PRIORIDADES.map((p) => ({ value: p, label: PRIORIDADE_LABEL[p] }))}
      />
      <TextField label="Início do processo" type="date" required value={r.inicio} onChange={muda('inicio')} error={erros.inicio} />
      <TextField label="Conclusão do processo" type="date" required value={r.fim} onChange={muda('fim')} error={erros.fim} />
      <fieldset>
        <legend>Itens do plano ({CATEGORIA_ITEM_PCA[Number(r.categoriaItemPca)]})</legend>
        {erros.numerosItem && <p className="field__error">{erros.numerosItem}</p>}
        {daCategoria.length === 0 && <p>O plano não tem itens desta categoria.</p>}
        {daCategoria.map((i) => {
          const outra = i.contratacaoId && i.contratacaoId !== contratacao?.id;
          return (
            <CheckboxField
              key={i.id}
              label={`Item ${i.numeroItem} – ${i.descricao} – ${formatMoney(String(i.valorTotal), 4)}`}
              hint={outra ? 'Já está em outra contratação.' : undefined}
              disabled={Boolean(outra)}
              checked={r.numerosItem.includes(i.numeroItem)}
              onChange={(e) => {
                const marcado = e.currentTarget.checked;
                setR((atual) => ({
                  ...atual,
                  numerosItem: marcado ? [...atual.numerosItem, i.numeroItem] : atual.numerosItem.filter((n) => n !== i.numeroItem),
                }));
              }}
            />
          );
        })}
      </fieldset>
    </Formulario>
  );
}

export function Contratacoes({ record, ctx, itens }: { record: Row; ctx: RecordSlotContext<Row>; itens: Item[] }) {
  const [dialogo, confirmar] = useConfirm();
  const [aberta, setAberta] = useState<ContratacaoPlanejada | 'nova' | null>(null);
  const planoId = String(record.id);
  const filhos = useDocumentChildren(`/pca${PCA_PATH}`, planoId, 'contratacoes', { list: false, method: 'put' });
  const contratacoes = (record.contratacoes as ContratacaoPlanejada[] | undefined) ?? [];
  const editavel = record.editavel === true && !ctx.dirty;
  const excluir = async (c: ContratacaoPlanejada) => {
    const ok = await confirmar({
      title: `Excluir a contratação ${c.numero}?`,
      description: 'Os itens dela voltam a não ter contratação.',
      confirmLabel: 'Excluir contratação',
      tone: 'danger',
    });
    if (ok && (await filhos.remove(c.id)).ok) await ctx.reload();
  };
  const colunas: DataTableColumn<ContratacaoPlanejada>[] = [
    { key: 'numero', header: 'Nº', rowHeader: true, render: (c) => c.numero },
    { key: 'titulo', header: 'Título' },
    { key: 'categoria', header: 'Categoria', render: (c) => CATEGORIA_ITEM_PCA[c.categoriaItemPca] },
    { key: 'prioridade', header: 'Prioridade', render: (c) => PRIORIDADE_LABEL[c.prioridade] },
    { key: 'inicio', header: 'Início', render: (c) => formatDate(c.inicio) },
    {
      key: 'fim',
      header: 'Conclusão',
      render: (c) => (
        <>
          {formatDate(c.fim)}
          {c.atrasada ? <div className="field__error">Depois da data desejada de um item ({formatDate(c.atrasada)})</div> : null}
        </>
      ),
    },
    { key: 'itens', header: 'Itens', render: (c) => c.numerosItem.join(', ') || 'nenhum' },
    { key: 'valor', header: 'Valor', align: 'end', render: (c) => formatMoney(c.valorTotal, 4) },
    ...colunaAcoes(editavel, (c: ContratacaoPlanejada) => (
      <div className="button-row">
        <Button size="sm" variant="secondary" onClick={() => setAberta(c)} aria-label={`Alterar a contratação ${c.numero}`}>
          Alterar
        </Button>
        <Button size="sm" variant="danger" onClick={() => void excluir(c)} aria-label={`Excluir a contratação ${c.numero}`}>
          Excluir
        </Button>
      </div>
    )),
  ];
  const meses = calendarioPorMes(contratacoes);
  const titulo = (n: number) => `${n} – ${contratacoes.find((c) => c.numero === n)?.titulo ?? ''}`;
  return (
    <Card title={`Contratações planejadas (${contratacoes.length})`} headingLevel={2}>
      {dialogo}
      {aberta === null && filhos.mutationError && <Alert variant="error">{filhos.mutationError}</Alert>}
      {contratacoes.length === 0 ? (
        <p>Nenhuma contratação planejada: agrupe os itens do plano em contratações, com o início e a conclusão de cada processo, para formar o calendário.</p>
      ) : (
        <DataTable<ContratacaoPlanejada> caption="Contratações planejadas" rows={contratacoes} columns={colunas} />
      )}
      {editavel && aberta === null && itens.length > 0 ? (
        <Button variant="secondary" onClick={() => setAberta('nova')}>
          Nova contratação
        </Button>
      ) : null}
      {editavel && aberta !== null ? (
        <FormularioDaContratacao
          filhos={filhos}
          itens={itens}
          contratacao={aberta === 'nova' ? null : aberta}
          fechar={async (salvou) => {
            if (salvou) await ctx.reload();
            setAberta(null);
          }}
        />
      ) : null}
      {meses.length > 0 ? (
        <DataTable
          caption="Calendário por mês"
          rows={meses}
          rowKey={(m) => m.mes}
          columns={[
            { key: 'mes', header: 'Mês', rowHeader: true, render: (m) => mesPorExtenso(m.mes) },
            { key: 'andamento', header: 'Processos em andamento', render: (m) => m.emAndamento.map(titulo).join('; ') || '—' },
            { key: 'concluidas', header: 'Concluídas no mês', render: (m) => m.concluidas.join(', ') || '—' },
            { key: 'valor', header: 'Valor concluído', align: 'end', render: (m) => (m.concluidas.length ? formatMoney(m.valorConcluido, 4) : '—') },
          ]}
        />
      ) : null}
    </Card>
  );
}
