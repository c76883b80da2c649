// The view of a resource form: header, notices, the fields by section, the action bar, the plugin's
// slots and the confirmations. State and saving live in the controller.
import { Alert, Button, Card, ConfirmDialog, PageHeader, PageLoading } from '@app/ui';
import { Fragment, useState } from 'react';
import { Link } from 'wouter';
import { apiErrorMessage, apiErrorStatus } from '../../api';
import { listHref, recordLabel } from '../common';
import type { FieldDescriptor, RecordSlotContext } from '../types';
import { type FormController, nounOf } from './controller';
import { FormField } from './FormField';
import { fieldId } from './registry';
import { renderSlot } from './slots';
import { isVisible, labelOf, typeLookup } from './values';

type Row = Record<string, unknown>;

/** Consecutive fields with the same `section` go in one card. */
function sections(fields: FieldDescriptor[]): { section: string | undefined; fields: FieldDescriptor[] }[] {
  const out: { section: string | undefined; fields: FieldDescriptor[] }[] = [];
  for (const field of fields) {
    const last = out[out.length - 1];
    if (last && last.section === field.section) last.fields.push(field);
    else out.push({ section: field.section, fields: [field] });
  }
  return out;
}

const capitalize = (text: string) => text.charAt(0).toLocaleUpperCase('pt-BR') + text.slice(1);

export function FormView({ form }: { form: FormController }) {
  const { config, mode, id, item, values, record, errors } = form;
  const [confirm, setConfirm] = useState<'excluir' | 'desativar' | null>(null);
  const types = typeLookup(config);

  // A record that cannot be changed is not "Editar …": 'Editar memorando' reads 'Memorando' then.
  const title =
    mode === 'new'
      ? config.newTitle
      : form.readOnly && /^Editar\s/.test(config.editTitle)
        ? capitalize(config.editTitle.replace(/^Editar\s+/, ''))
        : config.editTitle;
  const back = (
    <Link href={listHref(config)} className="button button--ghost button--sm">
      ← Voltar para {config.title}
    </Link>
  );

  if (mode === 'edit' && item.isError && !record) {
    return (
      <div data-testid="resource-form">
        <PageHeader title={title} before={back} />
        <Alert variant="error" title={apiErrorStatus(item.error) === 404 ? 'Registro não encontrado.' : 'Não foi possível carregar o registro.'}>
          {apiErrorStatus(item.error) === 404 ? 'Ele pode ter sido excluído ou pertencer a outra entidade.' : apiErrorMessage(item.error)}
        </Alert>
      </div>
    );
  }
  if (mode === 'edit' && !record) return <PageLoading />;

  const hasAtivo = config.ativo !== false;
  const ativo = record?.ativo !== false;
  const name = record ? recordLabel(config, record) : '';
  const readOnly = form.readOnly;
  const ctx: RecordSlotContext<Row> | null = record
    ? { record, dirty: form.dirty, reload: form.reload, setRecord: form.setRecord, goToList: form.goToList }
    : null;

  const renderGrid = (fields: FieldDescriptor[]) => (
    <div className="form-grid">
      {fields.map((field) => (
        <Fragment key={field.name}>
          <FormField
            types={types}
            field={field}
            path={field.name}
            id={fieldId(field.name)}
            label={labelOf(field, values)}
            value={values[field.name]}
            error={errors[field.name]}
            errors={errors}
            values={values}
            record={record}
            selfId={id}
            readOnly={Boolean(readOnly) || Boolean(field.readOnlyWhen?.(values, record))}
            onChange={(value, clear) => form.setValue(field.name, value, clear)}
            onUpdate={(update, clear) => form.updateValue(field.name, update, clear)}
            onPatch={form.patchValues}
          />
        </Fragment>
      ))}
    </div>
  );

  const description =
    mode === 'edit' && record ? (config.describe ? config.describe(record) : hasAtivo ? `${name} · ${ativo ? 'Ativo' : 'Inativo'}` : name) : config.description;

  return (
    <div data-testid="resource-form">
      <PageHeader
        title={title}
        description={description}
        before={back}
        actions={mode === 'edit' && record && ctx ? renderSlot(config.slots?.actions, record, ctx) : undefined}
      />
      {form.stale ? (
        <Alert
          variant="warning"
          title="Registro alterado por outra pessoa"
          actions={
            <Button variant="primary" size="sm" loading={item.isFetching} onClick={() => void form.reload()}>
              Recarregar
            </Button>
          }
        >
          {form.stale} Suas alterações não salvas serão descartadas.
        </Alert>
      ) : null}
      {readOnly ? <Alert variant="info" title={readOnly} /> : null}
      {mode === 'edit' && record && ctx ? renderSlot(config.slots?.notices, record, ctx) : null}
      {form.formError ? <Alert variant="error" title={form.formError} /> : null}
      <form noValidate onSubmit={form.submit} aria-label={title}>
        {sections(config.fields.filter((field) => isVisible(field, values))).map(({ section, fields }, i) =>
          section ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: runs of fields in the declared order
            <Card key={i} title={section}>
              {renderGrid(fields)}
            </Card>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: runs of fields in the declared order
            <Fragment key={i}>{renderGrid(fields)}</Fragment>
          ),
        )}
        <div className="form-actions">
          {mode === 'edit' && !readOnly && !config.noDelete ? (
            <Button variant="danger" icon="trash" onClick={() => setConfirm('excluir')} style={{ marginInlineEnd: 'auto' }}>
              Excluir
            </Button>
          ) : null}
          {mode === 'edit' && hasAtivo && !config.noToggle ? (
            ativo ? (
              <Button variant="secondary" onClick={() => setConfirm('desativar')}>
                Desativar
              </Button>
            ) : (
              <Button variant="secondary" loading={form.toggle.isPending} onClick={() => form.toggle.mutate('ativar')}>
                Ativar
              </Button>
            )
          ) : null}
          {readOnly ? null : (
            <>
              {/* not 'Cancelar': a document's header has a 'Cancelar' that cancels the document */}
              <Link href={listHref(config)} className="button button--secondary">
                Sair sem salvar
              </Link>
              <Button type="submit" loading={form.saving}>
                Salvar
              </Button>
            </>
          )}
        </div>
      </form>
      {mode === 'edit' && record && ctx ? renderSlot(config.slots?.panels, record, ctx) : null}
      {form.guardDialog}
      <ConfirmDialog
        open={confirm === 'excluir'}
        onOpenChange={(open) => (open ? undefined : setConfirm(null))}
        title={config.messages?.deleteTitle ?? 'Excluir este registro?'}
        description={
          <p>
            <strong>{name}</strong> {nounOf(config).feminine ? 'será excluída' : 'será excluído'} definitivamente.{' '}
            {config.messages?.deleteNote ?? 'Registros em uso não podem ser excluídos: desative-os.'}
          </p>
        }
        confirmLabel="Excluir"
        tone="danger"
        // the outcome (a toast) is the mutation's; the dialog closes either way
        onConfirm={() => form.remove.mutateAsync().catch(() => undefined)}
      />
      <ConfirmDialog
        open={confirm === 'desativar'}
        onOpenChange={(open) => (open ? undefined : setConfirm(null))}
        title="Desativar este registro?"
        description={
          <p>
            <strong>{name}</strong> deixa de aparecer nas listas de escolha, mas continua nos documentos que já o usam.
          </p>
        }
        confirmLabel="Desativar"
        onConfirm={() => form.toggle.mutateAsync('desativar').catch(() => undefined)}
      />
    </div>
  );
}
