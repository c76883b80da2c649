// The kit's one-value field types: text, textarea, number, checkbox, masked, document, date, datetime, select, multiselect.
import { maskCpfCnpjInput, normalizeDocument } from '@app/br';
import { CheckboxField, SelectField, TextareaField, TextField } from '@app/ui';
import { useResourceOptions } from '../../common';
import type { FieldDescriptor, MaskPreset, ScalarFieldDescriptor } from '../../types';
import type { FieldRenderProps } from '../registry';
import { isPreset, maskValue } from '../values';

type SourceField = Extract<FieldDescriptor, { source: unknown; type: 'select' | 'multiselect' }>;

function SourceSelect({ field, id, label, value, error, values, selfId, readOnly, onChange }: FieldRenderProps<SourceField>) {
  const current = field.type === 'multiselect' ? ((value as string[]) ?? []) : value ? [String(value)] : [];
  const { options, loading, error: loadError, truncated } = useResourceOptions(field.source, values, current, selfId);
  const hint = loadError ? 'Não foi possível carregar as opções.' : truncated ? 'Mostrando as 200 primeiras opções.' : field.hint;
  if (field.type === 'multiselect') {
    const selected = new Set(current);
    return (
      <fieldset className="field" aria-describedby={error ? `${id}-erro` : undefined} style={{ gridColumn: '1 / -1', border: 0, padding: 0, margin: 0 }}>
        <legend className="field__label">
          {label}
          {field.required ? (
            <span className="field__required" aria-hidden="true">
              {' '}
              *
            </span>
          ) : null}
        </legend>
        {hint ? <p className="field__hint">{hint}</p> : null}
        {loading ? <p className="field__hint">Carregando…</p> : null}
        <div id={id} tabIndex={-1} style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(16rem, 1fr))', gap: '0.25rem 1rem' }}>
          {options.map((o) => (
            <CheckboxField
              key={o.value}
              label={o.label}
              checked={selected.has(o.value)}
              disabled={readOnly}
              onChange={(e) => {
                const next = new Set(selected);
                if (e.target.checked) next.add(o.value);
                else next.delete(o.value);
                onChange(options.map((opt) => opt.value).filter((v) => next.has(v)));
              }}
            />
          ))}
        </div>
        {error ? (
          <p id={`${id}-erro`} className="field__error">
            {error}
          </p>
        ) : null}
      </fieldset>
    );
  }
  return (
    <SelectField
      id={id}
      label={label}
      hint={hint}
      error={error}
      required={field.required}
      disabled={readOnly}
      value={String(value ?? '')}
      placeholder={field.placeholder ?? (loading ? 'Carregando…' : 'Selecione…')}
      options={options}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/** 'Pessoa física.' / 'Pessoa jurídica.' once a document has the length of a CPF / CNPJ. */
function tipoPessoaHint(value: unknown): string | undefined {
  const doc = normalizeDocument(String(value ?? '')).replace(/[^0-9A-Z]/g, '');
  if (doc.length === 11 && /^\d+$/.test(doc)) return 'Pessoa física.';
  if (doc.length === 14) return 'Pessoa jurídica.';
  return undefined;
}

const PRESET_PLACEHOLDER: Record<MaskPreset, string> = { cep: '00000-000', telefone: '(00) 00000-0000' };

/** A field holding one value (every `ScalarFieldDescriptor` type but 'reference'). */
export function ScalarField(props: FieldRenderProps<ScalarFieldDescriptor>) {
  const { field, id, label, value, error, readOnly, onChange } = props;
  const common = {
    id,
    label,
    hint: field.hint,
    error,
    required: field.required,
    placeholder: field.placeholder,
    readOnly,
  };
  const wide = field.wide || field.type === 'textarea' ? { style: { gridColumn: '1 / -1' } } : {};
  switch (field.type) {
    case 'textarea':
      return (
        <div {...wide}>
          <TextareaField {...common} rows={field.rows} maxLength={field.maxLength} value={String(value ?? '')} onChange={(e) => onChange(e.target.value)} />
        </div>
      );
    case 'checkbox':
      return (
        <div style={{ alignSelf: 'end' }}>
          <CheckboxField
            id={id}
            label={label}
            hint={field.hint}
            error={error}
            checked={value === true}
            disabled={readOnly}
            onChange={(e) => onChange(e.target.checked)}
          />
        </div>
      );
    case 'number':
      return <TextField {...common} inputMode="decimal" value={String(value ?? '')} onChange={(e) => onChange(e.target.value.replace(/[^\d,.-]/g, ''))} />;
    case 'masked': {
      const preset = isPreset(field.mask) ? field.mask : null;
      return (
        <TextField
          {...common}
          type={preset === 'telefone' ? 'tel' : 'text'}
          inputMode={field.inputMode ?? (preset || /^[9\W]*$/.test(field.mask) ? 'numeric' : 'text')}
          maxLength={preset ? PRESET_PLACEHOLDER[preset].length : field.mask.length}
          placeholder={field.placeholder ?? (preset ? PRESET_PLACEHOLDER[preset] : field.mask.replace(/9/g, '0'))}
          value={String(value ?? '')}
          onChange={(e) => onChange(maskValue(field.mask, e.target.value))}
        />
      );
    }
    case 'document':
      return (
        <TextField
          {...common}
          hint={tipoPessoaHint(value) ?? field.hint ?? 'Com ou sem máscara; o CNPJ pode ter letras (ex.: 12.ABC.345/01DE-35).'}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          value={String(value ?? '')}
          onChange={(e) => onChange(maskCpfCnpjInput(e.target.value))}
        />
      );
    case 'date':
      return <TextField {...common} type="date" min={field.min} max={field.max} value={String(value ?? '')} onChange={(e) => onChange(e.target.value)} />;
    case 'datetime':
      return (
        <TextField {...common} type="datetime-local" min={field.min} max={field.max} value={String(value ?? '')} onChange={(e) => onChange(e.target.value)} />
      );
    case 'select':
      if ('source' in field) return <SourceSelect {...props} field={field} />;
      return (
        <SelectField
          id={id}
          label={label}
          hint={field.hint}
          error={error}
          required={field.required}
          disabled={readOnly}
          placeholder={field.placeholder ?? 'Selecione…'}
          options={field.options}
          value={String(value ?? '')}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    case 'multiselect':
      return <SourceSelect {...props} field={field} />;
    case 'reference':
      // rendered by ReferenceField
      return null;
    default:
      return (
        <div {...wide}>
          <TextField
            {...common}
            type={field.inputType ?? 'text'}
            maxLength={field.maxLength}
            autoComplete={field.autoComplete ?? 'off'}
            style={field.uppercase ? { textTransform: 'uppercase' } : undefined}
            value={String(value ?? '')}
            onChange={(e) => onChange(e.target.value)}
          />
        </div>
      );
  }
}
