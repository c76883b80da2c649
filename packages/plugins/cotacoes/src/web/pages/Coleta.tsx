// /cotacao/add/:id: the collection of prices of a cotação. The header (number, object, status,
// reference date, deadline, method) and two ways to work, in tabs: 'Por fornecedor' (invitations,
// blank forms, answers by hand or imported, 'não respondeu') and 'Por item' (every price of an item,
// decisions, prices of other sources with evidence). Read only when the cotação is closed or of a
// centro the person does not belong to; supplier answers only while em coleta. `?aba=item&item=<produtoId>`
// opens an item directly (the mapa comparativo links there).
import { LoadErrorAlert } from '@app/core';
import { Alert, Card, PageHeader, PageLoading } from '@app/ui';
import { type KeyboardEvent, useRef, useState } from 'react';
import { Link, useParams, useSearch } from 'wouter';
import { COTACAO_ABERTA } from '../../shared/index.js';
import { DadosCotacao, avisoSomenteLeitura, numeroCotacao, useAtualizar, useMapa } from '../components/comum';
import { PorFornecedor } from '../components/PorFornecedor';
import { PorItem } from '../components/PorItem';
import { COTACAO_TITLES } from '../titles';

const ABAS = [
  { id: 'fornecedor', rotulo: 'Por fornecedor' },
  { id: 'item', rotulo: 'Por item' },
] as const;
type Aba = (typeof ABAS)[number]['id'];

export default function ColetaPage() {
  const { id = '' } = useParams<{ id: string }>();
  const busca = new URLSearchParams(useSearch());
  const mapa = useMapa(id);
  const atualizar = useAtualizar();
  const [aba, setAba] = useState<Aba>(busca.get('aba') === 'item' ? 'item' : 'fornecedor');
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);

  if (mapa.isError) {
    return (
      <>
        <PageHeader title={COTACAO_TITLES.addTitle} before={<Link href="/">Voltar para {COTACAO_TITLES.title}</Link>} />
        <LoadErrorAlert title="Não foi possível carregar a cotação" error={mapa.error} onRetry={() => void mapa.refetch()} />
      </>
    );
  }
  if (!mapa.data) return <PageLoading />;
  const dados = mapa.data;
  const c = dados.cotacao;
  const podeEditar = COTACAO_ABERTA.includes(c.status) && dados.podeEditar;
  const podeResponder = podeEditar && c.status === 'em_coleta';
  const aviso = avisoSomenteLeitura(dados);

  const teclas = (event: KeyboardEvent<HTMLButtonElement>, i: number) => {
    const destino = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: ABAS.length - 1 }[event.key];
    if (destino === undefined) return;
    event.preventDefault();
    const j = (destino + ABAS.length) % ABAS.length;
    setAba(ABAS[j]!.id);
    tabs.current[j]?.focus();
  };

  const props = { mapa: dados, atualizar, podeEditar, podeResponder };
  return (
    <>
      <PageHeader
        title={`${COTACAO_TITLES.addTitle} · cotação ${numeroCotacao(dados)}`}
        before={<Link href="/">Voltar para {COTACAO_TITLES.title}</Link>}
        actions={
          <>
            <Link href={`/mapa/${id}`} className="button button--primary">
              {COTACAO_TITLES.mapaTitle}
            </Link>
            <Link href={`/edit/${id}`} className="button button--secondary">
              Abrir cotação
            </Link>
          </>
        }
      />
      {aviso ? <Alert variant="info">{aviso}</Alert> : null}
      {podeEditar && c.status === 'rascunho' ? (
        <Alert variant="info" title="Coleta ainda não iniciada">
          Você já pode convidar fornecedores, baixar os formulários e registrar preços de outras fontes. As respostas dos fornecedores só podem ser registradas
          depois de “Iniciar coleta”, na página da cotação.
        </Alert>
      ) : null}
      <Card title="Cotação">
        <DadosCotacao mapa={dados} />
      </Card>
      <div role="tablist" aria-label="Modo de trabalho" className="tabs">
        {ABAS.map((a, i) => (
          <button
            key={a.id}
            ref={(el) => {
              tabs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`coleta-aba-${a.id}`}
            aria-controls={aba === a.id ? `coleta-painel-${a.id}` : undefined}
            aria-selected={aba === a.id}
            tabIndex={aba === a.id ? 0 : -1}
            className="tabs__tab"
            onClick={() => setAba(a.id)}
            onKeyDown={(e) => teclas(e, i)}
          >
            {a.rotulo}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`coleta-painel-${aba}`} aria-labelledby={`coleta-aba-${aba}`}>
        {aba === 'fornecedor' ? <PorFornecedor {...props} /> : <PorItem {...props} inicial={busca.get('item')} />}
      </div>
    </>
  );
}
