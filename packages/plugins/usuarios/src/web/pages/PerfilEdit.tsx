import { apiErrorMessage, toast, useApi, useMutation, useQuery, useQueryClient, useSession } from '@app/core';
import { Alert, Button, Card, CheckboxField, PageHeader, PageLoading, TextField } from '@app/ui';
import { type FormEvent, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { isExemptTag, MENSAGENS, type Perfil, perfilBodySchema, type TagInfo } from '../../shared/index';
import { type FieldErrors, saveError, zodFields } from '../forms';
import { type SaveProblem, SaveProblemAlert } from '../SaveProblemAlert';
import { tagOptions } from '../tags';

function PerfilForm({ perfil, declared }: { perfil?: Perfil; declared: TagInfo[] }) {
  const api = useApi();
  const session = useSession();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [nome, setNome] = useState(perfil?.nome ?? '');
  const [tags, setTags] = useState<number[]>(() => (perfil?.tags ?? []).filter((t) => !isExemptTag(t)));
  const [todosCentros, setTodosCentros] = useState(perfil?.todosCentros ?? false);
  // as with tags: only who sees every centro gives that access (an access the perfil already has can be kept or removed)
  const podeDarTodos = session?.todosCentros === true || perfil?.todosCentros === true;
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<SaveProblem | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const options = tagOptions(declared, perfil?.tags ?? [], session?.tags ?? []);

  const done = async (message: string) => {
    await queryClient.invalidateQueries({ queryKey: ['usuarios'] });
    toast.success(message);
    navigate('/perfis');
  };
  const failed = (error: unknown) => {
    const e = saveError(error);
    setErrors(e.fields);
    setProblem({ message: e.message, stale: e.stale });
  };
  const save = useMutation({
    mutationFn: (body: { nome: string; tags: number[]; todosCentros?: boolean | undefined; version?: number }) =>
      perfil ? api.put(`usuarios/perfis/${perfil.id}`, { json: body }).json() : api.post('usuarios/perfis', { json: body }).json(),
    onSuccess: () => done(perfil ? 'Perfil salvo.' : 'Perfil criado.'),
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: () => api.delete(`usuarios/perfis/${perfil!.id}`),
    onSuccess: () => done('Perfil excluído.'),
    onError: (error) => {
      setConfirmDelete(false);
      failed(error);
    },
  });

  const toggle = (tag: number, on: boolean) => setTags((list) => (on ? [...list, tag] : list.filter((t) => t !== tag)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const parsed = perfilBodySchema.safeParse({ nome, tags, todosCentros });
    if (!parsed.success) {
      setErrors(zodFields(parsed.error));
      setProblem({ message: 'Verifique os campos destacados.', stale: false });
      return;
    }
    setErrors({});
    save.mutate({ ...parsed.data, ...(perfil ? { version: perfil.version } : {}) });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={perfil ? 'Editar perfil' : 'Novo perfil'}>
      <SaveProblemAlert problem={problem} />
      <Card title="Perfil">
        <TextField label="Nome do perfil" required value={nome} error={errors.nome} onChange={(e) => setNome(e.target.value)} autoComplete="off" />
      </Card>
      <Card title="Permissões">
        <fieldset className="field" aria-describedby="perfil-tags-dica">
          <legend className="field__label">Tags concedidas por este perfil</legend>
          <p id="perfil-tags-dica" className="field__hint">
            Você só pode conceder permissões que possui; as demais aparecem desabilitadas.
          </p>
          {errors.tags ? <Alert variant="error">{errors.tags}</Alert> : null}
          <div className="form-grid" data-testid="perfil-tags">
            {options.map((o) => {
              const checked = tags.includes(o.tag);
              return (
                <CheckboxField
                  key={o.tag}
                  label={`${o.nome} (${o.tag})`}
                  checked={checked}
                  disabled={!o.held && !checked}
                  onChange={(e) => toggle(o.tag, e.target.checked)}
                />
              );
            })}
          </div>
        </fieldset>
      </Card>
      <Card title="Centros de custo">
        <CheckboxField
          label={MENSAGENS.todosCentros}
          hint={
            podeDarTodos
              ? MENSAGENS.todosCentrosDica
              : `${MENSAGENS.todosCentrosDica} Só quem acessa todos os centros de custo pode dar esse acesso.`
          }
          checked={todosCentros}
          disabled={!podeDarTodos && !todosCentros}
          error={errors.todosCentros}
          onChange={(e) => setTodosCentros(e.target.checked)}
        />
      </Card>
      <div className="form-actions" style={{ marginBottom: 'var(--space-6)' }}>
        <Link href="/perfis" className="button button--secondary">
          Cancelar
        </Link>
        <Button type="submit" loading={save.isPending}>
          Salvar
        </Button>
      </div>
      {perfil ? (
        <Card title="Excluir perfil">
          <p>
            {perfil.usuarios > 0
              ? `Este perfil está atribuído a ${perfil.usuarios} usuário(s): troque o perfil deles antes de excluí-lo.`
              : 'Nenhum usuário tem este perfil.'}
          </p>
          <div className="form-actions" style={{ justifyContent: 'flex-start', marginTop: 0 }}>
            {confirmDelete ? (
              <>
                <Button variant="danger" loading={remove.isPending} onClick={() => remove.mutate()}>
                  Confirmar exclusão
                </Button>
                <Button variant="ghost" onClick={() => setConfirmDelete(false)}>
                  Cancelar exclusão
                </Button>
              </>
            ) : (
              <Button variant="danger" icon="trash" onClick={() => setConfirmDelete(true)}>
                Excluir perfil
              </Button>
            )}
          </div>
        </Card>
      ) : null}
    </form>
  );
}

/** '/usuarios/perfis/new' and '/usuarios/perfis/edit/:id'. */
export default function PerfilEdit() {
  const api = useApi();
  const { id } = useParams<{ id?: string }>();
  const tags = useQuery({ queryKey: ['usuarios', 'tags'], queryFn: () => api.get('usuarios/tags').json<{ items: TagInfo[] }>() });
  const perfil = useQuery({
    queryKey: ['usuarios', 'perfil', id],
    queryFn: () => api.get(`usuarios/perfis/${id}`).json<Perfil>(),
    enabled: Boolean(id),
  });
  const error = tags.error ?? perfil.error;
  return (
    <div data-testid="perfil-form">
      <PageHeader
        title={id ? 'Editar perfil' : 'Novo perfil'}
        description={perfil.data?.nome}
        before={<Link href="/perfis">Voltar para Perfis</Link>}
      />
      {error ? (
        <Alert variant="error" title="Não foi possível carregar o perfil">
          {apiErrorMessage(error)}
        </Alert>
      ) : tags.data && (!id || perfil.data) ? (
        <PerfilForm key={`${id ?? 'novo'}:${perfil.data?.version ?? 0}`} perfil={perfil.data} declared={tags.data.items} />
      ) : (
        <PageLoading />
      )}
    </div>
  );
}
