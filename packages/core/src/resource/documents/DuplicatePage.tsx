// duplicar/:id: duplicates the document (POST /:id/duplicar) and opens the new draft in its place.
import { Alert, PageHeader, PageLoading } from '@app/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { api, apiErrorMessage, apiErrorStatus } from '../../api';
import { toast } from '../../toast/queue';
import { apiPath, editHref, listHref, queryKeys } from '../common';
import { OFFLINE_MESSAGE, isOfflineError } from '../form/offline';
import { documentResource } from './build';
import { numeroOf } from './numero';
import type { DocumentConfig } from './types';

type Row = Record<string, unknown>;

export default function DuplicatePage({ config: declaration }: { config: DocumentConfig }) {
  const { resource: config, doc, duplicateTitle: title } = documentResource(declaration);
  const { id } = useParams<{ id: string }>();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const started = useRef<string | null>(null);

  useEffect(() => {
    // once per id (a re-run of the effect, as in StrictMode, must not duplicate twice)
    if (!id || started.current === id) return;
    started.current = id;
    void (async () => {
      try {
        const created = await api.post(`${apiPath(doc.endpoint)}/${encodeURIComponent(id)}/duplicar`).json<Row>();
        // the source's number for the message (read when this page was opened by its URL)
        const source =
          queryClient.getQueryData<Row>(queryKeys.document(doc.endpoint, id)) ??
          (await api
            .get(`${apiPath(doc.endpoint)}/${encodeURIComponent(id)}`)
            .json<Row>()
            .catch(() => null));
        const from = source ? numeroOf(source) : '';
        toast.success(`${doc.documento} ${numeroOf(created)} ${doc.feminino ? 'criada' : 'criado'}${from ? ` a partir de ${from}` : ''}.`);
        queryClient.setQueryData(queryKeys.document(doc.endpoint, String(created.id)), created);
        void queryClient.invalidateQueries({ queryKey: queryKeys.all(doc.endpoint) });
        navigate(editHref(config, String(created.id)), { replace: true });
      } catch (e) {
        setError(e);
      }
    })();
  }, [id, doc, config, navigate, queryClient]);

  const back = (
    <Link href={listHref(config)} className="button button--ghost button--sm">
      ← Voltar para {config.title}
    </Link>
  );
  if (!error) return <PageLoading label={`Duplicando ${doc.feminino ? 'a' : 'o'} ${doc.documento.toLowerCase()}…`} />;
  return (
    <div data-testid="resource-form">
      <PageHeader title={title} before={back} />
      <Alert variant="error" title={apiErrorStatus(error) === 404 ? 'Documento não encontrado.' : 'Não foi possível duplicar.'}>
        {isOfflineError(error)
          ? OFFLINE_MESSAGE
          : apiErrorStatus(error) === 404
            ? 'Ele pode ter sido excluído ou pertencer a outra entidade ou centro de custo.'
            : apiErrorMessage(error)}
      </Alert>
    </div>
  );
}
