import { describe, expect, it } from 'vitest';
import { defineFlow, formatNumero, parseNumero, reasonSchema, reasonSchemaOf, transitionBodySchema } from '../src';

const fluxo = defineFlow({
  initial: 'rascunho',
  states: {
    rascunho: { label: 'Rascunho', editable: true },
    enviado: { label: 'Enviado' },
    devolvido: { label: 'Devolvido', editable: true },
    aceito: { label: 'Aceito' },
    cancelado: { label: 'Cancelado' },
  },
  transitions: {
    enviar: { from: ['rascunho', 'devolvido'], to: 'enviado', label: 'Enviar', who: ['origem'], done: 'enviado' },
    aceitar: { from: ['enviado'], to: 'aceito', label: 'Aceitar', who: ['destino'], done: 'aceito' },
    devolver: { from: ['enviado'], to: 'devolvido', label: 'Devolver', reason: true, who: ['destino'], done: 'devolvido' },
    cancelar: { from: ['rascunho', 'devolvido'], to: 'cancelado', label: 'Cancelar', reason: true, done: 'cancelado' },
  },
});

describe('defineFlow', () => {
  it('answers 409 for a state that does not allow the transition, 403 for a person who may not', () => {
    const origem = new Set(['origem']);
    expect(fluxo.check('enviar', 'rascunho', origem)).toEqual({ ok: true });
    expect(fluxo.check('enviar', 'aceito', origem)).toEqual({
      ok: false,
      status: 409,
      message: 'Não é possível enviar: o documento está aceito.',
    });
    expect(fluxo.check('aceitar', 'enviado', origem)).toEqual({
      ok: false,
      status: 403,
      message: 'Você não pode aceitar este documento.',
    });
    expect(fluxo.check('cancelar', 'devolvido', new Set())).toEqual({ ok: true });
  });
  it('lists what a person may do now', () => {
    expect(fluxo.available('enviado', new Set(['destino']))).toEqual(['aceitar', 'devolver']);
    expect(fluxo.available('enviado', new Set(['origem']))).toEqual([]);
    expect(fluxo.available('devolvido', new Set(['origem']))).toEqual(['enviar', 'cancelar']);
  });
  it('knows editable states and labels', () => {
    expect(fluxo.isEditable('rascunho')).toBe(true);
    expect(fluxo.isEditable('enviado')).toBe(false);
    expect(fluxo.isEditable('toString')).toBe(false);
    expect(fluxo.stateLabel('devolvido')).toBe('Devolvido');
    expect(fluxo.isTransition('constructor')).toBe(false);
    expect(fluxo.isTransition('enviar')).toBe(true);
  });
  it('segregation: an author never performs an independent transition; a draft is sent or cancelled by its authors only', () => {
    const seg = defineFlow({
      initial: 'rascunho',
      states: {
        rascunho: { label: 'Rascunho', editable: true },
        enviada: { label: 'Enviada' },
        aprovada: { label: 'Aprovada' },
        cancelada: { label: 'Cancelada' },
      },
      transitions: {
        enviar: { from: ['rascunho'], to: 'enviada', label: 'Enviar', who: ['editor'], done: 'enviada', authoring: true },
        aprovar: { from: ['enviada'], to: 'aprovada', label: 'Aprovar', who: ['aprovador'], done: 'aprovada', independent: true },
        devolver: { from: ['enviada'], to: 'rascunho', label: 'Devolver', reason: true, who: ['aprovador'], done: 'devolvida', independent: true },
        cancelar: { from: ['rascunho'], to: 'cancelada', label: 'Cancelar', reason: true, who: ['editor'], done: 'cancelada' },
      },
    });
    const documento = { nome: 'requisição', feminino: true };
    const autor = { author: true, mayEditDraft: true, documento };
    const alheio = { author: false, mayEditDraft: false, documento };
    const roles = new Set(['editor', 'aprovador']);
    expect(seg.check('aprovar', 'enviada', roles, autor)).toEqual({
      ok: false,
      status: 403,
      code: 'segregacao',
      message: 'Quem escreveu, alterou ou enviou esta requisição não pode aprová-la (segregação de funções).',
    });
    // the reason of segregation comes first, even without the role
    expect(seg.check('devolver', 'enviada', new Set(), autor)).toMatchObject({ status: 403, message: expect.stringContaining('não pode devolvê-la') });
    expect(seg.available('enviada', roles, autor)).toEqual([]);
    expect(seg.available('enviada', roles, alheio)).toEqual(['aprovar', 'devolver']);
    expect(seg.available('rascunho', roles, alheio)).toEqual([]);
    expect(seg.check('enviar', 'rascunho', roles, alheio)).toMatchObject({ status: 403, code: 'rascunho_alheio' });
    expect(seg.available('rascunho', roles, autor)).toEqual(['enviar', 'cancelar']);
    // without authorship (callers that do not know it) only `who` applies
    expect(seg.available('enviada', roles)).toEqual(['aprovar', 'devolver']);
    expect(seg.cancelTransitions()).toEqual(['cancelar']);
    expect(fluxo.cancelTransitions()).toEqual(['cancelar']);
    expect(() =>
      defineFlow({
        initial: 'a',
        states: { a: { label: 'A' } },
        transitions: { ir: { from: ['a'], to: 'a', label: 'Ir', done: 'ido', independent: true, authoring: true } },
      }),
    ).toThrow(/both independent and authoring/);
  });
  it('refuses a flow that names an undeclared state', () => {
    expect(() =>
      defineFlow({
        initial: 'a',
        states: { a: { label: 'A' } },
        // @ts-expect-error 'b' is not a state
        transitions: { ir: { from: ['a'], to: 'b', label: 'Ir', done: 'ido' } },
      }),
    ).toThrow(/undeclared state 'b'/);
  });
  it('reads the transition body', () => {
    expect(transitionBodySchema.parse({ version: 3, motivo: '  falta a cotação ' })).toEqual({ version: 3, motivo: 'falta a cotação' });
    expect(transitionBodySchema.parse({ version: 3 })).toEqual({ version: 3, motivo: null });
    expect(transitionBodySchema.safeParse({ motivo: 'x' }).success).toBe(false);
  });
  it('reads a reason of at least the minimum length (reasonMin)', () => {
    expect(reasonSchema.safeParse('abc').success).toBe(true);
    const dez = reasonSchemaOf(10);
    const curto = dez.safeParse('  curto  ');
    expect(curto.success).toBe(false);
    expect(curto.error?.issues[0]?.message).toBe('Informe o motivo (ao menos 10 caracteres).');
    expect(dez.parse(' falta a dotação ')).toBe('falta a dotação');
  });
});

describe('numbers', () => {
  it('formats and reads 12/2026', () => {
    expect(formatNumero(12, 2026)).toBe('12/2026');
    expect(formatNumero(null, 2026)).toBe('');
    expect(parseNumero(' 12/2026 ')).toEqual({ numero: 12, ano: 2026 });
    expect(parseNumero('12-2026')).toEqual({ numero: 12, ano: 2026 });
    expect(parseNumero('papel')).toBeNull();
  });
});
