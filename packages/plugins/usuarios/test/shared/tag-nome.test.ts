// Names of tags in the perfil checklist when no enabled plugin declares them (KNOWN_TAG_NAMES).
import { describe, expect, it } from 'vitest';
import { tagNome } from '../../src/shared/index.js';

describe('tagNome', () => {
  it("names tag 40 (the document kit's 'other people's drafts') without a declaring plugin; a declared name wins", () => {
    expect(tagNome(40)).toBe('Editar rascunhos de outras pessoas');
    expect(tagNome(29, [{ tag: 29, nome: 'Memorandos (DFD)', plugins: ['memorandos'] }])).toBe('Memorandos (DFD)');
    expect(tagNome(12345)).toBe('Tag 12345');
  });
});
