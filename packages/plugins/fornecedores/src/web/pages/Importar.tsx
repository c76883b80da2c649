import { ImportarPlanilha, queryKeys } from '@app/core';
import { ENDPOINT, TITLES } from '../titles';

/** '/fornecedor/importar': spreadsheet import of suppliers. */
export default function ImportarFornecedores() {
  return (
    <ImportarPlanilha
      title={TITLES.importTitle}
      description="Envie uma planilha .xlsx ou .csv no formato do modelo: um fornecedor por linha, CPF ou CNPJ (também alfanumérico) válido e ao menos um ramo de atividade cadastrado em Registros. Nada é importado enquanto houver erros."
      resource="fornecedores/fornecedores"
      invalidate={queryKeys.all(ENDPOINT)}
      listHref=""
      plural="fornecedores"
      templateName="modelo-fornecedores"
    />
  );
}
