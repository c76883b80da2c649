// Test fixtures: centros de custo and products of the Prefeitura created with SQL, so each test
// controls who belongs to which centro (people come from @app/server-core/testing's createUser).
import produtosPlugin from '@app/produtos/server';
import registrosPlugin from '@app/registros/server';
import { type TestServer, withoutSeed } from '@app/server-core/testing';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import memorandosPlugin from '../../src/server/index.js';

export const plugins = [withoutSeed(registrosPlugin), withoutSeed(produtosPlugin), withoutSeed(memorandosPlugin)];

export interface Fixture {
  entidadeId: string;
  camaraId: string;
  /** Centros de custo: educação (origin of most tests), saúde (someone else's), compras (destination). */
  educacao: string;
  saude: string;
  compras: string;
  inativo: string;
  /** Products: papel, caneta, toner (active), antigo (inactive), and one of the Câmara. */
  papel: string;
  caneta: string;
  toner: string;
  antigo: string;
  daCamara: string;
}

export async function createFixture(server: TestServer): Promise<Fixture> {
  const { prefeitura, camara } = await server.demoEntidades();
  const insert = (table: string, values: Record<string, unknown>) => server.insert(table, values);
  const produto = async (entidade_id: string, codigo: string, descricao: string, ativo = true) => {
    const grupo = await insert('registros_grupos', { entidade_id, codigo: `G${codigo}`, nome: `Grupo ${codigo}` });
    const unidade = await insert('registros_unidades', { entidade_id, sigla: `U${codigo}`, descricao: `Unidade ${codigo}` });
    return insert('produtos', { entidade_id, codigo, descricao, tipo: 'material', grupo_id: grupo, unidade_id: unidade, ativo });
  };
  const entidade_id = prefeitura;
  return {
    entidadeId: entidade_id,
    camaraId: camara,
    educacao: await insert('registros_centros_custo', { entidade_id, codigo: '02', nome: 'Secretaria de Educação' }),
    saude: await insert('registros_centros_custo', { entidade_id, codigo: '03', nome: 'Secretaria de Saúde' }),
    compras: await insert('registros_centros_custo', { entidade_id, codigo: '01.01', nome: 'Compras e Licitações' }),
    inativo: await insert('registros_centros_custo', { entidade_id, codigo: '09', nome: 'Extinto', ativo: false }),
    papel: await produto(entidade_id, '000001', 'Papel sulfite A4, resma 500 folhas'),
    caneta: await produto(entidade_id, '000002', 'Caneta esferográfica azul'),
    toner: await produto(entidade_id, '000003', 'Toner para impressora laser'),
    antigo: await produto(entidade_id, '000004', 'Disquete 3,5"', false),
    daCamara: await produto(camara, '000001', 'Papel sulfite A4 da Câmara'),
  };
}

const STANDARD_FONTS = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** The text of every page of a PDF, in reading order, spaces collapsed. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocument({ data: bytes.slice(), standardFontDataUrl: STANDARD_FONTS, isEvalSupported: false }).promise;
  const out: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    for (const item of content.items) if ('str' in item) out.push(item.str);
  }
  return out.join(' ').replace(/\s+/g, ' ');
}
