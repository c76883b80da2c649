import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakePncp, startFakePncp } from '../src';
import { CNPJ, call, createPlan, item, items, login } from './helpers';

let fake: FakePncp;
let token: string;
beforeEach(async () => {
  fake = await startFakePncp();
  token = await login(fake);
});
afterEach(async () => {
  await fake.close();
});

const plan = `/v1/orgaos/${CNPJ}/pca/2027/1`;

describe('insert and read back', () => {
  it('takes 2 500 items in 3 batches (1 000 + 1 000 + 500) and reads them back', async () => {
    const before = await call(fake, 'GET', `/v1/orgaos/${CNPJ}/pca/1/2027/sequenciaisplano`);
    expect(before.status).toBe(404);
    expect((await before.json()).erros[0].nomeCampo).toBe('codigoUnidade');

    const created = await createPlan(fake, token, items(1, 1000));
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`${fake.url}/api/pncp/v1/orgaos/${CNPJ}/pca/2027/1`);
    expect(await created.text()).toBe('');

    const second = await call(fake, 'POST', `${plan}/itens`, token, items(1001, 2000));
    expect(second.status).toBe(201);
    const urls = (await second.json()) as string[];
    expect(urls).toHaveLength(1000);
    expect(urls[0]).toBe(`${fake.url}/api/pncp${plan}/itens/1001`);
    expect(urls[999]).toBe(`${fake.url}/api/pncp${plan}/itens/2000`);
    const third = await call(fake, 'POST', `${plan}/itens`, token, items(2001, 2500));
    expect(third.status).toBe(201);
    expect(await third.json()).toHaveLength(500);

    const numbers: number[] = [];
    for (let pagina = 1; pagina <= 4; pagina++) {
      const res = await call(fake, 'GET', `${plan}/itens?pagina=${pagina}&tamanhoPagina=1000`);
      expect(res.status).toBe(200);
      const page = (await res.json()) as { numeroItem: number }[];
      expect(Array.isArray(page)).toBe(true);
      expect(page.length).toBe([1000, 1000, 500, 0][pagina - 1]);
      numbers.push(...page.map((i) => i.numeroItem));
    }
    expect(numbers).toEqual(Array.from({ length: 2500 }, (_, i) => i + 1));

    const quantidade = await call(fake, 'GET', `${plan}/itens/quantidade`);
    expect(await quantidade.json()).toBe(2500);

    const seqs = await call(fake, 'GET', `/v1/orgaos/${CNPJ}/pca/1/2027/sequenciaisplano`);
    expect(await seqs.json()).toEqual({ sequencialPlano: 1, sequencialUltimoItemInserido: 2500 });

    const consolidado = await call(fake, 'GET', `${plan}/consolidado`);
    const body = await consolidado.text();
    // 2 500 × 75.9999 summed exactly, written as the exact decimal.
    expect(body).toContain('"valorTotal":189999.75');
    expect(JSON.parse(body)).toMatchObject({
      cnpj: CNPJ,
      codigoUnidade: '1',
      anoPca: 2027,
      numeroControlePNCP: `${CNPJ}-0-000001/2027`,
      quantidade: 2500,
      usuario: 'compras-treina',
      municipio: 'Jundiaí',
      uf: 'SP',
    });

    const state = fake.plans(CNPJ);
    expect(state).toHaveLength(1);
    expect(state[0]?.itens).toHaveLength(2500);
    expect(state[0]?.itens[0]?.body).toEqual(item(1));
    expect(state[0]?.itens[0]?.decimalsSentAsNumbers).toEqual([]);
    expect(fake.plans('00000000000000')).toEqual([]);
  });

  it('reads items back with the PNCP read-back fields and exact decimals', async () => {
    await createPlan(fake, token, [item(1, { valorUnitario: '10.5000', quantidade: '002', valorTotal: '21.0000', categoriaItemPca: 2 })]);
    const res = await call(fake, 'GET', `${plan}/itens?pagina=1&tamanhoPagina=10`);
    const raw = await res.text();
    expect(raw).toContain('"valorUnitario":10.5000');
    expect(raw).toContain('"valorTotal":21.0000');
    expect(raw).toContain('"quantidade":2,'); // '002' as received is stored; the JSON number has no leading zeros
    const [read] = JSON.parse(raw) as Record<string, unknown>[];
    expect(read).toMatchObject({
      numeroItem: 1,
      cnpj: CNPJ,
      codigoUnidade: '1',
      anoPca: 2027,
      sequencialPca: 1,
      categoriaItemPcaId: 2,
      categoriaItemPcaNome: 'Serviço',
      catalogoId: 1,
      nomeCatalogo: 'CNBS',
      classificacaoCatalogoId: 1,
      nomeClassificacao: 'Material',
      unidadeFornecimento: 'Resma',
      dataDesejada: '2027-03-15',
    });
    expect(read?.dataInclusao).toBe(new Date(fake.clock.now()).toISOString().slice(0, 19));
    const filtered = await call(fake, 'GET', `${plan}/itens/quantidade?categoria=1`);
    expect(await filtered.json()).toBe(0);
  });

  it('numbers plans per CNPJ and year; a deleted plan frees its unit and year', async () => {
    const two = await startFakePncp({ orgaos: [{ cnpj: CNPJ, unidades: ['1', '2'] }] });
    try {
      const t = await login(two);
      const location = async (res: Response) => {
        expect(res.status).toBe(201);
        return res.headers.get('location')?.replace(`${two.url}/api/pncp/v1/orgaos/${CNPJ}/pca/`, '');
      };
      expect(await location(await createPlan(two, t, items(1, 1)))).toBe('2027/1');
      expect(await location(await createPlan(two, t, items(1, 1), { codigoUnidade: '2' }))).toBe('2027/2');
      expect(await location(await createPlan(two, t, items(1, 1), { anoPca: 2028 }))).toBe('2028/1');

      const dup = await createPlan(two, t, items(1, 1));
      expect(dup.status).toBe(422);
      expect(await dup.json()).toEqual({
        erros: [{ nomeCampo: 'anoPca', mensagem: 'Já existe plano de contratações da unidade 1 para o ano 2027 (sequencial 1).' }],
      });

      const del = await call(two, 'DELETE', `/v1/orgaos/${CNPJ}/pca/2027/1`, t, { justificativa: 'Plano enviado em duplicidade.' });
      expect(del.status).toBe(200);
      expect((await call(two, 'GET', `/v1/orgaos/${CNPJ}/pca/1/2027/sequenciaisplano`)).status).toBe(404);
      expect((await call(two, 'GET', `/v1/orgaos/${CNPJ}/pca/2027/1/itens`)).status).toBe(404);
      expect(await location(await createPlan(two, t, items(1, 1)))).toBe('2027/3');
      expect(two.plans().map((p) => [p.codigoUnidade, p.anoPca, p.sequencial, p.excluido, p.justificativaExclusao])).toEqual([
        ['1', 2027, 1, true, 'Plano enviado em duplicidade.'],
        ['2', 2027, 2, false, undefined],
        ['1', 2028, 1, false, undefined],
        ['1', 2027, 3, false, undefined],
      ]);
      expect((await call(two, 'DELETE', `/v1/orgaos/${CNPJ}/pca/2027/1`, t, { justificativa: 'De novo.' })).status).toBe(404);
    } finally {
      await two.close();
    }
  });
});

