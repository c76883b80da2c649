import { type ErrorBody, describeEachDatabase } from '@app/server-core/testing';
import { beforeAll, expect, it } from 'vitest';
import registros from '../src/server/index.js';

type Item = Record<string, unknown> & { id: string; version: number; ativo: boolean };
type PageBody = { items: Item[]; total: number; page: number; pageSize: number };

describeEachDatabase('@app/registros API', { plugins: [registros] }, (t) => {
  let token: string;
  const api = (path: string, init: Parameters<typeof t.server.request>[1] = {}) => t.server.request(`/api/registros${path}`, { token, ...init });
  const json = async <T>(res: Response, status: number): Promise<T> => {
    const text = await res.text();
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  };
  const list = async (path: string) => json<PageBody>(await api(path), 200);

  beforeAll(async () => {
    token = (await t.server.signIn('admin', 'demo1234', (await t.server.demoEntidades()).prefeitura)).token;
  });

  /** Create → read → update (version) → stale update → delete → 404, for one registry. */
  async function roundTrip(path: string, create: Record<string, unknown>, update: Record<string, unknown>) {
    const created = await json<Item>(await api(path, { json: create }), 201);
    expect(created).toMatchObject({ version: 1, ativo: true });
    const read = await json<Item>(await api(`${path}/${created.id}`), 200);
    expect(read.id).toBe(created.id);
    const updated = await json<Item>(await api(`${path}/${created.id}`, { method: 'PUT', json: { ...update, version: 1 } }), 200);
    expect(updated.version).toBe(2);
    const stale = await json<ErrorBody>(await api(`${path}/${created.id}`, { method: 'PUT', json: { ...update, version: 1 } }), 409);
    expect(stale.error.code).toBe('stale');
    await json(await api(`${path}/${created.id}`, { method: 'DELETE' }), 204);
    await json(await api(`${path}/${created.id}`), 404);
    return { created, updated };
  }

  it('has the demo registries of the Prefeitura, searchable without accents', async () => {
    const grupos = await list('/grupos?pageSize=100');
    expect(grupos.items.map((g) => g.nome)).toEqual(
      expect.arrayContaining(['Material de Expediente', 'Gêneros Alimentícios', 'Material de Limpeza', 'Medicamentos', 'Serviços de Manutenção']),
    );
    expect((await list('/grupos?q=generos%20alimenticios')).items.map((g) => g.nome)).toEqual(['Gêneros Alimentícios']);
    const unidades = (await list('/unidades?pageSize=100&sort=sigla')).items.map((u) => u.sigla);
    expect(unidades).toEqual(expect.arrayContaining(['UN', 'CX', 'KG', 'L', 'M', 'PCT', 'RESMA', 'SV']));
    const centros = await list('/centros-custo?q=secretaria&sort=codigo');
    expect(centros.items.map((c) => c.nome)).toEqual([
      'Secretaria Municipal de Administração',
      'Secretaria Municipal de Educação',
      'Secretaria Municipal de Saúde',
      'Secretaria Municipal de Obras e Serviços Públicos',
      'Secretaria Municipal de Assistência Social',
    ]);
    const sub = await list('/centros-custo?q=almoxarifado');
    expect(sub.items[0]).toMatchObject({ codigo: '01.03', parentNome: '01 – Secretaria Municipal de Administração' });
    for (const path of ['/subgrupos', '/tipos-material', '/nucleos-consumo', '/ramos-atividade', '/tipos-solicitacao', '/cargos']) {
      expect((await list(path)).total, path).toBeGreaterThan(3);
    }
    // the Câmara has none of them
    const camara = (await t.server.signIn('admin', 'demo1234', (await t.server.demoEntidades()).camara)).token;
    const theirs = (await (await t.server.request('/api/registros/grupos', { token: camara })).json()) as PageBody;
    expect(theirs.total).toBe(0);
  });

  it('grupos: create, read, update, delete; catalogue mapping all-or-nothing', async () => {
    const { updated } = await roundTrip(
      '/grupos',
      { codigo: '90', nome: 'Material Esportivo', catalogoTipo: 'material', catalogoCodigo: '7810', catalogoNome: 'Artigos esportivos' },
      { codigo: '90', nome: 'Material Esportivo e Recreativo', catalogoTipo: '', catalogoCodigo: '', catalogoNome: '' },
    );
    expect(updated).toMatchObject({ nome: 'Material Esportivo e Recreativo', catalogoTipo: null, catalogoCodigo: null, catalogoNome: null });
    const half = await json<ErrorBody>(await api('/grupos', { json: { codigo: '91', nome: 'Grupo X', catalogoTipo: 'servico' } }), 400);
    expect(half.error.fields).toEqual({ catalogoCodigo: 'Informe o código da classe/grupo.', catalogoNome: 'Informe o nome da classe/grupo.' });
    const dup = await json<ErrorBody>(await api('/grupos', { json: { codigo: '01', nome: 'Outro' } }), 409);
    expect(dup.error).toMatchObject({ code: 'duplicate', fields: { codigo: 'Já existe um grupo com este código.' } });
    const dupNome = await json<ErrorBody>(await api('/grupos', { json: { codigo: '92', nome: 'medicamentos' } }), 409);
    expect(dupNome.error.message).toBe('Já existe um grupo com este nome.');
  });

  it('a grupo used by sub-grupos cannot be deleted (409 "Usado em N sub-grupos"), it can be deactivated', async () => {
    const [grupo] = (await list('/grupos?q=generos')).items;
    const res = await json<ErrorBody>(await api(`/grupos/${grupo!.id}`, { method: 'DELETE' }), 409);
    expect(res.error.code).toBe('in_use');
    expect(res.error.message).toMatch(/^Usado em 6 sub-grupos\./);
    const off = await json<Item>(await api(`/grupos/${grupo!.id}/desativar`, { method: 'POST' }), 200);
    expect(off.ativo).toBe(false);
    expect((await list('/grupos?q=generos')).total).toBe(0);
    await json(await api(`/grupos/${grupo!.id}/ativar`, { method: 'POST' }), 200);
  });

  it('sub-grupos: belong to a grupo of the entidade, filter and sort by grupo', async () => {
    const [grupo] = (await list('/grupos?q=expediente')).items;
    const { created, updated } = await roundTrip(
      '/subgrupos',
      { grupoId: grupo!.id, codigo: '01.90', nome: 'Material de desenho' },
      {
        grupoId: grupo!.id,
        codigo: '01.90',
        nome: 'Material de desenho técnico',
        catalogoTipo: 'material',
        catalogoCodigo: '7520',
        catalogoNome: 'Dispositivos e acessórios de escritório',
      },
    );
    expect(created.grupoNome).toBe('Material de Expediente');
    expect(updated.catalogoCodigo).toBe('7520');
    const missing = await json<ErrorBody>(await api('/subgrupos', { json: { codigo: '1', nome: 'Sem grupo' } }), 400);
    expect(missing.error.fields).toEqual({ grupoId: 'Selecione o grupo.' });
    const foreign = await json<ErrorBody>(
      await api('/subgrupos', { json: { grupoId: '00000000-0000-4000-8000-000000000000', codigo: '1', nome: 'Grupo inexistente' } }),
      400,
    );
    expect(foreign.error.fields).toEqual({ grupoId: 'Selecione um grupo cadastrado.' });
    const ofGrupo = await list(`/subgrupos?grupoId=${grupo!.id}&sort=codigo`);
    expect(ofGrupo.items.map((s) => s.codigo)).toEqual(['01.01', '01.02', '01.03']);
    const byGrupo = await list('/subgrupos?sort=-grupoNome&pageSize=1');
    expect(byGrupo.items[0]!.grupoNome).toBe('Serviços de Manutenção');
  });

  it('unidades: sigla in upper case, fracionável, unique sigla', async () => {
    const { created } = await roundTrip('/unidades', { sigla: 'bd', descricao: 'Bandeja' }, { sigla: 'BDJ', descricao: 'Bandeja', fracionavel: true });
    expect(created).toMatchObject({ sigla: 'BD', fracionavel: false });
    const dup = await json<ErrorBody>(await api('/unidades', { json: { sigla: 'kg', descricao: 'Quilo' } }), 409);
    expect(dup.error.message).toBe('Já existe uma unidade com esta sigla.');
  });

  it('tipos de material, ramos de atividade (CNAE), tipos de solicitação (prazo), cargos', async () => {
    await roundTrip('/tipos-material', { nome: 'Material bibliográfico' }, { nome: 'Material bibliográfico', descricao: 'Livros e periódicos.' });
    const { updated: ramo } = await roundTrip(
      '/ramos-atividade',
      { nome: 'Comércio varejista de livros', cnae: '4761-0/01' },
      { nome: 'Comércio varejista de livros e revistas', cnae: '47610-01' },
    );
    expect(ramo.cnae).toBe('4761001');
    const badCnae = await json<ErrorBody>(await api('/ramos-atividade', { json: { nome: 'X ramo', cnae: '123' } }), 400);
    expect(badCnae.error.fields).toEqual({ cnae: 'O código CNAE tem 7 dígitos (0000-0/00).' });
    const { updated: tipo } = await roundTrip('/tipos-solicitacao', { nome: 'Adesão a ata' }, { nome: 'Adesão a ata', prazoDias: 15 });
    expect(tipo.prazoDias).toBe(15);
    const neg = await json<ErrorBody>(await api('/tipos-solicitacao', { json: { nome: 'Y', prazoDias: -1 } }), 400);
    expect(neg.error.fields).toEqual({ prazoDias: 'O prazo não pode ser negativo.' });
    await roundTrip('/cargos', { nome: 'Controlador Interno' }, { nome: 'Controlador Interno', descricao: 'Controle interno (art. 169).' });
  });

  it('centros de custo: parent of the entidade, no cycles, in use by sub-centros and núcleos', async () => {
    const [adm] = (await list('/centros-custo?q=01%20administracao&sort=codigo')).items;
    const { created } = await roundTrip(
      '/centros-custo',
      { codigo: '01.90', nome: 'Protocolo Geral', parentId: adm!.id },
      { codigo: '01.90', nome: 'Protocolo Geral e Arquivo', parentId: '', responsavelNome: 'Marta Lima' },
    );
    expect(created.parentNome).toBe('01 – Secretaria Municipal de Administração');
    const cycle = await json<ErrorBody>(
      await api(`/centros-custo/${adm!.id}`, {
        method: 'PUT',
        json: { codigo: '01', nome: adm!.nome, parentId: (await list('/centros-custo?q=01.01')).items[0]!.id, version: adm!.version },
      }),
      400,
    );
    expect(cycle.error.fields?.parentId).toMatch(/não pode ficar subordinado/);
    const inUse = await json<ErrorBody>(await api(`/centros-custo/${adm!.id}`, { method: 'DELETE' }), 409);
    expect(inUse.error.message).toMatch(/^Usado em 3 centros de custo\./);
    const [almox] = (await list('/centros-custo?q=almoxarifado')).items;
    const linked = await json<ErrorBody>(await api(`/centros-custo/${almox!.id}`, { method: 'DELETE' }), 409);
    expect(linked.error.message).toMatch(/^Usado em 1 núcleo de consumo\./);
  });

  it('núcleos de consumo group several centros de custo (links replaced on update, audited)', async () => {
    const centros = (await list('/centros-custo?q=05.0&sort=codigo')).items;
    const ids = centros.map((c) => c.id);
    const created = await json<Item>(await api('/nucleos-consumo', { json: { nome: 'Núcleo Social', centroIds: ids.slice(0, 2) } }), 201);
    expect([...(created.centroIds as string[])].sort()).toEqual(ids.slice(0, 2).sort());
    expect(created.centrosNomes).toContain('05.01 – Centro de Referência de Assistência Social (CRAS)');
    const updated = await json<Item>(
      await api(`/nucleos-consumo/${created.id}`, { method: 'PUT', json: { nome: 'Núcleo Social', centroIds: [ids[2]], version: 1 } }),
      200,
    );
    expect(updated.centroIds).toEqual([ids[2]]);
    const [audit] = await t.server.sql<{ antes: Record<string, unknown>; depois: Record<string, unknown> }>(
      "SELECT antes, depois FROM audit_log WHERE registro = $1 AND acao = 'alterar'",
      [created.id],
    );
    expect(audit!.depois.centroIds).toEqual([ids[2]]);
    const foreign = await json<ErrorBody>(
      await api('/nucleos-consumo', { json: { nome: 'Núcleo Z', centroIds: ['00000000-0000-4000-8000-000000000000'] } }),
      400,
    );
    expect(foreign.error.fields).toEqual({ centroIds: 'Selecione centros de custo cadastrados.' });
    // deleting the núcleo drops its links (the centros stay)
    await json(await api(`/nucleos-consumo/${created.id}`, { method: 'DELETE' }), 204);
    expect((await t.server.sql('SELECT 1 FROM registros_nucleo_centros WHERE nucleo_id = $1', [created.id])).length).toBe(0);
  });

  it('exports each registry as CSV with its columns', async () => {
    const res = await api('/unidades.csv?sort=sigla&q=kg');
    const text = new TextDecoder().decode(await res.arrayBuffer());
    expect(
      text
        .trim()
        .split('\r\n')
        .map((l) => l.replace(/^\uFEFF/, '')),
    ).toEqual(['Sigla;Descrição;Fracionável', 'KG;Quilograma;Sim']);
    const ramos = new TextDecoder().decode(await (await api('/ramos-atividade.csv?q=papelaria')).arrayBuffer());
    expect(ramos).toContain('Comércio varejista de artigos de papelaria;4761-0/03');
  });
});
