// The plan's revision: the dialog of `revisar` (the justification, required outside the revision windows;
// one of them follows the budget law's publication, a date the entidade records at /elabora-pca/loa) and,
// on a revised plan, what changed since the approved version.
import { formatDate, today } from '@app/br';
import type { TransitionDialogState } from '@app/core';
import { formatDecimal, formatMoney } from '@app/documents';
import { Card, TextareaField } from '@app/ui';
import { dentroDaJanelaDeRevisao } from '../../shared/index.js';

type Row = Record<string, unknown>;
type Linha = { numeroItem: number; descricao: string; quantidade: string; valorTotal: string; quantidadeAntes?: string; valorAntes?: string };
type Revisao = {
  versao: number;
  justificativa: string | null;
  dataLoa: string | null;
  incluidos: Linha[];
  excluidos: Linha[];
  redimensionados: Linha[];
};

export function dialogoDoPlano(name: string, row: Row, state: TransitionDialogState) {
  if (name !== 'revisar') return null;
  const anoPca = Number(row.anoPca);
  const loa = row.loa as { dataPublicacao: string; lei: string | null } | null | undefined;
  const dentro = dentroDaJanelaDeRevisao(today(), anoPca, loa?.dataPublicacao);
  return (
    <div className="stack">
      <p>
        Abre a versão {Number(row.versao ?? 1) + 1} do plano: inclusões, exclusões e redimensionamentos, aprovados de novo pela autoridade competente. Sem
        justificativa, só de 15/09 a 15/11/{anoPca - 1} ou nos 15 dias após a publicação da LOA.
      </p>
      <p>
        {loa
          ? `LOA de ${anoPca} publicada em ${formatDate(loa.dataPublicacao)}${loa.lei ? ` (${loa.lei})` : ''}.`
          : `A publicação da LOA de ${anoPca} ainda não foi registrada pela administração (Plano de Contratações Anual › Publicação da LOA).`}
      </p>
      <TextareaField
        label="Justificativa da revisão"
        rows={3}
        maxLength={2000}
        required={!dentro}
        hint={dentro ? 'Dentro de um período de revisão: opcional.' : 'Fora dos períodos de revisão: obrigatória, impressa no plano.'}
        value={String(state.body.justificativa ?? '')}
        error={state.errors.justificativa}
        onChange={(e) => state.setBody({ ...state.body, justificativa: e.currentTarget.value })}
      />
    </div>
  );
}

const lista = (titulo: string, linhas: Linha[], texto: (l: Linha) => string) =>
  linhas.length ? (
    <>
      <h3 className="field__label">{titulo}</h3>
      <ul aria-label={titulo}>
        {linhas.map((l) => (
          <li key={`${l.numeroItem}-${l.descricao}`}>{texto(l)}</li>
        ))}
      </ul>
    </>
  ) : null;

export function RevisaoDoPlano({ record }: { record: Row }) {
  const r = record.revisao as Revisao | null | undefined;
  if (!r) return null;
  const valor = (l: Linha) => `${formatDecimal(l.quantidade)} – ${formatMoney(l.valorTotal, 4)}`;
  return (
    <Card title={`Revisão: versão ${r.versao} (alterações desde a versão ${r.versao - 1})`} headingLevel={2}>
      {r.justificativa ? <p>Justificativa: {r.justificativa}</p> : null}
      {r.dataLoa ? <p>LOA publicada em {formatDate(r.dataLoa)}.</p> : null}
      {r.incluidos.length + r.excluidos.length + r.redimensionados.length === 0 ? <p>Nenhum item mudou até agora.</p> : null}
      {lista('Itens incluídos', r.incluidos, (l) => `Item ${l.numeroItem} – ${l.descricao}: ${valor(l)}`)}
      {lista('Itens excluídos', r.excluidos, (l) => `${l.descricao}: ${valor(l)}`)}
      {lista(
        'Itens redimensionados',
        r.redimensionados,
        (l) =>
          `Item ${l.numeroItem} – ${l.descricao}: de ${formatDecimal(String(l.quantidadeAntes))} (${formatMoney(String(l.valorAntes), 4)}) para ${valor(l)}`,
      )}
    </Card>
  );
}
