// /cotacao/add/:id: the collection of prices of a cotação. The header (number, object, status,
// reference date, deadline, method) and two ways to work, in tabs: 'Por fornecedor' (invitations,
// blank forms, answers by hand or imported, 'não respondeu') and 'Por item' (every price of an item,
// decisions, prices of other sources with evidence). Read only when the cotação is closed or of a
// centro the person does not belong to; supplier answers only while em coleta. `?aba=item&item=<produtoId>`
// opens an item directly (the mapa comparativo links there).
import { Alert, PageHeader, PageLoading, Tabs } from '@app/ui';
import { useState } from 'react';
import { Link, useParams, useSearch } from 'wouter';
import { AvisoSomenteLeitura, DadosCotacao, ErroAoCarregar, editavel, numeroCotacao, useMapa, voltar } from '../components/comum';
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
  const [aba, setAba] = useState<Aba>(busca.get('aba') === 'item' ? 'item' : 'fornecedor');

  if (mapa.isError) {
    return <ErroAoCarregar titulo={COTACAO_TITLES.addTitle} erro="Não foi possível carregar a cotação" query={mapa} />;
  }
  if (!mapa.data) return <PageLoading />;
  const dados = mapa.data;
  const c = dados.cotacao;
  const podeEditar = editavel(dados);
  const podeResponder = podeEditar && c.status === 'em_coleta';

  const props = { mapa: dados, podeEditar, podeResponder };
  return (
    <>
      <PageHeader
        title={`${COTACAO_TITLES.addTitle} · cotação ${numeroCotacao(dados)}`}
        before={voltar}
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
      <AvisoSomenteLeitura mapa={dados} />
      {podeEditar && c.status === 'rascunho' ? (
        <Alert variant="info" title="Coleta ainda não iniciada">
          Você já pode convidar fornecedores, baixar os formulários e registrar preços de outras fontes. As respostas dos fornecedores só podem ser registradas
          depois de “Iniciar coleta”, na página da cotação.
        </Alert>
      ) : null}
      <DadosCotacao mapa={dados} />
      <Tabs label="Modo de trabalho" idPrefix="coleta" tabs={ABAS} value={aba} onChange={setAba}>
        {aba === 'fornecedor' ? <PorFornecedor {...props} /> : <PorItem {...props} inicial={busca.get('item')} />}
      </Tabs>
    </>
  );
}
