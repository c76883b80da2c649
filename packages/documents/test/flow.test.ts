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
