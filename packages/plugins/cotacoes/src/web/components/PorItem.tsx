// 'Por item' of the collection page: one item at a time (picker, previous/next), every price of it
// (source, supplier or description, date, value, evidence, and its situation in the calculation:
// used, dropped by the method, or out with the reason), a person's decisions on a price (include an
// old or expired one, exclude one, restore) and a price of another source of art. 5 with its
// evidence (the file is uploaded first, then the price names it); the external sources (BuscaExterna.tsx: "Buscar no PNCP").
import { dateTimeInputValue, formatDateTime, instantFromDateTimeInput } from '@app/br';
import { api, apiErrorBody, apiErrorMessage, issuesToFieldErrors, toast } from '@app/core';
import { formatDecimal, formatMoney, parseDecimalInput } from '@app/documents';
import { Alert, Button, ButtonRow, Card, DataTable, type DataTableColumn, DetailsList, SelectField, TextField } from '@app/ui';
import { type FormEvent, useMemo, useState } from 'react';
import {
  EVIDENCIA_MAX_BYTES,
  EVIDENCIA_TIPOS,
  FONTES,
  FONTE_CURTA,
  FONTE_LABEL,
  type Fonte,
  IDADE_MAXIMA_MESES,
  MOTIVO_MIN,
  type MapaCotacao,
  type PrecoListado,
  type SituacaoPreco,
  precoInputSchema,
} from '../../shared/index.js';
import { BuscaExterna, useFontesExternas } from './BuscaExterna';
import { baixarArquivo, cotacaoPath, executarFilho, useDialogos, useFilhos } from './comum';
import { calcularMapa } from './GradeMapa';
import type { AbaProps } from './PorFornecedor';

const FONTES_OUTRAS = FONTES.filter((f) => f !== 'fornecedor');
const DESCRICAO_DICA: Record<Fonte, string> = {
  painel: 'Sistema e identificação do preço (ex.: Painel de Preços, compra 90012/2025 da UASG 987654).',
  contrato: 'Órgão e número do contrato ou da ata de registro de preços.',
  midia: 'Nome do sítio ou da publicação especializada.',
  fornecedor: '',
  nota_fiscal: 'Emitente e número da nota fiscal eletrônica.',
};
const EXTENSOES = '.pdf,.png,.jpg,.jpeg,.webp,.html,.htm';
const idade = (f: Fonte) => {
  const meses = IDADE_MAXIMA_MESES[f];
  return meses === null ? 'sem limite de idade' : meses % 12 === 0 ? `até ${meses / 12} ano${meses === 12 ? '' : 's'}` : `até ${meses} meses`;
};

/** The situation of a price in pt-BR (and whether it counts). */
function situacaoTexto(p: PrecoListado, s: SituacaoPreco | undefined): string {
  if (!s) return '—';
  if (s.usado) return s.incluidoPorDecisao ? `Usado no cálculo (incluído por decisão: ${p.inclusaoMotivo ?? ''})` : 'Usado no cálculo';
  if (s.valido) return `Válido, descartado pelo método${s.motivo ? `: ${s.motivo}` : ''}`;
  if (s.exclusao === 'manual') return `Excluído: ${p.exclusaoMotivo ?? s.motivo ?? ''}`;
  return `Fora do cálculo${s.motivo ? `: ${s.motivo}` : ''}`;
}

interface Formulario {
  fonte: string;
  fonteDescricao: string;
  valor: string;
  marca: string;
  dataColeta: string;
  link: string;
}

const vazio = (): Formulario => ({ fonte: '', fonteDescricao: '', valor: '', marca: '', dataColeta: dateTimeInputValue(new Date()), link: '' });

function tipoAceito(file: File): boolean {
  if ((EVIDENCIA_TIPOS as readonly string[]).includes(file.type)) return true;
  return !file.type && /\.(pdf|png|jpe?g|webp|html?)$/i.test(file.name);
}

