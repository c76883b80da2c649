import {
  apiErrorMessage,
  issuesToFieldErrors,
  toast,
  useApi,
  useMutation,
  useQuery,
  useQueryClient,
  useSession,
  useUnsavedChangesGuard,
} from '@app/core';
import { Alert, Button, Card, CheckboxField, PageHeader, PageLoading, TextField } from '@app/ui';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { isExemptTag, MENSAGENS, type Perfil, perfilBodySchema, type TagInfo } from '../../shared/index';
import { type FieldErrors, INVALID_MESSAGE, saveError, sortedIds } from '../forms';
import { type SaveProblem, SaveProblemAlert } from '../SaveProblemAlert';
import { tagOptions } from '../tags';

/** What the form would save (order-free): differs from the loaded one when there are unsaved changes. */
const snapshot = (nome: string, tags: readonly number[], todosCentros: boolean) => JSON.stringify([nome, sortedIds(tags), todosCentros]);

function PerfilForm({
  perfil,
  declared,
  onDirty,
  leave,
}: {
  perfil?: Perfil;
  declared: TagInfo[];
  /** Whether there are unsaved changes (the page's guard asks before leaving). */
  onDirty: (dirty: boolean) => void;
  /** Navigates away in code (past the page's guard). */
  leave: (to: string) => void;
}) {
  const api = useApi();
  const session = useSession();
  const queryClient = useQueryClient();
  const [nome, setNome] = useState(perfil?.nome ?? '');
  const [tags, setTags] = useState<number[]>(() => (perfil?.tags ?? []).filter((t) => !isExemptTag(t)));
  const [todosCentros, setTodosCentros] = useState(perfil?.todosCentros ?? false);
  const [baseline] = useState(() => snapshot(nome, tags, todosCentros));
  const dirty = snapshot(nome, tags, todosCentros) !== baseline;
  useEffect(() => onDirty(dirty), [dirty, onDirty]);
  // as with tags: only who sees every centro gives that access (an access the perfil already has can be kept or removed)
  const podeDarTodos = session?.todosCentros === true || perfil?.todosCentros === true;
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<SaveProblem | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const options = tagOptions(declared, perfil?.tags ?? [], session?.tags ?? []);

  const done = async (message: string) => {
    await queryClient.invalidateQueries({ queryKey: ['usuarios'] });
    toast.success(message);
    leave('/perfis');
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
      setErrors(issuesToFieldErrors(parsed.error.issues));
      setProblem({ message: INVALID_MESSAGE, stale: false });
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
  const [, navigate] = useLocation();
  const { id } = useParams<{ id?: string }>();
  // the guard lives here, not in the form: the form is mounted again on each version (after 'Recarregar')
  const [dirty, setDirty] = useState(false);
  const guard = useUnsavedChangesGuard(dirty);
  const leave = (to: string) => navigate(to, { replace: guard.release() });
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
        <PerfilForm
          key={`${id ?? 'novo'}:${perfil.data?.version ?? 0}`}
          perfil={perfil.data}
          declared={tags.data.items}
          onDirty={setDirty}
          leave={leave}
        />
      ) : (
        <PageLoading />
      )}
      {guard.dialog}
    </div>
  );
}