describe('validation', () => {
  const erros = async (res: Response) => {
    expect(res.status).toBe(400);
    return ((await res.json()) as { erros: { nomeCampo: string; mensagem: string }[] }).erros;
  };

  it('answers 400 erros[] with nomeCampo for each bad item field, and stores nothing', async () => {
    const bad = [
      item(1),
      item(2, { categoriaItemPca: '9' }),
      item(3, { valorUnitario: '10.12345' }),
      item(4, { unidadeFornecimento: undefined, catalogo: 3, classificacaoCatalogo: 'x' }),
      item(5, { dataDesejada: '2027-02-30', quantidade: '-1', descricao: 'x'.repeat(2049) }),
      item(6, { valorTotal: 0.1 + 0.2, valorOrcamentoExercicio: '1e3' }),
      item(7, { classificacaoSuperiorNome: '   ', pdmCodigo: 12 }),
    ];
    const list = await erros(await createPlan(fake, token, bad));
    expect(list.map((e) => e.nomeCampo)).toEqual([
      'itensPlano[1].categoriaItemPca',
      'itensPlano[2].valorUnitario',
      'itensPlano[3].unidadeFornecimento',
      'itensPlano[3].catalogo',
      'itensPlano[3].classificacaoCatalogo',
      'itensPlano[4].descricao',
      'itensPlano[4].quantidade',
      'itensPlano[4].dataDesejada',
      'itensPlano[5].valorTotal',
      'itensPlano[5].valorOrcamentoExercicio',
      'itensPlano[6].classificacaoSuperiorNome',
      'itensPlano[6].pdmCodigo',
    ]);
    expect(list[0]?.mensagem).toBe('Valor inválido; valores aceitos: 1, 2, 3, 4, 5, 6, 7, 8.');
    expect(list[1]?.mensagem).toBe('Valor deve ser um número maior ou igual a zero com no máximo 13 dígitos inteiros e 4 casas decimais.');
    expect(list[2]?.mensagem).toBe('Campo obrigatório.');
    expect(fake.plans()).toEqual([]);
  });

  it('checks the plan fields and the 1..1000 item limit', async () => {
    const list = await erros(await call(fake, 'POST', `/v1/orgaos/${CNPJ}/pca`, token, { codigoUnidade: '', anoPca: '2027', itensPlano: [] }));
    expect(list.map((e) => e.nomeCampo)).toEqual(['codigoUnidade', 'anoPca', 'itensPlano']);
    expect((await erros(await createPlan(fake, token, items(1, 1001))))[0]).toEqual({ nomeCampo: 'itensPlano', mensagem: 'Informe de 1 a 1000 itens.' });
    const notJson = await fetch(`${fake.url}/api/pncp/v1/orgaos/${CNPJ}/pca`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: '{"codigoUnidade":',
    });
    expect((await erros(notJson))[0]?.nomeCampo).toBe('corpo');
  });

  it('accepts codes as strings or numbers and decimals as strings or numbers, flagging numbers', async () => {
    const res = await createPlan(fake, token, [
      item(1, { categoriaItemPca: 8, catalogo: 2, classificacaoCatalogo: 2, quantidade: 2, valorUnitario: 10.25, valorTotal: '20.5' }),
    ]);
    expect(res.status).toBe(201);
    const [stored] = fake.plans()[0]?.itens ?? [];
    expect(stored?.body.valorUnitario).toBe(10.25);
    expect(stored?.decimalsSentAsNumbers).toEqual(['quantidade', 'valorUnitario']);
  });

  it('requires numeroItem unique and increasing within the plan', async () => {
    const list = await erros(await createPlan(fake, token, [item(1), item(3), item(2), item(3), item(0)]));
    expect(list).toEqual([
      { nomeCampo: 'itensPlano[2].numeroItem', mensagem: 'Número do item deve ser único e sequencial crescente: 2 não é maior que 3.' },
      { nomeCampo: 'itensPlano[3].numeroItem', mensagem: 'Número do item 3 já utilizado no plano.' },
      { nomeCampo: 'itensPlano[4].numeroItem', mensagem: 'Número do item deve ser um inteiro positivo.' },
    ]);
    expect((await createPlan(fake, token, items(1, 10))).status).toBe(201);
    const used = await erros(await call(fake, 'POST', `${plan}/itens`, token, [item(11), item(10)]));
    expect(used).toEqual([{ nomeCampo: 'itens[1].numeroItem', mensagem: 'Número do item 10 já utilizado no plano.' }]);
    // A deleted item's number stays used.
    await call(fake, 'DELETE', `${plan}/itens/10`, token, { justificativa: 'Item cancelado.' });
    expect((await erros(await call(fake, 'POST', `${plan}/itens`, token, [item(10)])))[0]?.mensagem).toBe('Número do item 10 já utilizado no plano.');
    expect((await call(fake, 'POST', `${plan}/itens`, token, [item(11), item(15)])).status).toBe(201);
    expect(await (await call(fake, 'GET', `/v1/orgaos/${CNPJ}/pca/1/2027/sequenciaisplano`)).json()).toEqual({
      sequencialPlano: 1,
      sequencialUltimoItemInserido: 15,
    });
    expect(await erros(await call(fake, 'POST', `${plan}/itens`, token, []))).toEqual([{ nomeCampo: 'itens', mensagem: 'Informe de 1 a 1000 itens.' }]);
    expect((await call(fake, 'POST', `/v1/orgaos/${CNPJ}/pca/2027/9/itens`, token, [item(16)])).status).toBe(404);
  });

  it('answers 422 when the unit is not registered for the órgão, or the órgão is unknown', async () => {
    const res = await createPlan(fake, token, items(1, 1), { codigoUnidade: '99' });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ erros: [{ nomeCampo: 'codigoUnidade', mensagem: 'Unidade não cadastrada para o órgão.' }] });
    const other = await call(fake, 'POST', '/v1/orgaos/11222333000181/pca', token, { codigoUnidade: '1', anoPca: 2027, itensPlano: items(1, 1) });
    expect(other.status).toBe(422);
    expect(fake.plans()).toEqual([]);
  });
});

