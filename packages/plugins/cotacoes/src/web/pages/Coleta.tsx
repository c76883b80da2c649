// /cotacao/add/:id: the collection of prices of a cotação. The header (number, object, status,
// reference date, deadline, method) and two ways to work, in tabs: 'Por fornecedor' (invitations,
// blank forms, answers by hand or imported, 'não respondeu') and 'Por item' (every price of an item,
// decisions, prices of other sources with evidence). Read only when the cotação is closed or of a
// centro the person does not belong to; supplier answers only while em coleta. `?aba=item&item=<produtoId>`
// opens an item directly (the mapa comparativo links there).
import { LoadErrorAlert } from '@app/core';
import { Alert, Card, PageHeader, PageLoading, Tabs } from '@app/ui';
import { useState } from 'react';
import { Link, useParams, useSearch } from 'wouter';
import { COTACAO_ABERTA } from '../../shared/index.js';
import { DadosCotacao, avisoSomenteLeitura, numeroCotacao, useAtualizar, useMapa } from '../components/comum';
import { PorFornecedor } from '../components/PorFornecedor';
import { PorItem } from '../components/PorItem';
import { COTACAO_TITLES } from '../titles';

const ABAS = [
  { id: 'fornecedor', label: 'Por fornecedor' },
  { id: 'item', label: 'Por item' },
] as const;
type Aba = (typeof ABAS)[number]['id'];

export default function ColetaPage() {
  const { id = '' } = useParams<{ id: string }>();
  const busca = new URLSearchParams(useSearch());
  const mapa = useMapa(id);
  const atualizar = useAtualizar();
  const [aba, setAba] = useState<Aba>(busca.get('aba') === 'item' ? 'item' : 'fornecedor');

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
      <Tabs label="Modo de trabalho" idPrefix="coleta" tabs={ABAS} value={aba} onChange={setAba}>
        {aba === 'fornecedor' ? <PorFornecedor {...props} /> : <PorItem {...props} inicial={busca.get('item')} />}
      </Tabs>
    </>
  );
}
