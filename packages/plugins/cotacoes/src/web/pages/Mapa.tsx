// /cotacao/mapa/:id: the mapa comparativo. Every item × every invited supplier at once (unit and
// total, the lowest valid price highlighted, expired, old, excluded and outlier prices marked), the
// statistics and the result of the method in force (printed with its rule and each item's
// criterion), the winners (another one only with a reason of 20 characters or more), the totals per
// supplier and the estimated total; the justification of items with fewer than three valid prices
// and its approval by the autoridade competente; Concluir; the memória de cálculo (PDF and XLSX).
import { formatDateTime } from '@app/br';
import { api, issuesToFieldErrors, toast, useDocumentTransition } from '@app/core';
import { formatDecimal, formatMoney, lineTotal } from '@app/documents';
import {
  Alert,
  Button,
  Card,
  ConfirmDialog,
  DetailsList,
  EmptyState,
  PageHeader,
  PageLoading,
  RadioGroupField,
  TextareaField,
  characterCount,
  useConfirm,
} from '@app/ui';
import { useCallback, useMemo, useState } from 'react';
import { Link, useParams } from 'wouter';
import {
  COTACAO_ABERTA,
  MINIMO_PRECOS,
  METODO_LABEL,
  MOTIVO_VENCEDOR_MIN,
  type MapaCotacao,
  PARADA_TEXTO,
  descreverMetodo,
  fluxoCotacao,
  justificativaInputSchema,
  vencedorInputSchema,
} from '../../shared/index.js';
import {
  COTACOES_ENDPOINT,
  AvisoSomenteLeitura,
  DadosCotacao,
  ErroAoCarregar,
  baixarArquivo,
  cotacaoPath,
  editavel,
  executar,
  executarFilho,
  numeroCotacao,
  useAtualizar,
  useFilhos,
  useMapa,
  voltar,
} from '../components/comum';
import { GradeMapa, type LinhaMapa, calcularMapa } from '../components/GradeMapa';
import { COTACAO_TITLES } from '../titles';

/** 'Escolher outro vencedor': a valid supplier price of the item and the reason (≥ 20 characters). */
function VencedorDialog({ mapa, linha, onClose }: { mapa: MapaCotacao; linha: LinhaMapa | null; onClose: () => void }) {
  const vencedores = useFilhos(mapa.cotacao.id, 'vencedores');
  const [precoId, setPrecoId] = useState<string | null>(null);
  const [motivo, setMotivo] = useState('');
  const [erros, setErros] = useState<{ precoId?: string; motivo?: string }>({});
  const atual = linha?.resultado?.vencedor?.precoId ?? null;
  const escolhido = precoId ?? atual;
  const fechar = () => {
    setPrecoId(null);
    setMotivo('');
    setErros({});
    onClose();
  };
  const confirmar = async (): Promise<boolean> => {
    if (!linha) return true;
    const parsed = vencedorInputSchema.safeParse({ precoId: escolhido ?? '', motivo });
    const next: typeof erros = parsed.success ? {} : issuesToFieldErrors(parsed.error.issues);
    if (parsed.success && parsed.data.precoId === atual && !linha.resultado?.vencedor?.escolhido) {
      next.precoId = 'Escolha um preço diferente do menor preço válido.';
    }
    setErros(next);
    if (!parsed.success || Object.keys(next).length) return false;
    const result = await vencedores.update(linha.item.produtoId, parsed.data, 'Não foi possível alterar o vencedor.');
    if (result.ok) {
      toast.success(`Vencedor do item ${linha.item.ordem} alterado.`);
      return true;
    }
    if (result.fields.motivo || result.fields.precoId) {
      setErros(result.fields);
      return false;
    }
    toast.error(result.message);
    return true;
  };
  const quantidade = linha?.item.quantidade ?? '0';
  return (
    <ConfirmDialog
      open={linha !== null}
      onOpenChange={(open) => (open ? undefined : fechar())}
      title={linha ? `Escolher outro vencedor: item ${linha.item.ordem}` : ''}
      description={
        linha ? (
          <>
            <p>{linha.item.descricao}</p>
            <p>O motivo fica registrado no histórico e é impresso na memória de cálculo.</p>
          </>
        ) : undefined
      }
      confirmLabel="Escolher vencedor"
      cancelLabel="Voltar"
      onConfirm={confirmar}
    >
      {linha ? (
        <>
          <RadioGroupField
            label="Preço vencedor"
            name="vencedor"
            options={linha.opcoes.map((p) => ({
              value: p.id,
              label: `${p.fornecedorNome ?? p.fonteDescricao}: ${formatMoney(p.valorUnitario, 4)}${p.id === atual ? ' (atual)' : ''}`,
              hint: `Total ${formatMoney(lineTotal(quantidade, p.valorUnitario))}`,
            }))}
            value={escolhido}
            error={erros.precoId}
            onChange={(id) => {
              setPrecoId(id);
              setErros((e) => ({ ...e, precoId: undefined }));
            }}
          />
          <TextareaField
            label="Motivo da escolha"
            required
            rows={3}
            maxLength={2000}
            hint={characterCount(motivo, MOTIVO_VENCEDOR_MIN)}
            value={motivo}
            error={erros.motivo}
            onChange={(e) => {
              setMotivo(e.target.value);
              setErros((x) => ({ ...x, motivo: undefined }));
            }}
          />
        </>
      ) : null}
    </ConfirmDialog>
  );
}