/** 'Adicionar preço de outra fonte' for one item. */
function NovoPreco({ mapa, produtoId }: { mapa: MapaCotacao; produtoId: string }) {
  const precos = useFilhos(mapa.cotacao.id, 'precos');
  const [v, setV] = useState<Formulario>(vazio);
  const [arquivo, setArquivo] = useState<File | null>(null);
  // an evidence already uploaded for this file (a failed price is sent again without a second upload)
  const [enviada, setEnviada] = useState<{ file: File; id: string } | null>(null);
  const [erros, setErros] = useState<Record<string, string>>({});
  const [salvando, setSalvando] = useState(false);
  const [versao, setVersao] = useState(0);
  const base = cotacaoPath(mapa.cotacao.id);
  const set = (campo: keyof Formulario) => (e: { target: { value: string } }) => {
    setV((x) => ({ ...x, [campo]: e.target.value }));
    setErros((x) => ({ ...x, [campo === 'valor' ? 'valorUnitario' : campo]: '' }));
  };

  const enviar = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = precoInputSchema.safeParse({
      ...v,
      produtoId,
      valorUnitario: parseDecimalInput(v.valor) ?? v.valor,
      dataColeta: instantFromDateTimeInput(v.dataColeta) ?? '',
      link: v.link.trim() || null,
      evidenciaId: null,
    });
    const next = parsed.success ? {} : issuesToFieldErrors(parsed.error.issues);
    if (arquivo && arquivo.size > EVIDENCIA_MAX_BYTES) next.arquivo = 'O arquivo passa de 5 MB.';
    else if (arquivo && !tipoAceito(arquivo)) next.arquivo = 'Envie um arquivo PDF, PNG, JPEG, WebP ou HTML.';
    setErros(next);
    if (!parsed.success || Object.keys(next).length) return;
    setSalvando(true);
    try {
      let evidenciaId: string | null = null;
      if (arquivo) {
        if (enviada?.file === arquivo) evidenciaId = enviada.id;
        else {
          const body = new FormData();
          body.set('arquivo', arquivo, arquivo.name);
          const ev = await api.post(`${base}/evidencias`, { body }).json<{ id: string }>();
          setEnviada({ file: arquivo, id: ev.id });
          evidenciaId = ev.id;
        }
      }
      // the price through core's useDocumentChildren (the cotação and its mapa refreshed)
      const result = await precos.create({ ...parsed.data, evidenciaId }, 'Não foi possível registrar o preço.');
      if (!result.ok) {
        if (Object.keys(result.fields).length) setErros(result.fields);
        toast.error(result.message);
        return;
      }
      toast.success(`Preço de ${FONTE_CURTA[parsed.data.fonte].toLowerCase()} registrado.`);
      setV(vazio());
      setArquivo(null);
      setEnviada(null);
      setVersao((n) => n + 1); // empties the file input
    } catch (error) {
      // the evidence upload
      const fields = apiErrorBody(error)?.fields ?? {};
      if (Object.keys(fields).length) setErros(fields);
      toast.error(apiErrorMessage(error, 'Não foi possível registrar o preço.'));
    } finally {
      setSalvando(false);
    }
  };

  const fonte = (FONTES_OUTRAS as readonly string[]).includes(v.fonte) ? (v.fonte as Fonte) : null;
  return (
    <form onSubmit={(e) => void enviar(e)} noValidate aria-label="Adicionar preço de outra fonte">
      <div className="form-grid">
        <SelectField
          label="Fonte"
          required
          placeholder="Escolha…"
          value={v.fonte}
          onChange={set('fonte')}
          options={FONTES_OUTRAS.map((f) => ({ value: f, label: FONTE_LABEL[f] }))}
          hint={fonte ? `Prazo desta fonte: ${idade(fonte)} antes da data de referência.` : undefined}
          error={erros.fonte}
        />
        <TextField
          label="Descrição da fonte"
          required
          maxLength={500}
          value={v.fonteDescricao}
          onChange={set('fonteDescricao')}
          hint={fonte ? DESCRICAO_DICA[fonte] : undefined}
          error={erros.fonteDescricao}
        />
        <TextField
          label="Valor unitário (R$)"
          required
          inputMode="decimal"
          autoComplete="off"
          value={v.valor}
          onChange={set('valor')}
          hint="Até 4 casas decimais: 1.234,5678."
          error={erros.valorUnitario}
        />
        <TextField label="Marca" maxLength={200} value={v.marca} onChange={set('marca')} error={erros.marca} />
        <TextField
          label="Data e hora da coleta"
          type="datetime-local"
          required
          value={v.dataColeta}
          onChange={set('dataColeta')}
          hint="Horário de Brasília; de contratos e notas fiscais, a data do documento."
          error={erros.dataColeta}
        />
        <TextField
          label="Endereço (link)"
          type="url"
          inputMode="url"
          maxLength={2000}
          value={v.link}
          onChange={set('link')}
          required={v.fonte === 'midia'}
          hint="Página consultada, quando houver."
          error={erros.link}
        />
        <TextField
          key={versao}
          label="Evidência (arquivo)"
          type="file"
          accept={`${EXTENSOES},${EVIDENCIA_TIPOS.join(',')}`}
          hint="PDF, imagem ou página HTML salva, até 5 MB: guarda o preço mesmo que o endereço deixe de existir."
          error={erros.arquivo ?? erros.evidenciaId}
          onChange={(e) => {
            setArquivo(e.target.files?.[0] ?? null);
            setErros((x) => ({ ...x, arquivo: '', evidenciaId: '' }));
          }}
        />
      </div>
      <div className="form-actions">
        <Button type="submit" loading={salvando}>
          Adicionar preço
        </Button>
      </div>
    </form>
  );
}

