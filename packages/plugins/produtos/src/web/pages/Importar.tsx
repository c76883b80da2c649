import { ImportarPlanilha, queryKeys } from '@app/core';
import { TITLES } from '../titles';

/** '/produtos/importar': spreadsheet import of products and services. */
export default function ImportarProdutos() {
  return (
    <ImportarPlanilha
      title={TITLES.importTitle}
      description="Envie uma planilha .xlsx ou .csv no formato do modelo. Grupo, sub-grupo, unidade e tipo de material devem existir em Registros. Nada é importado enquanto houver erros."
      resource="produtos/produtos"
      invalidate={queryKeys.all('/produtos/produtos')}
      listHref=""
      plural="produtos"
      templateName="modelo-produtos"
    />
  );
}