/** The rounds of the média saneada per item (issue 18): prices at the start, mean, SD, CV, interval, dropped and kept. */
function RodadasSaneamento({ mapa }: { mapa: MapaCotacao }) {
  if (mapa.cotacao.metodo !== 'media_saneada') return null;
  const porProduto = new Map(mapa.itens.map((i) => [i.produtoId, i]));
  const valores = new Map(mapa.precos.map((p) => [p.id, p.valorUnitario]));
  const comRodadas = mapa.avaliacao.itens.filter((r) => r.rodadas.length > 0);
  if (comRodadas.length === 0) return null;
  const reais = (v: string) => formatMoney(v);
  const lista = (ids: string[]) => ids.map((id) => formatMoney(valores.get(id) ?? '0', 4)).join(', ');
  return (
    <details>
      <summary>Rodadas da média saneada ({comRodadas.length === 1 ? '1 item' : `${comRodadas.length} itens`})</summary>
      <ul>
        {comRodadas.map((r) => {
          const item = porProduto.get(r.produtoId);
          const f = r.estatisticasFinais;
          return (
            <li key={r.produtoId}>
              <strong>
                Item {item?.ordem}: {item?.descricao}
              </strong>
              <ul>
                {r.rodadas.map((x) => (
                  <li key={x.rodada}>
                    {x.rodada}ª rodada: {x.estatisticas.n} preços, média {reais(x.estatisticas.media)}, DP {reais(x.estatisticas.desvioPadrao)}, CV{' '}
                    {formatDecimal(x.estatisticas.cv, { min: 1 })}%; intervalo {reais(x.limiteInferior)} a {reais(x.limiteSuperior)}; descartados:{' '}
                    {lista(x.descartados)}; mantidos: {x.mantidos.length}.
                  </li>
                ))}
                {f ? (
                  <li>
                    Depois da {r.rodadas.length}ª rodada: {f.n} preços, média {reais(f.media)}, DP {reais(f.desvioPadrao)}, CV {formatDecimal(f.cv, { min: 1 })}
                    %{r.parada ? `; ${PARADA_TEXTO[r.parada]}` : ''}.
                  </li>
                ) : null}
              </ul>
            </li>
          );
        })}
      </ul>
    </details>
  );
}