export function PorItem({ mapa, podeEditar, inicial }: AbaProps & { inicial?: string | null }) {
  const filhos = useFilhos(mapa.cotacao.id, 'precos');
  const fontes = useFontesExternas();
  // the mapa's one pass: items in order with their result, the situation of every price
  const { linhas, situacao } = useMemo(() => calcularMapa(mapa), [mapa]);
  const [escolhido, setEscolhido] = useState<string | null>(inicial ?? null);
  const { pedir, confirmar, dialogos } = useDialogos();
  const indice = Math.max(
    0,
    linhas.findIndex((l) => l.item.produtoId === escolhido),
  );
  const item = linhas[indice]?.item;
  const precos = useMemo(() => (item ? mapa.precos.filter((p) => p.produtoId === item.produtoId) : []), [mapa.precos, item]);
  if (!item) return <p className="field__hint">Esta cotação não tem itens.</p>;
  const resultado = linhas[indice]!.resultado;
  const base = cotacaoPath(mapa.cotacao.id);
  const nomeDoPreco = (p: PrecoListado) => `${FONTE_CURTA[p.fonte]} ${p.fornecedorNome ?? p.fonteDescricao}`;

  const decidir = (p: PrecoListado, acao: 'incluir' | 'excluir') =>
    pedir({
      title: acao === 'incluir' ? 'Incluir este preço no cálculo mesmo assim?' : 'Excluir este preço do cálculo?',
      description: `${nomeDoPreco(p)}: ${formatMoney(p.valorUnitario, 4)}. O preço continua visível no mapa e na memória de cálculo, com o motivo.`,
      label: acao === 'incluir' ? 'Motivo da inclusão' : 'Motivo da exclusão',
      confirmLabel: acao === 'incluir' ? 'Incluir' : 'Excluir',
      tone: acao === 'excluir' ? 'danger' : 'default',
      min: MOTIVO_MIN,
      submit: (motivo) =>
        executarFilho(() => filhos.action(p.id, acao, { motivo }, { fallback: 'Não foi possível registrar a decisão.' }), {
          sucesso: acao === 'incluir' ? 'Preço incluído no cálculo.' : 'Preço excluído do cálculo.',
          campo: 'motivo',
        }),
    });
  const restaurar = (p: PrecoListado) =>
    void executarFilho(() => filhos.action(p.id, 'restaurar', {}, { fallback: 'Não foi possível restaurar o preço.' }), {
      sucesso: 'Decisão desfeita: o preço segue a regra automática.',
    });
  const remover = async (p: PrecoListado) => {
    const ok = await confirmar({
      title: 'Remover este preço?',
      description: `${nomeDoPreco(p)}: ${formatMoney(p.valorUnitario, 4)}. Use para um preço registrado por engano; para tirá-lo do cálculo mantendo o registro, use “Excluir”.`,
      confirmLabel: 'Remover',
      cancelLabel: 'Manter',
      tone: 'danger',
    });
    if (!ok) return;
    await executarFilho(() => filhos.remove(p.id, 'Não foi possível remover o preço.'), { sucesso: 'Preço removido.' });
  };

  const colunas: DataTableColumn<PrecoListado>[] = [
    { key: 'fonte', header: 'Fonte', render: (p) => FONTE_CURTA[p.fonte] },
    {
      key: 'origem',
      header: 'Fornecedor ou fonte',
      rowHeader: true,
      clamp: false,
      render: (p) => (
        <>
          {p.fornecedorNome ?? p.fonteDescricao}
          {p.marca ? <span className="text-sub">Marca: {p.marca}</span> : null}
          <span className="text-sub">Coletado por {p.coletadoPorNome}</span>
        </>
      ),
    },
    { key: 'data', header: 'Data', render: (p) => formatDateTime(p.dataColeta) },
    { key: 'valor', header: 'Valor unitário', align: 'end', render: (p) => formatMoney(p.valorUnitario, 4) },
    {
      key: 'evidencia',
      header: 'Evidência',
      clamp: false,
      render: (p) =>
        p.link || p.evidencia ? (
          <div className="button-row">
            {p.link ? (
              <a href={p.link} target="_blank" rel="noopener noreferrer">
                Abrir endereço<span className="visually-hidden"> de {nomeDoPreco(p)} (nova aba)</span>
              </a>
            ) : null}
            {p.evidencia ? (
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Baixar a evidência ${p.evidencia.nome}`}
                onClick={() =>
                  void baixarArquivo(`${base}/evidencias/${encodeURIComponent(p.evidencia!.id)}`, p.evidencia!.nome, 'Não foi possível baixar a evidência.')
                }
              >
                {p.evidencia.nome}
              </Button>
            ) : null}
          </div>
        ) : (
          '—'
        ),
    },
    { key: 'situacao', header: 'Situação', clamp: false, render: (p) => situacaoTexto(p, situacao.get(p.id)) },
  ];
  if (podeEditar) {
    colunas.push({
      key: 'acoes',
      header: 'Ações',
      clamp: false,
      render: (p) => {
        const s = situacao.get(p.id);
        const nome = nomeDoPreco(p);
        return (
          <ButtonRow
            actions={[
              {
                label: 'Incluir mesmo assim',
                'aria-label': `Incluir mesmo assim: ${nome}`,
                variant: 'secondary',
                show: (s?.exclusao === 'antigo' || s?.exclusao === 'vencido') && !p.exclusaoMotivo,
                onClick: () => decidir(p, 'incluir'),
              },
              {
                label: 'Excluir',
                'aria-label': `Excluir do cálculo: ${nome}`,
                show: Boolean(s?.valido && !p.exclusaoMotivo),
                onClick: () => decidir(p, 'excluir'),
              },
              { label: 'Restaurar', 'aria-label': `Restaurar: ${nome}`, show: Boolean(p.inclusaoMotivo || p.exclusaoMotivo), onClick: () => restaurar(p) },
              { label: 'Remover', icon: 'trash', 'aria-label': `Remover o preço: ${nome}`, show: p.fonte !== 'fornecedor', onClick: () => void remover(p) },
            ]}
          />
        );
      },
    });
  }

  const e = resultado?.estatisticas;
  return (
    <>
      <div className="form-grid">
        <SelectField
          label="Item"
          value={item.produtoId}
          onChange={(ev) => setEscolhido(ev.target.value)}
          options={linhas.map(({ item: i, resultado: r }) => {
            const n = r?.estatisticas?.n ?? 0;
            return { value: i.produtoId, label: `${i.ordem}. ${i.descricao} (${n === 1 ? '1 preço válido' : `${n} preços válidos`})` };
          })}
        />
        <div className="button-row">
          <Button variant="secondary" disabled={indice === 0} onClick={() => setEscolhido(linhas[indice - 1]!.item.produtoId)}>
            Item anterior
          </Button>
          <Button variant="secondary" disabled={indice === linhas.length - 1} onClick={() => setEscolhido(linhas[indice + 1]!.item.produtoId)}>
            Próximo item
          </Button>
        </div>
      </div>
      <Card title={`Item ${item.ordem}: ${item.descricao}`}>
        <div className="stack">
          <DetailsList
            items={[
              { label: 'Quantidade', value: `${formatDecimal(item.quantidade)} ${item.unidade}` },
              {
                label: 'Valor de referência',
                value: item.valorReferencia && item.valorReferencia !== '0' ? formatMoney(item.valorReferencia, 4) : 'Não informado',
              },
              { label: 'Preços válidos', value: e?.n ?? 0 },
              { label: 'Preço estimado', value: resultado?.valorEstimado ? formatMoney(resultado.valorEstimado) : 'Sem preço válido' },
              { label: 'Critério', value: resultado?.criterio, wide: true, hidden: !resultado?.criterio },
            ]}
          />
          {resultado?.menosDeTres ? (
            <Alert variant="warning">
              Menos de 3 preços válidos: a conclusão exige justificativa aprovada pela autoridade competente (veja o mapa comparativo).
            </Alert>
          ) : null}
          <DataTable<PrecoListado>
            caption={`Preços do item ${item.ordem}`}
            captionHidden
            rows={precos}
            columns={colunas}
            empty="Nenhum preço registrado para este item."
          />
        </div>
      </Card>
      {podeEditar ? (
        <Card title="Adicionar preço de outra fonte">
          <NovoPreco key={item.produtoId} mapa={mapa} produtoId={item.produtoId} />
        </Card>
      ) : null}
      {podeEditar
        ? (fontes.data?.items ?? []).map((f) => (
            <Card key={f.id} title={f.acao}>
              <BuscaExterna key={item.produtoId} mapa={mapa} item={item} fonte={f} />
            </Card>
          ))
        : null}
      {dialogos}
    </>
  );
}
