// Verification codes of document PDFs (documents/verification.ts): the code, the canonical content
// hash (same content → same hash, whatever the key order or the generation time), and the footer line.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { canonicalJson, documentContentHash, formatVerificationCode, newVerificationCode, parseVerificationCode } from '../src/kit/documents/verification.js';
import { type PdfDocument, renderDocumentPdf } from '../src/formats/pdf.js';

const STANDARD_FONTS = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocument({ data: bytes.slice(), standardFontDataUrl: STANDARD_FONTS, isEvalSupported: false }).promise;
  const out: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    for (const item of (await (await pdf.getPage(n)).getTextContent()).items) if ('str' in item) out.push(item.str);
  }
  return out.join(' ').replace(/\s+/g, ' ');
}

const doc = (over: Partial<PdfDocument> = {}): PdfDocument => ({
  entidade: { nome: 'Prefeitura Municipal de Exemplo', cnpj: '46358021000184' },
  title: 'Requisição',
  numero: '8/2026',
  status: 'Aprovada',
  fields: [{ label: 'Solicitante', value: 'Ana' }],
  generatedAt: new Date('2026-11-27T12:41:00Z'),
  ...over,
});

describe('verification codes', () => {
  it('a code is 12 characters without I, O, 0 or 1, printed in groups of four and read back however it is typed', () => {
    const codes = new Set(Array.from({ length: 500 }, () => newVerificationCode()));
    expect(codes.size).toBe(500);
    for (const code of codes) expect(code).toMatch(/^[A-HJ-NP-Z2-9]{12}$/);
    expect(formatVerificationCode('ABCDEFGHJKLM')).toBe('ABCD-EFGH-JKLM');
    expect(parseVerificationCode('abcd efgh–jklm')).toBe('ABCDEFGHJKLM');
    expect(parseVerificationCode(' ABCD-EFGH-JKLM ')).toBe('ABCDEFGHJKLM');
    for (const bad of ['', 'ABCD-EFGH-JKL', 'ABCD-EFGH-JKLMN', 'ABCD-EFGH-JKL0', 'ABCD-EFGH-JKLI', "ABCD'--", '../../etc/passwd']) {
      expect(parseVerificationCode(bad)).toBeNull();
    }
  });

  it('the content hash: canonical JSON, blind to key order, generation time and the verification line; any printed change moves it', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 'x', c: undefined }, null] })).toBe('{"a":[{"d":"x"},null],"b":1}');
    const base = documentContentHash(doc());
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(documentContentHash(doc({ generatedAt: new Date() }))).toBe(base);
    expect(documentContentHash({ ...doc(), verification: { code: 'ABCD-EFGH-JKLM', url: 'http://x/verificar', hash: base } })).toBe(base);
    const reordered = {
      numero: '8/2026',
      title: 'Requisição',
      status: 'Aprovada',
      fields: [{ value: 'Ana', label: 'Solicitante' }],
      entidade: { cnpj: '46358021000184', nome: 'Prefeitura Municipal de Exemplo' },
    };
    expect(documentContentHash(reordered)).toBe(base);
    expect(documentContentHash(doc({ status: 'Em aprovação' }))).not.toBe(base);
    expect(documentContentHash(doc({ fields: [{ label: 'Solicitante', value: 'Ana ' }] }))).not.toBe(base);
  });

  it('the footer of every page prints the code, the verification address and the start of the hash; the subtitle under the title', async () => {
    const hash = documentContentHash(doc());
    const bytes = await renderDocumentPdf({
      ...doc({ subtitle: 'Documento de Formalização da Demanda (DFD)' }),
      verification: { code: 'ABCD-EFGH-JKLM', url: 'https://compras.exemplo.gov.br/verificar', hash },
    });
    const text = await pdfText(bytes);
    expect(text).toContain('Requisição nº 8/2026 Aprovada Documento de Formalização da Demanda (DFD)');
    expect(text).toContain(`Código de verificação: ABCD-EFGH-JKLM — confira em https://compras.exemplo.gov.br/verificar · SHA-256 ${hash.slice(0, 16)}`);
  });
});