/** Items with fewer than three valid prices: the justification and its approval. */
function Justificativa({ mapa, atualizar }: { mapa: MapaCotacao; atualizar: () => Promise<void> }) {
  const c = mapa.cotacao;
  const [texto, setTexto] = useState(c.justificativa ?? '');
  const [erro, setErro] = useState<string | undefined>();
  const [salvando, setSalvando] = useState(false);
  const [aprovando, setAprovando] = useState(false);
  const aberta = COTACAO_ABERTA.includes(c.status);
  const poucos = new Set(mapa.avaliacao.itensMenosDeTres);
  const itens = mapa.itens.filter((i) => poucos.has(i.produtoId)).sort((a, b) => a.ordem - b.ordem);
  const validos = new Map(mapa.avaliacao.itens.map((r) => [r.produtoId, r.estatisticas?.n ?? 0]));
  const alterado = texto.trim() !== (c.justificativa ?? '');

  const salvar = async () => {
    const parsed = justificativaInputSchema.safeParse({ texto });
    if (!parsed.success) {
      setErro(parsed.error.issues[0]?.message);
      return;
    }
    setSalvando(true);
    const falha = await executar(() => api.put(`${cotacaoPath(c.id)}/justificativa`, { json: parsed.data }), {
      sucesso: 'Justificativa registrada.',
      falha: 'Não foi possível registrar a justificativa.',
      atualizar,
      campo: 'texto',
    });
    setErro(falha ?? undefined);
    setSalvando(false);
  };
  const aprovar = async () => {
    setAprovando(true);
    await executar(() => api.post(`${cotacaoPath(c.id)}/justificativa/aprovar`, { json: {} }), {
      sucesso: 'Justificativa aprovada.',
      falha: 'Não foi possível aprovar a justificativa.',
      atualizar,
    });
    setAprovando(false);
  };

  return (
    <Card title="Itens com menos de três preços válidos">
      {c.justificativaAnuladaMotivo && !c.justificativaAprovadaEm ? (
        <Alert variant="warning" title="Aprovação anulada por alteração">
          <p>
            {c.justificativaAnuladaMotivo}
            {c.justificativaAnuladaAprovador
              ? ` A aprovação era de ${c.justificativaAnuladaAprovador}${c.justificativaAnuladaEm ? `, anulada em ${formatDateTime(c.justificativaAnuladaEm)}` : ''}.`
              : ''}{' '}
            A cotação só pode ser concluída com uma nova aprovação da autoridade competente.
          </p>
        </Alert>
      ) : null}
      {itens.length ? (
        <Alert variant="warning" title={`${itens.length === 1 ? '1 item tem' : `${itens.length} itens têm`} menos de ${MINIMO_PRECOS} preços válidos`}>
          <p>A cotação só pode ser concluída com a justificativa abaixo aprovada pela autoridade competente (IN SEGES/ME 65/2021, art. 6º, § 5º).</p>
          <ul>
            {itens.map((i) => (
              <li key={i.produtoId}>
                Item {i.ordem}: {i.descricao} ({validos.get(i.produtoId) === 1 ? '1 preço válido' : `${validos.get(i.produtoId) ?? 0} preços válidos`})
              </li>
            ))}
          </ul>
        </Alert>
      ) : (
        <p className="field__hint">Todos os itens têm ao menos {MINIMO_PRECOS} preços válidos; a justificativa registrada fica no processo.</p>
      )}
      {editavel(mapa) ? (
        <>
          <TextareaField
            label="Justificativa"
            required
            rows={4}
            maxLength={2000}
            hint={`${characterCount(texto, 20)} A aprovação cobre o texto e os preços dos itens acima como estão: alterar qualquer um deles a anula.`}
            value={texto}
            error={erro}
            onChange={(e) => {
              setTexto(e.target.value);
              setErro(undefined);
            }}
          />
          <div className="form-actions">
            <Button variant={alterado ? 'primary' : 'secondary'} loading={salvando} disabled={!alterado} onClick={() => void salvar()}>
              Salvar justificativa
            </Button>
          </div>
        </>
      ) : (
        <p className="text-pre-wrap">{c.justificativa ?? 'Nenhuma justificativa registrada.'}</p>
      )}
      {c.justificativa ? (
        <p className="field__hint">
          Registrada por {c.justificativaPorNome ?? '—'}
          {c.justificativaEm ? ` em ${formatDateTime(c.justificativaEm)}` : ''}.{' '}
          {c.justificativaAprovadaEm
            ? `Aprovada por ${c.justificativaAprovadaPorNome ?? '—'} em ${formatDateTime(c.justificativaAprovadaEm)}.`
            : 'Aguardando a aprovação da autoridade competente.'}
        </p>
      ) : null}
      {aberta && mapa.podeAprovarJustificativa && c.justificativa && !c.justificativaAprovadaEm ? (
        <div className="form-actions">
          <Button loading={aprovando} disabled={alterado} onClick={() => void aprovar()}>
            Aprovar justificativa
          </Button>
        </div>
      ) : null}
    </Card>
  );
}