describe('rectify and delete', () => {
  beforeEach(async () => {
    expect((await createPlan(fake, token, items(1, 5))).status).toBe(201);
  });

  it('rectifies one item and a list, keeping each rectification with its justificativa', async () => {
    const one = await call(fake, 'PATCH', `${plan}/itens/2`, token, { valorUnitario: '30.0000', valorTotal: '90.0000', justificativa: 'Preço atualizado.' });
    expect(one.status).toBe(200);
    const many = await call(fake, 'PATCH', `${plan}/itens`, token, {
      lista: [
        { numeroItem: 3, quantidade: '4', valorTotal: '101.3332' },
        { numeroItem: 4, dataDesejada: '2027-06-01' },
      ],
      justificativa: 'Ajuste de quantidades.',
    });
    expect(many.status).toBe(200);
    const [, i2, i3, i4] = fake.plans()[0]?.itens ?? [];
    expect(i2?.body.valorUnitario).toBe('30.0000');
    expect(i2?.retificacoes).toEqual([{ campos: { valorUnitario: '30.0000', valorTotal: '90.0000' }, justificativa: 'Preço atualizado.' }]);
    expect(i3?.body).toMatchObject({ quantidade: '4', valorTotal: '101.3332', valorUnitario: '25.3333' });
    expect(i4?.retificacoes).toEqual([{ campos: { dataDesejada: '2027-06-01' }, justificativa: 'Ajuste de quantidades.' }]);
  });

  it('validates rectifications: justificativa 1–255, fields, unknown items 404', async () => {
    const noJust = await call(fake, 'PATCH', `${plan}/itens/2`, token, { valorUnitario: '30' });
    expect(noJust.status).toBe(400);
    expect(await noJust.json()).toEqual({ erros: [{ nomeCampo: 'justificativa', mensagem: 'Justificativa é obrigatória.' }] });
    const long = await call(fake, 'PATCH', `${plan}/itens/2`, token, { valorUnitario: '30', justificativa: 'x'.repeat(256) });
    expect((await long.json()).erros[0].mensagem).toBe('Tamanho máximo de 255 caracteres.');
    const badField = await call(fake, 'PATCH', `${plan}/itens`, token, { lista: [{ numeroItem: 1, valorUnitario: '1.00001' }], justificativa: 'Ajuste.' });
    expect(badField.status).toBe(400);
    expect((await badField.json()).erros[0].nomeCampo).toBe('lista[0].valorUnitario');
    expect((await call(fake, 'PATCH', `${plan}/itens/9`, token, { valorUnitario: '1', justificativa: 'Ajuste.' })).status).toBe(404);
    expect(
      (
        await call(fake, 'PATCH', `${plan}/itens`, token, {
          lista: [
            { numeroItem: 1, valorUnitario: '1' },
            { numeroItem: 9, valorUnitario: '1' },
          ],
          justificativa: 'Ajuste.',
        })
      ).status,
    ).toBe(404);
    expect((await call(fake, 'PATCH', `/v1/orgaos/${CNPJ}/pca/2027/7/itens/1`, token, { valorUnitario: '1', justificativa: 'Ajuste.' })).status).toBe(404);
    // Nothing was applied by the failed list.
    expect(fake.plans()[0]?.itens.every((i) => i.retificacoes.length === 0)).toBe(true);
  });

  it('deletes one item, a list, then the plan; reads skip deleted items', async () => {
    expect((await call(fake, 'DELETE', `${plan}/itens/1`, token, {})).status).toBe(400);
    expect((await call(fake, 'DELETE', `${plan}/itens/1`, token, { justificativa: 'Item desnecessário.' })).status).toBe(200);
    expect((await call(fake, 'DELETE', `${plan}/itens/1`, token, { justificativa: 'De novo.' })).status).toBe(404);
    expect((await call(fake, 'DELETE', `${plan}/itens`, token, { listaNumerosItens: [2, 2], justificativa: 'x' })).status).toBe(400);
    expect((await call(fake, 'DELETE', `${plan}/itens`, token, { listaNumerosItens: [2, 8], justificativa: 'x' })).status).toBe(404);
    expect((await call(fake, 'DELETE', `${plan}/itens`, token, { listaNumerosItens: [2, 3], justificativa: 'Itens agrupados.' })).status).toBe(200);
    const left = (await (await call(fake, 'GET', `${plan}/itens`)).json()) as { numeroItem: number }[];
    expect(left.map((i) => i.numeroItem)).toEqual([4, 5]);
    expect(await (await call(fake, 'GET', `${plan}/itens/quantidade`)).json()).toBe(2);
    const itens = fake.plans()[0]?.itens ?? [];
    expect(itens.map((i) => [i.numeroItem, i.excluido, i.justificativaExclusao])).toEqual([
      [1, true, 'Item desnecessário.'],
      [2, true, 'Itens agrupados.'],
      [3, true, 'Itens agrupados.'],
      [4, false, undefined],
      [5, false, undefined],
    ]);
    expect((await call(fake, 'DELETE', plan, token, { justificativa: '' })).status).toBe(400);
    expect((await call(fake, 'DELETE', plan, token, { justificativa: 'Plano substituído.' })).status).toBe(200);
    expect(fake.plans()[0]?.excluido).toBe(true);
  });

  it('deletes the items of a future contratação by numeroContratacao', async () => {
    await call(fake, 'POST', `${plan}/itens`, token, [item(6, { grupoContratacaoCodigo: 'C-1' }), item(7, { grupoContratacaoCodigo: 'C-1' })]);
    const res = await call(fake, 'DELETE', `${plan}/itens/contratacao?numeroContratacao=C-1`, token, { justificativa: 'Contratação cancelada.' });
    expect(res.status).toBe(200);
    expect(
      fake
        .plans()[0]
        ?.itens.filter((i) => i.excluido)
        .map((i) => i.numeroItem),
    ).toEqual([6, 7]);
  });
});

describe('domain tables', () => {
  it('serves the categories and catalogues', async () => {
    const categorias = (await (await call(fake, 'GET', '/v1/categoriaItemPcas')).json()) as { id: number; nome: string }[];
    expect(categorias.map((c) => c.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const catalogos = (await (await call(fake, 'GET', '/v1/catalogos')).json()) as { id: number; nome: string }[];
    expect(catalogos.map((c) => c.nome)).toEqual(['CNBS', 'Outros']);
  });
});