export default function MapaPage() {
  const { id = '' } = useParams<{ id: string }>();
  const mapa = useMapa(id);
  const atualizar = useAtualizar();
  const vencedores = useFilhos(id, 'vencedores');
  const transicoes = useDocumentTransition({ endpoint: COTACOES_ENDPOINT, flow: fluxoCotacao, documento: 'Cotação', feminino: true }, mapa.data?.cotacao);
  const [linha, setLinha] = useState<LinhaMapa | null>(null);
  const [concluindo, setConcluindo] = useState(false);
  const [erroConclusao, setErroConclusao] = useState<string | null>(null);
  const [confirmElement, confirm] = useConfirm();
  const calculo = useMemo(() => (mapa.data ? calcularMapa(mapa.data) : null), [mapa.data]);

  const onEscolher = useCallback((l: LinhaMapa) => setLinha(l), []);
  const onVoltar = useCallback(
    (l: LinhaMapa) =>
      void (async () => {
        const ok = await confirm({
          title: `Voltar ao menor preço no item ${l.item.ordem}?`,
          description: 'O vencedor passa a ser o menor preço válido de fornecedor; a escolha anterior fica no histórico.',
          confirmLabel: 'Voltar ao menor',
          cancelLabel: 'Manter',
        });
        if (!ok) return;
        await executarFilho(() => vencedores.remove(l.item.produtoId, 'Não foi possível desfazer a escolha do vencedor.'), {
          sucesso: `Item ${l.item.ordem}: vencedor de volta ao menor preço.`,
        });
      })(),
    [confirm, vencedores],
  );

  if (mapa.isError) {
    return <ErroAoCarregar titulo={COTACAO_TITLES.mapaTitle} erro="Não foi possível carregar o mapa comparativo" query={mapa} />;
  }
  if (!mapa.data || !calculo) return <PageLoading />;
  const dados = mapa.data;
  const c = dados.cotacao;
  const numero = numeroCotacao(dados);
  const podeEditar = editavel(dados);
  const arquivo = `memoria-de-calculo-cotacao-${c.numero}-${c.ano}`;

  /** The kit's transition (useDocumentTransition: version, errors, the cotação, its mapa, lists and pendências refreshed). */
  const concluir = async (): Promise<boolean> => {
    setErroConclusao(null);
    const result = await transicoes.run('concluir');
    if (result.ok) toast.success(`Cotação ${numero} concluída: os preços estimados foram registrados.`);
    else setErroConclusao(result.message);
    await atualizar();
    return true;
  };

  return (
    <>
      <PageHeader
        title={`${COTACAO_TITLES.mapaTitle} · cotação ${numero}`}
        description={c.objeto}
        before={
          <>
            {voltar}
            {' · '}
            <Link href={`/add/${id}`}>{COTACAO_TITLES.addTitle}</Link>
          </>
        }
        actions={
          <>
            {podeEditar && c.status === 'em_coleta' ? <Button onClick={() => setConcluindo(true)}>Concluir</Button> : null}
            {(['pdf', 'xlsx'] as const).map((ext) => (
              <Button
                key={ext}
                variant="secondary"
                icon="file"
                onClick={() => void baixarArquivo(`${cotacaoPath(id)}/memoria.${ext}`, `${arquivo}.${ext}`, 'Não foi possível gerar a memória de cálculo.')}
              >
                Memória de cálculo ({ext.toUpperCase()})
              </Button>
            ))}
          </>
        }
      />
      {erroConclusao ? (
        <Alert variant="error" title="A cotação não foi concluída" onDismiss={() => setErroConclusao(null)}>
          {erroConclusao}
        </Alert>
      ) : null}
      <AvisoSomenteLeitura mapa={dados} />
      {c.status === 'rascunho' && dados.podeEditar ? (
        <Alert variant="info">A coleta ainda não foi iniciada: a cotação só pode ser concluída depois de “Iniciar coleta”, na página da cotação.</Alert>
      ) : null}
      <Card title={`Método em vigor: ${METODO_LABEL[c.metodo]}`}>
        <div className="stack">
          <p>{descreverMetodo(c.metodo, c.iterar)}</p>
          <RodadasSaneamento mapa={dados} />
          <DetailsList
            items={[
              { label: 'Valor estimado total', value: <strong>{formatMoney(dados.avaliacao.valorEstimadoTotal)}</strong> },
              { label: 'Total dos vencedores', value: formatMoney(dados.avaliacao.valorVencedoresTotal) },
              { label: 'Itens × fornecedores', value: `${dados.itens.length} × ${dados.convites.length}` },
            ]}
          />
          <p id="mapa-legenda" className="field__hint">
            Valores em reais. “Menor”: o menor preço válido de fornecedor do item (destacado). “Vencedor”: o preço que vence o item. Preços marcados “Vencida”
            (proposta com validade anterior à data de referência), “Antigo” (fora do prazo da fonte) ou “Excluído” ficam fora do cálculo; “Fora da curva”:
            descartado pela regra do método. n, média, mediana, menor, maior, desvio-padrão (DP) e coeficiente de variação (CV) são dos preços válidos.
          </p>
        </div>
      </Card>
      <Card title="Mapa comparativo" flush>
        {dados.itens.length === 0 ? (
          <EmptyState title="Esta cotação não tem itens." />
        ) : (
          <GradeMapa mapa={dados} calculo={calculo} podeEditar={podeEditar} onEscolher={onEscolher} onVoltar={onVoltar} />
        )}
      </Card>
      {dados.avaliacao.itensMenosDeTres.length > 0 || c.justificativa ? <Justificativa key={c.justificativa ?? ''} mapa={dados} atualizar={atualizar} /> : null}
      <DadosCotacao mapa={dados} />
      {podeEditar ? <VencedorDialog mapa={dados} linha={linha} onClose={() => setLinha(null)} /> : null}
      <ConfirmDialog
        open={concluindo}
        onOpenChange={setConcluindo}
        title={`Concluir a cotação ${numero}?`}
        description="Os preços estimados ficam congelados e passam aos itens da requisição. Depois de concluída, a cotação não pode mais ser alterada."
        confirmLabel="Concluir"
        cancelLabel="Voltar"
        onConfirm={concluir}
      />
      {confirmElement}
    </>
  );
}
